"""Helper process for the crash test: append actions to one game forever, printing each
seq only after `games.append_action` returned. Usage: python crash_writer.py URL GAME_ID"""

from __future__ import annotations

import asyncio
import sys

from db.store import Store


async def main(url: str, game_id: int) -> None:
    store = await Store.open(url, migrate=False)
    game = await store.games.get(game_id)
    assert game is not None
    version = game.version
    print("ready", flush=True)
    while True:
        version = await store.games.append_action(
            game_id, version, version % 4, {"n": version + 1, "pad": "牌" * 50}
        )
        print(version, flush=True)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
