"""The shipped fonts (字体): loaded from ``render/assets`` only, never from the system."""

from __future__ import annotations

import unicodedata
from functools import cache
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
#: Labels, names and scoring items.
SANS_PATH = ASSETS / "NotoSansCJKsc-Bold-subset.otf"
#: Characters on tile faces.
SERIF_PATH = ASSETS / "NotoSerifCJKsc-Bold-subset.otf"
GLYPHS_PATH = ASSETS / "glyphs.txt"
MISSING = "?"


@cache
def covered() -> frozenset[str]:
    """Characters the shipped label font can draw (written by ``build_font.py``)."""
    return frozenset(GLYPHS_PATH.read_text(encoding="utf-8").rstrip("\n"))


@cache
def sans(size: int) -> ImageFont.FreeTypeFont:
    """The label font at ``size`` px (Noto Sans CJK SC Bold subset)."""
    return ImageFont.truetype(str(SANS_PATH), size)


@cache
def serif(size: int) -> ImageFont.FreeTypeFont:
    """The tile-face font at ``size`` px (Noto Serif CJK SC Bold subset)."""
    return ImageFont.truetype(str(SERIF_PATH), size)


def safe_text(text: str, limit: int | None = None) -> str:
    """``text`` with every character the font lacks replaced by ``?`` and control characters
    dropped; cut to ``limit`` characters with ``…`` when longer."""
    have = covered()
    out: list[str] = []
    for ch in text:
        if ch in have:
            out.append(ch)
        elif ch.isspace():
            out.append(" ")
        elif ch.isprintable() and not _is_combining(ch):
            out.append(MISSING)
    result = "".join(out)
    if limit is not None and len(result) > limit:
        result = result[: max(limit - 1, 0)] + "…"
    return result


def _is_combining(ch: str) -> bool:
    return unicodedata.combining(ch) != 0 or unicodedata.category(ch) in {"Mn", "Me", "Cf"}
