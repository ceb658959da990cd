"""``python -m engine.simulate``: AI self-play with checks (see :mod:`engine.game.simulate`)."""

from engine.game.simulate import bench_game, main, simulate

__all__ = ["bench_game", "main", "simulate"]

if __name__ == "__main__":
    raise SystemExit(main())
