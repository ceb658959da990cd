"""Per-variant table-flow rules as data (RULES §3.1, §4.1, §5.1).

Each variant's preset lives in its package (``engine/variants/<name>/rules.py``); this module
keeps the old names for the game's modules.
"""

from __future__ import annotations

from engine import variants
from engine.variants.base import RuleOptions, TableRules

__all__ = ["TableRules", "table_rules"]


def table_rules(variant: str, options: RuleOptions) -> TableRules:
    """The table rules of ``variant`` under ``options`` (raises ``ValueError`` if unknown)."""
    return variants.get(variant).rules(options)
