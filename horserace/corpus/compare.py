"""Comparison of expected and actual observations, field by field
(spec/fixture-format.md: keys absent from ``expected`` are not compared)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["MISSING", "Difference", "diff"]


@dataclass
class Difference:
    path: str
    expected: Any
    actual: Any

    def to_dict(self) -> dict[str, Any]:
        return {"path": self.path, "expected": self.expected, "actual": self.actual}


MISSING = "<missing>"


def diff(expected: Any, actual: Any, path: str = "", out: list[Difference] | None = None) -> list[Difference]:
    """Field-by-field differences; keys absent from ``expected`` are not compared."""
    out = [] if out is None else out
    if isinstance(expected, dict) and isinstance(actual, dict):
        for key, value in expected.items():
            sub = f"{path}.{key}" if path else key
            if key not in actual:
                out.append(Difference(sub, value, MISSING))
            else:
                diff(value, actual[key], sub, out)
    elif isinstance(expected, list) and isinstance(actual, list):
        if len(expected) != len(actual):
            out.append(Difference(f"{path} (length)", len(expected), len(actual)))
        for i, (e, a) in enumerate(zip(expected, actual)):
            diff(e, a, f"{path}[{i}]", out)
    elif expected != actual or isinstance(expected, bool) != isinstance(actual, bool):
        out.append(Difference(path, expected, actual))  # (1 == True in Python, not here)
    return out
