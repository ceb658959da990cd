"""新余麻将 rule pages of ``/mahjong help`` (帮助), as data: every text in 简体,
繁體 and English with a stable id (``i18n.t("engine.<id>", locale)``); scoring rows name
their item by the scoring-item catalogue (:data:`engine.variants.catalogue.NAMES`).

The values on the rows are the ones the engine scores (``tests/gamecogs/test_help_pages.py``
checks them against scored hands). Generated once from the former ``cogs/help_text.py``;
繁體 by OpenCC ``s2twp`` + ``i18n.po.REVIEWED_TERMS``, then reviewed.
"""

from __future__ import annotations

from engine.variants.base import HelpSection, RulePage, ScoringRow, Text
from engine.variants.catalogue import NAMES

#: The doublings (RULES §4.3), multiplied together.
SCORING_ROWS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["平胡"],
        Text("help.xinyu.scoring.pinghu", "没有任何一项", "沒有任何一項", "no item at all"),
        "1分",
    ),
    ScoringRow(
        NAMES["门清"],
        Text(
            "help.xinyu.scoring.menqing",
            "没有碰、杠、吃，自摸",
            "沒有碰、槓、吃，自摸",
            "no pong, kong or chi, self-drawn",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["开杠"],
        Text(
            "help.xinyu.scoring.kaigang",
            "本局开过杠（只算一次）",
            "本局開過槓（只算一次）",
            "declared a kong this hand (once)",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["七小对"], Text("help.xinyu.scoring.qixiaodui", "七对", "七對", "seven pairs"), "×4"
    ),
    ScoringRow(
        NAMES["豪华七小对"],
        Text(
            "help.xinyu.scoring.haohua_qixiaodui",
            "七对里有四张一样",
            "七對裡有四張一樣",
            "seven pairs with four of a kind",
        ),
        "×8",
    ),
    ScoringRow(
        NAMES["混一色"],
        Text(
            "help.xinyu.scoring.hunyise",
            "一门花色加字牌",
            "一門花色加字牌",
            "one suit with honours",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["清一色"],
        Text("help.xinyu.scoring.qingyise", "全是一门花色", "全是一門花色", "one suit only"),
        "×4",
    ),
    ScoringRow(
        NAMES["全风向"],
        Text(
            "help.xinyu.scoring.quanfengxiang",
            "全是字牌（不论牌型）",
            "全是字牌（不論牌型）",
            "all honours (any shape)",
        ),
        "×8",
    ),
    ScoringRow(
        NAMES["碰碰胡"],
        Text("help.xinyu.scoring.pengpenghu", "四组都是刻子/杠", "四組都是刻子/槓", "all pongs"),
        "×2",
    ),
    ScoringRow(
        NAMES["飞起来"],
        Text(
            "help.xinyu.scoring.feiqilai",
            "四组都碰/明杠出，单吊胡",
            "四組都碰/明槓出，單吊胡",
            "four exposed sets, single wait",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["杠上开花"],
        Text(
            "help.xinyu.scoring.gangshang_kaihua",
            "杠后补牌自摸",
            "槓後補牌自摸",
            "win on a kong replacement",
        ),
        "×2",
    ),
)

#: The pages, in order: the rules, then scoring, payment and the options.
PAGES: tuple[RulePage, ...] = (
    RulePage(
        Text("help.xinyu.play.title", "打法与胡牌", "打法與胡牌", "Play and winning"),
        (
            HelpSection(
                Text(
                    "help.xinyu.play.body",
                    "136 张。**不能吃**，可以碰、杠（明杠、补杠、暗杠），杠后从牌尾补牌。\n**只能自摸**；选项 `discard_win` 允许点胡（可一炮多响）。\n**庄家** 第一盘 0 号座位坐庄；胡者下一盘坐庄（多人胡时按出牌者下家顺序第一位）；流局后由选项 `draw_dealer` 决定（默认下家坐庄）。\n**流局** 摸完第 120 张牌并打出仍无人胡时荒牌，牌墙留 16 张；补牌也计入 120。\n**牌型** 标准 4 组 + 1 对（字牌只能成刻）；七对、豪华七对（有四张一样）；**全风向**：不碰不杠、14 张全是字牌，不论牌型都可以胡。",
                    "136 張。**不能吃**，可以碰、槓（明槓、補槓、暗槓），槓後從牌尾補牌。\n**只能自摸**；選項 `discard_win` 允許點胡（可一炮多響）。\n**莊家** 第一盤 0 號座位坐莊；胡者下一盤坐莊（多人胡時按出牌者下家順序第一位）；流局後由選項 `draw_dealer` 決定（預設下家坐莊）。\n**流局** 摸完第 120 張牌並打出仍無人胡時荒牌，牌牆留 16 張；補牌也計入 120。\n**牌型** 標準 4 組 + 1 對（字牌只能成刻）；七對、豪華七對（有四張一樣）；**全風向**：不碰不槓、14 張全是字牌，不論牌型都可以胡。",
                    "136 tiles. **No chi**; pong and kong (exposed, added, concealed); a kong's replacement comes from the tail of the wall.\n**Self-draw only**; the option `discard_win` allows wins on discards (several winners at once).\n**Dealer**: seat 0 deals the first hand; the winner deals next (with several, the first in play order from the discarder); after a draw, option `draw_dealer` (default: the dealer's 下家).\n**Draw**: the hand is drawn when the 120th tile has been drawn and discarded with no win: 16 tiles stay in the wall; replacement draws count toward the 120.\n**Shapes**: standard 4 sets + a pair (honours only in triplets); seven pairs, luxury seven pairs (four alike); **全风向**: no pong or kong and all 14 tiles honours wins whatever its shape.",
                )
            ),
        ),
    ),
    RulePage(
        Text(
            "help.xinyu.scoring.title",
            "计分、付分、选项",
            "計分、付分、選項",
            "Scoring, payment, options",
        ),
        (
            HelpSection(
                Text(
                    "help.xinyu.scoring.head",
                    "底分 1，每项是一个倍数，**所有项相乘**（加番 = 倍数相乘）。同一组（七对类；混一色/清一色/全风向）只算最大的一项。没有任何项时为平胡 1 分。",
                    "底分 1，每項是一個倍數，**所有項相乘**（加番 = 倍數相乘）。同一組（七對類；混一色/清一色/全風向）只算最大的一項。沒有任何項時為平胡 1 分。",
                    "Base 1 point; each item is a multiplier and **all of them multiply**. Within one group (the seven-pairs items; 混一色 / 清一色 / 全风向) only the largest counts. A hand with no item is a basic win worth 1.",
                ),
                rows=SCORING_ROWS,
            ),
            HelpSection(
                Text(
                    "help.xinyu.payment.body",
                    "**付分** 自摸：其他三家各付 1 × 乘积。`discard_win` 下点炮：放炮者一人付。\n**杠钱** 开杠当时，其他每家付杠主：明杠、补杠 1 分，暗杠 2 分；不论谁胡、流局也算。",
                    "**付分** 自摸：其他三家各付 1 × 乘積。`discard_win` 下點炮：放炮者一人付。\n**槓錢** 開槓當時，其他每家付槓主：明槓、補槓 1 分，暗槓 2 分；不論誰胡、流局也算。",
                    "**Payment**: self-draw: each of the three others pays 1 × the product. A discard win under `discard_win`: the discarder alone pays.\n**Kong money**: when a kong is declared each other player pays its owner 1 point (exposed or added kong) or 2 (concealed), whoever wins, even in a drawn hand.",
                )
            ),
            HelpSection(options=True),
        ),
    ),
)
