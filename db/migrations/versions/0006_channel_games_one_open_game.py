"""channel_games: one open game per channel, guaranteed by the database

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 23:30:00

Issue 15 part 2 (several processes on one PostgreSQL): two processes opening a lobby in the
same channel at once each saw none open there. ``channel_games`` holds one row per channel
naming its open game; a new lobby inserts its row, or takes it over only when the game it
names has ended (``db/games.py``). Existing open games fill the table: per channel the
newest unfinished game (an older duplicate from before stays playable; the next lobby there
waits until the newest ends).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006"
down_revision: str | None = "0005"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "channel_games",
        sa.Column("channel_id", sa.BigInteger(), autoincrement=False, nullable=False),
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_channel_games_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("channel_id", name=op.f("pk_channel_games")),
    )
    op.create_index("ix_channel_games_game", "channel_games", ["game_id"], unique=False)
    op.execute(
        "INSERT INTO channel_games (channel_id, game_id)"
        " SELECT channel_id, MAX(id) FROM games"
        " WHERE status IN ('lobby', 'active') GROUP BY channel_id"
    )


def downgrade() -> None:
    op.drop_index("ix_channel_games_game", table_name="channel_games")
    op.drop_table("channel_games")
