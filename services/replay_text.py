"""The words of replays, reviews and exports: the move list (``12. 上家 bob 打 八条``), the
result line, hand codes. The sentences are the ``replay`` message catalogue, read with
:func:`i18n.t` (``lang`` one of :data:`i18n.LOCALES`, or ``zh+en``). No Discord types.
"""

from __future__ import annotations

import re
from typing import Any

from engine.game.actions import (
    Action,
    AddedKong,
    Chi,
    ConcealedKong,
    DeclareReady,
    Discard,
    IndicatorKong,
    KeepDrawing,
    Kong,
    Pass,
    Pong,
    Win,
)
from engine.game.state import GameState
from engine.options import VARIANT_NAMES
from engine.tiles import WINDS, tile_str
from i18n import BOTH, t
from services.model import shown_ai_name

#: How a hand ended (``replay.how.<how>``: 自摸, 点炮, 抢杠, 流局).
HOWS = ("self", "discard", "rob_kong", "draw")

CODE_RX = re.compile(r"^\s*#?\s*(\d{1,18})\s*[-–/·.:#]\s*(\d{1,4})\s*$")


def one(lang: str) -> str:
    """The one locale for text that is not doubled (move lists, reviews): ``zh+en`` → ``zh``."""
    return "zh" if lang == BOTH else lang


def picture_lang(lang: str) -> str:
    """The locale of words drawn in a picture: the reader's own (the shipped font subset
    draws 简体 and 繁體 — 槓 寶 聽 …); a ``zh+en`` reader's pictures are in 简体."""
    return one(lang)


def variant_name(variant: str, lang: str = "zh") -> str:
    """上饶麻将 / 上饒麻將 / Shangrao (both for ``zh+en``)."""
    return t(f"engine.variant.{variant}", lang) if variant in VARIANT_NAMES else variant


def hand_code(game_id: int, hand_no: int) -> str:
    """``#12-3``: game 12, hand 3 (as players count hands, from 1)."""
    return f"#{game_id}-{hand_no}"


def parse_code(text: str) -> tuple[int, int] | None:
    """``#12-3`` (also ``12-3``, ``12/3``) → ``(12, 3)``; None when it is not a code."""
    m = CODE_RX.match(text or "")
    if m is None:
        return None
    game, hand = int(m.group(1)), int(m.group(2))
    return (game, hand) if game > 0 and hand > 0 else None


def tile_word(kind: int, lang: str) -> str:
    """三万, 北风 / 北風, East: a tile as players say it (winds with 风)."""
    name = t(f"common.tile.{tile_str(kind)}", one(lang))
    return t("replay.wind_tile", one(lang), tile=name) if kind in WINDS else name


def who(names: list[str], seat: int, viewer: int | None, lang: str) -> str:
    """``上家 bob`` (zh) / ``bob (left)`` (en) from the shown seat; just the name otherwise."""
    name = shown_ai_name(names[seat], lang) if seat < len(names) else f"#{seat + 1}"
    if viewer is None or seat == viewer:
        return name
    rel = t(f"replay.relative.{(seat - viewer) % 4}", one(lang))
    return t("replay.who_relative", one(lang), rel=rel, name=name)


def action_text(action: Action, before: GameState, lang: str) -> str:
    """What the action did, in words: 打 八条, 碰 八条, 胡（自摸）…"""
    lang = one(lang)
    h = before.hand
    claimed = h.claim.tile >> 2 if h.claim is not None else None

    def move(key: str, kind: int | None = None, tile: str | None = None) -> str:
        shown = tile if tile is not None else "" if kind is None else tile_word(kind, lang)
        return t(f"replay.move.{key}", lang, tile=shown)

    if isinstance(action, Discard):
        return move("discard", action.tile)
    if isinstance(action, DeclareReady):
        return move("ready", action.tile)
    if isinstance(action, KeepDrawing):
        return move("touji", action.tile)
    if isinstance(action, Pass):
        return t("replay.move.pass", lang)
    if isinstance(action, Win):
        if claimed is None:
            drawn = h.seats[h.turn].drawn
            return move(
                "self_draw", tile="" if drawn is None else " " + tile_word(drawn >> 2, lang)
            )
        rob = h.claim is not None and h.claim.kind == "rob"
        return move("rob_win" if rob else "win", claimed)
    if isinstance(action, Pong | Kong | Chi):
        key = {Pong: "pong", Kong: "kong", Chi: "chi"}[type(action)]
        return move(key, claimed)
    if isinstance(action, ConcealedKong):
        return move("concealed_kong", action.kind)
    if isinstance(action, AddedKong):
        return move("added_kong", action.kind)
    if isinstance(action, IndicatorKong):
        return move("indicator_kong", h.indicator >> 2 if h.indicator is not None else None)
    return action.type


def how_text(how: str, lang: str) -> str:
    """自摸 / 点炮 / 抢杠 / 流局 (an unknown way as it is)."""
    return t(f"replay.how.{how}", one(lang)) if how in HOWS else how


def result_text(result: dict[str, Any] | None, names: list[str], lang: str) -> str:
    """``bob 自摸 12 分`` / ``流局``."""
    if not result:
        return ""
    how = result.get("how", "draw")
    shown = how_text(how, lang)
    winners = result.get("winners") or []
    if not winners:
        return shown
    parts = []
    for w in winners:
        seat = int(w.get("seat", 0))
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        pts = int(w.get("points", 0))
        parts.append(t("replay.result_win", one(lang), name=name, how=shown, points=pts))
    return "; ".join(parts)


__all__ = [
    "HOWS",
    "action_text",
    "hand_code",
    "how_text",
    "one",
    "parse_code",
    "picture_lang",
    "result_text",
    "tile_word",
    "variant_name",
    "who",
]
