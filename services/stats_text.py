"""Text of the leaderboard (排行榜), stats (战绩) and history (历史) answers; no Discord types.

Every formatter returns a :class:`Card` (title, description, fields, footer) that the cog
turns into an embed. ``lang`` is a locale of :data:`i18n.LOCALES` (``zh``, ``zh-TW``, ``en``)
or ``zh+en`` (both, Chinese first); the sentences are the ``stats`` message catalogue.
Limits kept here: a field value ≤ 1024 characters, a description ≤ 4096, ≤ 25 fields.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from db.types import (
    GameInfo,
    GameSummary,
    HandInfo,
    Leaderboard,
    LeaderboardEntry,
    PlayerStats,
    SeasonInfo,
)
from engine.game.wall import commitment
from engine.options import VARIANT_NAMES
from i18n import short, t
from i18n.engine_texts import engine_text_by_zh
from services.model import Seat

FIELD_LIMIT = 1024
DESCRIPTION_LIMIT = 4096
MEDALS = {1: "🥇", 2: "🥈", 3: "🥉"}
#: How a hand ended (``stats.how_<how>``: 自摸, 点炮, 抢杠, 荒庄).
HOWS = ("self", "discard", "rob_kong", "draw")
#: A game's states (``stats.status_<status>``: 等待中, 进行中, 已结束, 已放弃).
STATUSES = ("lobby", "active", "finished", "abandoned")


@dataclass(frozen=True, slots=True)
class Field:
    name: str
    value: str
    inline: bool = False


@dataclass(frozen=True, slots=True)
class Card:
    """An embed's worth of text, without Discord types."""

    title: str
    description: str = ""
    fields: tuple[Field, ...] = ()
    footer: str = ""

    def text(self) -> str:
        """Everything in one string (logs and tests)."""
        parts = [self.title, self.description]
        for f in self.fields:
            parts += [f.name, f.value]
        parts.append(self.footer)
        return "\n".join(p for p in parts if p)


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a select menu (label ≤ 100, description ≤ 100 characters)."""

    label: str
    value: str
    description: str = ""


def variant_name(variant: str | None, lang: str = "zh") -> str:
    """上饶麻将 / Shangrao; None = every variant."""
    if variant is None:
        return t("stats.all_variants", short(lang))
    return t(f"engine.variant.{variant}", short(lang)) if variant in VARIANT_NAMES else variant


def period_name(period: str, season: int | None, lang: str = "zh") -> str:
    """总榜 / 第2赛季 / 本月 / 本周."""
    return t(f"stats.period_{period}", short(lang), season=season or 1)


def percent(share: float) -> str:
    """``0.4166`` → ``41.7%``."""
    return f"{share * 100:.1f}%"


def signed(n: float) -> str:
    """``+12`` / ``−8`` / ``0`` (a real minus sign)."""
    if n > 0:
        return f"+{n:g}"
    if n < 0:
        return f"−{-n:g}"
    return "0"


def clip(text: str, limit: int) -> str:
    """``text`` cut to ``limit`` characters with ``…``."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def day(when: datetime) -> str:
    """``2026-11-20`` (UTC)."""
    return when.strftime("%Y-%m-%d")


def person(user_id: int, name: str | None, *, is_ai: bool = False, lang: str = "zh") -> str:
    """A player as shown in text: their stored name, else a mention; AI seats by label."""
    if is_ai:
        if name:
            return f"🤖 {_escape(Seat(name, ai=True).shown_name(lang))}"
        return f"🤖 {t('stats.ai', short(lang))}"
    if name:
        return _escape(name)
    return f"<@{user_id}>"


def _escape(name: str) -> str:
    """A display name safe inside Markdown (no formatting, no mentions)."""
    out = name.replace("\\", "\\\\")
    for ch in "*_`~|>[]":
        out = out.replace(ch, "\\" + ch)
    return out.replace("@", "@\u200b")


def item_text(item: Any, lang: str = "zh") -> str:
    """A scoring item as ``清一色 ×4``, ``平胡 4分``, ``杠开 +1炮``; tolerant of the shapes
    the store may hold."""
    if isinstance(item, Mapping):
        zh = str(item.get("name") or item.get("zh") or item.get("en") or "?")
        en = str(item.get("en") or zh)
        label = en if lang == "en" else engine_text_by_zh(zh, lang)
        value = item.get("value")
        return label if value in (None, "") else f"{label} {value_text(value)}"
    if isinstance(item, Sequence) and not isinstance(item, str) and len(item) == 2:
        name = engine_text_by_zh(str(item[0]), lang)
        return f"{name} {value_text(item[1])}"
    return str(item)


def value_text(value: Any) -> str:
    """An item's value as written: a bare number is a multiplier (``×4``); a value the
    engine wrote with its own unit or sign (``4分``, ``+1炮``, ``×2``) stays as it is."""
    text = str(value).strip()
    if isinstance(value, int | float) or text.replace(".", "", 1).isdigit():
        return f"×{text}"
    return text


def items_text(items: Iterable[Any], lang: str = "zh") -> str:
    """Items joined with ``·``; ``—`` when there are none."""
    shown = [item_text(i, lang) for i in items]
    return " · ".join(shown) if shown else "—"


def how_text(how: str, lang: str = "zh") -> str:
    """自摸 / 点炮 / 抢杠 / 荒庄."""
    return t(f"stats.how_{how}", short(lang)) if how in HOWS else how


# ----------------------------------------------------------------------- leaderboard


def metric_parts(
    entry: LeaderboardEntry, by: str, lang: str, say: Callable[..., str] | None = None
) -> tuple[str, list[str]]:
    """The ordered value and the other figures, e.g. ``("+12 分", ["4 局", "胜率 50.0%"])``.

    ``say`` (default :func:`t`) words each figure; the picture passes its own."""
    say = say or t
    lang = short(lang)
    points = say("stats.points_n", lang, n=signed(entry.points))
    hands = say("stats.hands_n", lang, n=entry.hands)
    rate = say("stats.rate", lang, pct=percent(entry.win_rate))
    rating = say("stats.rating_n", lang, r="—" if entry.rating is None else f"{entry.rating:.1f}")
    if by == "rating":
        return rating, [hands, points]
    if by == "winrate":
        return rate, [hands, points]
    return points, [hands, rate]


def metric(entry: LeaderboardEntry, by: str, lang: str) -> str:
    """The ordered value first, then the others, e.g. ``12 分 · 4 局 · 胜率 50.0%``."""
    value, others = metric_parts(entry, by, lang)
    return " · ".join([f"**{value}**", *others])


def board_line(entry: LeaderboardEntry, by: str, lang: str, *, me: bool = False) -> str:
    """``🥇 **1.** 阿明 — 12 分 · 4 局 · 胜率 50.0%``."""
    rank = entry.rank or 0
    medal = MEDALS.get(rank, "")
    name = person(entry.user_id, entry.display_name, lang=lang)
    line = f"{medal}`{rank:>3}.` {name} — {metric(entry, by, lang)}".lstrip()
    return f"{line} {t('stats.you_here', short(lang))}" if me else line


def board_scope(board: Leaderboard, lang: str) -> str:
    """``上饶麻将 · 本月 · 按积分``."""
    return " · ".join(
        [
            variant_name(board.variant, lang),
            period_name(board.period, board.season, lang),
            t(f"stats.by_{board.by}", short(lang)),
        ]
    )


def pages_of(total: int, page_size: int) -> int:
    """How many pages ``total`` ranked players fill (at least one)."""
    return max(1, -(-total // page_size))


def format_leaderboard(
    board: Leaderboard,
    *,
    lang: str = "zh",
    page_size: int = 10,
    asker_id: int | None = None,
    asker_name: str | None = None,
    min_hands: int = 10,
) -> Card:
    """One page of the ranking; the asker's own position below it when not on the page."""
    page = board.offset // page_size
    pages = pages_of(board.total, page_size)
    lines = [
        board_line(e, board.by, lang, me=e.user_id == asker_id and asker_id is not None)
        for e in board.entries
    ]
    if not lines:
        empty = "stats.board_empty_winrate" if board.by == "winrate" else "stats.board_empty"
        lines = [t(empty, lang, min=min_hands)]
    fields: list[Field] = []
    on_page = any(e.user_id == asker_id for e in board.entries)
    if asker_id is not None and not on_page:
        fields.append(
            Field(t("stats.you", lang), _own_line(board, lang, asker_id, asker_name, min_hands))
        )
    footer = [t("stats.page", lang, page=page + 1, pages=pages, total=board.total)]
    if board.by == "winrate":
        footer.append(t("stats.min_hands", lang, min=min_hands))
    return Card(
        title=t(
            "stats.board_title_both" if lang == "zh+en" else "stats.board_title",
            short(lang),
            scope=board_scope(board, lang),
        ),
        description=clip("\n".join(lines), DESCRIPTION_LIMIT),
        fields=tuple(fields),
        footer=" · ".join(footer),
    )


def _own_line(
    board: Leaderboard, lang: str, asker_id: int, asker_name: str | None, min_hands: int
) -> str:
    me = board.me
    name = person(asker_id, (me.display_name if me else None) or asker_name, lang=lang)
    if me is None:
        return t("stats.you_none", short(lang), name=name)
    if me.rank is not None:
        return board_line(me, board.by, lang)
    if board.by == "rating":
        return t("stats.you_unrated", short(lang), name=name)
    more = max(0, min_hands - me.hands)
    return t("stats.you_unranked", short(lang), name=name, hands=me.hands, more=more, min=min_hands)


# ----------------------------------------------------------------------------- stats


def format_stats(
    stats: PlayerStats,
    name: str,
    *,
    lang: str = "zh",
    chart: bool = False,
    season: int | None = None,
) -> Card:
    """A player's stats: hands, wins, shares, average win, biggest hand, favourite, rating."""
    scope = " · ".join([variant_name(stats.variant, lang), period_name(stats.period, season, lang)])
    title = t("stats.stats_title", short(lang), name=name, scope=scope)
    if stats.hands == 0:
        return Card(title=title, description=t("stats.stats_empty", lang))
    fields = [
        Field(t("stats.hands", lang), str(stats.hands), True),
        Field(
            t("stats.wins", lang),
            t("stats.wins_v", short(lang), wins=stats.wins, pct=percent(stats.win_rate)),
            True,
        ),
        Field(t("stats.total_points", lang), signed(stats.points), True),
        Field(
            t("stats.self_draw", lang),
            t(
                "stats.self_draw_v",
                short(lang),
                pct=percent(stats.self_draw_share),
                n=stats.self_draws,
            ),
            True,
        ),
        Field(
            t("stats.deal_in", lang),
            t("stats.deal_in_v", short(lang), pct=percent(stats.deal_in_share), n=stats.deal_ins),
            True,
        ),
        Field(t("stats.average_win", lang), signed(round(stats.average_win, 1)), True),
        Field(
            t("stats.favourite", lang),
            variant_name(stats.favourite_variant, lang) if stats.favourite_variant else "—",
            True,
        ),
        Field(t("stats.rating", lang), _rating_text(stats, lang), True),
    ]
    big = stats.biggest_hand
    if big is not None:
        head = t(
            "stats.biggest_v",
            lang,
            points=big.points,
            how=how_text(big.how, lang),
            variant=variant_name(big.variant, lang),
            date=day(big.created_at),
            delta=signed(big.delta),
        )
        value = clip(f"{head}\n{items_text(big.items, lang)}", FIELD_LIMIT)
        fields.append(Field(t("stats.biggest", lang), value, False))
    footer = t("stats.chart_note", lang, n=len(stats.rating_history)) if chart else ""
    return Card(title=title, fields=tuple(fields), footer=footer)


def _rating_text(stats: PlayerStats, lang: str) -> str:
    r = stats.rating
    if r is None:
        return t("stats.no_rating", short(lang))
    return t(
        "stats.rating_v", short(lang), r=f"{r.rating:.1f}", mu=f"{r.mu:.1f}", sigma=f"{r.sigma:.2f}"
    )


def rating_series(stats: PlayerStats) -> list[tuple[datetime, float]]:
    """The points of the rating chart (oldest first): time and openskill ordinal."""
    return [(p.at, p.rating) for p in stats.rating_history]


# --------------------------------------------------------------------------- history


def seat_names(game: GameInfo, lang: str = "zh") -> list[str]:
    """Each seat of a game as shown in text (name, or mention, or AI label)."""
    out = []
    for seat in game.seats:
        data = seat if isinstance(seat, Mapping) else {}
        uid = data.get("user_id")
        is_ai = bool(data.get("ai")) or uid is None
        name = data.get("name")
        out.append(person(int(uid or 0), str(name) if name else None, is_ai=is_ai, lang=lang))
    return out


def totals_text(game: GameInfo, lang: str = "zh") -> str:
    """``阿明 +30 · Bo −10 · 电脑 −20``."""
    names = seat_names(game, lang)
    parts = []
    for i, total in enumerate(game.totals):
        who = names[i] if i < len(names) else f"#{i + 1}"
        parts.append(f"{who} {signed(total)}")
    return " · ".join(parts) or "—"


def status_text(status: str, lang: str = "zh") -> str:
    return t(f"stats.status_{status}", short(lang)) if status in STATUSES else status


def format_history(
    games: Sequence[GameSummary],
    *,
    lang: str = "zh",
    who: str | None = None,
    records: Sequence[HandInfo] = (),
    names: Mapping[int, str | None] | None = None,
    page: int = 0,
    has_next: bool = False,
) -> Card:
    """Recent games, latest first: id, variant, date, hands, status and final totals; then
    the latest hands played with real tiles (``records``, names from ``names``). The footer
    names the page (``page`` from 0) when there is more than one."""
    title = t("stats.history_title", short(lang), who=who or t("stats.history_server", short(lang)))
    fields: tuple[Field, ...] = ()
    if records:
        lines = [record_line(h, names or {}, lang) for h in records]
        fields = (Field(t("stats.records", lang), clip("\n".join(lines), FIELD_LIMIT)),)
    footer = [t("stats.history_page", lang, page=page + 1)] if page or has_next else []
    if not games:
        empty = t("stats.history_past_end" if page else "stats.history_empty", lang)
        return Card(title=title, description=empty, fields=fields, footer=" · ".join(footer))
    blocks = []
    for summary in games:
        g = summary.game
        head = t(
            "stats.game_line",
            short(lang),
            id=g.id,
            variant=variant_name(g.variant, lang),
            date=day(g.updated_at),
            hands=summary.hands,
            status=status_text(g.status, lang),
        )
        blocks.append(f"{head}\n{totals_text(g, lang)}")
    return Card(
        title=title,
        description=clip("\n\n".join(blocks), DESCRIPTION_LIMIT),
        fields=fields,
        footer=" · ".join([*footer, t("stats.history_pick", lang)]),
    )


def record_line(hand: HandInfo, names: Mapping[int, str | None], lang: str = "zh") -> str:
    """A physically played hand in one line: date, variant, winner, how, points, changes."""
    lang1 = short(lang)

    def who(line: Mapping[str, Any]) -> str:
        uid = int(line.get("user_id", 0))
        return person(uid, names.get(uid), is_ai=bool(line.get("is_ai")), lang=lang)

    by_seat = {int(d.get("seat", 0)): d for d in hand.deltas}
    head = [day(hand.created_at), variant_name(hand.variant, lang), how_text(hand.how, lang)]
    if hand.winner_seats:
        winners = ", ".join(who(by_seat.get(s, {})) for s in hand.winner_seats)
        head.append(t("stats.winner", lang1, who=winners))
    if hand.points:
        head.append(t("stats.points_n", lang1, n=hand.points))
    pay = " · ".join(f"{who(d)} {signed(int(d.get('delta', 0)))}" for d in hand.deltas)
    return f"{' · '.join(head)}\n{pay}"


def history_choices(games: Sequence[GameSummary], lang: str = "zh") -> list[Choice]:
    """Select-menu options for the games (at most 25)."""
    out = []
    for summary in games[:25]:
        g = summary.game
        label = clip(f"#{g.id} · {variant_name(g.variant, lang)} · {day(g.updated_at)}", 100)
        desc = clip(totals_text(g, "zh" if lang == "zh+en" else lang).replace("\\", ""), 100)
        out.append(Choice(label=label, value=str(g.id), description=desc))
    return out


def hand_names(hand: HandInfo, game: GameInfo | None, lang: str = "zh") -> dict[int, str]:
    """Seat → name for one hand: from the game's seats, else the hand's own lines."""
    names = seat_names(game, lang) if game is not None else []
    out: dict[int, str] = {}
    for line in hand.deltas:
        seat = int(line.get("seat", 0))
        if seat < len(names):
            out[seat] = names[seat]
        else:
            out[seat] = person(
                int(line.get("user_id", 0)), None, is_ai=bool(line.get("is_ai")), lang=lang
            )
    return out


def seed_lines(seed_reveal: Mapping[str, Any] | None, lang: str = "zh") -> list[str]:
    """The revealed seed, the hash published when the hand began (as stored then, in the
    reveal's ``commitment``) and whether SHA-256 of (seed, wall) matches it. A hand recorded
    before the published hash was kept shows the recomputed hash, saying so."""
    if not seed_reveal or "seed" not in seed_reveal:
        return [t("stats.no_seed", short(lang))]
    lang1 = short(lang)
    seed = str(seed_reveal["seed"])
    wall = seed_reveal.get("wall_ids") or seed_reveal.get("wall")
    digest = commitment(seed, wall) if isinstance(wall, list) else None
    published = seed_reveal.get("commitment")
    lines = [t("stats.seed", lang1, seed=seed)]
    if isinstance(published, str) and published:
        lines.append(t("stats.published", lang1, digest=published[:128]))
        if digest is not None:
            ok = digest == published
            lines.append(t("stats.check_ok" if ok else "stats.check_bad", lang1, digest=digest))
    else:
        lines.append(t("stats.unpublished", lang1))
        if digest is not None:
            lines.append(t("stats.check", lang1, digest=digest))
    return lines


def winners_received(hand: HandInfo) -> int | None:
    """What the winner(s) received in all (赢家共收): their change, the sum of every loser's
    payment — with 九江 吃兴家 and the value per 炮, which the hand's own points leave out.
    None for a hand without a winner."""
    winners = set(hand.winner_seats)
    if not winners:
        return None
    return sum(int(d.get("delta", 0)) for d in hand.deltas if int(d.get("seat", -1)) in winners)


def hand_field(hand: HandInfo, game: GameInfo | None, lang: str = "zh") -> Field:
    """One hand: winner, how, items, payments and the fairness seed."""
    names = hand_names(hand, game, lang)
    lang1 = short(lang)
    lines = []
    if hand.winner_seats:
        winners = ", ".join(names.get(s, f"#{s + 1}") for s in hand.winner_seats)
        lines.append(t("stats.winner", lang1, who=winners))
    if hand.discarder_seat is not None:
        lines.append(t("stats.discarder", lang1, who=names.get(hand.discarder_seat, "?")))
    if hand.items:
        lines.append(t("stats.items", lang1, items=items_text(hand.items, lang)))
    if hand.points:
        received = winners_received(hand)
        if received is None or received == hand.points:
            lines.append(t("stats.points_total", lang1, points=hand.points))
        else:
            lines.append(t("stats.hand_total", lang1, points=hand.points, received=received))
    pay = " · ".join(
        f"{names.get(int(d.get('seat', 0)), '?')} {signed(int(d.get('delta', 0)))}"
        for d in hand.deltas
    )
    lines.append(t("stats.payments", lang1, pay=pay or "—"))
    lines += seed_lines(hand.seed_reveal, lang)
    name = t("stats.hand_title", lang1, no=hand.hand_no, how=how_text(hand.how, lang))
    if hand.game_id is not None and hand.source == "online":
        name += f" · #{hand.game_id}-{hand.hand_no}"  # the code /mahjong replay takes
    return Field(clip(name, 256), clip("\n".join(lines), FIELD_LIMIT))


def format_game(
    game: GameInfo,
    hands: Sequence[HandInfo],
    *,
    page: int = 0,
    per_page: int = 4,
    lang: str = "zh",
) -> Card:
    """One game: final totals, then a page of its hands (each with its seed)."""
    pages = pages_of(len(hands), per_page)
    page = min(max(page, 0), pages - 1)
    shown = hands[page * per_page : (page + 1) * per_page]
    fields = tuple(hand_field(h, game, lang) for h in shown)
    description = t("stats.game_totals", short(lang), totals=totals_text(game, lang))
    if not hands:
        description += "\n" + t("stats.game_no_hands", lang)
    title = t("stats.game_title", short(lang), id=game.id, variant=variant_name(game.variant, lang))
    return Card(
        title=title,
        description=clip(description, DESCRIPTION_LIMIT),
        fields=fields,
        footer=t("stats.hands_page", lang, page=page + 1, pages=pages),
    )


# --------------------------------------------------------------------------- seasons


def format_seasons(seasons: Sequence[SeasonInfo], current: int, lang: str = "zh") -> Card:
    """The server's seasons, the current one marked."""
    lang1 = short(lang)
    lines = []
    if not any(s.number == 1 for s in seasons):
        mark = t("stats.season_current", lang1) if current == 1 else ""
        lines.append(t("stats.season_first", short(lang)) + mark)
    for s in seasons:
        mark = t("stats.season_current", lang1) if s.number == current else ""
        lines.append(
            t(
                "stats.season_line",
                short(lang),
                number=s.number,
                date=day(s.started_at),
                current=mark,
            )
        )
    return Card(title=t("stats.seasons_title", lang), description="\n".join(lines))


__all__ = [
    "Card",
    "Choice",
    "Field",
    "board_line",
    "format_game",
    "format_history",
    "format_leaderboard",
    "format_seasons",
    "format_stats",
    "hand_field",
    "history_choices",
    "item_text",
    "items_text",
    "metric_parts",
    "pages_of",
    "rating_series",
    "seed_lines",
    "t",
    "value_text",
    "variant_name",
]
