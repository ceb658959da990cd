"""Message nonces, as Discord's create-message applies them.

``POST /channels/{id}/messages`` takes ``nonce`` (an integer or a string of at most
:data:`MAX_NONCE` characters; longer: 400 Invalid Form Body). Without ``enforce_nonce`` it is
only echoed in the message (and its ``MESSAGE_CREATE``). With ``enforce_nonce: true`` it is
checked for uniqueness in the past few minutes (:data:`NONCE_WINDOW`, by the fake clock):
when the same author created a message with the same nonce in the same channel meanwhile,
that message is returned (200) and nothing is created — no second message, no second
``MESSAGE_CREATE``, nobody notified again. (What Discord does once that message was deleted
is not documented; the fake then creates a new one.)

discord.py sends a random nonce with ``enforce_nonce`` on every ``send`` unless given one, so
its own retries of one call (a 500, a 502) never post twice; a second ``send`` of the same
thing — a retry by the caller, another process, a restart — does only when both carry the
same nonce. Every answer given for a known nonce is in :attr:`Nonces.repeats`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from .state import FakeClock

#: the longest nonce Discord accepts (characters)
MAX_NONCE = 25
#: how long (fake clock seconds) an enforced nonce keeps its message: "the past few minutes"
NONCE_WINDOW = 5 * 60


def nonce_problem(data: dict[str, Any]) -> dict[str, Any] | None:
    """The ``errors`` of Discord's 400 for a bad ``nonce`` (too long, not a string or an
    integer), or None."""
    nonce = data.get("nonce")
    if nonce is None:
        return None
    if isinstance(nonce, bool) or not isinstance(nonce, int | str):
        return {"nonce": {"_errors": [{"code": "NONCE_TYPE_INVALID", "message": "bad nonce"}]}}
    if len(str(nonce)) > MAX_NONCE:
        return {
            "nonce": {
                "_errors": [
                    {
                        "code": "BASE_TYPE_MAX_LENGTH",
                        "message": f"Must be {MAX_NONCE} or fewer in length.",
                    }
                ]
            }
        }
    return None


@dataclass
class Nonces:
    """The enforced nonces of the past :data:`NONCE_WINDOW` seconds: (author, channel,
    nonce) → (when, message id)."""

    clock: FakeClock
    window: float = NONCE_WINDOW
    seen: dict[tuple[int, int, str], tuple[float, int]] = field(default_factory=dict)
    #: (nonce, message id) of every create answered with an existing message
    repeats: list[tuple[str, int]] = field(default_factory=list)

    def earlier(self, author: int, channel: int, nonce: Any) -> int | None:
        """The message the same author created in the channel with this nonce within the
        window, or None."""
        key = (author, channel, str(nonce))
        found = self.seen.get(key)
        if found is None:
            return None
        if self.clock.now() - found[0] > self.window:
            del self.seen[key]
            return None
        return found[1]

    def note(self, author: int, channel: int, nonce: Any, message_id: int) -> None:
        """A message created with an enforced nonce."""
        now = self.clock.now()
        if len(self.seen) > 10_000:  # (a long load test) the lapsed ones go
            self.seen = {k: v for k, v in self.seen.items() if now - v[0] <= self.window}
        self.seen[(author, channel, str(nonce))] = (now, message_id)

    def repeated(self, nonce: Any, message_id: int) -> None:
        """A create answered with the message its nonce already made."""
        self.repeats.append((str(nonce), message_id))
