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
    fonts.sans.cache_clear()
    fonts.serif.cache_clear()
    try:
        render_table(table_state())
        render_result(result_state())
        render_hand(HandPicture(concealed=(0, 1, 2), drawn=3, title="标题", labels=True))
        fonts.serif(40)  # the tile faces (pre-rendered at import) use this one
    finally:
        fonts.sans.cache_clear()
        fonts.serif.cache_clear()
    assets = (REPO / "render" / "assets").resolve()
    assert loaded, "no font was loaded"
    assert {Path(p).resolve().parent for p in loaded} == {assets}
    assert {Path(p).name for p in loaded} == {fonts.SANS_PATH.name, fonts.SERIF_PATH.name}


def test_shipped_font_files_are_small_and_licensed() -> None:
    for path in (fonts.SANS_PATH, fonts.SERIF_PATH):
        assert path.exists()
        assert path.stat().st_size < 400_000
    licence = (fonts.ASSETS / "OFL.txt").read_text(encoding="utf-8")
    assert "SIL OPEN FONT LICENSE Version 1.1" in licence
    assert fonts.sans(20).getname()[0] == "Noto Sans CJK SC"
    assert fonts.serif(20).getname()[0] == "Noto Serif CJK SC"


def test_glyph_list_matches_the_font() -> None:
    font = fonts.sans(40)
    notdef = _glyph(font, "\ue000")  # private use: never in the subset
    assert "\ue000" not in fonts.covered()
    for ch in fonts.covered():
        if not ch.isspace():
            assert _glyph(font, ch) != notdef, f"{ch!r} listed but missing from the font"
    for ch in "😀龘ᚠ":  # not in the subset: drawn as the empty box
        assert ch not in fonts.covered()
        assert _glyph(font, ch) == notdef


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
        ("😀 ok", "? ok"),
        ("a\u200db\ufe0fc", "abc"),  # zero-width joiner and variation selector dropped
        ("tab\there", "tab here"),
        ("e\u0301", "e"),  # combining accent dropped
        ("龘", "?"),
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
