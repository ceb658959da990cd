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
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render import draw as d
from render import fonts, tiles
from render.models import MeldView, SeatView, TablePicture
from render.words import ZH_WORDS, PictureWords

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
#: 简体 defaults of the seat winds and the claim-window words (a picture's ``words`` rule)
WINDS = "".join(ZH_WORDS.winds)
CLAIM_WAIT = ZH_WORDS.claim_wait

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


def _seat_wind(seat: int, dealer: int | None, words: PictureWords = ZH_WORDS) -> str:
    """The seat wind (门风): the dealer is 东, the dealer's 下家 南, and so on."""
    return "" if dealer is None else words.winds[(seat - dealer) % 4]


def _header(
    draw: ImageDraw.ImageDraw,
    seat: SeatView,
    wind: str,
    x: int,
    y: int,
    max_w: int,
    turn: bool,
    words: PictureWords = ZH_WORDS,
) -> None:
    """Wind, 庄, name and badges on one line, starting at (x, y)."""
    right = x + max_w
    if wind:
        x += int(d.badge(draw, x, y, wind, SMALL, (70, 120, 100))) + 4
    if seat.dealer:
        x += int(d.badge(draw, x, y, words.dealer, SMALL, d.DEALER)) + 4
    badges = []
    if seat.ready:
        badges.append((words.ready, (40, 110, 200)))
    if seat.auto:
        badges.append((words.auto, (110, 110, 110)))
    badge_w = sum(d.text_width(b, SMALL) + SMALL * 0.6 + 4 for b, _ in badges)
    name = d.fit_text(seat.name, NAME_SIZE, right - x - badge_w)
    d.draw_text(draw, (x, y - 1), name, fonts.sans(NAME_SIZE), d.GOLD if turn else d.TEXT)
    x += int(d.sans_length(name, NAME_SIZE)) + 6
    for label, colour in badges:
        x += int(d.badge(draw, x, y, label, SMALL, colour)) + 4


def _score(seat: SeatView, words: PictureWords = ZH_WORDS) -> str:
    return words.points.format(n=f"{seat.score:+d}" if seat.score else "0")


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
    words = view.words
    wind = _seat_wind(seat_index, dealer, words)
    _header(draw, seat, wind, x0 + 8, y0 + 5, header_w, turn, words)
    d.text(draw, (x1 - 8, y0 + 5), _score(seat, words), SMALL + 2, fill=d.MUTED, anchor="ra")
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
        d.draw_melds(
            canvas,
            seat.melds,
            x,
            y,
            MELD_SIZE,
            view.wildcards,
            view.reveal_concealed_kongs,
            view.primary_wildcard,
        )
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
    words = view.words
    wind = _seat_wind(seat_index, dealer, words)
    x = x0 + 8
    y = y0 + 8
    if wind:
        x += int(d.badge(draw, x, y, wind, SMALL, (70, 120, 100))) + 4
    if seat.dealer:
        x += int(d.badge(draw, x, y, words.dealer, SMALL, d.DEALER)) + 4
    if seat.ready:
        x += int(d.badge(draw, x, y, words.ready, SMALL, (40, 110, 200))) + 4
    if seat.auto:
        x += int(d.badge(draw, x, y, words.auto, SMALL, (110, 110, 110))) + 4
    score = _score(seat, words)
    score_w = int(d.text_width(score, SMALL))
    if x + 4 <= x1 - 8 - score_w:
        d.text(draw, (x1 - 8, y + 1), score, SMALL, fill=d.MUTED, anchor="ra")
    else:  # long badges (e.g. English words): the score goes to the name's line
        d.text(draw, (x1 - 8, y + 25), score, SMALL, fill=d.MUTED, anchor="ra")
        name_box_w -= score_w + 8
    y += 24
    name = d.fit_text(seat.name, NAME_SIZE, name_box_w)
    d.draw_text(draw, (x0 + 8, y), name, fonts.sans(NAME_SIZE), d.GOLD if turn else d.TEXT)
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
        d.draw_melds(
            canvas,
            line,
            x0 + 8,
            y,
            MELD_SIZE,
            view.wildcards,
            view.reveal_concealed_kongs,
            view.primary_wildcard,
        )
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
    wildcards: frozenset[int],
    last: bool,
    panel: bool = True,
    primary: int | None = None,
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
        img = tiles.tile(k, RIVER_SIZE, bao=d.wild_mark(k, wildcards, primary), last=is_last)
        d.paste(canvas, img, x0 + c * PITCH_X, y0 + r * pitch)


def _river_panel(draw: ImageDraw.ImageDraw, x0: int, y0: int) -> None:
    draw.rounded_rectangle(
        (x0 - 4, y0 - 4, x0 + RIVER_W + 3, y0 + RIVER_H + 3), radius=6, fill=d.PANEL
    )


#: half the base of the centre's turn triangle; it reaches ``CENTRE_MARGIN`` pixels beyond
#: the centre panel (its base sits 3 pixels inside)
TRIANGLE = 11
CENTRE_MARGIN = TRIANGLE - 3


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
    pos_of: Callable[[int], int],
    panel: bool = True,
    at: tuple[int, int] = (CENTRE_X, MID_Y),
) -> None:
    """The centre panel's contents with its top-left at ``at`` (``(CENTRE_X, MID_Y)`` on the
    whole table; elsewhere on a layer of it). Its turn triangle reaches ``CENTRE_MARGIN``
    beyond the panel (into the gap and the rivers' panel edges, never a river's tiles)."""
    x0, y0 = at
    x1, y1 = x0 + CENTRE_W, y0 + RIVER_H
    if panel:
        _centre_panel(draw)
    cx = (x0 + x1) // 2
    # whose turn: a gold triangle on the edge facing that seat
    if view.turn is not None:
        p = pos_of(view.turn)
        s = TRIANGLE
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
    words = view.words
    head = words.hand_number.format(n=view.hand_number)
    if view.round_label:
        head += f" · {view.round_label}"
    d.text(draw, (cx, y), d.fit_text(head, 16, CENTRE_W - 16), 16, anchor="ma")
    y += 24
    d.text(draw, (cx, y), words.wall_left.format(n=view.wall_left), 15, fill=d.MUTED, anchor="ma")
    y += 24
    # the 正精 (the indicator's kind) before the 副精, whatever their order as kinds
    wilds = sorted(view.wildcards, key=lambda k: (k != view.primary_wildcard, k))
    if view.bao_indicator is not None or wilds:
        size = RIVER_SIZE
        parts = ([] if view.bao_indicator is None else [view.bao_indicator]) + wilds
        label_w = int(d.text_width(words.wildcard, 15)) + 6
        total = label_w + len(parts) * size.w + (len(parts) - 1) * 18
        x = cx - total // 2
        d.text(draw, (x, y + size.h // 2), words.wildcard, 15, fill=d.GOLD, anchor="lm")
        x += label_w
        if view.bao_indicator is not None:
            d.paste(canvas, tiles.tile(view.bao_indicator, size), x, y)
            x += size.w
            if wilds:
                d.text(draw, (x + 9, y + size.h // 2), "→", 14, fill=d.MUTED, anchor="mm")
                x += 18
        for i, k in enumerate(wilds):  # each wildcard kind, 18 px apart: 正精 first (南昌)
            mark = d.wild_mark(k, view.wildcards, view.primary_wildcard)
            d.paste(canvas, tiles.tile(k, size, bao=mark), x + i * (size.w + 18), y)
        y += size.h + 6
    if view.turn is not None:
        name = view.seats[view.turn].name
        turn_text = words.turn.format(name=fonts.safe_text(name))
        turn_text = d.fit_text(turn_text, 15, CENTRE_W - 20)
        d.text(draw, (cx, y), turn_text, 15, fill=d.GOLD, anchor="ma")
        y += 22
    elif view.claim_wait:  # never who may claim: the same words for every claim window
        d.text(draw, (cx, y), words.claim_wait, 15, fill=d.GOLD, anchor="ma")
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
            view.wildcards,
            view.last_discard == seat_index,
            panel=False,
            primary=view.primary_wildcard,
        )
    _centre(img, draw, view, pos_of, panel=False)
    return img


def render_table(view: TablePicture) -> bytes:
    """The table picture as PNG bytes."""
    return d.to_png(table_image(view))
