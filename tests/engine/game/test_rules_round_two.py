"""Table-flow rules decided after the scorer's differential check (RULES §7, issue 17 items
8–11): Jiujiang 地胡 on a first self-draw, 天胡's winning tile, 四个宝 at once or never,
报听 after a claim before the first draw, and the missed win on a passed 抢杠."""

from __future__ import annotations

import json

import pytest
from game_helpers import check_conservation, rig

from engine.game import (
    AddedKong,
    Chi,
    DeclareReady,
    Discard,
    Kong,
    Pass,
    Pong,
    Win,
    apply,
    legal_actions,
    new_game,
    state_from_json,
    state_to_json,
)
from engine.game import wall as wall_
from engine.game.state import SeatState
from engine.notation import parse_tiles
from engine.tiles import GREEN


def K(text: str) -> int:
    return parse_tiles(text)[0]


def do(g, seat, action):
    g2, _ = apply(g, seat, action)
    check_conservation(g2)
    return g2


def pass_all(g):
    while g.hand.phase in ("claim", "rob"):
        seat = next(s for s in range(4) if legal_actions(g, s))
        g = do(g, seat, Pass())
    return g


def winner(g):
    r = g.hand.result
    assert r is not None and r["winners"], "the hand was not won"
    return r["winners"][0]


# --- item 8: Jiujiang 地胡 on a non-dealer's first self-draw ----------------------------

JJ_EARTH = [
    "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s 1p",  # dealer: throws 9s, nobody wants it
    "123m 456m 789m 123s 5p",  # waits on 5p alone
    "2m 3m 8m 1p 2p 4p 7p 8p 4s 6s 7s 7z 5z",
    "2m 5m 8m 3p 6p 9p 1s 4s 7s 8m 8p 8s 6s",
]


def test_jiujiang_earth_on_a_non_dealers_first_self_draw():
    g = rig("jiujiang", JJ_EARTH, draws="5p")
    g = do(g, 0, Discard(K("9s")))
    assert g.hand.turn == 1 and g.hand.phase == "turn"  # no claim: seat 1 drew
    assert Win() in legal_actions(g, 1)
    g = do(g, 1, Win())
    w = winner(g)
    assert g.hand.result["how"] == "self"
    assert "earth" in w["flags"]
    assert any(i["name"] == "地胡" for i in w["items"])


def test_jiujiang_earth_self_draw_needs_no_claim_before():
    hands = list(JJ_EARTH)
    hands[3] = "2m 5m 8m 3p 6p 9p 1s 4s 7s 8m 8p 9s 9s"  # seat 3 pongs the dealer's 9s
    g = rig("jiujiang", hands, draws="4m 5p")
    g = do(g, 0, Discard(K("9s")))
    assert legal_actions(g, 3) == [Pong(), Pass()]
    g = do(g, 3, Pong())
    g = do(g, 3, Discard(K("1s")))
    g = pass_all(g)
    assert g.hand.turn == 0
    g = do(g, 0, Discard(K("4m")))
    g = pass_all(g)
    assert g.hand.turn == 1 and g.hand.seats[1].discards == 0 and Win() in legal_actions(g, 1)
    g = do(g, 1, Win())
    assert "earth" not in winner(g)["flags"]  # a claim was made before: no 地胡


def test_jiujiang_earth_self_draw_only_on_the_first_draw():
    g = rig("jiujiang", JJ_EARTH, draws="7z 1s 5m 9m 5p")
    g = do(g, 0, Discard(K("9s")))
    g = do(g, 1, Discard(K("7z")))  # seat 1's first draw does not win: it throws
    for seat in (2, 3, 0):
        g = pass_all(g)
        assert g.hand.turn == seat
        g = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2))
    g = pass_all(g)
    assert g.hand.turn == 1 and Win() in legal_actions(g, 1)
    g = do(g, 1, Win())
    assert "earth" not in winner(g)["flags"]


def test_shangrao_earth_stays_on_the_dealers_first_discard():
    g = rig(
        "shangrao",
        [
            "9p 1z 2z 3z 4z 5m 5m 1p 3p 5p 2s 4s 6s 8s",
            "123m 456m 789m 123s 5p",
            "1m 4m 7m 2p 5p 8p 3s 6s 9s 6z 6z 7p 7s",
            "2m 5m 8m 3p 6p 9p 1s 4s 7s 6z 8m 8p 8s",
        ],
        indicator="7z",
        draws="5p",
    )
    g = do(g, 0, Discard(K("1z")))
    assert g.hand.turn == 1 and Win() in legal_actions(g, 1)
    g = do(g, 1, Win())
    assert "earth" not in winner(g)["flags"]  # Shangrao: 地胡 only on the dealer's discard


# --- item 9: 天胡's winning tile is the last tile the dealer took -------------------------


def _jiujiang_deal(monkeypatch, dealer14: str, fa_at: int, replacement: str):
    """A Jiujiang first hand dealt by the engine from a chosen wall: the dealer's 14 tiles are
    ``dealer14`` with a 发 put at position ``fa_at``, and the tail's first tile (the 发's
    replacement) is ``replacement``; no other seat holds a 发."""
    free = wall_.tile_ids(k for k in range(34) if k < 27 or k in (31, 32, 33))
    free.sort()

    def take(kind: int) -> int:
        t = next(t for t in free if t >> 2 == kind)
        free.remove(t)
        return t

    dealer = [take(k) for k in parse_tiles(dealer14)]
    dealer.insert(fa_at, take(GREEN))
    assert len(dealer) == 14
    tail = take(K(replacement))
    plain = [t for t in free if t >> 2 != GREEN]
    others, rest = plain[:39], plain[39:] + [t for t in free if t >> 2 == GREEN]
    wall = dealer + others + rest + [tail]
    assert sorted(wall) == sorted(wall_.tile_ids(k for k in range(34) if k < 27 or k > 30))
    monkeypatch.setattr(wall_, "shuffle", lambda ids, seed: list(wall))
    g, _ = new_game("jiujiang", seed="heaven-tile")
    assert g.hand.dealer == 0 and [t >> 2 for t in g.hand.seats[0].flowers] == [GREEN]
    return g


@pytest.mark.parametrize("fa_at", [13, 0])  # the 14th dealt tile was the 发, or an earlier one
def test_heaven_winning_tile_is_the_dealers_last_replacement(monkeypatch, fa_at):
    # 234m 567m 1p 345p 789s + the replacement 1p: won on 1p the hand waited on 1p alone
    # (独听); read as won on the highest tile 9s it had two waits (6s, 9s).
    g = _jiujiang_deal(monkeypatch, "234m 567m 1p 345p 789s", fa_at, "1p")
    s = g.hand.seats[0]
    assert s.drawn >> 2 == K("1p")
    assert Win() in legal_actions(g, 0)
    g = do(g, 0, Win())
    w = winner(g)
    assert "heaven" in w["flags"]
    assert w["hand"].endswith("+1p")
    assert any(i["name"] == "独听" for i in w["items"]), w["items"]


def test_dealers_drawn_tile_is_the_last_one_taken_in_dealt_games():
    seen = set()
    for n in range(40):
        g, _ = new_game("jiujiang", seed=f"heaven-{n}")
        h = g.hand
        s = h.seats[h.dealer]
        taken = len(s.flowers)  # the dealer's replacements come first, off the tail
        assert s.drawn == (h.wall[len(h.wall) - taken] if taken else h.wall[13])
        assert s.drawn in s.hand
        seen.add(bool(taken))
    assert seen == {True, False}


# --- item 10: 四个宝 at once or never ------------------------------------------------------

SR_FOUR_BAO = [
    "1m 4m 7m 3p 5p 8p 3s 5s 8s 9m 9p 2z 2z 6z",  # dealer: throws 6z
    "5z5z5z 2m 2m 6m 2p 6p 2s 6s 1z 3z 4z",  # three 宝 (5z), junk that no 4 宝 complete
    "1m 4m 7m 1p 4p 7p 1s 4s 7s 3m 3p 3s 7z",
    "1m 5m 8m 2p 5p 8p 3s 6s 9s 4m 7p 7s 6z",
]


def test_four_bao_may_be_declared_on_the_turn_the_fourth_comes():
    g = rig("shangrao", SR_FOUR_BAO, indicator="7z", draws="5z")
    assert g.hand.wildcards == {K("5z")}
    g = do(g, 0, Discard(K("6z")))
    g = pass_all(g)
    s = g.hand.seats[1]
    assert g.hand.turn == 1 and s.bao_drawn == 4
    assert Win() in legal_actions(g, 1)
    g = do(g, 1, Win())
    assert "four_bao" in winner(g)["flags"]


def test_four_bao_right_is_lost_by_discarding_instead():
    g = rig("shangrao", SR_FOUR_BAO, indicator="7z", draws="5z 1z 2z 3z 9s")
    g = do(g, 0, Discard(K("6z")))
    g = pass_all(g)
    assert Win() in legal_actions(g, 1)
    g = do(g, 1, Discard(K("1z")))  # declines: the right is gone for this hand
    assert g.hand.seats[1].four_bao_lost
    for seat in (2, 3, 0):
        g = pass_all(g)
        assert g.hand.turn == seat
        g = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2))
    g = pass_all(g)
    s = g.hand.seats[1]
    assert g.hand.turn == 1 and s.bao_drawn == 4 and s.drawn >> 2 == K("9s")
    assert Win() not in legal_actions(g, 1)
    # the lost right survives a save and load; states saved before the field read as not lost
    blob = json.loads(json.dumps(state_to_json(g)))
    assert state_from_json(blob).hand.seats[1].four_bao_lost
    old = dict(blob["hand"]["seats"][1])
    del old["four_bao_lost"]
    assert SeatState.from_json(old).four_bao_lost is False


# --- item 11: 报听 after a claim before the first draw -----------------------------------

JJ_READY_HANDS = [
    "5p 1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 1p",  # dealer: throws 5p first
    "4p 6p 2m 3m 8m 1p 2p 7p 8p 4s 6s 7s 7z",
    "5p5p 123m 456m 789m 1s 9s",  # pongs 5p, then ready on 9s by throwing 1s
    "2m 5m 8m 3p 7p 9p 1s 4s 7s 8m 8p 8s 6s",
]


def test_declare_ready_after_a_pong_before_the_first_draw():
    g = rig("jiujiang", JJ_READY_HANDS, draws="1s")
    g = do(g, 0, Discard(K("5p")))
    assert Pong() in legal_actions(g, 2)
    g = do(g, 2, Pong())
    acts = legal_actions(g, 2)
    assert g.hand.turn == 2 and g.hand.seats[2].drawn is None
    assert DeclareReady(K("1s")) in acts and DeclareReady(K("9s")) in acts
    assert DeclareReady(K("1m")) not in acts
    g = do(g, 2, DeclareReady(K("1s")))
    s = g.hand.seats[2]
    assert s.ready and s.waits == (K("9s"),)


def test_declare_ready_after_a_kong_before_the_first_draw():
    hands = list(JJ_READY_HANDS)
    hands[2] = "5p5p5p 123m 456m 789m 9s"
    g = rig("jiujiang", hands, draws="3m", tails="1s")
    g = do(g, 0, Discard(K("5p")))
    assert Kong() in legal_actions(g, 2)
    g = do(g, 2, Kong())
    s = g.hand.seats[2]
    assert g.hand.turn == 2 and s.drawn >> 2 == K("1s")  # the replacement from the tail
    assert DeclareReady(K("1s")) in legal_actions(g, 2)
    g = do(g, 2, DeclareReady(K("1s")))
    assert g.hand.seats[2].ready and g.hand.seats[2].waits == (K("9s"),)


def test_declare_ready_after_a_chi_before_the_first_draw_with_the_chi_option():
    hands = list(JJ_READY_HANDS)
    hands[1] = "46p 123m 456m 789m 1s 9s"
    hands[2] = "2m 3m 8m 1p 2p 7p 8p 4s 6s 7s 7z 5p 5p"
    g = rig("jiujiang", hands, draws="3m", options={"chi": True})
    g = do(g, 0, Discard(K("5p")))
    assert Chi((K("4p"), K("5p"), K("6p"))) in legal_actions(g, 1)
    g = do(g, 2, Pass())
    g = do(g, 1, Chi((K("4p"), K("5p"), K("6p"))))
    assert g.hand.turn == 1
    assert DeclareReady(K("1s")) in legal_actions(g, 1)
    g = do(g, 1, DeclareReady(K("1s")))
    assert g.hand.seats[1].ready and g.hand.seats[1].waits == (K("9s"),)


def test_no_declare_ready_on_a_claim_after_the_first_discard():
    hands = list(JJ_READY_HANDS)
    hands[0] = "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 1p 2m"  # keeps no 5p: throws 2m first
    g = rig("jiujiang", hands, draws="7z 3m 4m 5p")
    g = do(g, 0, Discard(K("2m")))
    for seat in (1, 2, 3):
        g = pass_all(g)
        assert g.hand.turn == seat
        g = do(g, seat, Discard(g.hand.seats[seat].drawn >> 2))
    g = pass_all(g)
    assert g.hand.turn == 0 and g.hand.seats[0].drawn >> 2 == K("5p")
    g = do(g, 0, Discard(K("5p")))
    g = do(g, 2, Pong())
    acts = legal_actions(g, 2)
    assert acts and all(type(a) is Discard for a in acts)  # seat 2 has discarded already


# --- item 11: a passed 抢杠 is a missed win ------------------------------------------------


def _rob_then_discard():
    g = rig(
        "jiujiang",
        [
            "1s 11m 23m 4m 66p 78p 99p 5z5z",
            "2m 3m 8m 1p 2p 4p 7p 4s 6s 7z",
            "1m 4m 7m 2s 5s 8s 3p 6p 9p 5z 7z 3s 9s",
            "123m 456m 789m 11s 34p",  # waits on 2p or 5p
        ],
        melds={1: ["555p"]},
        draws="5p 7s 8m",
        tails="2p",
    )
    g = do(g, 0, Discard(K("4m")))
    g = do(g, 1, AddedKong(K("5p")))
    assert g.hand.phase == "rob" and legal_actions(g, 3) == [Win(), Pass()]
    return g


def test_passing_a_robbed_kong_win_is_a_missed_win():
    g = do(_rob_then_discard(), 3, Pass())
    assert g.hand.seats[3].missed_win
    assert g.hand.turn == 1 and g.hand.seats[1].drawn >> 2 == K("2p")  # the kong stood
    before = state_from_json(state_to_json(g))
    g = do(g, 1, Discard(K("2p")))  # seat 3 waits on 2p but let the 抢杠 win pass
    assert Win() not in legal_actions(g, 3)
    g = pass_all(g)
    assert g.hand.turn == 2
    # the same discard is a win for seat 3 had it not passed the 抢杠
    before.hand.seats[3].missed_win = False
    g2 = do(before, 1, Discard(K("2p")))
    assert Win() in legal_actions(g2, 3)
    # the block ends with seat 3's own next draw
    g = do(g, 2, Discard(g.hand.seats[2].drawn >> 2))
    g = pass_all(g)
    assert g.hand.turn == 3 and not g.hand.seats[3].missed_win
