"""九江麻将 scoring items (RULES §5.3), in 炮: a small hand's items, then big hands (+10 炮)."""

from __future__ import annotations

from engine.variants.catalogue import ScoringItem, item

_BIG = "+10炮"

ITEMS: tuple[ScoringItem, ...] = (
    item("点炮", "+1炮", "§5.3"),
    item("自摸", "+2炮 (big hand +5)", "§5.3"),
    item("门清", "+1炮 (big hand +5)", "§5.3"),
    item("独听", "+1炮 (big hand +5)", "§5.3"),
    item("兴家", "+1炮 each 发", "§5.3"),
    item("明杠", "+1炮 (中/白 +3)", "§5.3"),
    item("暗杠", "+2炮 (中/白 +4)", "§5.3"),
    item("碰", "中/白 +1炮", "§5.3"),
    item("暗刻", "中/白 +2炮", "§5.3"),
    item("清一色", _BIG, "§5.3"),
    item("混一色", _BIG, "§5.3"),
    item("碰碰胡", _BIG, "§5.3"),
    item("七对", _BIG, "§5.3"),
    item("一条龙", _BIG, "§5.3"),
    item("全求人", _BIG, "§5.3"),
    item("红旗飘飘", _BIG, "§5.3"),
    item("豪华七对", "+10炮, +10 more per four-of-a-kind", "§5.3"),
    item("七仙女", _BIG, "§5.3"),
    item("天胡", _BIG, "§5.3"),
    item("地胡", _BIG, "§5.3"),
    item("杠上开花", _BIG, "§5.3"),
    item("海底捞针", _BIG, "§5.3"),
    item("报听", _BIG, "§5.3"),
)
