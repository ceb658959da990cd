"""deadlines table; PostgreSQL NOTIFY of every game change (several bot processes)

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01 20:00:00

Issue 15 part 2 (several processes on one PostgreSQL):

- ``deadlines`` — one row per game and kind (``play``: the turn or claim timeout;
  ``session``: 准备 / the 解散 vote / dealing the next hand) with the game version it was
  armed at and when it is due: whichever live process gets there first claims it
  (``SELECT … FOR UPDATE SKIP LOCKED``) and fires it, so a deadline of a process that died is
  fired by another (see ``db/deadlines.py``);
- on PostgreSQL a trigger on ``games`` sends ``NOTIFY mahjong_games, 'id:version:status'``
  whenever a game's version or status changes: a process holding the game refreshes its copy
  and its messages (``db/notify.py``). SQLite (one process) has no trigger.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005"
down_revision: str | None = "0004"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

NOTIFY_FUNCTION = """
CREATE OR REPLACE FUNCTION mahjong_game_notify() RETURNS trigger AS $$
BEGIN
    PERFORM pg_notify('mahjong_games', NEW.id || ':' || NEW.version || ':' || NEW.status);
    RETURN NEW;
END
$$ LANGUAGE plpgsql
"""

NOTIFY_TRIGGER = """
CREATE TRIGGER games_notify AFTER UPDATE OF version, status ON games
FOR EACH ROW WHEN (OLD.version IS DISTINCT FROM NEW.version
                   OR OLD.status IS DISTINCT FROM NEW.status)
EXECUTE FUNCTION mahjong_game_notify()
"""


def upgrade() -> None:
    op.create_table(
        "deadlines",
        sa.Column("game_id", sa.BigInteger(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.Float(), nullable=False),
        sa.Column("holder", sa.String(length=64), nullable=True),
        sa.Column("lease_until", sa.Float(), nullable=True),
        sa.ForeignKeyConstraint(
            ["game_id"],
            ["games.id"],
            name=op.f("fk_deadlines_game_id_games"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("game_id", "kind", name=op.f("pk_deadlines")),
    )
    op.create_index("ix_deadlines_due_at", "deadlines", ["due_at"], unique=False)
    if op.get_bind().dialect.name == "postgresql":
        op.execute(NOTIFY_FUNCTION)
        op.execute(NOTIFY_TRIGGER)


def downgrade() -> None:
    if op.get_bind().dialect.name == "postgresql":
        op.execute("DROP TRIGGER IF EXISTS games_notify ON games")
        op.execute("DROP FUNCTION IF EXISTS mahjong_game_notify()")
    op.drop_index("ix_deadlines_due_at", table_name="deadlines")
    op.drop_table("deadlines")
