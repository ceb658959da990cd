"""The engine's privacy-filtered views as the service's values: the only views the bot shows.

:func:`engine.game.view.public_view` (the table everyone sees) and
:func:`engine.game.view.seat_view` (one seat's own tiles added) decide what may be seen; this
module only renames their fields into :mod:`services.model` values (:class:`TableView`,
:class:`HandView`, :class:`MeldInfo`, :class:`RevealedHand`). Nothing here reads the engine's
state, so nothing here can show more than the engine's views hold.
"""

from __future__ import annotations

from typing import Any

from services.model import ActionKey, HandView, MeldInfo, Phase, PublicSeat, TableView


def phase_of(engine_phase: str) -> Phase:
    """The service's phase of the engine's: a claim window (吃碰杠胡 or 抢杠) is ``claim``."""
    if engine_phase in ("claim", "rob"):
        return "claim"
    if engine_phase == "over":
        return "hand_over"
    return "turn"


def wildcards_of(view: dict[str, Any]) -> frozenset[int]:
    """The wildcard kinds (上饶 宝; a variant may have several) of an engine view: its
    ``wildcards`` list, or the single ``bao`` of views and snapshots older than the set.

    >>> sorted(wildcards_of({"wildcards": [4, 31]})), sorted(wildcards_of({"bao": 8}))
    ([4, 31], [8])
    >>> wildcards_of({"bao": None})
    frozenset()
    """
    if view.get("wildcards") is not None:
        return frozenset(int(k) for k in view["wildcards"])
    bao = view.get("bao")
    return frozenset() if bao is None else frozenset((int(bao),))


def primary_of(view: dict[str, Any]) -> int | None:
    """The 正精 kind of an engine view (南昌: the indicator's kind; the other wildcard kind is
    副精), or None for a variant whose wildcards are all alike.

    >>> primary_of({"primary": 12}), primary_of({"wildcards": [4]})
    (12, None)
    """
    primary = view.get("primary")
    return None if primary is None else int(primary)


def meld_of(meld: dict[str, Any]) -> MeldInfo:
    """A meld of a view (``kind``, ``tiles``, ``fed_by``, ``claimed``, ``added``)."""
    return MeldInfo(
        meld["kind"],
        tuple(meld["tiles"]),
        meld.get("fed_by"),
        added=bool(meld.get("added", False)),
        claimed=meld.get("claimed"),
    )


def table_of(public: dict[str, Any], commitment: str | None) -> TableView:
    """The channel's table from :func:`engine.game.view.public_view`. ``commitment``: the
    hand's published SHA-256 of (seed, wall) (公开承诺)."""
    phase = phase_of(public["phase"])
    claim = public.get("claim")
    turn = public["turn"] if phase == "turn" else None
    seats = tuple(
        PublicSeat(
            seat=i,
            concealed_count=s["concealed_count"],
            melds=tuple(meld_of(m) for m in s["melds"]),
            river=tuple(s["river"]),
            flowers=len(s["flowers"]),
            dealer=i == public["dealer"],
            ready=s["ready"],
        )
        for i, s in enumerate(public["seats"])
    )
    return TableView(
        hand_no=public["hand"] + 1,
        phase=phase,
        dealer=public["dealer"],
        turn=turn,
        wall_left=public["wall_left"],  # at hand end too: the wall left
        seats=seats,
        bao_indicator=public["indicator"],
        wildcards=wildcards_of(public),
        primary_wildcard=primary_of(public),
        last_discard=None if claim is None else (claim["from_seat"], claim["tile"]),
        # the turn's seat only: who may claim a discard is never public
        waiting_on=() if turn is None else (turn,),
        commitment=commitment,
    )


def hand_of(view: dict[str, Any], legal: tuple[ActionKey, ...]) -> HandView:
    """One seat's hand from :func:`engine.game.view.seat_view` and its legal actions as
    button keys."""
    own = view["own"]
    kinds = list(own["hand"])
    drawn = own["drawn"]
    if drawn is not None:
        kinds.remove(drawn)
    seat = view["seat"]
    # the discard (or robbed kong) this seat may claim, None outside its claim window
    claim = view.get("claim") if own["in_claim"] else None
    public_seat = view["seats"][seat]
    return HandView(
        seat=seat,
        concealed=tuple(sorted(kinds)),
        drawn=drawn,
        melds=tuple(meld_of(m) for m in public_seat["melds"]),
        legal=legal,
        waits=tuple(own["tenpai"]),
        flowers=len(public_seat["flowers"]),
        wildcards=wildcards_of(view),
        primary_wildcard=primary_of(view),
        claim_tile=claim["tile"] if claim is not None else None,
        claim_from=claim["from_seat"] if claim is not None else None,
        claim_rob=bool(claim is not None and claim["kind"] == "rob"),
    )
