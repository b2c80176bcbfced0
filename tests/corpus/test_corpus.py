"""The bundled corpus inside the project's own test run: one test item per fixture,
named by its ID, replayed against the reference engine under the fixture's readings."""

from __future__ import annotations

import json

import pytest

from horserace.corpus.replay import replay_fixture
from tests.helpers import bundled_corpus


def test_corpus_loads_without_errors(corpus):
    assert not corpus.errors, "\n".join(e.render() for e in corpus.errors)


# Parametrising needs the fixtures at collection time, before the ``corpus`` fixture can
# run: the cached loader behind that fixture gives the same, once-parsed corpus.
@pytest.mark.parametrize("fixture", bundled_corpus().fixtures, ids=lambda fx: fx.id)
def test_fixture(fixture):
    result = replay_fixture(fixture)
    details = "\n".join(
        f"  {d.path}: expected {json.dumps(d.expected)}, got {json.dumps(d.actual)}" for d in result.differences
    )
    assert result.status == "pass", (
        f"{fixture.file}:{fixture.line} ({fixture.primary_rule}) {result.message}\n{details}"
    )


def test_coverage_has_no_gaps(corpus):
    from horserace.corpus.rule_coverage import coverage_report

    gaps = coverage_report(corpus.fixtures)["gaps"]
    assert not gaps, gaps


def test_corpus_is_correct_under_every_reading(corpus):
    """Under a ruleset with any one reading of the register, every fixture that holds
    under it passes, and the rest are skipped."""
    from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset

    for field, readings in VARIANT_FIELDS.items():
        for reading in readings:
            ruleset = Ruleset.from_readings(**{field: reading})
            statuses = {replay_fixture(fx, ruleset).status for fx in corpus.fixtures}
            assert statuses <= {"pass", "skip"}, (field, reading, statuses)
