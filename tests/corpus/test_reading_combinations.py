"""The reference engine, fixed to each of the 64 combinations of the register's readings
(six fields of two readings each), replays the corpus and the generated perft tables in
process: every fixture that holds under the combination (it names no other reading of a
field) passes. A fixture that holds only under some readings of a field it does not
name is caught here; the loader checks each reading one at a time from the canonical
ones, this test every combination."""

from __future__ import annotations

import itertools

import pytest

from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset
from horserace.resources.paths import default_corpus, perft_tables_dir

pytestmark = pytest.mark.slow

COMBINATIONS = [
    dict(zip(VARIANT_FIELDS, readings, strict=True)) for readings in itertools.product(*VARIANT_FIELDS.values())
]


@pytest.fixture(scope="module")
def fixtures():
    # the perft tables' folder is under the corpus's folder: each fixture once, by ID
    loaded = load_paths([default_corpus(), perft_tables_dir()], check=False).fixtures
    return list({fx.id: fx for fx in loaded if not fx.deprecated}.values())


def test_there_are_64_combinations():
    assert len(VARIANT_FIELDS) == 6
    assert all(len(readings) == 2 for readings in VARIANT_FIELDS.values())
    assert len(COMBINATIONS) == 64


def test_every_fixture_passes_under_every_combination_it_holds_under(fixtures):
    assert sum(fx.origin == "generated" and fx.kind == "perft" for fx in fixtures) == 59
    failures: list[str] = []
    runs = 0
    applies: dict[str, int] = {fx.id: 0 for fx in fixtures}
    for readings in COMBINATIONS:
        ruleset = Ruleset.from_readings(readings)
        for fx in fixtures:
            if not fx.applies_under(ruleset):
                continue
            applies[fx.id] += 1
            runs += 1
            result = replay_fixture(fx, ruleset)
            if result.status is not Status.PASS:
                named = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "canonical"
                failures.append(f"{fx.id} under {named}: {result.status} {result.message}")
    assert not failures, "\n".join(failures[:40])
    # every fixture holds under some combination: 2 ** (6 - the fields it names)
    assert all(count == 2 ** (6 - len(fx.variants)) for fx in fixtures for count in [applies[fx.id]])
    assert runs == sum(applies.values())
