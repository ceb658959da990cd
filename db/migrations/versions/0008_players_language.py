"""players.language: the language a player chose for a game's private texts

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-04 18:20:00

A game's private texts (hand DMs, alerts, the 准备 alert) follow the server's language, so one
table reads in one language; ``/mahjong language`` lets a player choose their own instead
(``zh``, ``zh-TW`` or ``en``; NULL = follow the server). Existing players follow the server.

Plain ``ADD COLUMN`` / ``DROP COLUMN`` on both backends (see 0002).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0008"
down_revision: str | None = "0007"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("players", sa.Column("language", sa.String(length=8), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE players DROP COLUMN language")
