"""The options of ``/mahjong score`` and ``/mahjong record`` as Discord shows them: their
descriptions and names in English and Chinese, and the fixed choices."""

from __future__ import annotations

from discord.app_commands import Choice, locale_str

FLAG_OPTIONS = (
    "heaven",
    "earth",
    "last_tile",
    "touji",
    "ready_declared",
    "four_bao",
    "jiebao",
    "dealer",
)
WIN_CHOICES = [
    Choice(name=locale_str("自摸 self-draw", zh="自摸"), value="self"),
    Choice(name=locale_str("点炮 won on a discard", zh="点炮"), value="discard"),
    Choice(name=locale_str("抢杠 robbed a kong", zh="抢杠"), value="rob_kong"),
]
HOW_CHOICES = [*WIN_CHOICES, Choice(name=locale_str("流局 drawn hand", zh="流局"), value="draw")]
#: A seat seen from the winner (the discarder, the 叁包 feeder).
SEAT_CHOICES = [
    Choice(name=locale_str("下家 next player (after the winner)", zh="下家"), value="next"),
    Choice(name=locale_str("对家 player opposite", zh="对家"), value="across"),
    Choice(name=locale_str("上家 previous player (before the winner)", zh="上家"), value="prev"),
]

DESCRIBE_SCORE = {
    "hand": locale_str(
        "Finished hand, winning tile after +: 123m 456p 789s 11z [555s] +3m",
        zh="和牌，胡的那张写在 + 后：123万 456饼 789条 东东 [555条] +3万",
    ),
    "variant": locale_str("Variant (default: the server's)", zh="玩法（默认为服务器设置）"),
    "win": locale_str("How it was won", zh="胡法"),
    "bao": locale_str(
        "Shangrao 宝 (wildcard), or indicator:<tile> for the flipped tile",
        zh="上饶的宝牌，或 indicator:<牌> 给翻出的指示牌",
    ),
    "flown": locale_str("Shangrao: 宝 you discarded (飞宝)", zh="上饶：打出的宝（飞宝）张数"),
    "kong_draws": locale_str(
        "Kongs declared in a row before the winning draw (杠上开花)",
        zh="胡牌前连续开杠次数（杠上开花）",
    ),
    "flowers": locale_str("Jiujiang: 发 laid open", zh="九江：亮出的发（兴家）张数"),
    "options": locale_str(
        "Rule options, e.g. scoring=xingchen discard_win=true", zh="规则选项，如 scoring=xingchen"
    ),
    "discarder": locale_str(
        "Who discarded the winning tile (or whose kong was robbed), seen from the winner",
        zh="点炮（或被抢杠）的是赢家的哪一家",
    ),
    "feeder": locale_str(
        "Shangrao 叁包: who fed 3–4 of the winner's melds (pays everything)",
        zh="上饶叁包：谁喂了赢家三四组吃碰杠（一人全付）",
    ),
    "others": locale_str(
        "Others' 发/kongs/中白 (Jiujiang 吃兴家, Xinyu 杠钱): 下家 发2 [7777m]; 对家 (5555p)",
        zh="其他家的发、杠、中白（九江吃兴家、新余杠钱）：下家 发2 [7777m]；对家 (5555p)",
    ),
    "streak": locale_str(
        "Jiujiang 跟庄/黄庄 raising the value per 炮: 黄庄 跟庄, 2 (doublings) or ×4",
        zh="九江跟庄/黄庄（每炮翻倍）：如 黄庄 跟庄、2（翻倍次数）或 ×4",
    ),
    "heaven": locale_str("天胡 heavenly hand", zh="天胡"),
    "earth": locale_str("地胡 earthly hand", zh="地胡"),
    "last_tile": locale_str("海底 won on the last tile", zh="海底"),
    "touji": locale_str("偷机 won after keep-drawing", zh="偷机"),
    "ready_declared": locale_str("报听 declared ready", zh="报听"),
    "four_bao": locale_str("四个宝 drew all four 宝", zh="四个宝"),
    "jiebao": locale_str("接宝 took a discarded 宝", zh="接宝"),
    "dealer": locale_str("The winner is the dealer (庄家)", zh="赢家是庄家"),
    "private": locale_str("Only you see the answer", zh="只有自己看到结果"),
}
RENAME_SCORE = {
    "hand": locale_str("hand", zh="手牌"),
    "variant": locale_str("variant", zh="玩法"),
    "win": locale_str("win", zh="胡法"),
    "bao": locale_str("bao", zh="宝牌"),
    "flown": locale_str("flown", zh="飞宝"),
    "kong_draws": locale_str("kong_draws", zh="杠开"),
    "flowers": locale_str("flowers", zh="兴家"),
    "options": locale_str("options", zh="规则"),
    "discarder": locale_str("discarder", zh="点炮者"),
    "feeder": locale_str("feeder", zh="叁包"),
    "others": locale_str("others", zh="其他家"),
    "streak": locale_str("streak", zh="跟庄黄庄"),
    "heaven": locale_str("heaven", zh="天胡"),
    "earth": locale_str("earth", zh="地胡"),
    "last_tile": locale_str("last_tile", zh="海底"),
    "touji": locale_str("touji", zh="偷机"),
    "ready_declared": locale_str("ready_declared", zh="报听"),
    "four_bao": locale_str("four_bao", zh="四个宝"),
    "jiebao": locale_str("jiebao", zh="接宝"),
    "dealer": locale_str("dealer", zh="庄家"),
    "private": locale_str("private", zh="仅自己可见"),
}
DESCRIBE_RECORD = {
    "player1": locale_str("Player in seat 1", zh="一号位玩家"),
    "player2": locale_str("Player in seat 2 (next of seat 1)", zh="二号位玩家（一号位的下家）"),
    "player3": locale_str("Player in seat 3", zh="三号位玩家"),
    "player4": locale_str("Player in seat 4", zh="四号位玩家"),
    "winner": locale_str("Who won (leave empty for a drawn hand)", zh="赢家（流局留空）"),
    "how": locale_str("How it was won", zh="胡法"),
    "discarder": locale_str(
        "Who discarded the winning tile / whose kong was robbed", zh="点炮或被抢杠的人"
    ),
    "hand": locale_str("The winning hand (scored by the bot)", zh="胡的牌（机器人算分）"),
    "points": locale_str("Or: the points one loser pays", zh="或者：每家付的分数"),
    "variant": DESCRIBE_SCORE["variant"],
    "bao": DESCRIBE_SCORE["bao"],
    "options": DESCRIBE_SCORE["options"],
    "flags": locale_str(
        "Flags: 天胡 地胡 海底 偷机 报听 四个宝 接宝",
        zh="附加：天胡 地胡 海底 偷机 报听 四个宝 接宝",
    ),
    "flown": DESCRIBE_SCORE["flown"],
    "kong_draws": DESCRIBE_SCORE["kong_draws"],
    "flowers": DESCRIBE_SCORE["flowers"],
    "dealer": locale_str("The dealer (庄家)", zh="庄家"),
}
RENAME_RECORD = {
    "player1": locale_str("player1", zh="玩家1"),
    "player2": locale_str("player2", zh="玩家2"),
    "player3": locale_str("player3", zh="玩家3"),
    "player4": locale_str("player4", zh="玩家4"),
    "winner": locale_str("winner", zh="赢家"),
    "how": locale_str("how", zh="胡法"),
    "discarder": locale_str("discarder", zh="点炮者"),
    "hand": RENAME_SCORE["hand"],
    "points": locale_str("points", zh="分数"),
    "variant": RENAME_SCORE["variant"],
    "bao": RENAME_SCORE["bao"],
    "options": RENAME_SCORE["options"],
    "flags": locale_str("flags", zh="附加"),
    "flown": RENAME_SCORE["flown"],
    "kong_draws": RENAME_SCORE["kong_draws"],
    "flowers": RENAME_SCORE["flowers"],
    "dealer": locale_str("dealer", zh="庄家"),
}
