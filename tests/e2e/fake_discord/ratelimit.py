"""Discord rate limits in the fake: 429 answers on demand or per route, and a strictness check.

Discord answers a request over its limit with HTTP 429, a JSON body
``{"message": "You are being rate limited.", "retry_after": 1.234, "global": false,
"code": 0}`` and headers ``Retry-After`` (whole seconds), ``X-RateLimit-Limit``,
``X-RateLimit-Remaining``, ``X-RateLimit-Reset`` (epoch seconds), ``X-RateLimit-Reset-After``
(seconds), ``X-RateLimit-Bucket`` (an opaque hash), ``X-RateLimit-Scope`` and, for the global
limit, ``X-RateLimit-Global: true``. Successful answers carry the same ``X-RateLimit-*``
headers, so a client can wait *before* it would hit the limit. discord.py (``http.py``
``HTTPClient.request``, ``webhook/async_.py``) treats a 429 without a ``Via`` header as a
Cloudflare ban and raises; Discord's answers have ``Via: 1.1 google``, so the fake sends it.

Two ways for a test to make the fake limit the bot:

- :meth:`RateLimits.fail_next` — "the next ``count`` requests matching ``method`` and the path
  regex get a 429 with ``retry_after``" (optionally the global limit);
- :meth:`RateLimits.limit_route` — "this route allows ``per`` requests per ``window`` seconds"
  per bucket (route template + major parameter: the channel, guild, or webhook), with the
  ``X-RateLimit-*`` headers on every answer and a 429 when the bucket is empty;
- :meth:`RateLimits.limit_global` — "the bot may make ``per_second`` requests per second in
  all" (Discord's global limit, 50 by default for a bot; interaction answers and webhooks are
  exempt): past it, a global 429 until the second is over.

Strictness (like the late-acknowledgement check): a :class:`Violation` is recorded when the
client sends the *same* request (method and path) again before the ``retry_after`` of its
429 has passed, or sends a request into a bucket that the fake's headers declared empty
(``Remaining: 0``) before that bucket's reset. A client can only learn of a 429 after the fake
sent it, so a client that waits as told never comes early; ``tolerance`` covers rounding.
"""

from __future__ import annotations

import hashlib
import math
import re
import time
from dataclasses import dataclass, field
from typing import Any

#: Routes Discord does not put under the global limit (interaction answers and webhooks).
GLOBAL_EXEMPT = re.compile(r"^/(?:interactions|webhooks)/")


def _ceil_ms(seconds: float) -> float:
    """Round up to the millisecond, as Discord writes ``retry_after`` (never early)."""
    return math.ceil(max(seconds, 0.0) * 1000) / 1000


def bucket_hash(method: str, template: str) -> str:
    """An opaque, stable ``X-RateLimit-Bucket`` value for one route."""
    return hashlib.sha1(f"{method} {template}".encode()).hexdigest()[:16]


@dataclass
class Hit:
    """One 429 the fake answered."""

    method: str
    path: str
    bucket: str
    retry_after: float
    is_global: bool
    reason: str  # "on demand", "route limit" or "global limit"
    at: float
    until: float

    def __repr__(self) -> str:
        scope = "global" if self.is_global else "bucket"
        return (
            f"<429 {self.method} {self.path} ({self.reason}, {scope}) retry_after="
            f"{self.retry_after:.3f}>"
        )


@dataclass
class Violation:
    """A request the client sent although Discord had told it to wait."""

    kind: str  # "retried before retry_after" or "ignored Remaining: 0"
    method: str
    path: str
    early_by: float
    told_at: float
    at: float

    def __repr__(self) -> str:
        return (
            f"<violation: {self.kind}: {self.method} {self.path} {self.early_by * 1000:.0f} ms "
            f"early>"
        )


@dataclass
class OnDemand:
    """``count`` more matching requests get a 429."""

    method: str
    pattern: re.Pattern[str]
    count: int
    retry_after: float
    is_global: bool


@dataclass
class RouteLimit:
    """``per`` requests per ``window`` seconds in each bucket of matching routes."""

    method: str
    pattern: re.Pattern[str]
    per: int
    window: float


@dataclass
class Bucket:
    """One bucket's window: how many requests it took since ``reset_at - window``."""

    limit: RouteLimit
    hash: str
    used: int = 0
    reset_at: float = 0.0
    declared_empty_until: float = 0.0
    told_at: float = 0.0


@dataclass
class Decision:
    """What to do with one request: answer 429 (``status``), or add ``headers`` to the answer."""

    status: int | None = None
    body: dict[str, Any] | None = None
    headers: dict[str, str] = field(default_factory=dict)
    bucket: Bucket | None = None


class RateLimits:
    """The fake's rate limiter; ``FakeDiscord.ratelimits``."""

    def __init__(self, *, tolerance: float = 0.005) -> None:
        self.tolerance = tolerance
        self.on_demand: list[OnDemand] = []
        self.route_limits: list[RouteLimit] = []
        self.buckets: dict[str, Bucket] = {}
        self.hits: list[Hit] = []
        self.violations: list[Violation] = []
        self.global_until = 0.0
        #: How many answers told the client a bucket was empty (``X-RateLimit-Remaining: 0``),
        #: i.e. how often a client that honours the headers had to wait before its next request.
        self.exhausted = 0
        #: Requests that arrived while a global 429 was running (informative: discord.py
        #: holds back new requests, but one already on its way may arrive).
        self.during_global: list[tuple[str, str, float]] = []
        self._retry_blocks: dict[tuple[str, str], tuple[float, float]] = {}
        #: requests per second allowed in all outside the exempt routes (0: no global limit)
        self.global_per_second = 0
        self._global_window = (0.0, 0)  # (when the current second started, requests in it)

    # --- what a test asks for -------------------------------------------------------------

    def fail_next(
        self,
        method: str,
        path: str,
        count: int = 1,
        *,
        retry_after: float = 0.5,
        is_global: bool = False,
    ) -> OnDemand:
        """The next ``count`` requests with ``method`` whose path (``/channels/…``) matches the
        regex ``path`` (``re.search``) get a 429 with ``retry_after`` seconds.

        ``is_global`` makes it the global limit (``"global": true``,
        ``X-RateLimit-Global``). Keep ``count`` below 5 per single request: discord.py gives up
        after five tries and raises ``HTTPException`` (status 429) to the caller.
        """
        rule = OnDemand(method.upper(), re.compile(path), count, retry_after, is_global)
        self.on_demand.append(rule)
        return rule

    def limit_route(self, method: str, path: str, per: int, window: float = 1.0) -> RouteLimit:
        """Matching requests (``method``, path regex) may be made ``per`` times per ``window``
        seconds in each bucket (route + channel/guild/webhook); every answer carries the
        ``X-RateLimit-*`` headers, and a request over the limit gets a 429."""
        assert per >= 1 and window > 0
        rule = RouteLimit(method.upper(), re.compile(path), per, window)
        self.route_limits.append(rule)
        return rule

    def limit_global(self, per_second: int) -> None:
        """The bot may make ``per_second`` requests per second in all, interaction answers
        and webhooks aside (Discord's global limit; 0 lifts it): a request past it gets a
        global 429 with ``retry_after`` up to the end of the second."""
        assert per_second >= 0
        self.global_per_second = per_second
        self._global_window = (0.0, 0)

    def clear(self) -> None:
        """Drop every rule (hits and violations stay recorded)."""
        self.on_demand.clear()
        self.route_limits.clear()
        self.buckets.clear()
        self.global_per_second = 0

    # --- the server side ------------------------------------------------------------------

    def check(self, method: str, path: str, template: str, major: str) -> Decision:
        """Called for each request to a known route before it is handled."""
        now = time.monotonic()
        self._check_strictness(method, path, now)
        if now < self.global_until and not GLOBAL_EXEMPT.match(path):
            self.during_global.append((method, path, self.global_until - now))
        limit = next(
            (r for r in self.route_limits if r.method == method and r.pattern.search(path)), None
        )
        bucket = self._bucket(limit, method, template, major, now) if limit else None
        if bucket is not None and now + self.tolerance < bucket.declared_empty_until:
            self.violations.append(
                Violation(
                    "ignored Remaining: 0",
                    method,
                    path,
                    bucket.declared_empty_until - now,
                    bucket.told_at,
                    now,
                )
            )
        rule = next(
            (
                r
                for r in self.on_demand
                if r.count > 0 and r.method == method and r.pattern.search(path)
            ),
            None,
        )
        if rule is not None:
            rule.count -= 1
            hash_ = bucket.hash if bucket else bucket_hash(method, template)
            return self._too_many(
                method, path, hash_, rule.retry_after, rule.is_global, "on demand", now, bucket
            )
        if self.global_per_second and not GLOBAL_EXEMPT.match(path):
            started, used = self._global_window
            if now - started >= 1.0:
                started, used = now, 0
            if used >= self.global_per_second:
                self._global_window = (started, used)
                hash_ = bucket.hash if bucket else bucket_hash(method, template)
                wait = started + 1.0 - now
                return self._too_many(method, path, hash_, wait, True, "global limit", now, bucket)
            self._global_window = (started, used + 1)
        if bucket is not None:
            if bucket.used >= bucket.limit.per:
                return self._too_many(
                    method,
                    path,
                    bucket.hash,
                    bucket.reset_at - now,
                    False,
                    "route limit",
                    now,
                    bucket,
                )
            bucket.used += 1
            return Decision(headers=self._headers(bucket, now), bucket=bucket)
        return Decision()

    def answered(self, decision: Decision, status: int) -> None:
        """The request was answered ``status``: an empty bucket is now declared empty."""
        bucket = decision.bucket
        if bucket is None or status == 429:
            return
        if bucket.used >= bucket.limit.per:
            bucket.declared_empty_until = bucket.reset_at
            bucket.told_at = time.monotonic()
            self.exhausted += 1

    def refuse(
        self,
        method: str,
        path: str,
        retry_after: float,
        *,
        code: int,
        message: str,
        reason: str,
    ) -> Decision:
        """A 429 for a limit of the route's own (such as Discord's edit budget of old
        messages, code 30046): recorded in :attr:`hits`, checked for early retries."""
        now = time.monotonic()
        decision = self._too_many(
            method, path, bucket_hash(method, path), retry_after, False, reason, now, None
        )
        assert decision.body is not None
        decision.body.update(code=code, message=message)
        return decision

    # --- internals ------------------------------------------------------------------------

    def _check_strictness(self, method: str, path: str, now: float) -> None:
        block = self._retry_blocks.get((method, path))
        if block is not None:
            told_at, until = block
            if now + self.tolerance < until:
                self.violations.append(
                    Violation("retried before retry_after", method, path, until - now, told_at, now)
                )
            else:
                del self._retry_blocks[(method, path)]

    def _bucket(
        self, limit: RouteLimit, method: str, template: str, major: str, now: float
    ) -> Bucket:
        key = f"{method} {template}:{major}"
        bucket = self.buckets.get(key)
        if bucket is None or bucket.limit is not limit:
            bucket = Bucket(limit, bucket_hash(method, template))
            self.buckets[key] = bucket
        if now >= bucket.reset_at:
            bucket.used = 0
            bucket.reset_at = now + limit.window
        return bucket

    def _headers(self, bucket: Bucket, now: float) -> dict[str, str]:
        reset_after = _ceil_ms(bucket.reset_at - now)
        return {
            "X-RateLimit-Limit": str(bucket.limit.per),
            "X-RateLimit-Remaining": str(max(bucket.limit.per - bucket.used, 0)),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.hash,
        }

    def _too_many(
        self,
        method: str,
        path: str,
        hash_: str,
        retry_after: float,
        is_global: bool,
        reason: str,
        now: float,
        bucket: Bucket | None,
    ) -> Decision:
        retry_after = _ceil_ms(retry_after)
        until = now + retry_after
        self.hits.append(Hit(method, path, hash_, retry_after, is_global, reason, now, until))
        self._retry_blocks[(method, path)] = (now, until)
        if is_global:
            self.global_until = max(self.global_until, until)
        headers = {
            "Retry-After": str(max(1, math.ceil(retry_after))),
            "X-RateLimit-Limit": str(bucket.limit.per if bucket else 1),
            "X-RateLimit-Remaining": "0",
            "X-RateLimit-Reset": f"{time.time() + retry_after:.3f}",
            "X-RateLimit-Reset-After": f"{retry_after:.3f}",
            "X-RateLimit-Bucket": hash_,
            "X-RateLimit-Scope": "global" if is_global else "user",
            "Via": "1.1 google",
        }
        if is_global:
            headers["X-RateLimit-Global"] = "true"
        body = {
            "message": "You are being rate limited.",
            "retry_after": retry_after,
            "global": is_global,
            "code": 0,
        }
        return Decision(status=429, body=body, headers=headers, bucket=bucket)


def major_parameter(params: dict[str, str]) -> str:
    """The part of a route that splits buckets on Discord (discord.py
    ``Route.major_parameters``): the channel, guild, or webhook id and token."""
    return "+".join(
        params[k] for k in ("cid", "gid", "app", "iid", "token") if params.get(k) is not None
    )
