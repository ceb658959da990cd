"""Every user-facing string of the scoring desk (``/mahjong score``, ``/mahjong record``).

``t(key, lang, **params)`` with ``lang`` ``"zh"`` or ``"en"``; the line builders turn
:mod:`services.desk` / :mod:`services.records` values into text (no Discord types here).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from datetime import datetime
from typing import Any

from db.types import HandInput
from engine.notation import format_hand
from engine.options import VARIANT_NAMES
from engine.scoring import ScoreItem
from engine.tiles import tile_str, zh_name
from services.desk import (
    FLAG_NAMES,
    ROLE_NAMES,
    WIN_NAMES,
    DeskAnswer,
    DeskInputError,
    PayLine,
    locate,
)
from services.desk_table import SEAT_ROLES, raise_names

STRINGS: dict[str, tuple[str, str]] = {
    "legal_title": ("{variant} · 胡牌 {points}{unit}", "{variant} · legal win, {points} {unit}"),
    "illegal_title": ("{variant} · 不能胡", "{variant} · not a legal win"),
    "items": ("计分项", "Scoring items"),
    "no_items": ("（无）", "(none)"),
    "total": ("合计", "Total"),
    "why": ("为什么不能胡", "Why it is not a win"),
    "payments": ("谁付多少", "Who pays"),
    "pays": ("{who} 付 {amount}{unit}", "{who} pays {amount} {unit}"),
    "gets": ("{who} 得 {amount}{unit}", "{who} gets {amount} {unit}"),
    "pays_nothing": ("{who} 不付", "{who} pays nothing"),
    "winner_gets": ("赢家共得 {amount}{unit}", "the winner gets {amount} {unit} in all"),
    "winner_pays": (
        "赢家杠钱付得比赢的多，共付 {amount}{unit}",
        "the winner pays {amount} {unit} in all (more kong money than the win)",
    ),
    "part_discarder": ("点炮", "discarded the winning tile"),
    "part_robbed": ("被抢杠", "kong robbed"),
    "part_feeder": ("叁包，一人付三份", "叁包: pays all three shares"),
    "part_win": ("胡牌 {amount}", "{amount} for the win"),
    "part_pao": ("胡 {pao}炮", "{pao} pao"),
    "part_eaten": (" + 吃兴家 {eaten}炮", " + {eaten} eaten (吃兴家)"),
    "part_value": ("，每炮 ×{value}", ", ×{value} per pao"),
    "part_kong_pays": ("杠钱 付 {amount}", "kong money {amount}"),
    "part_kong_gets": ("杠钱 得 {amount}", "receives kong money {amount}"),
    "discarder_seat": ("点炮：{who}", "Discarded by: {who}"),
    "robbed_seat": ("被抢杠：{who}", "Kong robbed from: {who}"),
    "feeder_line": ("叁包：{who} 喂了三组", "叁包: {who} fed three melds"),
    "others_line": ("其他家：{others}", "Others: {others}"),
    "streak_line": ("每炮 ×{value}（{raises}）", "Value per pao ×{value} ({raises})"),
    "streak_value": ("每炮 ×{value}", "Value per pao ×{value}"),
    "flowers_of": ("发{n}", "发×{n}"),
    "how_won": ("胡法：{how}", "Won by: {how}"),
    "bao_line": ("宝：{bao}", "宝 (wildcard): {bao}"),
    "flags_line": ("附加：{flags}", "Also: {flags}"),
    "counts_line": (
        "飞宝 {flown} · 杠开 {kongs} · 兴家(发) {flowers}",
        "flown 宝 {flown} · kongs before the win {kongs} · 发 laid open {flowers}",
    ),
    "note_jiujiang_extras": (
        "未计各家的吃兴家（发、杠、中白）：用「其他家」填入，如 下家 发2 [7777m]。",
        "Each payer's own 吃兴家 (发, kongs, 中/白) is not in: give them in others, "
        "e.g. next: 发2 [7777m].",
    ),
    "note_jiujiang_streak": (
        "每炮按 1 计；有跟庄/黄庄时用「跟庄黄庄」填入。",
        "One point per 炮; give 跟庄/黄庄 raises in streak.",
    ),
    "note_kong_money": (
        "杠钱（明杠、补杠每家付 1 分，暗杠 2 分）只计了赢家的杠；其他人的杠用「其他家」填入。",
        "Kong money (1 per exposed kong, 2 per concealed, from each other player) counts only "
        "the winner's kongs; give the others' in others.",
    ),
    "note_sanbao": (
        "若有叁包，用「叁包」填喂牌者，由他一人付三份。",
        "Under 叁包 the feeder alone pays three shares: give the feeder.",
    ),
    # errors of the desk input, by option
    "bad_hand": ("手牌读不懂", "Can't read the hand"),
    "bad_variant": ("不认识的玩法", "Unknown variant"),
    "bad_win": ("不认识的胡法", "Unknown way of winning"),
    "bad_bao": ("宝牌有误", "Problem with the 宝"),
    "bad_flags": ("不认识的附加项", "Unknown flag"),
    "bad_options": ("规则选项有误", "Problem with the rule options"),
    "bad_count": ("数字超出范围", "Number out of range"),
    "bad_discarder": ("点炮者有误", "Problem with the discarder"),
    "bad_feeder": ("叁包有误", "Problem with 叁包 (feeder)"),
    "bad_others": ("其他家的牌读不懂", "Can't read the other players' melds"),
    "bad_streak": ("跟庄/黄庄有误", "Problem with 跟庄/黄庄 (streak)"),
    "examples": ("例如", "Examples"),
    # records
    "record_title": ("实体牌局记录 #{id}", "Table record #{id}"),
    "record_pending": (
        "等待四位玩家确认，{expires}过期。",
        "Waiting for all four players to confirm; expires {expires}.",
    ),
    "record_confirmed": (
        "✅ 四人已确认，已计入排行榜。",
        "✅ Confirmed by all four: counted in the leaderboard.",
    ),
    "record_expired": ("⌛ 已过期，未计入。", "⌛ Expired: not counted."),
    "record_void": ("🚫 已被管理员作废，不计入。", "🚫 Voided by an admin: not counted."),
    "players": ("玩家", "Players"),
    "result": ("结果", "Result"),
    "draw": ("流局（荒庄）", "Drawn hand (荒庄)"),
    "won_line": ("{winner} 胡牌（{how}）", "{winner} won ({how})"),
    "discarder_line": ("点炮：{who}", "Discarded by {who}"),
    "robbed_line": ("被抢杠：{who}", "Kong robbed from {who}"),
    "points_line": ("牌分 {points}{unit}", "Hand value {points} {unit}"),
    "hand_line": ("牌：{hand}", "Hand: {hand}"),
    "winner_points_line": (
        "{winner} 胡牌（{how}）{points}{unit}",
        "{winner} won ({how}), {points} {unit}",
    ),
    "rec_feeder_line": ("叁包：{who} 一人付三份", "叁包: {who} pays all three shares"),
    "rec_eaten": ("含吃兴家 {eaten}炮", "incl. {eaten} pao eaten (吃兴家)"),
    "reported_by": ("记录人 {who}", "reported by {who}"),
    "confirm": ("确认", "Confirm"),
    "void": ("作废", "Void"),
    "confirmed_mark": ("已确认", "confirmed"),
    "waiting_mark": ("待确认", "waiting"),
    "record_ask": (
        "{mentions} 请点「确认」核对这局记录。",
        "{mentions} please check this record and press Confirm.",
    ),
    "thanks": ("已确认，还等 {n} 人。", "Confirmed; waiting for {n} more."),
    "counted": ("全部确认，已计入。", "All confirmed: the hand is counted."),
    "already_confirmed": ("你已经确认过了。", "You have already confirmed."),
    "voided": ("已作废记录 #{id}。", "Record #{id} is void."),
    # record refusals (services.records keys)
    "record_error": ("记录失败：{detail}", "Could not record: {detail}"),
    "bad_report": ("记录有误（{field}）：{detail}", "The record is wrong ({field}): {detail}"),
    "no_record": ("没有这条记录。", "There is no such record."),
    "record_closed": (
        "这条记录已{status_zh}，不能再改。",
        "This record is already {status}; nothing changed.",
    ),
    "not_named": ("你不是这局的四位玩家之一。", "You are not one of this hand's four players."),
    "not_admin": (
        "只有拥有「管理服务器」权限的人可以作废记录。",
        "Only members with Manage Server can void a record.",
    ),
    "no_bots": ("机器人不能当玩家：{who}", "A bot cannot be a player: {who}"),
    "not_admin_setting": (
        "只有拥有「管理服务器」权限的人可以修改这个设置。",
        "Only members with Manage Server can change this setting.",
    ),
    "expiry_now": (
        "实体牌记录在 {hours} 小时内无人全部确认即过期。",
        "Table records expire {hours} h after they are reported unless all four confirmed.",
    ),
    "guild_only": ("请在服务器频道里使用。", "Use this in a server channel."),
}

STATUS_ZH = {"confirmed": "确认并计入", "expired": "过期", "void": "作废", "pending": "待确认"}


def t(key: str, lang: str, **params: Any) -> str:
    """One sentence in ``lang`` (``zh`` or ``en``), parameters filled in."""
    zh, en = STRINGS[key]
    text = en if lang == "en" else zh
    return text.format(**params) if params else text


def pick(pair: tuple[str, str], lang: str) -> str:
    return pair[1] if lang == "en" else pair[0]


def variant_label(variant: str, lang: str) -> str:
    zh, en = VARIANT_NAMES[variant]
    return en if lang == "en" else zh


def item_line(item: ScoreItem | Mapping[str, str]) -> str:
    """One scoring item, both names and its value: ``清一色 · Pure one suit — ×4``."""
    if isinstance(item, Mapping):
        name, en, value = item["name"], item["en"], item["value"]
    else:
        name, en, value = item.name, item.en, item.value
    return f"{name} · {en} — {value}"


def total_line(points: int, unit: tuple[str, str], lang: str) -> str:
    """``**16** 分``."""
    return f"**{points}** {pick(unit, lang)}"


def tile_label(kind: int, lang: str) -> str:
    return (
        f"{zh_name(kind)} ({tile_str(kind)})"
        if lang != "en"
        else f"{tile_str(kind)} {zh_name(kind)}"
    )


def payment_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """Each seat's payment (what it pays or gets, and why when there is more than the win),
    what the winner gets in all, and notes on payment rules that were not given."""
    unit = pick(answer.pay_unit, lang)
    table = answer.table
    discarder_role = SEAT_ROLES.get(table.discarder) if table.discarder is not None else None
    lines = []
    for p in answer.payments:
        who = pick(ROLE_NAMES[p.role], lang)
        if p.amount > 0:
            head = t("pays", lang, who=who, amount=p.amount, unit=unit)
        elif p.amount < 0:
            head = t("gets", lang, who=who, amount=-p.amount, unit=unit)
        else:
            head = t("pays_nothing", lang, who=who)
        parts = _pay_parts(answer, p, discarder_role, lang)
        if parts:
            head += f"（{'，'.join(parts)}）" if lang != "en" else f" ({'; '.join(parts)})"
        lines.append(head)
    if answer.settlement is not None:
        won = answer.settlement.deltas[0]
        key = "winner_gets" if won >= 0 else "winner_pays"
        lines.append(t(key, lang, amount=abs(won), unit=unit))
    for note in answer.notes:
        lines.append("· " + t(f"note_{note}", lang))
    return lines


def _pay_parts(answer: DeskAnswer, p: PayLine, discarder_role: str | None, lang: str) -> list[str]:
    parts: list[str] = []
    if p.role == discarder_role:
        parts.append(
            t("part_robbed" if answer.context.win == "rob_kong" else "part_discarder", lang)
        )
    if p.feeder:
        parts.append(t("part_feeder", lang))
    value = answer.table.pao_value
    if p.win and answer.context.variant == "jiujiang" and (p.eaten or value > 1):
        text = t("part_pao", lang, pao=answer.points)
        if p.eaten:
            text += t("part_eaten", lang, eaten=p.eaten)
        if value > 1:
            text += t("part_value", lang, value=value)
        parts.append(text)
    elif p.win and p.kong:
        parts.append(t("part_win", lang, amount=p.win))
    if p.kong > 0:
        parts.append(t("part_kong_pays", lang, amount=p.kong))
    elif p.kong < 0:
        parts.append(t("part_kong_gets", lang, amount=-p.kong))
    return parts


def table_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """What was said about the rest of the table: the discarder, 叁包, the others' melds and
    the value per 炮."""
    table = answer.table
    lines = []
    if table.discarder is not None:
        key = "robbed_seat" if answer.context.win == "rob_kong" else "discarder_seat"
        lines.append(t(key, lang, who=pick(ROLE_NAMES[SEAT_ROLES[table.discarder]], lang)))
    if table.feeder is not None:
        lines.append(t("feeder_line", lang, who=pick(ROLE_NAMES[SEAT_ROLES[table.feeder]], lang)))
    if table.others:
        shown = []
        for seat in sorted(table.others):
            sm = table.others[seat]
            bits = [t("flowers_of", lang, n=sm.flowers)] if sm.flowers else []
            bits += [m.text() for m in sm.melds]
            shown.append(f"{pick(ROLE_NAMES[SEAT_ROLES[seat]], lang)} {' '.join(bits) or '—'}")
        lines.append(t("others_line", lang, others="; ".join(shown)))
    if table.streak_given:
        if table.raises:
            lines.append(
                t(
                    "streak_line",
                    lang,
                    value=table.pao_value,
                    raises=raise_names(table.raises, lang),
                )
            )
        else:
            lines.append(t("streak_value", lang, value=table.pao_value))
    return lines


def context_lines(answer: DeskAnswer, lang: str) -> list[str]:
    """The hand as read back, how it was won, the 宝, flags and counts, the rest of the table."""
    ctx = answer.context
    lines = [f"`{format_hand(ctx.hand)}`", t("how_won", lang, how=pick(WIN_NAMES[ctx.win], lang))]
    if ctx.bao is not None:
        lines.append(t("bao_line", lang, bao=tile_label(ctx.bao, lang)))
    if ctx.flags:
        names = [pick(FLAG_NAMES[f], lang) for f in sorted(ctx.flags)]
        lines.append(t("flags_line", lang, flags=", ".join(names)))
    if ctx.flown or ctx.kong_draws or ctx.flowers:
        lines.append(
            t("counts_line", lang, flown=ctx.flown, kongs=ctx.kong_draws, flowers=ctx.flowers)
        )
    lines.extend(table_lines(answer, lang))
    return lines


def answer_title(answer: DeskAnswer, lang: str) -> str:
    variant = variant_label(answer.context.variant, lang)
    if answer.legal:
        return t(
            "legal_title", lang, variant=variant, points=answer.points, unit=pick(answer.unit, lang)
        )
    return t("illegal_title", lang, variant=variant)


def input_error_text(error: DeskInputError, given: str | None, lang: str) -> str:
    """The pointed explanation of bad input: which option, the text with the bad part marked
    【like this】, what is wrong, and examples."""
    head = t(f"bad_{error.field}" if f"bad_{error.field}" in STRINGS else "bad_count", lang)
    lines = [f"❌ **{head}** (`{error.field}`)"]
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
    problem = error.problem  # may quote the input again: keep it short
    lines.append(problem if len(problem) <= 300 else problem[:299] + "…")
    if error.examples:
        lines.append(f"{t('examples', lang)}: " + " · ".join(f"`{e}`" for e in error.examples))
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
        return t("record_pending", lang, expires=f"<t:{int(expires_at.timestamp())}:R>")
    return t(f"record_{status}", lang)


def record_lines(hand: HandInput, details: Mapping[str, Any], lang: str) -> list[str]:
    """Result lines of a record: the winner(s) and how, the discarder, the points, the hand,
    and the rest of the table that changed the payments (叁包, the others' 发 / kongs / 中白,
    the value per 炮)."""
    players = {p.seat: p.user_id for p in hand.players}
    if hand.how == "draw" or not hand.winners:
        return [t("draw", lang)]
    how = pick(WIN_NAMES.get(hand.how, (hand.how, hand.how)), lang)
    unit = ("炮", "pao") if hand.variant == "jiujiang" else ("分", "points")
    several = details.get("winners")
    lines = []
    if isinstance(several, list) and len(several) > 1:
        for w in several:
            lines.append(
                t(
                    "winner_points_line",
                    lang,
                    winner=mention(int(w.get("user_id", 0))),
                    how=how,
                    points=w.get("points", 0),
                    unit=pick(unit, lang),
                )
            )
    else:
        lines.append(t("won_line", lang, winner=mention(players[hand.winners[0]]), how=how))
    if hand.discarder is not None:
        key = "robbed_line" if hand.how == "rob_kong" else "discarder_line"
        lines.append(t(key, lang, who=mention(players[hand.discarder])))
    if hand.points and not (isinstance(several, list) and len(several) > 1):
        lines.append(t("points_line", lang, points=hand.points, unit=pick(unit, lang)))
    if details.get("hand"):
        lines.append(t("hand_line", lang, hand=f"`{_plain(str(details['hand']))}`"))
    if details.get("feeder") is not None:
        lines.append(t("rec_feeder_line", lang, who=mention(int(details["feeder"]))))
    others = details.get("others")
    if isinstance(others, list) and others:
        shown = []
        for o in others:
            bits = [t("flowers_of", lang, n=o["flowers"])] if o.get("flowers") else []
            bits += [f"`{m}`" for m in o.get("melds", [])]
            shown.append(f"{mention(int(o.get('user_id', 0)))} {' '.join(bits) or '—'}")
        lines.append(t("others_line", lang, others="; ".join(shown)))
    if "pao_value" in details:
        raises = details.get("raises") or []
        if raises:
            lines.append(
                t(
                    "streak_line",
                    lang,
                    value=details["pao_value"],
                    raises=raise_names(raises, lang),
                )
            )
        else:
            lines.append(t("streak_value", lang, value=details["pao_value"]))
    return lines


def change_notes(part: Mapping[str, Any] | None, lang: str) -> list[str]:
    """Why a seat's change is more than the plain win: 叁包, its 吃兴家, its 杠钱."""
    if not part:
        return []
    notes = []
    if part.get("feeder"):
        notes.append(t("part_feeder", lang))
    if part.get("eaten"):
        notes.append(t("rec_eaten", lang, eaten=part["eaten"]))
    kong = int(part.get("kong") or 0)
    if kong > 0:
        notes.append(t("part_kong_pays", lang, amount=kong))
    elif kong < 0:
        notes.append(t("part_kong_gets", lang, amount=-kong))
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
        mark = "✅ " + t("confirmed_mark", lang) if uid in done else "⏳ " + t("waiting_mark", lang)
        notes = change_notes(parts[i - 1] if parts and i - 1 < len(parts) else None, lang)
        why = ""
        if notes:
            why = f"（{'，'.join(notes)}）" if lang != "en" else f" ({'; '.join(notes)})"
        out.append(f"{i}. {mention(uid)}  `{delta:+d}`{why} · {mark}")
    return out
