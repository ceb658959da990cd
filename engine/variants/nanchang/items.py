"""南昌麻将 scoring items (RULES §8.3–§8.4): the hand value H is the product of its items; 德国 /
德中德 add a flat +5 per payer; 天胡 / 地胡 are flat."""

from __future__ import annotations

from engine.variants.catalogue import ScoringItem, item

ITEMS: tuple[ScoringItem, ...] = (
    item("平胡", "×1", "§8.3 §8.4"),
    item("小七对", "×2", "§8.3 §8.4"),
    item("大七对", "×2 (big_pairs: ×4)", "§8.3 §8.4"),
    item("十三烂", "×2", "§8.3 §8.4"),
    item("七星十三烂", "×4", "§8.3 §8.4"),
    item("精钓", "×2", "§8.3 §8.4 §8.8"),
    item("德国", "×2 +5", "§8.3 §8.4"),
    item("德中德", "×4 +5", "§8.3 §8.4"),
    item("杠开", "×2", "§8.4"),
    item("天胡", "20 (精钓 40) from each", "§8.4"),
    item("地胡", "20 (精钓 40) from each", "§8.4"),
)
