"""Where the resume after a restart stands (续局), so that a lookup that finds no game is
answered truthfully.

Until every unfinished game is loaded again, a channel or a player without a game in memory
may have one still loading: the answer is "resuming…", not "There is no game here". A game
that could not be read (its log does not replay, the database refused the read) is not gone
either: its players are told it could not be loaded and that the operator was told (the log
has the error), never that there is no game.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from services.errors import GamesResuming, GameUnreadable


@dataclass
class ResumeState:
    """The resume of this process: done or not, and the games it could not read."""

    #: every unfinished game was loaded (or tried): a miss is a real "no game"
    done: bool = False
    #: the unfinished games could not even be listed: any game may be one of them
    listing_failed: bool = False
    #: channel id → the game of that channel that could not be read
    unreadable_channels: dict[int, int] = field(default_factory=dict)
    #: (server id, user id) → the game that player sits in that could not be read
    unreadable_players: dict[tuple[int, int], int] = field(default_factory=dict)

    def could_not_read(
        self, game_id: int, guild_id: int, channels: list[int], users: list[int]
    ) -> None:
        """Game ``game_id`` (in ``channels``: its channel and its thread; seated ``users``)
        could not be loaded."""
        for channel in channels:
            if channel:
                self.unreadable_channels[channel] = game_id
        for user in users:
            self.unreadable_players[(guild_id, user)] = game_id

    def loaded(self, game_id: int) -> None:
        """Game ``game_id`` was read after all (a later attempt)."""
        self.unreadable_channels = {
            k: v for k, v in self.unreadable_channels.items() if v != game_id
        }
        self.unreadable_players = {k: v for k, v in self.unreadable_players.items() if v != game_id}

    def explain_miss(self, channel_id: int, guild_id: int | None, user_id: int | None) -> None:
        """Raise the truthful refusal for a lookup that found no game in memory:
        :class:`GameUnreadable` for a game that could not be read, :class:`GamesResuming`
        while the resume runs; return when there is really no game."""
        game_id = self.unreadable_channels.get(channel_id)
        if game_id is None and guild_id is not None and user_id is not None:
            game_id = self.unreadable_players.get((guild_id, user_id))
        if game_id is not None:
            raise GameUnreadable(game_id=game_id)
        if self.listing_failed:
            raise GameUnreadable(game_id=0)
        if not self.done:
            raise GamesResuming()


__all__ = ["ResumeState"]
