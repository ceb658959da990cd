"""The short public lines of a game where it is played: a hand starting (with its dice and
the SHA-256 commitment of its wall), claims (吃/碰/杠), kongs, 偷机, flowers, wins, a drawn
hand, time-outs and 托管. An event seen by one seat only is never a public line: a line
never names who may claim a discard (claim privacy).
"""

from __future__ import annotations

from typing import Any

from cogs.game.session_text import dealer_choice_line
from cogs.game.text import t, tile_name, word
from services.delivery import GameSummary
from services.model import GameEvent


def event_line(
    game: GameSummary, event: GameEvent, events: list[GameEvent], lang: str
) -> str | None:
    """A short public line for a notable event (claims, kongs, wins…), or None."""
    if event.visible_to is not None:
        return None
    names = [s.shown_name(lang) for s in game.seats]
    d = event.data

    def name(seat: Any) -> str:
        return names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else "?"

    kind = event.kind
    if kind == "hand_started":
        line = t(
            "game.line_hand_started",
            lang,
            hand=int(d.get("hand", 0)) + 1,
            dealer=name(d.get("dealer")),
            hash=d.get("commitment", ""),
        )
        dice = [
            e.data.get("values")
            for e in events
            if e.kind == "dice" and e.data.get("purpose") in ("deal", "indicator")
        ]
        rolled = [f"{'+'.join(str(v) for v in vs)}" for vs in dice if vs]
        if rolled:
            line += "\n" + t("game.line_dice", lang, dice=" / ".join(rolled))
        first = dealer_choice_line(game, events, lang)  # how the first dealer was chosen
        if first:
            line = first + "\n" + line
        return line
    if kind == "claimed":
        what = word("claim", d.get("kind") or "?", lang, both=True)
        return t(
            "game.line_claimed",
            lang,
            name=name(d.get("seat")),
            what=what,
            tile=_tile(d.get("tile"), lang),
        )
    if kind == "kong":
        if d.get("kind") == "concealed_kong":
            return t("game.line_concealed_kong", lang, name=name(d.get("seat")))
        return t("game.line_kong", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang))
    if kind == "ready":
        return t("game.line_ready", lang, name=name(d.get("seat")))
    if kind == "touji":
        return t("game.line_touji", lang, name=name(d.get("seat")))
    if kind == "flower":
        return t(
            "game.line_flower", lang, name=name(d.get("seat")), tile=_tile(d.get("tile"), lang)
        )
    if kind == "won":
        out = []
        for w in d.get("winners", []):
            who = name(w.get("seat"))
            if d.get("how") == "self":
                out.append(t("game.line_won_self", lang, name=who))
            elif d.get("how") == "rob_kong":
                out.append(t("game.line_won_rob", lang, name=who))
            else:
                out.append(t("game.line_won_discard", lang, name=who, payer=name(d.get("payer"))))
        return "\n".join(out) or None
    if kind == "drawn_hand":
        return t("game.line_drawn", lang)
    if kind == "timeout":
        what = word("timeout", d.get("kind") or "play", lang, both=True)
        return t("game.line_timeout", lang, name=name(event.seat), what=what)
    if kind == "auto":
        if d.get("on"):
            if any(e.kind == "timeout" and e.seat == event.seat for e in events):
                return None
            return t("game.line_auto_on", lang, name=name(event.seat))
        return t("game.line_auto_off", lang, name=name(event.seat))
    return None


def _tile(kind: Any, lang: str) -> str:
    return tile_name(kind, lang) if isinstance(kind, int) and 0 <= kind < 34 else "?"
