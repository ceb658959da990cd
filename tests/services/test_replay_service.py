"""Replays, reviews and exports from the store (services.replay) on a real SQLite store."""

from __future__ import annotations

import csv
import io
import json
import logging

import pytest
from PIL import Image
from sqlalchemy import update
from svc_helpers import GUILD, USERS, lobby_with, settle
from test_svc_play import play_until_over

from db.models import Hand
from engine.logformat import loads
from engine.replay import replay_log
from engine.verify import verify_log
from render.words import ZH_WORDS
from services.picture_words import picture_words
from services.replay import ALL, ReplayRefused, ReplayService, frame, move_lines
from services.replay_text import parse_code, picture_lang, result_text, tile_word, who


async def finished_game(make_service, variant: str = "jiujiang", hands: int = 1):
    """A game with ``hands`` finished hands and the next one being played."""
    svc = make_service()
    gid = await lobby_with(svc, 1, variant=variant)
    await svc.start(gid, USERS[0])
    for i in range(hands):
        if i:
            await svc.next_hand(gid, USERS[0])
        await play_until_over(svc, gid, USERS[:1])
        await settle(svc)
    await svc.next_hand(gid, USERS[0])
    await settle(svc)
    return svc, gid


def test_codes():
    assert parse_code("#12-3") == (12, 3)
    assert parse_code(" 12 - 3 ") == (12, 3)
    assert parse_code("12/3") == (12, 3)
    for bad in ("", "#12", "12-0", "abc", "#0-1", "1-2-3", "12-99999"):
        assert parse_code(bad) is None


async def test_a_finished_hand_replays_and_a_hand_in_play_is_refused(make_service, store):
    _svc, gid = await finished_game(make_service)
    rs = ReplayService(store)
    rh = await rs.hand(GUILD, f"#{gid}-1")
    assert rh.code == f"#{gid}-1" and rh.steps > 10
    assert rh.replay.final.hand.phase == "over"
    assert rh.seat_of(USERS[0]) == 0 and rh.seat_of(999) is None
    # the hand being played: refused, with the same words whatever the path
    with pytest.raises(ReplayRefused) as refused:
        await rs.hand(GUILD, f"#{gid}-2")
    assert refused.value.key == "in_play"
    assert "还在进行中" in refused.value.text("zh") and "still being played" in refused.value.text(
        "en"
    )
    with pytest.raises(ReplayRefused) as refused:
        await rs.review(GUILD, f"#{gid}-2", 0)
    assert refused.value.key == "in_play"
    # no such hand, another server's hand, a bad code
    for code, key in ((f"#{gid}-3", "no_hand"), ("#999-1", "no_hand"), ("hello", "bad_code")):
        with pytest.raises(ReplayRefused) as refused:
            await rs.hand(GUILD, code)
        assert refused.value.key == key
    with pytest.raises(ReplayRefused) as refused:
        await rs.hand(GUILD + 1, f"#{gid}-1")
    assert refused.value.key == "no_hand"
    with pytest.raises(ReplayRefused):
        await rs.hand(None, f"#{gid}-1")


async def test_autocomplete_lists_finished_hands_only(make_service, store):
    _svc, gid = await finished_game(make_service, hands=2)
    rs = ReplayService(store)
    codes = [code for _label, code in await rs.choices(GUILD, "", "zh")]
    assert codes == [f"#{gid}-2", f"#{gid}-1"]  # newest first; hand 3 is being played
    assert [c for _l, c in await rs.choices(GUILD, f"#{gid}-", "en")] == codes
    assert await rs.choices(GUILD + 1, "", "zh") == []
    assert await rs.choices(None, "", "zh") == []


@pytest.mark.parametrize("variant", ["shangrao", "nanchang"])
async def test_frames_move_list_and_pictures(make_service, store, variant):
    _svc, gid = await finished_game(make_service, variant=variant)
    rs = ReplayService(store)
    rh = await rs.hand(GUILD, f"#{gid}-1")
    first = frame(rh, 0, 0, "zh")
    assert len(first.hands) == 1 and len(first.hands[0][1].concealed) + (
        first.hands[0][1].drawn is not None
    ) in (13, 14)
    assert "配牌" in first.caption
    # 南昌's frames badge the 正精 (the indicator's kind) apart from the 副精
    zheng = rh.replay.states[0].hand.indicator >> 2 if variant == "nanchang" else None
    assert first.table.primary_wildcard == zheng and first.hands[0][1].primary_wildcard == zheng
    every = frame(rh, rh.steps, ALL, "en")
    assert len(every.hands) == 4 and "step" in every.caption
    # the picture's own words in the reader's language: 简体 by default, 繁體 for zh-TW
    # (the table's wildcard word is the variant's own: 宝, 精)
    assert first.table.words == picture_words("zh", variant) and first.hands[0][1].words == ZH_WORDS
    assert first.table.words.wildcard == ("精" if variant == "nanchang" else "宝")
    tw = frame(rh, 0, 0, "zh-TW")
    assert tw.table.words == picture_words("zh-TW", variant) and tw.table.words.dealer == "莊"
    assert tw.hands[0][1].words.honors[0] == "東" and every.table.words.dealer == "Dealer"
    assert frame(rh, 10_000, ALL, "zh").caption == frame(rh, rh.steps, ALL, "zh").caption
    lines = move_lines(rh, 12, 0, "zh")
    numbers = [n for n, _ in lines]
    assert numbers[0] == 7 and 12 in numbers
    assert all(text.startswith(f"{n}. ") for n, text in lines)
    assert any(("打 " in text or "过" in text) for _n, text in lines)
    for _n, text in move_lines(rh, 12, 1, "zh"):  # seen from seat 1: seat 0 is its 上家
        if text.split(". ", 1)[1].startswith(rh.names[0]):
            raise AssertionError("seat 0 should be named with its place: " + text)
    png = await rs.picture(rh, 5, ALL, "zh")
    assert png.startswith(b"\x89PNG")
    one_seat = Image.open(io.BytesIO(await rs.picture(rh, 5, 2, "en")))
    all_open = Image.open(io.BytesIO(png))
    assert all_open.height > one_seat.height


async def test_the_animation_is_a_gif_of_every_step(make_service, store):
    _svc, gid = await finished_game(make_service, variant="xinyu")
    rs = ReplayService(store)
    rh = await rs.hand(GUILD, f"#{gid}-1")
    gif = await rs.animation(rh, "zh")
    assert len(gif) < 10 * 1024 * 1024
    img = Image.open(io.BytesIO(gif))
    assert img.format == "GIF" and img.n_frames == rh.steps + 1


@pytest.mark.parametrize("variant", ["jiujiang", "nanchang"])
async def test_review_lines(make_service, store, variant):
    _svc, gid = await finished_game(make_service, variant=variant)
    rs = ReplayService(store)
    for seat in range(4):
        rh, lines = await rs.review(GUILD, f"#{gid}-1", seat)
        for line in lines:
            assert 1 <= line.step <= rh.steps
            assert rh.logged.actions[line.step - 1].seat == seat
            assert line.zh and line.en
    with pytest.raises(ReplayRefused) as refused:
        await rs.review(GUILD, f"#{gid}-1", 4)
    assert refused.value.key == "bad_seat"


async def test_a_hand_that_does_not_replay_to_its_record_is_refused_and_logged(
    make_service, store, caplog
):
    _svc, gid = await finished_game(make_service)
    async with store.db.write() as conn:
        await conn.execute(
            update(Hand.__table__)
            .where(Hand.__table__.c.game_id == gid, Hand.__table__.c.hand_no == 1)
            .values(points=9999)
        )
    rs = ReplayService(store)
    with (
        caplog.at_level(logging.ERROR, logger="services.replay"),
        pytest.raises(ReplayRefused) as refused,
    ):
        await rs.hand(GUILD, f"#{gid}-1")
    assert refused.value.key == "mismatch"
    assert "不符" in refused.value.text("zh") and "does not replay" in refused.value.text("en")
    assert any("differs from the record" in r.message for r in caplog.records)


@pytest.mark.parametrize("variant", ["shangrao", "nanchang"])
async def test_export_game_reimports_replays_and_verifies(make_service, store, variant):
    svc, gid = await finished_game(make_service, variant=variant, hands=2)
    rs = ReplayService(store)
    data, hands, going = await rs.export_game(GUILD, gid)
    assert (hands, going) == (2, True)
    doc = json.loads(data)
    assert doc["format"] == "jiangxi-mahjong-log" and doc["version"] == 1
    game = doc["games"][0]
    assert game["seed"] is None  # the game goes on: its seed would tell the next walls
    assert [h["hand"] for h in game["hands"]] == [1, 2]
    assert game["players"][0]["name"] == "host"
    log = loads(data)
    lines = replay_log(log)
    assert all(line["matches"] for line in lines)
    # the replayed results are the ones the store recorded
    for line in lines:
        rh = await rs.hand(GUILD, f"#{gid}-{line['hand']}")
        assert line["deltas"] == [
            next(int(d["delta"]) for d in rh.record.deltas if d["seat"] == s) for s in range(4)
        ]
        assert line["points"] == rh.record.points
    assert all(line["ok"] for line in verify_log(log)), verify_log(log)
    # once the game is over its seed is revealed, and every hand checks against it
    await svc.end_game(gid, USERS[0])
    data, hands, going = await rs.export_game(GUILD, gid)
    assert not going and json.loads(data)["games"][0]["seed"]
    assert all(line["ok"] for line in verify_log(loads(data)))
    with pytest.raises(ReplayRefused) as refused:
        await rs.export_game(GUILD + 1, gid)
    assert refused.value.key == "no_game"


async def test_export_server_csv(make_service, store):
    _svc, gid = await finished_game(make_service, hands=2)
    rs = ReplayService(store)
    data, n = await rs.export_server(GUILD)
    assert data.startswith("\ufeff".encode())
    rows = list(csv.DictReader(io.StringIO(data.decode("utf-8-sig"))))
    assert n == len(rows) == 2
    assert rows[0]["code"] == f"#{gid}-1" and rows[0]["variant"] == "jiujiang"
    assert "host" in rows[0]["players"] and rows[0]["how"] in (
        "self",
        "discard",
        "rob_kong",
        "draw",
    )
    assert {"date", "players", "variant", "winner", "how", "points", "items"} <= set(rows[0])
    with pytest.raises(ReplayRefused) as refused:
        await rs.export_server(GUILD + 1)
    assert refused.value.key == "no_hands"


async def test_a_log_the_engine_refuses_is_refused_and_logged(make_service, store, caplog):
    _svc, gid = await finished_game(make_service)
    from db.models import Action

    table = Action.__table__
    async with store.db.write() as conn:
        rows = await conn.execute(
            table.select().where(table.c.game_id == gid).order_by(table.c.seq)
        )
        first_act = next(r for r in rows if r.action.get("k") == "act")
        broken = {**first_act.action, "a": {"type": "discard", "tile": 34}}  # no such tile
        await conn.execute(
            update(table)
            .where(table.c.game_id == gid, table.c.seq == first_act.seq)
            .values(action=broken)
        )
    rs = ReplayService(store)
    with (
        caplog.at_level(logging.WARNING, logger="services.replay"),
        pytest.raises(ReplayRefused) as refused,
    ):
        await rs.hand(GUILD, f"#{gid}-1")
    assert refused.value.key == "mismatch"
    assert any("stops replaying" in r.message for r in caplog.records)
    assert any("not in the rebuilt log" in r.message for r in caplog.records)


def test_move_words_follow_the_reader_in_three_locales() -> None:
    """简体, 繁體 and English move-list words; pictures stay 简体 (the font has no 繁體)."""
    assert [tile_word(0, lang) for lang in ("zh", "zh-TW", "en")] == [
        "一万",
        "一萬",
        "1 Characters",
    ]
    assert [tile_word(27, lang) for lang in ("zh", "zh-TW", "en")] == ["东风", "東風", "East"]
    names = ["a", "b", "c", "d"]
    assert who(names, 3, 0, "zh-TW") == "上家 d" and who(names, 3, 0, "en") == "d (left)"
    assert who(names, 2, 0, "zh") == "对家 c" and who(names, 0, 0, "zh-TW") == "a"
    won = {"how": "rob_kong", "winners": [{"seat": 1, "points": 12}]}
    assert result_text(won, names, "zh") == "b 抢杠 12 分"
    assert result_text(won, names, "zh-TW") == "b 搶槓 12 分"
    assert result_text(won, names, "en") == "b robbing a kong, 12 points"
    assert result_text({"how": "draw"}, names, "zh-TW") == "流局"
    refused = ReplayRefused("in_play", code="#1-2")
    assert "還在進行中" in refused.text("zh-TW") and "还在进行中" in refused.text("zh")
    assert [picture_lang(x) for x in ("zh", "zh-TW", "en", "zh+en")] == ["zh", "zh-TW", "en", "zh"]
