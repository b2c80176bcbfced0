"""Comparison of expected and actual observations, field by field
(spec/fixture-format.md: keys absent from ``expected`` are not compared).

A :class:`Difference` says where it is as a structured path (:attr:`Difference.at`, keys
and list indices), so that a report finds the step or event in dispute without parsing
text; :attr:`Difference.path` is the same place written for people
(``steps[3].sum``, ``steps (length)``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, TypeAlias

__all__ = ["MISSING", "Difference", "PathStep", "diff", "format_path"]

#: One step into observations: a key of an object or an index of a list.
PathStep: TypeAlias = str | int

MISSING = "<missing>"


def format_path(at: tuple[PathStep, ...]) -> str:
    """A structured path for people: ``("steps", 3, "sum")`` is ``steps[3].sum``."""
    text = ""
    for step in at:
        if isinstance(step, int):
            text += f"[{step}]"
        else:
            text = f"{text}.{step}" if text else step
    return text


@dataclass(frozen=True)
class Difference:
    """One field whose expected and actual values differ; with ``length``, the list at
    ``at`` has another length (``expected`` and ``actual`` are then the lengths)."""

    at: tuple[PathStep, ...]
    expected: Any
    actual: Any
    length: bool = False

    @property
    def path(self) -> str:
        return format_path(self.at) + (" (length)" if self.length else "")

    @property
    def field(self) -> str | None:
        """The name of the field in dispute: the last key of the path."""
        return next((step for step in reversed(self.at) if isinstance(step, str)), None)

    def to_dict(self) -> dict[str, Any]:
        """For people and ``--format json``: the place as text."""
        return {"path": self.path, "expected": self.expected, "actual": self.actual}

    def to_record(self) -> dict[str, Any]:
        """For the result stream: the place as text and as the structured path that the
        reports read (``at``, ``length``)."""
        return {
            "path": self.path,
            "at": list(self.at),
            "length": self.length,
            "expected": self.expected,
            "actual": self.actual,
        }


def diff(
    expected: Any, actual: Any, at: tuple[PathStep, ...] = (), out: list[Difference] | None = None
) -> list[Difference]:
    """Field-by-field differences; keys absent from ``expected`` are not compared."""
    out = [] if out is None else out
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            sub = (*at, key)
            if key not in actual:
                out.append(Difference(sub, value, MISSING))
            else:
                diff(value, actual[key], sub, out)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(Difference(at, len(expected), len(actual), length=True))
        for i, (e, a) in enumerate(zip(expected, actual)):
            diff(e, a, (*at, i), out)
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        out.append(Difference(at, expected, actual))  # (1 == True in Python, not here)
    return out
