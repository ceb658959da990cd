"""The one scoring entry point, and the RULES §6 JSON form of a scoring request."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engine import variants
from engine.notation import MeldKind, parse_hand
from engine.options import make_options
from engine.scoring.impossible import refusal
from engine.scoring.types import FLAGS, WIN_KINDS, ScoreResult, WinContext, illegal
from engine.tiles import TileError, kind_of, tile_str
from engine.variants import Variant


def score(ctx: WinContext) -> ScoreResult:
    """Score a finished hand in its context: legal or not, points, and the items behind them.

    Chooses the reading that pays most (计大不计小, RULES §2.1). Raises ``ValueError`` for a
    context that cannot be scored (options of another variant, a 3-tile indicator kong
    outside Shangrao or of the wrong kind, an unknown win kind).
    """
    variant = _check(ctx)
    why = refusal(ctx, variant)
    if why:
        return illegal(why)
    return variant.score(ctx)


def _check(ctx: WinContext) -> Variant:
    """The context's variant, after checking that the context can be scored at all."""
    variant = variants.get(ctx.variant)  # raises UnknownVariant naming the known ones
    if getattr(ctx.options, "variant", None) != ctx.variant:
        raise ValueError(f"the options given are not {ctx.variant!r} options")
    if ctx.win not in WIN_KINDS:
        raise ValueError(f"win must be one of {', '.join(WIN_KINDS)}, not {ctx.win!r}")
    if ctx.hand.winning is None:
        raise ValueError("a finished hand needs its winning tile (+X)")
    for m in ctx.hand.melds:
        if m.kind is MeldKind.INDICATOR_KONG:
            if not variant.indicator_kongs:
                having = ", ".join(v.name for v in variants.all() if v.indicator_kongs)
                raise ValueError(f"a 3-tile kong (XXX) exists only in {having} (the 跌宝牌's kind)")
            pick = variant.wildcards_of
            if ctx.wildcards and pick is not None and pick(m.tiles[0]) != ctx.wildcards:
                makes = _indicators_of(pick, ctx.wildcards)
                shown = "、".join(tile_str(k) for k in sorted(ctx.wildcards))
                raise ValueError(
                    f"{m.text()} is no indicator kong: the 宝 {shown} follows "
                    f"{'/'.join(tile_str(k) for k in makes) or '—'}, so only (XXX) of that kind"
                )
    return variant


def _indicators_of(pick: Callable[[int], frozenset[int]], wildcards: frozenset[int]) -> list[int]:
    """The indicator kinds that make ``wildcards``."""
    return [k for k in range(34) if pick(k) == wildcards]


def _int_field(obj: dict[str, Any], name: str) -> int:
    value = obj.get(name, 0)
    if value is None:
        return 0
    if type(value) is not int or not 0 <= value <= 16:
        raise ValueError(f"field {name!r} must be a whole number 0–16, not {value!r}")
    return value


def context_from_dict(obj: dict[str, Any]) -> WinContext:
    """Build a :class:`WinContext` from one RULES §6 JSON object (``expect``/``rule`` ignored).

    Raises ``ValueError`` (incl. ``NotationError`` / ``OptionError``) naming what is wrong.
    """
    if not isinstance(obj, dict):
        raise ValueError("each line must be a JSON object")
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise ValueError(f"field 'variant' is missing ({', '.join(variants.names())})")
    raw_options = obj.get("options") or {}
    if not isinstance(raw_options, dict):
        raise ValueError("field 'options' must be an object")
    options = make_options(variant, raw_options)
    text = obj.get("hand")
    if not isinstance(text, str):
        raise ValueError("field 'hand' is missing: a hand string such as '123m456p789s55z11s +1s'")
    hand = parse_hand(text, finished=True)
    win = obj.get("win", "self")
    if win not in WIN_KINDS:
        raise ValueError(f"field 'win' must be one of {', '.join(WIN_KINDS)}, not {win!r}")
    v = variants.get(variant)
    wildcards = wildcards_from_dict(obj, v)
    if v.needs_wildcards and not wildcards:
        raise ValueError(
            f"a {variant} hand needs field 'bao' (the wildcard kind, e.g. '5p') or 'jing' "
            "(the indicator's kind, then the next, e.g. ['5p', '6p'])"
        )
    flags_raw = obj.get("flags") or []
    if not isinstance(flags_raw, list) or not all(isinstance(f, str) for f in flags_raw):
        raise ValueError("field 'flags' must be a list of strings")
    known = FLAGS | v.flags
    unknown = sorted(set(flags_raw) - known)
    if unknown:
        raise ValueError(f"unknown flag(s) {', '.join(unknown)}: use {', '.join(sorted(known))}")
    return WinContext(
        variant=variant,
        options=options,
        hand=hand,
        win=win,
        wildcards=wildcards,
        flown=_int_field(obj, "flown"),
        kong_draws=_int_field(obj, "kong_draws"),
        flowers=_int_field(obj, "flowers"),
        flags=frozenset(flags_raw),
    )


def wildcards_from_dict(obj: dict[str, Any], variant: Variant) -> frozenset[int]:
    """The wildcard kinds of a request: field ``bao`` (the wildcard kinds themselves), or
    ``jing`` (RULES §8.7: the indicator's kind first, then the other kinds it makes — checked
    against the variant's ``wildcards_of``; one tile alone names the indicator's kind, e.g.
    ``"jing": "5p"`` for 正精 5p and 副精 6p)."""
    if obj.get("bao") is not None and obj.get("jing") is not None:
        raise ValueError("give the wildcards once: field 'bao' or field 'jing', not both")
    if obj.get("jing") is None:
        return _wildcards_field(obj.get("bao"), "bao")
    raw = obj["jing"]
    kinds = _wildcards_field(raw, "jing")
    first = kind_of(raw[0] if isinstance(raw, list) and raw else raw)
    pick = variant.wildcards_of
    if pick is not None and len(kinds) == 1 and first in pick(first):
        return pick(first)
    if pick is None or pick(first) != kinds:
        made = "、".join(tile_str(k) for k in sorted(pick(first))) if pick else "—"
        raise ValueError(
            f"field 'jing' lists the indicator's kind first, then the kinds it makes: "
            f"{tile_str(first)} makes {made}"
        )
    return kinds


def _wildcards_field(raw: Any, name: str) -> frozenset[int]:
    """Field ``bao`` / ``jing``: one tile (``"5p"``), a list of tiles (``["5p", "6p"]``) for a
    variant with several wildcard kinds, or nothing."""
    if raw is None:
        return frozenset()
    tiles = raw if isinstance(raw, list) else [raw]
    out = set()
    for t in tiles:
        if not isinstance(t, str):
            raise ValueError(f"field {name!r} must be a tile such as '5p', not {raw!r}")
        try:
            out.add(kind_of(t))
        except TileError as e:
            raise ValueError(f"field {name!r}: {e}") from None
    return frozenset(out)


def _seat_field(obj: dict[str, Any], name: str, default: int | None = None) -> int | None:
    value = obj.get(name, default)
    if value is None:
        return None
    if type(value) is not int or not 0 <= value <= 3:
        raise ValueError(f"field {name!r} must be a seat 0–3, not {value!r}")
    return value


def pay_from_dict(obj: dict[str, Any], ctx: WinContext, result: ScoreResult) -> list[int] | None:
    """What seats 0–3 pay the winner (RULES §8.7 ``pay``) when the request names the winner's
    ``seat`` (with ``from``, the discarder's or robbed seat, for a discard or 抢杠 win, and
    ``dealer``, seat 0 unless given); ``None`` without ``seat`` or for an illegal hand."""
    seat = _seat_field(obj, "seat")
    if seat is None or not result.legal:
        return None
    dealer = _seat_field(obj, "dealer", 0)
    assert dealer is not None
    if ("dealer" in ctx.flags) != (seat == dealer):
        raise ValueError(
            f"flag 'dealer' says whether the winner is the dealer: seat {seat}, dealer {dealer}"
        )
    payer = _seat_field(obj, "from")
    if ctx.win == "self":
        if payer is not None:
            raise ValueError("field 'from' names the discarder or robbed seat: not on a self-draw")
    elif payer is None or payer == seat:
        raise ValueError(f"a {ctx.win} win needs field 'from': the seat that gave the tile")
    # engine.settle imports engine.scoring (its types): imported on use, not at the top.
    from engine.settle import settle_win

    s = settle_win(
        ctx.variant,
        ctx.options,
        winner=seat,
        result=result,
        win=ctx.win,
        payer=payer,
        dealer=dealer,
    )
    pay = [0, 0, 0, 0]
    for p in s.payments:
        if p.payee == seat:
            pay[p.payer] += p.amount
    return pay


def score_line(obj: Any) -> dict[str, Any]:
    """Answer one RULES §6 object: ``{"id","legal","points","items"}`` (and ``pay`` when it
    names the winner's ``seat``) or ``{"id","error"}``; a line of another ``kind`` (RULES §8.7
    ``jing_settlement``) is answered by its variant."""
    ident = obj.get("id") if isinstance(obj, dict) else None
    out: dict[str, Any] = {"id": ident}
    try:
        if isinstance(obj, dict) and obj.get("kind") is not None:
            out.update(_other_line(obj))
            return out
        ctx = context_from_dict(obj)
        result = score(ctx)
        pay = pay_from_dict(obj, ctx, result)
    except ValueError as e:
        return {"id": ident, "error": str(e)}
    out.update(result.as_dict())
    if pay is not None:
        out["pay"] = pay
    return out


def _other_line(obj: dict[str, Any]) -> dict[str, Any]:
    """A request line of another ``kind``, answered by its variant's ``line_kinds``."""
    variant = obj.get("variant")
    if not isinstance(variant, str):
        raise ValueError(f"field 'variant' is missing ({', '.join(variants.names())})")
    v = variants.get(variant)
    kind = obj["kind"]
    answer = v.line_kinds.get(kind) if isinstance(kind, str) else None
    if answer is None:
        having = ", ".join(sorted(v.line_kinds)) or "none"
        raise ValueError(f"{variant} answers no line of kind {kind!r} (its kinds: {having})")
    raw_options = obj.get("options") or {}
    if not isinstance(raw_options, dict):
        raise ValueError("field 'options' must be an object")
    options = make_options(variant, raw_options)
    wildcards_from_dict(obj, v)  # a line naming its 精 / 宝 names them right
    return {"kind": kind, **answer(obj, options)}
