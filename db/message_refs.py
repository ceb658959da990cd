"""The remembered Discord messages of a game (``games.messages``: hand DMs, alerts, the
lobby, the table's hand, the last result, the 解散 vote…) saved by several processes.

Each process keeps its own copy and saves it whole. Saving is a three-way merge under the
row's write lock (:meth:`db.games.GameRepository.merge_messages`): what this process changed
since its last save (``ours`` against ``base``) goes over what is stored (``theirs``), and
whatever another process stored meanwhile stays. When both changed the same entry the newer
one is kept, by the same rule in every process (:func:`newer`), so a stale process cannot put
back an older message id over a newer one, whoever writes last.
"""

from __future__ import annotations

from typing import Any

_MISSING: Any = object()


def order_key(value: Any) -> tuple[Any, ...] | None:
    """How new a remembered entry is, or None when it cannot tell.

    Entries are an id (a Discord snowflake, later = larger), a hand number, or a list such as
    ``[channel, message, hand_no]`` / ``[where, hand_no]`` / ``[channel, message]``: read from
    its last item back (hand or vote number first, then the message id)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return (value,)
    if (
        isinstance(value, list)
        and value
        and all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        return tuple(reversed(value))
    return None


def newer(ours: Any, theirs: Any) -> Any:
    """Of two different values both changed since the common base: the newer (see
    :func:`order_key`); when it cannot tell, ours (the latest writer's)."""
    if ours is _MISSING:
        return theirs if order_key(theirs) is not None else ours
    if theirs is _MISSING:
        return ours
    a, b = order_key(ours), order_key(theirs)
    if a is not None and b is not None and len(a) == len(b) and b > a:
        return theirs
    return ours


def merge(base: Any, ours: Any, theirs: Any) -> Any:
    """Three-way merge of JSON values (dicts merged key by key, at any depth)."""
    if ours == base:
        return theirs
    if theirs in (base, ours):
        return ours
    if isinstance(ours, dict) and isinstance(theirs, dict):
        old = base if isinstance(base, dict) else {}
        merged: dict[str, Any] = {}
        for key in dict.fromkeys([*theirs, *ours]):
            value = merge(
                old.get(key, _MISSING), ours.get(key, _MISSING), theirs.get(key, _MISSING)
            )
            if value is not _MISSING:
                merged[key] = value
        return merged
    return newer(ours, theirs)


def merge_messages(
    base: dict[str, Any] | None, ours: dict[str, Any], theirs: dict[str, Any] | None
) -> dict[str, Any]:
    """The messages to store: ``ours`` (this process's copy, which it last saved as ``base``;
    None = never saved: nothing of ``theirs`` is taken as deleted) merged over ``theirs``
    (as stored now)."""
    if base is None:
        base = {}
    merged = merge(base, dict(ours), dict(theirs or {}))
    return dict(merged) if isinstance(merged, dict) else dict(ours)
