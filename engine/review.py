"""Reviewing a finished hand from one seat (复盘): where the analysis differs from the play.

:func:`review_hand` replays a logged hand (:mod:`engine.replay`) and looks at every decision
``seat`` took, with only what that seat could see at that moment (its own tiles, every
river and meld, laid-open 发, the 宝 indicator — :class:`engine.game.danger.Sight`):

- **discards** (打牌, also 报听 / 偷机 discards): the suggestion is the strong AI's discard
  (:func:`engine.ai.strong.best_discard`, the evaluation 高级 plays by: least 向听, then the
  hand's value over its winning routes). A discard that leaves a higher 向听 than it, or the
  same 向听 with a hand worth at least :data:`MIN_VALUE_LOST` less (:mod:`engine.ai.value`;
  by 进张 alone, at least :data:`MIN_LOST` fewer), gets a line showing 向听 and 进张 (tiles
  that lower the 向听, counted as copies the seat could not see);
- **missed wins**: a legal win (自摸, or on a discard / robbed kong) not declared (偷机, the
  上饶 choice to keep drawing, is a rule of its own and not listed);
- **claims that lowered the hand** (碰 / 吃): the 向听 after the claim (and its best
  discard) is not lower than before, or the same 向听 with fewer 进张, or a concealed hand
  gives up 门清 (新余 / 九江 score it) for nothing;
- **deal-ins into a visible threat** (点炮): the discard that paid for another seat's win,
  when some seat was a clear threat (:data:`engine.game.danger.THREAT_MIN`) and a legal
  discard was safer by the AI's danger reading (:func:`engine.game.danger.risks`) by at
  least :data:`engine.game.ai.SAFER_BY`.

Every :class:`ReviewLine` has the step (the action's number in the hand, as the replay's
move list counts), what was played, what the analysis suggests and the numbers, in Chinese
and English (``打 三万：向听 1→2；建议 打 北风：向听 1，进张 18 张``).

The 向听 is the engine's (standard shape and 七对, the 宝 as wildcards); special hands
(十三烂 and the like) are not read. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from engine import variants
from engine.ai import strong
from engine.ai.strong import best_discard, outlook_of
from engine.ai.value import discard_values, hand_value
from engine.decompose import wildcard_set
from engine.game.actions import (
    Action,
    Chi,
    DeclareReady,
    Discard,
    KeepDrawing,
    Pass,
    Pong,
    Win,
)
from engine.game.ai import SAFER_BY
from engine.game.danger import THREAT_MIN, risks, sight_of, threats
from engine.game.legal import legal_actions
from engine.game.rules import evaluate_win, rules_of, seat_counts, split_wilds
from engine.game.state import PHASE_CLAIM, PHASE_ROB, PHASE_TURN, GameState
from engine.logformat import LoggedHand
from engine.options import RuleOptions, make_options
from engine.replay import hand_states
from engine.scoring import WinKind
from engine.shanten import shanten
from engine.tiles import en_name, zh_name

#: A discard of the same 向听 is listed when it keeps at least this many fewer 进张 ...
MIN_LOST = 2
#: ... and at least this share of the best discard's 进张 fewer.
MIN_LOST_SHARE = 0.1
#: A discard of the same 向听 as the strong AI's is listed when the hand it leaves is worth
#: at least this share less (:mod:`engine.ai.value`).
MIN_VALUE_LOST = 0.1

RELATIVE = {
    1: ("下家", "the next seat"),
    2: ("对家", "the seat across"),
    3: ("上家", "the previous seat"),
}


def tile_zh(kind: int) -> str:
    """三万, 北风, 中 (winds with 风, as players say them)."""
    name = zh_name(kind)
    return name + "风" if 27 <= kind <= 30 else name


def tile_en(kind: int) -> str:
    return en_name(kind)


@dataclass(frozen=True)
class Option:
    """One discard considered: the tile, the 向听 after it and its 进张."""

    tile: int
    shanten: int
    ukeire: int


@dataclass(frozen=True)
class ReviewLine:
    """One decision where the analysis differs from the play."""

    step: int  # 1-based number of the action in the hand
    kind: str  # "discard" | "missed_win" | "claim" | "missed_claim" | "deal_in"
    zh: str
    en: str
    data: dict[str, Any] = field(default_factory=dict)

    def text(self, lang: str = "zh") -> str:
        """The line in ``lang``: 简体, 繁體 (``zh-TW``) or English.

        >>> ReviewLine(3, "discard", "打 三条：向听 1→2；建议 打 东风", "").text("zh-TW")
        '打 三條：向聽 1→2；建議 打 東風'
        """
        if lang == "en":
            return self.en
        return self.zh.translate(_TO_ZH_TW) if lang == "zh-TW" else self.zh


#: 简体 → 繁體 for the review's Chinese, character by character. Its vocabulary is closed (向听,
#: 进张, 建议, 点炮, seat words, tile names; never a player's name), so each of these characters
#: has one 繁體 form here — which a general converter could not promise.
_TO_ZH_TW = str.maketrans(
    {
        "万": "萬", "条": "條", "东": "東", "风": "風", "发": "發", "听": "聽", "张": "張",
        "进": "進", "议": "議", "宝": "寶", "对": "對", "抢": "搶", "报": "報", "机": "機",
        "杠": "槓", "没": "沒", "点": "點", "烂": "爛", "补": "補", "过": "過", "门": "門",
        "险": "險", "给": "給", "胁": "脅", "级": "級", "复": "復", "盘": "盤", "开": "開",
        "龙": "龍", "双": "雙", "头": "頭", "实": "實", "两": "兩", "胜": "勝", "损": "損",
        "价": "價", "应": "應", "该": "該", "选": "選", "择": "擇", "这": "這",
    }
)  # fmt: skip


# --------------------------------------------------------------------------- analysis


def unseen_of(state: GameState, seat: int) -> list[int]:
    """Copies of each kind ``seat`` cannot see (its hand, rivers, melds, 发, indicator)."""
    return [max(0, 4 - v) for v in sight_of(state, seat).visible()]


def ukeire(plain: list[int], wilds: int, bao: int | Iterable[int] | None, unseen: list[int]) -> int:
    """进张 of a 3n+1 hand: unseen copies of the kinds that lower its 向听 (a 宝 — any of the
    wildcard kinds ``bao`` — counts as a wildcard). ``plain`` is changed during the count and
    restored."""
    wild = wildcard_set(bao)
    base = shanten(plain, wilds)
    if base < 0:
        return 0
    total = 0
    for x in range(34):
        n = unseen[x]
        if not n:
            continue
        if x in wild:
            s = shanten(plain, wilds + 1)
        else:
            plain[x] += 1
            s = shanten(plain, wilds)
            plain[x] -= 1
        if s < base:
            total += n
    return total


def discard_options(
    state: GameState, seat: int, kinds: list[int], unseen: list[int] | None = None
) -> dict[int, Option]:
    """向听 and 进张 after discarding each of ``kinds`` from ``seat``'s hand (14 tiles)."""
    h = state.hand
    if unseen is None:
        unseen = unseen_of(state, seat)
    counts = seat_counts(h.seats[seat])
    plain, w = split_wilds(counts, h.wildcards)
    out = {}
    for k in dict.fromkeys(kinds):
        if k in h.wildcards:
            sh = shanten(plain, w - 1)
            uk = ukeire(plain, w - 1, h.wildcards, unseen)
        else:
            plain[k] -= 1
            sh = shanten(plain, w)
            uk = ukeire(plain, w, h.wildcards, unseen)
            plain[k] += 1
        out[k] = Option(k, sh, uk)
    return out


def _best(options: dict[int, Option]) -> Option:
    return min(options.values(), key=lambda o: (o.shanten, -o.ukeire, o.tile))


def _sh_text(n: int, lang: str) -> str:
    if n < 0:
        return "和了" if lang == "zh" else "complete"
    return str(n)


def _relative(seat: int, other: int, lang: str) -> str:
    pair = RELATIVE.get((other - seat) % 4, ("?", "?"))
    return pair[0] if lang == "zh" else pair[1]


def _play_word(action: Action, lang: str) -> str:
    if isinstance(action, DeclareReady):
        return "报听 打" if lang == "zh" else "declare ready, discard"
    if isinstance(action, KeepDrawing):
        return "偷机 打" if lang == "zh" else "keep drawing (偷机), discard"
    return "打" if lang == "zh" else "discard"


def _tile(k: int, lang: str) -> str:
    return tile_zh(k) if lang == "zh" else tile_en(k)


def discard_value(state: GameState, seat: int, kinds: list[int]) -> dict[int, float]:
    """The strong AI's value of the hand after each discard of ``kinds``
    (:func:`engine.ai.value.discard_values`, in plain wins)."""
    h = state.hand
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    return discard_values(list(plain), w, kinds, outlook_of(state, seat))


def _discard_line(
    step: int,
    action: Action,
    played: Option,
    best: Option,
    before: int,
    value: dict[int, float] | None = None,
) -> ReviewLine:
    def text(lang: str) -> str:
        zh = lang == "zh"
        word = _play_word(action, lang)
        if played.shanten > best.shanten:
            head = (
                f"{word} {_tile(played.tile, lang)}：向听 {_sh_text(before, lang)}→{_sh_text(played.shanten, lang)}"
                if zh
                else f"{word} {_tile(played.tile, lang)}: shanten {_sh_text(before, lang)}→{_sh_text(played.shanten, lang)}"
            )
        else:
            head = (
                f"{word} {_tile(played.tile, lang)}：向听 {_sh_text(played.shanten, lang)}，进张 {played.ukeire} 张"
                if zh
                else f"{word} {_tile(played.tile, lang)}: shanten {_sh_text(played.shanten, lang)}, {played.ukeire} tiles improve"
            )
        tail = (
            f"建议 打 {_tile(best.tile, lang)}：向听 {_sh_text(best.shanten, lang)}，进张 {best.ukeire} 张"
            if zh
            else f"better {_tile(best.tile, lang)}: shanten {_sh_text(best.shanten, lang)}, {best.ukeire} tiles improve"
        )
        sep = "；" if zh else "; "
        return f"{head}{sep}{tail}"

    return ReviewLine(
        step,
        "discard",
        text("zh"),
        text("en"),
        {
            "played": played.tile,
            "suggested": best.tile,
            "shanten_before": before,
            "shanten": played.shanten,
            "ukeire": played.ukeire,
            "best_shanten": best.shanten,
            "best_ukeire": best.ukeire,
            **(
                {}
                if value is None
                else {
                    "value": round(value[played.tile], 4),
                    "best_value": round(value[best.tile], 4),
                }
            ),
        },
    )


def _win_points(state: GameState, seat: int) -> int | None:
    """Points of the win ``seat`` may declare now (None when the scorer needs more)."""
    h = state.hand
    try:
        if h.phase == PHASE_TURN:
            won = evaluate_win(state, seat, "self", None)
        elif h.claim is not None:
            how: WinKind = "discard" if h.claim.kind == "discard" else "rob_kong"
            extra: frozenset[str] = frozenset()
            if how == "discard" and h.claim.tile >> 2 in h.wildcards:
                extra = frozenset({"jiebao"})
            won = evaluate_win(state, seat, how, h.claim.tile, extra)
        else:
            return None
    except Exception:  # a review is a help: never fail on it
        return None
    return None if won is None else int(won[0].points)


def _missed_win_line(step: int, state: GameState, seat: int, action: Action) -> ReviewLine:
    h = state.hand
    points = _win_points(state, seat)
    if h.phase == PHASE_TURN:
        drawn = h.seats[seat].drawn
        tile = drawn >> 2 if drawn is not None else None
        how_zh, how_en = "自摸", "self-draw"
    else:
        tile = h.claim.tile >> 2 if h.claim is not None else None
        how_zh, how_en = (
            ("抢杠", "robbing the kong") if h.phase == PHASE_ROB else ("点炮", "on the discard")
        )
    played_zh = _action_zh(action)
    played_en = _action_en(action)
    tile_zh_ = "" if tile is None else f" {tile_zh(tile)}"
    tile_en_ = "" if tile is None else f" on {tile_en(tile)}"
    worth_zh = f"，{points} 分" if points is not None else ""
    worth_en = f", {points} points" if points is not None else ""
    zh = f"{played_zh}：没有胡{tile_zh_}（{how_zh}）；建议 胡{worth_zh}"
    en = f"{played_en}: passed up a win{tile_en_} ({how_en}); better: win{worth_en}"
    return ReviewLine(step, "missed_win", zh, en, {"tile": tile, "points": points})


def _action_zh(action: Action) -> str:
    if isinstance(action, Discard | DeclareReady | KeepDrawing):
        return f"{_play_word(action, 'zh')} {tile_zh(action.tile)}"
    names = {
        "pass": "过",
        "pong": "碰",
        "kong": "杠",
        "chi": "吃",
        "concealed_kong": "暗杠",
        "added_kong": "补杠",
        "indicator_kong": "杠宝牌",
        "win": "胡",
    }
    return names.get(action.type, action.type)


def _action_en(action: Action) -> str:
    if isinstance(action, Discard | DeclareReady | KeepDrawing):
        return f"{_play_word(action, 'en')} {tile_en(action.tile)}"
    return {"concealed_kong": "concealed kong", "added_kong": "added kong"}.get(
        action.type, action.type.replace("_", " ")
    )


def _claim_words(action: Pong | Chi, k: int) -> tuple[str, str]:
    """碰 九筒 / 吃 三万（二三四万） and their English."""
    if isinstance(action, Pong):
        return f"碰 {tile_zh(k)}", f"pong {tile_en(k)}"
    shape = "".join(zh_name(x)[0] for x in action.tiles) + zh_name(action.tiles[0])[1:]
    en_shape = "-".join(tile_en(x).split(" ")[0] for x in action.tiles)
    return f"吃 {tile_zh(k)}（{shape}）", f"chi {tile_en(k)} ({en_shape})"


def _after_claim(
    plain: list[int], w: int, action: Pong | Chi, k: int, wild: Any, unseen: list[int]
) -> tuple[int, int] | None:
    """The 向听 and 进张 after the claim and its best discard (None: nothing left to
    discard)."""
    after = list(plain)
    if isinstance(action, Pong):
        after[k] -= 2
    else:
        for x in action.tiles:
            if x != k:
                after[x] -= 1
    if sum(after) + w == 0:
        return None
    best: tuple[int, int] | None = None
    for x in range(34):
        if after[x]:
            after[x] -= 1
            sh = shanten(after, w)
            uk = ukeire(after, w, wild, unseen)
            after[x] += 1
            if best is None or (sh, -uk) < (best[0], -best[1]):
                best = (sh, uk)
    return best


def _hand_value(state: GameState, seat: int) -> float:
    """The strong AI's value of the hand as it stands (no claim)."""
    h = state.hand
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    return hand_value(list(plain), w, outlook_of(state, seat))


def _claim_line(
    step: int,
    state: GameState,
    seat: int,
    action: Pong | Chi,
    unseen: list[int],
    legal: list[Action],
) -> ReviewLine | None:
    """A pong / chi the strong AI would not make (:func:`engine.ai.strong.choose`): it does
    not bring the hand closer, gives up 门清 for nothing, or costs the hand most of its
    value (七对, 清一色 given up); or another claim of the same tile was worth more."""
    h = state.hand
    assert h.claim is not None
    advice = strong.choose(state, seat, legal, defend=False)
    if advice == action or not isinstance(advice, Pass | Pong | Chi):
        return None
    k = h.claim.tile >> 2
    s = h.seats[seat]
    plain, w = split_wilds(seat_counts(s), h.wildcards)
    before = shanten(plain, w)
    before_uk = ukeire(plain, w, h.wildcards, unseen)
    made = _after_claim(list(plain), w, action, k, h.wildcards, unseen)
    if made is None:
        return None
    sh_after, uk_after = made
    word_zh, word_en = _claim_words(action, k)
    data: dict[str, Any] = {
        "tile": k,
        "shanten_before": before,
        "shanten_after": sh_after,
        "ukeire_before": before_uk,
        "ukeire_after": uk_after,
    }
    if isinstance(advice, Pong | Chi):  # another claim of the tile was worth more
        other = _after_claim(list(plain), w, advice, k, h.wildcards, unseen)
        if other is None:
            return None
        better_zh, better_en = _claim_words(advice, k)
        zh = (
            f"{word_zh}：向听 {_sh_text(sh_after, 'zh')}，进张 {uk_after} 张；"
            f"建议 {better_zh}：向听 {_sh_text(other[0], 'zh')}，进张 {other[1]} 张"
        )
        en = (
            f"{word_en}: shanten {_sh_text(sh_after, 'en')}, {uk_after} tiles improve; "
            f"better: {better_en}: shanten {_sh_text(other[0], 'en')}, {other[1]} tiles improve"
        )
        data.update(suggested=advice.type, best_shanten=other[0], best_ukeire=other[1])
        return ReviewLine(step, "claim", zh, en, data)
    concealed = all(m.fed_by is None for m in s.melds)
    # variants whose scoring has 门清 (a concealed hand): a claim gives it up
    lose_menqing = concealed and variants.get(state.variant).menqing
    menq_zh = "，失去门清" if lose_menqing else ""
    menq_en = ", gives up the concealed hand (门清)" if lose_menqing else ""
    if sh_after == before and uk_after >= before_uk and not lose_menqing:
        return None  # (not closer, but no worse either: not worth a line)
    if sh_after < before:  # closer, but the AI passes for the value it gives up
        now = _hand_value(state, seat)
        kept = strong.claim_value(state, seat, action) / now if now > 0 else 1.0
        share = max(0, min(99, round(100 * kept)))
        menq_zh += f"，牌价值只剩 {share}%"
        menq_en += f", the hand keeps only {share} % of its value"
        data["value_kept"] = round(kept, 3)
    zh = (
        f"{word_zh}：向听 {_sh_text(before, 'zh')}→{_sh_text(sh_after, 'zh')}，"
        f"进张 {before_uk}→{uk_after} 张{menq_zh}；建议 过"
    )
    en = (
        f"{word_en}: shanten {_sh_text(before, 'en')}→{_sh_text(sh_after, 'en')}, "
        f"tiles that improve {before_uk}→{uk_after}{menq_en}; better: pass"
    )
    data["menqing"] = lose_menqing
    return ReviewLine(step, "claim", zh, en, data)


def _missed_claim_line(
    step: int, state: GameState, seat: int, unseen: list[int], legal: list[Action]
) -> ReviewLine | None:
    """A pass where the strong AI claims (碰 / 吃 that brings the hand closer to ready
    without costing it half its value)."""
    h = state.hand
    assert h.claim is not None
    advice = strong.choose(state, seat, legal, defend=False)
    if not isinstance(advice, Pong | Chi):
        return None
    k = h.claim.tile >> 2
    plain, w = split_wilds(seat_counts(h.seats[seat]), h.wildcards)
    before = shanten(plain, w)
    made = _after_claim(list(plain), w, advice, k, h.wildcards, unseen)
    if made is None or made[0] >= before:
        return None
    word_zh, word_en = _claim_words(advice, k)
    zh = (
        f"过 {tile_zh(k)}；建议 {word_zh}：向听 {_sh_text(before, 'zh')}→"
        f"{_sh_text(made[0], 'zh')}，进张 {made[1]} 张"
    )
    en = (
        f"pass on {tile_en(k)}; better: {word_en}: shanten {_sh_text(before, 'en')}→"
        f"{_sh_text(made[0], 'en')}, {made[1]} tiles improve"
    )
    data = {
        "tile": k,
        "suggested": advice.type,
        "shanten_before": before,
        "shanten_after": made[0],
        "ukeire_after": made[1],
    }
    return ReviewLine(step, "missed_claim", zh, en, data)


def _deal_in_line(
    step: int,
    state: GameState,
    seat: int,
    action: Discard | DeclareReady | KeepDrawing,
    winners: list[int],
    kinds: list[int],
) -> ReviewLine | None:
    """The discard that paid for a win, when a visible threat made a safer tile the play."""
    if not rules_of(state.variant, state.options).discard_win:
        return None
    sight = sight_of(state, seat)
    threat = threats(sight)
    if max(threat) < THREAT_MIN:
        return None
    played = action.tile
    risk = risks(sight, list(dict.fromkeys([*kinds, played])), threat)
    safest = min(risk, key=lambda k: (risk[k], k))
    if risk[safest] + SAFER_BY > risk[played]:
        return None
    top = max(range(4), key=lambda s: threat[s])
    to = winners[0] if winners else top
    zh = (
        f"打 {tile_zh(played)} 点炮给{_relative(seat, to, 'zh')}：危险度 {risk[played]:.1f}"
        f"（{_relative(seat, top, 'zh')} 威胁 {threat[top]:.1f}）；"
        f"建议 打 {tile_zh(safest)}：危险度 {risk[safest]:.1f}"
    )
    en = (
        f"discard {tile_en(played)} dealt in to {_relative(seat, to, 'en')}: danger "
        f"{risk[played]:.1f} ({_relative(seat, top, 'en')} threat {threat[top]:.1f}); "
        f"better {tile_en(safest)}: danger {risk[safest]:.1f}"
    )
    return ReviewLine(
        step,
        "deal_in",
        zh,
        en,
        {
            "played": played,
            "suggested": safest,
            "risk": round(risk[played], 3),
            "best_risk": round(risk[safest], 3),
            "threat": round(threat[top], 3),
        },
    )


# --------------------------------------------------------------------------- the review


def review_states(
    states: list[GameState], actions: list[tuple[int, Action]], seat: int
) -> list[ReviewLine]:
    """Review ``seat``'s decisions: ``states[i]`` is the state before ``actions[i]``
    (``states`` has one more entry: the end)."""
    lines: list[ReviewLine] = []
    final = states[-1].hand.result or {}
    deal_in_step = None
    if final.get("how") == "discard" and final.get("payer") == seat:
        for i in range(len(actions) - 1, -1, -1):
            who, a = actions[i]
            if who == seat and isinstance(a, Discard | DeclareReady | KeepDrawing):
                deal_in_step = i
                break
    winners = [w["seat"] for w in final.get("winners", [])]
    for i, (who, action) in enumerate(actions):
        if who != seat:
            continue
        state = states[i]
        h = state.hand
        step = i + 1
        legal = legal_actions(state, seat)
        if any(isinstance(a, Win) for a in legal) and not isinstance(action, Win | KeepDrawing):
            lines.append(_missed_win_line(step, state, seat, action))
            continue
        if h.phase == PHASE_TURN and isinstance(action, Discard | DeclareReady | KeepDrawing):
            kinds = [a.tile for a in legal if type(a) is type(action)]
            if isinstance(action, Discard):
                kinds = [a.tile for a in legal if isinstance(a, Discard | DeclareReady)]
            kinds = list(dict.fromkeys(kinds))
            if i == deal_in_step:
                line = _deal_in_line(step, state, seat, action, winners, kinds)
                if line is not None:
                    lines.append(line)
                    continue
            if len(kinds) < 2:
                continue
            unseen = unseen_of(state, seat)
            options = discard_options(state, seat, kinds, unseen)
            played = options.get(action.tile)
            if played is None:
                continue
            best = options[best_discard(state, seat, kinds, defend=False)]
            before = min(o.shanten for o in options.values())
            if best.tile == played.tile:
                continue
            lost = best.ukeire - played.ukeire
            value = discard_value(state, seat, [played.tile, best.tile])
            if played.shanten > best.shanten or (
                played.shanten == best.shanten
                and value[played.tile] < (1 - MIN_VALUE_LOST) * value[best.tile]
                and (lost >= MIN_LOST or value[best.tile] > 0)
            ):
                lines.append(_discard_line(step, action, played, best, before, value))
        elif h.phase == PHASE_CLAIM and isinstance(action, Pong | Chi):
            line = _claim_line(step, state, seat, action, unseen_of(state, seat), legal)
            if line is not None:
                lines.append(line)
        elif h.phase == PHASE_CLAIM and isinstance(action, Pass):
            line = _missed_claim_line(step, state, seat, unseen_of(state, seat), legal)
            if line is not None:
                lines.append(line)
    return lines


def review_hand(
    variant: str,
    options: RuleOptions | dict[str, Any] | None,
    hand: LoggedHand,
    seat: int,
) -> list[ReviewLine]:
    """The review of ``seat``'s play in the finished, logged ``hand``."""
    if not 0 <= seat < 4:
        raise ValueError(f"there is no seat {seat!r} (seats are 0–3)")
    opts = (
        options
        if not isinstance(options, dict | type(None))
        else make_options(variant, options or {})
    )
    replayed = hand_states(variant, opts, hand)
    return review_states(replayed.states, [(a.seat, a.action) for a in hand.actions], seat)


__all__ = [
    "MIN_LOST",
    "MIN_LOST_SHARE",
    "Option",
    "ReviewLine",
    "discard_options",
    "review_hand",
    "review_states",
    "tile_en",
    "tile_zh",
    "ukeire",
    "unseen_of",
]
