"""Errors of the scoring desk's input (``/mahjong score``): each names the command option, the
bad part of what was typed, what is wrong and examples that work (re-exported by
:mod:`services.desk`)."""

from __future__ import annotations

from collections.abc import Iterable

from engine import variants
from engine.refusal import Reason, Refusal


class DeskInputError(Refusal, ValueError):
    """Input the desk cannot read. ``field`` is the command option (``hand``, ``bao``, …),
    ``bad`` the part of the user's text at fault ('' when it is the whole value or missing),
    ``problem`` what is wrong (a translatable :class:`~engine.refusal.Reason`, or English),
    ``examples`` what would work. A refusal of the one root (key ``errors.desk_input``)."""

    key = "errors.desk_input"

    def __init__(
        self, field: str, problem: str, bad: str = "", examples: Iterable[str] = ()
    ) -> None:
        Refusal.__init__(self, problem, field=field, bad=bad)
        self.field = field
        self.problem = problem
        self.bad = bad
        self.examples = tuple(examples)
        shown = f" — examples: {' · '.join(self.examples)}" if self.examples else ""
        self.args = (f"{field}: {problem}{shown}",)


def variant_title(variant: str) -> Reason:
    """A variant's name in a reason (``上饶麻将`` / ``Shangrao``): the engine's own text."""
    title = variants.get(variant).title
    return Reason(f"engine.{title.id}", title.en)


def desk_why(name: str, english: str, /, **params: object) -> Reason:
    """What is wrong with a desk input: key ``errors.desk.<name>`` (English as given)."""
    return Reason(f"errors.desk.{name}", english, **params)


class HandInputError(DeskInputError):
    """The hand string cannot be read (wraps :class:`engine.notation.NotationError`)."""


class VariantInputError(DeskInputError):
    """An unknown variant."""


class WinInputError(DeskInputError):
    """An unknown way of winning."""


class BaoInputError(DeskInputError):
    """A 宝 (or indicator) tile that cannot be read, or one that is missing or out of place."""


class FlagInputError(DeskInputError):
    """An unknown flag."""


class OptionInputError(DeskInputError):
    """A ``key=value`` rule option that cannot be read or that the variant does not take."""


class CountInputError(DeskInputError):
    """``flown`` / ``kong_draws`` / ``flowers`` out of range."""


class TableInputError(DeskInputError):
    """The rest of the table (``discarder``, ``feeder``, ``others``, ``streak``) cannot be
    read, or names a rule the variant does not have."""
