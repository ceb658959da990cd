"""The service's typed refusals. Each has a ``key`` that :mod:`cogs.text` turns into a short
Chinese/English sentence and ``params`` for it; nothing in the game changed when one is raised.
"""

from __future__ import annotations

from typing import Any


class ServiceError(Exception):
    """A request the service refused; the cog answers it ephemerally."""

    key = "error"

    def __init__(self, detail: str = "", **params: Any) -> None:
        self.detail = detail
        self.params = params
        super().__init__(detail or self.key)


class NoSuchGame(ServiceError):
    """No game with that id (or none in this channel)."""

    key = "no_game"


class ChannelBusy(ServiceError):
    """This channel already has a game (one game per channel)."""

    key = "channel_busy"


class AlreadyPlaying(ServiceError):
    """The user already sits in a game of this server (one at a time)."""

    key = "already_playing"


class NotInGame(ServiceError):
    """The user has no seat in this game."""

    key = "not_in_game"


class NotHost(ServiceError):
    """Only the host (the first human seat) may do this."""

    key = "not_host"


class LobbyFull(ServiceError):
    """All four seats are taken."""

    key = "lobby_full"


class WrongPhase(ServiceError):
    """The game is not in the phase this needs (lobby, playing, between hands, over)."""

    key = "wrong_phase"


class NotYourTurn(ServiceError):
    """The game is not waiting for this seat now."""

    key = "not_your_turn"


class IllegalMove(ServiceError):
    """The engine refused the action; ``detail`` says why."""

    key = "illegal"


class StaleButton(ServiceError):
    """The button belongs to an earlier turn or hand."""

    key = "stale"


class BadOption(ServiceError):
    """An unknown variant or rule option, or a value it does not take."""

    key = "bad_option"
