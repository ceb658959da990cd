"""南昌麻将 table flow (RULES §8.1–§8.2): the 精 flip from the tail and the 34 tiles never
drawn, chi from the 上家 with honour sequences, 精 as plain tiles once discarded or melded,
kongs with tail replacements past the indicator, one winner by play order, 精钓 on a
discard, the missed-win locks, 抄庄 and the deal, and the hand-end settlement hook.

Wins here are judged by a stand-in scorer (any complete hand is a legal win worth 1) so
that each test checks the table flow alone; the real 南昌 scorer has its own tests."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from game_helpers import check_conservation, rig, stand_in_nanchang

from engine.game import (
    AddedKong,
    Chi,
    ConcealedKong,
    Discard,
    IllegalAction,
    Pass,
    Pong,
    Win,
    apply,
    legal_actions,
    new_game,
    state_from_json,
    state_to_json,
)
from engine.game import events as ev
from engine.game.legal import waiting_for
from engine.game.rules import is_wildcard_wait, live_count, seat_counts
from engine.game.view import public_view, seat_view
from engine.notation import parse_tiles
from engine.tiles import successor
from engine.variants.base import HandEnd

RESERVE = 34


def K(text: str) -> int:
    return parse_tiles(text)[0]


def do(g, seat, action):
    step = apply(g, seat, action)
    check_conservation(step.state)
    return step.state


def do_events(g, seat, action):
    step = apply(g, seat, action)
    check_conservation(step.state)
    return step.state, step.events


@pytest.fixture
def table_only() -> Iterator[list[HandEnd]]:
    """南昌 with a stand-in scorer and a hand-end hook recording what it was given."""
    with stand_in_nanchang() as seen:
        yield seen


def quiet_play(g):
    """Play on without any win or claim: each seat discards its drawn tile (or any)."""
    for _ in range(500):
        if g.hand.phase == "over":
            return g
        seat = waiting_for(g)[0]
        legal = legal_actions(g, seat)
        if Pass() in legal:
            g = do(g, seat, Pass())
            continue
        s = g.hand.seats[seat]
        want = Discard(s.drawn >> 2) if s.drawn is not None else None
        g = do(g, seat, want if want in legal else next(a for a in legal if isinstance(a, Discard)))
    raise AssertionError("the hand did not end")


# --- the 精 flip and the wall ----------------------------------------------------------


@pytest.mark.parametrize("seed", ["a", "b", "c", "d"])
def test_the_indicator_is_turned_from_the_tail_and_makes_two_jing_kinds(seed: str) -> None:
    step = new_game("nanchang", None, seed)
    h = step.state.hand
    roll = next(e for e in step.events if isinstance(e, ev.Dice) and e.purpose == "indicator")
    assert h.indicator_pos == len(h.wall) - 2 * sum(roll.values)  # the dice's stack from the tail
    assert h.wall[h.indicator_pos] == h.indicator
    k = h.indicator >> 2
    assert h.wildcards == {k, successor(k)}  # 正精 the indicator's kind, 副精 the next
    shown = next(e for e in step.events if isinstance(e, ev.Indicator))
    assert (shown.indicator, shown.primary, set(shown.wildcards)) == (k, k, {k, successor(k)})
    assert all(h.indicator not in s.hand for s in h.seats)
    assert h.tail == len(h.wall) - 1  # nothing was taken off the tail
    assert live_count(h, RESERVE) == 136 - 53 - RESERVE
    check_conservation(step.state)


def test_a_shangrao_indicator_event_has_no_primary_kind() -> None:
    step = new_game("shangrao", None, "a")
    shown = next(e for e in step.events if isinstance(e, ev.Indicator))
    assert shown.primary is None and "primary" not in shown.data


@pytest.mark.parametrize("seed", ["a", "b"])
def test_a_drawn_hand_leaves_34_tiles_undrawn_with_the_indicator_among_them(seed: str) -> None:
    g = quiet_play(new_game("nanchang", None, seed).state)
    h = g.hand
    assert h.result is not None and h.result["how"] == "draw"
    assert h.tail - h.head + 1 == RESERVE
    assert h.head <= h.indicator_pos <= h.tail


def test_a_replacement_skips_the_face_up_indicator() -> None:
    g = rig(
        "nanchang",
        ["1111m 234p 567p 89s 1z", "", "", ""],
        indicator="5p",
        tails="",
        dealer=0,
    )
    h = g.hand
    assert h.tail == h.indicator_pos  # the next replacement would be the indicator
    before = live_count(h, RESERVE)
    below = h.wall[h.indicator_pos - 1]
    g = do(g, 0, ConcealedKong(K("1m")))
    h = g.hand
    assert h.seats[0].drawn == below  # skipped: the tile under it is taken
    assert h.indicator_pos > h.tail  # it stays face up, no longer in the drawable range
    assert live_count(h, RESERVE) == before - 1  # and still counts among the 34 kept


def test_with_indicator_reached_take_a_replacement_takes_the_indicator() -> None:
    g = rig(
        "nanchang",
        ["1111m 234p 567p 89s 1z", "", "", ""],
        indicator="5p",
        tails="",
        options={"indicator_reached": "take"},
    )
    ind = g.hand.indicator
    before = live_count(g.hand, RESERVE)
    assert "indicator_taken" not in public_view(g)
    g, events = do_events(g, 0, ConcealedKong(K("1m")))
    assert g.hand.seats[0].drawn == ind and ind in g.hand.seats[0].hand
    taken = [e for e in events if isinstance(e, ev.IndicatorTaken)]
    assert [(e.seat, e.visible_to) for e in taken] == [(0, None)]
    assert public_view(g)["indicator_taken"] is True
    assert g.hand.indicator_pos is None
    assert live_count(g.hand, RESERVE) == before - 1


def test_snapshots_keep_the_indicator_place_and_the_missed_kinds() -> None:
    g = new_game("nanchang", None, "snap").state
    g.hand.seats[2].missed_kinds = (3, 9)
    back = state_from_json(state_to_json(g))
    assert back.hand.indicator_pos == g.hand.indicator_pos
    assert back.hand.seats[2].missed_kinds == (3, 9)
    other = state_to_json(new_game("shangrao", None, "snap").state)
    assert "indicator_pos" not in other["hand"]
    assert all("missed_kinds" not in s for s in other["hand"]["seats"])


# --- chi, honour sequences, 精 as plain tiles -----------------------------------------

DEALER_5Z = "5z 1m 4m 7m 2p 5p 8p 3s 6s 9s 1s 1s 9m 9m"


def _claims(g, seat):
    return [a for a in legal_actions(g, seat) if not isinstance(a, Pass)]


def test_the_dragon_sequence_is_chied_only_by_the_discarders_xiajia() -> None:
    g = rig(
        "nanchang",
        [DEALER_5Z, "6z 7z 1p 1p 3m", "6z 7z 2s 3m 4m", "2z 3z 4z 7p 8p"],
        indicator="9s",
    )
    g = do(g, 0, Discard(K("5z")))
    assert Chi((31, 32, 33)) in _claims(g, 1)  # its 上家 discarded: chi
    assert legal_actions(g, 2) == []  # not the 下家: no chi
    g = do(g, 1, Chi((31, 32, 33)))
    assert g.hand.seats[1].melds[-1].kind == "chi"
    assert {t >> 2 for t in g.hand.seats[1].melds[-1].ids} == {31, 32, 33}


@pytest.mark.parametrize(("winds", "chis"), [(True, 3), (False, 0)])
def test_three_different_winds_are_a_sequence_unless_the_option_is_off(winds, chis) -> None:
    dealer = "1z 1m 4m 7m 2p 5p 8p 3s 6s 9s 1s 1s 9m 9m"
    g = rig(
        "nanchang",
        [dealer, "2z 3z 4z 1p 3m", "", ""],
        indicator="9s",
        options={"wind_sequences": winds},
    )
    g = do(g, 0, Discard(K("1z")))
    got = [a for a in legal_actions(g, 1) if isinstance(a, Chi)]
    assert len(got) == chis  # 东南西, 东南北, 东西北 (each with 东)
    if winds:
        assert set(got) == {Chi((27, 28, 29)), Chi((27, 28, 30)), Chi((27, 29, 30))}


def test_a_discarded_jing_may_be_ponged_and_chied_at_face_value() -> None:
    # indicator 5p: 正精 5p, 副精 6p
    dealer = "6p 1m 4m 7m 2p 8p 3s 6s 9s 1s 1s 9m 9m 1z"
    g = rig("nanchang", [dealer, "7p 8p 1z 2z 3z", "6p 6p 2s 3s 4s", ""], indicator="5p")
    assert g.hand.wildcards == {K("5p"), K("6p")}
    g = do(g, 0, Discard(K("6p")))
    assert Chi((K("6p"), K("7p"), K("8p"))) in _claims(g, 1)
    assert Pong() in _claims(g, 2)
    g = do(g, 1, Pass())
    g = do(g, 2, Pong())
    assert [t >> 2 for t in g.hand.seats[2].melds[-1].ids] == [K("6p")] * 3


def test_a_held_jing_takes_part_in_a_chi_and_a_jing_kind_may_be_konged() -> None:
    dealer = "7p 1m 4m 7m 2p 8p 3s 6s 9s 1s 1s 9m 9m 1z"
    g = rig("nanchang", [dealer, "5p 6p 1z 2z 3z", "", ""], indicator="5p")
    g = do(g, 0, Discard(K("7p")))
    assert Chi((K("5p"), K("6p"), K("7p"))) in _claims(g, 1)  # 精 at face value
    g = rig("nanchang", ["6p 6p 6p 6p 1m 2m 3m 4m 5m 6m 7m 8m 9m 9s", "", "", ""], indicator="5p")
    assert ConcealedKong(K("6p")) in legal_actions(g, 0)  # 杠精: a kong of the 副精 kind


# --- wins: one winner by play order, 抢杠, 精钓, missed wins -----------------------------

WAIT_3M = "1m 2m 456p 789p 123s 99s"  # waits on 3m (no 精 among them with indicator 1z)


def test_one_winner_per_discard_the_first_in_play_order(table_only) -> None:
    dealer = "3m 1z 1z 1z 2z 2z 2z 4z 4z 4z 5s 5s 5s 6s"
    g = rig("nanchang", [dealer, "", WAIT_3M, WAIT_3M], indicator="7z")
    g = do(g, 0, Discard(K("3m")))
    assert Win() in legal_actions(g, 2) and Win() in legal_actions(g, 3)
    g = do(g, 3, Win())
    g = do(g, 2, Win())
    assert [w["seat"] for w in g.hand.result["winners"]] == [2]


def test_an_added_kong_may_be_robbed_a_concealed_one_not(table_only) -> None:
    g = rig(
        "nanchang",
        ["3m 3m 3m 3m 1z 1z 1z 2z 2z 2z 4z 4z 5s 6s", "", WAIT_3M, ""],
        indicator="7z",
    )
    g = do(g, 0, ConcealedKong(K("3m")))
    assert g.hand.phase == "turn"  # a concealed kong is never robbed
    g = rig(
        "nanchang",
        ["3m 1z 1z 1z 2z 2z 2z 4z 4z 5s 6s", "", WAIT_3M, ""],
        indicator="7z",
        melds={0: ["333m"]},
    )
    g = do(g, 0, AddedKong(K("3m")))
    assert g.hand.phase == "rob" and Win() in legal_actions(g, 2)
    g = do(g, 2, Win())
    assert g.hand.result["how"] == "rob_kong" and g.hand.result["payer"] == 0


@pytest.mark.parametrize(("winds", "wins"), [(True, True), (False, False)])
def test_honour_sequences_complete_a_hand(table_only, winds, wins) -> None:
    hand = "567z 123z 123m 456p 1m"  # 中发白 and 东南西 as sequences, waits on 1m
    dealer = DEALER_3M.replace("3m", "1m")
    g = rig("nanchang", [dealer, "", "", hand], indicator="9p", options={"wind_sequences": winds})
    g = do(g, 0, Discard(K("1m")))
    assert (Win() in legal_actions(g, 3)) is wins  # 中发白 alone is always a sequence
    dragons_only = "567z 234s 123m 456p 1m"
    g = rig(
        "nanchang",
        [dealer, "", "", dragons_only],
        indicator="9p",
        options={"wind_sequences": winds},
    )
    g = do(g, 0, Discard(K("1m")))
    assert Win() in legal_actions(g, 3)


JINGDIAO = "123m 456m 789m 123p 5p"  # indicator 5p: 5p is 正精; any tile wins with it (精钓)
DEALER = "1z 2z 3z 4z 1s 4s 7s 2p 8p 9m 9m 9m 6z 5p"


def later(g):
    """The same table, later in the hand: the dealer's next discard is not its first (no 地胡)."""
    g.hand.discards = 4
    return g


def test_a_jingdiao_hand_may_not_win_on_a_discard_unless_deguo(table_only) -> None:
    g = later(rig("nanchang", [DEALER, "", "1z 1z", JINGDIAO], indicator="5p"))
    assert is_wildcard_wait(seat_counts(g.hand.seats[3]), g.hand.wildcards)
    g = do(g, 0, Discard(K("1z")))  # seat 2 may pong it: the window stays open
    assert Win() not in legal_actions(g, 3)  # complete only with the 精 as a wildcard
    with pytest.raises(IllegalAction) as refused:
        apply(g, 3, Win())
    assert refused.value.reason.key == "errors.illegal.jingdiao_discard"
    g = later(rig("nanchang", [DEALER, "", "", JINGDIAO], indicator="5p"))
    g = do(g, 0, Discard(K("5p")))  # a discarded 正精 at face value pairs the held 5p: 德国
    assert Win() in legal_actions(g, 3)


@pytest.mark.parametrize(("option", "first"), [("forbid", True), ("no_bonus", False)])
def test_jingdiao_on_a_discard_as_dihu_or_under_no_bonus(table_only, option, first) -> None:
    g = rig(
        "nanchang", [DEALER, "", "", JINGDIAO], indicator="5p", options={"jingdiao_discard": option}
    )
    if not first:
        g = later(g)
    g = do(g, 0, Discard(K("1z")))
    assert Win() in legal_actions(g, 3)  # 地胡 excepted; no_bonus: the scorer drops 精钓


def quiet_to(g, seat):
    """Pass every open claim window except ``seat``'s."""
    while g.hand.phase == "claim":
        others = [s for s in range(4) if legal_actions(g, s) and s != seat]
        if not others:
            break
        g = do(g, others[0], Pass())
    return g


HAND_36 = "4m 5m 456p 789p 123s 99s"  # waits on 3m and 6m (no 精 with indicator 7z)
DEALER_3M = "3m 1z 1z 1z 2z 2z 2z 4z 4z 4z 5s 5s 5s 6s"


def test_a_passed_win_bars_that_kind_until_the_next_draw(table_only) -> None:
    g = rig(
        "nanchang",
        [DEALER_3M, "3m 1s 2s 3s 4s", "3m 3m", HAND_36],
        draws="8s 8s 8s",
        indicator="7z",
    )
    g = do(g, 0, Discard(K("3m")))
    assert Win() in legal_actions(g, 3)
    g = do(g, 3, Pass())
    g = do(g, 2, Pass())  # seat 2 could pong it
    assert g.hand.seats[3].missed_kinds == (K("3m"),) and not g.hand.seats[3].missed_win
    g = do(g, 1, Discard(K("3m")))  # the same kind: barred until seat 3 draws
    assert Win() not in legal_actions(g, 3)
    with pytest.raises(IllegalAction) as refused:
        apply(g, 3, Win())  # the window is open (seat 2 may pong): seat 3 is told why
    assert refused.value.reason.key == "errors.illegal.missed_win_kind"
    g = do(g, 2, Pass())
    g = do(g, 2, Discard(K("8s")))
    assert g.hand.turn == 3 and g.hand.seats[3].missed_kinds == ()  # its draw lifts the lock


def test_another_waiting_kind_may_still_be_won_after_a_pass(table_only) -> None:
    g = rig("nanchang", [DEALER_3M, "6m 1s 2s 3s 4s", "", HAND_36], draws="8s", indicator="7z")
    g = do(g, 0, Discard(K("3m")))
    g = do(g, 3, Pass())
    g = do(g, 1, Discard(K("6m")))
    assert Win() in legal_actions(g, 3)  # 6m completes it too, and was never passed


def test_a_passed_win_in_a_jingdiao_wait_bars_every_discard(table_only) -> None:
    # under no_bonus a 精钓 hand may win any discard, so only the lock keeps it from 8s
    g = later(
        rig(
            "nanchang",
            [DEALER, "8s 1s 2s 6z 7z", "8s 8s", JINGDIAO],
            draws="5p",
            indicator="5p",
            options={"jingdiao_discard": "no_bonus"},
        )
    )
    g = do(g, 0, Discard(K("5p")))
    assert Win() in legal_actions(g, 3)
    g = do(g, 3, Pass())
    assert g.hand.seats[3].missed_win  # in a 精钓 wait: every discard is barred
    g = do(g, 1, Discard(K("8s")))  # seat 2 may pong it: the window is open
    assert Win() not in legal_actions(g, 3)
    with pytest.raises(IllegalAction) as refused:
        apply(g, 3, Win())
    assert refused.value.reason.key == "errors.illegal.missed_win_all"


def test_missed_pong_lock_bars_ponging_the_passed_kind(table_only) -> None:
    hand3 = "3m 3m 456p 789p 123s 99s"  # a pair of 3m and a win on 3m
    for lock in (False, True):
        g = rig(
            "nanchang",
            [DEALER_3M, "3m 6z 6z 1s 2s", "", hand3],
            draws="8s",
            indicator="7z",
            options={"missed_pong_lock": lock},
        )
        g = do(g, 0, Discard(K("3m")))
        g = do(g, 3, Pass())
        g = do(g, 1, Discard(K("3m")))
        assert (Pong() in legal_actions(g, 3)) is not lock


# --- the deal and the hand-end settlement -------------------------------------------


def test_the_dealer_stays_on_its_win_a_non_dealer_win_passes_the_deal(table_only) -> None:
    for option, want in (("next", 1), ("winner", 3)):
        g = rig(
            "nanchang",
            [DEALER_3M, "", "", WAIT_3M],
            indicator="7z",
            options={"next_dealer_on_win": option},
        )
        g = do(g, 0, Discard(K("3m")))
        g = do(g, 3, Win())
        assert g.hand.result["next_dealer"] == want
    g = rig("nanchang", ["1m 2m 3m 456p 789p 123s 99s", "", "", ""], indicator="7z")
    g = do(g, 0, Win())
    assert g.hand.result["next_dealer"] == 0


def _chaozhuang_table(options=None):
    # every seat throws 1z first; the wall holds three draws before the 34 kept tiles
    return rig(
        "nanchang",
        [
            "1z 1m 4m 7m 2p 5p 8p 3s 6s 9s 2z 3z 4z 5z",
            "1z 2m 5m 8m 3p 6p 9p 4s 7s 6z 7z 6z 7z",
            "1z 3m 6m 9m 1p 4p 7p 1s 2s 5s 8s 2z 3z",
            "1z 1m 4m 7m 2p 5p 8p 3s 6s 9s 4z 5z 4z",
        ],
        draws="9m 9p 9s",
        indicator="6s",
        left=RESERVE - 1,
        options=options,
    )


@pytest.mark.parametrize(("on", "dealer"), [(True, 1), (False, 0)])
def test_chaozhuang_passes_the_deal_even_after_a_drawn_hand(table_only, on, dealer) -> None:
    g = _chaozhuang_table({"chaozhuang": on})
    assert live_count(g.hand, RESERVE) == 3
    for seat in range(4):
        g = do(g, seat, Discard(K("1z")))
        g = quiet_to(g, -1)
    assert g.hand.result["how"] == "draw"
    assert g.hand.result["next_dealer"] == dealer  # a drawn hand keeps the deal, 抄庄 passes it
    assert table_only[-1].followed is on


def test_the_hand_end_hook_sees_every_seat_and_its_lines_are_public(table_only) -> None:
    g = _chaozhuang_table()
    events = []
    for seat in range(4):
        g, evs = do_events(g, seat, Discard(K("1z")))
        events += evs
        while g.hand.phase == "claim":  # 0 may chi the last 1z: it passes
            g, evs = do_events(g, waiting_for(g)[0], Pass())
            events += evs
    end = table_only[-1]
    assert end.how == "draw" and end.winner is None
    assert [d[-1] for d in end.discarded] == [K("1z")] * 4  # after the rivers rigged in
    assert [len(d) for d in end.discarded] == [len(s.river) for s in g.hand.seats]
    assert [len(h) for h in end.hands] == [13, 13, 13, 13]
    assert end.indicator == K("6s") and end.wildcards == {K("6s"), K("7s")}
    settled = [e for e in events if isinstance(e, ev.HandSettled)]
    assert settled and settled[0].visible_to is None
    assert g.hand.result["settlement"] == [{"seat": i} for i in range(4)]
    assert "settlement" not in quiet_play(new_game("xinyu", None, "x").state).hand.result


def test_a_claimed_jing_is_reported_with_its_supplier(table_only) -> None:
    dealer = "6p 1m 4m 7m 2p 8p 3s 6s 9s 1s 1s 9m 9m 1z"
    g = rig("nanchang", [dealer, "", "6p 6p 2s 3s 4s", ""], indicator="5p", left=RESERVE)
    assert live_count(g.hand, RESERVE) == 1
    g = do(g, 0, Discard(K("6p")))
    g = do(g, 1, Pass()) if legal_actions(g, 1) else g
    g = do(g, 2, Pong())
    g = do(g, 2, Discard(K("2s")))
    g = quiet_play(g)
    assert g.hand.phase == "over"
    end = table_only[-1]
    assert end.claimed[2] == ((K("6p"), 0),)
    assert K("6p") in end.discarded[0]


# --- what the bot shows ---------------------------------------------------------------


def test_views_show_the_jing_and_keep_a_seats_barred_kinds_to_itself(table_only) -> None:
    g = rig("nanchang", [DEALER_3M, "3m 1s 2s 3s 4s", "", HAND_36], draws="8s", indicator="7z")
    public = public_view(g)
    assert (public["indicator"], public["primary"]) == (K("7z"), K("7z"))
    assert set(public["wildcards"]) == {K("7z"), K("5z")}  # 白 → 中: the 副精 wraps round
    g = do(g, 0, Discard(K("3m")))
    g = do(g, 3, Pass())
    assert seat_view(g, 3)["own"]["missed_kinds"] == [K("3m")]
    assert seat_view(g, 1)["own"]["missed_kinds"] == []
    assert "missed" not in json.dumps(public_view(g))  # who passed stays secret
    assert "primary" not in public_view(new_game("xinyu", None, "v").state)


def test_a_seat_view_counts_honour_sequence_waits(table_only) -> None:
    hand = "123456789m 1z 1z 5z 6z"  # 中发 waits on 白 only as a sequence
    dealer = "3m 2z 2z 2z 3z 3z 3z 4z 4z 4z 5s 5s 5s 6s"
    g = rig("nanchang", [dealer, "", "", hand], indicator="9p")
    assert seat_view(g, 3)["own"]["tenpai"] == [K("7z")]


def test_a_win_is_flagged_no_jing_elsewhere_only_when_no_other_seat_holds_a_jing(
    table_only,
) -> None:
    hand = "1m 2m 3m 456p 789p 123s 99s"  # indicator 7z: 精 白 and 中, none held here
    g = rig("nanchang", [hand, "1z 2z 3z", "", ""], indicator="7z")
    g = do(g, 0, Win())
    assert "no_jing_elsewhere" in g.hand.result["winners"][0]["flags"]  # 德中德 possible
    g = rig("nanchang", [hand, "1z 2z 5z", "", ""], indicator="7z")  # seat 1 holds a 中
    g = do(g, 0, Win())
    assert "no_jing_elsewhere" not in g.hand.result["winners"][0]["flags"]


# --- with the real 南昌 settlement ------------------------------------------------------


@pytest.mark.parametrize("seed", ["draw-a", "draw-b"])
def test_a_drawn_hand_is_settled_by_the_variant_zero_sum(seed: str) -> None:
    g = new_game("nanchang", None, seed).state
    events: list = []
    for _ in range(500):
        if g.hand.phase == "over":
            break
        seat = waiting_for(g)[0]
        legal = legal_actions(g, seat)
        s = g.hand.seats[seat]
        if Pass() in legal:
            action = Pass()
        elif s.drawn is not None and Discard(s.drawn >> 2) in legal:
            action = Discard(s.drawn >> 2)
        else:
            action = next(a for a in legal if isinstance(a, Discard))
        g, evs = do_events(g, seat, action)
        events += evs
    r = g.hand.result
    assert r["how"] == "draw" and sum(r["deltas"]) == 0
    assert len(r["settlement"]) == 4  # every seat's 精 line, drawn hand too
    settled = [e for e in events if isinstance(e, ev.HandSettled)]
    assert len(settled) == 1 and settled[0].seats == r["settlement"]
    held = [
        sum(
            2 if t >> 2 == g.hand.indicator >> 2 else 1
            for t in [*s.hand, *(x for m in s.melds for x in m.ids)]
            if t >> 2 in g.hand.wildcards
        )
        for s in g.hand.seats
    ]
    assert [line["jing"] for line in r["settlement"]] == held  # 2 per 正精, 1 per 副精


def test_chaozhuang_costs_the_dealer_5_to_each_and_nothing_else_changes() -> None:
    ends = {}
    for on in (True, False):
        g = _chaozhuang_table({"chaozhuang": on})
        for seat in range(4):
            g = do(g, seat, Discard(K("1z")))
            g = quiet_to(g, -1)
        ends[on] = g.hand.result["deltas"]
    diff = [a - b for a, b in zip(ends[True], ends[False], strict=True)]
    assert diff == [-15, 5, 5, 5]
