"""九江麻将 rule pages of ``/mahjong help`` (帮助), as data: every text in 简体,
繁體 and English with a stable id (``i18n.t("engine.<id>", locale)``); scoring rows name
their item by the scoring-item catalogue (:data:`engine.variants.catalogue.NAMES`).

The values on the rows are the ones the engine scores (``tests/gamecogs/test_help_pages.py``
checks them against scored hands). Generated once from the former ``cogs/help_text.py``;
繁體 by OpenCC ``s2twp`` + ``i18n.po.REVIEWED_TERMS``, then reviewed.
"""

from __future__ import annotations

from engine.variants.base import HelpSection, RulePage, ScoringRow, Text
from engine.variants.catalogue import NAMES

#: A small hand's items (RULES §5.3), added up in 炮.
SMALL_ROWS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["点炮"],
        Text("help.jiujiang.small.dianpao", "胡别人打的牌", "胡別人打的牌", "won on a discard"),
        "+1炮",
    ),
    ScoringRow(
        NAMES["自摸"], Text("help.jiujiang.small.zimo", "自摸", "自摸", "self-drawn"), "+2炮"
    ),
    ScoringRow(
        NAMES["抢杠"],
        Text(
            "help.jiujiang.small.qianggang",
            "抢杠（按自摸算）",
            "搶槓（按自摸算）",
            "robbing a kong (as self-drawn)",
        ),
        "+2炮",
    ),
    ScoringRow(
        NAMES["门清"],
        Text(
            "help.jiujiang.small.menqing", "没有碰、明杠", "沒有碰、明槓", "no pong or exposed kong"
        ),
        "+1炮",
    ),
    ScoringRow(
        NAMES["独听"],
        Text(
            "help.jiujiang.small.dutin",
            "只听一种牌（边、卡、单钓）",
            "只聽一種牌（邊、卡、單釣）",
            "a single winning kind (edge, closed, pair)",
        ),
        "+1炮",
    ),
    ScoringRow(
        NAMES["兴家"],
        Text("help.jiujiang.small.xingjia", "亮出的每张发", "亮出的每張發", "each 发 laid open"),
        "+1炮",
    ),
    ScoringRow(
        NAMES["明杠"],
        Text(
            "help.jiujiang.small.minggang",
            "明杠 +1，中/白明杠 +3",
            "明槓 +1，中/白明槓 +3",
            "exposed kong +1, of 中/白 +3",
        ),
        "+1炮",
    ),
    ScoringRow(
        NAMES["暗杠"],
        Text(
            "help.jiujiang.small.angang",
            "暗杠 +2，中/白暗杠 +4",
            "暗槓 +2，中/白暗槓 +4",
            "concealed kong +2, of 中/白 +4",
        ),
        "+2炮",
    ),
    ScoringRow(
        NAMES["碰"],
        Text(
            "help.jiujiang.small.peng",
            "中/白碰出（或点炮成刻）",
            "中/白碰出（或點炮成刻）",
            "pong of 中/白 (or completed by the discard)",
        ),
        "+1炮",
    ),
    ScoringRow(
        NAMES["暗刻"],
        Text("help.jiujiang.small.anke", "中/白暗刻", "中/白暗刻", "concealed triplet of 中/白"),
        "+2炮",
    ),
)

#: The big hands (花牌, RULES §5.3): +10 炮 each.
BIG_ROWS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["清一色"],
        Text("help.jiujiang.big.qingyise", "全是一门花色", "全是一門花色", "one suit only"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["混一色"],
        Text(
            "help.jiujiang.big.hunyise",
            "一门花色加中/白（臭一色）",
            "一門花色加中/白（臭一色）",
            "one suit with 中/白",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["碰碰胡"],
        Text("help.jiujiang.big.pengpenghu", "四组都是刻子/杠", "四組都是刻子/槓", "all pongs"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["七对"],
        Text("help.jiujiang.big.qidui", "七个对子", "七個對子", "seven pairs"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["豪华七对"],
        Text(
            "help.jiujiang.big.haohua_qidui",
            "每个四张一样再 +10",
            "每個四張一樣再 +10",
            "+10 more per four of a kind",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["七仙女"],
        Text(
            "help.jiujiang.big.qixiannu",
            "同一门连续七对（1–7/2–8/3–9）",
            "同一門連續七對（1–7/2–8/3–9）",
            "seven pairs running in one suit",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["一条龙"],
        Text("help.jiujiang.big.yitiaolong", "同一门 1–9", "同一門 1–9", "1–9 of one suit"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["全求人"],
        Text(
            "help.jiujiang.big.quanqiuren",
            "四组都吃碰出，点炮单吊",
            "四組都吃碰出，點炮單吊",
            "every set exposed, won on a discard",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["红旗飘飘"],
        Text(
            "help.jiujiang.big.hongqi",
            "中、白都成刻/杠",
            "中、白都成刻/槓",
            "triplets of both 中 and 白",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["天胡"],
        Text("help.jiujiang.big.tianhu", "庄家起手胡", "莊家起手胡", "dealer wins on the deal"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["地胡"],
        Text(
            "help.jiujiang.big.dihu",
            "闲家胡庄家打出的第一张",
            "閒家胡莊家打出的第一張",
            "a non-dealer wins on the dealer's first discard",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["杠上开花"],
        Text(
            "help.jiujiang.big.gangshang_kaihua",
            "杠后补牌自摸",
            "槓後補牌自摸",
            "win on a kong replacement",
        ),
        "+10炮",
    ),
    ScoringRow(
        NAMES["海底捞针"],
        Text("help.jiujiang.big.haidi", "摸最后一张自摸", "摸最後一張自摸", "win on the last tile"),
        "+10炮",
    ),
    ScoringRow(
        NAMES["报听"],
        Text("help.jiujiang.big.baoting", "报听后胡", "報聽後胡", "won after declaring ready"),
        "+10炮",
    ),
)

#: The pages, in order: the rules, scoring, then payment and the options.
PAGES: tuple[RulePage, ...] = (
    RulePage(
        Text("help.jiujiang.play.title", "打法", "打法", "Play"),
        (
            HelpSection(
                Text(
                    "help.jiujiang.play.body",
                    "**120 张**：万、筒、条和中、发、白各 4 张，没有风牌。\n**发是兴家** 发不留在手里：发牌时和摸到时亮在自己面前，从牌尾补一张。中、白是普通牌。\n**不能吃**（选项 `chi` 可开），可以碰、杠。可点炮胡、自摸，也有抢杠、杠上开花、杠上放炮、海底捞针、海底放炮。一张牌多人胡时按出牌者下家顺序第一位。\n**庄家** 谁胡谁做庄；流局庄家连庄。\n**碰后摸到第四张** 不能打出：要么杠，要么能胡就胡。\n**报听** 庄家起手、闲家第一次摸牌（或摸牌前碰牌）时可报听；之后手牌锁定，摸到的牌不能胡或不能合规杠就打出。报听的人放过一张能胡的牌后，到自己下次摸牌前不能再胡别人的牌。\n**跟庄** 另外三家紧接着都打出和庄家第一张相同的牌：下一盘每炮 ×2（若是中/白或庄家第二张也被跟，×4）。**黄庄** 流局后下一盘每炮 ×2，连续两次 ×4。庄家不变时一直保持，换庄后回到每炮 1。",
                    "**120 張**：萬、筒、條和中、發、白各 4 張，沒有風牌。\n**發是興家** 發不留在手裡：發牌時和摸到時亮在自己面前，從牌尾補一張。中、白是普通牌。\n**不能吃**（選項 `chi` 可開），可以碰、槓。可點炮胡、自摸，也有搶槓、槓上開花、槓上放炮、海底撈針、海底放炮。一張牌多人胡時按出牌者下家順序第一位。\n**莊家** 誰胡誰做莊；流局莊家連莊。\n**碰後摸到第四張** 不能打出：要麼槓，要麼能胡就胡。\n**報聽** 莊家起手、閒家第一次摸牌（或摸牌前碰牌）時可報聽；之後手牌鎖定，摸到的牌不能胡或不能合規槓就打出。報聽的人放過一張能胡的牌後，到自己下次摸牌前不能再胡別人的牌。\n**跟莊** 另外三家緊接著都打出和莊家第一張相同的牌：下一盤每炮 ×2（若是中/白或莊家第二張也被跟，×4）。**黃莊** 流局後下一盤每炮 ×2，連續兩次 ×4。莊家不變時一直保持，換莊後回到每炮 1。",
                    "**120 tiles**: the three suits and 中 发 白, 4 of each; no winds.\n**发 are flowers (兴家)**: a 发 is never kept: when dealt or drawn it is laid open and replaced from the tail of the wall. 中 and 白 are ordinary tiles.\n**No chi** (option `chi` allows it); pong and kong. Wins on a discard and by self-draw, also robbing a kong, 杠上开花, 杠上放炮, 海底捞针 (last tile) and 海底放炮. One winner per discard: the first in play order from the discarder.\n**Dealer**: the winner deals next; after a draw the dealer keeps the deal.\n**After a pong, the 4th tile** may not be discarded: kong it, or win with it.\n**报听 (declare ready)**: the dealer with the 14 dealt tiles, or a non-dealer at the first draw (or a pong before it), may declare ready; the hand is then locked and each drawn tile is discarded unless it wins or makes a legal kong. A ready player who passes a winnable discard may not win on a discard until their next draw.\n**跟庄**: if the three others each discard the dealer's first discard right after it, the next hand is worth ×2 per 炮 (×4 for 中/白 or when the second discard is followed too). **黄庄**: a drawn hand doubles the next hand per 炮; two in a row ×4. Raised values stay while the dealer keeps the deal.",
                )
            ),
        ),
    ),
    RulePage(
        Text(
            "help.jiujiang.scoring.title",
            "计分：小牌与大牌",
            "計分：小牌與大牌",
            "Scoring: small and big hands",
        ),
        (
            HelpSection(
                Text(
                    "help.jiujiang.small.head",
                    "计分单位是**炮**。**小牌（平胡）**各项相加，必须**至少 2 炮**才能胡（二炮起胡）：",
                    "計分單位是**炮**。**小牌（平胡）**各項相加，必須**至少 2 炮**才能胡（二炮起胡）：",
                    "The unit is the **炮**. **Small hand (平胡)**: the items add up, and it needs **at least 2 炮** to be a win:",
                ),
                rows=SMALL_ROWS,
                preset="small",
            ),
            HelpSection(
                Text(
                    "help.jiujiang.big.head",
                    "**大牌（花牌，见花十炮）**每有一项 +10 炮，可以相加（清一色碰碰胡 = 20）。有大牌时自摸、门清、独听各 +5；发、杠、中白照小牌计；点炮的 1 炮不再加。",
                    "**大牌（花牌，見花十炮）**每有一項 +10 炮，可以相加（清一色碰碰胡 = 20）。有大牌時自摸、門清、獨聽各 +5；發、槓、中白照小牌計；點炮的 1 炮不再加。",
                    "**Big hands (花牌)**: each named hand adds **10 炮** and they add up (清一色碰碰胡 = 20). With a big hand, self-draw, 门清 and 独听 are +5 each; 发, kongs and 中/白 keep their small values; the discard's 1 炮 is not added.",
                ),
                rows=BIG_ROWS,
                preset="big",
            ),
        ),
    ),
    RulePage(
        Text(
            "help.jiujiang.payment.title",
            "吃兴家、付分、选项",
            "吃興家、付分、選項",
            "Extras, payment, options",
        ),
        (
            HelpSection(
                Text(
                    "help.jiujiang.payment.body",
                    "**吃兴家** 胡牌后每个付分的输家还要为**自己的**兴家多付：每张发 +1，明杠/暗杠 +1/+2，中白 碰 +1、明杠 +3、暗杠 +4。\n**付分** 自摸：三家各付（赢家炮数 + 自己的兴家）× 每炮分值。点炮（含杠上放炮、海底放炮）：放炮者一人付。抢杠：被抢者一人付，按自摸算。",
                    "**吃興家** 胡牌後每個付分的輸家還要為**自己的**興家多付：每張發 +1，明槓/暗槓 +1/+2，中白 碰 +1、明槓 +3、暗槓 +4。\n**付分** 自摸：三家各付（贏家炮數 + 自己的興家）× 每炮分值。點炮（含槓上放炮、海底放炮）：放炮者一人付。搶槓：被搶者一人付，按自摸算。",
                    "**吃兴家**: after the win each paying loser adds their **own** extras: +1 per 发 laid open, +1 / +2 per exposed / concealed kong, 中/白 pong +1, exposed kong +3, concealed kong +4.\n**Payment**: self-draw: each of the three pays (the winner's 炮 + their own extras) × the value per 炮. A discard win (also 杠上放炮, 海底放炮): the discarder alone pays. Robbing a kong: the robbed player alone pays, valued as self-drawn.",
                )
            ),
            HelpSection(options=True),
        ),
    ),
)
