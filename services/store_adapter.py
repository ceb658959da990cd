"""The part of ``db.store.Store`` the game service uses (a Protocol, so tests and other
stores can stand in). The real store satisfies it as it is."""

from __future__ import annotations

from typing import Any, Protocol

from db.types import GameInfo, GuildSettings, HandInput, LoadedGame, PlayerInfo, RecordedHand


class GameStore(Protocol):
    """Games, their action log with compare-and-set, snapshots, hands, settings."""

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        variant: str,
        *,
        options: dict[str, Any] | None = None,
        seats: list[Any] | None = None,
        status: str = "lobby",
    ) -> GameInfo: ...

    async def update_game(self, game_id: int, **changes: Any) -> GameInfo: ...

    async def append_action(
        self, game_id: int, expected_version: int, seat: int | None, action: dict[str, Any]
    ) -> int: ...

    async def save_snapshot(self, game_id: int, seq: int, state: dict[str, Any]) -> None: ...

    async def load_game(self, game_id: int) -> LoadedGame: ...

    async def load_unfinished_games(self) -> list[LoadedGame]: ...

    async def record_hand(self, hand: HandInput) -> RecordedHand: ...

    async def get_guild_settings(self, guild_id: int) -> GuildSettings: ...

    async def update_guild_settings(self, guild_id: int, **changes: Any) -> GuildSettings: ...

    async def upsert_player(
        self, user_id: int, *, display_name: str | None = None, locale: str | None = None
    ) -> PlayerInfo: ...
