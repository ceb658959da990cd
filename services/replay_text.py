"""Every user-facing string of replays, reviews and exports, Chinese first with English
(the style of :mod:`cogs.text`: ``t(key, lang, **params)``, ``lang`` ``zh`` / ``en`` /
``zh+en``), and the words of the move list (``12. 上家 bob 打 八条``). No Discord types.
"""

from __future__ import annotations

import contextlib
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
from engine.review import tile_en, tile_zh
from services.stats_text import pick

STRINGS: dict[str, tuple[str, str]] = {
    # refusals
    "guild_only": ("请在服务器频道里使用。", "Use this in a server channel."),
    "bad_code": (
        "看不懂牌局编号 {code}：请写成 `#对局-局数`，例如 `#12-3`（见结算消息和 /mahjong history）。",
        "Cannot read the hand code {code}: write it as `#game-hand`, e.g. `#12-3` (shown in "
        "result messages and /mahjong history).",
    ),
    "no_hand": (
        "本服务器没有已结束的牌局 {code}。只有结束的一局可以回放、复盘。",
        "This server has no finished hand {code}. Only a finished hand can be replayed or "
        "reviewed.",
    ),
    "in_play": (
        "牌局 {code} 还在进行中：一局结束后才能回放、复盘。",
        "Hand {code} is still being played: it can be replayed or reviewed once it is over.",
    ),
    "mismatch": (
        "牌局 {code} 的记录回放后与保存的结果不符，不能回放（已记录，请告诉管理员）。",
        "Hand {code} does not replay to its saved result, so it cannot be shown (this has "
        "been logged; please tell an admin).",
    ),
    "no_game": ("本服务器没有对局 #{id}。", "This server has no game #{id}."),
    "no_finished": (
        "对局 #{id} 还没有结束的一局，没有可导出的记录。",
        "Game #{id} has no finished hand yet: there is nothing to export.",
    ),
    "no_hands": ("本服务器还没有记录的牌局。", "This server has no recorded hands yet."),
    "bad_seat": ("座位是 1–4。", "Seats are 1–4."),
    "pick_seat": (
        "你没有在这一局里坐：请用 `seat` 选要复盘的座位（1–4）。",
        "You did not sit in this hand: choose the seat to review with `seat` (1–4).",
    ),
    "picture_failed": (
        "图片没能画出来，下面是文字版。",
        "The picture could not be drawn; here is the text.",
    ),
    # replay
    "replay_title": ("回放 {code} · {variant}", "Replay {code} · {variant}"),
    "step": ("第 {step}/{steps} 步", "step {step}/{steps}"),
    "deal": ("配牌", "the deal"),
    "view_all": ("四家明牌", "all four hands open"),
    "view_seat": ("看 {name} 的手牌", "{name}'s hand shown"),
    "pick_view": ("选择看谁的手牌…", "Whose hand to show…"),
    "all_open": ("四家明牌", "All four open"),
    "animate": ("🎞 动图", "🎞 Animation"),
    "animation": (
        "{code} 全局动图（{steps} 步）",
        "{code}, the whole hand ({steps} steps)",
    ),
    "animation_failed": ("动图没能生成。", "The animation could not be made."),
    "result_line": ("结果：{text}", "Result: {text}"),
    "moves": ("牌谱", "Moves"),
    # review
    "review_title": ("复盘 {code} · {name}", "Review {code} · {name}"),
    "review_none": (
        "这一局里 {name} 的每一步都和分析一致，没有可改进的地方。",
        "Every decision {name} made in this hand agrees with the analysis.",
    ),
    "review_footer": (
        "只用当时这一家能看到的牌分析：自己的手牌、牌河、副露、宝牌指示。",
        "Analysed with only what that seat could see then: its own hand, the rivers, the "
        "melds and the 宝 indicator.",
    ),
    "review_more": ("…还有 {n} 条", "…and {n} more"),
    # export
    "export_game": (
        "对局 #{id} 的牌谱（{hands} 局，格式见 docs/log-format.md；`python -m engine.replay` "
        "可离线回放，`python -m engine.verify` 可验证公平性）。",
        "Game #{id}'s log ({hands} hands; format in docs/log-format.md; replay it offline "
        "with `python -m engine.replay`, check its fairness with `python -m engine.verify`).",
    ),
    "export_server": (
        "本服务器记录的 {hands} 局（CSV）。",
        "This server's {hands} recorded hands (CSV).",
    ),
    "export_unfinished": (
        "这局还在进行：只导出了已结束的 {hands} 局，种子只在整场结束后公开。",
        "The game is still going: only its {hands} finished hands are exported; the game "
        "seed is revealed once it is over.",
    ),
}

HOW: dict[str, tuple[str, str]] = {
    "self": ("自摸", "self-draw"),
    "discard": ("点炮", "on a discard"),
    "rob_kong": ("抢杠", "robbing a kong"),
    "draw": ("流局", "drawn hand"),
}
#: Where a seat sits from the one whose hand is shown: 上家 left, 对家 across, 下家 right.
RELATIVE: dict[int, tuple[str, str]] = {
    1: ("下家", "right"),
    2: ("对家", "across"),
    3: ("上家", "left"),
}

CODE_RX = re.compile(r"^\s*#?\s*(\d{1,18})\s*[-–/·.:#]\s*(\d{1,4})\s*$")


def t(key: str, lang: str = "zh", **params: Any) -> str:
    """The sentence ``key`` in ``lang`` with ``params`` filled in."""
    zh, en = STRINGS[key]
    with contextlib.suppress(KeyError, IndexError):
        zh, en = zh.format(**params), en.format(**params)
    return pick((zh, en), lang)


def one(lang: str) -> str:
    """``zh`` or ``en`` for text that is not doubled (move lists, reviews)."""
    return "en" if lang == "en" else "zh"


def variant_name(variant: str, lang: str = "zh") -> str:
    return pick(VARIANT_NAMES.get(variant, (variant, variant)), lang)


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
    return tile_zh(kind) if one(lang) == "zh" else tile_en(kind)


def who(names: list[str], seat: int, viewer: int | None, lang: str) -> str:
    """``上家 bob`` (zh) / ``bob (left)`` (en) from the shown seat; just the name otherwise."""
    name = names[seat] if seat < len(names) else f"#{seat + 1}"
    rel = None if viewer is None or seat == viewer else RELATIVE.get((seat - viewer) % 4)
    if rel is None:
        return name
    return f"{rel[0]} {name}" if one(lang) == "zh" else f"{name} ({rel[1]})"


def action_text(action: Action, before: GameState, lang: str) -> str:
    """What the action did, in words: 打 八条, 碰 八条, 胡（自摸）…"""
    zh = one(lang) == "zh"
    h = before.hand
    claimed = h.claim.tile >> 2 if h.claim is not None else None
    if isinstance(action, Discard):
        k = tile_word(action.tile, lang)
        return f"打 {k}" if zh else f"discards {k}"
    if isinstance(action, DeclareReady):
        k = tile_word(action.tile, lang)
        return f"报听 打 {k}" if zh else f"declares ready, discards {k}"
    if isinstance(action, KeepDrawing):
        k = tile_word(action.tile, lang)
        return f"偷机 打 {k}" if zh else f"keeps drawing (偷机), discards {k}"
    if isinstance(action, Pass):
        return "过" if zh else "passes"
    if isinstance(action, Win):
        if claimed is None:
            drawn = h.seats[h.turn].drawn
            tile = "" if drawn is None else " " + tile_word(drawn >> 2, lang)
            return f"自摸{tile}" if zh else f"wins by self-draw{tile}"
        k = tile_word(claimed, lang)
        rob = h.claim is not None and h.claim.kind == "rob"
        return (f"抢杠胡 {k}" if rob else f"胡 {k}") if zh else f"wins on {k}"
    if isinstance(action, Pong | Kong | Chi):
        k = "" if claimed is None else tile_word(claimed, lang)
        word = {Pong: ("碰", "pongs"), Kong: ("杠", "kongs"), Chi: ("吃", "chows")}[type(action)]
        return f"{word[0]} {k}" if zh else f"{word[1]} {k}"
    if isinstance(action, ConcealedKong):
        k = tile_word(action.kind, lang)
        return f"暗杠 {k}" if zh else f"concealed kong of {k}"
    if isinstance(action, AddedKong):
        k = tile_word(action.kind, lang)
        return f"补杠 {k}" if zh else f"adds {k} to a kong"
    if isinstance(action, IndicatorKong):
        k = tile_word(h.indicator >> 2, lang) if h.indicator is not None else ""
        return f"杠宝牌 {k}" if zh else f"kongs the 宝 indicator {k}"
    return action.type


def result_text(result: dict[str, Any] | None, names: list[str], lang: str) -> str:
    """``bob 自摸 12 分`` / ``流局``."""
    if not result:
        return ""
    how = result.get("how", "draw")
    how_text = pick(HOW.get(how, (how, how)), one(lang))
    winners = result.get("winners") or []
    if not winners:
        return how_text
    parts = []
    for w in winners:
        seat = int(w.get("seat", 0))
        name = names[seat] if seat < len(names) else f"#{seat + 1}"
        pts = int(w.get("points", 0))
        parts.append(
            f"{name} {how_text} {pts} 分"
            if one(lang) == "zh"
            else f"{name} {how_text}, {pts} points"
        )
    return "; ".join(parts)


__all__ = [
    "STRINGS",
    "action_text",
    "hand_code",
    "one",
    "parse_code",
    "pick",
    "result_text",
    "t",
    "tile_word",
    "variant_name",
    "who",
]
