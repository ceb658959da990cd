"""guilds.length, guilds.ready_timeout and guilds.vote_timeout: a session's defaults

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-08 10:00:00

Issue 13 (a session as a Jiangxi table plays it):

- ``guilds.length`` — a new game's length: ``4`` / ``8`` / ``16`` hands or ``1圈`` / ``2圈`` /
  ``4圈`` rounds (every existing server gets 8 hands);
- ``guilds.ready_timeout`` — seconds to press 准备 between hands (60);
- ``guilds.vote_timeout`` — seconds to answer a 解散 vote (60).

A game's own length, ready states, votes and 再来一局 presses are entries of its action log
(see ``services/session_state.py``): the ``games`` table does not change, and games stored
before this have no length (they go on until ended, as before).

Plain ``ADD COLUMN`` / ``DROP COLUMN`` on both backends (see 0002).
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004"
down_revision: str | None = "0003"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "guilds", sa.Column("length", sa.String(length=8), server_default="8", nullable=False)
    )
    op.add_column(
        "guilds", sa.Column("ready_timeout", sa.Integer(), server_default="60", nullable=False)
    )
    op.add_column(
        "guilds", sa.Column("vote_timeout", sa.Integer(), server_default="60", nullable=False)
    )


def downgrade() -> None:
    op.execute("ALTER TABLE guilds DROP COLUMN vote_timeout")
    op.execute("ALTER TABLE guilds DROP COLUMN ready_timeout")
    op.execute("ALTER TABLE guilds DROP COLUMN length")
