"""Texts the engine owns, reached through :func:`i18n.t` as ``engine.<id>``.

Variant names, scoring-item names, variant help facts, impossible-hand refusal reasons and
why a hand is not a legal win are data in :mod:`engine` — :class:`engine.variants.Text`
values with a stable ``id`` and the three locales ``zh``, ``zh_TW``, ``en``. This module
indexes them by id: every ``Text`` reachable from a registered variant (its title, help
facts, …), and every ``Text`` the engine lists itself through an ``engine.variants.texts()``
function when it has one (the scoring-item catalogue, refusal and not-a-legal-win reasons).
``t("engine.variant.xinyu", "zh-TW")`` → 新餘麻將.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator

from engine import variants
from engine.tiles import N_KINDS, tile_str, zh_name
from engine.variants import Text
from engine.variants.catalogue import TILE_PREFIX

ENGINE_PREFIX = "engine."

_index: dict[str, Text] = {}
_by_zh: dict[str, Text] = {}


def _texts_in(value: object, depth: int = 0) -> Iterator[Text]:
    """Every :class:`Text` inside a variant's data (dataclass fields, tuples, dict values)."""
    if isinstance(value, Text):
        yield value
    elif depth > 4 or isinstance(value, str | bytes | int | float | type):
        return
    elif dataclasses.is_dataclass(value):
        for f in dataclasses.fields(value):
            yield from _texts_in(getattr(value, f.name, None), depth + 1)
    elif isinstance(value, tuple | list | frozenset | set):
        for item in value:
            yield from _texts_in(item, depth + 1)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _texts_in(item, depth + 1)


def _all_texts() -> Iterable[Text]:
    listed = getattr(variants, "texts", None)
    if callable(listed):
        yield from listed()
    for variant in variants.all():
        yield from _texts_in(variant)


def _rebuild() -> None:
    _index.clear()
    _by_zh.clear()
    for text in _all_texts():
        _index.setdefault(text.id, text)
        _by_zh.setdefault(text.zh, text)


def engine_text(text_id: str, locale: str) -> str:
    """The engine's text ``text_id`` in ``locale`` (``zh``, ``zh-TW`` or ``en``)."""
    text = _index.get(text_id)
    if text is None:
        _rebuild()  # a variant registered since (a plug-in, a test's toy variant)
        text = _index.get(text_id)
        if text is None:
            raise KeyError(f"no engine text {text_id!r}")
    if locale not in ("zh", "zh-TW", "en"):
        raise KeyError(f"no locale {locale!r} for engine text {text_id!r}")
    return text.pick(locale)


def engine_text_by_zh(zh: str, locale: str) -> str:
    """An engine text found by its 简体 wording (a scoring item named in a stored result,
    ``清一色``) in ``locale``; the wording itself when the engine has no such text.

    A scored line that joins names (``平胡 宝吊``), counts one (``兴家 ×2``) or names its tile
    first (``中明杠``) is read part by part, so no 简体 part is left in a 繁體 line.

    >>> engine_text_by_zh("平胡 宝吊", "zh-TW"), engine_text_by_zh("发明杠 ×2", "zh-TW")
    ('平胡 寶吊', '發明槓 ×2')
    """
    if not _index:
        _rebuild()
    text = _by_zh.get(zh)
    if text is not None:
        return text.pick(locale)
    if " " in zh.strip():
        return " ".join(engine_text_by_zh(part, locale) if part else part for part in zh.split(" "))
    prefix = TILE_PREFIX.match(zh)
    if prefix is not None and zh[prefix.end() :] in _by_zh:
        tile = _tile_in(prefix.group(0), locale)
        return tile + _by_zh[zh[prefix.end() :]].pick(locale)
    return zh


def _tile_in(zh_tile: str, locale: str) -> str:
    """A tile's 简体 name (``发``, ``五万``) in ``locale`` (``發``, ``五萬``)."""
    from i18n import t  # the catalogue, loaded on first use

    for kind in range(N_KINDS):
        if zh_name(kind) == zh_tile:
            return t(f"common.tile.{tile_str(kind)}", locale)
    return zh_tile


def engine_text_ids() -> tuple[str, ...]:
    """Every engine text id known now (for the catalogue tests)."""
    _rebuild()
    return tuple(sorted(_index))
