"""The rest of the table for the scoring desk (算分台): who discarded, who fed the winner's
melds (叁包), the other players' 发 / kongs / 中白 (吃兴家, 杠钱) and the value per 炮 after
跟庄 / 黄庄 — read from what a player at the table would say, then settled seat by seat.

Seats are seen from the winner (seat 0): 下家 ``next`` = 1, 对家 ``across`` = 2, 上家
``prev`` = 3. Pure: no Discord types, no I/O.

>>> others = parse_others("下家 发2 [7777m]; 对家 (5555p) [中中中]")
>>> others[1].flowers, [m.kind.value for m in others[2].melds]
(2, ['concealed_kong', 'pong'])
>>> parse_streak("黄庄 跟庄")
(4, ('draw', 'follow'))
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field

from engine import variants
from engine.notation import Meld, MeldKind, NotationError, parse_tiles
from engine.refusal import Reason, Words
from engine.scoring import ScoreResult, WinContext
from engine.settle import (
    Settlement,
    pao_value,
    settle_win,
    table_kong_money,
)
from engine.tiles import N_KINDS, WINDS, suit_of, tile_str
from services.desk_errors import TableInputError, desk_why, variant_title

#: Seats seen from the winner, by the words a player uses.
SEAT_WORDS: dict[str, int] = {
    "下家": 1,
    "下": 1,
    "next": 1,
    "xiajia": 1,
    "对家": 2,
    "对": 2,
    "across": 2,
    "opposite": 2,
    "opp": 2,
    "duijia": 2,
    "上家": 3,
    "上": 3,
    "prev": 3,
    "previous": 3,
    "shangjia": 3,
}
SEAT_ROLES: dict[int, str] = {1: "next", 2: "across", 3: "prev"}
SELF_ROLES = ("next", "across", "prev")  # seats 1, 2, 3 seen from the winner at seat 0
ROLE_NAMES: dict[str, tuple[str, str]] = {
    "winner": ("赢家", "the winner"),
    "next": ("下家", "next player"),
    "across": ("对家", "player opposite"),
    "prev": ("上家", "previous player"),
    "discarder": ("点炮者", "the discarder"),
    "robbed": ("被抢杠者", "the robbed player"),
    "others": ("另两家各", "each of the other two"),
}
SEAT_EXAMPLES = ("下家 / next", "对家 / across", "上家 / prev")
OTHERS_EXAMPLES = (
    "下家 发2 [7777m]; 对家 (5555p) [中中中]",
    "next: [5555s]; prev: (1111m)",
    "对家 发 [白白白]",
)
STREAK_EXAMPLES = ("黄庄", "黄庄 跟庄", "跟庄中", "2 (两次翻倍)", "×4")
#: What the ``streak`` autocomplete offers while empty: input that :func:`parse_streak` reads.
STREAK_SUGGESTIONS = ("黄庄", "跟庄", "黄庄 黄庄", "黄庄 跟庄", "跟庄中", "双跟", "×2", "×4")
#: Words for each 跟庄 / 黄庄 raise (codes of :data:`engine.settle.PAO_RAISES`).
RAISE_WORDS: dict[str, str] = {
    "黄庄": "draw",
    "荒庄": "draw",
    "流局": "draw",
    "荒牌": "draw",
    "draw": "draw",
    "huang": "draw",
    "跟庄": "follow",
    "跟": "follow",
    "follow": "follow",
    "gen": "follow",
    "跟庄中": "follow_dragon",
    "跟庄白": "follow_dragon",
    "跟中": "follow_dragon",
    "跟白": "follow_dragon",
    "follow_dragon": "follow_dragon",
    "follow_red": "follow_dragon",
    "follow_white": "follow_dragon",
    "双跟": "follow_twice",
    "双跟庄": "follow_twice",
    "跟庄两张": "follow_twice",
    "follow_twice": "follow_twice",
    "follow2": "follow_twice",
}
OTHERS_TEXT_LIMIT = 200
MAX_RAISES = 10
MAX_PAO_VALUE = 1024
FLOWER_WORDS = ("发财", "发", "6z", "F")


@dataclass(frozen=True)
class SeatMelds:
    """What one other player shows: 发 laid open (九江 兴家) and melds (kongs, pongs)."""

    flowers: int = 0
    melds: tuple[Meld, ...] = ()
    flower_text: str = ""  # how the 发 were written (for a pointed error)


@dataclass(frozen=True)
class Table:
    """The rest of the table (seats seen from the winner; ``None`` = not given)."""

    discarder: int | None = None
    feeder: int | None = None  # 叁包 (上饶)
    others: Mapping[int, SeatMelds] = field(default_factory=dict)
    pao_value: int = 1  # 九江 value per 炮 after 跟庄 / 黄庄
    raises: tuple[str, ...] = ()  # the raises as listed (codes of PAO_RAISES)
    streak_given: bool = False


@dataclass(frozen=True)
class PayLine:
    """One seat's payment. ``role`` is ``next`` / ``across`` / ``prev`` (下家, 对家, 上家 of
    the winner), or ``discarder`` / ``robbed`` / ``others`` when the discarder's seat was not
    given. ``amount`` is what the seat pays in all (negative: it receives, e.g. kong money);
    of which ``win`` for the win (吃兴家 and the value per 炮 included), ``eaten`` the 吃兴家
    in 炮, ``kong`` the net 杠钱 (negative: received), ``feeder`` it pays all under 叁包."""

    role: str
    amount: int
    win: int = 0
    eaten: int = 0
    kong: int = 0
    feeder: bool = False


# --- reading ------------------------------------------------------------------------------


def _clean(text: str) -> str:
    return text.strip().lower().replace("　", " ")


def parse_seat(text: str | None, name: str) -> int | None:
    """``下家`` / ``next`` → 1, ``对家`` → 2, ``上家`` → 3; blank → ``None``."""
    if text is None or not text.strip():
        return None
    seat = SEAT_WORDS.get(_clean(text).rstrip(":："))
    if seat is None:
        raise TableInputError(
            name,
            desk_why(
                "unknown_seat", "unknown seat {seat!r}: seen from the winner", seat=text.strip()
            ),
            text.strip(),
            SEAT_EXAMPLES,
        )
    return seat


_SEAT_RX = re.compile(
    r"(下家|对家|上家|next|across|opposite|opp|previous|prev|xiajia|duijia|shangjia)\s*[:：=]?",
    re.IGNORECASE,
)
_FLOWER_RX = re.compile(
    r"(?:(\d{1,2})\s*[个张]?\s*(?:发财|发|6z|F)|(?:发财|发|6z|F)\s*(?:[x×*]\s*)?(\d{1,2})?)"
)
_SEPARATORS = " \t\n;；,，|、"


def parse_others(text: str | None) -> dict[int, SeatMelds]:
    """Each other player's 发 and melds: ``下家 发2 [7777m]; 对家 (5555p) [中中中]``.

    A part starts with whose it is (下家 / 对家 / 上家, or next / across / prev); then melds in
    hand notation — ``[7777m]`` exposed kong (明杠/补杠), ``(5555p)`` concealed kong, ``[555z]``
    a pong — and 发 laid open as ``发2``, ``2发`` or ``发发``. Raises :class:`TableInputError`
    naming the bad part.
    """
    if text is None or not text.strip():
        return {}
    if len(text) > OTHERS_TEXT_LIMIT:
        raise TableInputError(
            "others",
            desk_why("others_too_long", "longer than {limit} characters", limit=OTHERS_TEXT_LIMIT),
            text[:20],
            OTHERS_EXAMPLES,
        )
    marks = list(_SEAT_RX.finditer(text))
    head = text[: marks[0].start()] if marks else text
    if head.strip(_SEPARATORS):
        raise TableInputError(
            "others",
            desk_why(
                "whose_part",
                "start each player's part with whose it is: 下家 / 对家 / 上家 (next / across / prev)",
            ),
            head.strip(_SEPARATORS),
            OTHERS_EXAMPLES,
        )
    out: dict[int, SeatMelds] = {}
    for i, mark in enumerate(marks):
        seat = SEAT_WORDS[mark.group(1).lower()]
        if seat in out:
            raise TableInputError(
                "others",
                desk_why("seat_twice", "{seat} is given twice", seat=mark.group(1)),
                mark.group(1),
                OTHERS_EXAMPLES,
            )
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out[seat] = _seat_part(text[mark.end() : end])
    return out


def _seat_part(body: str) -> SeatMelds:
    melds: list[Meld] = []
    flowers = 0
    flower_text: list[str] = []
    s = body.strip(_SEPARATORS)
    if _clean(s) in ("", "无", "没有", "none", "-", "0"):
        return SeatMelds()
    i = 0
    while i < len(s):
        ch = s[i]
        if ch in _SEPARATORS:
            i += 1
            continue
        if ch in "[(":
            close = "]" if ch == "[" else ")"
            j = s.find(close, i + 1)
            if j < 0:
                raise TableInputError(
                    "others",
                    desk_why(
                        "unclosed", "'{open}' is never closed with '{close}'", open=ch, close=close
                    ),
                    s[i:],
                    OTHERS_EXAMPLES,
                )
            melds.append(_meld(s[i : j + 1]))
            i = j + 1
            continue
        m = _FLOWER_RX.match(s, i)
        if m is None or m.end() == i:
            j = i
            while j < len(s) and s[j] not in _SEPARATORS and s[j] not in "[(":
                j += 1
            raise TableInputError(
                "others",
                desk_why(
                    "bad_meld_text",
                    "cannot read {part!r}: write melds as [7777m] (明杠), (5555p) (暗杠), "
                    "[555z] (碰), and 发 laid open as 发2",
                    part=s[i:j],
                ),
                s[i:j],
                OTHERS_EXAMPLES,
            )
        flowers += int(m.group(1) or m.group(2) or 1)
        flower_text.append(m.group(0))
        i = m.end()
    return SeatMelds(flowers, tuple(melds), " ".join(flower_text))


def _meld(text: str) -> Meld:
    """``[7777m]`` / ``(5555p)`` / ``[555z]`` / ``[123m]`` (the brackets included)."""
    try:
        tiles = tuple(sorted(parse_tiles(text[1:-1])))
    except NotationError as e:
        raise TableInputError("others", e.problem, e.bad or text, OTHERS_EXAMPLES) from None
    same = len(set(tiles)) == 1
    if text[0] == "(":
        if same and len(tiles) == 4:
            return Meld(MeldKind.CONCEALED_KONG, tiles)
        raise TableInputError(
            "others",
            desk_why(
                "not_concealed_kong",
                "{meld} is not a concealed kong: write four equal tiles, e.g. (5555p)",
                meld=text,
            ),
            text,
            OTHERS_EXAMPLES,
        )
    if same and len(tiles) in (3, 4):
        return Meld(MeldKind.PONG if len(tiles) == 3 else MeldKind.KONG, tiles)
    if (
        len(tiles) == 3
        and tiles[0] < 27
        and suit_of(tiles[0]) == suit_of(tiles[2])
        and tiles[1] == tiles[0] + 1
        and tiles[2] == tiles[0] + 2
    ):
        return Meld(MeldKind.CHI, tiles)
    raise TableInputError(
        "others",
        desk_why(
            "not_a_meld",
            "{meld} is not a meld: write a kong [7777s], a pong [555z] or a chi [123m]",
            meld=text,
        ),
        text,
        OTHERS_EXAMPLES,
    )


_VALUE_RX = re.compile(r"^(?:[x×*]\s*(\d{1,4})|(\d{1,4})\s*倍|每炮\s*(\d{1,4}))$")
_RAISE_RX = re.compile(r"^(.+?)(?:[x×*](\d{1,2}))?$")


def parse_streak(text: str | None) -> tuple[int, tuple[str, ...]]:
    """九江 value per 炮 and the raises behind it: ``黄庄 跟庄`` (each as it happened, oldest
    first), a count of doublings ``2``, or the value itself ``×4``. Blank → ``(1, ())``."""
    if text is None or not text.strip():
        return 1, ()
    raw = text.strip()
    low = _clean(raw)
    m = _VALUE_RX.match(low)
    if m is not None:
        value = int(next(g for g in m.groups() if g))
        if value < 1 or value > MAX_PAO_VALUE or value & (value - 1):
            raise TableInputError(
                "streak",
                desk_why(
                    "pao_value",
                    "the value per 炮 is 1, 2, 4, 8 … (跟庄 and 黄庄 double it), not {value}",
                    value=value,
                ),
                raw,
                STREAK_EXAMPLES,
            )
        return value, ()
    if low.isdigit():
        n = int(low)
        if n > MAX_RAISES:
            raise TableInputError(
                "streak",
                desk_why("doublings", "at most {most} doublings, not {n}", most=MAX_RAISES, n=n),
                raw,
                STREAK_EXAMPLES,
            )
        return 2**n, ()
    codes: list[str] = []
    for word in re.split(r"[\s,，、;；+]+", low):
        if not word:
            continue
        wm = _RAISE_RX.match(word)
        assert wm is not None
        code = RAISE_WORDS.get(wm.group(1))
        if code is None:
            raise TableInputError(
                "streak",
                desk_why(
                    "unknown_raise",
                    "unknown raise {word!r}: write 黄庄 or 跟庄 (跟庄中 when the first discard was "
                    "中/白, 双跟 when the second was followed too)",
                    word=word,
                ),
                word,
                STREAK_EXAMPLES,
            )
        codes.extend([code] * int(wm.group(2) or 1))
    if len(codes) > MAX_RAISES:
        raise TableInputError(
            "streak",
            desk_why("raises", "at most {most} raises, not {n}", most=MAX_RAISES, n=len(codes)),
            raw,
            STREAK_EXAMPLES,
        )
    value = pao_value(codes)
    if value > MAX_PAO_VALUE:
        raise TableInputError(
            "streak",
            desk_why(
                "pao_too_big",
                "the value per 炮 would be {value}; at most {most}",
                value=value,
                most=MAX_PAO_VALUE,
            ),
            raw,
            (),
        )
    return value, tuple(codes)


# --- checking against the hand and the variant ---------------------------------------------


def _not_here(name: str, rule: Reason, variant: str, given: str, where: Words) -> TableInputError:
    return TableInputError(
        name,
        desk_why(
            "not_here",
            "{rule} is not a rule of {variant} (only {where}): leave {name} empty",
            rule=rule,
            variant=variant_title(variant),
            where=where,
            name=Reason(f"commands.mahjong.score.param.{name}.name", name),
        ),
        given,
        (),
    )


def build_table(
    ctx: WinContext,
    *,
    discarder: str | None = None,
    feeder: str | None = None,
    others: str | None = None,
    streak: str | None = None,
) -> Table:
    """Read and check the rest of the table against the hand and its variant: 叁包
    (``feeder``) only in 上饶, ``others`` only for 九江 吃兴家 and 新余 杠钱, ``streak`` only
    in 九江; ``discarder`` only for a win on a discard or a robbed kong."""
    variant = ctx.variant
    desk = variants.get(variant).desk
    if feeder is not None and feeder.strip() and not desk.feeder:
        raise _not_here(
            "feeder", desk_why("rule.sanbao", "叁包"), variant, feeder.strip(), _having("feeder")
        )
    if others is not None and others.strip() and not desk.others:
        raise _not_here(
            "others", desk_why("rule.others", "吃兴家 / 杠钱"), variant, "", _having("others")
        )
    if streak is not None and streak.strip() and not desk.streak:
        raise _not_here(
            "streak",
            desk_why("rule.streak", "跟庄 / 黄庄"),
            variant,
            streak.strip(),
            _having("streak"),
        )
    seat_d = parse_seat(discarder, "discarder")
    seat_f = parse_seat(feeder, "feeder")
    melds_of = parse_others(others)
    value, raises = parse_streak(streak)
    if seat_d is not None and ctx.win == "self":
        raise TableInputError(
            "discarder",
            desk_why("self_draw_discarder", "a self-drawn win (自摸) has no discarder"),
            discarder or "",
            (),
        )
    if seat_f is not None:
        fed = [m for m in ctx.hand.melds if m.kind in (MeldKind.CHI, MeldKind.PONG, MeldKind.KONG)]
        if len(fed) < 3:
            raise TableInputError(
                "feeder",
                desk_why(
                    "sanbao",
                    "叁包 needs 3 or 4 of the winner's chi/pong/kong fed by one player; the hand "
                    "shows {n} exposed meld(s)",
                    n=len(fed),
                ),
                feeder or "",
                ("[123m] [555p] [777s] 99s 5z5z5z +5z",),
            )
    if melds_of:
        _check_others(ctx, melds_of)
        if ctx.win != "self" and seat_d is None:
            raise TableInputError(
                "discarder",
                desk_why(
                    "name_discarder",
                    "with others given, who discarded changes who pays what: name the discarder "
                    "(or whose kong was robbed)",
                ),
                "",
                SEAT_EXAMPLES,
            )
    return Table(
        discarder=seat_d,
        feeder=seat_f,
        others=melds_of,
        pao_value=value,
        raises=raises,
        streak_given=bool(streak and streak.strip()),
    )


def _having(desk_field: str) -> Words:
    """The variants whose desk has ``desk_field``, by their titles (translated by the bot)."""
    named = sorted(v.name for v in variants.all() if getattr(v.desk, desk_field))
    return Words(variant_title(name) for name in named)


def _check_others(ctx: WinContext, melds_of: Mapping[int, SeatMelds]) -> None:
    variant = ctx.variant
    rules = variants.get(variant).rules(ctx.options)
    title = variant_title(variant)
    seen = [0] * N_KINDS
    for k in ctx.hand.all_tiles():
        seen[k] += 1
    flowers = ctx.flowers
    for sm in melds_of.values():
        if sm.flowers:
            if not rules.flowers:
                laid_open = Words(variant_title(v.name) for v in variants.all() if v.desk.flowers)
                raise TableInputError(
                    "others",
                    desk_why(
                        "no_flowers",
                        "发 laid open (兴家) is a {where} rule; in {variant} 发 is an ordinary "
                        "tile (list a 发 kong as [6666z])",
                        where=laid_open,
                        variant=variant_title(variant),
                    ),
                    sm.flower_text,
                    OTHERS_EXAMPLES,
                )
            flowers += sm.flowers
        for m in sm.melds:
            k = m.tiles[0]
            if k not in rules.kinds or k in rules.flowers:
                if k in rules.flowers:
                    why = desk_why(
                        "flowers_open", "{variant} lays 发 open as 兴家: write 发N", variant=title
                    )
                elif k in WINDS:
                    why = desk_why("no_winds", "{variant} has no winds", variant=title)
                else:
                    why = desk_why(
                        "no_tile", "{variant} has no {tile}", variant=title, tile=tile_str(k)
                    )
                raise TableInputError("others", why, m.text(), OTHERS_EXAMPLES)
            if m.kind is MeldKind.CHI and not getattr(ctx.options, "chi", False):
                raise TableInputError(
                    "others",
                    desk_why(
                        "no_chi", "{variant} has no chi (吃) under these rules", variant=title
                    ),
                    m.text(),
                    (),
                )
            for t in m.tiles:
                seen[t] += 1
    over = next((k for k in range(N_KINDS) if seen[k] > 4), None)
    if over is not None:
        raise TableInputError(
            "others",
            desk_why(
                "too_many",
                "{n} copies of {tile} with the winner's hand: there are only 4",
                n=seen[over],
                tile=tile_str(over),
            ),
            tile_str(over),
            (),
        )
    if flowers > 4:
        raise TableInputError(
            "others",
            desk_why(
                "flowers_count",
                "{n} 发 laid open in all (the winner's included): there are 4",
                n=flowers,
            ),
            "发",
            (),
        )


# --- paying ---------------------------------------------------------------------------------


def settle_table(
    ctx: WinContext, result: ScoreResult, table: Table | None = None
) -> tuple[Settlement, tuple[PayLine, ...]]:
    """Who pays what, seat by seat (the winner is seat 0; sums to zero): the win (RULES §3.4,
    §4.3, §5.3) with 叁包, each payer's 吃兴家 and the value per 炮, plus 新余 杠钱 for the
    winner's kongs and the others'. Without the discarder's seat a discard is paid by seat 2
    (any seat pays the same when nothing else is known about the others)."""
    table = table or Table()
    variant = ctx.variant
    payer: int | None = None
    if ctx.win != "self":
        payer = table.discarder
        if payer is None:
            payer = table.feeder if table.feeder is not None else 2
    dealer = 0 if "dealer" in ctx.flags else 1
    eaten = [0, 0, 0, 0]
    kongs: list[tuple[int, bool]] = []
    the_variant = variants.get(variant)
    rules = the_variant.rules(ctx.options)
    if rules.kong_money:  # 新余 杠钱
        kongs += [(0, m.kind is MeldKind.CONCEALED_KONG) for m in ctx.hand.melds if m.is_kong]
    for seat, sm in table.others.items():
        if the_variant.loser_extras is not None:  # 九江 吃兴家
            eaten[seat] = the_variant.extras_of(sm.melds, sm.flowers)
        elif rules.kong_money:
            kongs += [(seat, m.kind is MeldKind.CONCEALED_KONG) for m in sm.melds if m.is_kong]
    won = settle_win(
        variant,
        ctx.options,
        winner=0,
        result=result,
        win=ctx.win,
        payer=payer,
        dealer=dealer,
        sanbao_feeder=table.feeder,
        loser_extras=eaten,
        value_per_pao=table.pao_value,
    )
    money = table_kong_money(variant, kongs)
    total = won + money

    def line(seat: int, role: str) -> PayLine:
        win_part = -won.deltas[seat]
        return PayLine(
            role,
            -total.deltas[seat],
            win=win_part,
            eaten=eaten[seat] if win_part else 0,
            kong=-money.deltas[seat],
            feeder=seat == table.feeder,
        )

    if ctx.win != "self" and table.discarder is None and table.feeder is None:
        lines = [line(2, "robbed" if ctx.win == "rob_kong" else "discarder")]
        if total.deltas[1]:
            lines.append(line(1, "others"))
        return total, tuple(lines)
    return total, tuple(line(s, SEAT_ROLES[s]) for s in (1, 2, 3))


__all__ = [
    "OTHERS_EXAMPLES",
    "ROLE_NAMES",
    "SEAT_EXAMPLES",
    "SELF_ROLES",
    "STREAK_EXAMPLES",
    "STREAK_SUGGESTIONS",
    "PayLine",
    "SeatMelds",
    "Table",
    "build_table",
    "parse_others",
    "parse_seat",
    "parse_streak",
    "settle_table",
]
