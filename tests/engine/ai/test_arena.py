"""The arena's duplicate deals and statistics, pinned on policies whose outcome is known."""

from __future__ import annotations

import json

import pytest

from engine import arena
from engine.arena import Play, interval, percentile, report


def test_a_policy_against_itself_differs_by_exactly_zero() -> None:
    # Same wall, same (deterministic) policy in every seat: the four plays are one game, and
    # the mean of a seat's points over the rotations of a zero-sum game is 0.
    r = arena.run("jiujiang", "baseline", "baseline", 6, seed="same")
    assert r["plays"] == 24
    assert r["diff_points"] == [0.0, 0.0, 0.0]
    assert r["diff_win_rate"] == [0.0, 0.0, 0.0]
    assert r["a_win_rate"] == r["b_win_rate"]
    assert r["a_deal_in_rate"] == r["b_deal_in_rate"]
    assert r["a_decisions"] > 0


@pytest.mark.parametrize("variant", ["jiujiang", "xinyu", "shangrao"])
def test_discarding_the_drawn_tile_loses_by_a_clear_margin(variant: str) -> None:
    r = arena.run(variant, "drawn", "baseline", 16, seed="x")
    high = r["diff_points"][2]
    assert high < 0, r  # the whole 95 % interval is below 0
    assert r["diff_points_excludes_0"] is True
    assert r["a_points_per_hand"] < r["b_points_per_hand"]
    assert r["a_win_rate"] < r["b_win_rate"] / 2
    assert r["diff_win_rate"][2] < 0


def test_the_rigged_policy_as_b_makes_a_win() -> None:
    r = arena.run("jiujiang", "baseline", "drawn", 12, seed="rigged")
    assert r["diff_points"][1] > 0, r


def test_processes_play_the_same_deals_as_one() -> None:
    one = arena.run("xinyu", "drawn", "baseline", 5, seed="par", jobs=1)
    two = arena.run("xinyu", "drawn", "baseline", 5, seed="par", jobs=2)
    for key in ("diff_points", "a_win_rate", "b_win_rate", "a_deal_in_rate", "a_hand_value"):
        assert one[key] == two[key]


def test_options_change_the_game() -> None:
    r = arena.run("xinyu", "drawn", "baseline", 4, seed="o", options={"discard_win": True})
    assert r["options"]["discard_win"] is True
    assert r["a_deal_in_rate"] > 0  # the rigged seat pays for discard wins under the option


def test_report_counts_per_seat_figures() -> None:
    # Two deals, by hand: in the first, a (seat 0) wins 6 off seat 1; in the second seat 2
    # self-draws 3 from everyone while a sits in seat 3.
    deals = [
        [Play(0, [6, -6, 0, 0], [0], 1, [0.001], [0.0005, 0.001])],
        [Play(3, [-1, -1, 3, -1], [2], None, [0.002, 0.004])],
    ]
    r = report(deals)
    assert r["plays"] == 2
    assert r["a_points_per_hand"] == 2.5
    assert r["a_win_rate"] == 0.5
    assert r["b_win_rate"] == round(1 / 6, 4)
    assert r["a_deal_in_rate"] == 0.0
    assert r["b_deal_in_rate"] == round(1 / 6, 4)
    assert r["a_hand_value"] == 6
    assert r["b_hand_value"] == 3
    assert r["diff_points"][0] == 2.5
    assert r["a_decisions"] == 3
    assert r["a_ms_p99"] == 4.0
    assert r["b_ms_p99"] == 1.0 and r["b_ms_p50"] == 0.5


def test_interval_and_percentile() -> None:
    i = interval([1.0, 2.0, 3.0, 4.0])
    assert i.mean == 2.5
    half = 1.959964 * (1.6666666666666667 / 4) ** 0.5
    assert i.low == pytest.approx(2.5 - half) and i.high == pytest.approx(2.5 + half)
    assert percentile(list(range(1, 101)), 0.99) == 99
    assert percentile([5.0], 0.5) == 5.0


def test_unknown_policy_is_refused_before_playing() -> None:
    with pytest.raises(ValueError, match="unknown policy 'nope'"):
        arena.run("xinyu", "nope", "baseline", 1)


def test_command_line_prints_one_json_line_last(capsys: pytest.CaptureFixture[str]) -> None:
    assert (
        arena.main(
            ["--variant", "xinyu", "--a", "drawn", "--b", "offence", "--hands", "2", "--jobs", "1"]
        )
        == 0
    )
    out = capsys.readouterr()
    last = json.loads(out.out.strip().splitlines()[-1])
    assert last["deals"] == 2 and last["a"] == "drawn" and last["b"] == "offence"
    assert "a − b points/hand" in out.err


def test_command_line_refuses_bad_input(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        arena.main(["--variant", "xinyu", "--a", "nope", "--b", "baseline", "--hands", "2"])
    assert "unknown policy" in capsys.readouterr().err
