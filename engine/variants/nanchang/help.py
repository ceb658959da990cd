"""南昌麻将 rule pages of ``/mahjong help`` (帮助), as data: every text in 简体, 繁體 and
English with a stable id (``i18n.t("engine.<id>", locale)``); scoring rows name their item by
the scoring-item catalogue (:data:`engine.variants.catalogue.NAMES`).

The values on the rows are the ones :mod:`engine.variants.nanchang.scoring` gives (RULES
§8.3–§8.4); the payment and 精 settlement paragraphs follow §8.4–§8.6.
"""

from __future__ import annotations

from engine.variants.base import HelpSection, RulePage, ScoringRow, Text
from engine.variants.catalogue import NAMES

#: The items of the hand value H (RULES §8.4), multiplied together.
SCORING_ROWS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["平胡"],
        Text(
            "help.nanchang.scoring.pinghu",
            "4 组 + 1 对（顺子可以是中发白、三张不同的风）",
            "4 組 + 1 對（順子可以是中發白、三張不同的風）",
            "4 sets + a pair (中发白 and three different winds are sequences)",
        ),
        "×1",
    ),
    ScoringRow(
        NAMES["小七对"],
        Text(
            "help.nanchang.scoring.xiaoqidui",
            "七对，门前清；四张一样算两对，没有豪华加倍",
            "七對，門前清；四張一樣算兩對，沒有豪華加倍",
            "seven pairs, fully concealed; four alike are two pairs, no luxury bonus",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["大七对"],
        Text(
            "help.nanchang.scoring.daqidui",
            "碰碰胡：四组刻子/杠 + 1 对，可以碰出，吃了就不算（选项 `big_pairs` 可为 ×4）",
            "碰碰胡：四組刻子/槓 + 1 對，可以碰出，吃了就不算（選項 `big_pairs` 可為 ×4）",
            "all triplets/kongs + a pair, pongs allowed, a chi breaks it (option `big_pairs`: ×4)",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["十三烂"],
        Text(
            "help.nanchang.scoring.shisanlan",
            "14 张门前牌没有对子，同花色相差 3 以上，字牌各不同（字牌不成顺子）",
            "14 張門前牌沒有對子，同花色相差 3 以上，字牌各不同（字牌不成順子）",
            "14 concealed tiles, no pair, same-suit tiles 3 or more apart, honours all different",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["七星十三烂"],
        Text(
            "help.nanchang.scoring.qixing_shisanlan",
            "十三烂且七种字牌都是真牌（精不能顶缺的字）",
            "十三爛且七種字牌都是真牌（精不能頂缺的字）",
            "十三烂 with all 7 honours as real tiles (a 精 cannot stand for a missing one)",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["精钓"],
        Text(
            "help.nanchang.scoring.jingdiao",
            "不算胡的那张，手牌只差一张单精：摸什么都胡；不能点炮胡（地胡除外），除非是德国",
            "不算胡的那張，手牌只差一張單精：摸什麼都胡；不能點炮胡（地胡除外），除非是德國",
            "without the winning tile the hand lacks only a single 精's pair: any tile wins; "
            "no discard win (地胡 aside) unless it is 德国",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["德国"],
        Text(
            "help.nanchang.scoring.deguo",
            "没有精当万能牌（没有精，或精都当本身）；每个付分的人另加 5",
            "沒有精當萬能牌（沒有精，或精都當本身）；每個付分的人另加 5",
            "no 精 used as a wildcard (none held, or all as themselves); each payer adds 5",
        ),
        "×2 +5",
    ),
    ScoringRow(
        NAMES["德中德"],
        Text(
            "help.nanchang.scoring.dezhongde",
            "德国，而且其他三家手里和牌桌上都没有精（代替德国的 ×2，+5 只加一次）",
            "德國，而且其他三家手裡和牌桌上都沒有精（代替德國的 ×2，+5 只加一次）",
            "德国, and no other player holds a 精 (instead of 德国's ×2; the +5 once)",
        ),
        "×4 +5",
    ),
    ScoringRow(
        NAMES["杠开"],
        Text(
            "help.nanchang.scoring.gangkai",
            "杠后补牌自摸（连杠也只算一次）",
            "槓後補牌自摸（連槓也只算一次）",
            "self-drawn on a kong replacement (once, however many kongs)",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["天胡"],
        Text(
            "help.nanchang.scoring.tianhu",
            "庄家起手 14 张就胡：每家付 20，精钓 40，不再算别的",
            "莊家起手 14 張就胡：每家付 20，精釣 40，不再算別的",
            "the dealer's 14 dealt tiles win: 20 from each (精钓 40), nothing else",
        ),
        "20分",
    ),
    ScoringRow(
        NAMES["地胡"],
        Text(
            "help.nanchang.scoring.dihu",
            "闲家胡庄家第一张打出的牌（之前没人吃碰）：每家付 20，精钓 40",
            "閒家胡莊家第一張打出的牌（之前沒人吃碰）：每家付 20，精釣 40",
            "a non-dealer wins on the dealer's first discard, no claim before: 20 from each (精钓 40)",
        ),
        "20分",
    ),
)

#: The pages, in order: play, scoring and payment, 精 settlement and the options.
PAGES: tuple[RulePage, ...] = (
    RulePage(
        Text(
            "help.nanchang.play.title", "打法、精与胡牌", "打法、精與胡牌", "Play, 精 and winning"
        ),
        (
            HelpSection(
                Text(
                    "help.nanchang.play.body",
                    "136 张，无花。**吃** 只能吃上家，碰、杠（明杠、补杠、暗杠）不限，杠后从牌尾补牌。**中发白** 和 **三张不同的风** 也是顺子（选项 `wind_sequences`）。\n"
                    "**精** 发牌后庄家掷骰，从牌尾数墩翻开一张（指示牌，不再摸）：它这一种是 **正精**，下一种是 **副精**（9万→1万，北→东，白→中）。手里的精可以当任何牌，也可以当本身；吃、碰、杠出去或打出去的精只是本身的牌。\n"
                    "**胡牌** 点炮、自摸、抢杠（只抢补杠）、杠开；一炮只有一家胡（按出牌者下家顺序）。精钓不能点炮胡（除非德国）。放过能胡的牌后，到自己下次摸牌前不能胡同一种牌（精钓则任何打出的牌都不能胡）。\n"
                    "**流局** 最后 17 墩（34 张，含指示牌）不摸，剩 34 张时荒庄。\n"
                    "**庄家** 庄家胡连庄，闲家胡由下家坐庄，荒庄连庄；抄庄（首圈三家都跟打庄家第一张）庄家赔每家 5 并下庄。",
                    "136 張，無花。**吃** 只能吃上家，碰、槓（明槓、補槓、暗槓）不限，槓後從牌尾補牌。**中發白** 和 **三張不同的風** 也是順子（選項 `wind_sequences`）。\n"
                    "**精** 發牌後莊家擲骰，從牌尾數墩翻開一張（指示牌，不再摸）：它這一種是 **正精**，下一種是 **副精**（9萬→1萬，北→東，白→中）。手裡的精可以當任何牌，也可以當本身；吃、碰、槓出去或打出去的精只是本身的牌。\n"
                    "**胡牌** 點炮、自摸、搶槓（只搶補槓）、槓開；一炮只有一家胡（按出牌者下家順序）。精釣不能點炮胡（除非德國）。放過能胡的牌後，到自己下次摸牌前不能胡同一種牌（精釣則任何打出的牌都不能胡）。\n"
                    "**流局** 最後 17 墩（34 張，含指示牌）不摸，剩 34 張時荒莊。\n"
                    "**莊家** 莊家胡連莊，閒家胡由下家坐莊，荒莊連莊；抄莊（首圈三家都跟打莊家第一張）莊家賠每家 5 並下莊。",
                    "136 tiles, no flowers. **Chi** from the 上家 only; pong and kong (exposed, added, concealed) from anyone; a kong's replacement comes from the tail. **中发白** and **any three different winds** are sequences too (option `wind_sequences`).\n"
                    "**精**: after the deal the dealer rolls and a tile is turned face up from the tail (the indicator, never drawn): its kind is the **正精**, the next kind the **副精** (9m→1m, North→East, 白→中). A 精 in hand stands for any tile, or for itself; a 精 claimed, melded or discarded is only its face value.\n"
                    "**Winning**: on a discard, by self-draw, by robbing an added kong, on a kong replacement; one winner per discard (play order from the discarder). A 精钓 hand may not win on a discard unless it is 德国. A player who passes a winnable discard may not win on that kind before their next draw (a 精钓 wait: on no discard).\n"
                    "**Draw**: the last 17 stacks (34 tiles, the indicator among them) are never drawn.\n"
                    "**Dealer**: the dealer stays on its win and after a draw; a non-dealer's win passes the deal to the 下家; 抄庄 (the three follow the dealer's first discard) costs the dealer 5 to each and passes the deal.",
                )
            ),
        ),
    ),
    RulePage(
        Text("help.nanchang.scoring.title", "计分与付分", "計分與付分", "Scoring and payment"),
        (
            HelpSection(
                Text(
                    "help.nanchang.scoring.head",
                    "底分 1，牌值 H = **各项相乘**；几种读法取付得最多的一种。精钓、杠开各 ×2，叠在牌型上。",
                    "底分 1，牌值 H = **各項相乘**；幾種讀法取付得最多的一種。精釣、槓開各 ×2，疊在牌型上。",
                    "Base 1; the hand value H is **the product of its items**; of several readings the one that pays most counts. 精钓 and 杠开 each ×2 on top of the shape.",
                ),
                rows=SCORING_ROWS,
            ),
            HelpSection(
                Text(
                    "help.nanchang.payment.body",
                    "**付分** 每家付 H × 倍数，再加德国的 5：自摸（含杠开）三家各 ×2；点炮放炮者 ×2、另两家 ×1（选项 `discard_pay` = one：只有放炮者付）；抢杠三家按自摸付（选项 `rob_kong_pay` = robbed：被抢者付三份）；付的人或胡的人是庄家再 ×2。德国的 +5：自摸、抢杠每家加，点炮只有放炮者加。\n"
                    "例：闲家平胡自摸，闲家各付 2，庄家付 4；平胡点炮，闲家放炮付 2（庄家放炮 4），闲家陪 1（庄家陪 2）。",
                    "**付分** 每家付 H × 倍數，再加德國的 5：自摸（含槓開）三家各 ×2；點炮放炮者 ×2、另兩家 ×1（選項 `discard_pay` = one：只有放炮者付）；搶槓三家按自摸付（選項 `rob_kong_pay` = robbed：被搶者付三份）；付的人或胡的人是莊家再 ×2。德國的 +5：自摸、搶槓每家加，點炮只有放炮者加。\n"
                    "例：閒家平胡自摸，閒家各付 2，莊家付 4；平胡點炮，閒家放炮付 2（莊家放炮 4），閒家陪 1（莊家陪 2）。",
                    "**Payment**: each payer pays H × factors, then 德国's +5: self-draw (杠开 too) each of the three ×2; a discard win the discarder ×2, the other two ×1 (option `discard_pay` = one: the discarder alone); robbing a kong as a self-draw (option `rob_kong_pay` = robbed: the robbed player pays the three shares); ×2 more when the payer or the winner is the dealer. 德国's +5: every payer of a self-draw or robbed kong, only the discarder of a discard win.\n"
                    "E.g. a non-dealer's plain self-draw costs each non-dealer 2 and the dealer 4; a plain discard win costs a non-dealer discarder 2 (a dealer 4), a non-dealer bystander 1 (a dealer 2).",
                )
            ),
        ),
    ),
    RulePage(
        Text(
            "help.nanchang.jing.title",
            "精分结算、杠分、选项",
            "精分結算、槓分、選項",
            "精 settlement, kong points, options",
        ),
        (
            HelpSection(
                Text(
                    "help.nanchang.jing.body",
                    "**精分** 每盘结束（荒庄也算，选项 `jing_on_draw`）每家都结算：手里和牌桌上每张正精 2 分、副精 1 分（打出去的不算，选项 `count_discarded_jing`），合计 s。\n"
                    "**冲关** s 到 5 以上得 s × (s − 3)：5→10，6→18，7→28，8→40，9→54，10→70。\n"
                    "**霸王精** 只有一家有精时翻倍（选项 `bawang` = plus10：加 10）。\n"
                    "每家从其他三家各收自己的精分（不算庄家加倍）。\n"
                    "**杠精** 杠出精牌另收每家 10，不算冲关、霸王精，也不再算杠分；杠里的精照样算精分。\n"
                    "**冲关包赔** 靠别人打出的精（吃碰杠来的，或胡的那张）才冲关时，由打出的人一人包赔三家（选项 `chongguan_liability`）。\n"
                    "**杠分** 明杠、补杠、暗杠每家付 2（选项 `kong_points` = 1/2：明杠 1、暗杠 2），荒庄也算（选项 `kong_points_on_draw`）。\n"
                    "**抄庄** 庄家赔每家 5（选项 `chaozhuang`）；**荒庄** 选项 `draw_penalty` 时庄家赔每家 5。",
                    "**精分** 每盤結束（荒莊也算，選項 `jing_on_draw`）每家都結算：手裡和牌桌上每張正精 2 分、副精 1 分（打出去的不算，選項 `count_discarded_jing`），合計 s。\n"
                    "**衝關** s 到 5 以上得 s × (s − 3)：5→10，6→18，7→28，8→40，9→54，10→70。\n"
                    "**霸王精** 只有一家有精時翻倍（選項 `bawang` = plus10：加 10）。\n"
                    "每家從其他三家各收自己的精分（不算莊家加倍）。\n"
                    "**槓精** 槓出精牌另收每家 10，不算衝關、霸王精，也不再算槓分；槓裡的精照樣算精分。\n"
                    "**衝關包賠** 靠別人打出的精（吃碰槓來的，或胡的那張）才衝關時，由打出的人一人包賠三家（選項 `chongguan_liability`）。\n"
                    "**槓分** 明槓、補槓、暗槓每家付 2（選項 `kong_points` = 1/2：明槓 1、暗槓 2），荒莊也算（選項 `kong_points_on_draw`）。\n"
                    "**抄莊** 莊家賠每家 5（選項 `chaozhuang`）；**荒莊** 選項 `draw_penalty` 時莊家賠每家 5。",
                    "**精 points**: at the end of every hand (drawn hands too, option `jing_on_draw`) every player settles: each 正精 held in hand or melds is 2, each 副精 1 (discarded ones do not count, option `count_discarded_jing`): s.\n"
                    "**冲关**: from s = 5 the amount is s × (s − 3): 5→10, 6→18, 7→28, 8→40, 9→54, 10→70.\n"
                    "**霸王精**: when only one player holds any 精, their amount doubles (option `bawang` = plus10: +10).\n"
                    "Each player receives their amount from each of the other three (no dealer doubling).\n"
                    "**杠精**: a declared kong of a 精 kind earns 10 from each, outside 冲关 and 霸王精 and instead of kong points; its tiles still count in s.\n"
                    "**冲关 liability**: a player who reaches 冲关 only thanks to another's discarded 精 (claimed into a meld, or the winning discard) is paid the whole amount by that player (option `chongguan_liability`).\n"
                    "**Kong points**: exposed, added and concealed kongs 2 from each (option `kong_points` = 1/2: exposed 1, concealed 2), drawn hands too (option `kong_points_on_draw`).\n"
                    "**抄庄**: the dealer pays 5 to each (option `chaozhuang`); **drawn hand**: under `draw_penalty` the dealer pays 5 to each.",
                )
            ),
            HelpSection(options=True),
        ),
    ),
)
