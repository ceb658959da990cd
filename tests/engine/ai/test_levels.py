"""AI levels (初级 / 中级 / 高级): names, legal play at every level, and the review giving the
advanced level's discard."""

from __future__ import annotations

import pytest

from engine.ai.levels import AUTOPLAY_LEVEL, DEFAULT_LEVEL, LEVELS, choose_at, level_of
from engine.ai.strong import best_discard
from engine.game.actions import DeclareReady, Discard
from engine.game.legal import legal_actions
from engine.game.machine import advance, new_game
from engine.game.state import PHASE_OVER
from engine.logformat import GameLog
from engine.replay import hand_states
from engine.review import review_hand
from engine.simulate import simulate


def test_level_names() -> None:
    assert LEVELS == ("beginner", "intermediate", "advanced")
    assert level_of("高级") == "advanced" and level_of(" Beginner ") == "beginner"
    assert level_of("中级") == DEFAULT_LEVEL
    assert AUTOPLAY_LEVEL == "advanced"
    with pytest.raises(ValueError, match="unknown AI level 'expert'"):
        level_of("expert")


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang", "nanchang"])
def test_every_level_plays_legal_hands_to_the_end(variant: str) -> None:
    for n in range(3):
        step = new_game(variant, None, f"levels/{n}")
        levels = [LEVELS[(n + s) % 3] for s in range(4)]
        for _ in range(2000):
            g = step.state
            if g.hand.phase == PHASE_OVER:
                break
            seat = step.awaited[0]
            legal = step.legal_for(seat)
            action = choose_at(g, seat, levels[seat], legal)
            assert action in legal
            step = advance(step, seat, action)
        assert step.state.hand.phase == PHASE_OVER
        assert sum(step.state.hand.deltas) == 0


def test_choose_at_refuses_an_unknown_level() -> None:
    g = new_game("xinyu", None, "x").state
    with pytest.raises(ValueError, match="unknown AI level"):
        choose_at(g, g.hand.turn, "grandmaster")


@pytest.mark.parametrize("variant", ["shangrao", "jiujiang"])
def test_the_review_suggests_the_advanced_levels_discard(variant: str) -> None:
    games: list = []
    simulate(variant, 8, "review-levels", None, verify=False, record=games)
    log = GameLog(variant, {}, games)
    checked = 0
    for _game, hand in log.hands():
        states = hand_states(variant, None, hand).states
        for seat in range(4):
            for line in review_hand(variant, {}, hand, seat):
                if line.kind != "discard":
                    continue
                state = states[line.step - 1]
                legal = legal_actions(state, seat)
                kinds = sorted({a.tile for a in legal if isinstance(a, Discard | DeclareReady)})
                assert line.data["suggested"] == best_discard(state, seat, kinds, defend=False)
                assert line.data["suggested"] != line.data["played"]
                checked += 1
    assert checked > 0  # baseline's play differs from the advanced AI's somewhere
