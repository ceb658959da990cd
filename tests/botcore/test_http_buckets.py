"""discord.py's rate-limit buckets are swept in amortised constant time (botcore.http_buckets),
on discord.py's real ``HTTPClient``: the same inactive buckets leave, at a cost per new bucket
that does not grow with how many the bot holds (one per route and channel: thousands at a
thousand tables)."""

from __future__ import annotations

import asyncio

import discord.http
import pytest

from botcore.http_buckets import SWEEP_FLOOR, amortise_bucket_sweep


class Looks:
    """Counts ``Ratelimit.is_inactive`` calls (each one is a bucket looked at)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.count = 0
        original = discord.http.Ratelimit.is_inactive

        def counted(bucket: discord.http.Ratelimit) -> bool:
            self.count += 1
            return original(bucket)

        monkeypatch.setattr(discord.http.Ratelimit, "is_inactive", counted)


def new_buckets(http: discord.http.HTTPClient, first: int, count: int) -> None:
    for i in range(first, first + count):
        http.get_ratelimit(f"PATCH /channels/{{channel_id}}/messages/{{message_id}}:{i}")


async def test_a_new_bucket_costs_the_same_however_many_are_held(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    looks = Looks(monkeypatch)
    plain = discord.http.HTTPClient(asyncio.get_running_loop())
    new_buckets(plain, 0, 1000)
    # discord.py alone looks at every bucket for each new one from the 256th: quadratic
    assert looks.count == sum(range(SWEEP_FLOOR, 1001))
    looks.count = 0
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep = amortise_bucket_sweep(http)
    assert sweep is not None and http._try_clear_expired_ratelimits is sweep
    new_buckets(http, 0, 1000)
    assert len(http._buckets) == 1000  # none inactive: all kept
    assert sweep.sweeps == 2  # at 256 and 512 buckets (the next at 1024)
    assert looks.count == 256 + 512 and sweep.next_at == 1024


async def test_inactive_buckets_still_leave() -> None:
    http = discord.http.HTTPClient(asyncio.get_running_loop())
    sweep = amortise_bucket_sweep(http)
    assert sweep is not None
    new_buckets(http, 0, SWEEP_FLOOR - 1)
    for bucket in list(http._buckets.values())[:200]:
        bucket._last_request -= 301  # unused for five minutes
    assert sweep.sweeps == 0 and len(http._buckets) == SWEEP_FLOOR - 1
    new_buckets(http, 1000, 1)  # the 256th: swept
    assert sweep.sweeps == 1 and len(http._buckets) == SWEEP_FLOOR - 200
    assert sweep.next_at == SWEEP_FLOOR  # (never below discord.py's own threshold)
    for bucket in http._buckets.values():
        assert not bucket.is_inactive()


def test_a_client_without_the_buckets_is_left_alone() -> None:
    class Other:
        def _try_clear_expired_ratelimits(self) -> None:
            pass

    other = Other()
    original = other._try_clear_expired_ratelimits
    assert amortise_bucket_sweep(other) is None
    assert other._try_clear_expired_ratelimits == original
