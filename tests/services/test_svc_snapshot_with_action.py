"""The periodic snapshot is stored in the transaction of the action that makes it due
(issue 15: no write of its own), and resuming from it equals replaying the whole log."""

from __future__ import annotations

from typing import Any

from svc_helpers import USERS, lobby_with, settle, simple_choice

from db.types import LoadedGame
from services import gamelog


async def _play(svc: Any, gid: int, presses: int) -> None:
    for n in range(presses):
        if n == 2:
            await svc.set_autoplay(gid, USERS[1], True)  # 托管 flags are in the snapshot too
        for uid in USERS[:2]:
            view = await svc.private_view(gid, uid)
            if view.hand.legal:
                await svc.act(gid, uid, simple_choice(view.hand.legal, None))
                break


def _compared(engine: Any, live: gamelog.LiveGame) -> dict[str, Any]:
    """What a resumed game holds, but ``window_at`` (a snapshot keeps the clock of its
    commit, the log the time stamp of its entry) and the prompt versions of seats asked
    nothing now (not kept in snapshots)."""
    held = gamelog.snapshot_of(engine, live)
    held.pop("window_at")
    asked = {s: v for s, v in live.prompt_version.items() if engine.legal_actions(live.state, s)}
    held.update(version=live.version, prompts=asked)
    return held


async def test_snapshots_land_with_their_actions_and_resume_like_the_whole_log(
    make_service, store, monkeypatch
) -> None:
    separate: list[int] = []
    real_save = store.games.save_snapshot

    async def save_snapshot(game_id: int, seq: int, state: Any, **kw: Any) -> None:
        separate.append(seq)
        await real_save(game_id, seq, state, **kw)

    monkeypatch.setattr(store.games, "save_snapshot", save_snapshot)
    svc = make_service(snapshot_every=3)
    gid = await lobby_with(svc, 2)
    await svc.start(gid, USERS[0])
    await _play(svc, gid, 8)
    live = svc._games[gid].live
    held = _compared(svc.engine, live)
    window_at = live.window_at
    await settle(svc)
    await svc.close()

    loaded = await store.games.load(gid)
    assert loaded.snapshot is not None and loaded.snapshot.seq > 1
    assert separate == []  # no snapshot was a write of its own
    whole = await store.replays.game_with_log(gid)
    assert whole is not None
    info, log = whole
    stamps = {a.seq: a.created_at for a in log}
    # the snapshot kept was written with the action of its seq (one time stamp)
    assert loaded.snapshot.created_at == stamps[loaded.snapshot.seq]

    fresh = make_service(snapshot_every=3)
    await fresh.resume_all()
    from_snapshot = fresh._games[gid].live

    replayed = gamelog.LiveGame.from_info(info)
    gamelog.replay(fresh.engine, replayed, LoadedGame(game=info, snapshot=None, actions=log))

    assert _compared(fresh.engine, from_snapshot) == _compared(fresh.engine, replayed) == held
    assert abs(from_snapshot.window_at - replayed.window_at) < 5.0
    assert abs(from_snapshot.window_at - window_at) < 5.0
    await fresh.close()


async def test_the_snapshot_of_a_hands_last_action_holds_its_ready_check(
    make_service, store
) -> None:
    """准备: the hand's last action opens the ready check once committed; the snapshot
    stored with that action holds it already (as a separate snapshot after it did)."""
    now = [1_000_000.0]
    svc = make_service(snapshot_every=1, clock=lambda: now[0])
    gid = await lobby_with(svc, 1)
    await svc.start(gid, USERS[0])
    await svc.set_autoplay(gid, USERS[0], True)  # the robots play the hand out
    for _ in range(200):
        if (await svc.summary(gid)).phase in ("hand_over", "game_over"):
            break
        view = await svc.private_view(gid, USERS[0])
        if view.hand.legal:
            await svc.act(gid, USERS[0], simple_choice(view.hand.legal, None))
    live = svc._games[gid].live
    assert (await svc.summary(gid)).phase in ("hand_over", "game_over")
    assert live.session.ready_hand == live.hand_no
    loaded = await store.games.load(gid)
    assert loaded.snapshot is not None and loaded.snapshot.seq == live.version
    assert loaded.snapshot.state["session"] == live.session.to_json()
    assert loaded.snapshot.state == gamelog.snapshot_of(svc.engine, live)
