"""The causes of a run's failures, as every report leads with them (spec/protocol.md,
"How a failure is diagnosed"): the diagnosis of each failing fixture, from its record in
the stream (written by ``conform``) or, for a stream written before diagnoses were
(suite 0.1.0), made now from the record's input, readings and observations; ranked by
:func:`horserace.quality.diagnosis.rank`."""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from horserace.corpus.status import PASSING, Status
from horserace.quality.diagnosis import (
    CauseLine,
    Causes,
    Diagnoser,
    Diagnosis,
    failure_to_answer,
    fixture_of_record,
    rank,
)
from horserace.quality.mutants import MUTANTS
from horserace.resources.documents import load_rules

__all__ = ["CAUSES_SHOWN", "FixtureCause", "cause_text", "diagnosis_of", "failure_text", "fixture_cause", "run_causes"]

#: The causes the terminal and the summaries show; the rest are counted.
CAUSES_SHOWN = 5


@functools.lru_cache(maxsize=1)
def _diagnoser() -> Diagnoser:
    return Diagnoser()


def diagnosis_of(record: Mapping[str, Any]) -> Diagnosis | None:
    """The diagnosis of one result record: the one the stream holds, else one made now
    (``None`` for a record that is not a failure of the rules, or lacks what a
    diagnosis reads)."""
    stored = record.get("diagnosis")
    if isinstance(stored, Mapping):
        return Diagnosis.from_record(stored)
    if record.get("status") in PASSING and record.get("status") != Status.XFAIL:
        return None
    fx = fixture_of_record(record)
    if fx is None:
        return None
    try:
        return _diagnoser().diagnose(fx, record)
    except Exception:  # noqa: BLE001  (a hand-edited stream the engine cannot replay, in any way: no diagnosis, not a crash of the report)
        return None


def run_causes(results: Sequence[Mapping[str, Any]]) -> Causes:
    """The causes of a run: every failing fixture's diagnosis, ranked; the failures to
    answer (crash, timeout, error) apart."""
    diagnoses: dict[str, Diagnosis | None] = {}
    failures: dict[str, tuple[str, str]] = {}
    for record in results:
        fid = str(record.get("id"))
        status = record.get("status")
        if status in PASSING and status != Status.XFAIL:
            continue
        answered = failure_to_answer(record)
        if answered is not None:
            failures[fid] = answered
            continue
        if status == Status.XPASS:
            continue
        diagnoses[fid] = diagnosis_of(record)
    return rank(diagnoses, failures, order=list(load_rules()))


@dataclass(frozen=True)
class FixtureCause:
    """One failing fixture's cause as the run's diagnosis counts it: the rule of its
    cause line, the deviation that names it (if one does), the deviations that reproduce
    it exactly, and the difference or refusal it rests on."""

    rule: str
    deviation: str | None
    exact: tuple[str, ...]
    basis: str


def fixture_cause(record: Mapping[str, Any], causes: Causes) -> FixtureCause | None:
    """The cause of ``record``'s fixture as ``causes`` (its run's) counts it, so that a
    failure's own section and the diagnosis at the top of the report agree."""
    found = diagnosis_of(record)
    assigned = causes.assignment.get(str(record.get("id")))
    if found is None or (assigned is None and found.cause is None):
        return None
    rule, deviation = assigned if assigned is not None else (found.cause.rule if found.cause else "", None)
    basis = found.cause.basis if found.cause is not None else ""
    return FixtureCause(rule, deviation, found.exact, basis)


def _deviation_words(name: str) -> str:
    mutant = MUTANTS.get(name)
    return f"{name} ({mutant.description})" if mutant else name


def cause_text(line: CauseLine, title: str) -> str:
    """One cause in a line of words: ``HR-COUNT-3 Interior doubles ...: 30 failing
    fixtures; matches deviation X (...) on 28 (12 exactly), 2 by their first difference``."""
    n = line.count
    words = [f"{line.rule} {title}: {n} failing fixture{'s' if n != 1 else ''}"]
    for name, count, exactly in line.deviations:
        how = "exactly" if exactly == count else f"{exactly} exactly" if exactly else "at the first difference"
        words.append(f"matches deviation {_deviation_words(name)} on {count} ({how})")
    if line.by_difference:
        if line.deviations:
            words.append(f"{line.by_difference} more by their first difference (no named deviation explains them)")
        else:
            words.append("by their first difference (no named deviation explains them)")
    return "; ".join(words)


def failure_text(status: str, count: int, example: str) -> str:
    """A line for the fixtures on which the implementation failed to answer."""
    what = {"crash": "crashed or broke the protocol", "timeout": "did not answer in time", "error": "answered error"}
    said = f": {example}" if example else ""
    shown = said if len(said) <= 160 else said[:157] + "..."
    return f"{status}: the implementation {what.get(status, status)} on {count} fixture{'s' if count != 1 else ''} (not counted against any rule){shown}"
