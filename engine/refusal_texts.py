"""The texts of the refusals of impossible hands (RULES §7), as engine texts.

Low on purpose: the check itself (:func:`engine.scoring.impossible.refusal`) asks the
registry for the variant, and the registry lists these texts (:func:`engine.variants.texts`)
without importing the check.

>>> REFUSALS["flowers"].id, REFUSALS["flowers"].en.format(flowers=5)
('refusal.flowers', 'there are only 4 发 flowers, not 5')
"""

from __future__ import annotations

from engine.text import Text

#: Why a hand cannot have happened, as engine texts (id ``refusal.<name>``) in three
#: locales; the arguments fill the ``{…}``. A refusal's text is ``简体 · English``.
REFUSALS: dict[str, Text] = {
    t.id.removeprefix("refusal."): t
    for t in (
        Text(
            "refusal.no_chi",
            "{variant_zh}不能吃：{meld} 是吃来的顺子",
            "{variant_zh_tw}不能吃：{meld} 是吃來的順子",
            "{variant} has no chi: {meld} is a claimed sequence",
        ),
        Text(
            "refusal.wildcard_claimed",
            "宝牌不能碰杠：{meld}",
            "寶牌不能碰槓：{meld}",
            "a 宝 is never claimed (pong, kong or chi): {meld}",
        ),
        Text(
            "refusal.kong_draws",
            "杠上开花次数 {draws} 多于手里的杠 {kongs}",
            "槓上開花次數 {draws} 多於手裡的槓 {kongs}",
            "{draws} kong draws but only {kongs} kong(s) in the hand",
        ),
        Text(
            "refusal.flowers",
            "发最多 4 张，不是 {flowers}",
            "發最多 4 張，不是 {flowers}",
            "there are only 4 发 flowers, not {flowers}",
        ),
        Text(
            "refusal.indicator",
            "{tile} 已翻作跌宝牌，手里最多 3 张",
            "{tile} 已翻作跌寶牌，手裡最多 3 張",
            "{tile} is the face-up indicator: only 3 more are in play, the hand holds {n}",
        ),
        Text(
            "refusal.wildcards",
            "宝只有 {limit} 张：手里 {n} 张又飞宝 {flown} 张",
            "寶只有 {limit} 張：手裡 {n} 張又飛寶 {flown} 張",
            "there are {limit} 宝: {n} in the hand and {flown} flown is more",
        ),
    )
}
