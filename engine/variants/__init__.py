"""The variant registry: every variant the engine knows, by name.

Each sub-package of ``engine/variants/`` is one variant and exposes ``VARIANT`` (a
:class:`Variant`); they are found and imported on first use, so adding a variant means adding
one folder. Code outside this package never names a variant: it asks :func:`get` /
:func:`all`. A test (or a plug-in) adds its own with :func:`register`, or names modules to
import with :func:`load_modules` (the ``python -m engine.score --variant-module`` option and
the ``MAHJONG_VARIANTS`` environment variable of the CLIs use it).

>>> [v.name for v in all()][:3]
['shangrao', 'xinyu', 'jiujiang']
>>> get("xinyu").title.zh
'新余麻将'
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterable, Mapping

from engine.not_legal_texts import NOT_LEGAL
from engine.refusal import Reason
from engine.refusal_texts import REFUSALS
from engine.variants.base import (
    AiTuning,
    DeskFields,
    HelpFacts,
    OptionError,
    OptionInfo,
    PayRequest,
    RuleOptions,
    TableRules,
    Text,
    Variant,
)
from engine.variants.catalogue import catalogue_texts

_REGISTRY: dict[str, Variant] = {}
_builtin_loaded = False


class UnknownVariant(OptionError):
    """A variant name the registry does not know."""


def _load_builtin() -> None:
    global _builtin_loaded
    if _builtin_loaded:
        return
    _builtin_loaded = True
    for info in pkgutil.iter_modules(__path__):
        if info.ispkg:
            module = importlib.import_module(f"{__name__}.{info.name}")
            variant = getattr(module, "VARIANT", None)
            if isinstance(variant, Variant) and variant.name not in _REGISTRY:
                _REGISTRY[variant.name] = variant


def register(variant: Variant, *, replace: bool = False) -> Variant:
    """Add ``variant`` (a test's toy variant, a plug-in). Registering the same object again
    is a no-op; another variant under a taken name needs ``replace=True``."""
    _load_builtin()
    old = _REGISTRY.get(variant.name)
    if old is not None and old is not variant and not replace:
        raise ValueError(f"a variant named {variant.name!r} is already registered")
    _REGISTRY[variant.name] = variant
    return variant


def unregister(name: str) -> None:
    """Remove a registered variant (a test cleaning up after itself)."""
    _REGISTRY.pop(name, None)


def load_modules(names: Iterable[str]) -> None:
    """Import each module named (``pkg.mod``); a module exposing ``VARIANT`` is registered
    (a module may also call :func:`register` itself). Blank names are skipped."""
    for name in names:
        name = name.strip()
        if not name:
            continue
        module = importlib.import_module(name)
        variant = getattr(module, "VARIANT", None)
        if isinstance(variant, Variant):
            register(variant, replace=True)


#: Environment variable naming extra variant modules (comma-separated) for the CLIs.
ENV_VAR = "MAHJONG_VARIANTS"


def load_plugins(modules: Iterable[str] = (), environ: Mapping[str, str] | None = None) -> None:
    """Register the variants of ``modules`` (``--variant-module``) and of the modules named
    in ``environ[MAHJONG_VARIANTS]`` (comma-separated): what the CLIs call first."""
    named = list(modules)
    if environ is not None:
        named += environ.get(ENV_VAR, "").split(",")
    load_modules(named)


def get(name: str) -> Variant:
    """The variant called ``name``; raises :class:`UnknownVariant` naming the known ones."""
    v = _REGISTRY.get(name)
    if v is None:
        _load_builtin()
        v = _REGISTRY.get(name)
        if v is None:
            known = ", ".join(names())
            raise UnknownVariant(
                Reason(
                    "errors.option.unknown_variant",
                    "unknown variant {name!r}: choose one of {known}",
                    name=name,
                    known=known,
                )
            )
    return v


def all() -> tuple[Variant, ...]:
    """Every registered variant, in command-choice order (the first is the default)."""
    _load_builtin()
    return tuple(sorted(_REGISTRY.values(), key=lambda v: (v.order, v.name)))


def texts() -> tuple[Text, ...]:
    """Every engine-owned text the bot shows by id: each scoring item name of the catalogue
    (shared items once), the refusals of impossible hands (``refusal.<name>``), why a hand
    is not a legal win (``not_legal.<name>``), and each registered variant's titles, unit and
    help facts."""
    out: dict[str, Text] = {t.id: t for t in catalogue_texts()}
    for t in (*REFUSALS.values(), *NOT_LEGAL.values()):
        out.setdefault(t.id, t)
    for v in all():
        for t in (v.title, v.short, v.unit, v.wildcard):
            out.setdefault(t.id, t)
        if v.help is not None:
            for t in v.help.texts():
                out.setdefault(t.id, t)
        for i in v.items:
            out.setdefault(i.name.id, i.name)
    return tuple(out.values())


def names() -> tuple[str, ...]:
    """The names of :func:`all`, in the same order."""
    return tuple(v.name for v in all())


def default() -> Variant:
    """The default variant (the first of :func:`all`)."""
    return all()[0]


def is_known(name: object) -> bool:
    """Whether ``name`` is a registered variant's name."""
    _load_builtin()
    return isinstance(name, str) and name in _REGISTRY


__all__ = [
    "ENV_VAR",
    "AiTuning",
    "DeskFields",
    "HelpFacts",
    "OptionError",
    "OptionInfo",
    "PayRequest",
    "RuleOptions",
    "TableRules",
    "Text",
    "UnknownVariant",
    "Variant",
    "all",
    "default",
    "get",
    "is_known",
    "load_modules",
    "load_plugins",
    "names",
    "register",
    "texts",
    "unregister",
]
