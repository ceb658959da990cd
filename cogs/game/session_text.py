"""The session as text: length and progress (``第3/8局``), seat winds and the dealer, the
摊牌 result of a hand, the 准备 line, the 解散 vote and the final standings.

Only ever built from :mod:`services` values; 摊牌 lines exist only for a hand that is over
(:class:`services.model.HandResult` is never made before).
"""

from __future__ import annotations

from cogs.game.text import (
    how_word,
    meld_text,
    punct,
    score_line_text,
    seat_name,
    t,
    variant_name,
    wildcard_names,
    word,
)
from engine import variants
from engine.notation import format_tiles
from engine.tiles import tile_str
from i18n import short
from i18n.engine_texts import engine_text_by_zh
from services.delivery import GameSummary
from services.model import GameEvent, HandResult, RevealedHand
from services.picture_words import wildcard_mark, wildcard_word
from services.session_state import SessionInfo, length_parts
from services.showdown import JingRow, PayLine, jing_rows, pay_lines, sanbao_payer


def names_of(game: GameSummary, lang: str) -> list[str]:
    """The seats' names as a reader of ``lang`` sees them (AI seats in their language)."""
    return [s.shown_name(lang) for s in game.seats]


def session_of(game: GameSummary) -> SessionInfo | None:
    info = getattr(game, "session", None)
    return info if isinstance(info, SessionInfo) else None


# ---------------------------------------------------------------------------- length


def length_label(length: str | None, lang: str) -> str:
    """``8局`` / ``2圈`` / ``不限局数`` (``8 hands`` …)."""
    parts = length_parts(length)
    if parts is None:
        return t("session.length_open", lang)
    unit, n = parts
    return t("session.length_hands" if unit == "hands" else "session.length_rounds", lang, n=n)


def progress_label(game: GameSummary, lang: str, hand_no: int | None = None) -> str:
    """``第3/8局`` (hands), ``第1/2圈 · 第3局`` (rounds) or ``第3局`` (open-ended)."""
    hand = hand_no if hand_no is not None else game.hand_no
    info = session_of(game)
    progress = info.progress if info is not None else None
    if progress is not None and progress.hands:
        return t("session.progress_hands", lang, hand=hand, hands=progress.hands)
    if progress is not None and progress.rounds:
        return t(
            "session.progress_rounds",
            lang,
            round=progress.round_no,
            rounds=progress.rounds,
            hand=hand,
        )
    return t("session.progress_open", lang, hand=hand)


def table_title(game: GameSummary, lang: str) -> str:
    """The table's title: ``上饶麻将 · 第3/8局``."""
    return t(
        "session.table_title_session",
        lang,
        variant=variant_name(game.variant, lang),
        progress=progress_label(game, lang),
    )


# ---------------------------------------------------------------------------- winds


def wind(seat: int, dealer: int | None, lang: str) -> str:
    """The seat wind (门风): the dealer is 东 (E), the dealer's 下家 南 (S)…; with no dealer
    known (a lobby), the seat's place (seat 1 东 …)."""
    return word("wind", (seat - (dealer or 0)) % 4, lang)


def lobby_seat_prefix(seat: int, lang: str) -> str:
    return f"{wind(seat, 0, lang)} "


def first_dealer_note(game: GameSummary, lang: str) -> str:
    """How the first dealer is chosen (RULES §3–§5): Shangrao rolls dice, the others seat 1."""
    v = variants.get(game.variant)
    if v.rules(v.options_class()).roll_for_first_dealer:
        return t("session.first_dealer_dice", lang)
    first = game.seats[0].shown_name(lang) if game.seats else "?"
    return t("session.first_dealer_seat", lang, name=first)


def dealer_choice_line(game: GameSummary, events: list[GameEvent], lang: str) -> str | None:
    """At the first hand: how the first dealer was chosen — Shangrao's dice for the deal,
    each roll named (ties roll again), or the East seat dealing."""
    started = next((e for e in events if e.kind == "hand_started"), None)
    if started is None or int(started.data.get("hand", 0)) != 0:
        return None
    names = names_of(game, lang)
    dealer = started.data.get("dealer")
    rounds = [
        e.data.get("rolls")
        for e in events
        if e.kind == "dice" and e.data.get("purpose") == "dealer"
    ]
    if not rounds:
        return t("session.line_dealer_seat", lang, name=seat_name(names, dealer))
    parts = []
    for i, rolls in enumerate(rounds):
        if not isinstance(rolls, dict):
            continue
        shown = []
        for seat_text, values in sorted(rolls.items(), key=lambda kv: int(kv[0])):
            vs = [int(v) for v in values] if isinstance(values, list | tuple) else []
            dice = "+".join(str(v) for v in vs)
            shown.append(f"{seat_name(names, int(seat_text))} {dice}={sum(vs)}")
        text = punct("comma", lang).join(shown)
        if i < len(rounds) - 1:
            text += punct("open", lang) + t("session.dice_again", lang) + punct("close", lang)
        parts.append(text)
    return t(
        "session.line_dealer_dice", lang, rolls=" → ".join(parts), name=seat_name(names, dealer)
    )


# ---------------------------------------------------------------------------- 摊牌


def hand_notation(
    concealed: tuple[int, ...] | list[int],
    wildcards: frozenset[int] = frozenset(),
    lang: str = "zh",
    variant: str | None = None,
) -> str:
    """A laid-open hand in RULES notation, suits apart, its 宝 (wildcards) set apart and
    marked with ``variant``'s own word (宝, 精 …), each wildcard kind on its own:
    ``112m 12p 5z 宝7p×2`` (never the words of a private hand message)."""
    mark = wildcard_mark(variant, lang)
    plain = [k for k in concealed if k not in wildcards]
    text = " ".join(_suits(format_tiles(sorted(plain)))) if plain else ""
    for kind in sorted(wildcards):
        jokers = sum(1 for k in concealed if k == kind)
        if jokers:
            text = f"{text} {mark}{tile_str(kind)}×{jokers}".strip()
    return text or "—"


def _suits(text: str) -> list[str]:
    out, current = [], ""
    for ch in text:
        current += ch
        if ch in "mpsz":
            out.append(current)
            current = ""
    if current:
        out.append(current)
    return out


def showdown_hand_line(
    hand: RevealedHand,
    result: HandResult,
    names: list[str],
    lang: str,
    wildcards: frozenset[int],
    variant: str | None = None,
) -> str:
    """``东·庄 **alice**：`112m 12p 5z 宝7p×2` 碰[5s5s5s] · 胡 五条`` (the wildcard mark is
    ``variant``'s own word)."""
    marks = [wind(hand.seat, result.dealer, lang)]
    if hand.seat == result.dealer:
        marks.append(t("game.dealer", lang))
    head = f"{'·'.join(marks)} **{seat_name(names, hand.seat)}**"
    concealed = list(hand.concealed)
    won = hand.seat in result.winners and result.winning_tile is not None
    first_winner = bool(result.winners) and hand.seat == result.winners[0]
    if won and first_winner and result.winning_tile in concealed:
        concealed.remove(result.winning_tile)  # shown apart, marked
    line = (
        f"{head}{punct('colon', lang)}`{hand_notation(tuple(concealed), wildcards, lang, variant)}`"
    )
    if hand.melds:
        line += " " + " ".join(meld_text(m, lang, hand.seat) for m in hand.melds)
    if hand.flowers:
        line += " " + t("session.showdown_flowers", short(lang), n=len(hand.flowers))
    tile = result.winning_tile
    if won and first_winner and tile is not None:
        mark = wildcard_mark(variant, lang) if tile in wildcards else ""
        line += f" · **{t('session.showdown_win_tile', lang, tile=tile_str(tile) + mark)}**"
    elif hand.seat in result.winners:
        line += " · 🀄"
    if result.discarder is not None and hand.seat == result.discarder and result.how != "self":
        line += " · " + t("session.showdown_dealt_in_mark", short(lang))
    return line


def pay_reason(line: PayLine, lang: str) -> str:
    """Why ``line`` is paid, in ``lang``: ``自摸``, ``冲关 · 霸王精``, ``杠分 · 暗杠`` …"""
    label = engine_text_by_zh(line.label, lang) if lang == "zh-TW" else line.label
    if line.kind in ("hand", "sanbao"):
        why = t("session.pay_hand", lang, label=label)
    else:
        why = t(f"session.pay_{line.kind}", lang, label=label)
    return " · ".join([why] + [t(f"session.pay_mark_{m}", lang) for m in line.marks])


def pay_line_text(line: PayLine, names: list[str], lang: str) -> str:
    """``bob → alice 8 · 自摸``."""
    why = pay_reason(line, lang)
    if line.payer is None:
        return f"{seat_name(names, line.payee)} {line.amount:+d} · {why}"
    return f"{seat_name(names, line.payer)} → {seat_name(names, line.payee)} {line.amount} · {why}"


def jing_row_text(row: JingRow, names: list[str], lang: str) -> str:
    """One seat's 精 at the hand end: ``alice：正精1 副精2，共4精 · 每家4 · 结算+12`` (冲关,
    霸王精, 杠精, 包 and 杠分 named when they apply)."""
    parts = [t("session.jing_count", lang, zheng=row.zheng, fu=row.fu, points=row.points)]
    if row.amount:
        parts.append(t("session.jing_amount", lang, amount=row.amount))
    if row.chongguan:
        parts.append(t("session.jing_chongguan", lang))
    if row.bawang:
        parts.append(t("session.jing_bawang", lang))
    if row.gang_jing:
        parts.append(t("session.jing_gang", lang, n=row.gang_jing))
    if row.liable is not None:
        parts.append(t("session.jing_liable", lang, name=seat_name(names, row.liable)))
    if row.kong_points:
        parts.append(t("session.jing_kong", lang, n=f"{row.kong_points:+d}"))
    parts.append(t("session.jing_net", lang, n=f"{row.net:+d}"))
    return f"{seat_name(names, row.seat)}{punct('colon', lang)}" + " · ".join(parts)


def jing_lines(result: HandResult, names: list[str], lang: str) -> list[str]:
    """The 精 settlement of the hand, one line per seat (empty for a variant without one);
    a drawn hand the table does not settle says so."""
    rows = jing_rows(result)
    out = [jing_row_text(row, names, lang) for row in rows]
    if rows and all(row.amount is None for row in rows):
        out.append(t("session.jing_not_settled", lang))
    return out


def showdown_lines(
    game: GameSummary, result: HandResult, lang: str, commitment: str | None = None
) -> list[str]:
    """The result with every hand laid open (摊牌): who won how, the scoring items, each
    seat's tiles (宝 and the winning tile marked, the discarder and a 叁包 payer named), every
    payment, and each seat's change and total; then the seed reveal."""
    names = names_of(game, lang)
    out: list[str] = []
    wildcards = result_wildcards(result)
    if not result.winners:
        out.append(t("game.result_draw", lang))
    else:
        how = how_word(result.how, lang)
        who = punct("list", lang).join(seat_name(names, s) for s in result.winners)
        line = f"🀄 **{who}** · {how}"
        if result.discarder is not None and result.how != "self":
            key = (
                "session.showdown_robbed"
                if result.how == "rob_kong"
                else "session.showdown_dealt_in"
            )
            line += " · " + t(key, lang, name=seat_name(names, result.discarder))
        out.append(line)
        if result.items:
            items = punct("comma", lang).join(score_line_text(i, short(lang)) for i in result.items)
            out.append(t("game.result_items", lang) + punct("colon", lang) + items)
        out.append(t("game.result_points", lang, n=result.points))
        payer = sanbao_payer(result)
        if payer is not None:
            out.append(t("session.showdown_sanbao", lang, name=seat_name(names, payer)))
    if result.value_per_pao > 1:
        why = punct("list", lang).join(result.raised_by) or t(
            "session.showdown_value_why", short(lang)
        )
        out.append(t("session.showdown_value", lang, n=result.value_per_pao, why=why))
    if wildcards:
        out.append(
            t(
                "session.showdown_bao",
                lang,
                word=wildcard_word(game.variant, lang),
                tile=wildcard_names(wildcards, lang, result.primary_wildcard),
            )
        )
    if result.hands:
        out.append(f"**{t('session.showdown_hands', lang)}**")
        out += [
            showdown_hand_line(h, result, names, lang, wildcards, game.variant)
            for h in result.hands
        ]
    jing = jing_lines(result, names, lang)
    if jing:
        out.append(f"**{t('session.showdown_jing', lang)}**")
        out += jing
    lines = pay_lines(result)
    out.append(f"**{t('session.showdown_pay', lang)}**")
    if lines:
        out += [pay_line_text(line, names, lang) for line in lines]
    else:
        out.append(t("session.showdown_no_pay", lang))
    out.append(f"**{t('session.showdown_columns', lang)}**")
    for i, delta in enumerate(result.deltas):
        total = result.scores[i] if i < len(result.scores) else None
        tail = f" / {total}" if total is not None else ""
        out.append(f"{wind(i, result.dealer, lang)} {seat_name(names, i)}　{delta:+d}{tail}")
    if result.seed_reveal and result.seed_reveal.get("seed"):
        out.append(
            t(
                "game.result_seed",
                lang,
                seed=result.seed_reveal["seed"],
                hash=(commitment or result.seed_reveal.get("commitment") or "")[:64],
            )
        )
    return out


def result_wildcards(result: HandResult) -> frozenset[int]:
    """The hand's wildcard kinds (Shangrao's 宝; a variant may have several), or none."""
    return result.wildcards


# ---------------------------------------------------------------------------- 准备


def ready_text(game: GameSummary, lang: str) -> str:
    """The line on the result message while the 准备 check is open (or how it closed)."""
    info = session_of(game)
    if info is None:
        return ""
    names = names_of(game, lang)
    if not info.ready_open:
        if info.ready_hand and game.hand_no > info.ready_hand:
            return t("session.ready_all", lang, hand=game.hand_no)
        return ""
    humans = [i for i, s in enumerate(game.seats) if not s.ai and s.user_id is not None]
    shown = []
    for i in humans:
        mark = "✅" if i < len(info.ready) and info.ready[i] else "⏳"
        shown.append(f"{mark} {seat_name(names, i)}")
    n = sum(1 for i in humans if i < len(info.ready) and info.ready[i])
    if humans and all(game.seats[i].auto for i in humans) and n == len(humans):
        # every human is on 托管: counted ready, yet the next hand waits for one of them to
        # press 准备 — a "准备 n/n" count and a deadline beside that would contradict it
        return t("session.ready_waiting_press", lang)
    when = f"<t:{int(info.ready_deadline)}:R>" if info.ready_deadline else "—"
    return t("session.ready_line", lang, n=n, total=len(humans), who=" ".join(shown), when=when)


# ---------------------------------------------------------------------------- 解散


def vote_text(game: GameSummary, lang: str) -> str:
    """The vote message: who proposed, every human's answer, the deadline or the result."""
    info = session_of(game)
    if info is None or info.vote is None:
        return ""
    vote = info.vote
    names = names_of(game, lang)
    lines = [t("session.vote_title", lang, name=seat_name(names, vote.by))]
    asked = [vote.by, *vote.voters]
    marks = []
    for i in asked:
        answer = vote.answers[i] if i < len(vote.answers) else None
        mark = "✅" if answer else "❌" if answer is False else "⏳"
        marks.append(f"{mark} {seat_name(names, i)}")
    lines.append(" ".join(marks))
    if vote.result is None:
        yes = sum(1 for i in asked if i < len(vote.answers) and vote.answers[i])
        when = f"<t:{int(vote.deadline)}:R>"
        lines.append(t("session.vote_body", lang, yes=yes, total=len(asked), when=when))
    elif vote.result == "passed":
        silent = any(i < len(vote.answers) and vote.answers[i] is None for i in asked)
        lines.append(t("session.vote_expired" if silent else "session.vote_passed", lang))
    elif vote.result == "refused":
        refuser = next(
            (i for i in asked if i < len(vote.answers) and vote.answers[i] is False), None
        )
        lines.append(t("session.vote_refused", lang, name=seat_name(names, refuser)))
    else:
        lines.append(t("session.vote_closed", lang))
    return "\n".join(lines)


# ---------------------------------------------------------------------------- standings


def standings_lines(game: GameSummary, lang: str) -> list[str]:
    """Each player's total, hands won, 自摸, 点炮 and biggest hand, best first, and the
    session's winner."""
    info = session_of(game)
    names = names_of(game, lang)
    out: list[str] = []
    board = list(info.standings) if info is not None else []
    if not board:
        board_totals = list(game.totals) or [0] * len(game.seats)
        out += [
            f"{i + 1}. **{seat_name(names, i)}** {total:+d}" for i, total in enumerate(board_totals)
        ]
        return out
    for s in sorted(board, key=lambda s: (s.rank, s.seat)):
        out.append(
            t(
                "session.standings_line",
                lang,
                rank=s.rank,
                name=seat_name(names, s.seat),
                total=s.total,
                wins=s.wins,
                selfs=s.self_draws,
                dealt=s.dealt_in,
                big=s.biggest,
            )
        )
    best = [s for s in board if s.rank == 1]
    if best and any(s.total for s in board):
        out.append(
            t(
                "session.standings_winner",
                lang,
                names=punct("list", lang).join(seat_name(names, s.seat) for s in best),
            )
        )
    length = length_label(info.length if info else None, lang)
    played = info.hands_played if info is not None else game.hand_no
    out.append(t("session.standings_hands", lang, n=played, length=length))
    return out


def standings_title(game: GameSummary, lang: str) -> str:
    info = session_of(game)
    title = t("session.standings_title", lang, variant=variant_name(game.variant, lang))
    if info is not None and info.ended_by == "vote":
        title += t("session.standings_dissolved", lang)
    elif info is not None and info.ended_by == "admin":
        title += t("session.standings_admin", lang)
    return title


def rematch_text(game: GameSummary, lang: str) -> str:
    info = session_of(game)
    if info is None or info.rematch_game is None:
        return ""
    if info.rematch_closed:
        return t("session.rematch_started", lang, game=info.rematch_game)
    seats = {s.user_id: s.name for s in game.seats if s.user_id is not None}
    who = punct("list", lang).join(seats.get(u, str(u)) for u in info.rematch_users)
    return t("session.rematch_line", lang, game=info.rematch_game, who=who)
