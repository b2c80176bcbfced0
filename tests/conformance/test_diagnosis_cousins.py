"""The diagnosis measured on engines of the suite's own making (tests/conformance/cousins/:
three cousins of Horse Race with realistic house rules or deliberate bugs, written from the
documents alone, each with its ground truth in NAME.bugs.json), against the goals of the
diagnosis (spec/protocol.md, "How a failure is diagnosed"):

- every departure that fails fixtures has its rule among the first k+2 causes, k the
  number of such departures; one that fails ten or more is among the first five;
- no rule the engine gets right is among the first five causes;
- crashes, timeouts and errors are never causes;
- each failing fixture is attributed to a rule one of its departures breaks.

These engines were seen while the diagnosis was built; engines it has not seen are the
real test (the notes of issue 20 give those figures)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.conformance.runner import Options, run
from horserace.quality.diagnosis import Diagnoser
from horserace.reports.causes import run_causes
from tests.helpers import bundled_corpus

pytestmark = pytest.mark.slow  # a process per engine, the whole corpus through each

COUSINS = Path(__file__).with_name("cousins")
NAMES = ("allfives", "muggins", "threebugs")


def _truth(name: str) -> dict:
    return json.loads((COUSINS / f"{name}.bugs.json").read_text())


def _causes(name: str):
    fixtures = [fx for fx in bundled_corpus().fixtures if not fx.deprecated]
    diagnoser = Diagnoser()
    records = [
        diagnoser.record_of(o)
        for o in run([sys.executable, str(COUSINS / f"{name}.py")], fixtures, Options(timeout=30))
    ]
    return records, run_causes(records)


@pytest.mark.parametrize("name", NAMES)
def test_the_causes_of_a_cousin_are_its_departures(name):
    truth = _truth(name)
    by_departure = truth["conform"]["failing_fixtures_by_departure"]
    showing = {rule for rule, found in by_departure.items() if found["count"]}
    records, causes = _causes(name)
    ranked = [line.rule for line in causes.lines]
    k = len(showing)
    for rule in showing:
        assert rule in ranked[: k + 2], (rule, ranked)
        if by_departure[rule]["count"] >= 10:
            assert rule in ranked[:5], (rule, ranked)
    right = set(truth["correct_rules"])
    assert not right & set(ranked[:5]), ranked[:5]
    assert all(line.rule.startswith("HR-") for line in causes.lines)
    failing_to_answer = {r["id"] for r in records if r["status"] in ("crash", "timeout", "error")}
    assert not failing_to_answer & {f for line in causes.lines for f in line.fixtures}
    # Fixture by fixture: the rule given is one that a departure failing it breaks.  The
    # ground truth lists the fixtures each departure fails as it was before illegal
    # fixtures had legal twins; those that fail since (unconfirmed) are not in it.
    truth_of: dict[str, set[str]] = {}
    for rule, found in by_departure.items():
        for fid in found["fixtures"]:
            truth_of.setdefault(fid, set()).add(rule)
    given = {fid: line.rule for line in causes.lines for fid in line.fixtures if fid in truth_of}
    wrong = {fid: (rule, sorted(truth_of[fid])) for fid, rule in given.items() if rule not in truth_of[fid]}
    assert len(wrong) <= len(given) // 20, wrong  # measured: none
