"""Readings of complete hands (engine.decompose) and the special shapes (engine.special)."""

from __future__ import annotations

from collections import Counter

from agari_reference import complete_by_substitution
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.decompose import (
    KONG,
    PAIR,
    SEQ,
    TRIPLET,
    Group,
    Reading,
    readings,
    rebuild,
    seven_pairs_readings,
    standard_readings,
)
from engine.notation import Hand, parse_hand, parse_tiles
from engine.special import (
    QIXING_SHISANLAN,
    SHISANLAN,
    all_honours,
    hongqi,
    jiuyao,
    qixiannu,
    shisanlan,
    yitiaolong,
)
from engine.tiles import counts_of, kind_of


def K(s: str) -> list[int]:
    return sorted(parse_tiles(s))


def ref_standard(c: list[int], wilds: int) -> bool:
    """Slow reference: each wildcard tried as each kind, standard shape only."""
    return complete_by_substitution(c, wilds, standard_only=True)


# --- group and reading checks -----------------------------------------------------------------


def check_group(g: Group) -> None:
    assert not (Counter(g.wild) - Counter(g.kinds)), g
    if g.shape == SEQ:
        a, b, c = g.kinds
        assert a < 27 and a // 9 == c // 9 and b == a + 1 and c == a + 2, g
    elif g.shape == TRIPLET:
        assert len(set(g.kinds)) == 1 and len(g.kinds) == 3, g
    elif g.shape == KONG:
        assert len(set(g.kinds)) == 1 and len(g.kinds) == 4, g
    else:
        assert g.shape == PAIR and len(g.kinds) == 2 and g.kinds[0] == g.kinds[1], g


def check_reading(hand: Hand, r: Reading, bao: int | None) -> None:
    for g in r.groups:
        check_group(g)
    tiles, melds = rebuild(r, bao)
    assert tiles == list(hand.concealed), (r.text(), hand)
    assert melds == hand.melds
    if r.form == "standard":
        assert r.pair is not None and len(r.sets) == 4
    else:
        assert len(r.pairs) == 7 and not hand.melds
        assert all(n <= 2 for n in Counter(g.kinds[0] for g in r.pairs).values())


# --- hypothesis: random complete hands ----------------------------------------------------------


@st.composite
def complete_hands(draw: st.DrawFn) -> tuple[list[int], list[list[int]]]:
    """14 tiles built from 4 sets + a pair (each kind at most 4), and the groups used."""
    left = [4] * 34
    groups: list[list[int]] = []
    while len(groups) < 4:
        k = draw(st.integers(0, 33))
        seq = draw(st.booleans()) and k < 27 and k % 9 <= 6
        g = [k, k + 1, k + 2] if seq else [k, k, k]
        if all(left[x] >= g.count(x) for x in set(g)):
            for x in g:
                left[x] -= 1
            groups.append(g)
    p = draw(st.sampled_from([k for k in range(34) if left[k] >= 2]))
    groups.append([p, p])
    return sorted(x for g in groups for x in g), groups


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.large_base_example])
@given(complete_hands(), st.data())
def test_readings_rebuild_the_hand(
    built: tuple[list[int], list[list[int]]], data: st.DataObject
) -> None:
    tiles, _ = built
    n_wild = data.draw(st.integers(0, 3))
    bao = data.draw(st.integers(0, 33))
    # replace up to n_wild tiles (not of the bao kind) by 宝 tiles, keeping ≤ 4 of the bao kind
    tiles = list(tiles)
    for _ in range(n_wild):
        spots = [i for i, k in enumerate(tiles) if k != bao]
        if tiles.count(bao) >= 4 or not spots:
            break
        tiles[data.draw(st.sampled_from(spots))] = bao
    tiles.sort()
    hand = Hand(tuple(tiles), (), tiles[0])
    rs = readings(hand, bao, wild_kinds=range(34))
    assert rs, "a hand built complete must have a reading"
    for r in rs:
        check_reading(hand, r, bao)
    texts = [tuple(sorted(map(repr, r.groups))) for r in rs]
    assert len(texts) == len(set(texts)), "no reading given twice"


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=11, max_size=14), st.integers(0, 2))
def test_standard_agrees_with_brute_force(kinds: list[int], wilds: int) -> None:
    c = counts_of(kinds)
    if max(c) > 4:
        return
    total = len(kinds) + wilds
    if total % 3 != 2:
        wilds = (2 - len(kinds)) % 3
        if wilds > 2:
            return
    assert bool(standard_readings(c, wilds)) == ref_standard(c, wilds)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 33), min_size=10, max_size=14))
def test_seven_pairs_exactly_when_odd_counts_can_be_paired(kinds: list[int]) -> None:
    c = counts_of(kinds)
    if max(c) > 4:
        return
    wilds = 14 - len(kinds)
    odd = sum(n % 2 for n in c)
    rs = seven_pairs_readings(c, wilds)
    assert bool(rs) == (odd <= wilds and (wilds - odd) % 2 == 0)
    for split in rs:
        assert len(split) == 7
        rebuilt = sorted(k for g in split for k in g.real)
        assert rebuilt == sorted(kinds)


# --- fixed examples ---------------------------------------------------------------------------


def test_two_readings_of_a_run() -> None:
    rs = standard_readings(counts_of(K("111222333m55p")), 0)
    shapes = sorted(tuple(sorted(g.shape for g in r)) for r in rs)
    assert shapes == [("pair", "seq", "seq", "seq"), ("pair", "triplet", "triplet", "triplet")]


def test_honours_never_form_sequences() -> None:
    assert standard_readings(counts_of(K("123z11m")), 0) == []
    assert standard_readings(counts_of(K("11z")), 1) == []  # 3 tiles: no pair
    assert standard_readings(counts_of(K("11z")), 3)  # 111z + wild pair


def test_wild_stands_for_a_fifth_copy() -> None:
    hand = parse_hand("123m 456p 789s 7777z 5p +7z")
    rs = readings(hand, kind_of("5p"))
    assert any(
        r.pair
        and r.pair.kinds == (33, 33)
        and r.pair.wild == (33,)
        and any(g.kinds == (33, 33, 33) and not g.wild for g in r.sets)
        for r in rs
    )


def test_wild_as_its_own_face() -> None:
    rs = readings(parse_hand("55z123m456m789p111s +9p"), kind_of("5z"), wild_kinds=range(34))
    assert any(r.pair and r.pair.kinds == (31, 31) for r in rs)


def test_melds_are_kept_as_groups() -> None:
    hand = parse_hand("[222m] (7777p) 333s 555s 88m +8m")
    rs = readings(hand)
    assert len(rs) == 1
    shapes = sorted(g.shape for g in rs[0].sets)
    assert shapes == ["kong", "triplet", "triplet", "triplet"]
    assert sum(1 for g in rs[0].sets if g.exposed) == 1


def test_seven_pairs_four_of_a_kind_and_wild_luxury() -> None:
    rs = readings(parse_hand("1111m44m22p88p33s66s +6s"))
    assert [r.luxury() for r in rs if r.form == "pairs"] == [1]
    # 3 real 1m + a wild: the wild completes the four of a kind (豪华)
    rs = readings(parse_hand("111m44m22p88p33s66s5p +6s"), kind_of("5p"))
    assert max(r.luxury() for r in rs if r.form == "pairs") == 1


def test_not_complete_has_no_reading() -> None:
    assert readings(parse_hand("123m456m789p234s9s1z +9s")) == []


def test_shisanlan() -> None:
    assert shisanlan(counts_of(K("147m369p258s12346z"))) == SHISANLAN
    assert shisanlan(counts_of(K("147m39p28s1234567z"))) == QIXING_SHISANLAN
    assert shisanlan(counts_of(K("147m369p258s1234z"))) is None  # 13 tiles
    assert shisanlan(counts_of(K("146m369p258s12346z"))) is None  # 4m, 6m too close
    assert shisanlan(counts_of(K("147m369p258s11346z"))) is None  # a repeated honour
    # 宝 fills a gap: 36p + wild as 9p
    assert shisanlan(counts_of(K("147m36p258s12346z")), 1) == SHISANLAN
    # 6 honours + 1 wild can be 七星
    assert shisanlan(counts_of(K("147m39p28s123456z")), 1) == QIXING_SHISANLAN
    # two honours missing but one wild: plain 十三烂 (the wild as 7s or an honour)
    assert shisanlan(counts_of(K("147m147p14s12345z")), 1) == SHISANLAN
    assert shisanlan(counts_of(K("147m147p1s12345z")), 2) == QIXING_SHISANLAN
    # no room for the wild: every suit full and every honour present
    assert shisanlan(counts_of(K("147m147p147s1234z")), 1) == SHISANLAN
    assert shisanlan(counts_of(K("147m258p369s1234z")), 1) == SHISANLAN


def test_jiuyao() -> None:
    c = counts_of(K("11m99m1p9p1s9s11z2z3z5z6z"))
    assert jiuyao(c, c) == [jiuyao(c, c)[0]] and not jiuyao(c, c)[0].qixing
    c7 = counts_of(K("11m1p9p1s9s1234567z"))
    assert any(j.qixing for j in jiuyao(c7, c7))
    bad = counts_of(K("11m99m1p9p1s9s11z2z3z5m"))
    assert jiuyao(bad, bad) == []
    quad = counts_of(K("1111m99m1p9p1s9s1z2z"))
    assert any(j.luxury for j in jiuyao(quad, quad))
    three = counts_of(K("111m99m1p9p1s9s1z2z3z"))
    assert not any(j.luxury for j in jiuyao(three, three))
    assert any(j.luxury for j in jiuyao(three, three, 1))


def test_all_honours_qixiannu_dragon_hongqi() -> None:
    assert all_honours(counts_of(K("11122233344455z")))
    assert not all_honours(counts_of(K("1112223334445z1m")))
    assert qixiannu(counts_of(K("22334455667788p")))
    assert not qixiannu(counts_of(K("11223344556688p")))
    dragon = readings(parse_hand("[222s] 123m 456m 789m 55p +9m"))
    assert any(yitiaolong(r) for r in dragon)
    assert not any(yitiaolong(r) for r in readings(parse_hand("[222s] 123m 456m 678m 55p +8m")))
    flags = readings(parse_hand("[555z] [777z] 234m 678p 99s +8p"))
    assert all(hongqi(r) for r in flags)
