"""The game's text: :mod:`services.model` values turned into lines of the catalogues.

The sentences live in :mod:`i18n` (``game``, ``session``, ``common`` and ``errors`` domains);
``lang`` is ``zh``, ``zh-TW``, ``en`` or ``zh+en`` (both, Chinese first). Private answers
follow the user's Discord language; public lines follow the server's ``language`` setting.
The table text never contains a concealed tile.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from typing import Any

from engine import variants
from engine.tiles import kind_of, tile_str
from i18n import locale_for, short, t
from i18n.engine_texts import engine_text_by_zh
from services.model import ActionKey, HandResult, HandView, MeldInfo, ScoreLine, TableView
from services.picture_words import wildcard_word

__all__ = [
    "action_label",
    "chi_name",
    "claim_prompt",
    "hand_lines",
    "lang_of",
    "meld_text",
    "result_lines",
    "seat_name",
    "t",
    "table_lines",
    "tile_name",
    "tiles_text",
    "variant_name",
    "word",
]


def lang_of(locale: Any) -> str:
    """The language of a private answer: ``zh`` (简体), ``zh-TW`` (繁體) or ``en``."""
    return locale_for(locale, "en")


def word(group: str, name: object, lang: str, *, both: bool = False) -> str:
    """A short game word of ``common.po`` (``common.<group>.<name>``), e.g. ``word("action",
    "pong", lang)`` → 碰; an unknown name is shown as it is. ``zh+en`` shows Chinese (both
    languages with ``both``)."""
    try:
        return t(f"common.{group}.{name}", lang if both else short(lang))
    except KeyError:
        return str(name)


def variant_name(variant: str, lang: str = "zh") -> str:
    """上饶麻将 / 上饒麻將 / Shangrao (the engine's text ``engine.variant.<name>``)."""
    try:
        return t(f"engine.variant.{variant}", lang)
    except KeyError:
        return variant


def tile_name(kind: int, lang: str = "zh") -> str:
    """五万 (zh), 五萬 (zh-TW) or 5 Characters (en)."""
    return t(f"common.tile.{tile_str(kind)}", short(lang))


def chi_name(arg: str, lang: str = "zh") -> str:
    """A chi shape ``345m`` by name: 三四五万 (zh) or 3-4-5 Characters (en); anything else
    is returned as it is."""
    try:
        kinds = [kind_of(f"{d}{arg[-1]}") for d in arg[:-1]]
    except (ValueError, IndexError):
        return arg
    if not kinds or arg[-1] == "z":
        return arg
    names = [tile_name(k, lang) for k in kinds]
    if lang == "en":
        suit = names[0].split(" ", 1)[1]
        return "-".join(n.split(" ", 1)[0] for n in names) + f" {suit}"
    return "".join(n[0] for n in names) + names[0][1]


def tiles_text(kinds: Iterable[int], lang: str = "zh") -> str:
    """Tiles separated by spaces: ``一万 二万 东``."""
    return " ".join(tile_name(k, lang) for k in kinds)


def wildcard_names(wildcards: Iterable[int], lang: str = "zh", primary: int | None = None) -> str:
    """The wildcard (宝) kinds by name, in kind order: ``三条``, ``一万、二万``; with the
    ``primary`` kind named (南昌), the 正精 first and each kind called what it is:
    ``正精 一万、副精 二万``."""
    if primary is None or primary not in wildcards:
        return punct("list", lang).join(tile_name(k, lang) for k in sorted(wildcards))
    kinds = sorted(wildcards, key=lambda k: (k != primary, k))
    return punct("list", lang).join(
        t(
            "game.jing_primary" if k == primary else "game.jing_secondary",
            lang,
            tile=tile_name(k, lang),
        )
        for k in kinds
    )


def meld_text(meld: MeldInfo, lang: str = "zh", owner: int | None = None) -> str:
    """``碰[5m5m5m]``; with the ``owner`` seat known, a claimed meld names its feeder:
    ``碰[5m5m5m]（上家）`` / ``pong[5m5m5m] (from left)``; an added kong reads ``补杠``."""
    one = short(lang)
    label = word("meld", meld.kind, one)
    if meld.kind == "kong" and meld.added:
        label = word("meld", "added_kong", one)
    if meld.kind == "concealed_kong":
        return f"{label}[{tile_name(meld.tiles[0], lang)}×4]"
    text = f"{label}[{''.join(tile_str(k) for k in meld.tiles)}]"
    if owner is not None and meld.from_seat is not None:
        feeder = (meld.from_seat - owner) % 4
        if feeder in (1, 2, 3):
            name = word("feeder", feeder, one)
            text += f"{punct('open', one)}{name}{punct('close', one)}"
    return text


def action_label(key: ActionKey, lang: str = "zh") -> str:
    """A button label: ``胡``, ``杠 五万``, ``吃 345m``, ``五万``."""
    base = word("action", key.kind, lang)
    if key.kind == "discard" and key.arg:
        return _arg_name(key.arg, lang)
    if key.arg:
        return f"{base} {_arg_name(key.arg, lang)}"
    return base


def _arg_name(arg: str, lang: str) -> str:
    if len(arg) == 4:
        return chi_name(arg, lang)
    if len(arg) == 2:
        try:
            return tile_name(kind_of(arg), lang)
        except ValueError:
            return arg
    return arg


def how_word(how: str, lang: str) -> str:
    """自摸 / 点炮 / 抢杠 / 流局 (``zh+en``: both)."""
    try:
        return t(f"common.how.{how}", lang)
    except KeyError:
        return how


def score_line_text(item: ScoreLine, lang: str) -> str:
    """One scoring item with its value: ``清一色 ×4`` (zh), ``Pure one suit (清一色) ×4`` (en:
    the English name first, the Chinese one players also use beside it unless it is in it)."""
    name = item.name
    if lang == "zh-TW":
        name = engine_text_by_zh(item.name, lang)
    elif lang != "zh" and item.en:
        name = item.en if item.name in item.en else f"{item.en} ({item.name})"
    return f"{name} {value_text(item.value, lang)}"


@functools.cache
def _units() -> tuple[re.Pattern[str], dict[str, str]]:
    """The variants' point units by their Chinese word (分, 炮) and a pattern for a value."""
    units = {v.unit.zh: v.unit.id for v in variants.all()}
    words = "|".join(re.escape(u) for u in units)
    return re.compile(rf"^([+×−-]?\d+)({words})$"), units


def value_text(value: str, lang: str) -> str:
    """A scoring item's value in the reader's language: ``+1炮`` / ``4分`` stay in Chinese,
    read ``+1 pao`` / ``4 points`` in English (``×4`` is the same everywhere).

    >>> value_text("+1炮", "en"), value_text("4分", "en"), value_text("4分", "zh")
    ('+1 pao', '4 points', '4分')
    """
    pattern, units = _units()
    match = pattern.match(value) if lang == "en" else None
    if match is None:
        return value
    return f"{match[1]} {t('engine.' + units[match[2]], 'en')}"


def punct(name: str, lang: str) -> str:
    """Punctuation in the reader's script: ``：``, ``、``, ``（…）`` in Chinese; ``: ``,
    ``, ``, `` (…)`` in English (``zh+en`` lines are punctuated as Chinese)."""
    return t(f"common.punct.{name}", short(lang))


def seat_name(names: list[str], seat: int | None) -> str:
    if seat is None or not 0 <= seat < len(names):
        return "?"
    return names[seat]


def hand_lines(
    hand: HandView,
    hints: tuple[tuple[int, int], ...],
    lang: str,
    *,
    auto: bool = False,
    phase: str = "turn",
    names: list[str] | None = None,
    variant: str | None = None,
) -> list[str]:
    """The private hand view as text lines (only ever sent to the hand's owner); with the
    seats' ``names`` a claim prompt names the discarder and where they sit; the wildcards
    are named with ``variant``'s own word (宝, 精 …)."""
    colon = punct("colon", lang)
    lines = [f"**{t('game.hand_tiles', lang)}**{colon}{tiles_text(hand.concealed, lang)}"]
    if hand.drawn is not None:
        drawn = f"{t('game.hand_drawn', lang)}{colon}**{tile_name(hand.drawn, lang)}**"
        lines[0] += f"{punct('gap', lang)}｜ {drawn}"
    if hand.melds:
        lines.append(
            f"{t('game.melds', lang)}{colon}"
            + "  ".join(meld_text(m, lang, hand.seat) for m in hand.melds)
        )
    if hand.wildcards:
        lines.append(
            t(
                "game.hand_bao",
                lang,
                word=wildcard_word(variant, lang),
                tile=wildcard_names(hand.wildcards, lang, hand.primary_wildcard),
            )
        )
    if hints:
        waits = punct("list", lang).join(
            t("game.hand_waits_line", lang, tile=tile_name(k, lang), n=n) for k, n in hints
        )
        lines.append(f"{t('game.hand_waits', lang)}{colon}{waits}")
    if phase == "hand_over":
        lines.append(t("game.hand_over_note", lang))
    elif hand.claim_tile is not None and hand.legal:
        lines.append(claim_prompt(hand, names or [], lang))
    elif hand.legal:
        lines.append(t("game.hand_your_turn", lang))
    else:
        lines.append(t("game.hand_wait", lang))
    if auto:
        lines.append(t("game.hand_auto", lang))
    return lines


def claim_prompt(hand: HandView, names: list[str], lang: str) -> str:
    """``上家 bob 打出 八条，你可以：`` — the discard a claim window is about and who threw it
    (private: only the seats that may claim see it)."""
    where = ""
    if hand.claim_from is not None:
        relative = (hand.claim_from - hand.seat) % 4
        where = word("seat", relative, lang) if relative else ""
    return t(
        "game.hand_rob" if hand.claim_rob else "game.hand_claim",
        lang,
        where=where,
        name=seat_name(names, hand.claim_from),
        tile=tile_name(hand.claim_tile, lang) if hand.claim_tile is not None else "?",
    ).lstrip()


def table_lines(
    table: TableView,
    names: list[str],
    totals: tuple[int, ...],
    autos: list[bool],
    lang: str,
    *,
    deadline: float | None = None,
    variant: str | None = None,
) -> list[str]:
    """The public table as text: per seat only counts, melds and rivers — no concealed tile;
    the wildcard line uses ``variant``'s own word (宝, 精 …)."""
    colon, gap = punct("colon", lang), punct("gap", lang)
    out = []
    for ps in table.seats:
        marks = [word("wind", (ps.seat - table.dealer) % 4, lang)]  # the dealer is 东
        if ps.dealer:
            marks.append(t("game.dealer", lang))
        if ps.seat < len(autos) and autos[ps.seat]:
            marks.append(t("game.auto", lang))
        if ps.ready:
            marks.append(t("game.ready_mark", lang))
        # only on the seat whose turn it is: never on a seat a claim window waits on
        arrow = "▶ " if table.phase == "turn" and table.turn == ps.seat else ""
        head = f"{arrow}**{seat_name(names, ps.seat)}**"
        if marks:
            head += f"{punct('open', lang)}{'·'.join(marks)}{punct('close', lang)}"
        score = totals[ps.seat] if ps.seat < len(totals) else 0
        head += f"{gap}{t('game.score', lang, n=score)}"
        head += f"{gap}{t('game.concealed_n', lang, n=ps.concealed_count)}"
        out.append(head)
        if ps.melds:
            out.append(
                f"{gap}{t('game.melds', lang)}{colon}"
                + "  ".join(meld_text(m, lang, ps.seat) for m in ps.melds)
            )
        if ps.flowers:
            out.append(f"{gap}{t('game.flowers', lang, n=ps.flowers)}")
        river = "·".join(tile_str(k) for k in ps.river) or "—"
        out.append(f"{gap}{t('game.river', lang)}{colon}{river}")
    info = [t("game.wall_left", lang, n=table.wall_left)]
    if table.wildcards and table.bao_indicator is not None:
        info.append(
            t(
                "game.bao",
                lang,
                word=wildcard_word(variant, lang),
                indicator=tile_name(table.bao_indicator, lang),
                bao=wildcard_names(table.wildcards, lang, table.primary_wildcard),
            )
        )
    out.append(" · ".join(info))
    if table.phase == "turn" and table.turn is not None:
        out.append(t("game.turn", lang, name=seat_name(names, table.turn)))
    elif table.phase == "claim" and table.last_discard is not None:
        discarder, tile = table.last_discard
        out.append(
            t("game.claim_wait", lang, who=seat_name(names, discarder), tile=tile_name(tile, lang))
        )
    elif table.phase == "hand_over":
        out.append(t("game.hand_over", lang))
    # a claim window shows no deadline: it would tell a window a human decides in from the
    # hold every discard shows (services.reveal); the claimers see theirs in their hands
    if deadline is not None and table.phase == "turn":
        out.append(t("game.deadline", lang, when=f"<t:{int(deadline)}:R>"))
    if table.commitment:
        out.append(t("game.fairness", lang, hash=f"`{table.commitment[:16]}…`"))
    return out


def result_lines(
    result: HandResult, names: list[str], lang: str, commitment: str | None = None
) -> list[str]:
    """The result: winner, how, every scoring item, points, payments, totals, seed reveal."""
    out: list[str] = []
    colon = punct("colon", lang)
    how = how_word(result.how, lang)
    if not result.winners:
        out.append(t("game.result_draw", lang))
    else:
        who = punct("list", lang).join(seat_name(names, s) for s in result.winners)
        line = f"🀄 **{who}** · {how}"
        if result.discarder is not None and result.how != "self":
            line += f" · {seat_name(names, result.discarder)}"
        out.append(line)
        if result.winner_hand:
            out.append(f"`{result.winner_hand}`")
        if result.items:
            items = punct("comma", lang).join(score_line_text(i, lang) for i in result.items)
            out.append(f"{t('game.result_items', lang)}{colon}{items}")
        out.append(t("game.result_points", lang, n=result.points))
    if result.payments:
        pays = []
        for p in result.payments:
            payer, payee, amount = p[0], p[1], p[2]
            reason = (
                f"{punct('open', lang)}{p[3]}{punct('close', lang)}" if len(p) > 3 and p[3] else ""
            )
            pays.append(f"{seat_name(names, payer)} → {seat_name(names, payee)} {amount}{reason}")
        out.append(f"{t('game.result_pay', lang)}{colon}" + punct("semi", lang).join(pays))
    deltas = "  ".join(f"{seat_name(names, i)} {d:+d}" for i, d in enumerate(result.deltas))
    out.append(deltas)
    if result.scores:
        totals = "  ".join(f"{seat_name(names, i)} {s}" for i, s in enumerate(result.scores))
        out.append(f"{t('game.result_totals', lang)}{colon}{totals}")
    if result.seed_reveal and result.seed_reveal.get("seed"):
        out.append(
            t(
                "game.result_seed",
                lang,
                seed=result.seed_reveal["seed"],
                hash=(commitment or result.seed_reveal.get("commitment") or "")[:64],
            )
        )
    return out
