"""Server errors on demand: the next requests matching a rule get a 5xx (or any status).

``FakeDiscord.break_next(method, path, count, status=500, match=None)``: the next ``count``
requests with ``method`` whose path matches the regex ``path`` (and, with ``match``, whose
:class:`RestCall` it accepts — e.g. only the message carrying a hand's result) are answered
``status`` with Discord's error body, and nothing is done. ``count=None``: until
:meth:`Fault.heal`. Each refused call is kept in :attr:`Fault.refused`.

``after=True``: a response lost on the way back — the request is carried out (the message
is created, the event dispatched), then answered ``status`` all the same, as when Discord
times out or a proxy fails after the work was done; the client cannot tell it happened.

discord.py itself tries a 500/502/504 up to five times inside one call (1, 3, 5, 7, 9 s
apart) and gives up at once on a 503; what the bot does after that is its own.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field

from .state import RestCall

MESSAGES = {
    500: "500: Internal Server Error",
    502: "502: Bad Gateway",
    503: "503: Service Unavailable",
    504: "504: Gateway Timeout",
}


@dataclass
class Fault:
    method: str
    path: re.Pattern[str]
    count: int | None  # requests still to refuse (None: until healed)
    status: int = 500
    match: Callable[[RestCall], bool] | None = None
    #: the request is carried out first, and only its answer is lost (replaced by ``status``)
    after: bool = False
    refused: list[RestCall] = field(default_factory=list)

    def applies(self, call: RestCall) -> bool:
        if self.count is not None and self.count <= 0:
            return False
        if call.method != self.method or not self.path.search(call.path):
            return False
        return self.match is None or bool(self.match(call))

    def heal(self) -> None:
        """Refuse nothing more."""
        self.count = 0

    def body(self) -> dict[str, object]:
        return {"message": MESSAGES.get(self.status, f"{self.status}: Error"), "code": 0}


@dataclass
class Faults:
    rules: list[Fault] = field(default_factory=list)

    def add(
        self,
        method: str,
        path: str,
        count: int | None,
        status: int,
        match: Callable[[RestCall], bool] | None,
        after: bool = False,
    ) -> Fault:
        rule = Fault(method.upper(), re.compile(path), count, status, match, after)
        self.rules.append(rule)
        return rule

    def take(self, call: RestCall) -> Fault | None:
        """The rule that refuses this call (its count goes down), or None."""
        for rule in self.rules:
            if rule.applies(call):
                if rule.count is not None:
                    rule.count -= 1
                rule.refused.append(call)
                return rule
        return None
