"""The one root of every refusal the bot shows a user, and its translatable reasons.

A :class:`Refusal` carries a message ``key`` of the bot's catalogues (``errors.not_your_turn``)
and the arguments for it; nothing changed when one is raised. The service's refusals
(``services.errors``), the scoring desk's input errors (``services.desk_errors``), the
engine's illegal actions and the cogs' :class:`UserError` all derive from it, and one
handler (``cogs.errors``) turns any of them into the user's language.

A :class:`Reason` is a piece of explanation that can be translated: a ``str`` (its English
text, for logs and tests, exactly as before) that also remembers its catalogue key and
arguments. The engine explains an illegal action or a bad option with one; a refusal's
``detail`` and arguments may be reasons, translated recursively.

>>> why = Reason("errors.illegal.not_in_hand", "{tile} is not in seat {seat}'s hand",
...              tile="5m", seat=2)
>>> str(why), why.key, why.params["seat"]
("5m is not in seat 2's hand", 'errors.illegal.not_in_hand', 2)
>>> Refusal(why).detail is why
True
"""

from __future__ import annotations

from typing import Any


class Reason(str):
    """English text that also knows its catalogue ``key`` and ``params`` (see module doc)."""

    key: str
    params: dict[str, Any]

    def __new__(cls, key: str, english: str, /, **params: Any) -> Reason:
        self = super().__new__(cls, english.format(**params) if params else english)
        self.key = key
        self.params = params
        return self

    def __reduce__(self) -> tuple[Any, ...]:  # pickles/copies keep the key
        return (_rebuild_reason, (self.key, str(self), self.params))


class Words(tuple[str, ...]):
    """Several words in a reason (``discard, win``): shown joined by ``, ``; the bot
    translates each one and joins them in the reader's language."""

    def __str__(self) -> str:
        return ", ".join(str(w) for w in self)

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)


def _rebuild_reason(key: str, text: str, params: dict[str, Any]) -> Reason:
    reason = Reason(key, text)
    reason.params = params
    return reason


def reason_of(error: BaseException) -> str:
    """The explanation an exception was raised with: its :class:`Reason` when it has one
    (kept translatable), else its English text."""
    if isinstance(error, Refusal):
        return error.detail or str(error)
    first = error.args[0] if error.args else ""
    return first if isinstance(first, Reason) else str(error)


class Refusal(Exception):
    """A request refused with a message for the user: ``key`` (a catalogue key) and
    ``params``; ``detail`` (often a :class:`Reason`) fills the key's ``{detail}``."""

    key: str = "errors.error"

    def __init__(self, detail: str = "", /, **params: Any) -> None:
        self.detail = detail
        self.params = params
        super().__init__(detail or self.key)

    def message_args(self) -> dict[str, Any]:
        """The arguments of the message: ``params`` and ``detail``."""
        return {**self.params, "detail": self.detail}
