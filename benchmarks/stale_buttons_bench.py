"""How the removals of old buttons written down before a restart are spread at start-up
(:mod:`cogs.delivery.stale_buttons`): ``python -m benchmarks.stale_buttons_bench --games 20
--per-game 3``. Each game has ``per-game`` messages owing a removal, in its channel and in
the players' DM channels; the edits are answered at once (a fake Discord). Prints how long
they took, the most edits in any one second, and the shortest gap between two edits of one
channel."""

from __future__ import annotations

import argparse
import asyncio
import time
from types import SimpleNamespace
from typing import Any

from cogs.delivery.stale_buttons import STALE, StaleButtons


class Places:
    def __init__(self) -> None:
        self.closing = False
        self.refs_of: dict[int, dict[str, Any]] = {}
        self.edits: list[tuple[float, int]] = []
        self.preferences = SimpleNamespace(lang_for_guild=self._lang)

    async def _lang(self, _guild: int) -> str:
        return "en"

    def refs(self, game: Any) -> dict[str, Any]:
        return self.refs_of.setdefault(game.id, {})

    def live_refs(self, game_id: int) -> dict[str, Any] | None:
        return self.refs_of.get(game_id)

    def save_refs_behind(self, _game_id: int) -> None:
        pass

    def table_id(self, _game: Any) -> None:
        return None

    def partial(self, channel_id: int, _message_id: int) -> Any:
        places = self

        class Message:
            async def edit(self, **_fields: Any) -> None:
                places.edits.append((time.monotonic(), channel_id))

        return Message()


async def main(games: int, per_game: int) -> None:
    places = Places()
    stale = StaleButtons(places)  # type: ignore[arg-type]
    for gid in range(1, games + 1):
        owed = {}
        for i in range(per_game):
            channel = 1000 + gid if i % 2 == 0 else 5000 + gid * 10 + i  # the channel, or a DM
            owed[str(gid * 100 + i)] = [channel, gid * 100 + i, 0]
        places.refs_of[gid] = {STALE: owed}
        stale.adopt(SimpleNamespace(id=gid, guild_id=1))
    start = time.monotonic()
    while stale.waiting:
        await asyncio.sleep(0.05)
    took = time.monotonic() - start
    times = [at for at, _c in places.edits]
    busiest = max(sum(1 for u in times if t <= u < t + 1.0) for t in times)
    gaps = []
    last: dict[int, float] = {}
    for at, channel in places.edits:
        if channel in last:
            gaps.append(at - last[channel])
        last[channel] = at
    print(f"edits={len(places.edits)} seconds={took:.1f} most_in_one_second={busiest}")
    print(f"shortest_gap_same_channel_s={min(gaps):.2f}" if gaps else "no channel edited twice")
    await stale.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--per-game", type=int, default=3)
    args = parser.parse_args()
    asyncio.run(main(args.games, args.per_game))
