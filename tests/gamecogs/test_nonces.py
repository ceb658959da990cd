"""The nonces of posts that stand for one game event (:func:`cogs.delivery.places.nonce`): the same
in every process and after a restart (no randomness, no per-process hash seed), at most
Discord's 25 characters, different for different events."""

from __future__ import annotations

import subprocess
import sys

from cogs.delivery.discord_delivery import result_nonce
from cogs.delivery.places import MAX_NONCE, nonce

USER = 1577678424808357889
MESSAGE = 1577678822386434146


def test_short_ids_are_written_out_in_base_36() -> None:
    assert nonce("r", 1234567, 8) == "r.qglj.8"
    assert nonce("a", 0) == "a.0"


def test_long_ids_are_hashed_within_25_characters() -> None:
    made = nonce("d", 12, 3, USER, 4567, MESSAGE)
    assert made == "d~2oigiiflm9ylruqmoqi"  # fixed: the same in every process
    assert len(made) <= MAX_NONCE
    others = {nonce("d", 12, 3, USER, v, MESSAGE) for v in range(1000)}
    assert len(others) == 1000 and all(len(n) <= MAX_NONCE for n in others)


def test_the_same_in_another_process() -> None:
    code = (
        f"from cogs.delivery.places import nonce; print(nonce('d', 12, 3, {USER}, 4567, {MESSAGE}))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == nonce("d", 12, 3, USER, 4567, MESSAGE)


def test_a_results_nonce_is_its_games_and_hands() -> None:
    assert result_nonce(_Summary(7, 3)) == nonce("r", 7, 3)  # type: ignore[arg-type]
    assert result_nonce(_Summary(7, 3)) != result_nonce(_Summary(7, 4))  # type: ignore[arg-type]


class _Summary:
    def __init__(self, game: int, hand: int) -> None:
        self.id, self.hand_no = game, hand
