"""上饶麻将 rule pages of ``/mahjong help`` (帮助), as data: every text in 简体,
繁體 and English with a stable id (``i18n.t("engine.<id>", locale)``); scoring rows name
their item by the scoring-item catalogue (:data:`engine.variants.catalogue.NAMES`).

The values on the rows are the ones the engine scores (``tests/gamecogs/test_help_pages.py``
checks them against scored hands). Generated once from the former ``cogs/help_text.py``;
繁體 by OpenCC ``s2twp`` + ``i18n.po.REVIEWED_TERMS``, then reviewed.
"""

from __future__ import annotations

from engine.variants.base import HelpSection, RulePage, ScoringRow, TableRow, Text
from engine.variants.catalogue import NAMES
from engine.variants.shangrao.scoring import CLASSIC

#: The columns of the ``classic`` points table (RULES §3.5): 宝吊 / 无宝 / 有宝.
COLUMNS: tuple[Text, ...] = (
    Text("help.shangrao.classic.col.baodiao", "宝吊", "寶吊", "宝吊"),
    Text("help.shangrao.classic.col.wubao", "无宝", "無寶", "no 宝"),
    Text("help.shangrao.classic.col.youbao", "有宝", "有寶", "宝 in use"),
)


def _table_row(name: str, row: tuple[int | None, int, int, bool]) -> TableRow:
    """One row of the ``classic`` table, read from the scorer's own :data:`CLASSIC`."""
    cells = tuple((col, v) for col, v in zip(COLUMNS, row[:3], strict=True) if v is not None)
    return TableRow(NAMES[name], cells, legal=row[3])


#: The ``classic`` points table, generated from the engine's :data:`CLASSIC`.
CLASSIC_TABLE: tuple[TableRow, ...] = tuple(_table_row(n, r) for n, r in CLASSIC.items())

#: Extra items of the ``classic`` preset (beside the table rows).
CLASSIC_EXTRAS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["飞宝"],
        Text(
            "help.shangrao.classic.feibao",
            "每打出一张宝 ×2，并使「不成胡」的有宝牌可胡",
            "每打出一張寶 ×2，並使「不成胡」的有寶牌可胡",
            "×2 per 宝 discarded; makes ✗ legal",
        ),
        "×2ⁿ",
    ),
    ScoringRow(
        NAMES["豪华"],
        Text(
            "help.shangrao.classic.haohua",
            "七对里每个四张一样 ×2",
            "七對裡每個四張一樣 ×2",
            "×2 per four of a kind in 七对",
        ),
        "×2ⁿ",
    ),
    ScoringRow(
        NAMES["长九幺"],
        Text(
            "help.shangrao.classic.chang_jiuyao",
            "九幺/七星九幺没有碰杠",
            "九幺/七星九幺沒有碰槓",
            "九幺 with no pong or kong",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["豪华长九幺"],
        Text(
            "help.shangrao.classic.haohua_chang_jiuyao",
            "长九幺里有四张一样",
            "長九幺裡有四張一樣",
            "长九幺 with four of a kind",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["杠上开花"],
        Text(
            "help.shangrao.classic.gangshang_kaihua",
            "杠后补牌自摸（只算一次）",
            "槓後補牌自摸（只算一次）",
            "win on a kong draw (once)",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["天胡"],
        Text(
            "help.shangrao.classic.tianhu",
            "庄家起手胡，或牌型分更高时按牌型",
            "莊家起手胡，或牌型分更高時按牌型",
            "dealer wins on the deal, or the hand",
        ),
        "16分",
    ),
    ScoringRow(
        NAMES["地胡"],
        Text(
            "help.shangrao.classic.dihu",
            "闲家胡庄家第一张，或按牌型",
            "閒家胡莊家第一張，或按牌型",
            "non-dealer wins the first discard",
        ),
        "16分",
    ),
    ScoringRow(
        NAMES["接宝"],
        Text(
            "help.shangrao.classic.jiebao",
            "接宝即胡（选项 jiebao_points），或按牌型",
            "接寶即胡（選項 jiebao_points），或按牌型",
            "接宝 (option jiebao_points)",
        ),
        "16分",
    ),
    ScoringRow(
        NAMES["四个宝"],
        Text(
            "help.shangrao.classic.sigebao",
            "四个宝即胡（同上）",
            "四個寶即胡（同上）",
            "all four 宝 (likewise)",
        ),
        "16分",
    ),
)

#: The ``xingchen`` multipliers (RULES §3.6).
XINGCHEN_ROWS: tuple[ScoringRow, ...] = (
    ScoringRow(
        NAMES["平胡自摸"],
        Text(
            "help.shangrao.xingchen.pinghu_zimo",
            "平胡，没有宝当万能牌",
            "平胡，沒有寶當萬能牌",
            "basic win, no wildcard in use",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["宝吊头"],
        Text(
            "help.shangrao.xingchen.baodiaotou",
            "宝吊：任何一张都胡",
            "寶吊：任何一張都胡",
            "宝 pair-wait: any tile wins",
        ),
        "×3",
    ),
    ScoringRow(
        NAMES["宝吊无宝"],
        Text(
            "help.shangrao.xingchen.baodiao_wubao",
            "偷机后宝作本身成对/刻",
            "偷機後寶作本身成對/刻",
            "after 偷机, the 宝 end as themselves",
        ),
        "×6",
    ),
    ScoringRow(
        NAMES["宝吊宝"],
        Text(
            "help.shangrao.xingchen.baodiaobao",
            "偷机后摸到另一张宝",
            "偷機後摸到另一張寶",
            "after 偷机, won on another 宝",
        ),
        "×6",
    ),
    ScoringRow(
        NAMES["碰碰胡"],
        Text(
            "help.shangrao.xingchen.pengpenghu",
            "碰碰胡（用了宝）",
            "碰碰胡（用了寶）",
            "all pongs, 宝 in use",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["清碰碰胡"],
        Text(
            "help.shangrao.xingchen.qing_pengpenghu",
            "碰碰胡，不用宝",
            "碰碰胡，不用寶",
            "all pongs, no wildcard",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["碰碰胡宝吊头"],
        Text(
            "help.shangrao.xingchen.pengpenghu_baodiaotou",
            "碰碰胡加宝吊",
            "碰碰胡加寶吊",
            "all pongs with a 宝 pair-wait",
        ),
        "×8",
    ),
    ScoringRow(
        NAMES["碰碰胡宝吊无宝"],
        Text(
            "help.shangrao.xingchen.pengpenghu_baodiao_wubao",
            "碰碰胡宝吊无宝（偷机）",
            "碰碰胡寶吊無寶（偷機）",
            "all pongs, 宝吊无宝 (偷机)",
        ),
        "×16",
    ),
    ScoringRow(
        NAMES["碰碰胡宝吊宝"],
        Text(
            "help.shangrao.xingchen.pengpenghu_baodiaobao",
            "碰碰胡宝吊宝（偷机）",
            "碰碰胡寶吊寶（偷機）",
            "all pongs, 宝吊宝 (偷机)",
        ),
        "×16",
    ),
    ScoringRow(
        NAMES["平胡有宝"],
        Text(
            "help.shangrao.xingchen.pinghu_youbao",
            "用宝的平胡：须宝吊或飞宝才能胡",
            "用寶的平胡：須寶吊或飛寶才能胡",
            "宝 in use: needs 宝吊 or 飞宝",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["七对"],
        Text(
            "help.shangrao.xingchen.qidui",
            "七对（用了宝）",
            "七對（用了寶）",
            "seven pairs, 宝 in use",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["清七对"],
        Text(
            "help.shangrao.xingchen.qing_qidui",
            "七对，不用宝",
            "七對，不用寶",
            "seven pairs, no wildcard",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["豪华七对"],
        Text(
            "help.shangrao.xingchen.haohua_qidui",
            "有四张一样的七对（用了宝）",
            "有四張一樣的七對（用了寶）",
            "luxury seven pairs, 宝 in use",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["清豪华七对"],
        Text(
            "help.shangrao.xingchen.qing_haohua_qidui",
            "有四张一样的七对，不用宝",
            "有四張一樣的七對，不用寶",
            "luxury seven pairs, no wildcard",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["豪华"],
        Text(
            "help.shangrao.xingchen.haohua",
            "豪华七对：每个四张一样再 ×2",
            "豪華七對：每個四張一樣再 ×2",
            "luxury: ×2 per four of a kind",
        ),
        "×2ⁿ",
    ),
    ScoringRow(
        NAMES["十三浪有宝"],
        Text(
            "help.shangrao.xingchen.shisanlang_youbao",
            "十三浪（用了宝）",
            "十三浪（用了寶）",
            "十三浪 with 宝 in use",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["十三浪"],
        Text(
            "help.shangrao.xingchen.shisanlang",
            "十三浪，不用宝",
            "十三浪，不用寶",
            "十三浪, no wildcard",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["七星十三浪有宝"],
        Text(
            "help.shangrao.xingchen.qixing_shisanlang_youbao",
            "七星十三浪（用了宝）",
            "七星十三浪（用了寶）",
            "seven-star 十三浪, 宝 in use",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["七星十三浪"],
        Text(
            "help.shangrao.xingchen.qixing_shisanlang",
            "七星十三浪，不用宝",
            "七星十三浪，不用寶",
            "seven-star 十三浪, no wildcard",
        ),
        "×8",
    ),
    ScoringRow(
        NAMES["九幺有宝"],
        Text(
            "help.shangrao.xingchen.jiuyao_youbao",
            "九幺（用了宝）",
            "九幺（用了寶）",
            "九幺 with 宝 in use",
        ),
        "×2",
    ),
    ScoringRow(
        NAMES["九幺"],
        Text("help.shangrao.xingchen.jiuyao", "九幺，不用宝", "九幺，不用寶", "九幺, no wildcard"),
        "×4",
    ),
    ScoringRow(
        NAMES["七星九幺有宝"],
        Text(
            "help.shangrao.xingchen.qixing_jiuyao_youbao",
            "七星九幺（用了宝）",
            "七星九幺（用了寶）",
            "seven-star 九幺, 宝 in use",
        ),
        "×4",
    ),
    ScoringRow(
        NAMES["七星九幺"],
        Text(
            "help.shangrao.xingchen.qixing_jiuyao",
            "七星九幺，不用宝",
            "七星九幺，不用寶",
            "seven-star 九幺, no wildcard",
        ),
        "×8",
    ),
    ScoringRow(
        NAMES["天胡"],
        Text(
            "help.shangrao.xingchen.tianhu",
            "天胡，或牌型分更高时按牌型",
            "天胡，或牌型分更高時按牌型",
            "heavenly hand, or the hand if higher",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["地胡"],
        Text(
            "help.shangrao.xingchen.dihu",
            "地胡，或牌型分更高时按牌型",
            "地胡，或牌型分更高時按牌型",
            "earthly hand, or the hand if higher",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["接宝"],
        Text(
            "help.shangrao.xingchen.jiebao",
            "接宝（选项 jiebao_points），或按牌型",
            "接寶（選項 jiebao_points），或按牌型",
            "接宝 (option jiebao_points)",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["四个宝"],
        Text(
            "help.shangrao.xingchen.sigebao",
            "四个宝（同上）",
            "四個寶（同上）",
            "all four 宝 (likewise)",
        ),
        "×10",
    ),
    ScoringRow(
        NAMES["抢杠"],
        Text(
            "help.shangrao.xingchen.qianggang",
            "抢杠：整手 ×6，被抢者全付",
            "搶槓：整手 ×6，被搶者全付",
            "robbing a kong: ×6, the robbed pays",
        ),
        "×6",
    ),
    ScoringRow(
        NAMES["杠上开花"],
        Text(
            "help.shangrao.xingchen.gangshang_kaihua",
            "杠开：连续 n 次杠",
            "槓開：連續 n 次槓",
            "win on a kong draw, n kongs in a row",
        ),
        "×2ⁿ",
    ),
    ScoringRow(
        NAMES["飞宝"],
        Text(
            "help.shangrao.xingchen.feibao",
            "每打出一张宝 ×2",
            "每打出一張寶 ×2",
            "×2 per 宝 discarded",
        ),
        "×2ⁿ",
    ),
)

#: The pages, in order: the rules, then scoring and payment (the last ends with the options).
PAGES: tuple[RulePage, ...] = (
    RulePage(
        Text("help.shangrao.tiles.title", "牌与宝牌", "牌與寶牌", "Tiles and the 宝 wildcard"),
        (
            HelpSection(
                Text(
                    "help.shangrao.tiles.body",
                    "136 张（万、筒、条、风、箭），四人。可以吃、碰、杠；优先级 胡 > 杠 = 碰 > 吃。\n**庄家** 第一盘掷骰点数最大者坐庄；庄家胡连庄，闲家胡则胡者坐庄，流局下家坐庄。\n**宝牌** 发牌后翻出一张**指示牌**（跌宝牌），它的下一种牌就是**宝**，四张宝都是万能牌。顺序：同花色 1→2→…→9→1；东→南→西→北→东；中→发→白→中（如指示 9万 → 宝 1万，北 → 东，白 → 中）。指示牌留在桌上不会被摸到，剩下的三张可以当杠（三张，不补牌）。\n宝可以当**任何**牌用，也可以当它本身。宝不能被吃、碰、杠。\n**飞宝** 打出一张宝叫飞宝；每飞一张宝，之后胡牌分数 ×2。\n**流局** 牌墙只剩指示牌、没有可摸的牌时荒庄；杠的补牌从牌尾摸。",
                    "136 張（萬、筒、條、風、箭），四人。可以吃、碰、槓；優先順序 胡 > 槓 = 碰 > 吃。\n**莊家** 第一盤擲骰點數最大者坐莊；莊家胡連莊，閒家胡則胡者坐莊，流局下家坐莊。\n**寶牌** 發牌後翻出一張**指示牌**（跌寶牌），它的下一種牌就是**寶**，四張寶都是萬能牌。順序：同花色 1→2→…→9→1；東→南→西→北→東；中→發→白→中（如指示 9萬 → 寶 1萬，北 → 東，白 → 中）。指示牌留在桌上不會被摸到，剩下的三張可以當槓（三張，不補牌）。\n寶可以當**任何**牌用，也可以當它本身。寶不能被吃、碰、槓。\n**飛寶** 打出一張寶叫飛寶；每飛一張寶，之後胡牌分數 ×2。\n**流局** 牌牆只剩指示牌、沒有可摸的牌時荒莊；槓的補牌從牌尾摸。",
                    "136 tiles (characters, dots, bamboo, winds, dragons), 4 players. Chi, pong and kong are allowed; priority win > kong = pong > chi.\n**Dealer**: in the first hand the highest dice roll deals; the dealer keeps the deal on a win, a non-dealer winner deals next, after a draw the dealer's 下家 deals.\n**The 宝**: after the deal a tile is turned up, the **indicator**; the kind after it is the **宝**, and all 4 tiles of it are wildcards. Order: 1→2→…→9→1 in a suit; E→S→W→N→E; 中→发→白→中 (indicator 9m → 宝 1m, N → E, 白 → 中). The indicator stays on the table and is never drawn; the other three of its kind may be declared as a kong (three tiles, no replacement).\nA 宝 stands for **any** tile, or for itself. Nobody may chi, pong or kong a 宝.\n**飞宝**: discarding a 宝. Each 宝 you have discarded doubles your win.\n**Draw**: the hand is drawn when only the indicator is left; kong replacements come from the tail of the wall.",
                )
            ),
        ),
    ),
    RulePage(
        Text("help.shangrao.winning.title", "怎么胡", "怎麼胡", "How to win"),
        (
            HelpSection(
                Text(
                    "help.shangrao.winning.body",
                    "**自摸**胡（含杠上开花）。别人打的牌只有这些情况能胡：**地胡**（闲家胡庄家第一张）、**抢杠**、**接宝**；选项 `discard_win` 可允许点炮胡。一张牌多人要胡时，按出牌者下家顺序第一位胡。\n**牌型** 平胡（4 组 + 1 对）；七对（有四张一样为豪华七对）；碰碰胡；十三烂（14 张各不同，同花色相差 ≥3，字牌各不同；七种字全有为七星十三烂）；九幺（全是 1、9 和字牌，不论牌型；无碰杠为长九幺；七种字全有为七星九幺）。可与清一色组合，字一色算清一色。宝在任何牌型里都能替代。\n**宝吊头** 手牌去掉一张宝已成型只差将，摸任何牌都胡。\n**偷机** 宝吊头时可不胡、打牌继续摸，博宝吊宝/宝吊无宝（按钮「偷机」）。\n**接宝** 本盘摸过三张宝的人，别人打出宝时可接宝直接胡，不论牌型。**四个宝** 摸到全部四张宝直接胡。\n**起胡** classic：有宝的平胡、十三烂、九幺（表中 ✗）不能胡，除非飞过宝；xingchen：用宝的平胡不能胡，除非宝吊或飞宝。",
                    "**自摸**胡（含槓上開花）。別人打的牌只有這些情況能胡：**地胡**（閒家胡莊家第一張）、**搶槓**、**接寶**；選項 `discard_win` 可允許點炮胡。一張牌多人要胡時，按出牌者下家順序第一位胡。\n**牌型** 平胡（4 組 + 1 對）；七對（有四張一樣為豪華七對）；碰碰胡；十三爛（14 張各不同，同花色相差 ≥3，字牌各不同；七種字全有為七星十三爛）；九幺（全是 1、9 和字牌，不論牌型；無碰槓為長九幺；七種字全有為七星九幺）。可與清一色組合，字一色算清一色。寶在任何牌型裡都能替代。\n**寶吊頭** 手牌去掉一張寶已成型只差將，摸任何牌都胡。\n**偷機** 寶吊頭時可不胡、打牌繼續摸，博寶吊寶/寶吊無寶（按鈕「偷機」）。\n**接寶** 本盤摸過三張寶的人，別人打出寶時可接寶直接胡，不論牌型。**四個寶** 摸到全部四張寶直接胡。\n**起胡** classic：有寶的平胡、十三爛、九幺（表中 ✗）不能胡，除非飛過寶；xingchen：用寶的平胡不能胡，除非寶吊或飛寶。",
                    "Win by **self-draw** (including a kong replacement). A discard can be won only by **地胡** (a non-dealer on the dealer's first discard), **robbing a kong** or **接宝**; the option `discard_win` allows any discard. With several claims, the first in play order from the discarder wins.\n**Shapes**: 平胡 (4 sets + a pair); 七对 seven pairs (four alike: 豪华七对); 碰碰胡 all pongs; 十三烂 (14 different tiles, same-suit tiles ≥3 apart, honours all different; all 7 honours: 七星十三烂); 九幺 (only 1s, 9s and honours, any shape; with no pong or kong 长九幺; all 7 honours 七星九幺). They combine with 清一色 (one suit; all honours counts as one suit). A 宝 may stand in for a tile in every shape.\n**宝吊头**: without one 宝 the hand is complete but for its pair, so any tile wins.\n**偷机**: in 宝吊头 you may decline the win and keep drawing (the **Keep drawing** button), hoping for 宝吊宝 / 宝吊无宝.\n**接宝**: a player who drew 3 宝 this hand may take a discarded 宝 and win at once, whatever the shape. **四个宝**: drawing all four 宝 wins at once.\n**Minimum**: classic: 平胡, 十三烂 and 九幺 with a 宝 in use (✗ in the table) are not a win unless you have flown a 宝; xingchen: a 平胡 with a wildcard in use needs 宝吊 or 飞宝.",
                )
            ),
        ),
    ),
    RulePage(
        Text(
            "help.shangrao.classic.title", "计分 · classic", "計分 · classic", "Scoring · classic"
        ),
        (
            HelpSection(
                Text(
                    "help.shangrao.classic.head",
                    "**classic**（默认，百科分数表）：每家付的分。宝吊 = 宝吊头；无宝 = 14 张里没有宝；有宝 = 宝当万能牌用；✗ = 不能胡（除非飞宝）。",
                    "**classic**（預設，百科分數表）：每家付的分。寶吊 = 寶吊頭；無寶 = 14 張裡沒有寶；有寶 = 寶當萬能牌用；✗ = 不能胡（除非飛寶）。",
                    "**classic** (default, the encyclopedia table): points each loser pays. 宝吊 = 宝 pair-wait; no 宝 = no 宝 among the 14; 宝 in use = a 宝 as a wildcard; ✗ = not a legal win (unless 飞宝).",
                ),
                table=CLASSIC_TABLE,
                preset="classic",
            ),
        ),
        fields=(
            HelpSection(
                Text(
                    "help.shangrao.classic.extras",
                    "另外翻倍与保底",
                    "另外翻倍與保底",
                    "Doublings and floors",
                ),
                rows=CLASSIC_EXTRAS,
                preset="classic",
            ),
        ),
    ),
    RulePage(
        Text(
            "help.shangrao.xingchen.title",
            "计分 · xingchen",
            "計分 · xingchen",
            "Scoring · xingchen",
        ),
        (
            HelpSection(
                Text(
                    "help.shangrao.xingchen.head",
                    "**xingchen**（星辰麻将番数表，选项 `scoring=xingchen`）：底分 1 × 番数。这里「清/无宝」指没有宝当万能牌用。",
                    "**xingchen**（星辰麻將番數表，選項 `scoring=xingchen`）：底分 1 × 番數。這裡「清/無寶」指沒有寶當萬能牌用。",
                    "**xingchen** (the 星辰 multiplier table, option `scoring=xingchen`): 1 point × the multiplier. Here no 宝 / 清 means no 宝 acting as a wildcard.",
                ),
                rows=XINGCHEN_ROWS,
                preset="xingchen",
            ),
        ),
    ),
    RulePage(
        Text(
            "help.shangrao.payment.title", "付分与规则选项", "付分與規則選項", "Payment and options"
        ),
        (
            HelpSection(
                Text(
                    "help.shangrao.payment.body",
                    "**付分** 自摸：其他三家各付该手分数。地胡、接宝、或 `discard_win` 下的点炮：放炮者付三份。抢杠：被抢者付三份。\n**叁包** 赢家有三或四组吃碰杠来自同一家时，那一家包赔全部（三份），其他人不付。\n**计大不计小** 一手牌有多种算法时，按最大的算。",
                    "**付分** 自摸：其他三家各付該手分數。地胡、接寶、或 `discard_win` 下的點炮：放炮者付三份。搶槓：被搶者付三份。\n**叁包** 贏家有三或四組吃碰槓來自同一家時，那一家包賠全部（三份），其他人不付。\n**計大不計小** 一手牌有多種算法時，按最大的算。",
                    "**Payment**: self-draw: each of the three others pays the hand's points. 地胡, 接宝 or a discard win under `discard_win`: the discarder pays three shares. Robbing a kong: the robbed player pays three shares.\n**叁包**: if 3 or 4 of the winner's chi/pong/kong came from one player's discards, that player pays everything (three shares); the others pay nothing.\n**计大不计小**: a hand that can be read several ways scores the way that pays most.",
                )
            ),
            HelpSection(options=True),
        ),
    ),
)
