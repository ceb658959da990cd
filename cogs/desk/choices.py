"""Autocomplete of ``/mahjong score`` and ``/mahjong record``: variants, rule options, flags,
and a live check of the hand being typed (Discord-free apart from ``Choice``)."""

from __future__ import annotations

from discord.app_commands import Choice

from cogs.desk.text import raise_names, role_name
from cogs.refusal_text import translated
from engine import variants
from engine.notation import format_hand
from i18n import BOTH, short, t
from services.desk import (
    FLAG_NAMES,
    HAND_EXAMPLE_LIST,
    DeskInputError,
    read_hand,
    variant_words,
)
from services.desk_table import SEAT_ROLES, STREAK_SUGGESTIONS, parse_others, parse_streak


def variant_choices(current: str) -> list[Choice[str]]:
    """Variants whose names contain what was typed."""
    cur = current.strip().lower()
    words_of = variant_words()
    out = []
    for v in variants.all():
        zh, en = v.title.zh, v.title.en
        words = [w for w, c in words_of.items() if c == v.name]
        if not cur or any(cur in w for w in words) or cur in en.lower():
            out.append(Choice(name=f"{zh} {en}", value=v.name))
    return out


def option_choices(variant: str | None, current: str) -> list[Choice[str]]:
    """Complete the last ``key=value`` pair of the options text for the chosen variant."""
    code = variant_words().get((variant or "").strip().lower(), variant or "")
    chosen = [code] if variants.is_known(code) else list(variants.names())
    text = current[:200]
    head, _, last = text.rpartition(" ")
    prefix = f"{head} " if head else ""
    used = {p.split("=")[0] for p in head.split()}
    out: list[Choice[str]] = []
    seen: set[str] = set()
    for v in chosen:
        for name, info in variants.get(v).options_class.INFO.items():
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


def _problem(error: DeskInputError, lang: str) -> str:
    """What is wrong with the typed text, in the reader's language (``zh+en``: the English
    the error was raised with, as short as a hint must be)."""
    return str(error.problem if lang == BOTH else translated(error.problem, lang))


def hand_choices(current: str, lang: str = BOTH) -> list[Choice[str]]:
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
        return [Choice(name=f"⚠ {_problem(error, lang)}"[:100], value=text)]
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
    code = variant_words().get((variant or "").strip().lower())
    return code if code is not None and variants.is_known(code) else None


def _others_examples(code: str | None) -> tuple[str, ...]:
    """The variant's examples of the others' melds (its desk fields), or every variant's."""
    if code is not None:
        return variants.get(code).desk.others_example
    return tuple(e for v in variants.all() for e in v.desk.others_example)


def _not_here(what: str, where: str, current: str) -> list[Choice[str]]:
    text = current.strip()
    if not text or len(text) > 100:
        return []
    return [Choice(name=f"⚠ {what}: {where}"[:100], value=text)]


def others_choices(variant: str | None, current: str, lang: str = BOTH) -> list[Choice[str]]:
    """Live check of the others' melds (九江 吃兴家, 新余 杠钱): read back (✓) or what is
    wrong (⚠); examples while empty. Shangrao has neither rule. ``lang``: the asker's
    locale (both languages by default)."""
    code = _variant_code(variant)
    if code is not None and not variants.get(code).desk.others:
        return _not_here(
            t("desk.choice.no_others", lang), t("desk.choice.use_feeder", lang), current
        )
    text = current.strip()
    if not text:
        shown = _others_examples(code) or _others_examples(None)
        return [Choice(name=e[:100], value=e[:100]) for e in shown]
    if len(text) > 100:
        return []
    try:
        others = parse_others(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {_problem(error, lang)}"[:100], value=text)]
    parts = []
    for seat in sorted(others):
        sm = others[seat]
        bits = [t("desk.choice.flowers", short(lang), n=sm.flowers)] if sm.flowers else []
        bits += [m.text() for m in sm.melds]
        parts.append(f"{role_name(SEAT_ROLES[seat], short(lang))} {' '.join(bits) or '—'}")
    return [Choice(name=f"✓ {' · '.join(parts)}"[:100], value=text)]


def streak_choices(variant: str | None, current: str, lang: str = BOTH) -> list[Choice[str]]:
    """九江 跟庄 / 黄庄: suggestions with the value per 炮 they give, or the typed text read
    back; other variants have no such rule. ``lang``: the asker's locale (both by default)."""
    code = _variant_code(variant)
    if code is not None and not variants.get(code).desk.streak:
        return _not_here(t("desk.choice.streak_only", lang), code, current)
    text = current.strip()
    if not text:
        out = []
        for s in STREAK_SUGGESTIONS:
            value, _ = parse_streak(s)
            label = t("desk.choice.streak_value", lang, value=value, why="")
            out.append(Choice(name=f"{s} — {label}", value=s))
        return out
    if len(text) > 100:
        return []
    try:
        value, raises = parse_streak(text)
    except DeskInputError as error:
        return [Choice(name=f"⚠ {_problem(error, lang)}"[:100], value=text)]
    why = f" ({raise_names(raises, short(lang))})" if raises else ""
    label = t("desk.choice.streak_value", lang, value=value, why=why)
    return [Choice(name=f"✓ {label}"[:100], value=text)]
