"""南昌麻将 house rules (RULES §8), with the defaults RULES.md gives."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from engine.variants.base import OptionInfo, RuleOptions


@dataclass(frozen=True)
class NanchangOptions(RuleOptions):
    """南昌麻将 house rules (RULES §8.1–§8.6); each keeps the other reading of a source."""

    variant: ClassVar[str] = "nanchang"
    # table flow (§8.1)
    next_dealer_on_win: str = "next"
    draw_dealer: str = "stay"
    wind_sequences: bool = True
    indicator_reached: str = "skip"
    win_on_discarded_jing: str = "face"
    jingdiao_discard: str = "forbid"
    missed_pong_lock: bool = False
    # hand points and payers (§8.4)
    big_pairs: int = 2
    discard_pay: str = "three"
    rob_kong_pay: str = "all"
    # 精 settlement (§8.5)
    bawang: str = "double"
    count_discarded_jing: bool = False
    chongguan_liability: bool = True
    jing_on_draw: bool = True
    # other payments (§8.6)
    kong_points: str = "2/2"
    kong_points_on_draw: bool = True
    chaozhuang: bool = True
    draw_penalty: bool = False

    INFO: ClassVar[dict[str, OptionInfo]] = {
        "next_dealer_on_win": OptionInfo(
            ("next", "winner"),
            "闲家胡牌后谁坐庄：`next` 为庄家下家，`winner` 为胡牌者",
            "Who deals after a non-dealer wins: `next` (the dealer's 下家) or `winner`",
            zh_TW="閒家胡牌後誰坐莊：`next` 為莊家下家，`winner` 為胡牌者",
        ),
        "draw_dealer": OptionInfo(
            ("stay", "next"),
            "荒庄后：`stay` 庄家连庄，`next` 下家坐庄",
            "After a drawn hand: `stay` (the dealer keeps the deal) or `next` (the 下家 deals)",
            zh_TW="荒莊後：`stay` 莊家連莊，`next` 下家坐莊",
        ),
        "wind_sequences": OptionInfo(
            (True, False),
            "三张不同的风牌可成顺子（关闭则只有中发白）",
            "Three different winds form a sequence (off: only 中发白)",
            zh_TW="三張不同的風牌可成順子（關閉則只有中發白）",
        ),
        "indicator_reached": OptionInfo(
            ("skip", "take"),
            "补牌摸到翻开的精牌时：`skip` 跳过，`take` 照摸",
            "When kong replacements reach the face-up indicator: skip it, or take it",
            zh_TW="補牌摸到翻開的精牌時：`skip` 跳過，`take` 照摸",
        ),
        "win_on_discarded_jing": OptionInfo(
            ("face", "no"),
            "打出的精只当本身：`face` 可以胡这张，`no` 不能胡",
            "A discarded 精 counts at face value: `face` (it may be won on) or `no` (never won on)",
            zh_TW="打出的精只當本身：`face` 可以胡這張，`no` 不能胡",
        ),
        "jingdiao_discard": OptionInfo(
            ("forbid", "no_bonus"),
            "精钓不能点炮胡（`forbid`，德国除外）；`no_bonus` 可以胡但精钓不计",
            "A 精钓 hand may not win on a discard (`forbid`, 德国 aside), or may without the 精钓 ×2 (`no_bonus`)",
            zh_TW="精釣不能點炮胡（`forbid`，德國除外）；`no_bonus` 可以胡但精釣不計",
        ),
        "missed_pong_lock": OptionInfo(
            (False, True),
            "弃先胡后时同一圈内也不能碰放过的牌（默认可以碰）",
            "After passing a win, a passed tile may not be ponged in the same go-round either (default: it may)",
            zh_TW="棄先胡後時同一圈內也不能碰放過的牌（預設可以碰）",
        ),
        "big_pairs": OptionInfo(
            (2, 4),
            "大七对（碰碰胡）的倍数：2 或 4",
            "Multiplier of 大七对 (all triplets): 2 or 4",
            zh_TW="大七對（碰碰胡）的倍數：2 或 4",
        ),
        "discard_pay": OptionInfo(
            ("three", "one"),
            "点炮胡谁付：`three` 放炮者 ×2、另两家 ×1；`one` 只有放炮者付 ×2",
            "Who pays a discard win: three (the discarder ×2, the others ×1) or one (the discarder alone, ×2)",
            zh_TW="點炮胡誰付：`three` 放炮者 ×2、另兩家 ×1；`one` 只有放炮者付 ×2",
        ),
        "rob_kong_pay": OptionInfo(
            ("all", "robbed"),
            "抢杠谁付：`all` 三家按自摸付；`robbed` 被抢者付三家",
            "Who pays 抢杠: `all` (the three, as for a self-draw) or `robbed` (the robbed player pays the three shares)",
            zh_TW="搶槓誰付：`all` 三家按自摸付；`robbed` 被搶者付三家",
        ),
        "bawang": OptionInfo(
            ("double", "plus10"),
            "霸王精（只有一家有精时）：`double` 精分翻倍，`plus10` 加 10",
            "霸王精 (one player alone holds 精): `double` the amount, or `plus10`",
            zh_TW="霸王精（只有一家有精時）：`double` 精分翻倍，`plus10` 加 10",
        ),
        "count_discarded_jing": OptionInfo(
            (False, True),
            "打出去的精也计入精分",
            "Discarded 精 also count in the 精 settlement",
            zh_TW="打出去的精也計入精分",
        ),
        "chongguan_liability": OptionInfo(
            (True, False),
            "冲关包赔：靠别人打出的精冲关时，由打出者包赔",
            "冲关 liability: a 冲关 reached thanks to another's discarded 精 is paid by that player",
            zh_TW="衝關包賠：靠別人打出的精衝關時，由打出者包賠",
        ),
        "jing_on_draw": OptionInfo(
            (True, False),
            "荒庄也结算精分",
            "The 精 settlement also runs on a drawn hand",
            zh_TW="荒莊也結算精分",
        ),
        "kong_points": OptionInfo(
            ("2/2", "1/2"),
            "杠分：2/2 明杠暗杠各 2；1/2 明杠 1、暗杠 2",
            "Kong points from each player: 2/2 (exposed and concealed 2) or 1/2 (exposed 1, concealed 2)",
            zh_TW="槓分：2/2 明槓暗槓各 2；1/2 明槓 1、暗槓 2",
        ),
        "kong_points_on_draw": OptionInfo(
            (True, False),
            "荒庄也结算杠分",
            "Kong points are also paid on a drawn hand",
            zh_TW="荒莊也結算槓分",
        ),
        "chaozhuang": OptionInfo(
            (True, False),
            "抄庄：首圈三家都跟打庄家首张，庄家赔每家 5 并下庄",
            "抄庄: the three follow the dealer's first discard, the dealer pays 5 to each and the deal passes",
            zh_TW="抄莊：首圈三家都跟打莊家首張，莊家賠每家 5 並下莊",
        ),
        "draw_penalty": OptionInfo(
            (False, True),
            "荒庄时庄家赔每家 5（默认不赔）",
            "On a drawn hand the dealer pays 5 to each other player (default: no)",
            zh_TW="荒莊時莊家賠每家 5（預設不賠）",
        ),
    }

    def exposed_kong_points(self) -> int:
        """Points each other player pays for an exposed or added kong (明杠 / 补杠, §8.6)."""
        return 1 if self.kong_points == "1/2" else 2

    def concealed_kong_points(self) -> int:
        """Points each other player pays for a concealed kong (暗杠, §8.6)."""
        return 2
