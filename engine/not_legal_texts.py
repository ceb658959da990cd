"""Why a hand is not a legal win (不能胡: declaring it would be 诈胡), as engine texts.

The scorers return these as the ``reason`` of a result that is not a legal win (RULES §7):
a :class:`~engine.refusal.Reason` whose text is the English sentence and whose key
(``engine.not_legal.<name>``) lets the bot say it in the reader's language. Low on purpose,
like :mod:`engine.refusal_texts`: the registry lists these texts (:func:`engine.variants.texts`)
without importing a scorer.

>>> NOT_LEGAL["youbao"].zh_TW.format(name="七對")
'七對有寶需寶吊或飛寶'
"""

from __future__ import annotations

from engine.text import Text

#: The not-a-legal-win reasons by name (id ``not_legal.<name>``) in three locales; a hand's
#: name, a win kind and a count fill the ``{…}`` (the names as nested reasons, so the bot
#: translates them too).
NOT_LEGAL: dict[str, Text] = {
    t.id.removeprefix("not_legal."): t
    for t in (
        Text(
            "not_legal.not_complete",
            "不成胡：牌型不完整",
            "不成胡：牌型不完整",
            "the hand is not complete",
        ),
        # 上饶 有宝: the shapes that need the 宝 as its own face, 宝吊 or 飞宝 (RULES §3.5)
        Text(
            "not_legal.youbao",
            "{name}有宝需宝吊或飞宝",
            "{name}有寶需寶吊或飛寶",
            "{name} with a 宝 in use is a legal win only as 宝吊 (the 宝 pairs the drawn tile) "
            "or after 飞宝 (a 宝 discarded)",
        ),
        # 上饶 without discard_win: only 地胡, 抢杠 and 接宝 take another player's tile
        Text(
            "not_legal.shangrao_discard",
            "点炮不能胡：只有地胡、抢杠、接宝可胡别人的牌",
            "點炮不能胡：只有地胡、搶槓、接寶可胡別人的牌",
            "a discard is won only as an Earthly hand (地胡), by robbing a kong or by taking "
            "a discarded 宝 (接宝); the rule option discard_win is off",
        ),
        # 新余 without discard_win: 只能自摸
        Text(
            "not_legal.xinyu_self_draw_only",
            "新余麻将只能自摸（{what}不能胡）",
            "新餘麻將只能自摸（{what}不能胡）",
            "Xinyu wins by self-draw only, not {what}: the rule option discard_win is off",
        ),
        # 九江: no winds, and 发 is a flower (兴家) laid open, never in the hand
        Text(
            "not_legal.jiujiang_winds",
            "九江麻将没有风牌，发为兴家不入手",
            "九江麻將沒有風牌，發為興家不入手",
            "Jiujiang has no winds, and 发 are flowers (兴家) set aside, never in the hand",
        ),
        # 九江 二炮起胡: a small hand needs 2 炮
        Text(
            "not_legal.jiujiang_two_pao",
            "{points}炮：九江二炮起胡",
            "{points}炮：九江二炮起胡",
            "{points} 炮 only: a Jiujiang win needs at least 2 炮 (二炮起胡)",
        ),
        # 南昌 win_on_discarded_jing=no
        Text(
            "not_legal.discarded_jing",
            "打出的精不能胡",
            "打出的精不能胡",
            "a discarded 精 may not be won on (rule option win_on_discarded_jing)",
        ),
        # 南昌 jingdiao_discard=forbid: 精钓 wins on a discard only as 德国
        Text(
            "not_legal.jingdiao_discard",
            "精钓不能点炮胡（除非德国）",
            "精釣不能點炮胡（除非德國）",
            "a hand waiting on a 精 (精钓) wins on a discard only as 德国, with no 精 used "
            "as a wildcard (rule option jingdiao_discard)",
        ),
    )
}
