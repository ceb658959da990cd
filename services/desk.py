"""The scoring desk (算分台): value a hand played with real tiles (``/mahjong score``).

Pure: no Discord types, no I/O. A :class:`DeskQuery` holds what the user typed (hand in
RULES §1 notation or Chinese, variant, how it was won, the 宝 or its indicator, flags, rule
options as ``key=value`` pairs); :func:`build_context` reads it into the engine's
:class:`~engine.scoring.WinContext`, :func:`score_desk` scores it with the one scoring entry
point and settles who pays what, seat by seat, with what the players said about the rest of
the table (discarder, 叁包 feeder, the others' melds, 跟庄 / 黄庄: :mod:`services.desk_table`).

Input that cannot be read raises a :class:`DeskInputError` naming the option, the bad part
and examples of what works.

>>> a = score_desk(DeskQuery(hand="123万 456饼 789条 234条 9条9条 +9条", variant="新余"))
>>> a.legal, a.points, [p.amount for p in a.payments]
(True, 2, [2, 2, 2])
>>> build_context(DeskQuery(hand="123m456m789p234s99s +9s", bao="indicator:4p")).wildcards
frozenset({13})
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from engine import variants
from engine.notation import HAND_EXAMPLES, Hand, NotationError, normalise_input, parse_hand
from engine.options import VARIANTS, OptionError, RuleOptions, make_options
from engine.refusal import reason_of
from engine.scoring import ScoreItem, ScoreResult, WinContext, WinKind, score
from engine.settle import Settlement
from engine.tiles import TileError, kind_of, successor
from services.desk_errors import (
    BaoInputError,
    CountInputError,
    DeskInputError,
    FlagInputError,
    HandInputError,
    OptionInputError,
    TableInputError,
    VariantInputError,
    WinInputError,
    desk_why,
    variant_title,
)
from services.desk_table import (
    ROLE_NAMES,
    SELF_ROLES,
    PayLine,
    Table,
    build_table,
    settle_table,
)


def variant_words() -> dict[str, str]:
    """Words accepted for each registered variant (code name, its titles, its aliases: 上饶,
    上饶麻将, sr…) → the variant's name."""
    words: dict[str, str] = {}
    for v in variants.all():
        for w in (v.name, v.title.zh, v.title.zh_TW, v.short.zh, v.short.zh_TW, *v.aliases):
            words.setdefault(_norm(w), v.name)
    return words


#: The words of the built-in variants (see :func:`variant_words`, which also knows variants
#: registered later).
VARIANT_WORDS: dict[str, str] = {}

#: How the hand was won: 自摸 (self), 点炮 (discard), 抢杠 (rob_kong).
WIN_WORDS: dict[str, WinKind] = {
    "self": "self",
    "自摸": "self",
    "zimo": "self",
    "tsumo": "self",
    "discard": "discard",
    "点炮": "discard",
    "放炮": "discard",
    "点胡": "discard",
    "dianpao": "discard",
    "ron": "discard",
    "rob_kong": "rob_kong",
    "抢杠": "rob_kong",
    "抢杠胡": "rob_kong",
    "robkong": "rob_kong",
}
WIN_NAMES: dict[str, tuple[str, str]] = {
    "self": ("自摸", "self-draw"),
    "discard": ("点炮", "won on a discard"),
    "rob_kong": ("抢杠", "robbing a kong"),
}

#: Flags of RULES §6, by their English code, Chinese name or a short alias.
FLAG_WORDS: dict[str, str] = {
    "heaven": "heaven",
    "天胡": "heaven",
    "earth": "earth",
    "地胡": "earth",
    "last_tile": "last_tile",
    "海底": "last_tile",
    "海底捞月": "last_tile",
    "海底捞针": "last_tile",
    "touji": "touji",
    "偷机": "touji",
    "ready_declared": "ready_declared",
    "ready": "ready_declared",
    "报听": "ready_declared",
    "four_bao": "four_bao",
    "四个宝": "four_bao",
    "四宝": "four_bao",
    "jiebao": "jiebao",
    "接宝": "jiebao",
    "dealer": "dealer",
    "庄家": "dealer",
    "庄": "dealer",
}
FLAG_NAMES: dict[str, tuple[str, str]] = {
    "heaven": ("天胡", "heavenly hand"),
    "earth": ("地胡", "earthly hand"),
    "last_tile": ("海底", "last tile"),
    "touji": ("偷机", "won after keep-drawing"),
    "ready_declared": ("报听", "declared ready"),
    "four_bao": ("四个宝", "all four 宝"),
    "jiebao": ("接宝", "took a discarded 宝"),
    "dealer": ("庄家", "winner is the dealer"),
}

#: Prefixes that mean "this is the flipped indicator tile, the 宝 is the next kind".
INDICATOR_PREFIXES = ("indicator", "ind", "指示牌", "指示", "跌宝牌", "跌宝", "翻牌", "翻")
#: Points the engine accepts for flown / kong_draws / flowers (RULES §6 fields).
COUNT_LIMIT = 16
OPTIONS_TEXT_LIMIT = 300
PAY_UNIT = ("分", "points")


HAND_EXAMPLE_LIST = tuple(s.strip() for s in HAND_EXAMPLES.split("·"))
BAO_EXAMPLES = ("5p", "五筒", "东", "indicator:4p (翻出的牌 → 宝 5p)")
WIN_EXAMPLES = ("自摸 / self", "点炮 / discard", "抢杠 / rob_kong")
VARIANT_EXAMPLES = tuple(f"{v.name} / {v.short.zh}" for v in variants.all())
OPTION_EXAMPLES = ("scoring=xingchen", "discard_win=true", "jiebao_points=16", "chi=true")


@dataclass(frozen=True)
class DeskQuery:
    """What the user gave ``/mahjong score`` (all text as typed; ``None`` = not given)."""

    hand: str
    variant: str | None = None
    win: str | None = None
    bao: str | None = None
    flown: int = 0
    kong_draws: int = 0
    flowers: int = 0
    flags: tuple[str, ...] = ()
    options: str | None = None
    discarder: str | None = None  # 下家 / 对家 / 上家 of the winner (点炮 or robbed kong)
    feeder: str | None = None  # 上饶 叁包: who fed 3–4 of the winner's melds
    others: str | None = None  # the others' 发 / kongs / 中白: "下家 发2 [7777m]; 对家 (5555p)"
    streak: str | None = None  # 九江 跟庄 / 黄庄: "黄庄 跟庄", "2" or "×4"
    #: 南昌 精: ``5p`` (the 正精; the 副精 follows) or ``indicator:5p`` — the same input as
    #: ``bao`` under the variant's own word (give one of the two)
    jing: str | None = None

    @property
    def wildcards_text(self) -> str | None:
        """The wildcard input, whichever of ``bao`` / ``jing`` carries it."""
        return self.jing if self.jing is not None else self.bao

    def __post_init__(self) -> None:
        # a Chinese input method types full-width digits, letters and brackets (１２３万)
        texts = (
            "hand",
            "variant",
            "win",
            "bao",
            "jing",
            "options",
            "discarder",
            "feeder",
            "others",
        )
        for name in (*texts, "streak"):
            value = getattr(self, name)
            if isinstance(value, str):
                object.__setattr__(self, name, normalise_input(value))
        object.__setattr__(
            self,
            "flags",
            tuple(normalise_input(f) if isinstance(f, str) else f for f in self.flags),
        )


@dataclass(frozen=True)
class DeskAnswer:
    """A scored hand: the engine's result and, for a legal win, who pays what."""

    context: WinContext
    result: ScoreResult
    payments: tuple[PayLine, ...] = ()
    settlement: Settlement | None = None
    notes: tuple[str, ...] = field(default=())
    table: Table = field(default_factory=Table)
    #: the hand as the user typed it, grouped their way (see :func:`typed_hand`)
    typed: str | None = None

    @property
    def legal(self) -> bool:
        return self.result.legal

    @property
    def points(self) -> int:
        return self.result.points

    @property
    def items(self) -> tuple[ScoreItem, ...]:
        return self.result.items

    @property
    def reason(self) -> str:
        return self.result.reason

    @property
    def unit(self) -> tuple[str, str]:
        """The unit of :attr:`points` (``分`` / ``炮``), Chinese and English."""
        unit = variants.get(self.context.variant).unit
        return (unit.zh, unit.en)

    @property
    def pay_unit(self) -> tuple[str, str]:
        """The unit of the payments: points (分) — in 九江 the 炮 × the value per 炮."""
        return PAY_UNIT


# --- reading the options ------------------------------------------------------------------


def _norm(text: str) -> str:
    return text.strip().lower().replace("　", " ")


VARIANT_WORDS.update(variant_words())


def parse_variant(text: str | None, default: str | None = None) -> str:
    """``上饶`` / ``shangrao`` / ``上饶麻将`` → ``shangrao``; ``None`` or blank → ``default``
    (the registry's default variant when none is given)."""
    if text is None or not text.strip():
        return default or variants.default().name
    code = variant_words().get(_norm(text))
    if code is None:
        raise VariantInputError(
            "variant",
            desk_why("unknown_variant", "unknown variant {text!r}", text=text.strip()),
            text.strip(),
            VARIANT_EXAMPLES,
        )
    return code


def parse_win(text: str | None) -> WinKind:
    """``自摸`` / ``self`` → ``self``, ``点炮`` → ``discard``, ``抢杠`` → ``rob_kong``;
    ``None`` → ``self``."""
    if text is None or not text.strip():
        return "self"
    kind = WIN_WORDS.get(_norm(text).replace("-", "_").replace(" ", "_"))
    if kind is None:
        raise WinInputError(
            "win",
            desk_why("unknown_win", "unknown way of winning {text!r}", text=text.strip()),
            text.strip(),
            WIN_EXAMPLES,
        )
    return kind


def parse_bao(text: str | None) -> int | None:
    """The 宝 kind: a tile (``5p``, ``五筒``), or ``indicator:<tile>`` for the flipped tile
    (跌宝牌), whose successor is the 宝 (``indicator:9m`` → 1m). ``None`` / blank → None."""
    if text is None or not text.strip():
        return None
    kind, indicator = _read_bao(text.strip())
    return successor(kind) if indicator else kind


def parse_wildcards(text: str | None, variant: str) -> frozenset[int]:
    """The wildcard kinds (宝; 正精/副精 for a variant with two) of a scoring request: one
    tile or several (``5p 6p``), or ``indicator:<tile>`` for the flipped tile (跌宝牌): the
    kinds it makes in ``variant`` (上饶: its successor). ``None`` / blank → none.

    >>> sorted(parse_wildcards("indicator:4p", "shangrao"))
    [13]
    >>> sorted(parse_wildcards("5p、6p", "shangrao")), sorted(parse_wildcards("5p 6p", "xinyu"))
    ([13, 14], [13, 14])

    Where the indicator's own kind is a wildcard (南昌: 正精 = the indicator, 副精 the next), one
    tile names the indicator: ``5p`` is the 正精 and brings its 副精.

    >>> sorted(parse_wildcards("5p", "nanchang")), sorted(parse_wildcards("indicator:5p", "nanchang"))
    ([13, 14], [13, 14])
    """
    if text is None or not text.strip():
        return frozenset()
    raw = text.strip()
    try:
        kind, indicator = _read_bao(raw)
    except BaoInputError:
        parts = [p for p in re.split(r"[\s,，、]+", raw) if p]
        if len(parts) < 2 or raw.lower().startswith(INDICATOR_PREFIXES):
            raise  # one tile, or an indicator's: its own error stands
        read = [_read_bao(p) for p in parts]
        if any(indicator for _, indicator in read):
            raise
        return frozenset(kind for kind, _ in read)
    pick = variants.get(variant).wildcards_of
    if not indicator:
        made = pick(kind) if pick is not None else frozenset()
        return made if kind in made else frozenset((kind,))
    return pick(kind) if pick is not None else frozenset((successor(kind),))


def primary_wildcard(variant: str, wildcards: frozenset[int]) -> int | None:
    """The 正精 of ``wildcards`` (南昌: the kind whose indicator makes exactly these, itself
    among them; the other is its 副精), or None for a variant whose wildcards are all alike.

    >>> primary_wildcard("nanchang", frozenset({13, 14})), primary_wildcard("shangrao", frozenset({13}))
    (13, None)
    """
    pick = variants.get(variant).wildcards_of
    if pick is None:
        return None
    found = [k for k in sorted(wildcards) if k in pick(k) and pick(k) == wildcards]
    return found[0] if len(found) == 1 else None


def _read_bao(raw: str) -> tuple[int, bool]:
    """One tile of the 宝 option and whether it is the indicator (``indicator:4p``)."""
    raw = normalise_input(raw)
    body = raw
    indicator = False
    low = raw.lower()
    for prefix in INDICATOR_PREFIXES:
        if low.startswith(prefix):
            rest = raw[len(prefix) :].lstrip()
            if rest[:1] in (":", "：", "=", "→", " ") or (rest and prefix in ("翻", "指示")):
                body = rest.lstrip(":：=→ ").strip()
                indicator = True
                break
    if not body:
        raise BaoInputError(
            "bao",
            desk_why("no_indicator", "the indicator tile is missing after ':'"),
            raw,
            BAO_EXAMPLES,
        )
    try:
        kind = kind_of(body)
    except TileError:
        raise BaoInputError(
            "bao", desk_why("bad_tile", "cannot read tile {tile!r}", tile=body), body, BAO_EXAMPLES
        ) from None
    return kind, indicator


def parse_flags(words: Iterable[str]) -> frozenset[str]:
    """Flags by code or Chinese name (``天胡``, ``heaven``, ``海底`` …); one string may hold
    several separated by spaces or commas."""
    out: set[str] = set()
    for word in words:
        for part in re.split(r"[\s,，、;；]+", word or ""):
            if not part:
                continue
            code = FLAG_WORDS.get(part.lower())
            if code is None:
                raise FlagInputError(
                    "flags",
                    desk_why("unknown_flag", "unknown flag {flag!r}", flag=part),
                    part,
                    tuple(f"{zh} / {code}" for code, (zh, _en) in FLAG_NAMES.items()),
                )
            out.add(code)
    return frozenset(out)


_PAIR_RX = re.compile(r"^([A-Za-z_]{1,32})\s*[=:：]\s*([^\s=:：]{0,32})$")


def parse_option_pairs(text: str | None) -> dict[str, str]:
    """``"scoring=xingchen, discard_win=true"`` → ``{"scoring": "xingchen", ...}``.

    >>> parse_option_pairs("scoring = xingchen；discard_win:true")
    {'scoring': 'xingchen', 'discard_win': 'true'}
    """
    if text is None or not text.strip():
        return {}
    if len(text) > OPTIONS_TEXT_LIMIT:
        raise OptionInputError(
            "options",
            desk_why(
                "options_too_long",
                "the options text is longer than {limit} characters",
                limit=OPTIONS_TEXT_LIMIT,
            ),
            text[:20],
            OPTION_EXAMPLES,
        )
    spaced = re.sub(r"\s*([=:：])\s*", r"\1", text.strip())
    out: dict[str, str] = {}
    for part in re.split(r"[\s,，;；、]+", spaced):
        if not part:
            continue
        m = _PAIR_RX.match(part)
        if m is None:
            raise OptionInputError(
                "options",
                desk_why("bad_pair", "cannot read {part!r}: write name=value", part=part),
                part,
                OPTION_EXAMPLES,
            )
        out[m.group(1).lower()] = m.group(2)
    return out


def rule_options(
    variant: str,
    pairs: Mapping[str, Any] | None = None,
    house_rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> RuleOptions:
    """The variant's options: the server's house rules (``{variant: {...}}``) overridden by
    the command's ``key=value`` pairs. A bad pair raises :class:`OptionInputError`; a stored
    house rule the code no longer knows is skipped."""
    base: dict[str, Any] = {}
    for name, value in dict((house_rules or {}).get(variant) or {}).items():
        try:
            make_options(variant, {name: value})
        except OptionError:
            continue
        base[name] = value
    merged = {**base, **dict(pairs or {})}
    try:
        return make_options(variant, merged)
    except OptionError as e:
        bad = next(
            (f"{k}={v}" for k, v in (pairs or {}).items() if repr(k) in str(e) or str(v) in str(e)),
            "",
        )
        raise OptionInputError("options", reason_of(e), bad, OPTION_EXAMPLES) from None


def _count(name: str, value: int | None) -> int:
    if value is None:
        return 0
    if type(value) is not int or not 0 <= value <= COUNT_LIMIT:
        raise CountInputError(
            name,
            desk_why(
                "count",
                "must be a whole number 0–{limit}, not {value!r}",
                limit=COUNT_LIMIT,
                value=value,
            ),
            str(value),
        )
    return value


def read_hand(text: str) -> Hand:
    """Parse a finished hand (``… +X``), turning notation errors into :class:`HandInputError`."""
    try:
        return parse_hand(text, finished=True)
    except NotationError as e:
        raise HandInputError("hand", e.problem, e.bad, HAND_EXAMPLE_LIST) from None


def build_context(
    query: DeskQuery,
    *,
    default_variant: str | None = None,
    house_rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> WinContext:
    """Read a :class:`DeskQuery` into the engine's :class:`WinContext` (RULES §6 fields).

    The variant defaults to the server's; rule options start from the server's house rules.
    A variant with wildcards (Shangrao) needs its 宝 (or the indicator); the others have none.
    """
    variant = parse_variant(query.variant, default_variant)
    options = rule_options(variant, parse_option_pairs(query.options), house_rules)
    hand = read_hand(query.hand)
    win = parse_win(query.win)
    if query.bao is not None and query.jing is not None:
        raise BaoInputError(
            "bao",
            desk_why("bao_and_jing", "give the wildcards once: bao or jing, not both"),
            query.jing,
            BAO_EXAMPLES,
        )
    wilds = parse_wildcards(query.wildcards_text, variant)
    wild = variants.get(variant).desk.wildcard
    if wild and not wilds:
        raise BaoInputError(
            "bao",
            desk_why(
                "needs_bao",
                "a {variant} hand needs its 宝 (the wildcard) or the indicator",
                variant=variant_title(variant),
            ),
            "",
            BAO_EXAMPLES,
        )
    if not wild and wilds:
        raise BaoInputError(
            "bao",
            desk_why(
                "no_bao",
                "{variant} has no 宝 (wildcard): leave bao empty",
                variant=variant_title(variant),
            ),
            query.wildcards_text or "",
            (),
        )
    return WinContext(
        variant=variant,
        options=options,
        hand=hand,
        win=win,
        wildcards=wilds,
        flown=_count("flown", query.flown),
        kong_draws=_count("kong_draws", query.kong_draws),
        flowers=_count("flowers", query.flowers),
        flags=parse_flags(query.flags),
    )


# --- scoring and paying -------------------------------------------------------------------


def settle_context(
    ctx: WinContext, result: ScoreResult, table: Table | None = None
) -> tuple[Settlement, tuple[PayLine, ...]]:
    """Who pays the winner (seat 0), seat by seat (:func:`services.desk_table.settle_table`):
    without a table, each of the three others on a self-draw, the discarder (seat 2 here,
    any seat pays the same) on a discard or robbed kong (RULES §3.4, §4.3, §5.3)."""
    return settle_table(ctx, result, table)


def answer_context(ctx: WinContext, table: Table | None = None) -> DeskAnswer:
    """Score a context and, when it is a legal win, settle it with the rest of the
    ``table`` (who discarded, 叁包, the others' melds, the value per 炮). ``notes`` name the
    payment rules of the variant that were not given, so the answer says they are extra."""
    table = table or Table()
    result = score(ctx)
    if not result.legal:
        return DeskAnswer(ctx, result, table=table)
    settlement, lines = settle_context(ctx, result, table)
    notes: list[str] = []
    variant = variants.get(ctx.variant)
    rules = variant.rules(ctx.options)
    if variant.loser_extras is not None and not table.others:  # 九江 吃兴家
        notes.append("loser_extras")
    if rules.pao_value and not table.streak_given:  # 九江 跟庄 / 黄庄
        notes.append("pao_streak")
    if rules.sanbao and table.feeder is None:
        notes.append("sanbao")
    if rules.kong_money and not table.others:
        notes.append("kong_money")
    return DeskAnswer(ctx, result, lines, settlement, tuple(notes), table)


def score_desk(
    query: DeskQuery,
    *,
    default_variant: str | None = None,
    house_rules: Mapping[str, Mapping[str, Any]] | None = None,
) -> DeskAnswer:
    """Read, score and settle one query (raises :class:`DeskInputError` on bad input)."""
    ctx = build_context(query, default_variant=default_variant, house_rules=house_rules)
    table = build_table(
        ctx,
        discarder=query.discarder,
        feeder=query.feeder,
        others=query.others,
        streak=query.streak,
    )
    return replace(answer_context(ctx, table), typed=typed_hand(query.hand))


def typed_hand(text: str | None) -> str | None:
    """A typed hand to echo back as the user grouped it: full-width characters folded
    (:func:`engine.notation.normalise_input`) and runs of spaces made one.

    >>> typed_hand("１２３m  456m 789p　234s 99s ＋9s")
    '123m 456m 789p 234s 99s +9s'
    """
    if text is None or not text.strip():
        return None
    return " ".join(normalise_input(text).split())


def locate(text: str, bad: str) -> tuple[int, int] | None:
    """Where ``bad`` (as the notation reader saw it, spaces removed) sits in ``text``: a
    ``(start, end)`` slice of ``text``, or ``None`` when it cannot be found.

    >>> t = "123m 4x5p 789s"
    >>> s, e = locate(t, "4x")
    >>> t[s:e]
    '4x'
    """
    if not bad:
        return None
    compact: list[str] = []
    where: list[int] = []
    for i, ch in enumerate(text):
        if not ch.isspace():
            compact.append(ch)
            where.append(i)
    joined = "".join(compact)
    needle = "".join(bad.split())
    at = joined.find(needle)
    if at < 0 or not needle:
        return None
    return where[at], where[at + len(needle) - 1] + 1


__all__ = [
    "ROLE_NAMES",
    "SELF_ROLES",
    "VARIANTS",
    "BaoInputError",
    "CountInputError",
    "DeskAnswer",
    "DeskInputError",
    "DeskQuery",
    "FlagInputError",
    "HandInputError",
    "OptionInputError",
    "PayLine",
    "Table",
    "TableInputError",
    "VariantInputError",
    "WinInputError",
    "answer_context",
    "build_context",
    "locate",
    "parse_bao",
    "parse_flags",
    "parse_option_pairs",
    "parse_variant",
    "parse_wildcards",
    "parse_win",
    "primary_wildcard",
    "rule_options",
    "score_desk",
    "settle_context",
]
