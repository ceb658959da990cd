"""The public table as a picture (牌桌图): four seats around the centre.

Only public information: each seat's name, dealer mark, score, the *number* of concealed
tiles (as backs), melds, river and laid-open 发; the centre shows the wall left, the hand
number, the 宝 indicator and the 宝 kind, whose turn it is (or, in a claim window, the same
neutral 等待吃碰杠胡… whoever may claim) and the countdown.

Every seat's melds read as that player lays them out, upright for legibility: a claimed
tile lies sideways on the left when that seat's 上家 fed it, in the middle for its 对家 and
on the right for its 下家 (counted from the meld's owner, not from the viewer); an added
kong (补杠) stacks its fourth tile on the sideways one, reaching up into the header line of
the top and bottom seats (the name is cut short before it) or into the spare room of the
side columns.

Layout (fixed size, ``WIDTH`` × ``HEIGHT``)::

            [ top seat: name, score, backs, melds ]
                     [ top river ]
    [left ]  [left river] [ centre ] [right river]  [right ]
    [seat ]              [bottom river]             [ seat ]
            [ bottom seat (the viewer) ]
"""

from __future__ import annotations

import math
from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as d
from render import tiles
from render.models import MeldView, SeatView, TablePicture

PAD = 12
GAP = 10
RIVER_SIZE = tiles.M
MELD_SIZE = tiles.S
BACK_SIZE = tiles.XS
RIVER_COLS = 6
RIVER_ROWS = 4  # rows that fit without overlap; longer rivers stack rows closer
PITCH_X = RIVER_SIZE.w + d.TILE_GAP
PITCH_Y = RIVER_SIZE.h + 1
RIVER_W = RIVER_COLS * PITCH_X - d.TILE_GAP
RIVER_H = RIVER_ROWS * PITCH_Y - 1
SIDE_W = 150  # info column of the left and right seats
CENTRE_W = 200
INFO_H = 66  # info band of the top and bottom seats
WIDTH = PAD + SIDE_W + GAP + RIVER_W + GAP + CENTRE_W + GAP + RIVER_W + GAP + SIDE_W + PAD
HEIGHT = PAD + INFO_H + 8 + RIVER_H + GAP + RIVER_H + GAP + RIVER_H + 8 + INFO_H + PAD

NAME_SIZE = 17
SMALL = 14
WINDS = "东南西北"
CLAIM_WAIT = "等待吃碰杠胡…"

# Positions: 0 bottom (viewer), 1 right (下家), 2 top (对家), 3 left (上家).
CENTRE_X = PAD + SIDE_W + GAP + RIVER_W + GAP
MID_Y = PAD + INFO_H + 8 + RIVER_H + GAP
RIVER_XY = {
    0: (CENTRE_X + (CENTRE_W - RIVER_W) // 2, MID_Y + RIVER_H + GAP),
    1: (CENTRE_X + CENTRE_W + GAP, MID_Y),
    2: (CENTRE_X + (CENTRE_W - RIVER_W) // 2, PAD + INFO_H + 8),
    3: (CENTRE_X - GAP - RIVER_W, MID_Y),
}
INFO_BOX = {
    0: (PAD, HEIGHT - PAD - INFO_H, WIDTH - PAD, HEIGHT - PAD),
    2: (PAD, PAD, WIDTH - PAD, PAD + INFO_H),
    3: (PAD, PAD + INFO_H + 8, PAD + SIDE_W, HEIGHT - PAD - INFO_H - 8),
    1: (WIDTH - PAD - SIDE_W, PAD + INFO_H + 8, WIDTH - PAD, HEIGHT - PAD - INFO_H - 8),
}


def _seat_wind(seat: int, dealer: int | None) -> str:
    """The seat wind (门风): the dealer is 东, the dealer's 下家 南, and so on."""
    return "" if dealer is None else WINDS[(seat - dealer) % 4]


def _header(
    draw: ImageDraw.ImageDraw, seat: SeatView, wind: str, x: int, y: int, max_w: int, turn: bool
) -> None:
    """Wind, 庄, name and badges on one line, starting at (x, y)."""
    right = x + max_w
    if wind:
        x += int(d.badge(draw, x, y, wind, SMALL, (70, 120, 100))) + 4
    if seat.dealer:
        x += int(d.badge(draw, x, y, "庄", SMALL, d.DEALER)) + 4
    badges = []
    if seat.ready:
        badges.append(("听", (40, 110, 200)))
    if seat.auto:
        badges.append(("托管", (110, 110, 110)))
    badge_w = sum(d.text_width(b, SMALL) + SMALL * 0.6 + 4 for b, _ in badges)
    name = d.fit_text(seat.name, NAME_SIZE, right - x - badge_w)
    d.draw_text(draw, (x, y - 1), name, d.fonts.sans(NAME_SIZE), d.GOLD if turn else d.TEXT)
    x += int(d.sans_length(name, NAME_SIZE)) + 6
    for label, colour in badges:
        x += int(d.badge(draw, x, y, label, SMALL, colour)) + 4


def _score(seat: SeatView) -> str:
    return f"{seat.score:+d}分" if seat.score else "0分"


def _flowers(canvas: Image.Image, draw: ImageDraw.ImageDraw, n: int, x: int, y: int) -> int:
    """Laid-open 发 (兴家) as one 发 tile and a count; returns the x after it."""
    d.paste(canvas, tiles.tile(32, MELD_SIZE), x, y)
    x += MELD_SIZE.w + 3
    w = d.text(draw, (x, y + MELD_SIZE.h / 2), f"×{n}", SMALL, anchor="lm")
    return x + int(w)


def _wide_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TablePicture,
    seat_index: int,
    box: tuple[int, int, int, int],
    dealer: int | None,
) -> None:
    """Top or bottom seat: header line, then backs, melds and flowers in one row."""
    seat = view.seats[seat_index]
    x0, y0, x1, _ = box
    turn = view.turn == seat_index
    backs = min(seat.concealed_count, 18)
    melds_x = x0 + 8 + d.row_width(backs, BACK_SIZE) + 4 + 22
    header_w = 360
    for meld in seat.melds:  # an added kong's stacked tile reaches up into the header line
        if d.meld_rise(meld, MELD_SIZE):
            header_w = max(40, min(header_w, melds_x - x0 - 8 - 8))
            break
        melds_x += d.meld_width(meld, MELD_SIZE) + d.MELD_GAP
    _header(draw, seat, _seat_wind(seat_index, dealer), x0 + 8, y0 + 5, header_w, turn)
    d.text(draw, (x1 - 8, y0 + 5), _score(seat), SMALL + 2, fill=d.MUTED, anchor="ra")
    y = y0 + 27
    x = x0 + 8
    x = d.draw_backs(canvas, backs, x, y + MELD_SIZE.h - BACK_SIZE.h, BACK_SIZE) + 4
    d.text(
        draw,
        (x, y + MELD_SIZE.h - 2),
        str(seat.concealed_count),
        SMALL - 2,
        fill=d.MUTED,
        anchor="ls",
    )
    x += 22
    x = (
        d.draw_melds(canvas, seat.melds, x, y, MELD_SIZE, view.bao, view.reveal_concealed_kongs)
        + 12
    )
    if seat.flowers:
        _flowers(canvas, draw, seat.flowers, x, y)


def _tall_seat(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TablePicture,
    seat_index: int,
    box: tuple[int, int, int, int],
    dealer: int | None,
) -> None:
    """Left or right seat: header, score, backs in rows of 7, then one meld per line."""
    seat = view.seats[seat_index]
    x0, y0, x1, _ = box
    turn = view.turn == seat_index
    name_box_w = x1 - x0 - 16
    wind = _seat_wind(seat_index, dealer)
    x = x0 + 8
    y = y0 + 8
    if wind:
        x += int(d.badge(draw, x, y, wind, SMALL, (70, 120, 100))) + 4
    if seat.dealer:
        x += int(d.badge(draw, x, y, "庄", SMALL, d.DEALER)) + 4
    if seat.ready:
        x += int(d.badge(draw, x, y, "听", SMALL, (40, 110, 200))) + 4
    if seat.auto:
        x += int(d.badge(draw, x, y, "托管", SMALL, (110, 110, 110))) + 4
    d.text(draw, (x1 - 8, y + 1), _score(seat), SMALL, fill=d.MUTED, anchor="ra")
    y += 24
    name = d.fit_text(seat.name, NAME_SIZE, name_box_w)
    d.draw_text(draw, (x0 + 8, y), name, d.fonts.sans(NAME_SIZE), d.GOLD if turn else d.TEXT)
    y += 28
    backs = min(seat.concealed_count, 21)
    per_row = 7
    for r in range(math.ceil(backs / per_row)):
        n = min(per_row, backs - r * per_row)
        d.draw_backs(canvas, n, x0 + 8, y, BACK_SIZE)
        y += BACK_SIZE.h + 2
    d.text(
        draw,
        (x0 + 8 + per_row * (BACK_SIZE.w + 1) + 4, y - 4),
        str(seat.concealed_count),
        SMALL - 2,
        fill=d.MUTED,
        anchor="ls",
    )
    y += 6
    line_w = x1 - x0 - 16
    lines: list[list[MeldView]] = []  # melds wrapped into lines of at most line_w
    x = x0 + 8
    for meld in seat.melds:
        w = d.meld_width(meld, MELD_SIZE)
        if not lines or (x > x0 + 8 and x + w > x0 + 8 + line_w):
            lines.append([])
            x = x0 + 8
        lines[-1].append(meld)
        x += w + d.MELD_GAP
    for i, line in enumerate(lines):
        if i:
            y += MELD_SIZE.h + 4
        y += d.melds_rise(line, MELD_SIZE)  # room for an added kong's stacked tile
        d.draw_melds(canvas, line, x0 + 8, y, MELD_SIZE, view.bao, view.reveal_concealed_kongs)
    if seat.melds:
        y += MELD_SIZE.h + 6
    if seat.flowers:
        _flowers(canvas, draw, seat.flowers, x0 + 8, y)


def _river(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    river: tuple[int, ...],
    x0: int,
    y0: int,
    bao: int | None,
    last: bool,
    panel: bool = True,
) -> None:
    """Discards in rows of 6 (牌河); rows stack closer when there are more than fit.
    ``panel``: draw the river's panel first (:func:`_background` has it already)."""
    if panel:
        _river_panel(draw, x0, y0)
    if not river:
        return
    rows = math.ceil(len(river) / RIVER_COLS)
    pitch = PITCH_Y if rows <= RIVER_ROWS else (RIVER_H - RIVER_SIZE.h) // (rows - 1)
    for i, k in enumerate(river):
        r, c = divmod(i, RIVER_COLS)
        is_last = last and i == len(river) - 1
        img = tiles.tile(k, RIVER_SIZE, bao=k == bao, last=is_last)
        d.paste(canvas, img, x0 + c * PITCH_X, y0 + r * pitch)


def _river_panel(draw: ImageDraw.ImageDraw, x0: int, y0: int) -> None:
    draw.rounded_rectangle(
        (x0 - 4, y0 - 4, x0 + RIVER_W + 3, y0 + RIVER_H + 3), radius=6, fill=d.PANEL
    )


def _centre_panel(draw: ImageDraw.ImageDraw) -> None:
    x0, y0 = CENTRE_X, MID_Y
    draw.rounded_rectangle(
        (x0, y0, x0 + CENTRE_W, y0 + RIVER_H),
        radius=10,
        fill=(14, 44, 36),
        outline=d.PANEL_EDGE,
        width=2,
    )


def _seat_panel(draw: ImageDraw.ImageDraw, pos: int, turn: bool) -> None:
    draw.rounded_rectangle(
        INFO_BOX[pos],
        radius=8,
        fill=d.PANEL,
        outline=d.GOLD if turn else d.PANEL_EDGE,
        width=3 if turn else 1,
    )


@lru_cache(maxsize=8)
def _background(turn_pos: int | None) -> Image.Image:
    """The static layer of every table (felt, the four seat panels — the one at
    ``turn_pos`` outlined in gold —, the river panels and the centre's panel), drawn once
    per turn position and copied for each picture. The parts never overlap, so drawing
    them first draws the same pixels as drawing each with its seat. Do not modify."""
    img = d.new_canvas(WIDTH, HEIGHT)
    draw = ImageDraw.Draw(img)
    for pos in range(4):
        _seat_panel(draw, pos, pos == turn_pos)
    for x0, y0 in RIVER_XY.values():
        _river_panel(draw, x0, y0)
    _centre_panel(draw)
    return img


def _centre(
    canvas: Image.Image,
    draw: ImageDraw.ImageDraw,
    view: TablePicture,
    pos_of,
    panel: bool = True,
) -> None:
    x0, y0 = CENTRE_X, MID_Y
    x1, y1 = x0 + CENTRE_W, y0 + RIVER_H
    if panel:
        _centre_panel(draw)
    cx = (x0 + x1) // 2
    # whose turn: a gold triangle on the edge facing that seat
    if view.turn is not None:
        p = pos_of(view.turn)
        s = 11
        tri = {
            0: [(cx - s, y1 - 3), (cx + s, y1 - 3), (cx, y1 - 3 + s)],
            2: [(cx - s, y0 + 3), (cx + s, y0 + 3), (cx, y0 + 3 - s)],
            1: [
                (x1 - 3, (y0 + y1) // 2 - s),
                (x1 - 3, (y0 + y1) // 2 + s),
                (x1 - 3 + s, (y0 + y1) // 2),
            ],
            3: [
                (x0 + 3, (y0 + y1) // 2 - s),
                (x0 + 3, (y0 + y1) // 2 + s),
                (x0 + 3 - s, (y0 + y1) // 2),
            ],
        }[p]
        draw.polygon(tri, fill=d.GOLD)
    y = y0 + 10
    head = f"第{view.hand_number}局"
    if view.round_label:
        head += f" · {view.round_label}"
    d.text(draw, (cx, y), d.fit_text(head, 16, CENTRE_W - 16), 16, anchor="ma")
    y += 24
    d.text(draw, (cx, y), f"剩余 {view.wall_left} 张", 15, fill=d.MUTED, anchor="ma")
    y += 24
    if view.bao_indicator is not None or view.bao is not None:
        size = RIVER_SIZE
        parts = [k for k in (view.bao_indicator, view.bao) if k is not None]
        label_w = int(d.text_width("宝", 15)) + 6
        total = label_w + len(parts) * size.w + (len(parts) - 1) * 18
        x = cx - total // 2
        d.text(draw, (x, y + size.h // 2), "宝", 15, fill=d.GOLD, anchor="lm")
        x += label_w
        if view.bao_indicator is not None:
            d.paste(canvas, tiles.tile(view.bao_indicator, size), x, y)
            x += size.w
            if view.bao is not None:
                d.text(draw, (x + 9, y + size.h // 2), "→", 14, fill=d.MUTED, anchor="mm")
                x += 18
        if view.bao is not None:
            d.paste(canvas, tiles.tile(view.bao, size, bao=True), x, y)
        y += size.h + 6
    if view.turn is not None:
        name = view.seats[view.turn].name
        turn_text = d.fit_text(f"轮到 {d.fonts.safe_text(name)}", 15, CENTRE_W - 20)
        d.text(draw, (cx, y), turn_text, 15, fill=d.GOLD, anchor="ma")
        y += 22
    elif view.claim_wait:  # never who may claim: the same words for every claim window
        d.text(draw, (cx, y), CLAIM_WAIT, 15, fill=d.GOLD, anchor="ma")
        y += 22
    if view.countdown:
        d.text(
            draw,
            (cx, y),
            d.fit_text(view.countdown, 15, CENTRE_W - 20),
            15,
            fill=d.TEXT,
            anchor="ma",
        )


def table_image(view: TablePicture) -> Image.Image:
    """Render ``view`` as a PIL image (RGB, ``WIDTH`` × ``HEIGHT``)."""
    if len(view.seats) != 4:
        raise ValueError("a table has four seats")
    dealer = next((i for i, s in enumerate(view.seats) if s.dealer), None)

    def pos_of(seat: int) -> int:
        return (seat - view.viewer) % 4

    img = _background(None if view.turn is None else pos_of(view.turn)).copy()
    draw = ImageDraw.Draw(img)
    for seat_index in range(4):
        pos = pos_of(seat_index)
        box = INFO_BOX[pos]
        if pos in (0, 2):
            _wide_seat(img, draw, view, seat_index, box, dealer)
        else:
            _tall_seat(img, draw, view, seat_index, box, dealer)
        rx, ry = RIVER_XY[pos]
        _river(
            img,
            draw,
            view.seats[seat_index].river,
            rx,
            ry,
            view.bao,
            view.last_discard == seat_index,
            panel=False,
        )
    _centre(img, draw, view, pos_of, panel=False)
    return img


def render_table(view: TablePicture) -> bytes:
    """The table picture as PNG bytes."""
    return d.to_png(table_image(view))
