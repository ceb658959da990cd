"""Persistence for the mahjong bot: SQLAlchemy 2 async on SQLite (default) or PostgreSQL.

``store = await Store.open(url)`` applies the Alembic migrations and returns the `Store`, made
of small repositories (``store.games``, ``store.hands``, … see `db.store`); everything they
return is a plain value from `db.types`. A write that stalls raises `StoreBusy`. Benchmarks: ``python -m benchmarks.db_bench``.
"""

from db.errors import StoreBusy
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
    "StoreBusy",
    "StoreError",
    "VersionConflict",
]
