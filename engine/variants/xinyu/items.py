"""新余麻将 scoring items (RULES §4.2–§4.3): doublings multiplied together."""

from __future__ import annotations

from engine.variants.catalogue import ScoringItem, item

ITEMS: tuple[ScoringItem, ...] = (
    item("平胡", "1分 (base)", "§4.3"),
    item("门清", "×2", "§4.3"),
    item("开杠", "×2", "§4.3"),
    item("七小对", "×4", "§4.3"),
    item("豪华七小对", "×8", "§4.3"),
    item("混一色", "×2", "§4.3"),
    item("清一色", "×4", "§4.3"),
    item("全风向", "×8", "§4.2 §4.3"),
    item("碰碰胡", "×2", "§4.3"),
    item("飞起来", "×4", "§4.3"),
    item("杠上开花", "×2", "§4.3"),
)
