"""Which hand picture each hand message shows, so an unchanged picture is neither rendered
nor uploaded again.

Most updates of a hand message leave its tiles as they were — a claim window opens (only the
buttons change), the player passes, an alert episode ends — so the picture the message
already carries is kept (an edit without ``attachments`` keeps them) instead of a new render
in the picture workers and a new upload.

A message's picture is known only from a send or edit that carried it and finished while no
other change of that message's picture was under way: two overlapping picture edits may
reach Discord in either order, so after them the picture is unknown and the next update
renders and uploads it again. An edit that failed leaves it unknown too.
"""

from __future__ import annotations

import contextlib
from collections.abc import Hashable, Iterator

#: messages remembered (the oldest are forgotten first: they are renders, not the truth)
SHOWN_LIMIT = 8192


class ShownPictures:
    """Message id → the picture model (a frozen :class:`render.HandPicture`) it shows."""

    def __init__(self, limit: int = SHOWN_LIMIT) -> None:
        self.limit = limit
        self._shown: dict[int, Hashable] = {}
        #: message id → picture changes under way
        self._changing: dict[int, int] = {}
        #: messages with two picture changes under way at once (their order is unknown)
        self._overlapped: set[int] = set()

    def shows(self, message_id: int, picture: Hashable | None) -> bool:
        """Whether the message is known to show exactly ``picture`` now (never while a
        change of its picture is under way)."""
        return (
            picture is not None
            and message_id not in self._changing
            and self._shown.get(message_id) == picture
        )

    def note(self, message_id: int, picture: Hashable | None) -> None:
        """A message just sent with ``picture`` (None: without one, or not known)."""
        self._shown.pop(message_id, None)
        if picture is not None and message_id not in self._changing:
            self._remember(message_id, picture)

    @contextlib.contextmanager
    def changing(self, message_id: int, picture: Hashable | None) -> Iterator[None]:
        """Around an edit that sets the message's picture to ``picture`` (None: removes it,
        or an edit whose picture is not known): afterwards the message is known to show
        ``picture`` when the edit succeeded and overlapped no other change."""
        self._shown.pop(message_id, None)
        under_way = self._changing.get(message_id, 0)
        if under_way:
            self._overlapped.add(message_id)
        self._changing[message_id] = under_way + 1
        succeeded = False
        try:
            yield
            succeeded = True
        finally:
            left = self._changing[message_id] - 1
            if left:
                self._changing[message_id] = left
            else:
                del self._changing[message_id]
                overlapped = message_id in self._overlapped
                self._overlapped.discard(message_id)
                if succeeded and not overlapped and picture is not None:
                    self._remember(message_id, picture)

    def forget(self, message_id: int) -> None:
        """The message is not kept up to date any more."""
        self._shown.pop(message_id, None)

    def _remember(self, message_id: int, picture: Hashable) -> None:
        self._shown[message_id] = picture
        while len(self._shown) > self.limit:
            del self._shown[next(iter(self._shown))]
