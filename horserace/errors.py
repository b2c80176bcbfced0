"""The one error hierarchy of horserace.

Every error horserace raises on purpose is a :class:`HorseRaceError`, in one of four
branches; the command line maps each branch to one exit code
(:func:`horserace.cli.exitcodes.exit_code_for`, the table of docs/commands.md):

- :class:`RuleError` (a :class:`ValueError`, as python-chess's errors are): a tile, a
  deal or an action that the rules forbid; ``.rule`` is the spec rule broken
  (spec/rules.md).  :class:`NotationError`, :class:`SetupError`, :class:`IllegalAction`.
- :class:`InputError` (a :class:`ValueError`): a file or value given to horserace that
  cannot be used, with its place (``file:line:column: message``).  :class:`FixtureError`
  (fixture files), :class:`RulesetError` (ruleset files), :class:`ExpectationsError`
  (expectations files), :class:`ScenarioError` (a scenario input no game can have).
- :class:`ImplementationError`: the implementation under test failed.
  :class:`ImplementationUnusable` (no run possible), :class:`ImplementationFailure` (one
  exchange crashed or timed out).
- :class:`UsageError`: the command line names something that does not exist, or gives a
  value out of range.

And outside the four, :class:`EnvironmentFailure`: the machine failed (a full disk, a
permission refused while writing), not anything the user gave; and
:class:`NothingToUndo` (an :class:`IndexError`, as ``list.pop`` of an empty list raises):
a program asked a hand to undo an action it does not keep, a defect of that program.

A usage error that names something unknown offers its close matches, made in one way
everywhere (:func:`close_to`, :func:`did_you_mean`): a command, an option, a fixture or
rule ID, a reading, a perft table.

This module imports nothing of horserace: every room may raise these.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Sequence
from typing import Any

__all__ = [
    "EnvironmentFailure",
    "ExpectationsError",
    "FixtureError",
    "HorseRaceError",
    "IllegalAction",
    "ImplementationError",
    "ImplementationFailure",
    "ImplementationUnusable",
    "InputError",
    "NotationError",
    "NothingToUndo",
    "RuleError",
    "RulesetError",
    "ScenarioError",
    "SetupError",
    "UsageError",
    "close_to",
    "did_you_mean",
]


def close_to(word: str, known: Iterable[str], *, cutoff: float = 0.6, fold_case: bool = False) -> list[str]:
    """The words of ``known`` closest to ``word`` (a mistyped name), at most three, the
    closest first; ``fold_case``: compared in upper case (IDs), given as ``known`` spells
    them.  ``cutoff`` is :func:`difflib.get_close_matches`'s (0 to 1: how alike)."""
    names = list(dict.fromkeys(known))
    if not fold_case:
        return difflib.get_close_matches(word, names, n=3, cutoff=cutoff)
    by_upper = {name.upper(): name for name in names}
    return [by_upper[m] for m in difflib.get_close_matches(word.upper(), list(by_upper), n=3, cutoff=cutoff)]


def did_you_mean(close: Sequence[str]) -> str:
    """``did you mean A or B?``, or nothing when there is no close match."""
    return f"did you mean {' or '.join(close)}?" if close else ""


class HorseRaceError(Exception):
    """The root: every error horserace raises on purpose.  ``message`` is the text
    without decoration (no place, no rule)."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


# ---------------------------------------------------------------------- rules
class RuleError(HorseRaceError, ValueError):
    """Something the rules forbid; ``rule`` is the ID of the rule broken."""

    def __init__(self, message: str, *, rule: str) -> None:
        super().__init__(message)
        self.args = (f"{message} ({rule})",)
        self.rule = rule

    def __str__(self) -> str:
        return f"{self.message} ({self.rule})"


class NotationError(RuleError):
    """A tile, port or seat written in a form the spec does not define."""


class SetupError(RuleError):
    """A deal, seating or score state that no game of Horse Race can have."""


class IllegalAction(RuleError):
    """An action the rules forbid at this point of the hand.

    ``rule`` is the first rule broken, in the order of checks that spec/rules.md gives.
    """

    def __init__(self, message: str, *, rule: str, seat: int | None = None) -> None:
        super().__init__(message, rule=rule)
        self.seat = seat


# ---------------------------------------------------------------------- input
class InputError(HorseRaceError, ValueError):
    """A file or value given to horserace that cannot be used, with its place:
    ``file:line:column: message`` (``file: message`` where there is no position)."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        rule: str | None = None,
    ) -> None:
        super().__init__(message)
        self.file = file
        self.line = line
        self.column = column
        self.rule = rule
        self.args = (self.render(),)

    def where(self) -> str:
        if self.file is None:
            return ""
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        return where

    def detail(self) -> str:
        """The message with what is known beyond the place (the rule)."""
        return f"{self.message} ({self.rule})" if self.rule else self.message

    def render(self) -> str:
        where = self.where()
        return f"{where}: {self.detail()}" if where else self.detail()

    def __str__(self) -> str:
        return self.render()

    def to_dict(self) -> dict[str, Any]:
        return {"file": self.file, "line": self.line, "column": self.column, "message": self.message, "rule": self.rule}


class FixtureError(InputError):
    """A fixture file or fixture that cannot be used, with its place."""

    def __init__(
        self,
        message: str,
        *,
        file: str,
        line: int | None = None,
        column: int | None = None,
        fixture_id: str | None = None,
        rule: str | None = None,
    ) -> None:
        self.fixture_id = fixture_id
        super().__init__(message, file=file, line=line, column=column, rule=rule)

    def detail(self) -> str:
        who = f"fixture {self.fixture_id}: " if self.fixture_id else ""
        return who + super().detail()

    def to_dict(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "line": self.line,
            "column": self.column,
            "fixture": self.fixture_id,
            "message": self.message,
            "rule": self.rule,
        }


class RulesetError(FixtureError):
    """A ruleset file that cannot be used (it is read by the fixtures' strict loader, so
    its errors read the same)."""


class ExpectationsError(InputError):
    """An expectations file (``conform --expectations``) that cannot be used."""


class ScenarioError(InputError):
    """A fixture input that no game can have, or that breaks a rule where it says it is
    legal.  ``rule`` is the rule concerned; ``at`` the index of the refused action in the
    input's list, where there is one; ``path`` the offending value's place inside the
    fixture as keys and list indices (``("input", "hands", 0, "boneyard", 3)``; empty
    where none is known), so that the loader can give its ``line:column``."""

    def __init__(
        self, message: str, rule: str | None = None, at: int | None = None, *, path: tuple[str | int, ...] = ()
    ) -> None:
        self.at = at
        self.path = path
        super().__init__(message, rule=rule)


# ---------------------------------------------------------------------- the implementation under test
class ImplementationError(HorseRaceError):
    """The implementation under test failed."""


class ImplementationUnusable(ImplementationError):
    """The implementation cannot be run at all: it does not start, gives no valid
    handshake, or speaks another protocol version."""


class ImplementationFailure(ImplementationError):
    """One exchange with the implementation failed; ``outcome`` is ``crash`` or
    ``timeout``, ``stderr`` the tail of what it wrote there."""

    def __init__(self, outcome: str, message: str, stderr: str = "") -> None:
        super().__init__(message)
        self.outcome = outcome
        self.stderr = stderr


# ---------------------------------------------------------------------- programs
class NothingToUndo(HorseRaceError, IndexError):
    """:meth:`Hand.undo <horserace.engine.hand.Hand.undo>` with no action to take back:
    the hand was not made ``undoable``, or every action it kept is already undone."""


# ---------------------------------------------------------------------- usage
class UsageError(HorseRaceError):
    """The command line is wrong: a name or path that does not exist, a value out of
    range, a missing option."""


# ---------------------------------------------------------------------- the machine
class EnvironmentFailure(HorseRaceError):
    """The machine failed horserace, not the input or the implementation: a full disk, a
    file too large for its limit, a permission refused or a read-only file system while
    writing a report.  ``path`` is the file concerned, where there is one."""

    def __init__(self, message: str, path: str | None = None) -> None:
        super().__init__(message)
        self.path = path

    @classmethod
    def from_os_error(cls, exc: OSError, path: object, doing: str = "write") -> EnvironmentFailure:
        reason = exc.strerror or type(exc).__name__
        return cls(f"cannot {doing} {path}: {reason}", str(path))
