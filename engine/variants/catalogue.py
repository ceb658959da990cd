"""The scoring-item catalogue (番种 / 计分项): every item name the scorers write, as data.

Each item name is defined once here (:data:`NAMES`: a :class:`Text` with a stable id,
简体, 繁體 and English) — shared items such as 杠上开花, 抢杠, 清一色 are one entry whatever the
variant. A variant lists the items it scores in its package (``engine/variants/<name>/
items.py``) as :class:`ScoringItem` values: the name, the value rule and the RULES §
reference; help pages, pictures and the bot's text layer read them from the registry
(``variant.items``, :func:`engine.variants.texts`).

A scored line may join several names (``清一色平胡 宝吊``), count one (``兴家 ×2``, ``飞宝
×3``) or name the tile first (``中明杠``): :func:`split_item_name` reads such a line back
into catalogue names.

>>> split_item_name("清一色平胡 宝吊")
('清一色平胡', '宝吊')
>>> split_item_name("中明杠"), split_item_name("兴家 ×2")
(('明杠',), ('兴家',))
>>> NAMES["杠上开花"].zh_TW, NAMES["杠上开花"].en
('槓上開花', 'Win on a kong replacement')
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.text import Text
from engine.tiles import N_KINDS, zh_name

NAMES: dict[str, Text] = {
    t.zh: t
    for t in (
        Text("item.tianhu", "天胡", "天胡", "Heavenly hand"),
        Text("item.dihu", "地胡", "地胡", "Earthly hand"),
        Text("item.gangshang_kaihua", "杠上开花", "槓上開花", "Win on a kong replacement"),
        Text("item.qianggang", "抢杠", "搶槓", "Robbing a kong"),
        Text("item.qingyise", "清一色", "清一色", "Pure one suit"),
        Text("item.hunyise", "混一色", "混一色", "One suit with honours"),
        Text("item.pengpenghu", "碰碰胡", "碰碰胡", "All pongs"),
        Text("item.qidui", "七对", "七對", "Seven pairs"),
        Text("item.menqing", "门清", "門清", "Concealed hand"),
        Text("item.pinghu", "平胡", "平胡", "Basic win"),
        Text("item.haidi", "海底捞针", "海底撈針", "Win on the last tile"),
        Text("item.haohua", "豪华", "豪華", "Luxury (four of a kind)"),
        Text("item.zimo", "自摸", "自摸", "Self-draw"),
        Text("item.dianpao", "点炮", "點炮", "Won on a discard"),
        Text("item.baoting", "报听", "報聽", "Declared ready"),
        Text("item.jiuyao", "九幺", "九幺", "Terminals & honours (九幺)"),
        Text("item.qixing_jiuyao", "七星九幺", "七星九幺", "Seven-star 九幺"),
        Text("item.chang_jiuyao", "长九幺", "長九幺", "九幺 with no pong or kong"),
        Text("item.shisanlan", "十三烂", "十三爛", "Thirteen orphans (十三烂)"),
        Text("item.qixing_shisanlan", "七星十三烂", "七星十三爛", "Seven-star 十三烂"),
        Text("item.shisanlang_youbao", "十三浪有宝", "十三浪有寶", "十三浪, 宝 in use"),
        Text(
            "item.qixing_shisanlang_youbao",
            "七星十三浪有宝",
            "七星十三浪有寶",
            "Seven-star 十三浪, 宝 in use",
        ),
        Text("item.baodiao", "宝吊", "寶吊", "宝 pairs the drawn tile"),
        Text("item.wubao", "无宝", "無寶", "no 宝"),
        Text("item.youbao", "有宝", "有寶", "宝 in use"),
        Text("item.baodiaotou", "宝吊头", "寶吊頭", "宝 pair-wait"),
        Text("item.baodiaobao", "宝吊宝", "寶吊寶", "宝 pair-wait won on another 宝 (偷机)"),
        Text(
            "item.baodiao_wubao",
            "宝吊无宝",
            "寶吊無寶",
            "宝 pair-wait ended with 宝 as itself (偷机)",
        ),
        Text("item.pinghu_youbao", "平胡有宝", "平胡有寶", "Basic win with 宝 in use"),
        Text("item.pinghu_zimo", "平胡自摸", "平胡自摸", "Basic win, no wildcard"),
        Text("item.qing_qidui", "清七对", "清七對", "Seven pairs, no wildcard"),
        Text("item.qing_pengpenghu", "清碰碰胡", "清碰碰胡", "All pongs, no wildcard"),
        Text(
            "item.qing_haohua_qidui", "清豪华七对", "清豪華七對", "Luxury seven pairs, no wildcard"
        ),
        Text(
            "item.pengpenghu_baodiaotou", "碰碰胡宝吊头", "碰碰胡寶吊頭", "All pongs, 宝 pair-wait"
        ),
        Text(
            "item.pengpenghu_baodiao_wubao",
            "碰碰胡宝吊无宝",
            "碰碰胡寶吊無寶",
            "All pongs, 宝 pair-wait ended with 宝 as itself (偷机)",
        ),
        Text(
            "item.pengpenghu_baodiaobao",
            "碰碰胡宝吊宝",
            "碰碰胡寶吊寶",
            "All pongs, 宝 pair-wait won on another 宝 (偷机)",
        ),
        Text("item.shisanlang", "十三浪", "十三浪", "十三浪, no wildcard"),
        Text(
            "item.qixing_shisanlang", "七星十三浪", "七星十三浪", "Seven-star 十三浪, no wildcard"
        ),
        Text("item.jiuyao_youbao", "九幺有宝", "九幺有寶", "九幺, 宝 in use"),
        Text(
            "item.qixing_jiuyao_youbao",
            "七星九幺有宝",
            "七星九幺有寶",
            "Seven-star 九幺, 宝 in use",
        ),
        Text("item.haohua_chang_jiuyao", "豪华长九幺", "豪華長九幺", "长九幺 with four of a kind"),
        Text("item.jiebao", "接宝", "接寶", "Took the 4th 宝"),
        Text("item.sigebao", "四个宝", "四個寶", "Four 宝"),
        Text("item.feibao", "飞宝", "飛寶", "宝 discarded"),
        Text("item.quanfengxiang", "全风向", "全風向", "All honours"),
        Text("item.kaigang", "开杠", "開槓", "Declared a kong"),
        Text("item.feiqilai", "飞起来", "飛起來", "Four exposed sets, single wait"),
        Text("item.qixiaodui", "七小对", "七小對", "Seven pairs"),
        Text("item.haohua_qixiaodui", "豪华七小对", "豪華七小對", "Luxury seven pairs"),
        Text("item.haohua_qidui", "豪华七对", "豪華七對", "Luxury seven pairs"),
        Text("item.xingjia", "兴家", "興家", "发 laid open"),
        Text("item.minggang", "明杠", "明槓", "Exposed kong"),
        Text("item.angang", "暗杠", "暗槓", "Concealed kong"),
        Text("item.peng", "碰", "碰", "Dragon pong"),
        Text("item.anke", "暗刻", "暗刻", "Concealed dragon triplet"),
        Text("item.dutin", "独听", "獨聽", "Single wait"),
        Text("item.yitiaolong", "一条龙", "一條龍", "Pure straight"),
        Text("item.qixiannu", "七仙女", "七仙女", "Seven fairies (七仙女)"),
        Text("item.quanqiuren", "全求人", "全求人", "All sets exposed, won on a discard"),
        Text("item.hongqi", "红旗飘飘", "紅旗飄飄", "Pongs of 中 and 白"),
        Text("item.qingyise_pinghu", "清一色平胡", "清一色平胡", "Pure one suit"),
        Text("item.qingyise_qidui", "清一色七对", "清一色七對", "Pure seven pairs"),
        Text("item.qidui_jiuyao", "七对九幺", "七對九幺", "Seven pairs of terminals & honours"),
        Text(
            "item.qidui_jiuyao_qingyise",
            "七对九幺清一色",
            "七對九幺清一色",
            "Pure seven pairs of terminals & honours",
        ),
        Text("item.pengpenghu_qingyise", "碰碰胡清一色", "碰碰胡清一色", "Pure all pongs"),
        Text("item.xiaoqidui", "小七对", "小七對", "Seven pairs (小七对)"),
        Text("item.daqidui", "大七对", "大七對", "All triplets (大七对)"),
        Text("item.jingdiao", "精钓", "精釣", "精 pairs the winning tile (精钓)"),
        Text("item.deguo", "德国", "德國", "No 精 as a wildcard (德国)"),
        Text("item.dezhongde", "德中德", "德中德", "德国, and no 精 held by others (德中德)"),
        Text("item.gangkai", "杠开", "槓開", "Win on a kong replacement (杠开)"),
        Text(
            "item.pengpenghu_jiuyao", "碰碰胡九幺", "碰碰胡九幺", "All pongs of terminals & honours"
        ),
        Text(
            "item.pengpenghu_jiuyao_qingyise",
            "碰碰胡九幺清一色",
            "碰碰胡九幺清一色",
            "Pure all pongs of terminals & honours",
        ),
    )
}

#: Tile names that may lead an item (``中明杠``, ``一筒暗杠``): the 简体 name of every kind.
TILE_PREFIX = re.compile(
    "^(?:" + "|".join(sorted((zh_name(k) for k in range(N_KINDS)), key=len, reverse=True)) + ")"
    "(?=明杠|暗杠|碰|暗刻)"
)
_COUNT = re.compile(r"\s*×\d+$")


@dataclass(frozen=True)
class ScoringItem:
    """One item a variant scores: its name (a :data:`NAMES` text), the value rule as RULES
    gives it, and the RULES section."""

    name: Text
    value: str
    rules: str


def item(zh: str, value: str, rules: str) -> ScoringItem:
    """The :class:`ScoringItem` named ``zh`` (a key of :data:`NAMES`)."""
    return ScoringItem(NAMES[zh], value, rules)


def split_item_name(name: str) -> tuple[str, ...]:
    """The catalogue names a scored line is made of (see the module doc)."""
    parts = []
    for part in _COUNT.sub("", name).split():
        parts.append(TILE_PREFIX.sub("", part))
    return tuple(parts)


def catalogue_texts() -> tuple[Text, ...]:
    """Every item name of the catalogue."""
    return tuple(NAMES.values())
