"""players.alerts, guilds.thread and guilds.ai_pace, games.thread_id and games.messages

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-06 10:00:00

Issue 12 (a table that works on real Discord):

- ``players.alerts`` — a player's turn alerts: ``on`` (turns and claims), ``claims`` (claims
  only) or ``off``; existing players get ``on``;
- ``guilds.thread`` — play each game in its own thread when the bot may create one (on for
  every existing server); ``guilds.ai_pace`` — seconds per AI action shown while a human sits
  at the table (NULL = the bot's default);
- ``games.thread_id`` — where the game is played (its thread, or the channel itself; NULL =
  not decided yet) and ``games.messages`` — the Discord messages delivery keeps up to date
  (hand DMs, open alerts, the last result), so a restart edits them instead of sending more.

Plain ``ADD COLUMN`` / ``DROP COLUMN`` on both backends (see 0002).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "players",
        sa.Column("alerts", sa.String(length=8), server_default="on", nullable=False),
    )
    op.add_column(
        "guilds", sa.Column("thread", sa.Boolean(), server_default=sa.true(), nullable=False)
    )
    op.add_column("guilds", sa.Column("ai_pace", sa.Float(), nullable=True))
    op.add_column("games", sa.Column("thread_id", sa.BigInteger(), nullable=True))
    op.add_column("games", sa.Column("messages", sa.JSON(), nullable=True))


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN messages")
    op.execute("ALTER TABLE games DROP COLUMN thread_id")
    op.execute("ALTER TABLE guilds DROP COLUMN ai_pace")
    op.execute("ALTER TABLE guilds DROP COLUMN thread")
    op.execute("ALTER TABLE players DROP COLUMN alerts")
