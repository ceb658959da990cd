"""Real-world display names in every script are drawn in full, glyph by glyph, in the real
pictures (leaderboard, table seats, result): never as ``?``, never blank, never a box."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest
from PIL import Image, ImageDraw
from render_fixtures import result_state, table_state

from render import fonts, render_result, render_table
from render.leaderboard import PAD, RANK_W, BoardPicture, BoardRow, layout, leaderboard_image
from render.models import SeatChange

#: Display names as Discord users write them: 简体, 繁體 and rarer name characters, Hangul,
#: kana, accented Latin and other alphabets, and emoji beside the name.
REAL_NAMES = (
    "周杰伦",
    "陈奕迅",
    "邓紫棋",
    "易烊千玺",
    "迪丽热巴",
    "欧阳娜娜",
    "诸葛亮",
    "王喆",
    "李堃",
    "张玥",
    "龘龘",
    "囧囧有神",
    "周杰倫",
    "陳奕迅",
    "蔡依林",
    "張惠妹",
    "鄧麗君",
    "蕭敬騰",
    "林憶蓮",
    "郭富城",
    "김민준",
    "이서연",
    "손흥민",
    "아이유",
    "방탄소년단",
    "블랙핑크",
    "さくら",
    "ナルト",
    "宮崎駿",
    "José Müller",
    "Zoë Ångström",
    "Łukasz Wąsik",
    "Nguyễn Văn Anh",
    "Çağla Şahin",
    "Dvořák",
    "Дмитрий",
    "Σωκράτης",
    "Alice ✨",
    "🀄 King",
    "😀 happy",
    "🐼熊猫",
    "🔥Fire",
    "👍🏽 ok",
    "🌸花",
)

#: The characters of the names (spaces aside), each drawn alone in the pixel checks.
NAME_CHARS = sorted({ch for name in REAL_NAMES for ch in fonts.safe_text(name) if ch != " "})


def test_every_name_is_kept_whole() -> None:
    """No character of a real name is replaced (a skin tone, which only recolours the
    emoji before it, is the one thing dropped)."""
    for name in REAL_NAMES:
        assert fonts.MISSING not in fonts.safe_text(name), name
    assert fonts.safe_text("👍🏽 ok") == "👍 ok"
    assert fonts.safe_text("Zoe\u0308") == "Zoë"  # a typed accent is composed, not lost


def test_each_character_has_a_real_glyph_in_its_font() -> None:
    """The font a character is drawn with has an outline for it (not the empty box)."""
    for ch in NAME_CHARS:
        [(index, _)] = fonts.runs(ch)
        font = fonts.label_font(index, 32)
        box = Image.new("L", (48, 48))
        ImageDraw.Draw(box).text((4, 4), ch, font=font, fill=255)
        notdef = Image.new("L", (48, 48))
        ImageDraw.Draw(notdef).text((4, 4), "\ue000", font=font, fill=255)
        assert box.getbbox() is not None, f"{ch!r} is blank"
        assert box.tobytes() != notdef.tobytes(), f"{ch!r} is the missing-glyph box"


ROWS_PER_PAGE = 10


def _name_crops(names: list[str]) -> list[bytes]:
    """The name area of each row of a leaderboard page listing ``names``."""
    rows = tuple(BoardRow(i + 1, n, "+1") for i, n in enumerate(names))
    view = BoardPicture(title="排行榜", rows=rows)
    img = leaderboard_image(view)
    at = layout(view)
    name_x = PAD + RANK_W
    crops = []
    for i in range(len(names)):
        _, top, _, bottom = at.row_box(i)
        crops.append(img.crop((name_x, top, name_x + 60, bottom)).tobytes())
    return crops


def test_leaderboard_draws_each_character_of_the_names() -> None:
    """Drawn alone as a name, every character gives its own picture: not the picture of
    ``?``, not an empty name, and not the same as any other character (a missing glyph
    would draw the same box for all)."""
    replacement, blank = _name_crops([fonts.MISSING, ""])
    seen: dict[bytes, str] = {}
    for start in range(0, len(NAME_CHARS), ROWS_PER_PAGE):
        chars = NAME_CHARS[start : start + ROWS_PER_PAGE]
        for ch, crop in zip(chars, _name_crops(chars), strict=True):
            assert crop != replacement, f"{ch!r} drawn as {fonts.MISSING}"
            assert crop != blank, f"{ch!r} not drawn"
            assert crop not in seen, f"{ch!r} drawn like {seen.get(crop)!r}"
            seen[crop] = ch
    assert len(seen) == len(NAME_CHARS)


def _table_png(name: str) -> bytes:
    base = table_state()
    seats = (replace(base.seats[0], name=name), *base.seats[1:])
    return render_table(replace(base, seats=seats))


def _result_png(name: str) -> bytes:
    base = result_state()
    changes = (SeatChange(name, 8, winner=True), *base.changes[1:])
    return render_result(replace(base, changes=changes, winner=name))


def _pixels(png: bytes) -> bytes:
    return Image.open(io.BytesIO(png)).convert("RGB").tobytes()


#: One short name per script for the table seat and the result (each character checked).
PICTURE_NAMES = ("周杰伦", "蕭敬騰", "손흥민", "宮崎駿", "Łukasz", "Nguyễn", "🐼熊猫", "Дима😀")


@pytest.mark.parametrize("picture", [_table_png, _result_png], ids=["table", "result"])
@pytest.mark.parametrize("name", PICTURE_NAMES)
def test_seat_and_result_draw_every_character(picture, name: str) -> None:
    """In the table's seat line and the result, each character of the name is drawn: the
    picture changes when that one character becomes ``?`` or is taken away."""
    drawn = _pixels(picture(name))
    for i in range(len(name)):
        as_missing = name[:i] + fonts.MISSING + name[i + 1 :]
        without = name[:i] + name[i + 1 :]
        assert drawn != _pixels(picture(as_missing)), f"{name[i]!r} of {name} drawn as ?"
        assert drawn != _pixels(picture(without)), f"{name[i]!r} of {name} not drawn"
