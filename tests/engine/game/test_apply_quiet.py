"""``apply_quiet``: a replay's step — the same new state as ``apply``, the same refusals, no
step made (no legal actions of the next state, no events kept)."""

from __future__ import annotations

import pytest

from engine.game import (
    Discard,
    IllegalAction,
    NextHand,
    apply,
    apply_quiet,
    new_game,
    replay,
    state_to_json,
)
from engine.game.ai import choose_action
from engine.game.state import GameState

VARIANTS = [("shangrao", {}), ("xinyu", {"discard_win": True}), ("jiujiang", {})]


def _played(variant: str, options: dict, seed: str, hands: int = 2) -> list[tuple[int, object]]:
    """An AI game's log, ``hands`` hands long: ``(seat, action)`` in order."""
    step = new_game(variant, options, seed)
    log: list[tuple[int, object]] = []
    played = 0
    while played < hands:
        if step.state.hand.phase == "over":
            played += 1
            if played == hands:
                break
            action: object = NextHand()
            seat = 0
        else:
            seat = step.awaited[0]
            action = choose_action(step.state, seat, legal=step.legal_for(seat))
        log.append((seat, action))
        step = apply(step.state, seat, action)
    return log


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_apply_quiet_makes_the_state_apply_makes(variant: str, options: dict) -> None:
    log = _played(variant, options, f"quiet/{variant}")
    assert any(isinstance(a, NextHand) for _, a in log)  # the log crosses a hand's end
    loud: GameState = new_game(variant, options, f"quiet/{variant}").state
    quiet = loud
    for seat, action in log:
        loud = apply(loud, seat, action).state
        before = state_to_json(quiet)
        quiet = apply_quiet(quiet, seat, action)
        assert state_to_json(quiet) == state_to_json(loud)
        assert quiet.actions == loud.actions
    assert before != state_to_json(quiet)
    replayed = replay(variant, options, f"quiet/{variant}", log)  # type: ignore[arg-type]
    assert state_to_json(replayed) == state_to_json(loud)


def test_apply_quiet_refuses_what_apply_refuses() -> None:
    step = new_game("xinyu", {}, "quiet/refused")
    state = step.state
    turn = state.hand.turn
    other = (turn + 1) % 4
    held = state.hand.seats[turn].hand
    missing = next(k for k in range(27) if all(t >> 2 != k for t in held))
    before = state_to_json(state)
    for seat, action in ((other, Discard(held[0] >> 2)), (turn, Discard(missing))):
        with pytest.raises(IllegalAction) as loud:
            apply(state, seat, action)
        with pytest.raises(IllegalAction) as quiet:
            apply_quiet(state, seat, action)
        assert str(quiet.value.reason) == str(loud.value.reason)
    with pytest.raises(IllegalAction):
        apply_quiet(state, 7, Discard(held[0] >> 2))
    assert state_to_json(state) == before  # refused: the state is unchanged
