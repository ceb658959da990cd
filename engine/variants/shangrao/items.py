"""上饶麻将 scoring items (RULES §3.3–§3.6): the ``classic`` points table (read from the
scorer's own table, :data:`engine.variants.shangrao.scoring.CLASSIC`) and the ``xingchen``
multipliers."""

from __future__ import annotations

from engine.variants.catalogue import ScoringItem, item
from engine.variants.shangrao.scoring import CLASSIC

_MODES = ("宝吊", "无宝", "有宝")
#: Names both presets score: their ``xingchen`` multiplier.
_XINGCHEN_TOO = {"七对": "×4", "碰碰胡": "×4", "九幺": "×4", "七星九幺": "×8"}


def _classic_value(row: tuple[int | None, int, int, bool]) -> str:
    """``宝吊 12 / 无宝 16 / 有宝 8分`` (有宝 not a legal win alone: marked)."""
    parts = [f"{m} {v}" for m, v in zip(_MODES, row[:3], strict=True) if v is not None]
    return " / ".join(parts) + "分" + ("" if row[3] else " (有宝 alone no win)")


def _classic(name: str, row: tuple[int | None, int, int, bool]) -> ScoringItem:
    value = "classic " + _classic_value(row)
    if name in _XINGCHEN_TOO:
        value += f"; xingchen {_XINGCHEN_TOO[name]}"
    return item(name, value, "§3.5 §3.6" if name in _XINGCHEN_TOO else "§3.5")


ITEMS: tuple[ScoringItem, ...] = (
    *(_classic(name, row) for name, row in CLASSIC.items()),
    item("宝吊", "classic column", "§3.3"),
    item("无宝", "classic column", "§3.3"),
    item("有宝", "classic column", "§3.3"),
    item("天胡", "classic 16分 / xingchen ×10 (a floor)", "§3.5 §3.6"),
    item("地胡", "classic 16分 / xingchen ×10 (a floor)", "§3.5 §3.6"),
    item("接宝", "classic 16分 / xingchen ×10 (a floor; option jiebao_points)", "§3.5 §3.6"),
    item("四个宝", "classic 16分 / xingchen ×10 (a floor; option jiebao_points)", "§3.5 §3.6"),
    item("杠上开花", "classic ×2 / xingchen ×2 per kong in a row", "§3.5 §3.6"),
    item("飞宝", "×2 per 宝 discarded", "§3.5 §3.6"),
    item("抢杠", "xingchen ×6", "§3.6"),
    item("平胡自摸", "×2", "§3.6"),
    item("平胡有宝", "×2", "§3.6"),
    item("宝吊头", "×3", "§3.6"),
    item("宝吊宝", "×6", "§3.6"),
    item("宝吊无宝", "×6", "§3.6"),
    item("清碰碰胡", "×10", "§3.6"),
    item("碰碰胡宝吊头", "×8", "§3.6"),
    item("碰碰胡宝吊无宝", "×16", "§3.6"),
    item("清七对", "×10", "§3.6"),
    item("豪华七对", "×4", "§3.6"),
    item("清豪华七对", "×10", "§3.6"),
    item("豪华", "×2 per four-of-a-kind", "§3.6"),
    item("十三浪有宝", "×2", "§3.6"),
    item("七星十三浪有宝", "×4", "§3.6"),
    item("长九幺", "×2", "§3.6"),
)
