"""The pictures' words (图上文字) in a reader's language, from the ``picture`` catalogue.

:mod:`render` reads no catalogue (it imports nothing of the project); every caller that
builds a picture model puts ``words=picture_words(lang)`` in it, so a 繁體 reader's table,
hand, result, 摊牌, standings and replay pictures say 莊 / 聽 / 寶 … instead of 庄 / 听 / 宝; the
wildcard word is the variant's own (``picture_words(lang, variant)``: 宝, 精 …).
"""

from __future__ import annotations

from dataclasses import replace
from functools import cache

from engine import variants
from i18n import short, t
from render.words import PictureWords


def wildcard_word(variant: str | None, lang: str) -> str:
    """The variant's own word for a wildcard kind (上饶 宝, Nanchang-style 精: its registry field
    ``wildcard``) in ``lang`` (``zh+en``: 简体); the default variant's for an unknown one."""
    known = variant is not None and variants.is_known(variant)
    chosen = variants.get(variant) if known and variant is not None else variants.default()
    return chosen.wildcard.pick(short(lang))


def wildcard_mark(variant: str | None, lang: str) -> str:
    """The mark set before a wildcard kind in RULES notation (``宝7p×2``, ``精5p×1``): the
    variant's own word in Chinese in every locale (繁體 for ``zh-TW``, else 简体), since the
    notation is the rules' own, not prose."""
    return wildcard_word(variant, "zh-TW" if short(lang) == "zh-TW" else "zh")


def picture_words(lang: str, variant: str | None = None) -> PictureWords:
    """:class:`render.words.PictureWords` for ``lang`` (``zh``, ``zh-TW``, ``en``; a
    ``zh+en`` server's pictures are Chinese, like its short labels), with ``variant``'s
    wildcard word (:func:`wildcard_word`)."""
    return _with_wildcard(short(lang), wildcard_word(variant, lang))


@cache
def _with_wildcard(lang: str, wildcard: str) -> PictureWords:
    words = _catalogue_words(lang)
    return words if words.wildcard == wildcard else replace(words, wildcard=wildcard)


@cache
def _catalogue_words(lang: str) -> PictureWords:
    """The words of the ``picture`` catalogue in ``lang`` (the wildcard word is the
    variant's, set by :func:`picture_words`)."""

    def w(key: str) -> str:
        domain = "common" if key.startswith("wind.") else "picture"  # 门风: 东 / 東 / E
        return t(f"{domain}.{key}", lang)

    return PictureWords(
        winds=(w("wind.0"), w("wind.1"), w("wind.2"), w("wind.3")),
        honors=tuple(w("honors").split()),
        dealer=w("dealer"),
        ready=w("ready"),
        auto=w("auto"),
        won=w("won"),
        dealt_in=w("dealt_in"),
        sanbao=w("sanbao"),
        session_winner=w("session_winner"),
        total=w("total"),
        claim_wait=w("claim_wait"),
        drawn_hand=w("drawn_hand"),
        winner_line=w("winner_line"),
        points=w("points"),
        hand_number=w("hand_number"),
        wall_left=w("wall_left"),
        turn=w("turn"),
        hand_columns=(w("column.hand"), w("column.total")),
        standings_columns=(
            w("column.total"),
            w("column.wins"),
            w("column.self_draws"),
            w("column.dealt_in"),
            w("column.biggest"),
        ),
    )
