"""The part of ``db.store.Store`` the game service uses (a Protocol, so tests and other
stores can stand in): the repositories it reaches. The real store satisfies it as it is."""

from __future__ import annotations

from typing import Protocol

from db.games import GameRepository
from db.guilds import GuildRepository
from db.hands import HandRepository
from db.players import PlayerRepository
from db.replays import ReplayRepository


class GameStore(Protocol):
    """Games with their action log (compare-and-set) and snapshots, finished hands, server
    settings and players; whole logs (a restart rebuilds results still owed from them)."""

    @property
    def games(self) -> GameRepository: ...

    @property
    def hands(self) -> HandRepository: ...

    @property
    def guilds(self) -> GuildRepository: ...

    @property
    def players(self) -> PlayerRepository: ...

    @property
    def replays(self) -> ReplayRepository: ...
