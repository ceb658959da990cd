"""Stateful fuzzing: random legal, AI and illegal actions from random seats, with invariants
checked after every step (tile conservation, views that never leak, illegal actions change
nothing, settlements sum to zero)."""

from __future__ import annotations

from game_helpers import check_conservation
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, rule

from engine.game import (
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    IllegalAction,
    IndicatorKong,
    KeepDrawing,
    Kong,
    NextHand,
    Pass,
    Pong,
    Win,
    apply,
    legal_actions,
    new_game,
    state_to_json,
    waiting_for,
)
from engine.game.ai import choose_action
from engine.game.view import public_view, seat_view

kinds = st.integers(0, 33)
any_action = st.one_of(
    st.builds(Discard, kinds),
    st.builds(lambda k: Chi((k, k + 1, k + 2)), st.integers(0, 24)),
    st.just(Pong()),
    st.just(Kong()),
    st.builds(ConcealedKong, kinds),
    st.builds(AddedKong, kinds),
    st.just(IndicatorKong()),
    st.just(Win()),
    st.just(Pass()),
    st.builds(KeepDrawing, kinds),
    st.builds(DeclareReady, kinds),
    st.just(NextHand()),
)
OPTIONS = {
    "shangrao": [{}, {"discard_win": True}, {"scoring": "xingchen"}],
    "xinyu": [{}, {"discard_win": True}, {"draw_dealer": "stay"}],
    "jiujiang": [{}, {"chi": True}],
}


class GameMachine(RuleBasedStateMachine):
    @initialize(
        variant=st.sampled_from(sorted(OPTIONS)),
        which=st.integers(0, 2),
        seed=st.text("0123456789abcdef", min_size=1, max_size=8),
    )
    def start(self, variant, which, seed):
        opts = OPTIONS[variant][which % len(OPTIONS[variant])]
        self.g, _ = new_game(variant, opts, seed=seed)

    @rule(data=st.data())
    def random_legal(self, data):
        seat = data.draw(st.sampled_from(waiting_for(self.g)))
        acts = legal_actions(self.g, seat)
        assert acts, "a seat the game waits on has something to do"
        self.g, events = apply(self.g, seat, data.draw(st.sampled_from(acts)))
        for e in events:
            if e.kind in ("dealt", "drawn", "claim_window", "responded"):
                assert e.visible_to is not None
            if e.kind == "hand_ended":
                assert sum(e.data["deltas"]) == 0

    @rule(n=st.integers(1, 12))
    def ai_steps(self, n):
        for _ in range(n):
            seat = waiting_for(self.g)[0]
            a = choose_action(self.g, seat)
            assert a in legal_actions(self.g, seat)
            self.g, _ = apply(self.g, seat, a)

    @rule(seat=st.integers(0, 3), action=any_action)
    def maybe_illegal(self, seat, action):
        before = state_to_json(self.g)
        if action in legal_actions(self.g, seat):
            self.g, _ = apply(self.g, seat, action)
            return
        try:
            apply(self.g, seat, action)
        except IllegalAction as e:
            assert e.reason
        else:
            raise AssertionError(f"{action} by {seat} should have been refused")
        assert state_to_json(self.g) == before

    @invariant()
    def tiles_conserved(self):
        check_conservation(self.g)

    @invariant()
    def zero_sum(self):
        assert sum(self.g.hand.deltas) == 0
        assert sum(self.g.scores) == 0

    @invariant()
    def views_do_not_leak(self):
        h = self.g.hand
        pub = public_view(self.g)
        assert "own" not in pub and ("wall" in pub) == (h.phase == "over")
        for seat in range(4):
            v = seat_view(self.g, seat)
            assert v["own"]["hand"] == [t >> 2 for t in h.seats[seat].hand]
            for i, s in enumerate(v["seats"]):
                assert "hand" not in s and s["concealed_count"] == len(h.seats[i].hand)
            assert {k: v[k] for k in pub} == pub  # the rest is the public table


GameMachine.TestCase.settings = settings(
    max_examples=80,
    stateful_step_count=100,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow],
)
TestGameMachine = GameMachine.TestCase
