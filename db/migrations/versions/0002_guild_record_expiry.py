"""guilds.record_expiry_hours: the record expiry as a column

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29 20:30:00

The hours a physical record waits for confirmations were kept in the server's
``rule_options["_records"]["expiry_hours"]`` JSON; they become the nullable column
``guilds.record_expiry_hours`` (NULL = the bot's default). The upgrade moves every stored
value (a positive number of at most 720 hours) into the column and removes the ``_records``
key from ``rule_options``; the downgrade puts them back.

Plain ``ADD COLUMN`` / ``DROP COLUMN`` on both backends: a batch (copy and rename) of
``guilds`` on SQLite would drop the table under its ``ON DELETE CASCADE`` children.
"""

from collections.abc import Sequence
from typing import Any

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

#: Where the hours used to be kept, and the largest value accepted (30 days).
OLD_KEY = "_records"
MAX_HOURS = 24 * 30

# Frozen view of the table: a migration never imports the models.
guilds = sa.table(
    "guilds",
    sa.column("id", sa.BigInteger()),
    sa.column("rule_options", sa.JSON()),
    sa.column("record_expiry_hours", sa.Float()),
)


def _hours(kept: Any) -> float | None:
    hours = kept.get("expiry_hours") if isinstance(kept, dict) else None
    if isinstance(hours, int | float) and not isinstance(hours, bool) and 0 < hours <= MAX_HOURS:
        return float(hours)
    return None


def upgrade() -> None:
    op.add_column("guilds", sa.Column("record_expiry_hours", sa.Float(), nullable=True))
    conn = op.get_bind()
    for guild_id, rules in conn.execute(sa.select(guilds.c.id, guilds.c.rule_options)).all():
        if not isinstance(rules, dict) or OLD_KEY not in rules:
            continue
        conn.execute(
            guilds.update()
            .where(guilds.c.id == guild_id)
            .values(
                record_expiry_hours=_hours(rules[OLD_KEY]),
                rule_options={k: v for k, v in rules.items() if k != OLD_KEY},
            )
        )


def downgrade() -> None:
    conn = op.get_bind()
    rows = conn.execute(
        sa.select(guilds.c.id, guilds.c.rule_options, guilds.c.record_expiry_hours).where(
            guilds.c.record_expiry_hours.is_not(None)
        )
    ).all()
    for guild_id, rules, hours in rows:
        kept = dict(rules) if isinstance(rules, dict) else {}
        kept[OLD_KEY] = {"expiry_hours": int(hours) if float(hours).is_integer() else hours}
        conn.execute(guilds.update().where(guilds.c.id == guild_id).values(rule_options=kept))
    op.execute("ALTER TABLE guilds DROP COLUMN record_expiry_hours")
