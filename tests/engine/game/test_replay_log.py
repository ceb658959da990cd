"""Game logs (docs/log-format.md): replay, export / import, fairness checks, the CLIs."""

from __future__ import annotations

import copy
import io
import json
from contextlib import redirect_stdout

import pytest

from engine.game import Discard, apply, new_game
from engine.game.ai import choose_action
from engine.game.legal import waiting_for
from engine.game.simulate import main as simulate_main
from engine.game.simulate import simulate
from engine.game.wall import derive_seed
from engine.logformat import (
    FORMAT,
    VERSION,
    GameLog,
    LogError,
    Recorder,
    dumps,
    loads,
    read_log,
)
from engine.options import make_options, options_to_dict
from engine.replay import ReplayError, deal_hand, hand_states, replay_hand, replay_log
from engine.replay import main as replay_main
from engine.verify import main as verify_main
from engine.verify import verify_log

VARIANTS = [
    ("shangrao", {}),
    ("xinyu", {"discard_win": True}),
    ("jiujiang", {}),
    ("nanchang", {}),
]


@pytest.fixture(scope="module")
def runs() -> dict[str, tuple[dict, GameLog]]:
    """A simulated 200-hand run per variant, with every game logged (events included)."""
    out = {}
    for variant, options in VARIANTS:
        games: list = []
        stats = simulate(variant, 200, "replay-test", options, verify=False, record=games)
        log = GameLog(variant, options_to_dict(make_options(variant, options)), games)
        out[variant] = (stats, log)
    return out


_replayed: dict[str, list[dict]] = {}


def replayed(runs, variant: str) -> list[dict]:
    """The replay lines of a run (computed once)."""
    if variant not in _replayed:
        _replayed[variant] = replay_log(runs[variant][1])
    return _replayed[variant]


def first_game(log: GameLog) -> GameLog:
    return GameLog(log.variant, log.options, log.games[:1])


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_every_hand_of_a_200_hand_run_replays_to_its_live_result(runs, variant, options):
    stats, log = runs[variant]
    hands = list(log.hands())
    assert len(hands) == stats["hands"] == 200
    lines = replayed(runs, variant)
    assert all(line["matches"] for line in lines), [ln for ln in lines if not ln["matches"]][:3]
    # the replayed lines agree with the live run's own counts
    wins = sum(len(line["winners"]) for line in lines)
    draws = sum(1 for line in lines if line["how"] == "draw")
    assert (wins, draws) == (stats["wins"], stats["draws"])
    points = [0, 0, 0, 0]
    for line in lines:
        for seat in range(4):
            points[seat] += line["deltas"][seat]
    assert points == stats["seat_points"]
    for (_game, hand), line in zip(hands, lines, strict=True):
        assert line["deltas"] == hand.result["deltas"]
        assert line["winners"] == [w["seat"] for w in hand.result["winners"]]
        assert line["scores"] == hand.scores_after


def test_each_hand_is_dealt_from_its_own_seed_alone(runs):
    """A hand replays without the game seed: its revealed seed and start are enough."""
    _stats, log = runs["jiujiang"]
    game = log.games[0]
    g, _ = new_game(log.variant, log.options, derive_seed("replay-test", "game/0"))
    assert game.seed == g.seed  # a finished game reveals its seed
    for hand in game.hands[:3]:
        dealt, events = deal_hand(log.variant, log.options, hand)
        assert dealt.seed == ""  # no later hand can be dealt from a replayed one
        assert [e.to_json() for e in events] == hand.events
        assert dealt.hand.wall == tuple(hand.wall)


@pytest.mark.parametrize(("variant", "options"), VARIANTS)
def test_an_exported_log_reimports_and_replays_identically(runs, variant, options):
    _stats, log = runs[variant]
    text = dumps(log)
    again = loads(text)
    assert again.to_json() == log.to_json()
    assert json.loads(dumps(again)) == json.loads(text)
    assert replay_log(again) == replayed(runs, variant)
    assert again.to_json()["format"] == FORMAT and again.to_json()["version"] == VERSION


def test_a_log_without_events_still_replays():
    games: list = []
    simulate("xinyu", 12, "no-events", None, verify=False, record=games, record_events=False)
    log = GameLog("xinyu", {}, games)
    data = json.loads(dumps(log))
    assert all("events" not in a for h in data["games"][0]["hands"] for a in h["actions"])
    assert all(line["matches"] for line in replay_log(loads(json.dumps(data))))


def test_verify_passes_on_a_real_log(runs):
    for _variant, (_stats, log) in runs.items():
        lines = verify_log(first_game(log))
        assert lines and all(line["ok"] for line in lines), [x for x in lines if not x["ok"]][:2]


def _tampered(log: GameLog, change) -> GameLog:
    data = copy.deepcopy(log.to_json())
    change(data["games"][0]["hands"][1])
    return read_log(data)


@pytest.mark.parametrize(
    ("change", "why"),
    [
        (lambda h: h["wall"].__setitem__(slice(0, 2), h["wall"][1::-1]), "revealed wall"),
        (lambda h: h.__setitem__("seed", "0" * 64), "commitment"),
        (lambda h: h.__setitem__("commitment", "f" * 64), "commitment"),
        # a blanked commitment is no commitment: it must fail, never be skipped
        (lambda h: h.__setitem__("commitment", ""), "commitment"),
        (lambda h: h.__setitem__("commitment", " "), "commitment"),
        (lambda h: h["result"].__setitem__("deltas", [9, -9, 0, 0]), "result"),
        (lambda h: h.__setitem__("scores_before", [5, -5, 0, 0]), "scores"),
    ],
)
def test_verify_fails_on_a_tampered_log(runs, change, why):
    _stats, log = runs["jiujiang"]
    lines = verify_log(_tampered(first_game(log), change))
    bad = [line for line in lines if not line["ok"]]
    assert [line["hand"] for line in bad] == [2]
    assert any(why in p for p in bad[0]["problems"]), bad[0]["problems"]


def test_verify_refuses_a_log_without_a_commitment(runs, tmp_path, capsys):
    """A hand whose commitment was removed cannot be checked: the log is refused (exit 2),
    never reported fair."""
    _stats, log = runs["shangrao"]
    data = copy.deepcopy(first_game(log).to_json())
    del data["games"][0]["hands"][0]["commitment"]
    path = tmp_path / "no-commitment.json"
    path.write_text(json.dumps(data))
    assert verify_main([str(path)]) == 2
    assert "commitment" in capsys.readouterr().err


def test_a_changed_action_does_not_replay(runs):
    _stats, log = runs["xinyu"]
    data = copy.deepcopy(log.to_json())
    hand = data["games"][0]["hands"][0]
    first = hand["actions"][0]
    first["action"] = {"type": "discard", "tile": (first["action"].get("tile", 0) + 1) % 27}
    for a in hand["actions"]:
        a.pop("events", None)
    data["games"] = data["games"][:1]
    tampered = read_log(data)
    lines = replay_log(tampered)
    assert lines[0]["matches"] is False
    with pytest.raises(ReplayError):
        replay_hand(tampered.variant, tampered.options, tampered.games[0].hands[0])


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ([], "JSON object"),
        ({"format": "other"}, "not a jiangxi-mahjong-log"),
        ({"format": FORMAT, "version": 99}, "version 99"),
        ({"format": FORMAT, "version": 1, "variant": "riichi"}, "unknown variant"),
        ({"format": FORMAT, "version": 1, "variant": "xinyu", "options": {"x": 1}}, "options"),
        ({"format": FORMAT, "version": 1, "variant": "xinyu", "games": [{}]}, "missing 'hands'"),
    ],
)
def test_bad_logs_are_refused_with_a_reason(data, message):
    with pytest.raises(LogError, match=message):
        read_log(data)


def test_a_bad_action_in_a_log_is_refused(runs):
    _stats, log = runs["xinyu"]
    data = copy.deepcopy(log.to_json())
    data["games"][0]["hands"][0]["actions"][0]["action"] = {"type": "discard", "tile": 99}
    with pytest.raises(LogError, match="action 1"):
        read_log(data)


def test_recorder_keeps_finished_hands_only_and_hides_the_game_seed():
    g, events = new_game("jiujiang", None, "recorder")
    rec = Recorder(g, events, game_id=5)
    while g.hand.phase != "over":
        seat = waiting_for(g)[0]
        action = choose_action(g, seat)
        g, ev = apply(g, seat, action)
        rec.step(seat, action, g, ev)
    seat = g.hand.dealer
    action = choose_action(g, seat)
    g, ev = apply(g, seat, action)  # the next hand starts: it is not finished
    rec.step(seat, action, g, ev)
    seat = waiting_for(g)[0]
    legal = [a for a in [choose_action(g, seat)] if isinstance(a, Discard)]
    if legal:
        g, ev = apply(g, seat, legal[0])
        rec.step(seat, legal[0], g, ev)
    game = rec.game()
    assert [h.hand for h in game.hands] == [1]
    assert game.seed is None
    assert rec.game(reveal_seed=True).seed == "recorder"
    assert hand_states("jiujiang", None, game.hands[0]).matches


def test_the_command_line_tools(tmp_path, runs, monkeypatch, capsys):
    path = tmp_path / "game.json"
    assert (
        simulate_main(["--variant", "xinyu", "--hands", "6", "--seed", "9", "--log", str(path)])
        == 0
    )
    capsys.readouterr()
    assert replay_main([str(path)]) == 0
    lines = [json.loads(x) for x in capsys.readouterr().out.splitlines()]
    assert len(lines) == 6 and all(x["matches"] for x in lines)
    assert {"game", "hand", "winners", "points", "deltas"} <= set(lines[0])
    monkeypatch.setattr("sys.stdin", io.StringIO(path.read_text()))
    out = io.StringIO()
    with redirect_stdout(out):
        assert verify_main([]) == 0
    assert json.loads(out.getvalue().splitlines()[-1]) == {"hands": 6, "ok": 6, "failed": 0}
    data = json.loads(path.read_text())
    data["games"][0]["hands"][0]["commitment"] = "0" * 64
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    assert verify_main([str(bad)]) == 1
    assert replay_main([str(tmp_path / "missing.json")]) == 2
    (tmp_path / "junk.json").write_text("{not json")
    assert verify_main([str(tmp_path / "junk.json")]) == 2
