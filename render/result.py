"""The result of a hand as a picture (结算图): the winning hand, scoring items, changes."""

from __future__ import annotations

from PIL import Image, ImageDraw

from render import draw as d
from render import fonts, tiles
from render.hand import hand_order
from render.models import ResultPicture

PAD = 16
SIZE = tiles.L
FLOWER_SIZE = tiles.M
WIN_GAP = 16
GROUP_GAP = 22
MIN_W = 560
TITLE_SIZE = 24
ITEM_SIZE = 18
ITEM_ROW = 28
CHANGE_SIZE = 18
CHANGE_ROW = 30
DELTA_COL = 110  # room for the change, right-aligned
TOTAL_COL = 90  # room for the new total, right-aligned


def _hand_width(view: ResultPicture) -> int:
    w = d.row_width(len(view.concealed), SIZE)
    if view.melds:
        w += GROUP_GAP + d.melds_width(view.melds, SIZE)
    if view.winning_tile is not None:
        w += WIN_GAP + SIZE.w
    if view.flowers:
        w += GROUP_GAP + FLOWER_SIZE.w + 40
    return w


def result_image(view: ResultPicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB)."""
    show_hand = not view.is_draw and (view.concealed or view.melds)
    width = max(MIN_W, (_hand_width(view) if show_hand else 0) + 2 * PAD)
    height = PAD + TITLE_SIZE + 14
    if view.title:
        height += 24
    label_room = 20  # the 胡 label above the winning tile
    if show_hand:
        label_room = max(label_room, d.melds_rise(view.melds, SIZE) + 2)
        height += label_room + SIZE.h + 16
    if view.items:
        height += len(view.items) * ITEM_ROW + 8
    if view.total:
        height += ITEM_ROW + 8
    height += len(view.notes) * 24
    height += 12 + len(view.changes) * CHANGE_ROW + PAD

    img = d.new_canvas(width, height)
    draw = ImageDraw.Draw(img)
    y = PAD
    if view.title:
        d.text(draw, (PAD, y), d.fit_text(view.title, 16, width - 2 * PAD), 16, fill=d.MUTED)
        y += 24
    words = view.words
    if view.is_draw:
        headline = words.drawn_hand
    else:
        headline = words.winner_line.format(name=fonts.safe_text(view.winner or ""))
        if view.win_mode:
            headline += f" · {view.win_mode}"
    d.text(
        draw, (PAD, y), d.fit_text(headline, TITLE_SIZE, width - 2 * PAD), TITLE_SIZE, fill=d.GOLD
    )
    y += TITLE_SIZE + 14

    if show_hand:
        y += label_room  # room for the 胡 label and an added kong's stacked tile
        x = PAD
        for k in hand_order(view.concealed, view.wildcards):
            d.paste(
                img,
                tiles.tile(k, SIZE, bao=d.wild_mark(k, view.wildcards, view.primary_wildcard)),
                x,
                y,
            )
            x += SIZE.w + d.TILE_GAP
        x -= d.TILE_GAP
        if view.melds:
            x = d.draw_melds(
                img,
                view.melds,
                x + GROUP_GAP,
                y,
                SIZE,
                view.wildcards,
                primary=view.primary_wildcard,
            )
        if view.winning_tile is not None:
            x += WIN_GAP
            k = view.winning_tile
            d.paste(
                img,
                tiles.tile(
                    k, SIZE, bao=d.wild_mark(k, view.wildcards, view.primary_wildcard), last=True
                ),
                x,
                y,
            )
            d.text(draw, (x + SIZE.w / 2, y - 3), words.won, 15, fill=d.GOLD, anchor="md")
            x += SIZE.w
        if view.flowers:
            x += GROUP_GAP
            fy = y + SIZE.h - FLOWER_SIZE.h
            d.paste(img, tiles.tile(32, FLOWER_SIZE), x, fy)
            d.text(
                draw,
                (x + FLOWER_SIZE.w + 4, fy + FLOWER_SIZE.h / 2),
                f"×{view.flowers}",
                16,
                anchor="lm",
            )
        y += SIZE.h + 16

    col_value = width - PAD
    if view.items:
        for item in view.items:
            draw.line((PAD, y + ITEM_ROW - 4, width - PAD, y + ITEM_ROW - 4), fill=d.PANEL_EDGE)
            value_w = d.text_width(item.value, ITEM_SIZE, 16)
            name = d.fit_text(item.name, ITEM_SIZE, width - 3 * PAD - value_w)
            d.text(draw, (PAD, y + 2), name, ITEM_SIZE)
            d.text(
                draw, (col_value, y + 2), item.value, ITEM_SIZE, fill=d.GOLD, anchor="ra", limit=16
            )
            y += ITEM_ROW
        y += 8
    if view.total:
        d.text(draw, (PAD, y + 2), words.total, ITEM_SIZE + 2)
        d.text(
            draw, (col_value, y + 2), view.total, ITEM_SIZE + 2, fill=d.GOLD, anchor="ra", limit=20
        )
        y += ITEM_ROW + 8
    for note in view.notes:
        d.text(draw, (PAD, y), d.fit_text(note, 15, width - 2 * PAD), 15, fill=d.MUTED)
        y += 24

    y += 4
    draw.rounded_rectangle(
        (PAD - 6, y - 4, width - PAD + 6, y + len(view.changes) * CHANGE_ROW + 2),
        radius=8,
        fill=d.PANEL,
    )
    for change in view.changes:
        x = PAD
        if change.dealer:
            x += int(d.badge(draw, x, y + 3, words.dealer, 14, d.DEALER)) + 6
        if change.winner:
            x += int(d.badge(draw, x, y + 3, words.won, 14, (196, 140, 0))) + 6
        delta = f"{change.delta:+d}" if change.delta else "0"
        total = f"{change.total}" if change.total is not None else ""
        delta_x = col_value - (TOTAL_COL if total else 0)
        name_w = delta_x - x - DELTA_COL
        name = d.fit_text(change.name, CHANGE_SIZE, name_w)
        d.text(draw, (x, y + 2), name, CHANGE_SIZE, fill=d.GOLD if change.winner else d.TEXT)
        colour = d.PLUS if change.delta > 0 else d.MINUS if change.delta < 0 else d.MUTED
        d.text(draw, (delta_x, y + 2), delta, CHANGE_SIZE, fill=colour, anchor="ra", limit=12)
        if total:
            d.text(
                draw,
                (col_value, y + 4),
                total,
                CHANGE_SIZE - 2,
                fill=d.MUTED,
                anchor="ra",
                limit=12,
            )
        y += CHANGE_ROW
    return img


def render_result(view: ResultPicture) -> bytes:
    """The result picture as PNG bytes."""
    return d.to_png(result_image(view))
