"""The lobby: open a game, take and leave seats, add AI players, start, abandon.

A lobby is a game with ``status == "lobby"`` and no state; :meth:`Lobby.start` deals
the first hand and hands the game over to play (:mod:`services.play`).
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from db.types import ChannelTaken, VersionConflict
from engine.options import OptionError, make_options, options_to_dict
from engine.refusal import Reason, reason_of
from services.core import SEATS, STORE_DEFAULT_CLAIM, STORE_DEFAULT_TURN, GameCore
from services.delivery import GameSummary
from services.errors import (
    AlreadyPlaying,
    BadOption,
    ChannelBusy,
    LobbyFull,
    NotInGame,
    ServiceError,
    StaleButton,
)
from services.model import AI_LEVELS, AI_NAMES, Seat
from services.session_state import BUILTIN_TIMEOUT, DEFAULT_LENGTH, apply_entry, parse_length
from services.table import Table

log = logging.getLogger(__name__)

#: how many times a lobby change is worked out again when another process wrote first
LOBBY_ATTEMPTS = 4

T = TypeVar("T")


class Lobby:
    """The lobby commands of :class:`services.game.GameService`: a plain collaborator that
    finds the game's table through the core and changes it along the table's change path."""

    def __init__(self, core: GameCore) -> None:
        self.core = core

    async def create_game(
        self,
        guild_id: int,
        channel_id: int,
        host_id: int,
        host_name: str,
        variant: str | None = None,
        overrides: dict[str, Any] | None = None,
        *,
        locale: str | None = None,
        length: str | None = None,
        rematch_of: int | None = None,
    ) -> GameSummary:
        """Open a lobby in the channel with the host in seat 0. Options: the server's
        defaults for the variant, then ``overrides``. ``locale``: the host's language.
        ``length``: hands or rounds (``8``, ``2圈``; default the server's ``length``);
        ``rematch_of``: the game this lobby is the 再来一局 of."""
        settings = await self.core.store.guilds.settings(guild_id)
        variant = variant or settings.default_variant
        try:
            base = dict(settings.rule_options.get(variant, {}))
            options = options_to_dict(make_options(variant, {**base, **(overrides or {})}))
        except OptionError as error:
            raise BadOption(reason_of(error)) from error
        setup = session_setup(settings, length, rematch_of)
        async with self.core._index_lock:
            if self.core.game_in_channel(channel_id) is not None:
                raise ChannelBusy(game_id=self.core.game_in_channel(channel_id))
            if self.core.game_of_player(guild_id, host_id) is not None:
                raise AlreadyPlaying(game_id=self.core.game_of_player(guild_id, host_id))
            seats = [Seat(name=host_name, user_id=host_id)]
            try:  # one open game per channel, across processes: the database decides
                info = await self.core.store.games.create(
                    guild_id,
                    channel_id,
                    variant,
                    options=options,
                    seats=[s.to_json() for s in seats],
                    status="lobby",
                    claim_channel=True,
                )
            except ChannelTaken as taken:
                raise ChannelBusy(game_id=taken.game_id) from taken
            table = self.core._new_table(self.core._live_from_info(info))
            live = table.live
            live.fresh = True  # the start-up resume pass leaves it alone
            await table.commit(None, setup)
            apply_entry(live.session, None, setup, self.core.clock())
            self.core._hold(table)
        await self._remember_player(host_id, host_name, locale)
        log.info("game %s: lobby opened (%s) in channel %s", live.id, variant, channel_id)
        summary = table.summary()
        table.enqueue(lambda: self.core.delivery.lobby_changed(summary))
        return summary

    async def join(
        self, game_id: int, user_id: int, name: str, *, locale: str | None = None
    ) -> GameSummary:
        """Take a free seat in the lobby."""
        table = await self.core._get(game_id)
        live = table.live

        async def take_seat() -> None:
            table.need("lobby")
            if live.seat_of(user_id) is not None:
                raise AlreadyPlaying(game_id=live.id, here=True)
            other = self.core.game_of_player(live.guild_id, user_id)
            if other is not None:
                raise AlreadyPlaying(game_id=other)
            if len(live.seats) >= SEATS:
                raise LobbyFull()
            seats = [*live.seats, Seat(name=name, user_id=user_id)]
            await self._save_seats(table, seats, "join")

        async with self.core._index_lock, table.lock:
            await self._lobby_write(table, take_seat)
        await self._remember_player(user_id, name, locale)
        return self._lobby_changed(table)

    async def leave(self, game_id: int, user_id: int) -> GameSummary:
        """Leave the lobby; the last human leaving closes it."""
        table = await self.core._get(game_id)
        live = table.live

        async def leave_seat() -> bool:
            table.need("lobby")
            seat = live.seat_of(user_id)
            if seat is None:
                raise NotInGame()
            seats = [s for i, s in enumerate(live.seats) if i != seat]
            await self._save_seats(table, seats, "leave")
            if not any(not s.ai for s in seats):
                await table.close("abandoned")
                return True
            return False

        async with table.lock:
            if await self._lobby_write(table, leave_seat):
                return table.summary()
        return self._lobby_changed(table)

    async def add_bot(self, game_id: int, user_id: int, level: str | None = None) -> GameSummary:
        """The host fills one free seat with an AI player of ``level`` (电脑难度, one of
        :data:`~services.model.AI_LEVELS`; ``None``: :data:`~services.model.AI_DEFAULT_LEVEL`).
        An unknown level is refused (:class:`BadOption`) and changes nothing."""
        if level is not None and level not in AI_LEVELS:
            raise BadOption(
                Reason(
                    "errors.option.unknown_level",
                    "unknown AI level {level!r}: choose one of {known}",
                    level=level,
                    known=", ".join(AI_LEVELS),
                )
            )
        table = await self.core._get(game_id)
        live = table.live

        async def seat_bot() -> None:
            table.need("lobby")
            table.need_host(user_id)
            if len(live.seats) >= SEATS:
                raise LobbyFull()
            seats = [*live.seats, self._ai_seat(live.seats, level)]
            await self._save_seats(table, seats, "bot")

        async with table.lock:
            await self._lobby_write(table, seat_bot)
        return self._lobby_changed(table)

    async def start(self, game_id: int, user_id: int) -> GameSummary:
        """The host starts: empty seats take AI players, the first hand is dealt. The seats,
        the status and the deal are one versioned write: a join that another process
        committed meanwhile is reloaded and kept, never written over."""
        table = await self.core._get(game_id)
        async with table.lock:
            await self._lobby_write(table, lambda: self._deal_first(table, user_id))
        return table.summary()

    async def _deal_first(self, table: Table, user_id: int) -> None:
        """:meth:`start` under the lock (again after a reload when another process wrote)."""
        live = table.live
        table.need("lobby")
        table.need_host(user_id)
        seats = list(live.seats)
        while len(seats) < SEATS:
            seats.append(self._ai_seat(seats))
        settings = await self.core.store.guilds.settings(live.guild_id)
        cfg = {
            "turn_timeout": self._timeout(settings.turn_timeout, STORE_DEFAULT_TURN, "turn"),
            "claim_timeout": self._timeout(settings.claim_timeout, STORE_DEFAULT_CLAIM, "claim"),
            "hints": bool(settings.hints),
            "thread": bool(settings.thread),
        }
        if settings.ai_pace is not None:
            cfg["ai_pace"] = float(settings.ai_pace)
        seed = self.core.new_seed()
        entry = {"k": "start", "seed": seed, "cfg": cfg}
        state, events = self.core.engine.new_game(live.variant, live.options, seed)
        await table.commit(
            None,
            entry,
            seats=[s.to_json() for s in seats],
            status="active",
            totals=[0] * SEATS,
            **table.commitment(events, keep=True),
        )
        self._seated(table, seats)
        live.cfg = cfg
        live.state = state
        live.hand_no = 1
        live.status = "active"
        table.bookkeep(None, None, self.core.clock())
        live.steps.append((None, None, state, list(events)))
        live.totals = [0] * SEATS
        log.info("game %s: started", live.id)
        events = list(events) + await table.advance()
        table.after_change(events)

    # ------------------------------------------------------------------ helpers

    def _lobby_changed(self, table: Table) -> GameSummary:
        summary = table.summary()
        table.enqueue(lambda: self.core.delivery.lobby_changed(summary))
        return summary

    async def _lobby_write(self, table: Table, change: Callable[[], Awaitable[T]]) -> T:
        """Run a lobby change (under the game's lock) whose writes are versioned: when
        another process wrote first (`VersionConflict`) the game is reloaded and the change
        worked out again from what is stored, at most ``LOBBY_ATTEMPTS`` times, then refused
        (`StaleButton`). Sharing the database, a refusal drawn from this process's copy is
        checked once against the stored game too (another process may have freed a seat)."""
        checked = False
        for _attempt in range(LOBBY_ATTEMPTS):
            try:
                return await change()
            except VersionConflict:
                await table.reload()
                checked = True
            except ServiceError:
                if checked or not self.core.shared:
                    raise
                before = table.live.version
                await table.reload()
                checked = True
                if table.live.version == before:
                    raise
        raise StaleButton("the lobby kept changing; try again")

    async def _save_seats(self, table: Table, seats: list[Seat], why: str) -> None:
        """Write the lobby's seats with the version check (a ``seats`` log entry)."""
        await table.commit(None, {"k": "seats", "why": why}, seats=[s.to_json() for s in seats])
        self._seated(table, seats)

    def _seated(self, table: Table, seats: list[Seat]) -> None:
        table.live.seats = seats
        if self.core._games.get(table.id) is table:
            self.core._games.reindex(table)  # who sits here (look-ups by player)

    @staticmethod
    def _ai_seat(seats: list[Seat], level: str | None = None) -> Seat:
        taken = {s.name for s in seats}
        name = next(n for n in AI_NAMES if n not in taken)
        return Seat(name=name, ai=True, level=level)

    def _timeout(self, server_value: int, builtin: int, which: str) -> float:
        if server_value != builtin:
            return float(server_value)
        return float(self.core.turn_timeout if which == "turn" else self.core.claim_timeout)

    async def _remember_player(self, user_id: int, name: str, locale: str | None) -> None:
        try:
            await self.core.store.players.upsert(
                user_id, display_name=name[:100], locale=(locale or None) and locale[:16]
            )
        except Exception:
            log.exception("could not save player %s", user_id)


def session_setup(settings: Any, length: str | None, rematch_of: int | None) -> dict[str, Any]:
    """The lobby's ``setup`` log entry (:mod:`services.session_state`): the game's length
    (``length``, else the server's, else 8 hands) and the server's 准备 / 解散 timeouts."""
    try:
        chosen = parse_length(length or getattr(settings, "length", None) or DEFAULT_LENGTH)
    except ValueError as error:
        raise BadOption(reason_of(error)) from error
    entry: dict[str, Any] = {"k": "setup", "length": chosen}
    for name in ("ready_timeout", "vote_timeout"):
        value = getattr(settings, name, None)
        # a server that kept the built-in value gets the bot's (``READY_TIMEOUT_SECONDS``…)
        usable = isinstance(value, int) and not isinstance(value, bool) and value > 0
        if usable and value != BUILTIN_TIMEOUT:
            entry[name] = value
    if rematch_of is not None:
        entry["rematch_of"] = int(rematch_of)
    return entry
