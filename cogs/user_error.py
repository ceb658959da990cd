"""The exception a command raises to show its message to the user (see :mod:`cogs.errors`).

It lives in a module of its own, never loaded as an extension: ``load_extension`` executes
an extension module afresh, so a class defined in ``cogs.errors`` would exist twice when
some module imported ``cogs.errors`` before the extension was loaded, and the error handler
would not recognise the other copy.
"""

from __future__ import annotations

from discord import app_commands


class UserError(app_commands.AppCommandError):
    """An error whose message is meant for the user (bilingual text welcome)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message
