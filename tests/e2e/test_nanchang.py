"""End-to-end: a 南昌 game through the real bot and the fake Discord — 4 hands, 1 human and 3
AI seats, to its standings; every result shows the 精 settlement (each seat's 正精 / 副精 and
what it settled), a drawn hand is settled too, the store records the settlement in each
hand's deltas, and no concealed tile or claim leaks."""

from __future__ import annotations

import pytest

from .fake_discord import FakeDiscord
from .game_driver import (
    _game_row,
    check_privacy,
    click_ok,
    game_env,
    open_game,
    play_hand,
    table_message,
)
from .test_session import last_result, standings, totals

pytestmark = pytest.mark.e2e

#: The first hand's wall: with the human pressing the simple player's choice (win, else pass,
#: else throw the drawn tile) and the engine's AI on the other seats, nobody wins — a drawn
#: hand (荒庄), which 南昌 still settles (jing_on_draw, on by default). The other hands are
#: dealt from seeds of their own.
SEEDS = "nc-draw-191,nc-e2e-2,nc-e2e-3,nc-e2e-4"


async def test_a_nanchang_game_of_four_hands_settles_jing_every_hand(
    fake: FakeDiscord, bot_factory
) -> None:
    proc = bot_factory(env=game_env(EXTRA_EXTENSIONS="e2e_seed", E2E_SEEDS=SEEDS))
    await proc.start_ready()
    alice = fake.user("alice")
    gid, _lobby = await open_game(fake, alice, [], variant="nanchang", length="4")
    table = await fake.wait_for(lambda: table_message(fake, gid), 10, what="the table")
    # the table names both 精, the 正精 first
    assert "正精" in fake.messages[table.id].text() and "副精" in table.text()
    texts = []
    for hand in range(1, 5):
        last = (lambda: standings(fake, gid) and last_result(fake, gid, 4)) if hand == 4 else None
        result = await play_hand(fake, [alice], gid, hand_no=hand, until=last)
        result = last_result(fake, gid, hand) or result
        text = fake.messages[result.id].text()
        texts.append(text)
        assert any(a.filename == "result.png" for a in result.attachments)
        # the 精 settlement: its heading and one line per seat with 正精 / 副精 and its net
        assert "精分结算" in text, text
        assert text.count("正精") >= 4 and text.count("结算") >= 5, text
        if hand < 4:
            await click_ok(fake, alice, result, f"mj:{gid}:next:{hand}")
            await fake.wait_for(
                lambda h=hand, r=result: f"第{h + 1}/4局" in (table_message(fake, gid) or r).text(),
                15,
                what=f"hand {hand + 1}'s table",
            )
    # hand 1 was drawn, and settled: 精 paid all the same
    assert "流局" in texts[0] or "荒" in texts[0], texts[0]
    assert "精分" in texts[0].split("收支明细", 1)[1], texts[0]
    await fake.wait_for(lambda: standings(fake, gid), 20, what="the final standings")
    status, final = totals(proc, gid)
    assert status == "finished"
    # the store's hands: each hand's deltas zero-sum, the drawn one not all zero, and the game's
    # totals their sum (the settlement is in what leaderboards and standings read)
    hands = proc.rows("SELECT id, hand_no, how FROM hands WHERE game_id = ? ORDER BY hand_no", gid)
    assert [h[1] for h in hands] == [1, 2, 3, 4] and hands[0][2] == "draw"
    deltas = []
    for hand_id, _no, _how in hands:
        seats = proc.rows(
            "SELECT seat, delta FROM hand_results WHERE hand_id = ? ORDER BY seat", hand_id
        )
        assert [s for s, _d in seats] == [0, 1, 2, 3]
        deltas.append([int(d) for _s, d in seats])
    assert any(deltas[0])  # the drawn hand's 精 were paid
    assert all(sum(d) == 0 for d in deltas)
    assert [sum(col) for col in zip(*deltas, strict=True)] == final
    variant, _options, _seats = _game_row(proc, gid)
    assert variant == "nanchang"
    check_privacy(fake)
