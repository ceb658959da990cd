"""Leaderboard periods: all time, a season (赛季), this calendar month, this ISO week (UTC)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

PERIODS = ("all", "season", "month", "week")


def period_start(period: str, now: datetime) -> datetime | None:
    """The first moment of ``period`` containing ``now`` (UTC); None for ``all``/``season``.

    >>> period_start("week", datetime(2026, 11, 29, 17, 0, tzinfo=UTC)).isoformat()
    '2026-11-23T00:00:00+00:00'
    >>> period_start("month", datetime(2026, 11, 29, 17, 0, tzinfo=UTC)).isoformat()
    '2026-11-01T00:00:00+00:00'
    """
    if period not in PERIODS:
        raise ValueError(f"period must be one of {PERIODS}")
    now = now.astimezone(UTC) if now.tzinfo else now.replace(tzinfo=UTC)
    midnight = now.replace(hour=0, minute=0, second=0, microsecond=0)
    if period == "month":
        return midnight.replace(day=1)
    if period == "week":
        return midnight - timedelta(days=midnight.weekday())
    return None
