"""The wall: physical tiles, a deterministic shuffle from a seed, and its commitment.

A physical tile id is ``kind * 4 + copy`` (0–135). The shuffle is Fisher–Yates driven by a
SHA-256 counter stream of the hand seed, so the same seed gives the same wall on any Python.
At hand start the engine publishes :func:`commitment` (SHA-256 of seed and wall order); the
hand's end reveals both so anyone can check them with :func:`verify`.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Iterable, Iterator


def kind(tile_id: int) -> int:
    """The kind (0–33) of a physical tile."""
    return tile_id >> 2


def tile_ids(kinds: Iterable[int]) -> list[int]:
    """All four physical copies of each kind, in id order."""
    return [k * 4 + c for k in kinds for c in range(4)]


def new_seed() -> str:
    """A fresh game seed from the CSPRNG (64 hex digits)."""
    return secrets.token_hex(32)


def derive_seed(game_seed: str, label: str) -> str:
    """A sub-seed (hand seed, dice) from the game seed: HMAC-SHA256(game seed, label)."""
    return hmac.new(game_seed.encode(), label.encode(), hashlib.sha256).hexdigest()


def _stream(seed: str) -> Iterator[int]:
    counter = 0
    while True:
        block = hashlib.sha256(f"{seed}:{counter}".encode()).digest()
        counter += 1
        for i in range(0, 32, 4):
            yield int.from_bytes(block[i : i + 4], "big")


def randbelow(stream: Iterator[int], n: int) -> int:
    """Uniform integer in ``[0, n)`` by rejection sampling on 32-bit words."""
    limit = (1 << 32) - (1 << 32) % n
    while True:
        x = next(stream)
        if x < limit:
            return x % n


def shuffle(ids: Iterable[int], seed: str) -> list[int]:
    """Deterministic Fisher–Yates shuffle of ``ids`` from ``seed``."""
    out = list(ids)
    stream = _stream(seed)
    for i in range(len(out) - 1, 0, -1):
        j = randbelow(stream, i + 1)
        out[i], out[j] = out[j], out[i]
    return out


def dice(seed: str, purpose: str, n: int) -> list[int]:
    """``n`` dice values 1–6 for a narrated roll (骰子), derived from the hand seed."""
    stream = _stream(f"{seed}/dice/{purpose}")
    return [randbelow(stream, 6) + 1 for _ in range(n)]


def commitment(seed: str, wall: Iterable[int]) -> str:
    """SHA-256 hex of ``"<seed>:<id,id,...>"``: published before the hand, checkable after."""
    text = seed + ":" + ",".join(str(t) for t in wall)
    return hashlib.sha256(text.encode()).hexdigest()


def verify(seed: str, wall: Iterable[int], digest: str) -> bool:
    """Whether a revealed seed and wall match the published commitment."""
    return hmac.compare_digest(commitment(seed, wall), digest)
