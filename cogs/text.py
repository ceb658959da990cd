"""Every user-facing string of the game cogs, Chinese first with English.

``t(key, lang, **params)`` gives one sentence; ``lang`` is ``"zh"``, ``"en"`` or ``"zh+en"``
(both, Chinese first). Private answers follow the user's Discord language; public lines follow
the server's ``language`` setting. The render helpers here turn :mod:`services.model` values
into text — the table text never contains a concealed tile.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from cogs.session_strings import SESSION_STRINGS
from engine.options import VARIANT_NAMES
from engine.tiles import en_name, kind_of, tile_str, zh_name
from services.model import ActionKey, HandResult, HandView, MeldInfo, TableView

STRINGS: dict[str, tuple[str, str]] = {
    # refusals (services.errors keys)
    "error": ("操作失败。", "That did not work."),
    "failed": (
        "出错了，已记录（编号 {ref}）。请稍后再试。",
        "Something went wrong; it has been logged (ref {ref}). Please try again.",
    ),
    "no_game": (
        "这里没有进行中的对局。用 /mahjong new 开一局。",
        "There is no game here. Start one with /mahjong new.",
    ),
    "channel_busy": ("这个频道已经有一局了。", "This channel already has a game."),
    "already_playing": (
        "你已经在本服务器的另一局里了。",
        "You are already in a game on this server.",
    ),
    "already_here": ("你已经在这局里了。", "You are already in this game."),
    "not_in_game": ("你不在这局里。", "You are not in this game."),
    "not_host": ("只有房主可以这样做。", "Only the host can do that."),
    "lobby_full": ("四个座位都满了。", "All four seats are taken."),
    "wrong_phase": ("现在不能这样做。", "You can't do that at this point of the game."),
    "not_your_turn": ("现在不轮到你。", "It is not your turn."),
    "illegal": ("这步不合规：{detail}", "That move is not allowed: {detail}"),
    "stale": (
        "这个按钮已过期（来自之前的回合或牌局）。",
        "That button is from an earlier turn or hand.",
    ),
    "stale_redrawn": (
        "这个按钮已过期，没有出牌；上面的手牌已更新为现在的局面。",
        "That button was from an earlier moment, so nothing was played; the hand above now "
        "shows the game as it is.",
    ),
    "bad_option": ("规则选项无效：{detail}", "Invalid rule option: {detail}"),
    "not_yours": ("这不是你的牌。", "These are not your tiles."),
    "manage_only": (
        "只有拥有「管理服务器」权限的人可以修改设置。",
        "Only members with Manage Server can change the settings.",
    ),
    "guild_only": ("请在服务器频道里使用。", "Use this in a server channel."),
    # lobby
    "lobby_title": ("{variant} · 等待玩家", "{variant} · waiting for players"),
    "lobby_help": (
        "点「加入」入座，房主可加电脑并开始。空位开始时由电脑补上。",
        "Press Join to sit down; the host may add bots and start. Empty seats get bots at the start.",
    ),
    "seats": ("座位", "Seats"),
    "seat_empty": ("（空位）", "(empty)"),
    "host": ("房主", "host"),
    "rules": ("规则", "Rules"),
    "join": ("加入", "Join"),
    "leave": ("离开", "Leave"),
    "addbot": ("加电脑", "Add bot"),
    "start": ("开始", "Start"),
    "my_hand": ("🀄 我的手牌", "🀄 My hand"),
    # table
    "table_title": ("{variant} · 第{hand}局", "{variant} · hand {hand}"),
    "wall_left": ("余牌 {n}", "{n} tiles left"),
    "bao": ("宝牌指示 {indicator} → 宝 {bao}", "宝 indicator {indicator} → wildcard {bao}"),
    "turn": ("轮到 {name}", "{name} to play"),
    # the same for everyone, whoever may claim: who can claim a discard is never public
    "claim_wait": (
        "等待吃碰杠胡… · {who} 的 {tile}",
        "Waiting for claims… · {who}'s {tile}",
    ),
    "deadline": ("截止 {when}", "times out {when}"),
    "dealer": ("庄", "dealer"),
    "auto": ("托管", "auto"),
    "ready_mark": ("听", "ready"),
    "river": ("牌河", "discards"),
    "melds": ("副露", "melds"),
    "concealed_n": ("手牌 {n} 张", "{n} in hand"),
    "score": ("分数 {n}", "score {n}"),
    "fairness": ("公平性哈希 {hash}", "fairness hash {hash}"),
    "hand_over": ("本局结束", "Hand over"),
    # public lines
    "line_hand_started": (
        "第{hand}局开始，{dealer} 坐庄。洗牌哈希 SHA-256：`{hash}`（结束时公布种子）",
        "Hand {hand} starts, {dealer} deals. Shuffle hash SHA-256: `{hash}` (seed revealed at the end)",
    ),
    "line_dice": ("🎲 掷骰：{dice}", "🎲 Dice: {dice}"),
    "line_claimed": ("{name} {what} {tile}", "{name} {what}s {tile}"),
    "line_kong": ("{name} 杠 {tile}", "{name} declares a kong of {tile}"),
    "line_concealed_kong": ("{name} 暗杠", "{name} declares a concealed kong"),
    "line_ready": ("{name} 报听", "{name} declares ready"),
    "line_touji": ("{name} 偷机（放弃胡牌继续摸）", "{name} keeps drawing (偷机)"),
    "line_flower": ("{name} 亮出 {tile}", "{name} lays open {tile}"),
    "line_won_self": ("{name} 自摸！", "{name} wins by self-draw!"),
    "line_won_discard": ("{name} 胡 {payer} 的牌！", "{name} wins on {payer}'s discard!"),
    "line_won_rob": ("{name} 抢杠胡！", "{name} robs the kong!"),
    "line_drawn": ("荒庄：牌摸完了，本局流局。", "The wall is used up: a drawn hand."),
    "line_timeout": (
        "{name} 超时，已自动{what}并进入托管。",
        "{name} timed out: auto-{what}, now on auto-play.",
    ),
    "line_auto_on": ("{name} 开启托管。", "{name} is on auto-play."),
    "line_auto_off": ("{name} 回来了（取消托管）。", "{name} is back (auto-play off)."),
    "line_dm_closed": (
        "{mention} 的私信已关闭：请用 /mahjong hand 或「我的手牌」查看手牌。",
        "{mention} has closed DMs: use /mahjong hand or “My hand” to see your tiles.",
    ),
    "line_game_ended": ("对局结束。", "The game is over."),
    "line_abandoned": ("对局已放弃。", "The game was abandoned."),
    # result
    "result_title": ("第{hand}局结果", "Result of hand {hand}"),
    "result_draw": ("流局（荒庄）", "Drawn hand"),
    "result_items": ("计分", "Scoring"),
    "result_points": ("合计 {n} 分", "{n} points in all"),
    "result_pay": ("收支", "Payments"),
    "result_totals": ("总分", "Totals"),
    "result_seed": (
        "种子 `{seed}` · 哈希 `{hash}`（可用种子复算洗牌验证）",
        "seed `{seed}` · hash `{hash}` (recompute the shuffle from the seed to verify)",
    ),
    "next": ("下一局", "Next hand"),
    "end": ("结束对局", "End game"),
    "final_title": ("最终比分", "Final totals"),
    # hand view
    "hand_title": ("你的手牌 · {variant} 第{hand}局", "Your hand · {variant} hand {hand}"),
    "hand_tiles": ("手牌", "Tiles"),
    "hand_drawn": ("摸到", "Drawn"),
    "hand_now": ("现在", "Now"),
    "hand_your_turn": ("轮到你出牌。", "Your turn: discard a tile."),
    "hand_claim": (
        "{where} {name} 打出 {tile}，你可以：",
        "{name} ({where}) discarded {tile}; you may:",
    ),
    "hand_rob": (
        "{where} {name} 补杠 {tile}，你可以抢杠：",
        "{name} ({where}) adds {tile} to a kong; you may rob it:",
    ),
    "hand_bao": ("宝：{tile}", "Wildcard (宝): {tile}"),
    "hand_wait": ("请等待其他玩家。", "Wait for the others."),
    "hand_waits": ("听牌提示", "Waiting on"),
    "hand_waits_line": ("{tile}（剩 {n} 张）", "{tile} ({n} unseen)"),
    "hand_auto": ("托管中：按任意按钮取消。", "On auto-play: press any button to take over."),
    "hand_over_note": ("本局已结束。", "This hand is over."),
    "pick_touji": (
        "偷机：选择要打出的牌（放弃这次胡牌）。",
        "偷机: pick the tile to discard (declining this win).",
    ),
    "pick_ready": ("报听：选择要打出的牌。", "报听: pick the tile to discard."),
    "acted": ("好的。", "Done."),
    "autoplay_on": ("已开启托管。", "Auto-play is on."),
    "autoplay_off": ("已取消托管。", "Auto-play is off."),
    "pictures_on": (
        "你的手牌私信、排行榜和统计将附带图片（文字照常显示）。",
        "Your hand messages, leaderboards and stats will carry pictures (the text stays).",
    ),
    "pictures_off": (
        "你的手牌私信、排行榜和统计将只显示文字，不附图片。",
        "Your hand messages, leaderboards and stats will be text only, without pictures.",
    ),
    "dm_sent": ("手牌已私信给你。", "Your hand is in your DMs."),
    # commands
    "created": ("已开局，等待玩家加入。", "Game created; waiting for players."),
    "started": ("开始！手牌已私信发送。", "Started! Hands are sent by DM."),
    "abandoned": ("已放弃这局。", "The game is abandoned."),
    "status_none": ("这个频道没有对局。", "No game in this channel."),
    "config_saved": ("设置已保存。", "Settings saved."),
    "config_title": ("服务器设置", "Server settings"),
    # turn alerts (cogs.alerts) and where a game is played (cogs.places)
    "alert_turn": (
        "🀄 轮到你出牌 · 第{hand}局{deadline} · [查看手牌]({link})",
        "🀄 Your turn · hand {hand}{deadline} · [your hand]({link})",
    ),
    "alert_claim": (
        "🀄 你可以吃碰杠胡 · 第{hand}局{deadline} · [查看手牌]({link})",
        "🀄 You may claim a discard · hand {hand}{deadline} · [your hand]({link})",
    ),
    "alert_deadline": (" · 截止 {when}", " · times out {when}"),
    "alert_turn_public": (
        "{mention} 轮到你出牌 · 第{hand}局{deadline} — 请按 🀄 我的手牌",
        "{mention} your turn · hand {hand}{deadline} — press 🀄 My hand",
    ),
    "alerts_on": (
        "提醒已开启：轮到你出牌或可以吃碰杠胡时，机器人会私信你一条短消息（你出牌后删除）。",
        "Alerts on: a short DM when it is your turn or you may claim a discard (deleted once "
        "you act).",
    ),
    "alerts_claims": (
        "只提醒吃碰杠胡：可以吃碰杠胡时私信提醒你，轮到你出牌时不提醒。",
        "Claim alerts only: a short DM when you may claim a discard, none for your turns.",
    ),
    "alerts_off": (
        "提醒已关闭：手牌私信照常更新，但不再另发提醒。",
        "Alerts off: your hand DM is still kept up to date, with no alert messages.",
    ),
    "lobby_playing": ("对局在子区 {thread} 中进行。", "The game is played in the thread {thread}."),
    "hand_moved": (
        "这局的手牌已移到新的消息：{link}",
        "Your hand for this deal moved to a new message: {link}",
    ),
}
STRINGS.update(SESSION_STRINGS)  # length, 准备, 解散, 再来一局, 摊牌, standings

ACTION_LABELS: dict[str, tuple[str, str]] = {
    "win": ("胡", "Win"),
    "kong": ("杠", "Kong"),
    "pong": ("碰", "Pong"),
    "chi": ("吃", "Chi"),
    "pass": ("过", "Pass"),
    "touji": ("偷机", "Keep drawing"),
    "ready": ("报听", "Ready"),
    "discard": ("打", "Discard"),
}
MELD_LABELS: dict[str, tuple[str, str]] = {
    "chi": ("吃", "chi"),
    "pong": ("碰", "pong"),
    "kong": ("明杠", "kong"),
    "concealed_kong": ("暗杠", "concealed kong"),
    "indicator_kong": ("宝杠", "indicator kong"),
}
CLAIM_WORDS: dict[str, tuple[str, str]] = {
    "pong": ("碰", "pong"),
    "chi": ("吃", "chi"),
    "kong": ("杠", "kong"),
}
TIMEOUT_WORDS: dict[str, tuple[str, str]] = {
    "pass": ("过", "pass"),
    "discard": ("出牌", "discard"),
    "": ("出牌", "play"),
}
HOW_LABELS: dict[str, tuple[str, str]] = {
    "self": ("自摸", "self-draw"),
    "discard": ("点炮", "on a discard"),
    "rob_kong": ("抢杠", "robbing a kong"),
    "draw": ("流局", "drawn"),
}


def lang_of(locale: Any) -> str:
    """``zh`` for a Chinese Discord locale, else ``en``."""
    return "zh" if str(locale or "").startswith("zh") else "en"


def pick(pair: tuple[str, str], lang: str) -> str:
    """One side of a (zh, en) pair, or both for ``zh+en``."""
    if lang == "en":
        return pair[1]
    if lang == "zh+en":
        return pair[0] if pair[0] == pair[1] else f"{pair[0]} · {pair[1]}"
    return pair[0]


def t(key: str, lang: str = "zh", **params: Any) -> str:
    """The sentence ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = STRINGS.get(key, STRINGS["error"])
    with contextlib.suppress(KeyError, IndexError):
        zh, en = zh.format(**params), en.format(**params)
    return pick((zh, en), lang)


def variant_name(variant: str, lang: str = "zh") -> str:
    """上饶麻将 / Shangrao."""
    return pick(VARIANT_NAMES.get(variant, (variant, variant)), lang)


def tile_name(kind: int, lang: str = "zh") -> str:
    """五万 (zh) or 5 Characters (en)."""
    return zh_name(kind) if lang != "en" else en_name(kind)


def chi_name(arg: str, lang: str = "zh") -> str:
    """A chi shape ``345m`` by name: 三四五万 (zh) or 3-4-5 Characters (en); anything else
    is returned as it is."""
    try:
        kinds = [kind_of(f"{d}{arg[-1]}") for d in arg[:-1]]
    except (ValueError, IndexError):
        return arg
    if not kinds or arg[-1] == "z":
        return arg
    if lang == "en":
        suit = en_name(kinds[0]).split(" ", 1)[1]
        return "-".join(en_name(k).split(" ", 1)[0] for k in kinds) + f" {suit}"
    return "".join(zh_name(k)[0] for k in kinds) + zh_name(kinds[0])[1]


def tiles_text(kinds: Iterable[int], lang: str = "zh") -> str:
    """Tiles separated by spaces: ``一万 二万 东``."""
    return " ".join(tile_name(k, lang) for k in kinds)


#: Who fed a claimed meld, counted from its owner ((feeder − owner) mod 4).
FEEDER_WORDS: dict[int, tuple[str, str]] = {
    3: ("上家", "from left"),
    2: ("对家", "from across"),
    1: ("下家", "from right"),
}
#: Where another seat sits, counted from the viewer ((other − viewer) mod 4).
SEAT_WORDS: dict[int, tuple[str, str]] = {
    3: ("上家", "on your left"),
    2: ("对家", "across"),
    1: ("下家", "on your right"),
}


def meld_text(meld: MeldInfo, lang: str = "zh", owner: int | None = None) -> str:
    """``碰[5m5m5m]``; with the ``owner`` seat known, a claimed meld names its feeder:
    ``碰[5m5m5m]（上家）`` / ``pong[5m5m5m] (from left)``; an added kong reads ``补杠``."""
    short = lang if lang != "zh+en" else "zh"
    label = pick(MELD_LABELS.get(meld.kind, (meld.kind, meld.kind)), short)
    if meld.kind == "kong" and meld.added:
        label = pick(("补杠", "added kong"), short)
    if meld.kind == "concealed_kong":
        return f"{label}[{tile_name(meld.tiles[0], lang)}×4]"
    text = f"{label}[{''.join(tile_str(k) for k in meld.tiles)}]"
    if owner is not None and meld.from_seat is not None:
        words = FEEDER_WORDS.get((meld.from_seat - owner) % 4)
        if words is not None:
            text += f" ({words[1]})" if short == "en" else f"（{words[0]}）"
    return text


def action_label(key: ActionKey, lang: str = "zh") -> str:
    """A button label: ``胡``, ``杠 五万``, ``吃 345m``, ``五万``."""
    base = pick(
        ACTION_LABELS.get(key.kind, (key.kind, key.kind)), lang if lang != "zh+en" else "zh"
    )
    if key.kind == "discard" and key.arg:
        return _arg_name(key.arg, lang)
    if key.arg:
        return f"{base} {_arg_name(key.arg, lang)}"
    return base


def _arg_name(arg: str, lang: str) -> str:
    if len(arg) == 4:
        return chi_name(arg, lang)
    if len(arg) == 2:
        try:
            return tile_name(kind_of(arg), lang)
        except ValueError:
            return arg
    return arg


def seat_name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def hand_lines(
    hand: HandView,
    hints: tuple[tuple[int, int], ...],
    lang: str,
    *,
    auto: bool = False,
    phase: str = "turn",
    names: list[str] | None = None,
) -> list[str]:
    """The private hand view as text lines (only ever sent to the hand's owner); with the
    seats' ``names`` a claim prompt names the discarder and where they sit."""
    lines = [f"**{t('hand_tiles', lang)}**：{tiles_text(hand.concealed, lang)}"]
    if hand.drawn is not None:
        lines[0] += f"　｜ {t('hand_drawn', lang)}：**{tile_name(hand.drawn, lang)}**"
    if hand.melds:
        lines.append(
            f"{t('melds', lang)}：" + "  ".join(meld_text(m, lang, hand.seat) for m in hand.melds)
        )
    if hand.bao is not None:
        lines.append(t("hand_bao", lang, tile=tile_name(hand.bao, lang)))
    if hints:
        waits = "、".join(
            t("hand_waits_line", lang, tile=tile_name(k, lang), n=n) for k, n in hints
        )
        lines.append(f"{t('hand_waits', lang)}：{waits}")
    if phase == "hand_over":
        lines.append(t("hand_over_note", lang))
    elif hand.claim_tile is not None and hand.legal:
        lines.append(claim_prompt(hand, names or [], lang))
    elif hand.legal:
        lines.append(t("hand_your_turn", lang))
    else:
        lines.append(t("hand_wait", lang))
    if auto:
        lines.append(t("hand_auto", lang))
    return lines


def claim_prompt(hand: HandView, names: list[str], lang: str) -> str:
    """``上家 bob 打出 八条，你可以：`` — the discard a claim window is about and who threw it
    (private: only the seats that may claim see it)."""
    short = lang if lang != "zh+en" else "zh"
    where = ""
    if hand.claim_from is not None:
        words = SEAT_WORDS.get((hand.claim_from - hand.seat) % 4)
        where = pick(words, short) if words else ""
    return t(
        "hand_rob" if hand.claim_rob else "hand_claim",
        lang,
        where=where,
        name=seat_name(names, hand.claim_from),
        tile=tile_name(hand.claim_tile, lang) if hand.claim_tile is not None else "?",
    ).lstrip()


def table_lines(
    table: TableView,
    names: list[str],
    totals: tuple[int, ...],
    autos: list[bool],
    lang: str,
    *,
    deadline: float | None = None,
) -> list[str]:
    """The public table as text: per seat only counts, melds and rivers — no concealed tile."""
    out = []
    for ps in table.seats:
        winds = "ESWN" if lang == "en" else "东南西北"
        marks = [winds[(ps.seat - table.dealer) % 4]]  # the seat wind: the dealer is 东
        if ps.dealer:
            marks.append(t("dealer", lang))
        if ps.seat < len(autos) and autos[ps.seat]:
            marks.append(t("auto", lang))
        if ps.ready:
            marks.append(t("ready_mark", lang))
        # only on the seat whose turn it is: never on a seat a claim window waits on
        arrow = "▶ " if table.phase == "turn" and table.turn == ps.seat else ""
        head = f"{arrow}**{seat_name(names, ps.seat)}**"
        if marks:
            head += f"（{'·'.join(marks)}）"
        score = totals[ps.seat] if ps.seat < len(totals) else 0
        head += f"　{t('score', lang, n=score)}　{t('concealed_n', lang, n=ps.concealed_count)}"
        out.append(head)
        if ps.melds:
            out.append(
                f"　{t('melds', lang)}：" + "  ".join(meld_text(m, lang, ps.seat) for m in ps.melds)
            )
        if ps.flowers:
            out.append(f"　发 ×{ps.flowers}")
        river = "·".join(tile_str(k) for k in ps.river) or "—"
        out.append(f"　{t('river', lang)}：{river}")
    info = [t("wall_left", lang, n=table.wall_left)]
    if table.bao is not None and table.bao_indicator is not None:
        info.append(
            t(
                "bao",
                lang,
                indicator=tile_name(table.bao_indicator, lang),
                bao=tile_name(table.bao, lang),
            )
        )
    out.append(" · ".join(info))
    if table.phase == "turn" and table.turn is not None:
        out.append(t("turn", lang, name=seat_name(names, table.turn)))
    elif table.phase == "claim" and table.last_discard is not None:
        discarder, tile = table.last_discard
        out.append(
            t("claim_wait", lang, who=seat_name(names, discarder), tile=tile_name(tile, lang))
        )
    elif table.phase == "hand_over":
        out.append(t("hand_over", lang))
    if deadline is not None and table.phase in ("turn", "claim"):
        out.append(t("deadline", lang, when=f"<t:{int(deadline)}:R>"))
    if table.commitment:
        out.append(t("fairness", lang, hash=f"`{table.commitment[:16]}…`"))
    return out


def result_lines(
    result: HandResult, names: list[str], lang: str, commitment: str | None = None
) -> list[str]:
    """The result: winner, how, every scoring item, points, payments, totals, seed reveal."""
    out: list[str] = []
    how = pick(HOW_LABELS.get(result.how, (result.how, result.how)), lang)
    if not result.winners:
        out.append(t("result_draw", lang))
    else:
        who = "、".join(seat_name(names, s) for s in result.winners)
        line = f"🀄 **{who}** · {how}"
        if result.discarder is not None and result.how != "self":
            line += f" · {seat_name(names, result.discarder)}"
        out.append(line)
        if result.winner_hand:
            out.append(f"`{result.winner_hand}`")
        if result.items:
            items = "，".join(
                f"{i.name}{'' if lang == 'zh' else f' ({i.en})' if i.en else ''} {i.value}"
                for i in result.items
            )
            out.append(f"{t('result_items', lang)}：{items}")
        out.append(t("result_points", lang, n=result.points))
    if result.payments:
        pays = []
        for p in result.payments:
            payer, payee, amount = p[0], p[1], p[2]
            reason = f"（{p[3]}）" if len(p) > 3 and p[3] else ""
            pays.append(f"{seat_name(names, payer)} → {seat_name(names, payee)} {amount}{reason}")
        out.append(f"{t('result_pay', lang)}：" + "；".join(pays))
    deltas = "  ".join(f"{seat_name(names, i)} {d:+d}" for i, d in enumerate(result.deltas))
    out.append(deltas)
    if result.scores:
        totals = "  ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(result.scores))
        out.append(f"{t('result_totals', lang)}：{totals}")
    if result.seed_reveal and result.seed_reveal.get("seed"):
        out.append(
            t(
                "result_seed",
                lang,
                seed=result.seed_reveal["seed"],
                hash=(commitment or result.seed_reveal.get("commitment") or "")[:64],
            )
        )
    return out
