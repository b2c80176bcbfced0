"""Typed errors.  Every error names the spec rule it enforces (see spec/rules.md).

All of them subclass :class:`ValueError`, as python-chess does for illegal moves, so a
caller that only wants "bad input" can catch ``ValueError``.
"""

from __future__ import annotations


class HorseRaceError(ValueError):
    """Base class: a message plus the ID of the rule that was broken."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(f"{message} ({rule})")
        self.message = message
        self.rule = rule


class NotationError(HorseRaceError):
    """A tile, port or seat written in a form the spec does not define."""


class SetupError(HorseRaceError):
    """A deal, seating or score state that no game of Horse Race can have."""


class IllegalAction(HorseRaceError):
    """An action the rules forbid at this point of the hand.

    ``rule`` is the first rule broken, in the order of checks that spec/rules.md gives.
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message, rule=rule)
        self.seat = seat
