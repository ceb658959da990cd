"""A game loaded from the database (by a process that did not hold it: a DM press arrives on
shard 0 while the game's server is on another shard) keeps each seat's prompt version — the
version its current decision began at — so a hand message drawn then is not refused as stale
because the game moved on in a way that did not change that seat's decision."""

from __future__ import annotations

import pytest
from svc_helpers import CHANNEL, GUILD, USERS, simple_choice

from services.errors import StaleButton


async def test_a_loaded_game_accepts_the_hand_drawn_for_the_current_decision(
    make_service, store
) -> None:
    holder = make_service()
    game = await holder.create_game(GUILD, CHANNEL, USERS[0], "host", "shangrao")
    await holder.join(game.id, USERS[1], "p102")
    await holder.start(game.id, USERS[0])
    views = {uid: await holder.private_view(game.id, uid) for uid in USERS[:2]}
    [asked] = [uid for uid, view in views.items() if view.hand.legal]
    [other] = [uid for uid in USERS[:2] if uid != asked]
    drawn_at = holder._games[game.id].live.prompt_version[views[asked].seat]
    assert drawn_at == holder._games[game.id].live.version  # asked at the newest version
    # the game moves on without touching the asked seat's decision: the other player
    # goes on 托管 (a logged change)
    await holder.set_autoplay(game.id, other, True)
    moved = (await store.games.get(game.id)).version
    assert moved > drawn_at

    loader = make_service()  # another process: it loads the game to serve the press
    view = views[asked]
    result = await loader.act(
        game.id, asked, simple_choice(view.hand.legal, view.hand.drawn), seen_version=drawn_at
    )
    assert result.game.version > moved  # taken, not refused as stale
    # a button from before that decision is still refused
    again = make_service()
    again_view = await again.private_view(game.id, asked)
    assert again_view.hand.legal  # the only human not on 托管 is asked again
    with pytest.raises(StaleButton):
        await again.act(
            game.id,
            asked,
            simple_choice(again_view.hand.legal, again_view.hand.drawn),
            seen_version=drawn_at,
        )
