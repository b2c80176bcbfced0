"""Replay: compare a fixture's expected observations with an implementation's, field by
field.  The reference engine is the default implementation (:mod:`horserace.scenario`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from horserace.fixtures import Fixture
from horserace.ruleset import Ruleset
from horserace.scenario import ScenarioError, observe
from horserace.tiles import NAMES, parse_tile

_TILE = re.compile(r"^\[\d\|\d\]$")
# How the canonical encoding sorts unordered collections (spec/fixture-format.md).
_SORT_KEYS: dict[str, Callable[[Any], Any]] = {
    "contributions": lambda d: (d.get("tile", ""), d.get("port", "")),
    "attachment_points": lambda d: (d.get("tile", ""), d.get("port", "")),
    "connections": lambda pair: (pair[0].get("tile", ""), pair[0].get("port", ""), pair[1].get("tile", "")),
    "tiles": lambda t: t,
    "spinners": lambda t: t,
}


def canonical(value: Any, key: str | None = None) -> Any:
    """Expected values in the canonical encoding: tiles low half first, the unordered
    collections of a layout snapshot sorted."""
    if isinstance(value, str) and _TILE.match(value):
        try:
            return NAMES[parse_tile(value)]
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        sort_key = _SORT_KEYS.get(key or "")
        if sort_key is not None:
            try:
                items.sort(key=sort_key)
            except (TypeError, AttributeError, IndexError, KeyError):
                pass
        return items
    return value


@dataclass
class Difference:
    path: str
    expected: Any
    actual: Any

    def to_dict(self) -> dict:
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


@dataclass
class Result:
    fixture: Fixture
    status: str  #: pass, fail, error, skip
    differences: list[Difference] = field(default_factory=list)
    message: str = ""

    def to_dict(self) -> dict:
        fx = self.fixture
        return {
            "id": fx.id, "file": fx.file, "line": fx.line, "kind": fx.kind, "rule": fx.primary_rule,
            "rules": fx.rules, "status": self.status, "message": self.message,
            "differences": [d.to_dict() for d in self.differences],
        }


def replay_fixture(fx: Fixture, ruleset: Ruleset | None = None) -> Result:
    """Replay one fixture against the reference engine: under its own readings, or, given
    a ``ruleset``, only if the fixture holds under it (else it is skipped)."""
    if fx.deprecated:
        return Result(fx, "skip", message=f"deprecated: {fx.deprecated}")
    if ruleset is not None and not fx.applies_under(ruleset):
        wanted = ", ".join(f"{k}={v}" for k, v in fx.variants.items())
        return Result(fx, "skip", message=f"holds only under {wanted}")
    readings = fx.variants if ruleset is None else ruleset.readings
    try:
        observed = observe(fx.kind, fx.input, readings)
    except ScenarioError as exc:
        return Result(fx, "error", message=str(exc))
    differences = diff(fx.canonical_expected, observed)
    return Result(fx, "fail" if differences else "pass", differences)


def matches(fx: Fixture, patterns: Iterable[str]) -> bool:
    """``--select``/``--deselect``: a fixture ID, a rule ID (any rule the fixture cites),
    a kind, or ``kind:NAME`` / ``rule:ID`` / ``id:ID``."""
    for p in patterns:
        scope, _, value = p.partition(":") if ":" in p else ("", "", p)
        if scope in ("", "id") and fx.id == value:
            return True
        if scope in ("", "rule") and value in fx.rules:
            return True
        if scope in ("", "kind") and fx.kind == value:
            return True
    return False


def select(fixtures: list[Fixture], include: list[str] | None, exclude: list[str] | None) -> list[Fixture]:
    chosen = [fx for fx in fixtures if not include or matches(fx, include)]
    return [fx for fx in chosen if not exclude or not matches(fx, exclude)]
