"""A summary's copy of a seat (:meth:`services.model.Seat.copy`) keeps every field."""

from __future__ import annotations

from dataclasses import fields

from services.model import Seat


def test_copy_keeps_every_field_and_is_its_own() -> None:
    seat = Seat(name="小明", user_id=42, ai=True, auto=True, level="advanced")
    assert all(getattr(seat, f.name) != f.default for f in fields(Seat))  # none left default
    copied = seat.copy()
    assert copied == seat and copied is not seat
    copied.auto = False
    assert seat.auto
