"""Every user-facing string of the scoring desk (``/mahjong score``, ``/mahjong record``).

The sentences are in the ``desk`` message catalogue (``i18n/locales/*/LC_MESSAGES/desk.po``),
read with :func:`i18n.t`; ``lang`` is a locale of :data:`i18n.LOCALES` (``zh``, ``zh-TW``,
``en``). The line builders turn :mod:`services.desk` / :mod:`services.records` values into
text (no Discord types here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from cogs.refusal_text import translated
from db.types import HandInput
from engine import variants
from engine.notation import format_hand
from engine.scoring import ScoreItem
from engine.tiles import tile_str, zh_name
from i18n import t
from services.desk import (
    WIN_NAMES,
    DeskAnswer,
    DeskInputError,
    PayLine,
    locate,
    primary_wildcard,
)
from services.desk_table import SEAT_ROLES
from services.picture_words import wildcard_word

#: A physical record's states (``desk.status.<status>``: 待确认, 确认并计入, 过期, 作废).
RECORD_STATUSES = ("pending", "confirmed", "expired", "void")

#: The option fields whose bad input has its own heading (``desk.bad_<field>``).
INPUT_FIELDS = frozenset(
    {
        "hand",
        "variant",
        "win",
        "bao",
        "flags",
        "options",
        "count",
        "discarder",
        "feeder",
        "others",
        "streak",
    }
)


def variant_label(variant: str, lang: str) -> str:
    """上饶麻将 / 上饒麻將 / Shangrao."""
    return t(f"engine.variant.{variant}", lang)


def unit_text(unit: tuple[str, str], lang: str) -> str:
    """A unit the desk service gives as ``(zh, en)`` (``分`` / ``炮``), in ``lang``."""
    return t("desk.unit.pao" if unit[1] == "pao" else "desk.unit.points", lang)


def role_name(role: str, lang: str) -> str:
    """赢家 / 下家 / 对家 … in ``lang``."""
    return t(f"desk.role.{role}", lang)


def raise_names(raises: Sequence[str], lang: str) -> str:
    """``黄庄, 跟庄`` / ``drawn hand, followed``: what raised the value per 炮."""
    return ", ".join(t(f"desk.raise.{r}", lang) for r in raises)


def _why(parts: Sequence[str], lang: str) -> str:
    """``（点炮，杠钱 付 1）`` / `` (discarded the winning tile; kong money 1)``."""
    return (
        t("desk.list_open", lang)
        + t("desk.list_sep", lang).join(parts)
        + t("desk.list_close", lang)
    )


def item_line(item: ScoreItem | Mapping[str, str]) -> str:
    """One scoring item, both names and its value: ``清一色 · Pure one suit — ×4``."""
    if isinstance(item, Mapping):
        name, en, value = item["name"], item["en"], item["value"]
    else:
        name, en, value = item.name, item.en, item.value
    return f"{name} · {en} — {value}"


def total_line(points: int, unit: tuple[str, str], lang: str) -> str:
    """``**16** 分``."""
    return f"**{points}** {unit_text(unit, lang)}"


def tile_label(kind: int, lang: str) -> str:
    """``一万 (1m)`` / ``一萬 (1m)`` / ``1m 一万`` (English readers keep the Chinese name)."""
    if lang == "en":
        return f"{tile_str(kind)} {zh_name(kind)}"
    return f"{t(f'common.tile.{tile_str(kind)}', lang)} ({tile_str(kind)})"


def payment_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """Each seat's payment (what it pays or gets, and why when there is more than the win),
    what the winner gets in all, and notes on payment rules that were not given."""
    unit = unit_text(answer.pay_unit, lang)
    table = answer.table
    discarder_role = SEAT_ROLES.get(table.discarder) if table.discarder is not None else None
    lines = []
    for p in answer.payments:
        who = role_name(p.role, lang)
        if p.amount > 0:
            head = t("desk.pays", lang, who=who, amount=p.amount, unit=unit)
        elif p.amount < 0:
            head = t("desk.gets", lang, who=who, amount=-p.amount, unit=unit)
        else:
            head = t("desk.pays_nothing", lang, who=who)
        parts = _pay_parts(answer, p, discarder_role, lang)
        if parts:
            head += _why(parts, lang)
        lines.append(head)
    if answer.settlement is not None:
        won = answer.settlement.deltas[0]
        key = "desk.winner_gets" if won >= 0 else "desk.winner_pays"
        lines.append(t(key, lang, amount=abs(won), unit=unit))
    for note in answer.notes:
        lines.append("· " + t(f"desk.note_{note}", lang))
    return lines


def _pay_parts(answer: DeskAnswer, p: PayLine, discarder_role: str | None, lang: str) -> list[str]:
    parts: list[str] = []
    if p.role == discarder_role:
        parts.append(
            t(
                "desk.part_robbed" if answer.context.win == "rob_kong" else "desk.part_discarder",
                lang,
            )
        )
    if p.feeder:
        parts.append(t("desk.part_feeder", lang))
    value = answer.table.pao_value
    pao = variants.get(answer.context.variant).desk.streak  # 九江: 炮 × value, 吃兴家
    if p.win and pao and (p.eaten or value > 1):
        text = t("desk.part_pao", lang, pao=answer.points)
        if p.eaten:
            text += t("desk.part_eaten", lang, eaten=p.eaten)
        if value > 1:
            text += t("desk.part_value", lang, value=value)
        parts.append(text)
    elif p.win and p.kong:
        parts.append(t("desk.part_win", lang, amount=p.win))
    if p.kong > 0:
        parts.append(t("desk.part_kong_pays", lang, amount=p.kong))
    elif p.kong < 0:
        parts.append(t("desk.part_kong_gets", lang, amount=-p.kong))
    return parts


def table_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """What was said about the rest of the table: the discarder, 叁包, the others' melds and
    the value per 炮."""
    table = answer.table
    lines = []
    if table.discarder is not None:
        key = "desk.robbed_seat" if answer.context.win == "rob_kong" else "desk.discarder_seat"
        lines.append(t(key, lang, who=role_name(SEAT_ROLES[table.discarder], lang)))
    if table.feeder is not None:
        lines.append(t("desk.feeder_line", lang, who=role_name(SEAT_ROLES[table.feeder], lang)))
    if table.others:
        shown = []
        for seat in sorted(table.others):
            sm = table.others[seat]
            bits = [t("desk.flowers_of", lang, n=sm.flowers)] if sm.flowers else []
            bits += [m.text() for m in sm.melds]
            shown.append(f"{role_name(SEAT_ROLES[seat], lang)} {' '.join(bits) or '—'}")
        lines.append(t("desk.others_line", lang, others="; ".join(shown)))
    if table.streak_given:
        if table.raises:
            lines.append(
                t(
                    "desk.streak_line",
                    lang,
                    value=table.pao_value,
                    raises=raise_names(table.raises, lang),
                )
            )
        else:
            lines.append(t("desk.streak_value", lang, value=table.pao_value))
    return lines


def context_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """The hand as read back, how it was won, the wildcards (named with the variant's own
    word: 宝, 精 …), flags and counts, the rest of the table."""
    ctx = answer.context
    lines = [
        f"`{answer.typed.replace('`', '') if answer.typed else format_hand(ctx.hand)}`",
        t("desk.how_won", lang, how=t(f"desk.win.{ctx.win}", lang)),
    ]
    if ctx.wildcards:
        primary = primary_wildcard(ctx.variant, ctx.wildcards)
        if primary is None:
            wild_names = "、".join(tile_label(k, lang) for k in sorted(ctx.wildcards))
        else:  # 南昌: 正精 first, each named
            wild_names = "、".join(
                t(
                    "game.jing_primary" if k == primary else "game.jing_secondary",
                    lang,
                    tile=tile_label(k, lang),
                )
                for k in sorted(ctx.wildcards, key=lambda k: (k != primary, k))
            )
        word = wildcard_word(ctx.variant, lang)
        lines.append(t("desk.bao_line", lang, word=word, bao=wild_names))
    if ctx.flags:
        names = [t(f"desk.flag.{f}", lang) for f in sorted(ctx.flags)]
        lines.append(t("desk.flags_line", lang, flags=", ".join(names)))
    if ctx.flown or ctx.kong_draws or ctx.flowers:
        lines.append(
            t("desk.counts_line", lang, flown=ctx.flown, kongs=ctx.kong_draws, flowers=ctx.flowers)
        )
    lines.extend(table_lines(answer, lang))
    return lines


def answer_title(answer: DeskAnswer, lang: str) -> str:
    variant = variant_label(answer.context.variant, lang)
    if answer.legal:
        return t(
            "desk.legal_title",
            lang,
            variant=variant,
            points=answer.points,
            unit=unit_text(answer.unit, lang),
        )
    return t("desk.illegal_title", lang, variant=variant)


def option_label(field: str, lang: str, command: str = "record") -> str:
    """A ``/mahjong <command>`` option as the reader's Discord names it (``winner2`` →
    ``赢家2``); ``players`` is the four player options; an unknown name stays as it is."""
    if field == "players":
        first, last = option_label("player1", lang, command), option_label("player4", lang, command)
        return f"{first}–{last}"
    for cmd in (command, "score", "record", "record_expiry"):
        try:
            return t(f"commands.mahjong.{cmd}.param.{field}.name", lang)
        except KeyError:
            continue
    return field


def input_error_text(
    error: DeskInputError, given: str | None, lang: str, command: str = "score"
) -> str:
    """The pointed explanation of bad input: which option, the text with the bad part marked
    【like this】, what is wrong, and examples."""
    field = error.field if error.field in INPUT_FIELDS else "count"
    head = t(f"desk.bad_{field}", lang)
    lines = [f"❌ **{head}** (`{option_label(error.field, lang, command)}`)"]
    if given:
        span = locate(given, error.bad) if error.bad else None
        shown = (
            given
            if span is None
            else f"{given[: span[0]]}【{given[span[0] : span[1]]}】{given[span[1] :]}"
        )
        lines.append(f"> {_plain(shown)}")
    elif error.bad:
        lines.append(f"> 【{_plain(error.bad)}】")
    problem = str(translated(error.problem, lang))  # may quote the input: keep it short
    lines.append(problem if len(problem) <= 300 else problem[:299] + "…")
    if error.examples:
        lines.append(f"{t('desk.examples', lang)}: " + " · ".join(f"`{e}`" for e in error.examples))
    return "\n".join(lines)[:1900]


def _plain(text: str) -> str:
    """Text safe to show inside a quote line (no markdown or mentions)."""
    out = text.replace("\n", " ")
    for ch in "*_`~|>@#":
        out = out.replace(ch, "\\" + ch)
    return out[:300]


def mention(user_id: int) -> str:
    return f"<@{user_id}>"


def status_text(status: str, expires_at: datetime, lang: str) -> str:
    if status == "pending":
        return t("desk.record_pending", lang, expires=f"<t:{int(expires_at.timestamp())}:R>")
    return t(f"desk.record_{status}", lang)


def _others_lines(details: Mapping[str, Any], lang: str) -> list[str]:
    """The others' 发 and melds that changed the payments (吃兴家, 杠钱), one line."""
    others = details.get("others")
    if not isinstance(others, list) or not others:
        return []
    shown = []
    for o in others:
        bits = [t("desk.flowers_of", lang, n=o["flowers"])] if o.get("flowers") else []
        bits += [f"`{m}`" for m in o.get("melds", [])]
        shown.append(f"{mention(int(o.get('user_id', 0)))} {' '.join(bits) or '—'}")
    return [t("desk.others_line", lang, others="; ".join(shown))]


def record_lines(hand: HandInput, details: Mapping[str, Any], lang: str) -> list[str]:
    """Result lines of a record: the winner(s) and how, the discarder, the points, the hand,
    and the rest of the table that changed the payments (叁包, the others' 发 / kongs / 中白,
    the value per 炮)."""
    players = {p.seat: p.user_id for p in hand.players}
    if hand.how == "draw" or not hand.winners:
        return [t("desk.draw", lang), *_others_lines(details, lang)]
    how = t(f"desk.win.{hand.how}", lang) if hand.how in WIN_NAMES else hand.how
    unit = t(f"engine.{variants.get(hand.variant).unit.id}", lang)  # 分 / 炮
    several = details.get("winners")
    lines = []
    if isinstance(several, list) and len(several) > 1:
        for w in several:
            lines.append(
                t(
                    "desk.winner_points_line",
                    lang,
                    winner=mention(int(w.get("user_id", 0))),
                    how=how,
                    points=w.get("points", 0),
                    unit=unit,
                )
            )
    else:
        lines.append(t("desk.won_line", lang, winner=mention(players[hand.winners[0]]), how=how))
    if hand.discarder is not None:
        key = "desk.robbed_line" if hand.how == "rob_kong" else "desk.discarder_line"
        lines.append(t(key, lang, who=mention(players[hand.discarder])))
    if hand.points and not (isinstance(several, list) and len(several) > 1):
        lines.append(t("desk.points_line", lang, points=hand.points, unit=unit))
    if details.get("hand"):
        lines.append(t("desk.hand_line", lang, hand=f"`{_plain(str(details['hand']))}`"))
    if details.get("feeder") is not None:
        lines.append(t("desk.rec_feeder_line", lang, who=mention(int(details["feeder"]))))
    lines += _others_lines(details, lang)
    if "pao_value" in details:
        raises = details.get("raises") or []
        if raises:
            lines.append(
                t(
                    "desk.streak_line",
                    lang,
                    value=details["pao_value"],
                    raises=raise_names(raises, lang),
                )
            )
        else:
            lines.append(t("desk.streak_value", lang, value=details["pao_value"]))
    return lines


def change_notes(part: Mapping[str, Any] | None, lang: str) -> list[str]:
    """Why a seat's change is more than the plain win: 叁包, its 吃兴家, its 杠钱."""
    if not part:
        return []
    notes = []
    if part.get("feeder"):
        notes.append(t("desk.part_feeder", lang))
    if part.get("eaten"):
        notes.append(t("desk.rec_eaten", lang, eaten=part["eaten"]))
    kong = int(part.get("kong") or 0)
    if kong > 0:
        notes.append(t("desk.part_kong_pays", lang, amount=kong))
    elif kong < 0:
        notes.append(t("desk.part_kong_gets", lang, amount=-kong))
    return notes


def player_lines(
    players: Iterable[int],
    confirmations: Iterable[int],
    deltas: Iterable[int],
    lang: str,
    parts: Sequence[Mapping[str, Any] | None] | None = None,
) -> list[str]:
    """``1. @alice  +12 · 已确认``; with ``parts`` (each seat's payment behind its change),
    ``2. @bob  -24（含吃兴家 3炮，杠钱 付 1） · 待确认``."""
    done = set(confirmations)
    out = []
    for i, (uid, delta) in enumerate(zip(players, deltas, strict=False), 1):
        mark = (
            "✅ " + t("desk.confirmed_mark", lang)
            if uid in done
            else "⏳ " + t("desk.waiting_mark", lang)
        )
        notes = change_notes(parts[i - 1] if parts and i - 1 < len(parts) else None, lang)
        why = ""
        if notes:
            why = _why(notes, lang)
        out.append(f"{i}. {mention(uid)}  `{delta:+d}`{why} · {mark}")
    return out
