"""Count what one press costs in engine work: ``python -m benchmarks.press_count``.

One game of one human and three AI seats (fixed seed, a throw-away SQLite database) is
played until the human's first discard after which the three AI seats each reply with a
turn of their own (打牌 by 下家, 对家, 上家) before the human is asked again. That one press
(``GameService.act``: validate, apply, commit, the AI replies, the views and prompts drawn
after it) is run under :func:`sys.setprofile`, counting

- ``legal_computations``: how many times the engine works out a seat's legal actions
  (calls of ``engine.game.legal.legal_actions``, from anywhere);
- ``crossings``: calls from a function of ``services/`` into a function of ``engine/`` (the
  layer crossings), with the files on either side.

Prints a short table and last one JSON line. Figures, never assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
from collections import Counter
from pathlib import Path
from types import FrameType
from typing import Any

from db.store import Store
from services.game import GameService
from services.model import ActionKey
from services.real_engine import RealEngine

ROOT = Path(__file__).resolve().parent.parent
SERVICES = str(ROOT / "services") + "/"
ENGINE = str(ROOT / "engine") + "/"
HUMAN = 100_001


class PressCounter:
    """A profiler hook counting legal-action computations and services → engine calls."""

    def __init__(self) -> None:
        self.legal = 0
        self.crossings = 0
        self.services_files: Counter[str] = Counter()
        self.engine_files: Counter[str] = Counter()
        self.engine_functions: Counter[str] = Counter()

    def __call__(self, frame: FrameType, event: str, arg: Any) -> None:
        if event != "call":
            return
        code = frame.f_code
        callee = code.co_filename
        if not callee.startswith(ENGINE):
            return
        if code.co_name == "legal_actions" and callee.endswith("engine/game/legal.py"):
            self.legal += 1
        caller = frame.f_back
        if caller is None or not caller.f_code.co_filename.startswith(SERVICES):
            return
        self.crossings += 1
        self.services_files[caller.f_code.co_filename.removeprefix(str(ROOT) + "/")] += 1
        self.engine_files[callee.removeprefix(str(ROOT) + "/")] += 1
        self.engine_functions[f"{callee.removeprefix(ENGINE)}:{code.co_name}"] += 1

    def report(self) -> dict[str, Any]:
        return {
            "legal_computations": self.legal,
            "crossings": self.crossings,
            "services_files": len(self.services_files),
            "engine_files": len(self.engine_files),
            "files": len(self.services_files) + len(self.engine_files),
        }


def _pick(legal: tuple[ActionKey, ...], drawn: str | None) -> ActionKey | None:
    """The human's discard: the drawn tile, else the first discard (None: no discard)."""
    discards = [k for k in legal if k.kind == "discard"]
    for key in discards:
        if key.arg == drawn:
            return key
    return discards[0] if discards else None


async def count_press(variant: str | None, seed: str, max_presses: int = 200) -> dict[str, Any]:
    """Play the seeded game up to the press described above and count that press."""
    from engine.tiles import tile_str

    folder = Path(tempfile.mkdtemp(prefix="mj-press-count-"))
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'count.db'}")
    svc = GameService(
        store, RealEngine(), turn_timeout=3600, claim_timeout=3600, new_seed=lambda: seed
    )
    try:
        game = await svc.create_game(1, 10_000, HUMAN, "p", variant)
        await svc.start(game.id, HUMAN)
        for _ in range(max_presses):
            summary = await svc.summary(game.id)
            if summary.phase != "turn":
                break
            view = await svc.private_view(game.id, HUMAN)
            drawn = tile_str(view.hand.drawn) if view.hand.drawn is not None else None
            key = _pick(view.hand.legal, drawn)
            if key is None:
                await svc.act(game.id, HUMAN, view.hand.legal[0])
                continue
            held = svc._games.get(game.id)
            before = None if held is None else held.live
            assert before is not None and before.state is not None
            actions_before = before.state.actions
            counter = PressCounter()
            sys.setprofile(counter)
            try:
                await svc.act(game.id, HUMAN, key)
            finally:
                sys.setprofile(None)
            held = svc._games.get(game.id)
            after = None if held is None else held.live
            assert after is not None and after.state is not None
            applied = after.state.actions - actions_before
            hand = after.state.hand
            seat = view.hand.seat
            if applied == 4 and hand.phase == "turn" and hand.turn == seat:
                out = counter.report()
                out.update(variant=after.variant, seed=seed, key=f"{key.kind}:{key.arg}")
                out["top_engine_functions"] = counter.engine_functions.most_common(12)
                return out
        raise RuntimeError("no discard press with exactly three AI replies was found")
    finally:
        await svc.close()
        await store.close()


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", default=None, help="default: the server default")
    parser.add_argument("--seed", default="00" * 16)
    args = parser.parse_args(argv)
    out = asyncio.run(count_press(args.variant, args.seed))
    top = out.pop("top_engine_functions")
    print(f"variant {out['variant']}, press {out['key']}, seed {out['seed']}")
    print(f"legal-action computations  {out['legal_computations']}")
    print(
        f"services → engine calls    {out['crossings']} "
        f"({out['services_files']} services files, {out['engine_files']} engine files)"
    )
    for name, n in top:
        print(f"  {n:4d}  {name}")
    print(json.dumps(out))


if __name__ == "__main__":
    main()
