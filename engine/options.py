"""Rule options per variant (RULES §3–§5), as data.

Each variant has a frozen dataclass of its house-rule options with the defaults RULES.md gives
(``engine/variants/<name>/options.py``, found through :mod:`engine.variants`).
:func:`make_options` builds one from a JSON-like dict and refuses unknown names and bad values
with a clear message; :func:`describe_options` lists each option with its current value and a
one-line explanation (what ``/mahjong rules`` shows).

>>> o = make_options("shangrao", {"scoring": "xingchen"})
>>> o.scoring, o.discard_win, o.jiebao()
('xingchen', False, 10)
>>> make_options("xinyu", {"draw_dealer": "stay"}).draw_dealer
'stay'
>>> make_options("jiujiang", {"chi": "yes"})
Traceback (most recent call last):
...
engine.rule_options.OptionError: option 'chi' of jiujiang takes true or false, not 'yes'
"""

from __future__ import annotations

import dataclasses
from dataclasses import fields
from typing import Any

from engine import variants
from engine.refusal import Reason
from engine.rule_options import OptionError, OptionInfo, RuleOptions

__all__ = [
    "OptionError",
    "OptionInfo",
    "RuleOptions",
    "check_variant",
    "describe_options",
    "make_options",
    "options_to_dict",
]


def __getattr__(name: str) -> Any:
    """Registry views kept under their old names: ``VARIANTS`` (the names, in choice order),
    ``VARIANT_NAMES`` (name → (zh, en) title), ``OPTION_CLASSES`` (name → options class), and
    each built-in variant's options class (``XinyuOptions``…)."""
    if name == "VARIANTS":
        return variants.names()
    if name == "VARIANT_NAMES":
        return {v.name: (v.title.zh, v.title.en) for v in variants.all()}
    if name == "OPTION_CLASSES":
        return {v.name: v.options_class for v in variants.all()}
    if name.endswith("Options") and not name.startswith("_"):
        for v in variants.all():
            if v.options_class.__name__ == name:
                return v.options_class
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def check_variant(variant: str) -> str:
    """Return ``variant`` if the registry knows it, else raise :class:`OptionError`."""
    variants.get(variant)  # raises UnknownVariant (an OptionError) naming the known ones
    return variant


def make_options(variant: str, values: dict[str, Any] | None = None) -> RuleOptions:
    """Build a variant's options from a dict of overrides (JSON values or strings)."""
    cls = variants.get(variant).options_class
    values = dict(values or {})
    known = {f.name for f in fields(cls)}
    kwargs: dict[str, Any] = {}
    for name, raw in values.items():
        if name not in known:
            raise OptionError(
                Reason(
                    "errors.option.unknown",
                    "{variant} has no option {name!r}: its options are {known}",
                    variant=variant,
                    name=name,
                    known=", ".join(sorted(known)),
                )
            )
        kwargs[name] = _coerce(variant, name, raw, cls.INFO[name])
    options: RuleOptions = cls(**kwargs)
    return options


def _coerce(variant: str, name: str, raw: Any, info: OptionInfo) -> Any:
    choices = info.choices
    if isinstance(raw, str):
        low = raw.strip().lower()
        table = {"true": True, "false": False, "on": True, "off": False, "none": None, "": None}
        if low in table and (table[low] in choices):
            raw = table[low]
        elif low.isdigit():
            raw = int(low)
        else:
            raw = low
    if any(raw == c and type(raw) is type(c) for c in choices):
        return raw
    if info.int_range and type(raw) is int and info.int_range[0] <= raw <= info.int_range[1]:
        return raw
    if choices == (False, True):
        raise OptionError(
            Reason(
                "errors.option.bool",
                "option {name!r} of {variant} takes true or false, not {raw!r}",
                name=name,
                variant=variant,
                raw=raw,
            )
        )
    shown = ", ".join("none" if c is None else str(c).lower() for c in choices)
    if info.int_range:
        least, most = info.int_range
        raise OptionError(
            Reason(
                "errors.option.choice_or_number",
                "option {name!r} of {variant} takes one of {shown}, or a whole number "
                "{low}–{high}, not {raw!r}",
                name=name,
                variant=variant,
                shown=shown,
                low=least,
                high=most,
                raw=raw,
            )
        )
    raise OptionError(
        Reason(
            "errors.option.choice",
            "option {name!r} of {variant} takes one of {shown}, not {raw!r}",
            name=name,
            variant=variant,
            shown=shown,
            raw=raw,
        )
    )


def options_to_dict(options: RuleOptions) -> dict[str, Any]:
    """The options as a JSON-ready dict (every option, defaults included)."""
    return dataclasses.asdict(options)


def describe_options(options: RuleOptions, lang: str = "zh") -> list[tuple[str, Any, str]]:
    """``(name, current value, one-line explanation)`` for every option of the variant, the
    explanation in ``lang`` (``zh`` 简体, ``zh-TW`` 繁體 or ``en``)."""
    out = []
    for f in fields(options):
        info = options.INFO[f.name]
        out.append((f.name, getattr(options, f.name), info.pick(lang)))
    return out
