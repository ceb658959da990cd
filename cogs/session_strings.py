"""The session's sentences (length, 准备, 解散, 再来一局, 摊牌, final standings), Chinese first
with English, in the style of :data:`cogs.text.STRINGS` (which takes them in: use
:func:`cogs.text.t`)."""

from __future__ import annotations

SESSION_STRINGS: dict[str, tuple[str, str]] = {
    # refusals (services.session errors)
    "already_ready": ("你已经准备好了。", "You are ready already."),
    "vote_cooldown": (
        "你刚提议过解散，{seconds} 秒后（<t:{when}:R>）才能再提议。",
        "You proposed to end the game a moment ago; you may again in {seconds} s (<t:{when}:R>).",
    ),
    "vote_open": ("你的解散提议正在投票中。", "Your proposal to end the game is being voted on."),
    "already_voted": ("你已经投过票了。", "You have voted already."),
    "rematch_closed": (
        "再来一局已经开始了（对局 #{game_id}）。",
        "The rematch has started already (game #{game_id}).",
    ),
    "already_rematch": (
        "你已经按过再来一局了（对局 #{game_id}）。",
        "You pressed Rematch already (game #{game_id}).",
    ),
    # length
    "length_hands": ("{n}局", "{n} hands"),
    "length_rounds": ("{n}圈", "{n} rounds"),
    "length_open": ("不限局数", "open-ended"),
    "length_field": ("局数", "Length"),
    "progress_hands": ("第{hand}/{hands}局", "hand {hand}/{hands}"),
    "progress_rounds": (
        "第{round}/{rounds}圈 · 第{hand}局",
        "round {round}/{rounds} · hand {hand}",
    ),
    "progress_open": ("第{hand}局", "hand {hand}"),
    "table_title_session": ("{variant} · {progress}", "{variant} · {progress}"),
    # seats, winds and the dealer
    "first_dealer_dice": (
        "首局庄家：开始时每人掷两颗骰子，点数最大的坐庄。",
        "First dealer: at the start everyone rolls two dice; the highest deals.",
    ),
    "first_dealer_seat": (
        "首局庄家：东位（{name}）。",
        "First dealer: the East seat ({name}).",
    ),
    "line_dealer_dice": (
        "🎲 掷骰定庄：{rolls} → **{name}** 坐庄（东）",
        "🎲 Dice for the deal: {rolls} → **{name}** deals (East)",
    ),
    "line_dealer_seat": (
        "🀄 {name} 坐东位，首局坐庄。",
        "🀄 {name} sits East and deals the first hand.",
    ),
    "dice_again": ("平点再掷", "tie, again"),
    # 准备
    "ready_button": ("准备", "Ready"),
    "ready_line": (
        "准备 {n}/{total} · {who} · 截止 {when}（届时未准备的玩家进入托管）",
        "Ready {n}/{total} · {who} · times out {when} (anyone not ready then goes on auto-play)",
    ),
    "ready_all": ("✅ 全员准备，第{hand}局开始。", "✅ Everyone is ready: hand {hand} starts."),
    "ready_waiting_press": (
        "全员托管中：任意一人按「准备」开始下一局。",
        "Everyone is on auto-play: anyone may press Ready to deal the next hand.",
    ),
    "alert_ready": (
        "🀄 第{hand}局结束，请按「准备」{deadline} · [查看结果]({link})",
        "🀄 Hand {hand} is over: press Ready{deadline} · [the result]({link})",
    ),
    "alert_ready_public": (
        "{mention} 第{hand}局结束，请按「准备」{deadline}",
        "{mention} hand {hand} is over: press Ready{deadline}",
    ),
    # 解散
    "dissolve_button": ("解散", "End game"),
    "agree_button": ("同意解散", "Agree"),
    "refuse_button": ("拒绝", "Refuse"),
    "vote_title": ("🗳️ {name} 提议解散对局", "🗳️ {name} proposes to end the game"),
    "vote_body": (
        "同意 {yes}/{total} · 截止 {when}（不回应视为同意，一人拒绝则继续）",
        "{yes}/{total} agree · times out {when} (no answer agrees; one refusal keeps "
        "the game going)",
    ),
    "vote_passed": ("✅ 全员同意，对局解散。", "✅ Everyone agreed: the game is ended."),
    "vote_expired": (
        "✅ 投票时间到，未回应视为同意：对局解散。",
        "✅ Time is up and silence agrees: the game is ended.",
    ),
    "vote_refused": (
        "❌ {name} 拒绝解散，对局继续。",
        "❌ {name} refused: the game goes on.",
    ),
    "vote_closed": ("投票结束。", "The vote is closed."),
    "vote_proposed": (
        "已提议解散，等待其他玩家投票。",
        "You proposed to end the game; the others vote now.",
    ),
    "vote_answered": ("已投票。", "Your vote is in."),
    "vote_needed": (
        "对局已开始：提前结束需要全体同意（解散投票），已为你发起投票。",
        "The game has started: ending it early takes a vote (解散); your proposal is up.",
    ),
    # 摊牌 (the result)
    "showdown_title": ("第{hand}局结果 · 摊牌", "Result of hand {hand} · all hands shown"),
    "showdown_hands": ("摊牌", "All hands"),
    "showdown_pay": ("收支明细", "Payments"),
    "showdown_columns": ("本局 / 总分", "This hand / Total"),
    "showdown_win_tile": ("胡 {tile}", "won on {tile}"),
    "showdown_dealt_in": ("点炮：{name}", "Dealt in: {name}"),
    "showdown_robbed": ("被抢杠：{name}", "Kong robbed: {name}"),
    "showdown_sanbao": ("叁包：{name} 一人全付", "叁包: {name} pays it all"),
    "showdown_bao": ("宝：{tile}", "宝 wildcard: {tile}"),
    "showdown_value": ("本局每炮 ×{n}（{why}）", "Value per 炮 ×{n} this hand ({why})"),
    "showdown_no_pay": ("无人付分。", "Nobody pays."),
    "pay_hand": ("{label}", "{label}"),
    "pay_xing": ("吃兴家", "吃兴家 (own 发 and kongs)"),
    "pay_raise": ("{label}翻倍", "{label} raise"),
    "pay_kong": ("杠钱 · {label}", "kong money · {label}"),
    "pay_other": ("其他", "other"),
    # final standings
    "standings_title": ("最终战绩 · {variant}", "Final standings · {variant}"),
    "standings_dissolved": ("（解散）", "(ended by vote · 解散)"),
    "standings_admin": ("（管理员放弃）", "(abandoned by a server manager)"),
    "standings_line": (
        "{rank}. **{name}** {total:+d} · 胡 {wins} · 自摸 {selfs} · 点炮 {dealt} · 最大 {big}",
        "{rank}. **{name}** {total:+d} · won {wins} · self-draw {selfs} · dealt in {dealt} "
        "· best hand {big}",
    ),
    "standings_winner": ("🏆 本场赢家：{names}", "🏆 Winner of the session: {names}"),
    "standings_hands": ("共打 {n} 局 · {length}", "{n} hands played · {length}"),
    "rematch_button": ("再来一局", "Rematch"),
    "rematch_line": (
        "再来一局（对局 #{game}）：已按 {who}",
        "Rematch (game #{game}): {who} pressed",
    ),
    "rematch_started": ("再来一局已开始（对局 #{game}）。", "The rematch started (game #{game})."),
    "rematch_done": ("已加入再来一局（对局 #{game}）。", "You are in the rematch (game #{game})."),
    "lobby_rematch": ("再来一局（接对局 #{game}）", "Rematch of game #{game}"),
    "lobby_ended": (
        "对局已结束 · 最终战绩：{link}",
        "The game is over · final standings: {link}",
    ),
}
