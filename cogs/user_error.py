"""The exception a command raises to show its message to the user (see :mod:`cogs.errors`).

It lives in a module of its own, never loaded as an extension: ``load_extension`` executes
an extension module afresh, so a class defined in ``cogs.errors`` would exist twice when
some module imported ``cogs.errors`` before the extension was loaded, and the error handler
would not recognise the other copy.
"""

from __future__ import annotations

from typing import Any

from discord import app_commands

from engine.refusal import Refusal


class UserError(app_commands.AppCommandError, Refusal):
    """A refusal raised by a command or a check, shown to the user in their language.

    ``UserError(key="errors.manage_only", **params)`` names a catalogue key (translated by
    :mod:`cogs.errors`); ``UserError(text)`` shows a text already in the user's language."""

    key = "errors.as_given"  # "{detail}": the text as given

    def __init__(self, message: str = "", /, *, key: str | None = None, **params: Any) -> None:
        if key is not None:
            self.key = key
        Refusal.__init__(self, message, **params)
        self.message = message or self.key
