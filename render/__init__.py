"""Pictures of the game (牌图): tiles, a player's hand, the public table and hand results.

Pure Pillow with the fonts shipped in ``render/assets`` (no system fonts). Every renderer
returns PNG bytes; the ``*_image`` variants return the PIL image (used by tests). The table
picture is drawn from cached layers (:mod:`render.table_layers`): the same pixels as drawing
it whole (:func:`render.table.render_table`), with only what changed drawn again.
The table picture shows public information only: other players' concealed tiles appear as
backs (a count), never as faces.
"""

from render.hand import hand_image
from render.hand_layers import render_hand
from render.models import (
    DUIJIA,
    SHANGJIA,
    XIAJIA,
    HandPicture,
    MeldView,
    ResultPicture,
    ScoreItem,
    SeatChange,
    SeatView,
    TablePicture,
    feeder_offset,
    four_seats,
)
from render.palette import palette_image
from render.result import render_result, result_image
from render.table import table_image
from render.table_layers import render_table
from render.tiles import tile_name
from render.words import ZH_WORDS, PictureWords


def warm_up() -> None:
    """Read the shared PNG palette now instead of on the first picture."""
    palette_image()


__all__ = [
    "DUIJIA",
    "SHANGJIA",
    "XIAJIA",
    "ZH_WORDS",
    "HandPicture",
    "MeldView",
    "PictureWords",
    "ResultPicture",
    "ScoreItem",
    "SeatChange",
    "SeatView",
    "TablePicture",
    "feeder_offset",
    "four_seats",
    "hand_image",
    "render_hand",
    "render_result",
    "render_table",
    "result_image",
    "table_image",
    "tile_name",
    "warm_up",
]
