"""Persistence for the mahjong bot: SQLAlchemy 2 async on SQLite (default) or PostgreSQL.

``store = await Store.open(url)`` applies the Alembic migrations and returns the `Store`;
everything it returns is a plain value from `db.types`. Benchmarks: ``python -m db.bench``.
"""

from db.store import Store
from db.types import (
    ALL_VARIANTS,
    DuplicateHand,
    GameNotFound,
    HandInput,
    HandPlayer,
    NotAPlayer,
    RecordClosed,
    RecordNotFound,
    StoreError,
    VersionConflict,
)

__all__ = [
    "ALL_VARIANTS",
    "DuplicateHand",
    "GameNotFound",
    "HandInput",
    "HandPlayer",
    "NotAPlayer",
    "RecordClosed",
    "RecordNotFound",
    "Store",
    "StoreError",
    "VersionConflict",
]
