"""The fairness hash of a hand, as published when it began, is kept with the hand's record
and shown in the history beside the check of the revealed seed (issue 12, item 9)."""

from __future__ import annotations

import hashlib
import itertools

from svc_helpers import USERS, lobby_with, settle
from test_svc_play import play_until_over

from engine.game.wall import commitment
from services.stats_text import seed_lines


async def test_each_recorded_hand_keeps_the_hash_published_at_its_start(make_service, store):
    seeds = (f"seed-{n}" for n in itertools.count())
    svc = make_service(new_seed=lambda: next(seeds))
    gid = await lobby_with(svc, 1, variant="xinyu")
    await svc.start(gid, USERS[0])
    first = (await store.games.get(gid)).seed_commitment
    await play_until_over(svc, gid, USERS[:1])
    await settle(svc)
    await svc.next_hand(gid, USERS[0])
    second = (await store.games.get(gid)).seed_commitment
    assert first and second and first != second
    # a restart in the middle of hand 2: the hash published for it comes back from the store
    await svc.close()
    fresh = make_service(new_seed=lambda: next(seeds))
    await fresh.resume_all()
    await play_until_over(fresh, gid, USERS[:1])
    await settle(fresh)
    hands = await store.hands.of_game(gid)
    assert [h.hand_no for h in hands] == [1, 2]
    assert [h.seed_reveal["commitment"] for h in hands] == [first, second]
    for hand in hands:  # and the reveal matches what was published
        reveal = hand.seed_reveal
        assert commitment(reveal["seed"], reveal["wall_ids"]) == reveal["commitment"]


def test_history_shows_the_published_hash_and_whether_the_reveal_matches() -> None:
    seed, wall = "abc", [5, 1, 4]
    digest = hashlib.sha256(b"abc:5,1,4").hexdigest()
    assert commitment(seed, wall) == digest
    reveal = {"seed": seed, "wall": [w >> 2 for w in wall], "wall_ids": wall}

    ok = seed_lines({**reveal, "commitment": digest}, "en")
    assert ok[0] == "Seed: `abc`"
    assert ok[1] == f"SHA-256 published when the hand began: `{digest}`"
    assert ok[2].startswith("✅")

    other = hashlib.sha256(b"another wall").hexdigest()
    bad = seed_lines({**reveal, "commitment": other}, "zh")
    assert other in bad[1] and bad[2].startswith("❌") and digest in bad[2]

    # a hand recorded before the published hash was kept: says so, shows the recomputed one
    old = seed_lines(reveal, "en")
    assert "not kept" in old[1] and digest in old[2] and "✅" not in "".join(old)
    assert seed_lines(None, "en") == ["(played with real tiles: no seed)"]
