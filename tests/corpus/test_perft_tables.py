"""The perft tables (scenarios/generated/perft/, written by tools/perft_tables.py): the
reference engine's counts for fixed deals of two, three and four players and a
partnership, kept as generated fixtures outside the default corpus, and held to a
second implementation, examples/python/horse_race.py (written from the spec alone),
through the protocol under the canonical readings, on as many of each table's depths as
50,000 nodes allow, the deepest first, so they are not the engine's word alone."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from horserace.conformance.runner import Options, run
from horserace.corpus.loader import corpus_files, load_paths
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.engine.ruleset import CANONICAL
from horserace.resources.paths import default_corpus
from tests.perft_oracle import perft_by_replay

ROOT = Path(__file__).resolve().parents[2]
TABLES = ROOT / "scenarios" / "generated" / "perft"
EXAMPLE = [sys.executable, str(ROOT / "examples" / "python" / "horse_race.py")]
#: The nodes a table is cross-checked to, its depths in order (CI's budget).
CROSS_CHECKED_NODES = 50_000


@pytest.fixture(scope="module")
def tables():
    loaded = load_paths([TABLES])
    assert loaded.errors == []
    by_file: dict[str, list] = {}
    for fx in loaded.fixtures:
        by_file.setdefault(Path(fx.file).name, []).append(fx)
    return {name: sorted(fixtures, key=lambda fx: fx.input["depth"]) for name, fixtures in by_file.items()}


def test_a_table_for_each_seating_and_the_bench_deal(tables):
    seatings = {(fx.input["seats"], fx.input["mode"]) for fixtures in tables.values() for fx in fixtures}
    assert seatings == {(2, "individual"), (3, "individual"), (4, "individual"), (4, "partnership")}
    assert "k5n2p7-deal.yaml" in tables
    for name, fixtures in tables.items():
        assert [fx.input["depth"] for fx in fixtures] == list(range(1, len(fixtures) + 1)), name
        assert len(fixtures) >= 11, f"{name}: a table goes as deep as a few seconds of counting reach"
        assert all(fx.origin == "generated" and fx.kind == "perft" and fx.applies_under(CANONICAL) for fx in fixtures)


def test_the_tables_are_outside_the_default_corpus(tables, corpus):
    """A default conform, replay, coverage, mutants or export run loads the bundled
    corpus: the rule-text fixtures and the files of generated/ itself, not the folders in
    it; so the tables are never sent by default, and coverage counts what it counted."""
    table_ids = {fx.id for fixtures in tables.values() for fx in fixtures}
    assert table_ids.isdisjoint(fx.id for fx in corpus.fixtures)
    root = default_corpus()
    assert {p.relative_to(root).parts[0] for p in corpus_files(root)} <= {"rule-text", "generated"}
    assert all(p.parent.name != "perft" for p in corpus_files(root))
    assert {fx.origin for fx in corpus.fixtures} == {"rule-text"}
    # Their IDs are taken all the same: no hand-written fixture may reuse one.
    from horserace.corpus.ids import taken_ids

    assert table_ids <= taken_ids()


def cross_checked(fixtures: list) -> list:
    """The depths of a table checked within the budget: the deepest that fits, then each
    shallower one while the nodes still add up to no more than the budget."""
    chosen, nodes = [], 0
    for fx in sorted(fixtures, key=lambda fx: -fx.input["depth"]):
        if nodes + fx.expected["nodes"] <= CROSS_CHECKED_NODES:
            chosen.append(fx)
            nodes += fx.expected["nodes"]
    return chosen


@pytest.mark.slow
def test_the_python_example_counts_what_the_tables_hold(tables, monkeypatch):
    monkeypatch.setenv("HORSERACE_EXAMPLE_CORRECT", "1")  # its deliberate error is in the settlement anyway
    chosen = [fx for fixtures in tables.values() for fx in cross_checked(fixtures)]
    assert all(max(fx.input["depth"] for fx in cross_checked(fixtures)) >= 9 for fixtures in tables.values())
    # Two example processes side by side: the tables are independent, and CI has two cores.
    outcomes = run(EXAMPLE, chosen, Options(timeout=120, jobs=2))
    assert [(o.fixture.id, o.status) for o in outcomes if o.status is not Status.PASS] == []
    assert len(outcomes) == len(chosen)


@pytest.mark.slow
def test_the_reference_engine_replays_the_tables_green(tables):
    fixtures = [fx for table in tables.values() for fx in table]
    assert [fx.id for fx in fixtures if replay_fixture(fx).status is not Status.PASS] == []


def test_the_shallow_depths_are_what_the_replay_based_perft_counts(tables):
    """A quick check of every table against the replay-based perft of 0.1 (the oracle
    of tests/perft_oracle.py), to 2,000 nodes a table."""
    for fixtures in tables.values():
        for fx in fixtures:
            if fx.expected["nodes"] > 2_000:
                break
            assert perft_by_replay(fx.input, fx.ruleset) == fx.expected, fx.id
