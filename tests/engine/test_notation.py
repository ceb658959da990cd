"""Tiles and the hand-string notation (RULES §1)."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.notation import Hand, Meld, MeldKind, NotationError, format_hand, parse_hand
from engine.tiles import TileError, en_name, kind_of, successor, tile_str, zh_name

VECTORS = Path(
    os.environ.get(
        "MAHJONG_VECTORS_DIR", Path(__file__).resolve().parents[3] / "shared" / "vectors"
    )
)


@pytest.mark.parametrize(
    ("word", "kind"),
    [
        ("5m", 4),
        ("五万", 4),
        ("伍万", 4),
        ("5万", 4),
        ("5萬", 4),
        ("1p", 9),
        ("一饼", 9),
        ("一筒", 9),
        ("1s", 18),
        ("一条", 18),
        ("一索", 18),
        ("东", 27),
        ("东风", 27),
        ("E", 27),
        ("1z", 27),
        ("北", 30),
        ("N", 30),
        ("中", 31),
        ("红中", 31),
        ("C", 31),
        ("发", 32),
        ("发财", 32),
        ("F", 32),
        ("白", 33),
        ("白板", 33),
        ("P", 33),
        ("7z", 33),
        ("九万", 8),
        ("玖万", 8),
    ],
)
def test_kind_of_reads_chinese_and_notation(word: str, kind: int) -> None:
    assert kind_of(word) == kind


@pytest.mark.parametrize("word", ["0m", "8z", "10m", "x", "五", "万", "", "红"])
def test_kind_of_refuses_bad_words(word: str) -> None:
    with pytest.raises(TileError) as err:
        kind_of(word)
    assert "5m" in str(err.value)  # shows examples


def test_every_kind_round_trips_through_its_names() -> None:
    for k in range(34):
        assert kind_of(tile_str(k)) == k
        assert kind_of(zh_name(k)) == k
    assert len({zh_name(k) for k in range(34)}) == 34
    assert len({en_name(k) for k in range(34)}) == 34


def test_bao_successor_wraps_within_its_group() -> None:
    assert successor(kind_of("9m")) == kind_of("1m")
    assert successor(kind_of("3p")) == kind_of("4p")
    assert successor(kind_of("北")) == kind_of("东")
    assert successor(kind_of("白")) == kind_of("中")
    assert successor(kind_of("中")) == kind_of("发")


def test_parse_melds_and_winning_tile() -> None:
    h = parse_hand("[123m] [555p] [7777s] (1111z) 99m +9m")
    assert [m.kind for m in h.melds] == [
        MeldKind.CHI,
        MeldKind.PONG,
        MeldKind.KONG,
        MeldKind.CONCEALED_KONG,
    ]
    assert h.concealed == (8, 8)
    assert h.winning == 8
    assert len(h.all_tiles()) == 16


def test_indicator_kong_is_three_tiles_and_counts_as_a_set() -> None:
    h = parse_hand("(555z) 123m 456p 789s 11s +1s")
    assert h.melds[0].kind is MeldKind.INDICATOR_KONG
    assert len(h.all_tiles()) == 14


def test_chinese_hand_reads_like_notation() -> None:
    a = parse_hand("123万 456饼 789条 东东 [555条] +3万")
    b = parse_hand("123m 456p 789s 11z [555s] +3m")
    assert a == b


def test_letters_for_honours() -> None:
    assert parse_hand("EEE SSS WWW CCC FF +F") == parse_hand("111z222z333z555z66z +6z")


@pytest.mark.parametrize(
    ("text", "names"),
    [
        ("123m456p789s11z12x +1m", "12x"),
        ("[124m] 456p 789s 11z 123s +1s", "[124m]"),
        ("11111m 456p 789s 11z +1m", "1m"),
        ("123m 456p 789s 11z +1m", "11 tiles"),
        ("123m 456p 789s 11z 55s", "winning tile"),
        ("123m 456p 789s 11z 555s +9p +9p", "'+'"),
        ("123m 456p 789s 11z 555s +2s", "2s"),
        ("(123m) 456p 789s 11z 555s +5s", "(123m)"),
        ("[123m 456p", "'['"),
        ("", "empty"),
    ],
)
def test_bad_hands_raise_one_typed_error_naming_the_part(text: str, names: str) -> None:
    with pytest.raises(NotationError) as err:
        parse_hand(text, finished=True)
    assert names in str(err.value)
    assert "examples:" in str(err.value)


def test_waiting_hand_has_thirteen_tiles() -> None:
    h = parse_hand("123m 456p 789s 11z 55s", finished=False)
    assert h.winning is None and len(h.concealed) == 13
    with pytest.raises(NotationError):
        parse_hand("123m 456p 789s 11z 55s +5s", finished=False)


def test_every_vector_hand_parses_and_formats_back() -> None:
    files = sorted(VECTORS.glob("*.jsonl"))
    assert files, f"no vectors found in {VECTORS}"
    n = 0
    for f in files:
        for line in f.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            hand = parse_hand(json.loads(line)["hand"], finished=True)
            assert parse_hand(format_hand(hand), finished=True) == hand
            n += 1
    assert n >= 100


@st.composite
def hands(draw: st.DrawFn) -> Hand:
    """Random legal-size hands (not necessarily complete) with random melds."""
    pool = [k for k in range(34) for _ in range(4)]
    order = draw(st.permutations(pool))
    n_melds = draw(st.integers(0, 4))
    melds: list[Meld] = []
    used: list[int] = []
    rest = list(order)
    for _ in range(n_melds):
        kind = draw(st.sampled_from(list(MeldKind)))
        k = rest[0]
        if kind is MeldKind.CHI:
            base = draw(st.sampled_from([s * 9 + r for s in range(3) for r in range(7)]))
            tiles = (base, base + 1, base + 2)
        else:
            size = {MeldKind.PONG: 3, MeldKind.INDICATOR_KONG: 3}.get(kind, 4)
            tiles = (k,) * size
        if any(used.count(t) + tiles.count(t) + 0 > 4 for t in tiles):
            continue
        for t in tiles:
            rest.remove(t)
            used.append(t)
        melds.append(Meld(kind, tiles))
    concealed = sorted(rest[: 14 - 3 * len(melds)])
    winning = draw(st.sampled_from(concealed))
    return Hand(tuple(concealed), tuple(melds), winning)


@given(hands())
def test_format_then_parse_is_identity(hand: Hand) -> None:
    assert parse_hand(format_hand(hand), finished=True) == hand
