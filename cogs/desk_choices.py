"""Autocomplete of ``/mahjong score`` and ``/mahjong record``: variants, rule options, flags,
and a live check of the hand being typed (Discord-free apart from ``Choice``)."""

from __future__ import annotations

from discord.app_commands import Choice

from engine.notation import format_hand
from engine.options import OPTION_CLASSES, VARIANT_NAMES, VARIANTS
from services.desk import (
    FLAG_NAMES,
    HAND_EXAMPLE_LIST,
    VARIANT_WORDS,
    DeskInputError,
    read_hand,
)
from services.desk_table import ROLE_NAMES, SEAT_ROLES, parse_others, parse_streak, raise_names


def variant_choices(current: str) -> list[Choice[str]]:
    """Variants whose names contain what was typed."""
    cur = current.strip().lower()
    out = []
    for code in VARIANTS:
        zh, en = VARIANT_NAMES[code]
        words = [w for w, c in VARIANT_WORDS.items() if c == code]
        if not cur or any(cur in w for w in words) or cur in en.lower():
            out.append(Choice(name=f"{zh} {en}", value=code))
    return out


def option_choices(variant: str | None, current: str) -> list[Choice[str]]:
    """Complete the last ``key=value`` pair of the options text for the chosen variant."""
    code = VARIANT_WORDS.get((variant or "").strip().lower(), variant or "")
    variants = [code] if code in OPTION_CLASSES else list(VARIANTS)
    text = current[:200]
    head, _, last = text.rpartition(" ")
    prefix = f"{head} " if head else ""
    used = {p.split("=")[0] for p in head.split()}
    out: list[Choice[str]] = []
    seen: set[str] = set()
    for v in variants:
        for name, info in OPTION_CLASSES[v].INFO.items():
            if name in used:
                continue
            values = [c for c in info.choices if c is not None]
            shown = [str(c).lower() for c in values] or ["16", "10"]
            if info.int_range and not values:
                shown = ["16", "10"]
            for value in shown:
                pair = f"{name}={value}"
                if pair in seen or (last and not pair.startswith(last.lower())):
                    continue
                seen.add(pair)
                label = f"{prefix}{pair} — {info.zh}"[:100]
                out.append(Choice(name=label, value=f"{prefix}{pair}"[:100]))
    return out[:25]


def hand_choices(current: str) -> list[Choice[str]]:
    """Live check of the hand being typed: the hand read back (✓) or what is wrong (⚠);
    examples while empty. The value is always the text as typed."""
    text = current.strip()
    if not text:
        return [Choice(name=e[:100], value=e[:100]) for e in HAND_EXAMPLE_LIST[:2]]
    if len(text) > 100:
        return []
    try:
        read = read_hand(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {error.problem}"[:100], value=text)]
    return [Choice(name=f"✓ {format_hand(read)}"[:100], value=text)]


def flag_choices(current: str) -> list[Choice[str]]:
    """Complete the last flag word (天胡 海底 …)."""
    head, _, last = current[:200].rpartition(" ")
    prefix = f"{head} " if head else ""
    out = []
    for code, (zh, en) in FLAG_NAMES.items():
        if last and not (zh.startswith(last) or code.startswith(last.lower())):
            continue
        out.append(Choice(name=f"{prefix}{zh} ({en})"[:100], value=f"{prefix}{zh}"[:100]))
    return out[:25]


def _variant_code(variant: str | None) -> str | None:
    code = VARIANT_WORDS.get((variant or "").strip().lower())
    return code if code in VARIANTS else None


OTHERS_SUGGESTIONS: dict[str, tuple[str, ...]] = {
    "jiujiang": ("下家 发2 [7777m]; 对家 (5555p) [中中中]", "对家 发 [白白白]", "上家 [5555s]"),
    "xinyu": ("对家 (5555p); 上家 [1111s]", "下家 [7777m]"),
}
STREAK_SUGGESTIONS = ("黄庄", "跟庄", "黄庄 黄庄", "黄庄 跟庄", "跟庄中", "双跟", "×2", "×4")


def _not_here(what: str, where: str, current: str) -> list[Choice[str]]:
    text = current.strip()
    if not text or len(text) > 100:
        return []
    return [Choice(name=f"⚠ {what}: {where}"[:100], value=text)]


def others_choices(variant: str | None, current: str) -> list[Choice[str]]:
    """Live check of the others' melds (九江 吃兴家, 新余 杠钱): read back (✓) or what is
    wrong (⚠); examples while empty. Shangrao has neither rule."""
    code = _variant_code(variant)
    if code == "shangrao":
        return _not_here("上饶没有吃兴家/杠钱 · not a Shangrao rule", "叁包 → feeder", current)
    text = current.strip()
    if not text:
        shown = OTHERS_SUGGESTIONS.get(code or "", ()) or tuple(
            e for v in OTHERS_SUGGESTIONS.values() for e in v
        )
        return [Choice(name=e[:100], value=e[:100]) for e in shown]
    if len(text) > 100:
        return []
    try:
        others = parse_others(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {error.problem}"[:100], value=text)]
    parts = []
    for seat in sorted(others):
        sm = others[seat]
        bits = [f"发{sm.flowers}"] if sm.flowers else []
        bits += [m.text() for m in sm.melds]
        parts.append(f"{ROLE_NAMES[SEAT_ROLES[seat]][0]} {' '.join(bits) or '—'}")
    return [Choice(name=f"✓ {' · '.join(parts)}"[:100], value=text)]


def streak_choices(variant: str | None, current: str) -> list[Choice[str]]:
    """九江 跟庄 / 黄庄: suggestions with the value per 炮 they give, or the typed text read
    back; other variants have no such rule."""
    code = _variant_code(variant)
    if code is not None and code != "jiujiang":
        return _not_here("跟庄/黄庄 只在九江 · Jiujiang only", code, current)
    text = current.strip()
    if not text:
        out = []
        for s in STREAK_SUGGESTIONS:
            value, _ = parse_streak(s)
            out.append(Choice(name=f"{s} — 每炮 ×{value} · ×{value} per pao", value=s))
        return out
    if len(text) > 100:
        return []
    try:
        value, raises = parse_streak(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {error.problem}"[:100], value=text)]
    why = f" ({raise_names(raises, 'zh')})" if raises else ""
    return [Choice(name=f"✓ 每炮 ×{value}{why} · ×{value} per pao"[:100], value=text)]
