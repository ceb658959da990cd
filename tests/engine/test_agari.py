"""is_complete / winning_tiles against slow references (tests/engine/agari_reference.py)."""

from __future__ import annotations

import pytest
from agari_reference import (
    complete_by_search,
    complete_by_substitution,
    complete_plain,
    hands,
    parse,
    relaxed,
    waits_by_search,
)
from hypothesis import given

from engine._tables import build_suit_table, load_suit_table
from engine.agari import is_complete, is_seven_pairs, winning_tiles

# --- the references agree with each other -------------------------------------------------


@relaxed(150)
@given(hands(sets=(0, 4), wilds=(0, 2)))
def test_search_reference_matches_substitution(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert complete_by_search(counts, w) == complete_by_substitution(counts, w)


# --- is_complete ---------------------------------------------------------------------------


@relaxed(600)
@given(hands(sets=(0, 4), wilds=(0, 4)))
def test_is_complete_matches_search(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert is_complete(counts, w) == complete_by_search(counts, w)


@relaxed(150)
@given(hands(sets=(3, 4), wilds=(0, 2)))
def test_is_complete_matches_substitution(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert is_complete(counts, w) == complete_by_substitution(counts, w)


@relaxed(25)
@given(hands(sets=(4, 4), wilds=(3, 4), max_mutations=1))
def test_is_complete_matches_substitution_many_wilds(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert is_complete(counts, w) == complete_by_substitution(counts, w)


@relaxed(100)
@given(hands(sets=(5, 6), wilds=(0, 3)))
def test_is_complete_beyond_fourteen_tiles(hand: tuple[list[int], int]) -> None:
    """Totals above 14 (not in a real hand) take the slow path and stay correct."""
    counts, w = hand
    assert is_complete(counts, w) == complete_by_search(counts, w)


def test_is_complete_with_a_suit_of_more_than_fourteen_tiles() -> None:
    counts = parse("1111222233334444m")  # 16 tiles + 1 宝 = 17 = 3*5 + 2
    assert is_complete(counts, 1) == complete_by_search(counts, 1)
    assert is_complete(counts, 1)  # 123 123 123 123 444 + 4宝
    other = parse("1111222233334444m5p")
    assert is_complete(other, 0) == complete_by_search(other, 0)


@pytest.mark.parametrize(
    ("text", "wilds", "expected"),
    [
        ("123m456p789s111z22z", 0, True),  # 平胡
        ("123m456p789s111z2z", 1, True),  # 宝 as the 2nd 2z
        ("123m456p789s11z", 3, True),  # 3 宝 as a triplet of anything
        ("123m456p789s12z", 3, True),  # 1z宝宝 a set, 2z宝 the pair
        ("123m456p789s123z", 2, False),  # 123z is no sequence (else 123z + 宝宝 pair)
        ("123z456p789s111z", 2, False),  # 1111z 2z 3z + 2 宝: honours make no sequences
        ("123z456p789s11z", 3, True),  # 111z, 2z宝宝, 3z宝
        ("123z456p789s11z", 0, False),  # 11 tiles, honours make no sequences
        ("11223344556677m", 0, True),  # 七对 (also 平胡: 123 123 456 456 77)
        ("1133557799m1133p", 0, True),  # 七对 only
        ("11113333557799m", 0, True),  # 七对 with two fours
        ("1133557799m113p", 1, True),  # 七对 with 宝
        ("1357m2468p1357s", 0, False),
        ("1112345678999m", 1, True),  # 九莲 shape + 宝
        ("11m", 0, True),
        ("1m", 1, True),
        ("", 2, True),
        ("", 5, True),  # 宝宝宝 + 宝宝
        ("", 3, False),
        ("1m", 0, False),
        ("123m", 0, False),  # 3 tiles: no pair
        ("89m", 0, False),
        ("89m", 3, True),  # 789m via 宝 + 宝宝 pair
        ("19m", 3, True),  # 1m宝宝 a set, 9m宝 the pair
        ("19m", 2, False),  # 4 tiles
    ],
)
def test_is_complete_examples(text: str, wilds: int, expected: bool) -> None:
    counts = parse(text)
    assert complete_by_search(counts, wilds) == expected
    assert is_complete(counts, wilds) == expected


def test_is_complete_rejects_bad_input() -> None:
    with pytest.raises(ValueError, match="34 counts"):
        is_complete([0] * 33, 2)
    with pytest.raises(ValueError):
        is_complete([-1] + [0] * 33, 3)
    with pytest.raises(ValueError, match="34 counts"):
        winning_tiles([0] * 35, 1)


@relaxed(60)
@given(hands(sets=(1, 4), wilds=(1, 4)))
def test_a_wildcard_written_as_its_kind(hand: tuple[list[int], int]) -> None:
    """One 宝 moved into the counts as a real kind (5th copies included) — the table
    path and the slow path agree with the reference."""
    counts, w = hand
    for k in range(34):
        moved = list(counts)
        moved[k] += 1
        assert is_complete(moved, w - 1) == complete_by_search(moved, w - 1)


def test_a_wildcard_may_be_a_fifth_copy() -> None:
    """RULES §3.1: a 宝 may stand for a kind whose 4 tiles are all in sight."""
    counts = parse("1111m 234p 567p 789p")  # 13 tiles + 宝 as a 5th 1m: 111m 11m
    assert is_complete(counts, 1)
    assert not complete_plain(counts)


def test_is_seven_pairs() -> None:
    assert is_seven_pairs(parse("11223344556677m"))
    assert is_seven_pairs(parse("1111m223344556z"), 1)
    assert not is_seven_pairs(parse("1111m223344556z"))
    assert not is_seven_pairs(parse("112233445566m"))  # 12 tiles


# --- winning_tiles -------------------------------------------------------------------------


@relaxed(200)
@given(hands(sets=(0, 4), wilds=(0, 2), drop=1))
def test_winning_tiles_matches_reference(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert winning_tiles(counts, w) == waits_by_search(counts, w)


@relaxed(40)
@given(hands(sets=(4, 4), wilds=(3, 4), drop=1, max_mutations=2))
def test_winning_tiles_matches_reference_many_wilds(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert winning_tiles(counts, w) == waits_by_search(counts, w)


@relaxed(100)
@given(hands(sets=(4, 4), wilds=(0, 4)))
def test_winning_tiles_empty_for_3n_plus_2(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert winning_tiles(counts, w) == set()


def test_nine_gates_waits_on_every_character() -> None:
    counts = parse("1112345678999m")  # 九莲宝灯, 13 tiles
    assert winning_tiles(counts) == set(range(9))


def test_bao_diao_tou_waits_on_everything() -> None:
    """宝吊头 (RULES §3.1): complete but for the pair, with a 宝: any drawn tile wins."""
    counts = parse("123m 456p 789s 111z")
    assert winning_tiles(counts, 1) == set(range(34))


def test_no_fifth_copy_is_a_winning_tile() -> None:
    counts = parse("1111m 234p 567p 789p")  # only a 5th 1m would complete it
    with_fifth = list(counts)
    with_fifth[0] += 1
    assert complete_plain(with_fifth)
    assert winning_tiles(counts) == set()
    assert waits_by_search(counts, 0) == set()


def test_seven_pairs_waits() -> None:
    assert winning_tiles(parse("1133557799m113p")) == {11}  # 3p
    # 13 tiles with two singles and a 宝: either single pairs with the draw.
    assert winning_tiles(parse("11335577m11p3z5z"), 1) >= {29, 31}


# --- the shipped table ----------------------------------------------------------------------


def test_shipped_table_equals_a_fresh_build() -> None:
    assert load_suit_table() == build_suit_table()
