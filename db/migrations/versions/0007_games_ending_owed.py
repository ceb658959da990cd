"""games.ending_owed: a game's ending (last result, final standings) still to be posted

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-01 23:20:00

Issue 15 item 6 (sends are not lost): a game whose last hand ended right before a crash was
never resumed (it is ``finished``), so its last hand's result and its final standings were
never posted. The ``end`` log entry now sets ``ending_owed`` in the same versioned write; it
is cleared once the delivery of the ending was accepted, and the start-up resume pass
delivers the ending of every game that still owes it. Existing games owe nothing.
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007"
down_revision: str | None = "0006"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "games",
        sa.Column("ending_owed", sa.Boolean(), server_default=sa.false(), nullable=False),
    )


def downgrade() -> None:
    op.execute("ALTER TABLE games DROP COLUMN ending_owed")
