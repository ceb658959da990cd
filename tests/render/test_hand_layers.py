"""The hand picture from tile slots is the full drawing, pixel for pixel.

Each picture put together from slots is compared with the whole hand drawn from nothing and
mapped onto the palette (what ``render.hand.render_hand`` encodes), as a palette image and as
its decoded PNG: at every step of hands of every variant played by the AI (melds, 发, the
wildcards of each variant), and on fixed hands (every meld kind, an added kong's stacked
tile, 发 laid open, 南昌's 正 and 副). A hand with words or rings is drawn whole.
"""

from __future__ import annotations

from dataclasses import replace
from io import BytesIO

import pytest
from PIL import Image

from benchmarks.picture_states import hand_steps
from render import draw as d
from render import hand as whole
from render import hand_layers, render_hand
from render.models import HandPicture, MeldView
from tests.render.render_fixtures import fed_hand, hand_state


def _full(view: HandPicture) -> bytes:
    img = whole.hand_image(view)
    return img.quantize(palette=d.palette_image(), dither=Image.Dither.NONE).tobytes()


def _assert_same(view: HandPicture, where: str) -> None:
    img = hand_layers.hand_palette_image(view)
    assert img.getpixel((0, 0)) == 0 and img.crop((0, 0, 1, img.height)).getextrema() == (0, 0)
    shown = img.crop((1, 0, img.width, img.height))
    assert shown.tobytes() == _full(view), f"slotted hand differs from the full draw: {where}"
    png = Image.open(BytesIO(render_hand(view)))
    assert png.mode == "P" and png.size == shown.size, where
    assert png.getpalette() == d.palette_image().getpalette(), where
    assert png.tobytes() == shown.tobytes(), f"its PNG shows another picture: {where}"


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_every_step_of_a_hand_equals_the_full_draw(variant: str) -> None:
    views = [step.hand for step in hand_steps(variant, "hand-layers-2")]
    assert len(views) > 20
    for i, view in enumerate(views):
        _assert_same(view, f"{variant} step {i}")
    assert any(v.wildcards for v in views) == (variant in ("shangrao", "nanchang"))


def test_melds_flowers_and_marks() -> None:
    fed = replace(fed_hand(), title=None)  # an added kong (补杠) among its melds
    assert fed.melds
    _assert_same(fed, "fed hand")
    _assert_same(replace(fed, flowers=3), "fed hand with 发")
    _assert_same(replace(fed, drawn=None), "fed hand, nothing drawn")
    _assert_same(replace(fed, melds=(), flowers=1), "发 only")
    base = replace(hand_state(), title=None, labels=False)
    _assert_same(base, "hand")
    _assert_same(replace(base, sort=False), "unsorted")
    kinds = tuple(sorted({*base.concealed} | ({base.drawn} if base.drawn is not None else set())))
    pair = frozenset(kinds[:2])
    _assert_same(replace(base, wildcards=pair, primary_wildcard=kinds[0]), "正 and 副")
    _assert_same(replace(base, wildcards=pair), "two 宝")
    assert whole.layout(fed).y > whole.layout(replace(fed, melds=fed.melds[:2])).y  # it rises
    hidden = MeldView("concealed_kong", (4, 4, 4, 4))
    _assert_same(replace(base, melds=(hidden,), concealed=base.concealed[:10]), "暗杠")


def test_words_and_rings_are_drawn_whole() -> None:
    base = replace(hand_state(), title=None, labels=False)
    for view in (
        hand_state(),
        replace(base, title="标题"),
        replace(base, labels=True),
        replace(base, played=base.concealed[0], suggested=base.concealed[1]),
    ):
        assert hand_layers.drawn_whole(view)
        with pytest.raises(ValueError):
            hand_layers.hand_palette_image(view)
        assert render_hand(view) == whole.render_hand(view)
    assert not hand_layers.drawn_whole(base)
