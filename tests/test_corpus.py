"""The bundled corpus inside the project's own test run: one test item per fixture,
named by its ID, replayed against the reference engine under the fixture's readings."""

from __future__ import annotations

import json

import pytest

from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture

CORPUS = load_paths()


def test_corpus_loads_without_errors():
    assert not CORPUS.errors, "\n".join(e.render() for e in CORPUS.errors)


@pytest.mark.parametrize("fixture", CORPUS.fixtures, ids=[fx.id for fx in CORPUS.fixtures])
def test_fixture(fixture):
    result = replay_fixture(fixture)
    details = "\n".join(
        f"  {d.path}: expected {json.dumps(d.expected)}, got {json.dumps(d.actual)}" for d in result.differences
    )
    assert result.status == "pass", f"{fixture.file}:{fixture.line} ({fixture.primary_rule}) {result.message}\n{details}"


def test_coverage_has_no_gaps():
    from horserace.corpus.rule_coverage import coverage_report

    gaps = coverage_report(CORPUS.fixtures)["gaps"]
    assert not gaps, gaps


def test_corpus_is_correct_under_every_reading():
    """Under a ruleset with any one reading of the register, every fixture that holds
    under it passes, and the rest are skipped."""
    from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset

    for field, readings in VARIANT_FIELDS.items():
        for reading in readings:
            ruleset = Ruleset.from_readings(**{field: reading})
            statuses = {replay_fixture(fx, ruleset).status for fx in CORPUS.fixtures}
            assert statuses <= {"pass", "skip"}, (field, reading, statuses)
