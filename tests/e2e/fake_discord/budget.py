"""Discord's edit budget for old messages: error 30046.

A message older than an hour may be edited only a few times in a short while, per channel
("Maximum number of edits to messages older than 1 hour reached. Try again later.",
answered as HTTP 429 with code 30046). Discord publishes no figure; staff confirmed the limit
(discord-api-docs #4413) and the community-documented one is about 3 edits per 6 s per
channel, which the fake uses. Ages and the window follow the fake clock
(``fake.advance(seconds)``), so a test can make a table an hour old at once.

Only ``PATCH /channels/{id}/messages/{id}`` counts (interaction answers that update a
message are not limited here).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .ratelimit import Decision, RateLimits
from .state import FakeClock, FakeMessage

OLD_AGE = 3600.0
EDITS = 3
WINDOW = 6.0
CODE = 30046
MESSAGE = "Maximum number of edits to messages older than 1 hour reached. Try again later."


@dataclass
class OldEdit:
    """One edit of an old message the fake allowed (``at``: fake clock)."""

    channel_id: int
    message_id: int
    age: float
    at: float


@dataclass
class OldMessageEdits:
    """The per-channel budget; ``refused`` counts the 30046 answers."""

    clock: FakeClock
    ratelimits: RateLimits
    edits: int = EDITS
    window: float = WINDOW
    old_age: float = OLD_AGE
    allowed: list[OldEdit] = field(default_factory=list)
    refused: list[OldEdit] = field(default_factory=list)

    def check(self, msg: FakeMessage, method: str, path: str) -> Decision | None:
        """None when the edit may go ahead (and is counted), else the 429 to answer."""
        now = self.clock.now()
        age = now - msg.created_fake
        if age <= self.old_age:
            return None
        recent = [
            e.at
            for e in self.allowed
            if e.channel_id == msg.channel_id and now - e.at < self.window
        ]
        edit = OldEdit(msg.channel_id, msg.id, age, now)
        if len(recent) >= self.edits:
            self.refused.append(edit)
            retry_after = max(min(recent) + self.window - now, 0.001)
            return self.ratelimits.refuse(
                method, path, retry_after, code=CODE, message=MESSAGE, reason="old message edits"
            )
        self.allowed.append(edit)
        return None
