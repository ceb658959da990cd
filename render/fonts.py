"""The shipped fonts (字体): loaded from ``render/assets`` only, never from the system.

Labels and names are drawn with the label fonts tried per character (逐字后备): Noto Sans CJK
SC (Chinese in GB2312 and Big5's common set, kana, Hangul, Latin), then DejaVu Sans (other
alphabets, accents, symbols), then Symbola (emoji); a character none of them has is drawn
as ``?``.
"""

from __future__ import annotations

import unicodedata
from functools import cache, lru_cache
from pathlib import Path

from PIL import ImageFont

ASSETS = Path(__file__).resolve().parent / "assets"
#: Labels, names and scoring items.
SANS_PATH = ASSETS / "NotoSansCJKsc-Bold-subset.otf"
#: Characters on tile faces.
SERIF_PATH = ASSETS / "NotoSerifCJKsc-Bold-subset.otf"
GLYPHS_PATH = ASSETS / "glyphs.txt"
#: The label fonts in the order they are tried, each with the list of characters it has
#: (written by ``build_font.py``): the first is :data:`SANS_PATH`.
LABEL_FONTS: tuple[tuple[Path, Path], ...] = (
    (SANS_PATH, GLYPHS_PATH),
    (ASSETS / "DejaVuSans-Bold-subset.ttf", ASSETS / "glyphs-dejavu.txt"),
    (ASSETS / "Symbola-subset.ttf", ASSETS / "glyphs-symbola.txt"),
)
MISSING = "?"
#: Emoji skin-tone modifiers: they only recolour the emoji before them, which a
#: one-colour font cannot show, so they are dropped rather than drawn as swatches.
SKIN_TONES = frozenset(chr(c) for c in range(0x1F3FB, 0x1F400))


@cache
def face_glyphs() -> tuple[frozenset[str], ...]:
    """The characters each label font draws, in :data:`LABEL_FONTS` order."""
    return tuple(
        frozenset(path.read_text(encoding="utf-8").rstrip("\n")) for _, path in LABEL_FONTS
    )


@cache
def covered() -> frozenset[str]:
    """Characters the shipped label fonts can draw, together."""
    return frozenset().union(*face_glyphs())


@cache
def label_font(index: int, size: int) -> ImageFont.FreeTypeFont:
    """Label font number ``index`` of :data:`LABEL_FONTS` at ``size`` px."""
    return ImageFont.truetype(str(LABEL_FONTS[index][0]), size)


@cache
def sans(size: int) -> ImageFont.FreeTypeFont:
    """The label font at ``size`` px (Noto Sans CJK SC Bold subset)."""
    return ImageFont.truetype(str(SANS_PATH), size)


@cache
def serif(size: int) -> ImageFont.FreeTypeFont:
    """The tile-face font at ``size`` px (Noto Serif CJK SC Bold subset)."""
    return ImageFont.truetype(str(SERIF_PATH), size)


def is_label_font(font: object) -> bool:
    """Whether ``font`` is the first label font (the one callers pass to the drawing)."""
    return getattr(font, "path", None) == str(SANS_PATH)


def needs_fallback(text: str) -> bool:
    """Whether ``text`` (already safe) has a character the first label font lacks."""
    first = face_glyphs()[0]
    return any(ch not in first for ch in text)


def runs(text: str) -> list[tuple[int, str]]:
    """``text`` (already safe) cut into runs drawn by one label font each:
    ``(font index, characters)``; a character no font has stays with the first."""
    faces = face_glyphs()
    out: list[tuple[int, str]] = []
    for ch in text:
        index = next((i for i, have in enumerate(faces) if ch in have), 0)
        if out and out[-1][0] == index:
            out[-1] = (index, out[-1][1] + ch)
        else:
            out.append((index, ch))
    return out


def text_length(text: str, size: int) -> float:
    """Width in pixels of ``text`` (already safe) drawn at ``size`` px, font by font."""
    if not needs_fallback(text):
        return sans(size).getlength(text)
    return sum(label_font(i, size).getlength(part) for i, part in runs(text))


def baseline_offset(size: int, anchor: str) -> float:
    """How far below a line's anchor point its baseline lies, for the vertical anchor
    letter of ``anchor`` (``a`` ascender, ``m`` middle, ``s`` baseline, ``d`` descender),
    measured on the first label font so that every run of a line shares one baseline."""
    ascent, descent = sans(size).getmetrics()
    vertical = anchor[1] if len(anchor) > 1 else "a"
    return {"a": ascent, "t": ascent, "m": (ascent - descent) / 2, "s": 0, "d": -descent}.get(
        vertical, -descent
    )


@lru_cache(maxsize=4096)
def safe_text(text: str, limit: int | None = None) -> str:
    """``text`` with every character no label font has replaced by ``?``, accents composed
    (``e`` + ``◌́`` → ``é``) and control characters, marks left over and skin tones dropped;
    cut to ``limit`` characters with ``…`` when longer. Kept: a table picture makes the same
    dozen labels safe each time (names, scores, counts), character by character."""
    have = covered()
    out: list[str] = []
    for ch in unicodedata.normalize("NFC", text):
        if ch in SKIN_TONES or _is_combining(ch):
            continue
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
