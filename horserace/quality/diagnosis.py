"""The diagnosis of a conformance run: what is wrong, not which rules are cited most.

For each failing fixture (spec/protocol.md, "How a failure is diagnosed"):

- its **cause**: the rule its first difference concerns, in dependency order
  (:mod:`horserace.corpus.attribution`);
- the **named deviations** of the reference engine (the mutants and the house rules of
  :mod:`horserace.quality.mutants`) that reproduce the implementation's answer: *exactly*
  (the same differences from the expected values, the same refusal), or at its *first*
  difference (the deviation departs from the reference where the implementation does,
  and as it does, though something else differs later: a second bug).

For a run, :func:`rank` gives the causes: each failing fixture is given to the deviation
that explains the most failures still unexplained (greedily: the fewest deviations that
explain the most failures), else to the rule of its first difference; the causes are the
rules so found, most failures first.  Crashes, timeouts and errors are counted apart and
never against a rule.

A diagnosis is made from a result record of the stream (the fixture's input, readings and
expected values are in the record of every failure), so that ``horserace report`` diagnoses
a stream written before diagnoses were (suite 0.1.0) exactly as ``conform`` would have.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from horserace.conformance.runner import Outcome
from horserace.corpus.attribution import OVERLAPS, Cause, cause_of, first_difference, place_of
from horserace.corpus.compare import Difference, diff
from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import observe
from horserace.corpus.status import IMPLEMENTATION_ERRORS, Status
from horserace.errors import HorseRaceError, ScenarioError
from horserace.quality.mutants import MUTANTS, Mutant

__all__ = [
    "CauseLine",
    "Causes",
    "Diagnoser",
    "Diagnosis",
    "FailureLine",
    "differences_of",
    "fixture_of_record",
    "rank",
]

#: Outcomes that are a failure of the rules, which a diagnosis explains.
_DIAGNOSED = frozenset({Status.FAIL, Status.REJECTED, Status.NOT_REJECTED, Status.UNCONFIRMED})


@dataclass(frozen=True)
class Diagnosis:
    """Why one fixture failed: its cause, and the deviations that reproduce the answer
    exactly or at its first difference (by name, in the registry's order)."""

    cause: Cause | None
    exact: tuple[str, ...] = ()
    first: tuple[str, ...] = ()

    @property
    def explained_by(self) -> tuple[str, ...]:
        return (*self.exact, *self.first)

    def to_record(self) -> dict[str, Any]:
        return {
            "cause": self.cause.to_record() if self.cause else None,
            "deviations": {"exact": list(self.exact), "first": list(self.first)},
        }

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Diagnosis:
        cause = record.get("cause")
        deviations = record.get("deviations") or {}
        return cls(
            Cause.from_record(cause) if isinstance(cause, Mapping) and cause.get("rule") else None,
            tuple(str(n) for n in deviations.get("exact") or ()),
            tuple(str(n) for n in deviations.get("first") or ()),
        )


@dataclass(frozen=True)
class _Answer:
    """What an engine answers one input: observations, or a refusal at ``at``."""

    refused: bool
    observations: dict[str, Any] | None = None
    at: int | None = None


def fixture_of_record(record: Mapping[str, Any]) -> Fixture | None:
    """The fixture a failure's record describes (its input, readings and expected
    values), or ``None`` for a record that lacks them (a pass, a skip)."""
    if not isinstance(record.get("input"), dict) or not isinstance(record.get("expected"), dict):
        return None
    rules = record.get("rules") or [record.get("rule")]
    return Fixture(
        id=str(record.get("id")),
        description=str(record.get("description") or ""),
        kind=str(record.get("kind")),
        rules=[str(r) for r in rules if r],
        origin="rule-text",
        why=str(record.get("why") or ""),
        input=record["input"],
        expected=record["expected"],
        variants=dict(record.get("variants") or {}),
        file=str(record.get("file") or ""),
        line=int(record.get("line") or 0),
        twin={"why": "", "input": record["twin_input"]} if isinstance(record.get("twin_input"), dict) else None,
    )


def differences_of(record: Mapping[str, Any]) -> list[Difference]:
    """The differences of a result record as :class:`Difference` values (from their
    structured places, ``at``)."""
    out = []
    for d in record.get("differences") or []:
        if not isinstance(d, Mapping) or not isinstance(d.get("at"), list):
            continue
        out.append(
            Difference(
                tuple(d["at"]),
                d.get("expected"),
                d.get("actual"),
                length=bool(d.get("length")),
                item=d.get("item"),
                count=int(d.get("count") or 1),
                fields=tuple(str(f) for f in d.get("fields") or ()),
            )
        )
    return out


def _effective_status(record: Mapping[str, Any]) -> str:
    status = str(record.get("status"))
    return str(record.get("was") or status) if status == Status.XFAIL else status


class Diagnoser:
    """Diagnoses failures against a library of deviations (default: every named one),
    replaying each failing fixture once under each deviation."""

    def __init__(self, deviations: Iterable[Mutant] | None = None) -> None:
        self.deviations: tuple[Mutant, ...] = tuple(MUTANTS.values() if deviations is None else deviations)
        #: What each deviation answers each input: the same whatever the implementation,
        #: so kept for every run this diagnoser diagnoses (and the diagnosers it makes).
        self._answers: dict[tuple[str, str, str], _Answer | None] = {}

    def without(self, name: str) -> Diagnoser:
        """This library less one deviation, sharing what has been replayed."""
        other = Diagnoser([d for d in self.deviations if d.name != name])
        other._answers = self._answers
        return other

    def _answer(self, deviation: Mutant, fx: Fixture, twin: dict[str, Any] | None = None) -> _Answer | None:
        inp = fx.input if twin is None else twin
        # By what is replayed, not by the fixture's name: a shrunk finding and a stream of
        # an edited corpus keep an ID with another input.
        key = (deviation.name, fx.kind, json.dumps([inp, fx.variants], sort_keys=True, default=str))
        if key in self._answers:
            return self._answers[key]
        answer: _Answer | None
        try:
            observations = observe(fx.kind, inp, fx.variants, engine=deviation.engine)
        except ScenarioError as exc:
            # A refusal: of an action (``at``), or of the input as a whole (a position the
            # deviation cannot reach, as an implementation that names no action refuses it).
            answer = _Answer(True, at=exc.at)
        except (HorseRaceError, KeyError, TypeError, ValueError, IndexError, RecursionError):
            answer = None  # the deviation cannot play this input: it explains nothing
        else:
            if fx.kind == "illegal":
                at = observations.get("rejected_at")
                answer = _Answer(at is not None, observations, at)
            else:
                answer = _Answer(False, observations)
        self._answers[key] = answer
        return answer

    def record_of(self, outcome: Outcome) -> dict[str, Any]:
        """The stream's record of a runner's outcome, with its ``diagnosis`` where it is a
        failure of the rules (what ``conform`` writes)."""
        record = outcome.record()
        found = self.diagnose(outcome.fixture, record)
        if found is not None:
            record["diagnosis"] = found.to_record()
        return record

    def diagnose(self, fx: Fixture, record: Mapping[str, Any]) -> Diagnosis | None:
        """The diagnosis of one result record of ``fx`` (``None``: not a failure of the
        rules: a pass, a skip, an error, a crash or a timeout)."""
        status = _effective_status(record)
        if status not in _DIAGNOSED:
            return None
        differences = differences_of(record)
        twin = record.get("twin") if isinstance(record.get("twin"), Mapping) else {}
        twin_at = twin.get("at") if twin and twin.get("status") == "refused" else None
        cause = cause_of(fx, status, differences, refused_at=record.get("refused_at"), twin_refused_at=twin_at)
        exact, first = [], []
        for deviation in self.deviations:
            verdict = self._matches(deviation, fx, status, differences, record, twin_at)
            if verdict == "exact":
                exact.append(deviation.name)
            elif verdict == "first":
                first.append(deviation.name)
        return Diagnosis(cause, tuple(exact), tuple(first))

    def _matches(
        self,
        deviation: Mutant,
        fx: Fixture,
        status: str,
        differences: Sequence[Difference],
        record: Mapping[str, Any],
        twin_at: int | None,
    ) -> str | None:
        answer = self._answer(deviation, fx)
        if answer is None:
            return None
        if fx.kind == "illegal":
            return self._matches_illegal(deviation, fx, status, differences, answer, twin_at)
        return _matches_answer(fx, status, differences, record, answer)

    def _matches_illegal(
        self,
        deviation: Mutant,
        fx: Fixture,
        status: str,
        differences: Sequence[Difference],
        answer: _Answer,
        twin_at: int | None,
    ) -> str | None:
        """Whether the deviation's answer to an illegal fixture matches the implementation's
        failure: it accepts the action too, refuses the legal twin at the same action, or
        refuses the same earlier action."""
        expected_at = fx.expected.get("rejected_at")
        if status == Status.NOT_REJECTED:
            return "exact" if not answer.refused else None
        if status == Status.UNCONFIRMED:
            twin = fx.twin_input
            if not answer.refused or answer.at != expected_at or twin is None or twin_at is None:
                return None
            on_twin = self._answer(deviation, fx, twin)
            return "exact" if on_twin is not None and on_twin.refused and on_twin.at == twin_at else None
        refused_at = next((d.actual for d in differences if d.at == ("rejected_at",)), None)
        if refused_at is None:
            return None
        return "exact" if answer.refused and answer.at == refused_at else None


def _matches_answer(
    fx: Fixture, status: str, differences: Sequence[Difference], record: Mapping[str, Any], answer: _Answer
) -> str | None:
    """Whether the deviation's answer to another fixture matches the implementation's:
    the same refusal, the same differences ("exact"), or the same first one ("first")."""
    if status == Status.REJECTED:
        if answer.refused:
            return "exact" if answer.at == record.get("refused_at") else None
        if differences and answer.observations is not None:
            return "first" if _same_first(fx, differences, diff(fx.canonical_expected, answer.observations)) else None
        return None
    if answer.refused or answer.observations is None:
        return None
    theirs = diff(fx.canonical_expected, answer.observations)
    if not theirs:
        return None
    if _records(theirs) == _records(differences):
        return "exact"
    return "first" if _same_first(fx, differences, theirs) else None


def _records(differences: Sequence[Difference]) -> list[dict[str, Any]]:
    return [{k: v for k, v in d.to_record().items() if k != "text"} for d in differences]


def _same_first(fx: Fixture, ours: Sequence[Difference], theirs: Sequence[Difference]) -> bool:
    """The deviation departs from the reference where the implementation does, and as it
    does: the same first place, and the same differences there."""
    mine, other = first_difference(fx.kind, ours), first_difference(fx.kind, theirs)
    if mine is None or other is None:
        return False
    place = place_of(fx.kind, mine)
    if place_of(fx.kind, other) != place:
        return False
    here = [d for d in ours if place_of(fx.kind, d) == place]
    there = [d for d in theirs if place_of(fx.kind, d) == place]
    return _records(here) == _records(there)


# ---------------------------------------------------------------------- a run's causes
@dataclass(frozen=True)
class CauseLine:
    """One cause of a run's failures: a rule, the fixtures attributed to it, and how:
    by named deviation (``deviations``: name, fixtures, of which exactly) or by their
    first difference alone (``by_difference``)."""

    rule: str
    fixtures: tuple[str, ...]
    deviations: tuple[tuple[str, int, int], ...] = ()
    by_difference: int = 0
    #: The first difference (or refusal) of the first fixture, in words.
    example: str = ""

    @property
    def count(self) -> int:
        return len(self.fixtures)

    def to_dict(self) -> dict[str, Any]:
        return {
            "rule": self.rule,
            "fixtures": list(self.fixtures),
            "count": self.count,
            "deviations": [{"name": n, "fixtures": c, "exactly": e} for n, c, e in self.deviations],
            "by_difference": self.by_difference,
            "example": self.example,
        }


@dataclass(frozen=True)
class FailureLine:
    """Fixtures on which the implementation failed to answer: ``crash``, ``timeout`` or
    ``error``; never counted against a rule."""

    status: str
    fixtures: tuple[str, ...]
    example: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "status": self.status,
            "fixtures": list(self.fixtures),
            "count": len(self.fixtures),
            "example": self.example,
        }


@dataclass(frozen=True)
class Causes:
    """A run's diagnosis: the causes, most failures first; the implementation's failures
    to answer; the failing fixtures with no diagnosis (none, unless a stream lacks them)."""

    lines: tuple[CauseLine, ...]
    failures: tuple[FailureLine, ...] = ()
    undiagnosed: tuple[str, ...] = ()
    deviation_rules: Mapping[str, str] = field(default_factory=dict)
    #: Each failing fixture's cause as the run's diagnosis gives it: the rule it is
    #: counted under and the deviation that names it (``None``: its first difference).
    assignment: Mapping[str, tuple[str, str | None]] = field(default_factory=dict)

    @property
    def explained(self) -> int:
        return sum(line.count for line in self.lines)

    def to_dict(self) -> dict[str, Any]:
        return {
            "causes": [line.to_dict() for line in self.lines],
            "failures_to_answer": [line.to_dict() for line in self.failures],
            "undiagnosed": list(self.undiagnosed),
        }


def rank(
    diagnoses: Mapping[str, Diagnosis | None],
    failures: Mapping[str, tuple[str, str]] | None = None,
    *,
    deviation_rules: Mapping[str, str] | None = None,
    order: Sequence[str] = (),
) -> Causes:
    """The causes of a run from the diagnosis of each failing fixture (by fixture ID;
    ``None``: a failure without one) and its failures to answer (``{id: (status,
    message)}``).  ``deviation_rules``: the rule of each deviation by name (default: the
    registry's); ``order``: the rules in the spec's order, to break ties."""
    rules_of = dict(deviation_rules) if deviation_rules is not None else {m.name: m.rule for m in MUTANTS.values()}
    names, covers, exact = _deviations_explaining(diagnoses, rules_of)
    chosen = _fewest_deviations(diagnoses, names, covers, exact, rules_of)
    groups = _groups_by_rule(diagnoses, chosen, rules_of)
    lines = _cause_lines(diagnoses, groups, chosen, names, exact, order)
    failure_lines = _failure_lines(failures or {})
    undiagnosed = tuple(fid for fid, d in diagnoses.items() if d is None or (fid not in chosen and d.cause is None))
    assignment = {fid: (line.rule, chosen.get(fid)) for line in lines for fid in line.fixtures}
    return Causes(tuple(lines), failure_lines, undiagnosed, rules_of, assignment)


def _cause_lines(
    diagnoses: Mapping[str, Diagnosis | None],
    groups: dict[str, list[str]],
    chosen: dict[str, str],
    names: list[str],
    exact: dict[str, set[str]],
    order: Sequence[str],
) -> list[CauseLine]:
    """One line per cause's rule, with the deviations that explain its fixtures (the
    most first), biggest cause first, then in the spec's ``order``."""
    position = {rule: i for i, rule in enumerate(order)}
    lines = []
    for rule, fids in groups.items():
        tally: dict[str, list[str]] = {}
        for fid in fids:
            if fid in chosen:
                tally.setdefault(chosen[fid], []).append(fid)
        deviations = tuple(
            (name, len(ids), len(set(ids) & exact.get(name, set())))
            for name, ids in sorted(tally.items(), key=lambda kv: (-len(kv[1]), names.index(kv[0])))
        )
        first = diagnoses[fids[0]]
        example = first.cause.basis if first is not None and first.cause is not None else ""
        lines.append(CauseLine(rule, tuple(fids), deviations, sum(1 for f in fids if f not in chosen), example))
    lines.sort(key=lambda line: (-line.count, position.get(line.rule, len(position)), line.rule))
    return lines


def _failure_lines(failures: Mapping[str, tuple[str, str]]) -> tuple[FailureLine, ...]:
    """The failures to answer by status, the most frequent first, each with its first message."""
    by_status: dict[str, list[tuple[str, str]]] = {}
    for fid, (status, message) in failures.items():
        by_status.setdefault(status, []).append((fid, message))
    return tuple(
        FailureLine(status, tuple(f for f, _ in items), items[0][1])
        for status, items in sorted(by_status.items(), key=lambda kv: (-len(kv[1]), kv[0]))
    )


def _deviations_explaining(
    diagnoses: Mapping[str, Diagnosis | None], rules_of: Mapping[str, str]
) -> tuple[list[str], dict[str, set[str]], dict[str, set[str]]]:
    """The deviations that explain some fixture under its own rule (in the order first
    seen), the fixtures each explains, and those each reproduces exactly."""
    covers: dict[str, set[str]] = {}
    exact: dict[str, set[str]] = {}
    names: list[str] = []
    direct: dict[str, set[str]] = {}  # fixtures a deviation explains under its own rule, or a generic one
    for fid, d in diagnoses.items():
        if d is None:
            continue
        for name in d.explained_by:
            rule = rules_of.get(name, "")
            if d.cause is not None and not d.cause.admits(rule):
                continue  # the first difference names its rule; a deviation of another rule does not override it
            if name not in covers:
                names.append(name)
            covers.setdefault(name, set()).add(fid)
            if d.cause is None or d.cause.generic or d.cause.rule == rule:
                direct.setdefault(name, set()).add(fid)
        for name in d.exact:
            exact.setdefault(name, set()).add(fid)
    # A deviation that explains fixtures only through a rule overlapping theirs (a tie's
    # credit, HR-SETTLE-3, reproduced by a rounding of HR-SETTLE-1) is no evidence of its
    # own: several misreadings give the same credits in a tie.  It must explain some
    # fixture under its own rule too.
    return [n for n in names if direct.get(n)], covers, exact


def _fewest_deviations(
    diagnoses: Mapping[str, Diagnosis | None],
    names: list[str],
    covers: dict[str, set[str]],
    exact: dict[str, set[str]],
    rules_of: Mapping[str, str],
) -> dict[str, str]:
    """The deviation chosen for each fixture, greedily: the one explaining the most
    fixtures left, then reproducing the most exactly, then the first seen."""
    remaining = {fid for fid, d in diagnoses.items() if d is not None}
    chosen: dict[str, str] = {}
    while remaining:
        best = max(
            (n for n in names if covers[n] & remaining and n in rules_of),
            key=lambda n: (len(covers[n] & remaining), len(exact.get(n, set()) & remaining), -names.index(n)),
            default=None,
        )
        if best is None:
            break
        for fid in covers[best] & remaining:
            chosen[fid] = best
        remaining -= covers[best]
    return chosen


def _groups_by_rule(
    diagnoses: Mapping[str, Diagnosis | None], chosen: dict[str, str], rules_of: Mapping[str, str]
) -> dict[str, list[str]]:
    """The fixtures of each cause's rule: the chosen deviation's rule, else the first
    difference's. Changes ``chosen`` where a fixture goes back to its own rule."""
    groups: dict[str, list[str]] = {}
    for fid, d in diagnoses.items():
        if d is None:
            continue
        if fid in chosen:
            rule = rules_of[chosen[fid]]
        elif d.cause is not None:
            rule = d.cause.rule
        else:
            continue
        groups.setdefault(rule, []).append(fid)
    # A fixture that a deviation took from the rule of its first difference to a smaller
    # cause of an overlapping rule goes back to its own rule's cause, the larger: one
    # misreading of overlapping rules is one cause, not two.
    size = {rule: len(fids) for rule, fids in groups.items()}
    for rule, fids in list(groups.items()):
        for fid in list(fids):
            d = diagnoses[fid]
            if d is None or d.cause is None or fid not in chosen:
                continue
            own = d.cause.rule
            if (
                own != rule
                and rule in (*OVERLAPS.get(own, ()), *d.cause.alternatives)
                and size.get(own, 0) > size[rule]
            ):
                fids.remove(fid)
                groups[own].append(fid)
                chosen.pop(fid)
    return {rule: fids for rule, fids in groups.items() if fids}


def failure_to_answer(record: Mapping[str, Any]) -> tuple[str, str] | None:
    """``(status, message)`` of a record whose implementation failed to answer (crash,
    timeout, error, also as an expected failure), else ``None``."""
    status = _effective_status(record)
    if status in IMPLEMENTATION_ERRORS:
        return status, str(record.get("message") or "")
    return None
