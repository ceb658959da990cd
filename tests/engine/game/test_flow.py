"""Table-flow rules (RULES §2, §3.1, §4.1, §5.1) on hand-built states."""

from __future__ import annotations

import pytest
from game_helpers import check_conservation, rig

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
)
from engine.game.ai import choose_action
from engine.game.rules import live_count
from engine.game.simulate import play_hand
from engine.notation import parse_tiles
from engine.tiles import GREEN, WINDS, successor


def K(text: str) -> int:
    return parse_tiles(text)[0]


def do(g, seat, action):
    g2, ev = apply(g, seat, action)
    check_conservation(g2)
    return g2, ev


def refused(g, seat, action, *words: str) -> str:
    before = state_to_json(g)
    with pytest.raises(IllegalAction) as e:
        apply(g, seat, action)
    assert state_to_json(g) == before
    for w in words:
        assert w in e.value.reason, e.value.reason
    return e.value.reason


# --- the deal ----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", ["shangrao", "xinyu", "jiujiang"])
def test_deal_sizes_and_conservation(variant):
    g, events = new_game(variant, seed="deal")
    h = g.hand
    sizes = [len(s.hand) for s in h.seats]
    assert sizes[h.dealer] == 14 and sorted(sizes) == [13, 13, 13, 14]
    check_conservation(g)
    kinds = [e.kind for e in events]
    assert "hand_started" in kinds and "dice" in kinds
    assert [e.visible_to for e in events if e.kind == "dealt"] == [0, 1, 2, 3]
    if variant == "jiujiang":
        assert len(h.wall) == 120
        assert not any(t >> 2 in WINDS for t in h.wall)
        assert not any(t >> 2 == GREEN for s in h.seats for t in s.hand)
    if variant == "shangrao":
        assert h.wildcards == {successor(h.indicator >> 2)}
        assert h.indicator not in h.wall[h.head : h.tail + 1]


def test_jiujiang_dealt_fa_laid_open_and_replaced_from_tail():
    for n in range(40):
        g, events = new_game("jiujiang", seed=f"fa{n}")
        if any(s.flowers for s in g.hand.seats):
            break
    h = g.hand
    total = sum(len(s.flowers) for s in h.seats)
    assert total > 0
    assert h.tail == len(h.wall) - 1 - total
    assert sum(1 for e in events if e.kind == "flower") == total
    assert [len(s.hand) for s in h.seats].count(13) == 3


def test_commitment_revealed_at_end_verifies():
    from engine.game.wall import verify

    g, events = new_game("xinyu", seed="commit")
    digest = next(e for e in events if e.kind == "hand_started").data["commitment"]
    g = play_hand(g, [])
    assert verify(g.hand.seed, g.hand.wall, digest)
    assert not verify(g.hand.seed, list(reversed(g.hand.wall)), digest)


# --- errors ------------------------------------------------------------------------------


def test_illegal_actions_explain_and_change_nothing():
    g, _ = new_game("xinyu", seed="err")
    d = g.hand.dealer
    other = (d + 1) % 4
    refused(g, other, Discard(g.hand.seats[other].hand[0] >> 2), "not seat", "turn")
    missing = next(k for k in range(34) if all(t >> 2 != k for t in g.hand.seats[d].hand))
    refused(g, d, Discard(missing), "not in seat")
    refused(g, d, Pong(), "no discard")
    refused(g, d, NextHand(), "still being played")
    refused(g, d, Chi((0, 1, 2)), "no discard")
    refused(g, 7, Discard(0), "no seat 7")


# --- claims ------------------------------------------------------------------------------


def _jj_pong_vs_win():
    return rig(
        "jiujiang",
        [
            "5p 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 7z",
            "55p 1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z",
            "123m 456m 789m 123s 5p",
        ],
        draws="1s2s3s4s5s6s",
    )


def test_win_beats_pong_and_waits_for_everyone():
    g = _jj_pong_vs_win()
    g, _ = do(g, 0, Discard(K("5p")))
    assert legal_actions(g, 2) == [Pong(), Pass()]
    assert legal_actions(g, 3) == [Win(), Pass()]
    assert legal_actions(g, 1) == []
    g2, _ = do(g, 2, Pong())
    assert g2.hand.phase == "claim"  # a pong waits: seat 3 could still win
    refused(g2, 2, Pass(), "already answered")
    g3, _ = do(g2, 3, Win())
    assert g3.hand.result["winners"][0]["seat"] == 3
    g, ev = do(g, 3, Win())  # nothing seat 2 may do beats a win: settled at once
    r = g.hand.result
    assert [w["seat"] for w in r["winners"]] == [3] and r["payer"] == 0 and r["how"] == "discard"
    assert sum(r["deltas"]) == 0 and r["deltas"][3] > 0 and r["deltas"][0] == -r["deltas"][3]
    assert r["next_dealer"] == 3
    assert any(e.kind == "hand_ended" and "wall" in e.data for e in ev)


def test_missed_win_blocks_discard_wins_until_own_draw():
    g = rig(
        "jiujiang",
        [
            "1s 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 7z",
            "5p 1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s",
            "123m 456m 789m 11s 55p",
        ],
        draws="1s 7z 4s",
    )
    g, _ = do(g, 0, Discard(K("1s")))
    assert legal_actions(g, 3) == [Win(), Pong(), Pass()]
    g, _ = do(g, 3, Pass())
    assert g.hand.seats[3].missed_win and g.hand.turn == 1
    g, _ = do(g, 1, Discard(K("7z")))  # seat 1 drew 1s, throws 7z; nobody claims 7z here
    assert g.hand.turn == 2
    g, _ = do(g, 2, Discard(K("5p")))  # seat 3 could win on 5p but passed a win this go-round
    assert legal_actions(g, 3) == [Pong(), Pass()]
    g, _ = do(g, 3, Pass())
    assert g.hand.turn == 3 and not g.hand.seats[3].missed_win  # cleared by the draw


def test_chi_only_for_xiajia_and_pong_beats_chi_shangrao():
    g = rig(
        "shangrao",
        [
            "3m 9m 9m 1p 3p 5p 7p 9p 1s 3s 5s 7s 9s 1z",
            "12m 45m 2p 4p 6p 8p 2s 4s 6s 8s 2z",
            "33m 1z 3z 1p 3p 5p 7p 2s 4s 6s 8s 4z",
            "45m 12m 2z 3z 6p 6s 6s 8p 8s 9p 9s 4z",
        ],
        indicator="7z",
        draws="1s2s3s4s",
    )
    assert g.hand.wildcards == {K("5z")}
    g, _ = do(g, 0, Discard(K("3m")))
    chis = [a for a in legal_actions(g, 1) if isinstance(a, Chi)]
    assert {a.tiles for a in chis} == {(0, 1, 2), (1, 2, 3), (2, 3, 4)}
    assert legal_actions(g, 3) == []  # 45m but not the 下家
    assert legal_actions(g, 2) == [Pong(), Pass()]
    refused(g, 3, Chi((2, 3, 4)), "no claim")
    g, _ = do(g, 1, Chi((1, 2, 3)))
    g, _ = do(g, 2, Pong())
    h = g.hand
    assert h.turn == 2 and h.phase == "turn"
    assert h.seats[2].melds[-1].kind == "pong" and h.seats[2].melds[-1].fed_by == 0
    assert h.seats[2].melds[-1].claimed >> 2 == K("3m")  # the tile players turn sideways
    assert not h.seats[2].melds[-1].added
    assert legal_actions(g, 2) and all(isinstance(a, Discard) for a in legal_actions(g, 2))


def test_no_chi_in_jiujiang_unless_option():
    hands = [
        "3m 9m 9m 1p 3p 5p 7p 9p 1s 3s 5s 7s 9s 5z",
        "12m 45m 2p 4p 6p 8p 2s 4s 6s 8s 7z",
        "1m 5z 7z 1p 3p 5p 7p 2s 4s 6s 8s 9s 6m",
        "4m 7m 2m 6p 6s 8p 8s 9p 3s 5s 7s 1s 9p",
    ]
    g = rig("jiujiang", hands, draws="1s2s3s")
    g, _ = do(g, 0, Discard(K("3m")))
    assert g.hand.phase == "turn" and g.hand.turn == 1  # no claim window: seat 1 drew
    g = rig("jiujiang", hands, draws="1s2s3s", options={"chi": True})
    g, _ = do(g, 0, Discard(K("3m")))
    assert Chi((0, 1, 2)) in legal_actions(g, 1)


def test_bao_cannot_be_ponged_but_jiebao_wins_it():
    g = rig(
        "shangrao",
        [
            "5z 9m 9m 1p 3p 5p 7p 9p 1s 3s 5s 7s 9s 1z",
            "12m 45m 2p 4p 6p 8p 2s 4s 6s 8s 2z",
            "5z5z5z 1z 3z 1p 3p 5p 7p 2s 4s 6s",
            "55z 12m 2z 3z 6p 6s 6s 8p 8s 9p 4z".replace("55z", "1m1m"),
        ],
        indicator="7z",
        draws="1s2s3s4s",
    )
    assert g.hand.seats[2].bao_drawn == 3
    g, _ = do(g, 0, Discard(K("5z")))
    assert g.hand.seats[0].flown == 1
    assert legal_actions(g, 2) == [Win(), Pass()]  # 接宝, whatever the shape
    refused(g, 2, Pong(), "宝 cannot be ponged")
    g, _ = do(g, 2, Win())
    r = g.hand.result
    w = r["winners"][0]
    assert w["seat"] == 2 and "jiebao" in w["flags"] and r["payer"] == 0
    assert r["deltas"][2] == 3 * w["points"] and w["points"] == g.options.jiebao()


def test_four_bao_wins_at_once():
    g = rig(
        "shangrao",
        [
            "5z5z5z5z 1m 4m 7m 2p 5p 8p 3s 6s 9s 1z",
            "12m 45m 2p 4p 6p 8p 2s 4s 2z 2z 3z",
            "1z 3z 1p 3p 5p 7p 2s 4s 7s 8s 9s 9m 9m",
            "12m 2z 3z 6p 8p 8s 9p 4z 4z 7m 7m 3m",
        ],
        indicator="7z",
    )
    assert Win() in legal_actions(g, 0)
    g, _ = do(g, 0, Win())
    w = g.hand.result["winners"][0]
    assert "four_bao" in w["flags"] and "dealer" in w["flags"]
    assert g.hand.result["next_dealer"] == 0  # the dealer won: stays
    assert g.hand.result["deltas"] == [3 * w["points"], -w["points"], -w["points"], -w["points"]]


def test_shangrao_earth_win_on_dealers_first_discard_only():
    hands = [
        "9p 1z 2z 3z 4z 5m 5m 1p 3p 5p 2s 4s 6s 8s",
        "123m 456m 789m 123s 9p",
        "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
        "2m 5m 8m 3p 6p 9p 1s 4s 7s 6z 8m 8p 8s",
    ]
    g = rig("shangrao", hands, indicator="7z", draws="1s2s3s4s")
    g, _ = do(g, 0, Discard(K("9p")))
    assert legal_actions(g, 1) == [Win(), Pass()]
    g, _ = do(g, 1, Win())
    w = g.hand.result["winners"][0]
    assert "earth" in w["flags"] and g.hand.result["payer"] == 0
    assert g.hand.result["next_dealer"] == 1
    # a later discard of the same tile is no win without discard_win
    g = rig("shangrao", hands, indicator="7z", draws="7z 9p 4s")
    g, _ = do(g, 0, Discard(K("1z")))
    g, _ = do(g, 1, Discard(K("7z")))
    assert g.hand.turn == 2
    g, _ = do(g, 2, Discard(K("9p")))
    assert g.hand.phase == "turn" and g.hand.turn == 3
    g = rig("shangrao", hands, indicator="7z", draws="7z 9p 4s", options={"discard_win": True})
    g, _ = do(g, 0, Discard(K("1z")))
    g, _ = do(g, 1, Discard(K("7z")))
    g, _ = do(g, 2, Discard(K("9p")))
    assert legal_actions(g, 1) == [Win(), Pass()]


def test_shangrao_indicator_kong_has_no_replacement():
    g = rig(
        "shangrao",
        [
            "7z7z7z 1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z",
            "12m 45m 2p 4p 6p 8p 2s 4s 3z 3z 4z",
            "1z 3z 1p 3p 5p 7p 2s 4s 6s 8s 9s 9m 9m",
            "12m 2z 6p 6s 6s 8p 8s 9p 4z 4z 7m 7m 6z",
        ],
        indicator="7z",
    )
    assert IndicatorKong() in legal_actions(g, 0)
    head, tail = g.hand.head, g.hand.tail
    g, _ = do(g, 0, IndicatorKong())
    s = g.hand.seats[0]
    assert s.melds[-1].kind == "indicator_kong" and len(s.melds[-1].ids) == 3
    assert (g.hand.head, g.hand.tail) == (head, tail) and len(s.hand) == 11
    assert g.hand.turn == 0 and all(isinstance(a, Discard) for a in legal_actions(g, 0))


def test_touji_declines_baodiao_and_flags_later_win():
    g = rig(
        "shangrao",
        [
            "1z 2z 3z 4z 9m 9m 1p 3p 5p 2s 4s 6s 8s 6z",
            "123m 456m 789m 123p 5z",
            "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 8m 8p 8s 5s",
        ],
        indicator="7z",
        draws="9s 1s",
        options={"scoring": "xingchen"},
    )
    g, _ = do(g, 0, Discard(K("1z")))
    assert legal_actions(g, 1) == [Win(), Pass()]  # 宝吊: 地胡 on the dealer's first discard
    g, _ = do(g, 1, Pass())
    h = g.hand
    assert h.turn == 1 and h.self_win and h.baodiao
    assert KeepDrawing(K("9s")) in legal_actions(g, 1)
    g, ev = do(g, 1, KeepDrawing(K("9s")))
    assert g.hand.seats[1].touji and any(e.kind == "touji" for e in ev)


# --- kongs -------------------------------------------------------------------------------


def test_xinyu_kong_money_at_declaration():
    g = rig(
        "xinyu",
        [
            "1m1m1m1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z",
            "2m 5m 9s9s9s 3p 6p 9p 1s 4s 7s 3z 4z",
            "3m 6m 8m 1p 4p 7p 2s 5s 8s 3z 4z 5z 6z",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 1z 2z 7z 7z",
        ],
        tails="1z",
    )
    assert ConcealedKong(0) in legal_actions(g, 0)
    tail = g.hand.tail
    g, _ = do(g, 0, ConcealedKong(0))
    assert g.hand.deltas == [6, -2, -2, -2] and g.scores == [6, -2, -2, -2]
    assert g.hand.tail == tail - 1 and g.hand.seats[0].drawn >> 2 == K("1z")
    g, _ = do(g, 0, Discard(K("9s")))
    assert legal_actions(g, 1) == [Kong(), Pong(), Pass()]
    g, _ = do(g, 1, Kong())
    assert g.hand.deltas == [5, 1, -3, -3]
    assert g.hand.turn == 1 and g.hand.seats[1].melds[-1].kind == "kong"


def test_rob_kong_and_kong_after_pong_rule():
    g = rig(
        "jiujiang",
        [
            "1s 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 4s 6s 7z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
            "123m 456m 789m 11s 46p",
        ],
        melds={1: ["555p"]},
        draws="5p 5m",
    )
    g, _ = do(g, 0, Discard(K("4m")))
    assert g.hand.turn == 1
    assert legal_actions(g, 1) == [AddedKong(K("5p"))]
    refused(g, 1, Discard(K("5p")), "4th tile of a pong")
    g, _ = do(g, 1, AddedKong(K("5p")))
    assert g.hand.phase == "rob" and legal_actions(g, 3) == [Win(), Pass()]
    g, _ = do(g, 3, Win())
    r = g.hand.result
    assert r["how"] == "rob_kong" and r["payer"] == 1 and r["winners"][0]["seat"] == 3
    assert g.hand.seats[1].melds[0].kind == "pong"


def test_added_kong_is_marked_and_keeps_its_feeder():
    g = rig(
        "jiujiang",
        [
            "1s 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 4s 6s 7z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
            "123m 456m 789m 11s 46p",
        ],
        melds={1: ["555p"]},
        draws="5p 5m 8m",
    )
    g, _ = do(g, 0, Discard(K("4m")))
    g, _ = do(g, 1, AddedKong(K("5p")))
    g, _ = do(g, 3, Pass())
    kong = g.hand.seats[1].melds[0]
    assert (kong.kind, kong.added, kong.fed_by) == ("kong", True, 0)
    assert len(kong.ids) == 4 and {t >> 2 for t in kong.ids} == {K("5p")}


def test_meld_json_reads_states_saved_before_claimed_and_added():
    from engine.game.state import MeldRec

    old = MeldRec.from_json(["pong", [20, 21, 22], 3])
    assert (old.claimed, old.added) == (None, False)
    assert old.to_json() == ["pong", [20, 21, 22], 3]  # unchanged bytes for old melds
    new = MeldRec("kong", (20, 21, 22, 23), 3, claimed=22, added=True)
    assert MeldRec.from_json(new.to_json()) == new


def test_xinyu_several_winners_on_one_discard():
    hands = [
        "9p 1z 2z 3z 4z 5m 5m 1p 3p 5p 2s 4s 6s 8s",
        "123m 456m 789m 123s 9p",
        "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
        "234m 567m 11p 123p 789p".replace("11p", "9p").replace("789p", "678s"),
    ]
    g = rig("xinyu", hands, options={"discard_win": True}, draws="1s")
    g, _ = do(g, 0, Discard(K("9p")))
    assert Win() in legal_actions(g, 1) and Win() in legal_actions(g, 3)
    g, _ = do(g, 3, Win())
    g, _ = do(g, 1, Win())
    r = g.hand.result
    assert [w["seat"] for w in r["winners"]] == [1, 3] and r["payer"] == 0
    assert r["deltas"][0] == -(r["deltas"][1] + r["deltas"][3]) and r["deltas"][2] == 0
    assert r["next_dealer"] == 1
    g = rig("xinyu", hands, draws="1s")
    g, _ = do(g, 0, Discard(K("9p")))
    assert g.hand.turn == 1 and g.hand.phase == "turn"  # self-draw only by default


# --- 报听 --------------------------------------------------------------------------------


def test_declare_ready_locks_the_hand():
    g = rig(
        "jiujiang",
        [
            "123m 456m 789m 123s 5p 9s",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 7z 5z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 1p",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 8m 8p 8s 6s",
        ],
        draws="9m 9m 5s 6m",
    )
    assert DeclareReady(K("9s")) in legal_actions(g, 0)
    assert DeclareReady(K("1m")) not in legal_actions(g, 0)
    g, _ = do(g, 0, DeclareReady(K("9s")))
    s = g.hand.seats[0]
    assert s.ready and s.waits == (K("5p"),)
    for seat in (1, 2, 3):
        assert g.hand.turn == seat
        g, _ = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2))
    assert g.hand.turn == 0
    assert legal_actions(g, 0) == [Discard(K("6m"))]
    refused(g, 0, Discard(K("1m")), "locked")


# --- wall end, dealer, values ------------------------------------------------------------


def _play_without_winning(variant, options=None, seed="nowin"):
    """Random legal play that never declares a win: the hand ends in a draw."""
    import random

    rng = random.Random(seed)
    g, _ = new_game(variant, options, seed=seed)
    while g.hand.phase != "over":
        seat = next(s for s in range(4) if legal_actions(g, s))
        acts = [a for a in legal_actions(g, seat) if not isinstance(a, Win)]
        g, _ = apply(g, seat, rng.choice(acts))
    return g


@pytest.mark.parametrize(
    ("variant", "left", "options"),
    [
        ("xinyu", 16, None),
        ("shangrao", 0, None),
        ("jiujiang", 0, None),
        ("xinyu", 16, {"draw_dealer": "stay"}),
    ],
)
def test_exhaustive_draw_live_wall_end_and_dealer(variant, left, options):
    g = _play_without_winning(variant, options)
    assert not g.hand.result["winners"] and g.hand.result["how"] == "draw"
    h = g.hand
    assert h.tail - h.head + 1 == left and live_count(h, left) == 0
    d = h.dealer
    expect = {"shangrao": (d + 1) % 4, "xinyu": (d + 1) % 4, "jiujiang": d}[variant]
    if options:
        expect = d
    assert h.result["next_dealer"] == expect
    g2, _ = apply(g, 2, NextHand())
    assert g2.hand.dealer == expect and g2.hand.number == 1 and g2.hand.phase == "turn"
    if variant == "jiujiang":
        assert g2.value_per_pao == 2  # 黄庄 doubles the next hand


def test_jiujiang_genzhuang_follows_the_dealer():
    g = rig(
        "jiujiang",
        [
            "5z 11m 23m 4m 66p 78p 99p 7z 1s",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 5z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
            "123m 456m 789m 13s 5p 5z",
        ],
        draws="1p 2p 3p 4p",
    )
    g, _ = do(g, 0, Discard(K("5z")))
    for seat in (1, 2, 3):
        g, _ = do(g, seat, Discard(K("5z")))
    g = play_hand(g, [])
    r = g.hand.result
    drawn = not r["winners"]
    assert r["next_value_per_pao"] == (8 if drawn else 4)


def test_next_hand_keeps_running_totals():
    g, _ = new_game("shangrao", seed="totals")
    totals = [0, 0, 0, 0]
    for _ in range(4):
        g = play_hand(g, [])
        totals = [a + b for a, b in zip(totals, g.hand.deltas, strict=True)]
        assert g.scores == totals
        g, _ = apply(g, 0, NextHand())
    assert g.hand.number == 4 and len(g.history) == 4


def test_ai_chooses_only_legal_actions():
    g, _ = new_game("jiujiang", seed="ai")
    for _ in range(300):
        if g.hand.phase == "over":
            break
        seat = next(s for s in range(4) if legal_actions(g, s))
        a = choose_action(g, seat)
        assert a in legal_actions(g, seat)
        g, _ = apply(g, seat, a)
    assert g.hand.phase == "over"


def pass_all(g):
    while g.hand.phase in ("claim", "rob"):
        seat = next(s for s in range(4) if legal_actions(g, s))
        g, _ = do(g, seat, Pass())
    return g


def test_heaven_dealer_wins_with_dealt_tiles():
    g = rig(
        "shangrao",
        [
            "123m 456m 789m 123p 99s",
            "1z 2z 3z 4z 1m 4m 7m 2p 5p 8p 3s 6s 9s",
            "1z 2z 3z 4z 2m 5m 8m 3p 6p 9p 1s 4s 7s",
            "1z 2z 3z 4z 3m 6m 9m 4p 7p 1s 2s 5s 8s",
        ],
        indicator="7z",
    )
    g, _ = do(g, 0, Win())
    w = g.hand.result["winners"][0]
    assert {"heaven", "dealer"} <= set(w["flags"])
    assert g.hand.result["deltas"] == [3 * w["points"], -w["points"], -w["points"], -w["points"]]


def test_last_tile_win_and_haidi():
    hands = [
        "1s 11m 23m 4m 66p 78p 99p 5z5z",
        "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 7z",
        "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
        "123m 456m 789m 11s 46p",
    ]
    g = rig("jiujiang", hands, draws="7s 2m 5p", left=0)
    for seat in (0, 1, 2):
        g, _ = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2 if seat else K("4m")))
        g = pass_all(g)
    assert g.hand.turn == 3 and g.hand.last_tile and Win() in legal_actions(g, 3)
    g, _ = do(g, 3, Win())
    assert "last_tile" in g.hand.result["winners"][0]["flags"]
    # the same hand not won: the last discard can only be won, then the hand is drawn
    g = rig("jiujiang", hands, draws="7s 2m 5p", left=0)
    for seat in (0, 1, 2):
        g, _ = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2 if seat else K("4m")))
        g = pass_all(g)
    assert legal_actions(g, 3) == [Win(), Discard(K("5p"))]  # 海底: win or throw the last tile
    refused(g, 3, Discard(K("1s")))
    g, _ = do(g, 3, Discard(K("5p")))
    assert g.hand.phase == "over" and g.hand.result["how"] == "draw"


def test_touji_flag_reaches_the_later_win():
    g = rig(
        "shangrao",
        [
            "1z 2z 3z 4z 9m 9m 1p 3p 5p 2s 4s 6s 8s 6z",
            "123m 456m 789m 123p 5z",
            "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 8m 8p 8s 5s",
        ],
        indicator="7z",
        draws="9s 1s 2s 3s 4p",
        options={"scoring": "xingchen"},
    )
    g, _ = do(g, 0, Discard(K("1z")))
    g = pass_all(g)
    g, _ = do(g, 1, KeepDrawing(K("9s")))
    for seat in (2, 3, 0):
        g = pass_all(g)
        assert g.hand.turn == seat
        g, _ = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2))
    g = pass_all(g)
    assert g.hand.turn == 1 and Win() in legal_actions(g, 1)
    g, _ = do(g, 1, Win())
    assert "touji" in g.hand.result["winners"][0]["flags"]


def test_jiujiang_fa_drawn_in_play_is_laid_open_and_replaced():
    g = rig(
        "jiujiang",
        [
            "1s 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 7z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
            "123m 456m 789m 11s 46p",
        ],
        draws="6z",
        tails="3p",
    )
    g, ev = do(g, 0, Discard(K("4m")))
    s = g.hand.seats[1]
    assert [t >> 2 for t in s.flowers] == [GREEN] and s.drawn >> 2 == K("3p")
    assert any(e.kind == "flower" and e.visible_to is None for e in ev)
    assert [e.data["tile"] for e in ev if e.kind == "drawn"] == [GREEN, K("3p")]
    assert all(e.visible_to == 1 for e in ev if e.kind == "drawn")


def test_sanbao_feeder_pays_everything():
    g = rig(
        "shangrao",
        [
            "1z 2z 3z 4z 1m 4m 7m 2p 5p 8p 3s 6s 9s 6z",
            "23m 99p",
            "1z 2z 3z 4z 2m 5m 8m 3p 6p 9p 1s 4s 7s",
            "1z 2z 3z 4z 3m 6m 9m 4p 7p 2s 4s 8s 8s",
        ],
        melds={1: ["111p", "555s", "777s"]},
        indicator="7z",
        draws="1m",
    )
    assert [m.fed_by for m in g.hand.seats[1].melds] == [0, 0, 0]
    g, _ = do(g, 0, Discard(K("1z")))
    g = pass_all(g)
    g, _ = do(g, 1, Win())
    w = g.hand.result["winners"][0]
    assert g.hand.result["deltas"] == [-3 * w["points"], 3 * w["points"], 0, 0]


def test_jiujiang_loser_extras_and_value_per_pao():
    g = rig(
        "jiujiang",
        [
            "5p 11m 23m 4m 66p 78p 9p",
            "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 9s 5z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 3s 9s 1s",
            "123m 456m 789m 11s 46p",
        ],
        melds={0: ["7z7z7z"]},
        draws="1s",
    )
    g.value_per_pao = 2
    g, _ = do(g, 0, Discard(K("5p")))
    g, _ = do(g, 3, Win())
    w = g.hand.result["winners"][0]
    assert g.hand.result["deltas"] == [-(w["points"] + 1) * 2, 0, 0, (w["points"] + 1) * 2]


def test_xinyu_kong_narrates_one_die():
    g = rig(
        "xinyu",
        [
            "1m1m1m1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 3z 4z 5z 6z",
            "3m 6m 8m 1p 4p 7p 2s 5s 8s 3z 4z 5z 6z",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 1z 2z 7z 7z",
        ],
    )
    g, ev = do(g, 0, ConcealedKong(0))
    dice = [e for e in ev if e.kind == "dice"]
    assert len(dice) == 1 and dice[0].data["purpose"] == "replacement"
    assert 1 <= dice[0].data["values"][0] <= 6
    assert [e.kind for e in ev].index("dice") < [e.kind for e in ev].index("drawn")


def test_a_later_win_waits_for_an_earlier_winner_in_play_order():
    hands = [
        "9p 1z 2z 3z 4z 5m 5m 1p 3p 5p 2s 4s 6s 8s",
        "123m 456m 789m 123s 9p",
        "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
        "234m 567m 678s 345s 9p",
    ]
    g = rig("shangrao", hands, indicator="7z", options={"discard_win": True}, draws="1s")
    g, _ = do(g, 0, Discard(K("9p")))
    assert Win() in legal_actions(g, 1) and Win() in legal_actions(g, 3)
    g3, _ = do(g, 3, Win())
    assert g3.hand.phase == "claim"  # seat 1 comes first from the discarder
    g1, _ = do(g3, 1, Pass())
    assert [w["seat"] for w in g1.hand.result["winners"]] == [3]
    g1, _ = do(g3, 1, Win())
    assert [w["seat"] for w in g1.hand.result["winners"]] == [1]
    g1, _ = do(g, 1, Win())  # the first in play order wins at once
    assert [w["seat"] for w in g1.hand.result["winners"]] == [1]
