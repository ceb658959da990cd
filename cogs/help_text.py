"""The texts of ``/mahjong help`` (帮助): topics, their pages, Chinese and English.

Everything that could go stale is generated: the rule options and their defaults come from
:func:`engine.options.describe_options`, the Shangrao ``classic`` points table from
:data:`engine.scoring.shangrao.CLASSIC`. The other scoring summaries are written here as data
(:data:`SCORING_ROWS`) and a test checks their names and values against what the engine
scores. The command list is built from the live command tree in :mod:`cogs.help`.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.options import VARIANT_NAMES, describe_options, make_options
from engine.scoring.shangrao import CLASSIC, EN

#: Every topic, in menu order. ``commands`` is built at run time (see :mod:`cogs.help`).
TOPICS: tuple[str, ...] = ("overview", "shangrao", "xinyu", "jiujiang", "notation", "commands")

#: Menu names (zh, en) and one-line menu descriptions (zh, en).
TOPIC_NAMES: dict[str, tuple[str, str]] = {
    "overview": ("入门：怎么开局", "Getting started"),
    "shangrao": ("上饶麻将规则", "Shangrao rules"),
    "xinyu": ("新余麻将规则", "Xinyu rules"),
    "jiujiang": ("九江麻将规则", "Jiujiang rules"),
    "notation": ("手牌写法（算分）", "Hand notation (scoring)"),
    "commands": ("全部命令", "All commands"),
}
TOPIC_BLURBS: dict[str, tuple[str, str]] = {
    "overview": ("开局、入座、出牌、托管、超时", "New game, seats, playing, auto-play, timeouts"),
    "shangrao": ("宝牌、飞宝、分数表、规则选项", "宝 wildcards, 飞宝, points, options"),
    "xinyu": ("只能自摸、番数、杠钱、规则选项", "Self-draw only, doublings, kong money"),
    "jiujiang": ("兴家、二炮起胡、花牌、吃兴家", "发 flowers, 2 炮 minimum, big hands"),
    "notation": ("/mahjong score 的手牌写法", "How to write a hand for /mahjong score"),
    "commands": ("每个 /mahjong 命令及说明", "Every /mahjong command"),
}

#: Words of the help view itself.
WORDS: dict[str, tuple[str, str]] = {
    "title": ("帮助", "Help"),
    "page": ("第 {page}/{pages} 页", "page {page}/{pages}"),
    "menu": ("跳到主题…", "Jump to a topic…"),
    "prev": ("上一页", "Previous page"),
    "next": ("下一页", "Next page"),
    "footer_hint": (
        "用 ◀ ▶ 翻页，下拉菜单换主题 · /mahjong help",
        "◀ ▶ turn the page, the menu changes topic · /mahjong help",
    ),
    "commands_intro": (
        "本服务器当前注册的全部命令（<必填> [可选]）：",
        "Every command this bot has registered (<required> [optional]):",
    ),
    "more_options": ("…另有 {n} 个可选项", "…and {n} more options"),
}


@dataclass(frozen=True)
class HelpPage:
    """One embed page: a title, a description and optional ``(name, value)`` fields."""

    title: str
    body: str
    fields: tuple[tuple[str, str], ...] = ()


def pick(pair: tuple[str, str], lang: str) -> str:
    """The Chinese or the English side of a pair."""
    return pair[0] if lang == "zh" else pair[1]


def word(key: str, lang: str, **params: object) -> str:
    """One word of :data:`WORDS`, formatted."""
    return pick(WORDS[key], lang).format(**params)


# ---------------------------------------------------------------------------- options


def options_text(variant: str, lang: str) -> str:
    """Every rule option of ``variant`` with its default and explanation, from the engine."""
    lines = []
    for name, value, info in describe_options(make_options(variant), lang):
        shown = "—" if value is None else str(value).lower()
        lines.append(f"`{name}` = **{shown}** · {info}")
    head = (
        "规则选项（默认值）。开局时写在 `/mahjong new options:` 里，如 `name=value`；"
        "服务器默认值用 `/mahjong-admin config` 改，`/mahjong rules` 显示本服务器当前值。"
        if lang == "zh"
        else "Rule options (defaults). Give them to `/mahjong new options:` as `name=value`; "
        "`/mahjong-admin config` sets the server's defaults, `/mahjong rules` shows the values in use."
    )
    return head + "\n" + "\n".join(lines)


# ---------------------------------------------------------------------------- scoring data

#: Hand-written scoring summaries: ``(engine item name, zh note, en note, value)``. The first
#: element is the name the engine puts on a scored item; tests check both against the engine.
SCORING_ROWS: dict[str, tuple[tuple[str, str, str, str], ...]] = {
    "shangrao/xingchen": (
        ("平胡自摸", "平胡，没有宝当万能牌", "basic win, no wildcard in use", "×2"),
        ("宝吊头", "宝吊：任何一张都胡", "宝 pair-wait: any tile wins", "×3"),
        ("宝吊无宝", "偷机后宝作本身成对/刻", "after 偷机, the 宝 end as themselves", "×6"),
        ("宝吊宝", "偷机后摸到另一张宝", "after 偷机, won on another 宝", "×6"),
        ("碰碰胡", "碰碰胡（用了宝）", "all pongs, 宝 in use", "×4"),
        ("清碰碰胡", "碰碰胡，不用宝", "all pongs, no wildcard", "×10"),
        ("碰碰胡宝吊头", "碰碰胡加宝吊", "all pongs with a 宝 pair-wait", "×8"),
        ("碰碰胡宝吊无宝", "碰碰胡宝吊无宝（偷机）", "all pongs, 宝吊无宝 (偷机)", "×16"),
        ("碰碰胡宝吊宝", "碰碰胡宝吊宝（偷机）", "all pongs, 宝吊宝 (偷机)", "×16"),
        ("平胡有宝", "用宝的平胡：须宝吊或飞宝才能胡", "宝 in use: needs 宝吊 or 飞宝", "×2"),
        ("七对", "七对（用了宝）", "seven pairs, 宝 in use", "×4"),
        ("清七对", "七对，不用宝", "seven pairs, no wildcard", "×10"),
        ("豪华七对", "有四张一样的七对（用了宝）", "luxury seven pairs, 宝 in use", "×4"),
        ("清豪华七对", "有四张一样的七对，不用宝", "luxury seven pairs, no wildcard", "×10"),
        ("豪华", "豪华七对：每个四张一样再 ×2", "luxury: ×2 per four of a kind", "×2ⁿ"),
        ("十三浪有宝", "十三浪（用了宝）", "十三浪 with 宝 in use", "×2"),
        ("十三浪", "十三浪，不用宝", "十三浪, no wildcard", "×4"),
        ("七星十三浪有宝", "七星十三浪（用了宝）", "seven-star 十三浪, 宝 in use", "×4"),
        ("七星十三浪", "七星十三浪，不用宝", "seven-star 十三浪, no wildcard", "×8"),
        ("九幺有宝", "九幺（用了宝）", "九幺 with 宝 in use", "×2"),
        ("九幺", "九幺，不用宝", "九幺, no wildcard", "×4"),
        ("七星九幺有宝", "七星九幺（用了宝）", "seven-star 九幺, 宝 in use", "×4"),
        ("七星九幺", "七星九幺，不用宝", "seven-star 九幺, no wildcard", "×8"),
        ("天胡", "天胡，或牌型分更高时按牌型", "heavenly hand, or the hand if higher", "×10"),
        ("地胡", "地胡，或牌型分更高时按牌型", "earthly hand, or the hand if higher", "×10"),
        ("接宝", "接宝（选项 jiebao_points），或按牌型", "接宝 (option jiebao_points)", "×10"),
        ("四个宝", "四个宝（同上）", "all four 宝 (likewise)", "×10"),
        ("抢杠", "抢杠：整手 ×6，被抢者全付", "robbing a kong: ×6, the robbed pays", "×6"),
        ("杠上开花", "杠开：连续 n 次杠", "win on a kong draw, n kongs in a row", "×2ⁿ"),
        ("飞宝", "每打出一张宝 ×2", "×2 per 宝 discarded", "×2ⁿ"),
    ),
    "xinyu": (
        ("平胡", "没有任何一项", "no item at all", "1分"),
        ("门清", "没有碰、杠、吃，自摸", "no pong, kong or chi, self-drawn", "×2"),
        ("开杠", "本局开过杠（只算一次）", "declared a kong this hand (once)", "×2"),
        ("七小对", "七对", "seven pairs", "×4"),
        ("豪华七小对", "七对里有四张一样", "seven pairs with four of a kind", "×8"),
        ("混一色", "一门花色加字牌", "one suit with honours", "×2"),
        ("清一色", "全是一门花色", "one suit only", "×4"),
        ("全风向", "全是字牌（不论牌型）", "all honours (any shape)", "×8"),
        ("碰碰胡", "四组都是刻子/杠", "all pongs", "×2"),
        ("飞起来", "四组都碰/明杠出，单吊胡", "four exposed sets, single wait", "×4"),
        ("杠上开花", "杠后补牌自摸", "win on a kong replacement", "×2"),
    ),
    "jiujiang/small": (
        ("点炮", "胡别人打的牌", "won on a discard", "+1炮"),
        ("自摸", "自摸", "self-drawn", "+2炮"),
        ("抢杠", "抢杠（按自摸算）", "robbing a kong (as self-drawn)", "+2炮"),
        ("门清", "没有碰、明杠", "no pong or exposed kong", "+1炮"),
        (
            "独听",
            "只听一种牌（边、卡、单钓）",
            "a single winning kind (edge, closed, pair)",
            "+1炮",
        ),
        ("兴家", "亮出的每张发", "each 发 laid open", "+1炮"),
        ("明杠", "明杠 +1，中/白明杠 +3", "exposed kong +1, of 中/白 +3", "+1炮"),
        ("暗杠", "暗杠 +2，中/白暗杠 +4", "concealed kong +2, of 中/白 +4", "+2炮"),
        ("碰", "中/白碰出（或点炮成刻）", "pong of 中/白 (or completed by the discard)", "+1炮"),
        ("暗刻", "中/白暗刻", "concealed triplet of 中/白", "+2炮"),
    ),
    "jiujiang/big": (
        ("清一色", "全是一门花色", "one suit only", "+10炮"),
        ("混一色", "一门花色加中/白（臭一色）", "one suit with 中/白", "+10炮"),
        ("碰碰胡", "四组都是刻子/杠", "all pongs", "+10炮"),
        ("七对", "七个对子", "seven pairs", "+10炮"),
        ("豪华七对", "每个四张一样再 +10", "+10 more per four of a kind", "+10炮"),
        ("七仙女", "同一门连续七对（1–7/2–8/3–9）", "seven pairs running in one suit", "+10炮"),
        ("一条龙", "同一门 1–9", "1–9 of one suit", "+10炮"),
        ("全求人", "四组都吃碰出，点炮单吊", "every set exposed, won on a discard", "+10炮"),
        ("红旗飘飘", "中、白都成刻/杠", "triplets of both 中 and 白", "+10炮"),
        ("天胡", "庄家起手胡", "dealer wins on the deal", "+10炮"),
        (
            "地胡",
            "闲家胡庄家打出的第一张",
            "a non-dealer wins on the dealer's first discard",
            "+10炮",
        ),
        ("杠上开花", "杠后补牌自摸", "win on a kong replacement", "+10炮"),
        ("海底捞针", "摸最后一张自摸", "win on the last tile", "+10炮"),
        ("报听", "报听后胡", "won after declaring ready", "+10炮"),
    ),
}

#: Extra items of the Shangrao ``classic`` preset (beside the table rows).
CLASSIC_EXTRAS: tuple[tuple[str, str, str, str], ...] = (
    (
        "飞宝",
        "每打出一张宝 ×2，并使「不成胡」的有宝牌可胡",
        "×2 per 宝 discarded; makes ✗ legal",
        "×2ⁿ",
    ),
    ("豪华", "七对里每个四张一样 ×2", "×2 per four of a kind in 七对", "×2ⁿ"),
    ("长九幺", "九幺/七星九幺没有碰杠", "九幺 with no pong or kong", "×2"),
    ("豪华长九幺", "长九幺里有四张一样", "长九幺 with four of a kind", "×2"),
    ("杠上开花", "杠后补牌自摸（只算一次）", "win on a kong draw (once)", "×2"),
    ("天胡", "庄家起手胡，或牌型分更高时按牌型", "dealer wins on the deal, or the hand", "16分"),
    ("地胡", "闲家胡庄家第一张，或按牌型", "non-dealer wins the first discard", "16分"),
    ("接宝", "接宝即胡（选项 jiebao_points），或按牌型", "接宝 (option jiebao_points)", "16分"),
    ("四个宝", "四个宝即胡（同上）", "all four 宝 (likewise)", "16分"),
)


def scoring_names(key: str) -> set[str]:
    """The engine item names a summary covers (``shangrao/classic``, ``shangrao/xingchen``,
    ``xinyu``, ``jiujiang``)."""
    if key == "shangrao/classic":
        return set(CLASSIC) | {r[0] for r in CLASSIC_EXTRAS}
    if key == "jiujiang":
        return {r[0] for k in ("jiujiang/small", "jiujiang/big") for r in SCORING_ROWS[k]}
    return {r[0] for r in SCORING_ROWS[key]}


def rows_text(key: str, lang: str) -> str:
    """One line per scoring item: ``**清一色** ×4 · 全是一门花色``."""
    rows = CLASSIC_EXTRAS if key == "shangrao/classic" else SCORING_ROWS[key]
    return "\n".join(
        f"**{name}** {value} · {zh if lang == 'zh' else en}" for name, zh, en, value in rows
    )


def classic_table(lang: str) -> str:
    """The ``classic`` points table, generated from the engine's :data:`CLASSIC`."""
    cols = ("宝吊", "无宝", "有宝") if lang == "zh" else ("宝吊", "no 宝", "宝 in use")
    lines = []
    for name, (diao, wubao, youbao, legal) in CLASSIC.items():
        label = f"**{name}**" if lang == "zh" else f"**{name}** {EN[name]}"
        parts = []
        if diao is not None:
            parts.append(f"{cols[0]} {diao}")
        parts.append(f"{cols[1]} {wubao}")
        parts.append(f"{cols[2]} {youbao}{'' if legal else ' ✗'}")
        lines.append(
            f"{label}：" + " · ".join(parts) if lang == "zh" else f"{label}: " + " · ".join(parts)
        )
    return "\n".join(lines)


# ---------------------------------------------------------------------------- static pages


def _p(title: tuple[str, str], body: tuple[str, str], lang: str) -> HelpPage:
    return HelpPage(pick(title, lang), pick(body, lang))


OVERVIEW = (
    (
        ("开一局", "Start a game"),
        (
            "中文界面里命令显示为 `/麻将 …`，例如 `/mahjong new` 就是 `/麻将 新局`。\n\n"
            "**1. 开局** 在频道里输入 `/mahjong new`，可选玩法（上饶/新余/九江）、局数 `length`"
            "（4/8/16 局或 1/2/4 圈，默认服务器设置）和规则选项（如 `scoring=xingchen`）。一个频道同时只有一局；每人在一个服务器同时只在一局里。\n"
            "**2. 入座** 朋友们按「加入」（或 `/mahjong join`）。房主可按「加电脑」补座位；"
            "开始时空位自动由电脑补上。等待中可用 `/mahjong leave` 离开。\n"
            "**3. 开始** 房主按「开始」（或 `/mahjong start`）。机器人掷骰、发牌，并公布洗牌的"
            " SHA-256 哈希；本局结束时公布种子，任何人都能复算验证洗牌。\n\n"
            "一场对局按设定的局数打完自动结束，分数累计；每局结束后大家按「准备」开始下一局"
            "（见「局数、准备、解散、再来一局」一页）。",
            "**1. New game**: type `/mahjong new` in a channel, optionally with a variant "
            "(Shangrao, Xinyu, Jiujiang), a `length` (4/8/16 hands or 1/2/4 rounds 圈; default "
            "the server's) and rule options (e.g. `scoring=xingchen`). One game per "
            "channel at a time; a player is in one game per server at a time.\n"
            "**2. Seats**: friends press **Join** (or `/mahjong join`). The host may press "
            "**Add bot**; empty seats get AI players at the start. `/mahjong leave` leaves a lobby.\n"
            "**3. Start**: the host presses **Start** (or `/mahjong start`). The bot rolls the "
            "dice, deals, and posts the SHA-256 hash of the shuffle; at the end of the hand it "
            "reveals the seed, so anyone can check the shuffle.\n\n"
            "A game lasts its set number of hands and ends by itself; totals carry over. After "
            "each hand everyone presses **Ready** (准备) for the next one (see the page on "
            "length, ready, ending early and rematch).",
        ),
    ),
    (
        ("出牌、托管、超时", "Playing, auto-play, timeouts"),
        (
            "**手牌私信** 每人的手牌以图片私信发给你，下面有按钮：每种可打的牌一个按钮，"
            "能胡/杠/碰/吃/过/偷机/报听时出现对应按钮。\n"
            "**牌桌** 每局在自己的子区里进行（机器人有权限时），每盘一条牌桌消息随时更新：牌河、"
            "副露、余牌、宝牌指示、轮到谁、倒计时。手牌从不公开出现。\n"
            "**提醒** 轮到你出牌或可以吃碰杠胡时，机器人私信你一条短提醒（你操作后删除）；"
            "私信关闭的人轮到出牌时在子区里被提及。`/mahjong alerts` 可改为只提醒吃碰杠胡或关闭。\n"
            "**听牌提示** 差一张就胡时，手牌会列出胡哪些牌、还剩几张（服务器可关闭）。\n"
            "**私信关闭？** 用 `/mahjong hand` 或牌桌上的「🀄 我的手牌」按钮，只有你能看见。\n"
            "**超时** 轮到你出牌超时会自动打出摸到的牌，并进入**托管**（电脑代打）；"
            "吃碰杠胡超时只会悄悄「过」（不公开，也不托管：谁能吃碰杠胡从不公开）。"
            "按任意按钮或 `/mahjong autoplay on:False` 取消托管；"
            "也可随时 `/mahjong autoplay` 主动托管。每回合秒数由服务器 `/mahjong-admin config` 设定。\n"
            "**按错了？** 别人的按钮、过期的按钮只会得到一句私下说明，牌局不变。",
            "**Your hand by DM**: your tiles come as a picture in a DM with buttons: one per tile "
            "you can discard, plus Win / Kong / Pong / Chi / Pass / Keep drawing (偷机) / Ready "
            "(报听) when they are legal.\n"
            "**The table**: each game plays in its own thread (when the bot may open one), with "
            "one table message per hand kept up to date: discards, melds, tiles left, the 宝 "
            "indicator, whose turn, a countdown. Hands never appear in public.\n"
            "**Alerts**: when it is your turn or you may claim a discard, the bot DMs you a short "
            "alert (deleted once you act); with closed DMs you are mentioned in the thread on your "
            "turn. `/mahjong alerts` switches to claims only, or off.\n"
            "**Wait hints**: one tile from winning, your hand lists the winning tiles and how "
            "many are unseen (a server setting, on by default).\n"
            "**DMs closed?** Use `/mahjong hand` or the **🀄 My hand** button on the table; only "
            "you see the answer.\n"
            "**Timeouts**: a turn that times out discards the drawn tile and puts you on "
            "**托管** (auto-play, the AI plays for you); a claim that times out just passes, "
            "quietly (no line, no 托管: who may claim is never public). Press any "
            "button or `/mahjong autoplay on:False` to take over; `/mahjong autoplay` hands over "
            "on purpose. The seconds per turn are a server setting (`/mahjong-admin config`).\n"
            "**Wrong button?** Someone else's or an old button gets a short private note; "
            "nothing in the game changes.",
        ),
    ),
    (
        ("局数、准备、解散、再来一局", "Length, ready, ending early, rematch"),
        (
            "**局数** 开局时选 4/8/16 局或 1/2/4 圈（`/mahjong new length:`，默认由管理员用 "
            "`/mahjong-admin config length` 设定，未设定时 8 局）。一圈＝庄家按本玩法的坐庄规则"
            "轮转一周（连庄不算前进，胡牌者坐庄时按座位往下数）。牌桌显示「第3/8局」；"
            "最后一局结束后对局自动结束，公布**最终战绩**：每人总分、胡牌次数、自摸、点炮、"
            "最大一手和本场赢家，并记入战绩。\n"
            "**准备** 每局结束后每位真人玩家按「准备」，全员准备即开下一局（电脑和托管中的"
            "座位自动准备）。每人会收到一条私信提醒（按下后删除）。超时（默认 60 秒，"
            "`/mahjong-admin config ready_timeout`）未准备的玩家进入托管，下一局照常开始。\n"
            "**解散** 想提前结束要投票：任何一位玩家按牌桌或结算上的「解散」发起，其他真人玩家"
            "按「同意解散」或「拒绝」；超时（默认 60 秒，`vote_timeout`）未回应视为同意，"
            "一人拒绝则继续打；电脑总是同意；发起人 2 分钟内不能再次发起。拥有「管理服务器」"
            "权限的人可用 `/mahjong abandon` 立即结束任何对局（会记录）；房主在对局中用它则是"
            "发起解散投票。解散后同样公布战绩，标明「解散」。\n"
            "**再来一局** 最终战绩下有「再来一局」按钮：同样的玩家、玩法、规则和局数开新房间，"
            "所有真人玩家都按下后自动开始；房主也可以直接按「开始」，空位由电脑补上。",
            "**Length**: a game is opened for 4, 8 or 16 hands or 1, 2 or 4 rounds (圈) "
            "(`/mahjong new length:`; the default is the server's, `/mahjong-admin config "
            "length`, 8 hands to begin with). A round is the deal going all the way round by "
            "the variant's own dealer rules (a dealer who keeps the deal does not move it; a "
            "winner taking the deal moves it to their seat). The table shows `第3/8局`; when "
            "the last hand ends the game ends by itself with the **final standings**: each "
            "player's total, hands won, self-draws (自摸), discards that paid a win (点炮), best "
            "hand and the winner, all recorded.\n"
            "**Ready (准备)**: after each hand every human presses **Ready**; the next hand "
            "starts when everyone is ready (AI seats and seats on auto-play are ready at once). "
            "Each player gets a short DM (deleted once they press). After the timeout (60 s "
            "unless `/mahjong-admin config ready_timeout` says otherwise) whoever is not ready "
            "goes on auto-play and the hand starts anyway.\n"
            "**Ending early (解散)**: it takes a vote. Any player presses **End game** on the "
            "table or a result; the other humans press **Agree** or **Refuse**; no answer "
            "before the timeout (60 s, `vote_timeout`) agrees, one refusal keeps the game "
            "going, AI seats agree, and a proposer waits 2 minutes before proposing again. A "
            "member with Manage Server ends any game at once with `/mahjong abandon` (logged); "
            "a host using it in a started game proposes the vote instead. An ended game shows "
            "its standings too, marked 解散.\n"
            "**Rematch (再来一局)**: the final standings carry a **Rematch** button: the same "
            "players, variant, options and length in a new lobby. It starts once every human "
            "of the old game pressed it, or when its host presses Start (empty seats get AI).",
        ),
    ),
    (
        ("结算、战绩、实体牌算分", "Results, records, real tiles"),
        (
            "**结算（摊牌）** 每局结束后四家手牌全部摊开（宝牌、胡的那张、点炮和叁包都标出），"
            "列出每个计分项（如 `清一色 ×4`）和每一项收支（牌分、吃兴家、杠钱、跟庄/黄庄翻倍），"
            "每人本局得失就是这些明细之和，并列出总分。流局也摊牌并列出已付的杠钱。\n"
            "**战绩** `/mahjong leaderboard` 排行榜，`/mahjong stats` 个人统计，"
            "`/mahjong history` 历史对局。\n"
            "**实体牌算分台** 用真牌打的时候，`/mahjong score` 输入手牌即可算分（写法见"
            "「手牌写法」主题）；`/mahjong record` 记录一盘结果，四人确认后计入排行榜。\n"
            "**规则** `/mahjong rules` 查看本服务器的规则选项；管理员用 `/mahjong-admin config` 修改"
            "默认玩法、规则、超时、听牌提示和公开消息语言。\n"
            "**图片** `/mahjong pictures` 设置你的私信是否附带图片。",
            "**Results (摊牌)**: at every hand's end all four hands are laid open (宝, the "
            "winning tile, the discarder and a 叁包 payer marked), with every scoring item "
            "(e.g. `清一色 ×4`) and every payment (the hand, 吃兴家, kong money, 跟庄/黄庄 "
            "raises): each seat's change is the sum of its lines, beside the totals. A drawn "
            "hand lays the hands open too, with the kong money paid.\n"
            "**Records**: `/mahjong leaderboard`, `/mahjong stats` (a player), "
            "`/mahjong history` (past games).\n"
            "**Scoring desk for real tiles**: playing with physical tiles, value a hand with "
            "`/mahjong score` (see the notation topic) and `/mahjong record` a hand's result; "
            "once all four confirm it counts on the leaderboard.\n"
            "**Rules**: `/mahjong rules` shows this server's rule options; members with Manage "
            "Server change the default variant, options, timeouts, wait hints and the language "
            "of public messages with `/mahjong-admin config`.\n"
            "**Pictures**: `/mahjong pictures` turns the pictures in your messages on or off.",
        ),
    ),
)

SHANGRAO = (
    (
        ("牌与宝牌", "Tiles and the 宝 wildcard"),
        (
            "136 张（万、筒、条、风、箭），四人。可以吃、碰、杠；优先级 胡 > 杠 = 碰 > 吃。\n"
            "**庄家** 第一盘掷骰点数最大者坐庄；庄家胡连庄，闲家胡则胡者坐庄，流局下家坐庄。\n"
            "**宝牌** 发牌后翻出一张**指示牌**（跌宝牌），它的下一种牌就是**宝**，四张宝都是万能牌。"
            "顺序：同花色 1→2→…→9→1；东→南→西→北→东；中→发→白→中（如指示 9万 → 宝 1万，"
            "北 → 东，白 → 中）。指示牌留在桌上不会被摸到，剩下的三张可以当杠（三张，不补牌）。\n"
            "宝可以当**任何**牌用，也可以当它本身。宝不能被吃、碰、杠。\n"
            "**飞宝** 打出一张宝叫飞宝；每飞一张宝，之后胡牌分数 ×2。\n"
            "**流局** 牌墙只剩指示牌、没有可摸的牌时荒庄；杠的补牌从牌尾摸。",
            "136 tiles (characters, dots, bamboo, winds, dragons), 4 players. Chi, pong and kong "
            "are allowed; priority win > kong = pong > chi.\n"
            "**Dealer**: in the first hand the highest dice roll deals; the dealer keeps the deal "
            "on a win, a non-dealer winner deals next, after a draw the dealer's 下家 deals.\n"
            "**The 宝**: after the deal a tile is turned up, the **indicator**; the kind after it "
            "is the **宝**, and all 4 tiles of it are wildcards. Order: 1→2→…→9→1 in a suit; "
            "E→S→W→N→E; 中→发→白→中 (indicator 9m → 宝 1m, N → E, 白 → 中). The indicator stays "
            "on the table and is never drawn; the other three of its kind may be declared as a "
            "kong (three tiles, no replacement).\n"
            "A 宝 stands for **any** tile, or for itself. Nobody may chi, pong or kong a 宝.\n"
            "**飞宝**: discarding a 宝. Each 宝 you have discarded doubles your win.\n"
            "**Draw**: the hand is drawn when only the indicator is left; kong replacements come "
            "from the tail of the wall.",
        ),
    ),
    (
        ("怎么胡", "How to win"),
        (
            "**自摸**胡（含杠上开花）。别人打的牌只有这些情况能胡：**地胡**（闲家胡庄家第一张）、"
            "**抢杠**、**接宝**；选项 `discard_win` 可允许点炮胡。一张牌多人要胡时，按出牌者下家"
            "顺序第一位胡。\n"
            "**牌型** 平胡（4 组 + 1 对）；七对（有四张一样为豪华七对）；碰碰胡；"
            "十三烂（14 张各不同，同花色相差 ≥3，字牌各不同；七种字全有为七星十三烂）；"
            "九幺（全是 1、9 和字牌，不论牌型；无碰杠为长九幺；七种字全有为七星九幺）。"
            "可与清一色组合，字一色算清一色。宝在任何牌型里都能替代。\n"
            "**宝吊头** 手牌去掉一张宝已成型只差将，摸任何牌都胡。\n"
            "**偷机** 宝吊头时可不胡、打牌继续摸，博宝吊宝/宝吊无宝（按钮「偷机」）。\n"
            "**接宝** 本盘摸过三张宝的人，别人打出宝时可接宝直接胡，不论牌型。"
            "**四个宝** 摸到全部四张宝直接胡。\n"
            "**起胡** classic：有宝的平胡、十三烂、九幺（表中 ✗）不能胡，除非飞过宝；"
            "xingchen：用宝的平胡不能胡，除非宝吊或飞宝。",
            "Win by **self-draw** (including a kong replacement). A discard can be won only by "
            "**地胡** (a non-dealer on the dealer's first discard), **robbing a kong** or **接宝**; "
            "the option `discard_win` allows any discard. With several claims, the first in play "
            "order from the discarder wins.\n"
            "**Shapes**: 平胡 (4 sets + a pair); 七对 seven pairs (four alike: 豪华七对); "
            "碰碰胡 all pongs; 十三烂 (14 different tiles, same-suit tiles ≥3 apart, honours all "
            "different; all 7 honours: 七星十三烂); 九幺 (only 1s, 9s and honours, any shape; "
            "with no pong or kong 长九幺; all 7 honours 七星九幺). They combine with 清一色 (one "
            "suit; all honours counts as one suit). A 宝 may stand in for a tile in every shape.\n"
            "**宝吊头**: without one 宝 the hand is complete but for its pair, so any tile wins.\n"
            "**偷机**: in 宝吊头 you may decline the win and keep drawing (the **Keep drawing** "
            "button), hoping for 宝吊宝 / 宝吊无宝.\n"
            "**接宝**: a player who drew 3 宝 this hand may take a discarded 宝 and win at once, "
            "whatever the shape. **四个宝**: drawing all four 宝 wins at once.\n"
            "**Minimum**: classic: 平胡, 十三烂 and 九幺 with a 宝 in use (✗ in the table) are "
            "not a win unless you have flown a 宝; xingchen: a 平胡 with a wildcard in use needs "
            "宝吊 or 飞宝.",
        ),
    ),
)


def _shangrao_scoring(lang: str) -> list[HelpPage]:
    classic_head = (
        "**classic**（默认，百科分数表）：每家付的分。宝吊 = 宝吊头；无宝 = 14 张里没有宝；"
        "有宝 = 宝当万能牌用；✗ = 不能胡（除非飞宝）。\n"
        if lang == "zh"
        else "**classic** (default, the encyclopedia table): points each loser pays. 宝吊 = "
        "宝 pair-wait; no 宝 = no 宝 among the 14; 宝 in use = a 宝 as a wildcard; ✗ = not a "
        "legal win (unless 飞宝).\n"
    )
    extras_name = "另外翻倍与保底" if lang == "zh" else "Doublings and floors"
    classic = HelpPage(
        "计分 · classic" if lang == "zh" else "Scoring · classic",
        classic_head + classic_table(lang),
        ((extras_name, rows_text("shangrao/classic", lang)),),
    )
    xing_head = (
        "**xingchen**（星辰麻将番数表，选项 `scoring=xingchen`）：底分 1 × 番数。"
        "这里「清/无宝」指没有宝当万能牌用。\n"
        if lang == "zh"
        else "**xingchen** (the 星辰 multiplier table, option `scoring=xingchen`): 1 point × "
        "the multiplier. Here no 宝 / 清 means no 宝 acting as a wildcard.\n"
    )
    xing = HelpPage(
        "计分 · xingchen" if lang == "zh" else "Scoring · xingchen",
        xing_head + rows_text("shangrao/xingchen", lang),
    )
    pay = (
        "**付分** 自摸：其他三家各付该手分数。地胡、接宝、或 `discard_win` 下的点炮：放炮者"
        "付三份。抢杠：被抢者付三份。\n"
        "**叁包** 赢家有三或四组吃碰杠来自同一家时，那一家包赔全部（三份），其他人不付。\n"
        "**计大不计小** 一手牌有多种算法时，按最大的算。\n\n"
        if lang == "zh"
        else "**Payment**: self-draw: each of the three others pays the hand's points. 地胡, 接宝 "
        "or a discard win under `discard_win`: the discarder pays three shares. Robbing a "
        "kong: the robbed player pays three shares.\n"
        "**叁包**: if 3 or 4 of the winner's chi/pong/kong came from one player's discards, "
        "that player pays everything (three shares); the others pay nothing.\n"
        "**计大不计小**: a hand that can be read several ways scores the way that pays most.\n\n"
    )
    return [
        classic,
        xing,
        HelpPage(
            "付分与规则选项" if lang == "zh" else "Payment and options",
            pay + options_text("shangrao", lang),
        ),
    ]


XINYU = (
    (
        ("打法与胡牌", "Play and winning"),
        (
            "136 张。**不能吃**，可以碰、杠（明杠、补杠、暗杠），杠后从牌尾补牌。\n"
            "**只能自摸**；选项 `discard_win` 允许点胡（可一炮多响）。\n"
            "**庄家** 第一盘 0 号座位坐庄；胡者下一盘坐庄（多人胡时按出牌者下家顺序第一位）；"
            "流局后由选项 `draw_dealer` 决定（默认下家坐庄）。\n"
            "**流局** 摸完第 120 张牌并打出仍无人胡时荒牌，牌墙留 16 张；补牌也计入 120。\n"
            "**牌型** 标准 4 组 + 1 对（字牌只能成刻）；七对、豪华七对（有四张一样）；"
            "**全风向**：不碰不杠、14 张全是字牌，不论牌型都可以胡。",
            "136 tiles. **No chi**; pong and kong (exposed, added, concealed); a kong's "
            "replacement comes from the tail of the wall.\n"
            "**Self-draw only**; the option `discard_win` allows wins on discards (several "
            "winners at once).\n"
            "**Dealer**: seat 0 deals the first hand; the winner deals next (with several, the "
            "first in play order from the discarder); after a draw, option `draw_dealer` "
            "(default: the dealer's 下家).\n"
            "**Draw**: the hand is drawn when the 120th tile has been drawn and discarded with no "
            "win: 16 tiles stay in the wall; replacement draws count toward the 120.\n"
            "**Shapes**: standard 4 sets + a pair (honours only in triplets); seven pairs, luxury "
            "seven pairs (four alike); **全风向**: no pong or kong and all 14 tiles honours wins "
            "whatever its shape.",
        ),
    ),
)


def _xinyu_scoring(lang: str) -> list[HelpPage]:
    head = (
        "底分 1，每项是一个倍数，**所有项相乘**（加番 = 倍数相乘）。同一组（七对类；混一色/清一色/"
        "全风向）只算最大的一项。没有任何项时为平胡 1 分。\n"
        if lang == "zh"
        else "Base 1 point; each item is a multiplier and **all of them multiply**. Within one "
        "group (the seven-pairs items; 混一色 / 清一色 / 全风向) only the largest counts. A "
        "hand with no item is a basic win worth 1.\n"
    )
    pay = (
        "\n\n**付分** 自摸：其他三家各付 1 × 乘积。`discard_win` 下点炮：放炮者一人付。\n"
        "**杠钱** 开杠当时，其他每家付杠主：明杠、补杠 1 分，暗杠 2 分；不论谁胡、流局也算。\n\n"
        if lang == "zh"
        else "\n\n**Payment**: self-draw: each of the three others pays 1 × the product. A discard "
        "win under `discard_win`: the discarder alone pays.\n"
        "**Kong money**: when a kong is declared each other player pays its owner 1 point "
        "(exposed or added kong) or 2 (concealed), whoever wins, even in a drawn hand.\n\n"
    )
    return [
        HelpPage(
            "计分、付分、选项" if lang == "zh" else "Scoring, payment, options",
            head + rows_text("xinyu", lang) + pay + options_text("xinyu", lang),
        )
    ]


JIUJIANG = (
    (
        ("打法", "Play"),
        (
            "**120 张**：万、筒、条和中、发、白各 4 张，没有风牌。\n"
            "**发是兴家** 发不留在手里：发牌时和摸到时亮在自己面前，从牌尾补一张。中、白是普通牌。\n"
            "**不能吃**（选项 `chi` 可开），可以碰、杠。可点炮胡、自摸，也有抢杠、杠上开花、"
            "杠上放炮、海底捞针、海底放炮。一张牌多人胡时按出牌者下家顺序第一位。\n"
            "**庄家** 谁胡谁做庄；流局庄家连庄。\n"
            "**碰后摸到第四张** 不能打出：要么杠，要么能胡就胡。\n"
            "**报听** 庄家起手、闲家第一次摸牌（或摸牌前碰牌）时可报听；之后手牌锁定，摸到的牌"
            "不能胡或不能合规杠就打出。报听的人放过一张能胡的牌后，到自己下次摸牌前不能再胡别人的牌。\n"
            "**跟庄** 另外三家紧接着都打出和庄家第一张相同的牌：下一盘每炮 ×2（若是中/白或庄家"
            "第二张也被跟，×4）。**黄庄** 流局后下一盘每炮 ×2，连续两次 ×4。庄家不变时一直保持，"
            "换庄后回到每炮 1。",
            "**120 tiles**: the three suits and 中 发 白, 4 of each; no winds.\n"
            "**发 are flowers (兴家)**: a 发 is never kept: when dealt or drawn it is laid open "
            "and replaced from the tail of the wall. 中 and 白 are ordinary tiles.\n"
            "**No chi** (option `chi` allows it); pong and kong. Wins on a discard and by "
            "self-draw, also robbing a kong, 杠上开花, 杠上放炮, 海底捞针 (last tile) and 海底放炮. "
            "One winner per discard: the first in play order from the discarder.\n"
            "**Dealer**: the winner deals next; after a draw the dealer keeps the deal.\n"
            "**After a pong, the 4th tile** may not be discarded: kong it, or win with it.\n"
            "**报听 (declare ready)**: the dealer with the 14 dealt tiles, or a non-dealer at the "
            "first draw (or a pong before it), may declare ready; the hand is then locked and "
            "each drawn tile is discarded unless it wins or makes a legal kong. A ready player "
            "who passes a winnable discard may not win on a discard until their next draw.\n"
            "**跟庄**: if the three others each discard the dealer's first discard right after "
            "it, the next hand is worth ×2 per 炮 (×4 for 中/白 or when the second discard is "
            "followed too). **黄庄**: a drawn hand doubles the next hand per 炮; two in a row ×4. "
            "Raised values stay while the dealer keeps the deal.",
        ),
    ),
)


def _jiujiang_scoring(lang: str) -> list[HelpPage]:
    small_head = (
        "计分单位是**炮**。**小牌（平胡）**各项相加，必须**至少 2 炮**才能胡（二炮起胡）：\n"
        if lang == "zh"
        else "The unit is the **炮**. **Small hand (平胡)**: the items add up, and it needs "
        "**at least 2 炮** to be a win:\n"
    )
    big_head = (
        "**大牌（花牌，见花十炮）**每有一项 +10 炮，可以相加（清一色碰碰胡 = 20）。有大牌时"
        "自摸、门清、独听各 +5；发、杠、中白照小牌计；点炮的 1 炮不再加。\n"
        if lang == "zh"
        else "**Big hands (花牌)**: each named hand adds **10 炮** and they add up (清一色碰碰胡 "
        "= 20). With a big hand, self-draw, 门清 and 独听 are +5 each; 发, kongs and 中/白 "
        "keep their small values; the discard's 1 炮 is not added.\n"
    )
    pay = (
        "**吃兴家** 胡牌后每个付分的输家还要为**自己的**兴家多付：每张发 +1，明杠/暗杠 +1/+2，"
        "中白 碰 +1、明杠 +3、暗杠 +4。\n"
        "**付分** 自摸：三家各付（赢家炮数 + 自己的兴家）× 每炮分值。点炮（含杠上放炮、海底"
        "放炮）：放炮者一人付。抢杠：被抢者一人付，按自摸算。\n\n"
        if lang == "zh"
        else "**吃兴家**: after the win each paying loser adds their **own** extras: +1 per 发 "
        "laid open, +1 / +2 per exposed / concealed kong, 中/白 pong +1, exposed kong +3, "
        "concealed kong +4.\n"
        "**Payment**: self-draw: each of the three pays (the winner's 炮 + their own extras) "
        "× the value per 炮. A discard win (also 杠上放炮, 海底放炮): the discarder alone pays. "
        "Robbing a kong: the robbed player alone pays, valued as self-drawn.\n\n"
    )
    return [
        HelpPage(
            "计分：小牌与大牌" if lang == "zh" else "Scoring: small and big hands",
            small_head
            + rows_text("jiujiang/small", lang)
            + "\n\n"
            + big_head
            + rows_text("jiujiang/big", lang),
        ),
        HelpPage(
            "吃兴家、付分、选项" if lang == "zh" else "Extras, payment, options",
            pay + options_text("jiujiang", lang),
        ),
    ]


#: Hand strings shown on the notation pages (a test parses each one with the engine).
NOTATION_EXAMPLES: tuple[str, ...] = (
    "123m 456p 789s 55z [111s] +1m",
    "123万 456饼 789条 中中 [111条] +一万",
    "11m 22m 33p 44p 55s 66s 77z +7z",
    "234m 567p (1111z) 22s [999s] +2s",
    "五万 五万 五万 一饼 二饼 三饼 东 东 东 七条 八条 九条 白 白 +白",
)

NOTATION = (
    (
        ("手牌写法", "Writing a hand"),
        (
            "用于 `/mahjong score`（实体牌算分）和记录。空格随意。\n"
            "**数字 + 花色字母**：`m` 万、`p` 筒（饼）、`s` 条（索）、`z` 字："
            "`1z`–`4z` 东南西北（也可写 `E S W N`），`5z`–`7z` 中发白（`C F P`）。"
            "`123m` = 一二三万。\n"
            "**`[...]` 明的副露**：`[123m]` 吃，`[555p]` 碰，`[7777s]` 明杠。\n"
            "**`(...)` 暗杠**：`(1111z)`。上饶三张指示牌的杠写 `(XXX)`。\n"
            "**`+X` 胡的那张**，写在最后；这张牌在前面的手牌里**也要写上**：`+` 前是完整的"
            "胡牌，14 张，每个杠多 1 张。\n\n"
            "例子：\n",
            "Used by `/mahjong score` (the scoring desk for real tiles) and records. Spaces "
            "are ignored.\n"
            "**Digits then a suit letter**: `m` characters, `p` dots, `s` bamboo, `z` honours: "
            "`1z`–`4z` East South West North (also `E S W N`), `5z`–`7z` 中 发 白 (`C F P`). "
            "`123m` = 1, 2, 3 of characters.\n"
            "**`[...]` an exposed meld**: `[123m]` chi, `[555p]` pong, `[7777s]` exposed kong.\n"
            "**`(...)` a concealed kong**: `(1111z)`. Shangrao's 3-tile indicator kong is "
            "`(XXX)`.\n"
            "**`+X` the winning tile**, last; it is written in the hand **too**: the tiles "
            "before `+` are the whole finished hand, 14 tiles plus one per kong.\n\n"
            "Examples:\n",
        ),
    ),
    (
        ("中文输入与算分选项", "Chinese input and score options"),
        (
            "也可以用中文写牌：`五万`、`5万`、`伍万`、`一饼`/`一筒`、`一条`/`一索`、"
            "`东`/`东风`、`中`/`红中`、`发`/`发财`、`白`/`白板`。同花色可连写：`一二三万`、`123万`。\n"
            "读不懂的牌会报错并指出是哪个词，给出写法示例；什么都不会改变。\n\n"
            "**`/mahjong score` 的其他选项**\n"
            "`variant` 玩法（默认服务器的）· `win` 胡法：自摸/点炮/抢杠 · "
            "`bao` 上饶的宝（或 `indicator:9m` 给指示牌）· `flown` 飞宝张数 · "
            "`kong_draws` 胡前连续杠数（杠上开花）· `flowers` 九江亮出的发 · "
            "`options` 规则选项，如 `scoring=xingchen` · 天胡、地胡、海底、偷机、报听、四个宝、"
            "接宝、庄家 等开关。\n"
            "答案列出每个计分项、总分和谁付多少。",
            "Chinese tile words work too: `五万`, `5万`, `伍万`, `一饼`/`一筒`, `一条`/`一索`, "
            "`东`/`东风`, `中`/`红中`, `发`/`发财`, `白`/`白板`; runs like `一二三万` or `123万`.\n"
            "A tile that can't be read gets an error naming the bad word, with examples; "
            "nothing changes.\n\n"
            "**Other options of `/mahjong score`**\n"
            "`variant` (default: the server's) · `win`: self-draw / discard / robbing a kong · "
            "`bao`: Shangrao's 宝 (or `indicator:9m` for the turned-up tile) · `flown`: 宝 you "
            "discarded · `kong_draws`: kongs in a row before the winning draw · `flowers`: "
            "Jiujiang 发 laid open · `options`: rule options such as `scoring=xingchen` · "
            "switches for 天胡, 地胡, last tile, 偷机, 报听, 四个宝, 接宝, dealer.\n"
            "The answer lists every scoring item, the total and who pays what.",
        ),
    ),
)

EXAMPLE_NOTES: tuple[tuple[str, str], ...] = (
    ("平胡，碰了 111s，摸 1m 胡", "a basic hand with a pong of 1s, won on 1m"),
    ("同一手牌的中文写法", "the same hand in Chinese"),
    ("七对（一对 7z = 白）", "seven pairs (a pair of 7z = 白)"),
    ("有一个东风暗杠：15 张", "with a concealed kong of East: 15 tiles"),
    ("逐张中文，空格分开", "tile by tile in Chinese, with spaces"),
)


def _notation_pages(lang: str) -> list[HelpPage]:
    (t1, b1), (t2, b2) = NOTATION
    examples = "\n".join(
        f"`{hand}` — {pick(note, lang)}"
        for hand, note in zip(NOTATION_EXAMPLES, EXAMPLE_NOTES, strict=True)
    )
    first = HelpPage(pick(t1, lang), pick(b1, lang) + examples)
    return [first, HelpPage(pick(t2, lang), pick(b2, lang))]


def static_pages(topic: str, lang: str) -> list[HelpPage]:
    """The pages of every topic but ``commands``, in ``lang`` (``zh`` or ``en``)."""
    lang = "zh" if lang == "zh" else "en"
    if topic == "overview":
        return [_p(t, b, lang) for t, b in OVERVIEW]
    if topic == "shangrao":
        return [_p(t, b, lang) for t, b in SHANGRAO] + _shangrao_scoring(lang)
    if topic == "xinyu":
        return [_p(t, b, lang) for t, b in XINYU] + _xinyu_scoring(lang)
    if topic == "jiujiang":
        return [_p(t, b, lang) for t, b in JIUJIANG] + _jiujiang_scoring(lang)
    if topic == "notation":
        return _notation_pages(lang)
    raise KeyError(topic)


def topic_title(topic: str, lang: str) -> str:
    """``帮助 · 上饶麻将规则``."""
    return f"{word('title', lang)} · {pick(TOPIC_NAMES[topic], lang)}"


def variant_label(variant: str, lang: str) -> str:
    """上饶麻将 / Shangrao."""
    return pick(VARIANT_NAMES[variant], lang)


def paginate(lines: list[str], limit: int = 3800) -> list[str]:
    """Join ``lines`` into chunks of at most ``limit`` characters (a long line is cut)."""
    chunks: list[str] = []
    current = ""
    for line in lines:
        line = line[:limit]
        if current and len(current) + 1 + len(line) > limit:
            chunks.append(current)
            current = line
        else:
            current = f"{current}\n{line}" if current else line
    if current or not chunks:
        chunks.append(current)
    return chunks
