"""discord.py's rate-limit buckets, swept in amortised constant time.

discord.py (``http.HTTPClient``) keeps one rate-limit bucket per route and channel (message
create, edit, delete, thread… in every channel, thread and DM the bot writes to: several per
table). Once it holds 256 buckets, it looks at *every* bucket for inactive ones (unused for
five minutes) each time it makes a new one — and a busy server makes new ones all the time
(a new table's channel, thread and DM; a route first used in a channel). At a thousand
tables that is thousands of buckets looked at per new bucket, a cost per request that grows
with the number of tables. :func:`amortise_bucket_sweep` keeps discord.py's sweep but runs
it only when the buckets have doubled since the last one: the same buckets leave (at most
twice as many are held), at a constant cost per new bucket.
"""

from __future__ import annotations

from typing import Any

#: discord.py's own threshold: no sweep below this many buckets
SWEEP_FLOOR = 256


class BucketSweep:
    """Replaces ``HTTPClient._try_clear_expired_ratelimits``: sweep the inactive buckets once
    they are twice as many as were left by the last sweep (and at least :data:`SWEEP_FLOOR`)."""

    def __init__(self, http: Any, floor: int = SWEEP_FLOOR) -> None:
        self.http = http
        self.floor = floor
        #: the sweep runs when the buckets reach this many
        self.next_at = floor
        self.sweeps = 0

    def __call__(self) -> None:
        buckets: dict[str, Any] = self.http._buckets
        if len(buckets) < self.next_at:
            return
        for key in [key for key, bucket in buckets.items() if bucket.is_inactive()]:
            del buckets[key]
        self.sweeps += 1
        self.next_at = max(self.floor, 2 * len(buckets))


def amortise_bucket_sweep(http: Any) -> BucketSweep | None:
    """Give discord.py's ``http`` client the amortised sweep; ``None`` (nothing changed) if
    this discord.py keeps its buckets some other way."""
    if not isinstance(getattr(http, "_buckets", None), dict) or not callable(
        getattr(http, "_try_clear_expired_ratelimits", None)
    ):
        return None
    sweep = BucketSweep(http)
    http._try_clear_expired_ratelimits = sweep
    return sweep
