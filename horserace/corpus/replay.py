"""Replay: a fixture's input through the reference engine in process
(:mod:`horserace.corpus.observers`), its observations compared with ``expected`` field by
field (:mod:`horserace.corpus.compare`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.compare import Difference, diff
from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import observe
from horserace.corpus.status import Status
from horserace.engine.hand import Hand
from horserace.engine.ruleset import Ruleset
from horserace.errors import ScenarioError

__all__ = ["Result", "replay_fixture"]


@dataclass
class Result:
    fixture: Fixture
    status: Status  #: pass, fail, error or skip
    differences: list[Difference] = field(default_factory=list)
    message: str = ""

    def to_dict(self) -> dict[str, Any]:
        fx = self.fixture
        return {
            "id": fx.id,
            "file": fx.file,
            "line": fx.line,
            "kind": fx.kind,
            "rule": fx.primary_rule,
            "rules": fx.rules,
            "status": str(self.status),
            "message": self.message,
            "differences": [d.to_dict() for d in self.differences],
        }


def replay_fixture(fx: Fixture, ruleset: Ruleset | None = None, *, engine: type[Hand] = Hand) -> Result:
    """Replay one fixture against the reference engine (or ``engine``, a variant or mutant
    of it): under its own readings, or, given a ``ruleset``, only if the fixture holds
    under it (else it is skipped)."""
    if fx.deprecated:
        return Result(fx, Status.SKIP, message=f"deprecated: {fx.deprecated}")
    if ruleset is not None and not fx.applies_under(ruleset):
        wanted = ", ".join(f"{k}={v}" for k, v in fx.variants.items())
        return Result(fx, Status.SKIP, message=f"holds only under {wanted}")
    readings = fx.variants if ruleset is None else ruleset.readings
    try:
        observed = observe(fx.kind, fx.input, readings, engine=engine)
    except ScenarioError as exc:
        return Result(fx, Status.ERROR, message=str(exc))
    differences = diff(fx.canonical_expected, observed)
    return Result(fx, Status.FAIL if differences else Status.PASS, differences)
