"""Helpers of the service tests: constants, a recording delivery, small drivers."""

from __future__ import annotations

import asyncio
from typing import Any

from services.delivery import GameSummary, PrivateUpdate
from services.game import GameService
from services.model import ActionKey, GameEvent, HandResult, TableView

GUILD = 1000
CHANNEL = 2000
USERS = (101, 102, 103, 104)


class RecordingDelivery:
    """Keeps every call, in order; ``fail`` makes every call raise (delivery outage)."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, Any]] = []
        self.fail = False

    def _note(self, name: str, *args: Any) -> None:
        self.calls.append((name, args))
        if self.fail:
            raise RuntimeError("delivery is down")

    async def lobby_changed(self, game: GameSummary) -> None:
        self._note("lobby", game)

    async def table_changed(
        self, game: GameSummary, table: TableView, events: list[GameEvent]
    ) -> None:
        self._note("table", game, table, events)

    async def hand_changed(self, game: GameSummary, update: PrivateUpdate) -> None:
        self._note("hand", game, update)

    async def hand_ended(self, game: GameSummary, result: HandResult, table: TableView) -> None:
        self._note("result", game, result, table)

    async def past_result(self, game: GameSummary, result: HandResult, table: TableView) -> None:
        self._note("past_result", game, result, table)

    async def game_ended(self, game: GameSummary, reason: str) -> None:
        self._note("ended", game, reason)

    async def refresh(self, game: GameSummary, table: TableView | None) -> None:
        self._note("refresh", game, table)

    async def session_changed(self, game: GameSummary, result: HandResult | None) -> None:
        self._note("session", game, result)

    def named(self, name: str) -> list[tuple[Any, ...]]:
        return [args for n, args in self.calls if n == name]


async def lobby_with(svc: GameService, humans: int, *, variant: str = "shangrao", **kw: Any) -> int:
    """A lobby with ``humans`` human players (users 101…), the first the host."""
    game = await svc.create_game(GUILD, CHANNEL, USERS[0], "host", variant, kw or None)
    for uid in USERS[1:humans]:
        await svc.join(game.id, uid, f"p{uid}")
    return game.id


def simple_choice(legal: tuple[ActionKey, ...], drawn: str | None) -> ActionKey:
    """A human who wins when possible, passes claims and discards the drawn tile."""
    for kind in ("win", "pass"):
        for key in legal:
            if key.kind == kind:
                return key
    for key in legal:
        if key.kind == "discard" and key.arg == drawn:
            return key
    discards = [k for k in legal if k.kind == "discard"]
    return discards[0] if discards else legal[0]


def hang_after_deal(svc: GameService, hand_no: int) -> asyncio.Event:
    """The service's deals stop there: once hand ``hand_no`` (or a later one) is dealt, the
    deal never returns — as a process dying right after the deal's write. The event returned
    is set at that moment. (A table of robots plays a hand out within its deal.)"""
    deal = svc.session._deal_next
    dealt = asyncio.Event()

    async def deal_then_hang(table: Any) -> None:
        await deal(table)
        if table.live.hand_no >= hand_no:
            dealt.set()
            await asyncio.Event().wait()

    svc.session._deal_next = deal_then_hang  # type: ignore[method-assign]
    return dealt


async def settle(svc: GameService) -> None:
    """Let queued deliveries run."""
    await asyncio.sleep(0)
    await svc.idle()
