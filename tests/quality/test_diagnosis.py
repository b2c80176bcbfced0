"""The diagnosis of a run (horserace.quality.diagnosis): each named mutant, taken as the
implementation under test, is found as the leading cause of its own failures, with its
rule; without it in the library the rule of its failures' first differences still leads
for most; crashes and errors are never causes; a cause survives the stream.

The runs are made in process: each fixture's input answered by ``horserace serve``'s
reply function with the mutant's engine, judged as the runner judges an answer."""

from __future__ import annotations

import functools
from typing import Any

import pytest

from horserace.conformance.messages import RunRequest
from horserace.conformance.runner import Outcome, evaluate, with_twin
from horserace.conformance.server import reply
from horserace.corpus.fixture import Fixture
from horserace.corpus.status import Status
from horserace.engine.hand import Hand
from horserace.quality.diagnosis import Diagnoser, Diagnosis, rank
from horserace.quality.mutants import MUTANTS
from tests.helpers import bundled_corpus


def _fixtures() -> list[Fixture]:
    return [fx for fx in bundled_corpus().fixtures if not fx.deprecated]


def _outcome(engine: type[Hand], fx: Fixture) -> Outcome:
    """The outcome of one fixture against ``engine``, as the runner would judge it."""
    request = RunRequest(f"{fx.id}/1", fx.kind, fx.input, dict(fx.ruleset.readings)).to_json()
    answer = reply(request, engine=engine, every_reading=True)
    assert answer is not None and not hasattr(answer, "kinds")
    status, differences, message, refused_at = evaluate(fx, answer, False)
    outcome = Outcome(fx, status, message, differences, refused_at=refused_at)
    if hasattr(answer, "at") and fx.kind == "illegal":
        outcome.refusal = answer  # type: ignore[assignment]  # reply()'s message object in place of its JSON record
        twin_input = fx.twin_input
        if twin_input is not None:
            from horserace.conformance.runner import _twin_of

            twin_answer = reply(RunRequest(f"{fx.id}/1/twin", "illegal", twin_input, None).to_json(), engine=engine)
            outcome = with_twin(outcome, _twin_of(twin_answer), False)  # type: ignore[arg-type]  # reply() gives None only for a stop
    if status is Status.FAIL or status is Status.REJECTED or status is Status.NOT_REJECTED:
        outcome.observations = getattr(answer, "observations", None)
    return outcome


#: One library for the module: what each deviation answers each fixture is replayed once.
LIBRARY = Diagnoser()


@functools.cache
def _records(name: str) -> tuple[dict[str, Any], ...]:
    engine = MUTANTS[name].engine
    return tuple(_outcome(engine, fx).record() for fx in _fixtures())


def _diagnosed(name: str, library: Diagnoser) -> dict[str, Diagnosis | None]:
    by_id = {fx.id: fx for fx in _fixtures()}
    out: dict[str, Diagnosis | None] = {}
    for record in _records(name):
        found = library.diagnose(by_id[record["id"]], record)
        if found is not None:
            out[record["id"]] = found
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_each_mutant_leads_its_own_diagnosis_under_its_rule(name):
    mutant = MUTANTS[name]
    diagnoses = _diagnosed(name, LIBRARY)
    assert diagnoses, f"{name} fails no fixture"
    causes = rank(diagnoses)
    lead = causes.lines[0]
    assert lead.rule == mutant.rule, [(line.rule, line.count) for line in causes.lines]
    named = [n for n, _, _ in lead.deviations]
    assert name in named or any(MUTANTS[n].rule == mutant.rule for n in named)
    assert not causes.failures  # a mutant answers every fixture


@pytest.mark.slow
def test_without_itself_in_the_library_most_mutants_still_lead_with_their_rule():
    """Leave one out: the mutant is an unknown bug; its failures are attributed by their
    first differences and by the other deviations (the house rules among them).  Run
    over the 22 misreadings, each then the bug of an implementation that no named
    deviation describes.  Measured: 18 lead with their rule.  The four others each read
    as a neighbouring rule whose broader deviation reproduces their failures too: a
    continuation denied only to the opening tile (HR-OPEN-2) or only to a tile drawn
    earlier (HR-TURN-3), and a zero count that continues (HR-CREDIT-1), as HR-TURN-1; an
    exact target (HR-MATCH-1) as HR-MATCH-2."""
    led = []
    for name, mutant in ((n, m) for n, m in MUTANTS.items() if m.family == "misreading"):
        others = LIBRARY.without(name)
        causes = rank(_diagnosed(name, others), deviation_rules={m.name: m.rule for m in MUTANTS.values()})
        if causes.lines and causes.lines[0].rule == mutant.rule:
            led.append(name)
    assert len(led) >= 18, sorted({n for n, m in MUTANTS.items() if m.family == "misreading"} - set(led))


def test_the_greedy_cover_takes_the_deviation_that_explains_most_and_keeps_firm_causes():
    from horserace.corpus.attribution import Cause

    firm = Cause("HR-SETTLE-3", "first difference: credits", ("credits", 0), "credits")
    generic = Cause("HR-COUNT-1", "first difference: sum", ("steps", 0, "sum"), "sum")
    diagnoses: dict[str, Diagnosis | None] = {
        "A": Diagnosis(generic, exact=("x",)),
        "B": Diagnosis(generic, exact=("x", "y")),
        "C": Diagnosis(generic, first=("y",)),
        "D": Diagnosis(firm, exact=("x",)),  # a firm cause of another rule: x may not take it
        "E": None,
    }
    causes = rank(diagnoses, {"F": ("crash", "boom")}, deviation_rules={"x": "HR-COUNT-3", "y": "HR-COUNT-2"})
    lines = {line.rule: line for line in causes.lines}
    assert set(lines["HR-COUNT-3"].fixtures) == {"A", "B"}
    assert lines["HR-COUNT-3"].deviations == (("x", 2, 2),)
    assert set(lines["HR-COUNT-2"].fixtures) == {"C"}
    assert lines["HR-SETTLE-3"].fixtures == ("D",) and lines["HR-SETTLE-3"].by_difference == 1
    assert causes.lines[0].rule == "HR-COUNT-3"  # the most fixtures first
    assert [(f.status, f.fixtures) for f in causes.failures] == [("crash", ("F",))]
    assert causes.undiagnosed == ("E",)
    assert all(line.rule != "crash" for line in causes.lines)


def test_a_diagnosis_survives_the_stream():
    records = _records("unstarted-branch-counted")
    failing = next(r for r in records if r["status"] == "fail")
    fx = next(fx for fx in _fixtures() if fx.id == failing["id"])
    found = Diagnoser().diagnose(fx, failing)
    assert found is not None and "unstarted-branch-counted" in found.exact
    assert Diagnosis.from_record(found.to_record()) == found
