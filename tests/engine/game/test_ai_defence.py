"""The AI's defence (守牌): danger from public information only, fold when far, push when close."""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

import pytest
from game_helpers import check_conservation, rig

from engine import variants
from engine.game import Discard, Pass, Pong, apply, legal_actions, new_game
from engine.game.ai import choose_action
from engine.game.danger import (
    Sight,
    danger_of,
    risks,
    sight_from_view,
    sight_of,
    threat_of,
    threats,
)
from engine.game.legal import waiting_for
from engine.game.simulate import main as simulate_main
from engine.game.simulate import parse_defend, play_hand, simulate
from engine.game.state import state_from_json, state_to_json
from engine.game.view import seat_view
from engine.notation import parse_tiles

#: Variants (with options) where a discard can be won, so defence is in play (上饶 only
#: with its threat switched on: by default the AI does not defend there).
DEFENDED = [
    ("jiujiang", {}),
    ("shangrao", {"discard_win": True}),
    ("xinyu", {"discard_win": True}),
]


@pytest.fixture
def shangrao_defends():
    """Switch the 上饶 threat on, so the defence code runs with a 宝 in play."""
    real = variants.get("shangrao")
    tuned = dataclasses.replace(real, ai=dataclasses.replace(real.ai, threat_scale=1.0))
    variants.register(tuned, replace=True)
    try:
        yield
    finally:
        variants.register(real, replace=True)


def K(text: str) -> int:
    return parse_tiles(text)[0]


def with_river(g, seat: int, text: str):
    """Move the next live draws (rigged as ``draws=text``) into ``seat``'s river."""
    h = g.hand
    kinds = parse_tiles(text)
    for k in kinds:
        t = h.wall[h.head]
        assert t >> 2 == k
        h.seats[seat].river.append(t)
        h.head += 1
    check_conservation(g)
    return g


def scrambled(g, seat: int):
    """The same state with every other seat's concealed tiles and the wall order shuffled
    among themselves, and the other seats' private notes (waits, missed win, 宝 drawn, claim
    options) wiped; the public part and ``seat``'s own tiles are unchanged."""
    g2 = state_from_json(state_to_json(g))
    h = g2.hand
    pool = list(h.wall[h.head : h.tail + 1])
    for i, s in enumerate(h.seats):
        if i != seat:
            pool += s.hand
    pool.sort(key=lambda t: (t * 7919) % 137)  # a fixed permutation unlike the original
    wall = list(h.wall)
    live = pool[: h.tail + 1 - h.head]
    wall[h.head : h.tail + 1] = live
    h.wall = tuple(wall)
    rest = pool[len(live) :]
    for i, s in enumerate(h.seats):
        if i != seat:
            s.hand, rest = sorted(rest[: len(s.hand)]), rest[len(s.hand) :]
            if s.drawn is not None:
                s.drawn = s.hand[-1]
            s.waits, s.missed_win, s.bao_drawn, s.touji = (), False, 0, False
            if h.claim is not None:
                h.claim.options[i] = h.claim.responses[i] = None
    check_conservation(g2)
    return g2


def walk(variant, options, seed, hands, defend=(True, True, True, True)):
    """Yield ``(state, seat)`` at every decision of ``hands`` AI-played hands."""
    g, _ = new_game(variant, options, seed)
    for i in range(hands):
        if i:
            g, _ = apply(g, g.hand.dealer, choose_action(g, g.hand.dealer))
        while g.hand.phase != "over":
            seat = waiting_for(g)[0]
            yield g, seat
            g, _ = apply(g, seat, choose_action(g, seat, defend=defend[seat]))


# --- public information only ------------------------------------------------------------


@pytest.mark.usefixtures("shangrao_defends")
@pytest.mark.parametrize(("variant", "options"), DEFENDED)
def test_decisions_ignore_hidden_tiles(variant, options):
    """Shuffling the other seats' concealed tiles and the wall never changes a decision."""
    defended = 0
    for n, (g, seat) in enumerate(walk(variant, options, f"hidden-{variant}", 20)):
        a = choose_action(g, seat)
        if a != choose_action(g, seat, defend=False):
            defended += 1
        if n % 4 == 0 or a != choose_action(g, seat, defend=False):
            g2 = scrambled(g, seat)
            assert state_to_json(g2) != state_to_json(g) or not g.hand.seats[seat - 1].hand
            assert choose_action(g2, seat) == a
            assert sight_of(g2, seat) == sight_of(g, seat)
    assert defended >= 5  # the defence was in play, so the check covers it


@pytest.mark.parametrize(("variant", "options"), DEFENDED)
def test_sight_is_what_the_seat_view_shows(variant, options):
    for n, (g, _seat) in enumerate(walk(variant, options, f"sight-{variant}", 2)):
        if n % 5 == 0:
            for s in range(4):
                assert sight_of(g, s) == sight_from_view(seat_view(g, s))


# --- danger and threat ------------------------------------------------------------------


def blank_sight(**kw) -> Sight:
    base = {
        "variant": "jiujiang",
        "seat": 0,
        "own": tuple([0] * 34),
        "rivers": ((), (), (), ()),
        "melds": ((), (), (), ()),
        "fed": (0, 0, 0, 0),
        "flowers": ((), (), (), ()),
        "ready": (False, False, False, False),
        "indicator": None,
        "wildcards": frozenset(),
        "wall_left": 60,
    }
    base.update(kw)
    return Sight(**base)


def own(*texts: str) -> tuple[int, ...]:
    c = [0] * 34
    for text in texts:
        for k in parse_tiles(text):
            c[k] += 1
    return tuple(c)


def test_genbutsu_of_a_ready_seat_is_safe():
    s = blank_sight(
        own=own("5p"), rivers=((), (K("5p"),), (), ()), ready=(False, True, False, False)
    )
    assert danger_of(s, 1, K("5p")) == 0.0
    assert danger_of(s, 2, K("5p")) > 0.5  # not a 现物 of seat 2


def test_genbutsu_of_an_undeclared_seat_is_safer():
    plain = blank_sight(own=own("5p"))
    seen = blank_sight(own=own("5p"), rivers=((), (K("5p"),), (), ()))
    assert 0 < danger_of(seen, 1, K("5p")) < 0.3 * danger_of(plain, 1, K("5p"))


def test_suji_makes_a_tile_safer():
    plain = blank_sight(own=own("4m"))
    suji = blank_sight(own=own("4m"), rivers=((), (K("1m"), K("7m")), (), ()))
    # 筋 rules out the two 两面 waits; 嵌张 35m and 单钓 / 双碰 on 4m remain
    assert danger_of(suji, 1, K("4m")) < 0.7 * danger_of(plain, 1, K("4m"))


def test_honours_in_sight_are_safer_and_all_four_safe():
    d = [
        danger_of(blank_sight(own=own("5z"), rivers=((), (K("5z"),) * n, (), ())), 2, K("5z"))
        for n in range(4)
    ]
    assert d[0] > d[1] > d[2] > d[3] == 0.0
    assert d[0] < danger_of(blank_sight(own=own("5m")), 2, K("5m"))  # honours wait only 单钓/双碰


def test_no_chance_wall_removes_the_shapes():
    # all four 6m in sight (壁): no 两面 67m or 嵌张 68m... waits on 7m from above go
    wall = blank_sight(own=own("7m 6m"), rivers=((), (K("6m"),) * 3, (), ()))
    assert danger_of(wall, 2, K("7m")) < 0.6 * danger_of(blank_sight(own=own("7m")), 2, K("7m"))


def test_threat_from_ready_melds_and_lateness():
    s = blank_sight(
        ready=(False, True, False, False),
        melds=((), (), ((1, 1, 1), (2, 2, 2), (3, 3, 3)), ()),
        rivers=((), (), (), tuple([K("1s")] * 4)),
    )
    assert threat_of(s, 1) == 1.0  # 报听
    assert threat_of(s, 2) == 1.0  # 3 melds
    assert threat_of(s, 3) < 0.1  # 4 discards, no melds: early
    late = blank_sight(rivers=((), (), (), tuple([K("1s")] * 14)))
    assert threat_of(late, 3) > threat_of(s, 3)
    assert threats(s)[0] == 0.0
    r = risks(s, [K("5p"), K("5z")])
    assert r[K("5p")] > r[K("5z")] > 0


# --- decisions --------------------------------------------------------------------------


def ready_seats(hand0: str, rivers: Sequence[str], *, discards0: int = 0):
    """九江: seat 0 (dealer) to discard from ``hand0``; seats 1, 2… each threw ``rivers[i]``
    and declared 报听."""
    g = rig(
        "jiujiang",
        [
            hand0,
            "1m1m2m2m3m3m1p1p2p2p3p3p9s",
            "7p7p7p8p8p8p9p9p9p4s4s4s5s",
            "6s6s6s7s7s7s8s8s8s4p5s5s9s",
        ],
        draws=" ".join(rivers),
    )
    for seat, river in enumerate(rivers, start=1):
        g = with_river(g, seat, river)
        g.hand.seats[seat].ready = True
    g.hand.seats[0].discards = discards0
    return g


def ready_threat(hand0: str, river1: str, *, discards0: int = 0):
    """九江: seat 0 (dealer) to discard from ``hand0``; seat 1 declared 报听 and threw
    ``river1``."""
    return ready_seats(hand0, (river1,), discards0=discards0)


def test_far_hand_folds_against_a_ready_seat():
    # far from ready (向听 ≥ 2); 5p is connected (kept when attacking) but a 现物 of seat 1
    g = ready_threat("1m 4m 7m 9m 4p 5p 2s 6s 9s 5z 7z 3m 8p 1s", "5p")
    assert choose_action(g, 0, defend=False) != Discard(K("5p"))
    assert choose_action(g, 0) == Discard(K("5p"))


def test_no_threat_no_fold():
    g = ready_threat("1m 4m 7m 9m 4p 5p 2s 6s 9s 5z 7z 3m 8p 1s", "5p")
    g.hand.seats[1].ready = False  # one discard, no melds: no threat
    assert choose_action(g, 0) == choose_action(g, 0, defend=False)


def test_ready_hand_pushes():
    # discarding 1p leaves 听牌 on 1s / 4s; 1p is not a 现物 but not very dangerous either
    g = ready_threat("123m 456m 789p 23s 5z5z 1p", "9m", discards0=3)
    assert choose_action(g, 0, defend=False) == Discard(K("1p"))
    assert choose_action(g, 0) == Discard(K("1p"))


def test_shangrao_does_not_defend():
    """上饶 with discard_win: a 宝吊头 hand wins on any tile, so the AI attacks there."""
    g1, _ = new_game("shangrao", {"discard_win": True}, "sr-attack")
    g2, _ = new_game("shangrao", {"discard_win": True}, "sr-attack")
    log1: list = []
    log2: list = []
    play_hand(g1, log1, (True,) * 4)
    play_hand(g2, log2, (False,) * 4)
    assert log1 == log2 and len(log1) > 20


def test_one_shanten_prefers_an_equally_good_safe_tile():
    # 一向听 either way: attacking throws the lone terminal 1p; 4p keeps the same 向听
    # and is a 现物 of the ready seat, so the defending AI throws 4p (安全牌优先)
    g = ready_threat("123m 456m 789p 2s3s 4p 1p 5z", "4p", discards0=3)
    assert choose_action(g, 0, defend=False) == Discard(K("1p"))
    assert choose_action(g, 0) == Discard(K("4p"))


@pytest.mark.usefixtures("shangrao_defends")
def test_fold_never_throws_the_bao():
    # 上饶 with discard_win; 宝 = 1z (东), all four copies in sight, so it would be the safest
    # tile of all; seat 1 shows three melds (a clear threat) and seat 0 is far from ready.
    g = rig(
        "shangrao",
        [
            "1m 4m 7m 9m 4p 5p 2s 6s 9s 1z 1z 3m 8p 1s",
            "9s9s5s5s",
            "7p7p7p8p8p8p9p9p9p4s4s4s5s",
            "6s6s6s7s7s7s8s8s8s9p2z2z3z",
        ],
        indicator="4z",
        options={"discard_win": True},
        melds={1: ["111p", "222p", "333p"]},
        draws="1z 1z",
    )
    g = with_river(g, 2, "1z 1z")
    assert g.hand.wildcards == {K("1z")}
    sight = sight_of(g, 0)
    assert threat_of(sight, 1) == 1.0
    kinds = sorted({t >> 2 for t in g.hand.seats[0].hand})
    r = risks(sight, kinds)
    assert r[K("1z")] == 0.0
    safest = min((k for k in kinds if k != K("1z")), key=lambda k: r[k])
    assert choose_action(g, 0) == Discard(safest)


def test_claims_wait_while_folding():
    # under a 报听 threat, seat 2 (far from ready) does not pong 9p; attacking, it would
    g = rig(
        "jiujiang",
        [
            "1m 4m 7m 9m 4p 5p 2s 6s 9s 5z 7z 3m 9p 1s",
            "1m1m2m2m3m3m1p1p2p2p3p3p9s",
            "9p9p 12m 45m 78s 23p 5z5z 7z",
            "6s6s6s7s7s7s8s8s8s4s5s5s9s",
        ],
    )
    g.hand.seats[1].ready = True
    g.hand.seats[0].discards = 3
    g, _ = apply(g, 0, Discard(K("9p")))
    assert g.hand.phase == "claim"
    assert Pong() in legal_actions(g, 2)
    assert choose_action(g, 2, defend=False) == Pong()
    assert choose_action(g, 2) == Pass()


def test_no_discard_win_means_no_defence():
    """新余 (self-draw only): defending or not, the AI plays the same game."""
    g1, _ = new_game("xinyu", None, "same")
    g2, _ = new_game("xinyu", None, "same")
    log1: list = []
    log2: list = []
    g1 = play_hand(g1, log1, (True,) * 4)
    g2 = play_hand(g2, log2, (False,) * 4)
    assert log1 == log2 and len(log1) > 20


# --- the simulator ------------------------------------------------------------------------


def test_simulator_counts_deal_ins_per_seat():
    r = simulate("jiujiang", 40, "defence-sim", None, verify=True, defend=parse_defend("0101"))
    assert r["defend"] == "0101"
    assert r["errors"] == 0 and r["replay_mismatches"] == 0 and r["zero_sum_violations"] == 0
    assert sum(r["seat_deal_ins"]) == r["discard_wins"]
    assert sum(r["seat_wins"]) == r["wins"]
    assert sum(r["seat_points"]) == 0
    assert r["ai_ms"] > 0


def test_parse_defend():
    assert parse_defend("0111") == (False, True, True, True)
    for bad in ("011", "0121", "yes!"):
        with pytest.raises(ValueError):
            parse_defend(bad)
    with pytest.raises(SystemExit) as e:  # the CLI refuses it with a usage error
        simulate_main(["--variant", "jiujiang", "--hands", "1", "--defend", "01"])
    assert e.value.code == 2


def test_defending_seats_deal_in_less():
    """A mixed 九江 table (seats 1 and 3 defend, then 0 and 2): the defenders pay for fewer
    discard wins than the attackers (fixed seeds; the figures are in the simulator's output)."""
    defend = attack = 0
    for mask in ("0101", "1010"):
        r = simulate(
            "jiujiang", 240, "defence-mixed", None, verify=False, defend=parse_defend(mask)
        )
        for s in range(4):
            if mask[s] == "1":
                defend += r["seat_deal_ins"][s]
            else:
                attack += r["seat_deal_ins"][s]
    assert defend < attack
