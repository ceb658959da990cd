"""shanten (向听数) with wildcards: the definition checked locally, and the mahjong package."""

from __future__ import annotations

import pytest
from agari_reference import complete_by_search, hands, parse, relaxed
from hypothesis import given
from hypothesis import strategies as st
from mahjong.shanten import Shanten

import engine.shanten as shanten_module
from engine.agari import is_complete
from engine.shanten import clear_caches, shanten, shanten_chiitoi, shanten_standard


def plus(counts: list[int], kind: int, n: int = 1) -> list[int]:
    out = list(counts)
    out[kind] += n
    return out


@relaxed(300)
@given(hands(sets=(0, 4), wilds=(0, 4)))
def test_minus_one_iff_complete(hand: tuple[list[int], int]) -> None:
    counts, w = hand
    assert (shanten(counts, w) == -1) == is_complete(counts, w)


@relaxed(150)
@given(hands(sets=(0, 4), wilds=(0, 3), drop=1))
def test_zero_iff_some_draw_completes(hand: tuple[list[int], int]) -> None:
    """听牌: some kind completes the hand (a 5th copy counts, as a 宝 could be one)."""
    counts, w = hand
    ready = any(complete_by_search(plus(counts, k), w) for k in range(34))
    assert (shanten(counts, w) == 0) == ready


@relaxed(150)
@given(hands(sets=(1, 4), wilds=(0, 4), max_mutations=4))
def test_after_the_draw_equals_best_discard(hand: tuple[list[int], int]) -> None:
    """A 3n+2 hand, not complete, is as far as the best 3n+1 hand left after one discard
    (a real tile or a 宝)."""
    counts, w = hand
    if is_complete(counts, w):
        assert shanten(counts, w) == -1
        return
    options = [shanten(plus(counts, k, -1), w) for k in range(34) if counts[k]]
    if w:
        options.append(shanten(counts, w - 1))
    assert shanten(counts, w) == min(options)


@relaxed(150)
@given(hands(sets=(1, 4), wilds=(0, 3), drop=1, max_mutations=4))
def test_before_the_draw_is_one_more_than_best_draw(hand: tuple[list[int], int]) -> None:
    """A 3n+1 hand is one more than the best 3n+2 hand after one draw (any kind)."""
    counts, w = hand
    assert shanten(counts, w) == 1 + min(shanten(plus(counts, k), w) for k in range(34))


@relaxed(200)
@given(hands(sets=(0, 4), wilds=(0, 0), max_mutations=6))
def test_standard_matches_mahjong_package(hand: tuple[list[int], int]) -> None:
    """Without 宝 and without 4 of a kind (the package treats those specially)."""
    counts, _ = hand
    if max(counts) < 4:
        assert shanten_standard(counts) == Shanten.calculate_shanten_for_regular_hand(counts)
    thirteen = list(counts)
    kinds = [k for k in range(34) if thirteen[k]]
    thirteen[kinds[-1]] -= 1
    if max(thirteen) < 4 and sum(thirteen) > 0:
        assert shanten_standard(thirteen) == Shanten.calculate_shanten_for_regular_hand(thirteen)


@st.composite
def pair_hands(draw: st.DrawFn) -> list[int]:
    """13 or 14 tiles, no kind more than twice, 0–7 pairs."""
    size = draw(st.sampled_from([13, 14]))
    pairs = draw(st.integers(0, size // 2))
    kinds = draw(
        st.lists(st.integers(0, 33), min_size=size - pairs, max_size=size - pairs, unique=True)
    )
    counts = [0] * 34
    for i, k in enumerate(kinds):
        counts[k] = 2 if i < pairs else 1
    return counts


@relaxed(150)
@given(pair_hands(), st.integers(0, 4))
def test_chiitoi_matches_mahjong_package(counts: list[int], wilds: int) -> None:
    """No kind above 2 tiles: the package's 七对 count is ours. With 宝, each 宝 is one
    exchange fewer, down to -1 (a 宝 pairs with a single, or two 宝 pair)."""
    theirs = Shanten.calculate_shanten_for_chiitoitsu_hand(counts)
    assert shanten_chiitoi(counts) == theirs
    # The same hand with `wilds` of its tiles made 宝: never further than without.
    singles = [k for k in range(34) if counts[k] == 1]
    if len(singles) >= wilds:
        fewer = list(counts)
        for k in singles[:wilds]:
            fewer[k] -= 1
        assert shanten_chiitoi(fewer, wilds) == max(theirs - wilds, -1 if sum(counts) == 14 else 0)


@pytest.mark.parametrize(
    ("text", "wilds", "expected"),
    [
        ("123m456p789s11122z", 0, -1),
        ("123m456p789s1122z", 0, 0),
        ("123m456p789s12z", 0, 0),  # 11 tiles: 3 sets, the pair to find
        ("11223344556677m", 0, -1),
        ("1122334455667z", 0, 0),  # 七对 ready (standard is far)
        ("1111222233334z", 0, 0),  # 七对 with fours: 2+2+2 pairs and a single
        ("147m258p369s1234z", 0, 6),
        ("147m258p369s", 4, 2),  # 4 宝 pair with 4 singles: 七对 2 away
        ("", 2, -1),
        ("1m", 0, 0),
        ("1m9m", 2, 0),  # 1m宝宝, 9m waits for its pair (or the draw is a set)
    ],
)
def test_examples(text: str, wilds: int, expected: int) -> None:
    assert shanten(parse(text), wilds) == expected


@relaxed(150)
@given(hands(sets=(0, 4), wilds=(0, 4), max_mutations=4))
def test_remembered_hands_answer_as_worked_out(hand: tuple[list[int], int]) -> None:
    """The whole-hand cache (the AI asks again for hands it asked about) gives what the
    hand works out to from nothing."""
    counts, w = hand
    before = shanten(counts, w)  # maybe remembered from an earlier example
    clear_caches()
    assert (bytes(counts), w) not in shanten_module._hand_cache
    assert shanten(counts, w) == before  # worked out afresh (and remembered)
    assert (bytes(counts), w) in shanten_module._hand_cache
    assert shanten(list(counts), w) == before  # remembered


def test_rejects_bad_sizes() -> None:
    for _ in range(2):  # a refused hand is never remembered
        with pytest.raises(ValueError, match="3n"):
            shanten(parse("123m"))
    with pytest.raises(ValueError, match="3n"):
        shanten(parse("123m456p789s112z"))  # 12 tiles
    with pytest.raises(ValueError):
        shanten(parse("123m456m789m123p456p"))  # 15 tiles
    with pytest.raises(ValueError):
        shanten_chiitoi(parse("1122m"))


@relaxed(150)
@given(hands(sets=(0, 4), wilds=(0, 4), max_mutations=4))
def test_remembered_merges_answer_as_worked_out(hand: tuple[list[int], int]) -> None:
    """The suits' merged answers (remembered across hands) give what the hand works out to
    with nothing remembered, and again after the memory started afresh when full."""
    counts, w = hand
    warm = shanten_standard(counts, w)  # merges maybe remembered from earlier examples
    clear_caches()
    assert not shanten_module._merge_cache
    assert shanten_standard(counts, w) == warm
    assert shanten_module._merge_cache  # remembered now
    assert shanten_standard(counts, w) == warm
    full = shanten_module.MERGE_CACHE_SIZE
    try:
        shanten_module.MERGE_CACHE_SIZE = len(shanten_module._merge_cache)
        clear_caches()
        shanten_module.MERGE_CACHE_SIZE = 1  # every merge now starts the memory afresh
        assert shanten_standard(counts, w) == warm
        assert len(shanten_module._merge_cache) == 1
    finally:
        shanten_module.MERGE_CACHE_SIZE = full


def _chiitoi_by_hand(counts: list[int], wilds: int) -> int:
    """七对 shanten counted the long way (the reference for the counting in C)."""
    pairs = sum(c >> 1 for c in counts)
    odd = sum(c & 1 for c in counts)
    used = min(wilds, odd)
    return 6 - min(pairs + used + (wilds - used) // 2, 7)


@relaxed(200)
@given(st.integers(0, 2), st.integers(13, 14), st.data())
def test_chiitoi_counts_as_by_hand(wilds: int, total: int, data: st.DataObject) -> None:
    """Any counts (real hands hold at most 4 of a kind; 5 or more take the long way)."""
    kinds = data.draw(st.lists(st.integers(0, 33), min_size=total - wilds, max_size=total - wilds))
    crowded = data.draw(st.booleans())  # one kind 5 or more times
    if crowded and len(kinds) >= 5:
        kinds[:5] = [kinds[0]] * 5
    counts = [kinds.count(k) for k in range(34)]
    assert shanten_chiitoi(counts, wilds) == _chiitoi_by_hand(counts, wilds)
    assert shanten_chiitoi(tuple(counts), wilds) == _chiitoi_by_hand(counts, wilds)
