"""The shipped font: loaded from render/assets only, covers what the pictures write."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from PIL import Image, ImageDraw, ImageFont
from render_fixtures import result_state, table_state

from render import fonts, render_hand, render_result, render_table
from render.charset import COMMON_CHARS, LABEL_CHARS, NAME_CHARS, TILE_CHARS
from render.models import HandPicture, MeldView

REPO = Path(__file__).resolve().parents[2]


def _glyph(font: ImageFont.FreeTypeFont, ch: str) -> bytes:
    img = Image.new("L", (64, 64))
    ImageDraw.Draw(img).text((4, 4), ch, font=font, fill=255)
    return img.tobytes()


def test_only_shipped_fonts_are_loaded(monkeypatch: pytest.MonkeyPatch) -> None:
    loaded: list[str] = []
    real_truetype = ImageFont.truetype

    def recording_truetype(font=None, *args, **kwargs):
        loaded.append(str(font))
        return real_truetype(font, *args, **kwargs)

    def no_default(*args, **kwargs):
        raise AssertionError("the built-in default font must not be used")

    monkeypatch.setattr(ImageFont, "truetype", recording_truetype)
    monkeypatch.setattr(ImageFont, "load_default", no_default)
    from render import draw

    fonts.sans.cache_clear()
    fonts.serif.cache_clear()
    fonts.label_font.cache_clear()
    draw._runs_laid_out.cache_clear()  # it keeps the fonts of the runs it laid out
    try:
        render_table(table_state())
        render_result(result_state())
        render_hand(HandPicture(concealed=(0, 1, 2), drawn=3, title="标题", labels=True))
        fonts.serif(40)  # the tile faces (pre-rendered at import) use this one
    finally:
        fonts.sans.cache_clear()
        fonts.serif.cache_clear()
        fonts.label_font.cache_clear()
    assets = (REPO / "render" / "assets").resolve()
    assert loaded, "no font was loaded"
    assert {Path(p).resolve().parent for p in loaded} == {assets}
    label_fonts = {path.name for path, _ in fonts.LABEL_FONTS}
    # the fixtures' names hold emoji: the emoji fallback font is loaded too
    assert {fonts.SANS_PATH.name, fonts.SERIF_PATH.name, "Symbola-subset.ttf"} <= {
        Path(p).name for p in loaded
    }
    assert {Path(p).name for p in loaded} <= label_fonts | {fonts.SERIF_PATH.name}


#: The shipped fonts together stay a few MB (every copy of the repository carries them).
ASSETS_BUDGET = 5_000_000


def test_shipped_font_files_are_small_and_licensed() -> None:
    paths = [fonts.SERIF_PATH, *(path for path, _ in fonts.LABEL_FONTS)]
    assert all(path.exists() for path in paths)
    assert sum(path.stat().st_size for path in paths) < ASSETS_BUDGET
    licence = (fonts.ASSETS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert "Bitstream" in (fonts.ASSETS / "LICENSE-DejaVu.txt").read_text(encoding="utf-8")
    assert "free for any use" in (fonts.ASSETS / "LICENSE-Symbola.txt").read_text(encoding="utf-8")
    assert fonts.sans(20).getname()[0] == "Noto Sans CJK SC"
    assert fonts.serif(20).getname()[0] == "Noto Serif CJK SC"
    assert fonts.label_font(1, 20).getname()[0] == "DejaVu Sans"
    assert fonts.label_font(2, 20).getname()[0] == "Symbola"


def test_glyph_lists_match_the_fonts() -> None:
    """Every character a glyph list names has an outline in that font."""
    for index, have in enumerate(fonts.face_glyphs()):
        font = fonts.label_font(index, 20)
        notdef = _glyph(font, "\ue000")  # private use: never in a subset
        for ch in have:
            if not ch.isspace():
                assert _glyph(font, ch) != notdef, f"{ch!r} listed but missing from font {index}"
    assert "\ue000" not in fonts.covered()


def test_label_fonts_cover_gb2312_big5_common_and_hangul() -> None:
    from render.charset import big5_common_characters, gb2312_characters

    first = fonts.face_glyphs()[0]
    assert len(gb2312_characters()) == 7445
    assert len(big5_common_characters()) == 5401
    assert not gb2312_characters() - first
    assert not big5_common_characters() - first
    assert all(chr(c) in first for c in range(0xAC00, 0xD7A4))


def test_fallback_fonts_take_what_the_first_lacks() -> None:
    assert fonts.runs("周杰伦") == [(0, "周杰伦")]
    assert fonts.runs("Łukasz") == [(1, "Ł"), (0, "ukasz")]
    assert fonts.runs("🐼熊猫") == [(2, "🐼"), (0, "熊猫")]
    for ch in "\U00020000𓀀":  # beyond every font (CJK extension B, hieroglyphs)
        assert ch not in fonts.covered()


def test_tile_font_covers_tile_characters() -> None:
    font = fonts.serif(40)
    notdef = _glyph(font, "\ue000")
    for ch in TILE_CHARS:
        assert _glyph(font, ch) != notdef, ch


def test_labels_names_and_rules_characters_are_covered() -> None:
    have = fonts.covered()
    wanted = set(TILE_CHARS + LABEL_CHARS + NAME_CHARS + COMMON_CHARS) | set("0123456789+-×?…")
    wanted |= {chr(c) for c in range(ord("a"), ord("z") + 1)}
    wanted |= {chr(c) for c in range(ord("A"), ord("Z") + 1)}
    assert not wanted - have, "".join(sorted(wanted - have))


def test_every_cjk_character_of_the_rules_is_covered() -> None:
    rules = next(
        (p for p in (REPO.parent / "shared" / "RULES.md", REPO / "RULES.md") if p.exists()), None
    )
    if rules is None:
        pytest.skip("RULES.md is not beside the repository")
    cjk = set(re.findall(r"[\u3400-\u9fff]", rules.read_text(encoding="utf-8")))
    assert cjk
    missing = cjk - fonts.covered()
    assert not missing, "rebuild with python -m render.build_font: " + "".join(sorted(missing))


def test_every_cjk_character_of_the_bots_own_text_is_covered() -> None:
    """Every Chinese word in cogs/, services/, render/, engine/ can be drawn (no ``?`` in our
    own labels); a new word needs ``python -m render.build_font``."""
    from render.charset import source_text

    cjk = set(re.findall(r"[\u3400-\u9fff]", source_text(REPO)))
    assert len(cjk) > 500
    missing = cjk - fonts.covered()
    assert not missing, "rebuild with python -m render.build_font: " + "".join(sorted(missing))


@pytest.mark.parametrize(
    ("raw", "safe"),
    [
        ("小明", "小明"),
        ("Alice", "Alice"),
        ("😀 ok", "😀 ok"),
        ("👍🏽", "👍"),  # a skin tone cannot be shown in one colour: dropped
        ("\U00020000 ok", "? ok"),
        ("a\u200db\ufe0fc", "abc"),  # zero-width joiner and variation selector dropped
        ("tab\there", "tab here"),
        ("e\u0301", "é"),  # a typed accent is composed
        ("a\u0361b", "ab"),  # a mark with nothing to compose with is dropped
        ("龘", "龘"),
    ],
)
def test_safe_text(raw: str, safe: str) -> None:
    assert fonts.safe_text(raw) == safe


def test_safe_text_limit() -> None:
    assert fonts.safe_text("abcdef", limit=4) == "abc…"
    assert fonts.safe_text("abc", limit=4) == "abc"


WEIRD_NAMES = [
    "",
    " ",
    "\x00\x01\x1b[31m",
    "👨‍👩‍👧‍👦🀄🀅",
    "Z̴̡̛a̵l̶g̷o̸" * 5,
    "مرحبا بالعالم",
    "שלום",
    "𝕬𝖑𝖎𝖈𝖊",
    "x" * 500,
    "王" * 200,
    "\ud7ff\uffff\ud800",
]


@pytest.mark.parametrize("name", WEIRD_NAMES)
def test_any_name_renders(name: str) -> None:
    from render_fixtures import draw_result, table_state

    from render.models import ResultPicture, SeatChange, SeatView, TablePicture

    base = table_state()
    seats = tuple(
        SeatView(
            name=name, concealed_count=13, river=(1, 2, 3), melds=(MeldView("pong", (4, 4, 4)),)
        )
        for _ in range(4)
    )
    table = TablePicture(seats=seats, turn=0, countdown=name)
    assert render_table(table).startswith(b"\x89PNG")
    assert render_table(base).startswith(b"\x89PNG")
    res = ResultPicture(
        changes=tuple(SeatChange(name, -1) for _ in range(4)),
        winner=name,
        concealed=(1, 2, 3),
        winning_tile=3,
        title=name,
        win_mode=name,
    )
    assert render_result(res).startswith(b"\x89PNG")
    assert render_result(draw_result()).startswith(b"\x89PNG")
    assert render_hand(HandPicture(concealed=(0,), title=name)).startswith(b"\x89PNG")
