"""The service's typed refusals. Each has a ``key`` of the ``errors`` catalogue that
:mod:`cogs.errors` turns into the user's language, and ``params`` for it; nothing in the game
changed when one is raised. They derive from the one root, :class:`engine.refusal.Refusal`.
"""

from __future__ import annotations

from typing import Any

from engine.refusal import Reason, Refusal


class ServiceError(Refusal):
    """A request the service refused; the cog answers it ephemerally."""

    key = "errors.error"


class NoSuchGame(ServiceError):
    """No game with that id (or none in this channel)."""

    key = "errors.no_game"


class ChannelBusy(ServiceError):
    """This channel already has a game (one game per channel)."""

    key = "errors.channel_busy"


class AlreadyPlaying(ServiceError):
    """The user already sits in a game of this server (one at a time); ``here=True``: in
    this very game."""

    key = "errors.already_playing"

    def __init__(self, detail: str = "", /, **params: Any) -> None:
        super().__init__(detail, **params)
        if params.get("here"):
            self.key = "errors.already_here"


class NotInGame(ServiceError):
    """The user has no seat in this game."""

    key = "errors.not_in_game"


class NotHost(ServiceError):
    """Only the host (the first human seat) may do this."""

    key = "errors.not_host"


class LobbyFull(ServiceError):
    """All four seats are taken."""

    key = "errors.lobby_full"


class WrongPhase(ServiceError):
    """The game is not in the phase this needs (lobby, playing, between hands, over)."""

    key = "errors.wrong_phase"


class NotYourTurn(ServiceError):
    """The game is not waiting for this seat now."""

    key = "errors.not_your_turn"


class IllegalMove(ServiceError):
    """The engine refused the action; ``detail`` says why."""

    key = "errors.illegal"


class StaleButton(ServiceError):
    """The button belongs to an earlier turn or hand."""

    key = "errors.stale"


class BadOption(ServiceError):
    """An unknown variant or rule option, or a value it does not take."""

    key = "errors.bad_option"


class TableBusy(ServiceError):
    """The database stayed locked past the timeout (another process writing, or a row lock
    held too long: `db.errors.StoreBusy`); the press was NOT recorded — press again."""

    key = "errors.table_busy"


class TableUnwritable(ServiceError):
    """The database cannot be written (disk full, read-only, the disk refusing writes:
    `db.errors.StoreUnwritable`); the press was NOT recorded, and pressing again will not
    help until the bot's operator fixes it (they are told in the log)."""

    key = "errors.db_unwritable"

    def __init__(self, why: str = "") -> None:
        super().__init__(why)
        self.why = why


class GamesResuming(ServiceError):
    """The bot has just restarted and is still loading its games: the one asked about may
    be among them (try again in a moment)."""

    key = "errors.resuming"


class GameUnreadable(ServiceError):
    """The game asked about could not be loaded from the database (the operator has the
    error in the log): it is not gone, and nothing of it was changed."""

    key = "errors.game_unreadable"


class EngineIllegal(Exception):
    """The engine refused an action; ``str(error)`` explains why (state unchanged).

    Raised by the engine adapter (:mod:`services.real_engine`) and turned into
    :class:`IllegalMove` by the play path."""


def not_possible(kind: str, arg: str | None = None) -> Reason:
    """Why a button's action was refused when the engine has nothing more precise:
    ``discard 5m is not possible now`` (the action word translated, the tile as written)."""
    what = Reason(f"common.action.{kind}", kind)
    shown = f" {arg}" if arg else ""
    return Reason(
        "errors.illegal.not_possible", "{what}{arg} is not possible now", what=what, arg=shown
    )
