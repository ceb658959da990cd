"""What one variant knows, as one typed object (RULES §3–§5).

A :class:`Variant` bundles a variant's rule options (a frozen dataclass deriving from
:class:`RuleOptions`), its table-flow rules (:class:`TableRules`), the RULES §6 flags its
scorer reads, the scorer, its settlement (结算) specifics, shape-free winning hands, wildcard
(宝 / 精) choice, AI tuning, and the texts shown for it. Everything else in the project asks
:mod:`engine.variants` for a variant by name and calls these hooks; it never names one.

It builds on the low modules only (:mod:`engine.text`, :mod:`engine.rule_options`; the
scoring types, payments and catalogue for type checking), never on the registry, and
re-exports :class:`Text`, :class:`OptionError`, :class:`OptionInfo` and :class:`RuleOptions`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from engine.rule_options import OptionError, OptionInfo, RuleOptions
from engine.text import Text

if TYPE_CHECKING:
    from engine.notation import Meld
    from engine.payments import Payment
    from engine.scoring.types import ScoreResult, WinContext, WinKind
    from engine.variants.catalogue import ScoringItem

__all__ = [
    "BAO",
    "AiTuning",
    "DeskFields",
    "HandEnd",
    "HandSettlement",
    "HelpFacts",
    "HelpSection",
    "OptionError",
    "OptionInfo",
    "PayRequest",
    "RuleOptions",
    "RulePage",
    "ScoringRow",
    "TableRow",
    "TableRules",
    "Text",
    "Variant",
]


@dataclass(frozen=True)
class TableRules:
    """What the table flow of one variant (with its options) allows."""

    variant: str
    kinds: tuple[int, ...]  # tile kinds in the set (four copies each)
    chi: bool  # 吃 allowed (下家 only)
    discard_win: bool  # any discard may be won (else only the variant's special cases)
    rob_kong: bool  # 抢杠
    multi_win: bool  # 一炮多响: every claimer wins (else first in play order from discarder)
    reserve: int  # tiles that stay in the wall at the live-wall end (新余 16)
    indicator: bool  # 上饶 跌宝牌 / 宝
    flowers: tuple[int, ...]  # kinds laid open and replaced (九江 发)
    missed_win: bool  # 九江 rule 3: passing a winnable discard blocks discard wins until next draw
    kong_after_pong: bool  # 九江 rule 1: the drawn 4th tile of a pong must be konged (or won)
    declare_ready: bool  # 九江 报听
    kong_money: bool  # 新余 杠钱 at declaration
    dealer_dice: int  # dice the dealer rolls to start the deal (narrated)
    last_tile_discard: bool = (
        False  # 九江 海底放炮: who draws the last tile and can't win discards it
    )
    earth_self_draw: bool = False  # 九江 地胡 also on a non-dealer's self-draw at its first draw
    roll_for_first_dealer: bool = False  # 上饶: every seat rolls, the highest sum deals first
    earth_on_discard: bool = False  # 上饶 地胡: the dealer's first discard may be won
    sanbao: bool = False  # 上饶 叁包: the feeder of a third claimed set pays for all
    pao_value: bool = False  # 九江 跟庄 / 黄庄 raise the value per 炮; 吃兴家 extras
    dealer_stays_after_draw: bool = False  # 荒牌 keeps the dealer (else the 下家 deals)
    #: a non-dealer's win passes the deal to the dealer's 下家 (南昌; else the winner deals)
    win_passes_deal: bool = False
    #: honour triples that are sequences (南昌 中发白, three different winds): chied and
    #: completing hands like suit sequences
    honour_sequences: tuple[tuple[int, int, int], ...] = ()
    #: the wildcards are also plain tiles (南昌 精): a discarded one may be chied, ponged,
    #: konged (and won on when ``win_on_wild_discard``), held ones take part in melds and
    #: kongs at face value; else a wildcard is never claimed nor melded (上饶 宝)
    wild_melds: bool = False
    win_on_wild_discard: bool = True  # with ``wild_melds``: a discarded wildcard may be won on
    #: the indicator is turned face up in its place, dice-counted stacks from the tail, and
    #: stays among the ``reserve`` never drawn (南昌); else it is the tail tile, taken out
    indicator_in_wall: bool = False
    take_indicator: bool = False  # a replacement that reaches the face-up indicator takes it
    touji: bool = True  # a winnable 宝吊头 self-draw may be declined to keep drawing (偷机)
    #: with ``missed_win``: the lock bars only the passed kind (南昌 弃先胡后), except for a
    #: seat in a wildcard wait (精钓), barred from every discard; else every discard is barred
    missed_win_kind: bool = False
    missed_pong_lock: bool = False  # the passed kind may not be ponged either until the draw
    #: a hand in a wildcard wait (精钓) may win on a discard; else (南昌 ``forbid``) only
    #: when the discard completes it with no wildcard used as one (德国), or as 地胡
    wildcard_wait_discard: bool = True
    #: 南昌 抄庄: the three others follow the dealer's first discard → the deal passes
    chaozhuang: bool = False


@dataclass(frozen=True)
class HandEnd:
    """Every seat's tiles as a hand ends, won or drawn: what a variant's hand-end settlement
    (:attr:`Variant.settle_hand`: 南昌 精 settlement, kong points, 抄庄, 荒庄 penalty) reads.

    ``hands[i]`` are seat *i*'s concealed kinds (the winner's with the winning tile);
    ``melds[i]`` its melds; ``discarded[i]`` every kind it discarded this hand, claimed ones
    included; ``claimed[i]`` the ``(kind, from seat)`` of each tile it took from another
    seat's discard or kong (claimed melds, and the winning tile of a discard / 抢杠 win).
    ``followed`` is 抄庄 (the three followed the dealer's first discard, no claim between).
    """

    options: RuleOptions | None
    dealer: int
    winner: int | None  # None: a drawn hand (荒庄)
    how: str  # "self" | "discard" | "rob_kong" | "draw"
    payer: int | None  # the discarder / robbed seat of a win
    indicator: int | None  # the face-up indicator's kind
    wildcards: frozenset[int]
    hands: tuple[tuple[int, ...], ...]
    melds: tuple[tuple[Meld, ...], ...]
    discarded: tuple[tuple[int, ...], ...]
    claimed: tuple[tuple[tuple[int, int], ...], ...]
    winning_tile: int | None = None
    followed: bool = False


@dataclass(frozen=True)
class HandSettlement:
    """What :attr:`Variant.settle_hand` returns: the transfers (zero-sum by construction) and,
    per seat, a JSON-ready line the result shows (南昌: 精 count, 冲关, what it paid)."""

    payments: tuple[Payment, ...]
    seats: tuple[dict[str, Any], ...] = ()


@dataclass(frozen=True)
class AiTuning:
    """How the AI players adapt to a variant (engine/game/ai.py, danger.py)."""

    pace: int = 3  # discards before a seat's readiness starts to rise
    threat_scale: float = 1.0  # weight of reading other seats' danger (0: never defend)
    #: Whether a winnable self-draw is worth declining for 偷机 (KeepDrawing) under options.
    keeps_drawing: Callable[[RuleOptions], bool] = field(default=lambda _o: False)
    # What a hand is worth by route, as a multiple of a plain (平胡) win, for the value-based
    # policy (engine/ai/value.py): 七对, 碰碰胡, 清一色, 混一色 (one suit with honours), and a
    # concealed hand (门清) on the plain route.
    pairs_value: float = 2.0
    pongs_value: float = 2.0
    flush_value: float = 3.0
    half_flush_value: float = 1.0
    concealed_value: float = 1.0
    #: An open plain (平胡) hand may win on a discard only with an extra (九江 二炮起胡: a
    #: 发 laid open, a 中 / 白 set or a kong), else only by self-draw.
    open_plain_needs_extra: bool = False
    #: Defence (engine/ai/strong.py), measured in self-play of the strong AI without
    #: defence. ``win_gain``: points one unit of hand value (engine/ai/value.py) is worth —
    #: the slope of a seat's hand result on the value of its discards, which counts both what
    #: a win earns and what it saves the seat from paying others.
    win_gain: float = 1.0
    #: What dealing in (点炮) costs the discarder, in points (the mean discard-win payment).
    deal_in_loss: float = 1.0
    #: What a seat that does not deal in still pays, on average, when the ready seat it
    #: spared wins anyway (a self-draw, or another seat's discard where bystanders pay), by
    #: the rule options: the net cost of a deal-in is ``deal_in_loss`` minus this.
    bystander_loss: Callable[[RuleOptions], float] = field(default=lambda _o: 0.0)
    #: Chance that a discard deals in, per unit of risk (engine/game/danger.py ``risks``).
    deal_in_per_risk: float = 0.12
    #: What a concealed kong earns on its own, win or not (新余 杠钱), in plain wins; an
    #: exposed or added kong half as much.
    kong_value: float = 0.0


@dataclass(frozen=True)
class DeskFields:
    """The scoring desk (``/mahjong score``) fields that apply to a variant."""

    wildcard: bool = False  # a 宝 is given (field ``bao``)
    feeder: bool = False  # 叁包 feeder (field ``feeder``)
    others: bool = True  # the other players' melds (field ``others``), for 杠钱 / 吃兴家
    streak: bool = False  # 跟庄 / 黄庄 streak (field ``streak``)
    flowers: bool = False  # 发 flowers count
    others_example: tuple[str, ...] = ()  # autocomplete examples of ``others``


@dataclass(frozen=True)
class ScoringRow:
    """One line of a help page's scoring summary (计分): a scoring item (its catalogue name,
    :data:`engine.variants.catalogue.NAMES`), what it means under this variant, its value
    (``×2``, ``+1炮``, ``16分``)."""

    item: Text
    note: Text
    value: str


@dataclass(frozen=True)
class TableRow:
    """One row of a points table (上饶 ``classic``): the item, its ``(column, points)`` cells,
    and whether the last cell alone is a legal win (起胡; the page marks it ✗ when not)."""

    item: Text
    cells: tuple[tuple[Text, int], ...]
    legal: bool = True


@dataclass(frozen=True)
class HelpSection:
    """One paragraph of a rule page: a text, then its scoring rows or its points table; or
    (``options``) the variant's rule options with their defaults, generated by the bot.
    ``preset`` names the scoring preset the rows belong to (``classic``, ``small``…)."""

    text: Text | None = None
    rows: tuple[ScoringRow, ...] = ()
    table: tuple[TableRow, ...] = ()
    options: bool = False
    preset: str = ""


@dataclass(frozen=True)
class RulePage:
    """One page of a variant's rules in ``/mahjong help``: its title, its paragraphs and its
    embed fields (a field is a section: its text is the field's name, its rows the value)."""

    title: Text
    sections: tuple[HelpSection, ...]
    fields: tuple[HelpSection, ...] = ()


@dataclass(frozen=True)
class HelpFacts:
    """A variant's help-page facts (``/mahjong help``): the title, the one-line summary and
    the rule pages (``engine/variants/<name>/help.py``)."""

    title: Text
    summary: Text
    pages: tuple[RulePage, ...] = ()

    def texts(self) -> tuple[Text, ...]:
        """Every text of the help facts: title, summary, page titles, paragraphs, scoring
        notes, item names and table columns."""
        out: list[Text] = [self.title, self.summary]
        for page in self.pages:
            out.append(page.title)
            for section in (*page.sections, *page.fields):
                if section.text is not None:
                    out.append(section.text)
                for row in section.rows:
                    out += (row.item, row.note)
                for trow in section.table:
                    out.append(trow.item)
                    out += (col for col, _ in trow.cells)
        return tuple(out)


#: The wildcard word of a variant that names none of its own: 宝.
BAO = Text("wildcard.bao", "宝", "寶", "Bao")


def _no_special(counts: Sequence[int], wilds: int, meld_kinds: Sequence[int]) -> bool:
    return False


@dataclass(frozen=True)
class Variant:
    """Everything one variant knows, behind the hooks the rest of the project calls.

    - ``options_class``: its rule options (RULES §3–§5 house rules);
    - ``table_rules(options)``: the table-flow preset;
    - ``flags``: the RULES §6 flags its scorer reads (the game passes only these);
    - ``score(ctx)``: its scorer (after the shared checks of :func:`engine.scoring.score`);
    - ``maybe_special(counts, wilds, meld_kinds)``: a shape-free hand (十三烂, 全风向…) might
      win although the standard shape test fails;
    - ``pay_win(...)``: the payments of one winner (结算);
    - ``wildcards_of(indicator_kind)``: the wildcard kinds (宝 / 精) an indicator makes;
    - ``loser_extras(melds, flowers)``: what one paying loser adds to each 炮 for their own
      open melds and flowers (九江 吃兴家); ``None`` (the default) adds nothing — ask
      :meth:`extras_of`;
    - ``settle_hand(end)``: payments of every seat at every hand end, drawn hands too
      (南昌 精 settlement); ``None`` adds nothing;
    - ``line_kinds``: the other kinds of request line it answers (南昌 ``jing_settlement``);
    - ``wildcard``: its word for a wildcard kind (宝 / 精) in the three locales;
    - ``ai``, ``desk``, ``help``: AI tuning, desk fields, help facts;
    - ``items``: the scoring items it scores (:mod:`engine.variants.catalogue`).
    """

    name: str
    order: int  # position in command choices (the first is the default variant)
    title: Text  # 上饶麻将 / Shangrao
    short: Text  # 上饶 / Shangrao (table headers, desk)
    aliases: tuple[str, ...]  # other names the desk accepts (上饶, sr…)
    options_class: type[RuleOptions]
    table_rules: Callable[[Any], TableRules]
    flags: frozenset[str]
    score: Callable[[WinContext], ScoreResult]
    pay_win: Callable[[PayRequest], list[Payment]]
    maybe_special: Callable[[Sequence[int], int, Sequence[int]], bool] = _no_special
    wildcards_of: Callable[[int], frozenset[int]] | None = None
    loser_extras: Callable[[Sequence[Meld], int], int] | None = None
    #: payments of every seat at the end of every hand, won or drawn (南昌 精 settlement,
    #: kong points, 抄庄); ``None`` (the default): the win's payments are all
    settle_hand: Callable[[HandEnd], HandSettlement] | None = None
    #: answers to scoring-request lines of another ``kind`` (RULES §8.7 ``jing_settlement``):
    #: kind → ``answer(line, options)``, a JSON-ready dict (``python -m engine.score``)
    line_kinds: Mapping[str, Callable[[dict[str, Any], RuleOptions], dict[str, Any]]] = field(
        default_factory=dict, hash=False
    )
    needs_wildcards: bool = False  # a scoring request must name the wildcard (宝)
    indicator_kongs: bool = False  # the 3-tile indicator kong (XXX) exists
    menqing: bool = False  # its scoring has 门清: a claim gives it up (review hints)
    unit: Text = field(default_factory=lambda: Text("unit.points", "分", "分", "points"))
    #: its own word for a wildcard (上饶 宝, Nanchang-style 精): the table's indicator line and picture
    wildcard: Text = field(default_factory=lambda: BAO)
    ai: AiTuning = field(default_factory=AiTuning)
    desk: DeskFields = field(default_factory=DeskFields)
    help: HelpFacts | None = None
    items: tuple[ScoringItem, ...] = ()  # the scoring items it scores (the catalogue)
    _rules: dict[RuleOptions, TableRules] = field(
        default_factory=dict, compare=False, hash=False, repr=False
    )

    def extras_of(self, melds: Sequence[Meld], flowers: int) -> int:
        """What a loser with ``melds`` open and ``flowers`` laid open adds to each 炮 they
        pay (九江 吃兴家, the :attr:`loser_extras` hook); 0 for a variant without one."""
        return 0 if self.loser_extras is None else self.loser_extras(melds, flowers)

    def rules(self, options: RuleOptions) -> TableRules:
        """The table rules under ``options`` (built once per options value)."""
        r = self._rules.get(options)
        if r is None:
            r = self._rules[options] = self.table_rules(options)
        return r


@dataclass(frozen=True)
class PayRequest:
    """What a variant's settlement needs for one winner (see :func:`engine.settle.settle_win`)."""

    options: RuleOptions | None
    winner: int
    result: ScoreResult
    win: WinKind
    payer: int | None
    dealer: int
    points: int  # the winner's points × value per 炮
    sanbao_feeder: int | None = None
    loser_extras: Sequence[int] = (0, 0, 0, 0)
    value_per_pao: int = 1
