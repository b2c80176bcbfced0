"""The fuzzer's scenarios, in process (no implementation process): every kind is a valid
fixture under every bundled ruleset, the target included; illegal scenarios reach every
rule of the order of checks; matches carry their scores to the end; layouts write ports
and tiles as input may; and each kind shrinks to a minimal, valid finding.  Judged in
process against the mutants, the scenarios of the first seeds tell every one of them
from the reference engine."""

from __future__ import annotations

from collections import Counter

import pytest

from horserace.conformance.runner import Outcome
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import GENERATORS, SCENARIO_KINDS
from horserace.corpus.illegal_actions import CHECKS
from horserace.corpus.loader import load_paths
from horserace.corpus.observers import check_scenario
from horserace.corpus.replay import replay_fixture
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.engine.tiles import NAMES
from horserace.quality.fuzz import Plan, finding_of, scenarios, write_finding
from horserace.quality.mutants import MUTANTS
from horserace.quality.shrink import Judge, Shrunk, disagrees, shrink, with_input
from horserace.resources.rulesets import bundled

CANONICAL_ONLY = {name: (reading,) for name, reading in CANONICAL.readings.items()}
EVERY_READING = dict(VARIANT_FIELDS)


def in_process(engine: type[Hand]) -> Judge:
    """Judge fixtures against ``engine`` in this process, as an implementation would be."""

    def run(fixtures: list[Fixture]) -> list[Outcome]:
        results = [replay_fixture(fx, engine=engine) for fx in fixtures]
        return [Outcome(r.fixture, r.status, r.message, r.differences) for r in results]

    return run


@pytest.mark.parametrize("name", sorted(bundled()))
def test_every_kind_is_a_valid_fixture_under_every_ruleset(name):
    named = bundled()[name]
    plan = Plan(rulesets=(named,))
    for seed in range(8):  # every table twice
        for scenario in scenarios(seed, plan, CANONICAL_ONLY):
            fx = scenario.fixture
            check_scenario(fx)
            assert replay_fixture(fx).status == "pass", (scenario.kind, seed)
            assert fx.variants == named.ruleset.readings  # the readings it was generated under
            if "target" in fx.input:
                assert fx.input["target"] == named.ruleset.target


def test_readings_are_drawn_among_those_declared_and_named_by_each_fixture():
    seen = {name: Counter() for name in VARIANT_FIELDS}
    for seed in range(40):
        (scenario,) = scenarios(seed, Plan(kinds=("hand",)), EVERY_READING)
        for name, reading in scenario.fixture.variants.items():
            seen[name][reading] += 1
        assert scenario.fixture.input["target"] == 61
    assert all(set(counts) == set(VARIANT_FIELDS[name]) for name, counts in seen.items())
    (only,) = scenarios(0, Plan(kinds=("hand",)), CANONICAL_ONLY)
    assert only.fixture.variants == CANONICAL.readings


def test_the_seatings_go_in_turn():
    tables = [scenarios(seed, Plan(kinds=("settlement",)), CANONICAL_ONLY)[0].seating for seed in range(8)]
    assert tables == [*SEATINGS, *SEATINGS]


def test_illegal_scenarios_reach_every_rule_of_the_order_of_checks():
    one_branch = Ruleset.from_readings(branch_use="one")
    rules: Counter[str] = Counter()
    for seed in range(300):
        ruleset = one_branch if seed % 2 else CANONICAL
        doc = GENERATORS["illegal"](seed, SEATINGS[seed % 4], ruleset)
        fx = Fixture.observed(doc, "(test)", 0)
        check_scenario(fx)  # the rejection is at the last action
        assert replay_fixture(fx).status == "pass"
        rules[fx.expected["rule"]] += 1
    assert set(rules) == {check.rule for check in CHECKS}


def test_matches_carry_scores_to_the_end_of_the_match():
    reasons, crossed, openers_by_lot, started_above_zero = Counter(), 0, 0, 0
    for seed in range(60):
        fx = Fixture.observed(GENERATORS["match"](seed, SEATINGS[seed % 4], CANONICAL), "(test)", 0)
        hands = fx.expected["hands"]
        started_above_zero += any(fx.input["scores"])
        for before, following in zip(hands, fx.input["hands"][1:], strict=False):
            end = before["events"][-1]
            assert end["event"] == "hand-end"
            openers_by_lot += end["next_opener"] is None  # after a block: a lot
            assert end["next_opener"] in (None, following["opener"])  # else the last tile's player
        last = hands[-1]["events"]
        assert last[-1]["event"] == "match-end"  # every generated match ends within MAX_HANDS here
        reasons[last[-2]["reason"]] += 1
        crossed += last[-2]["reason"] != "match"  # a settlement took a side over the target
    assert reasons["match"] and crossed and openers_by_lot and started_above_zero
    assert max(len(GENERATORS["match"](s, SEATINGS[0], CANONICAL)["input"]["hands"]) for s in range(10)) > 2


def test_layouts_are_written_as_input_may_write_them():
    mirrored = high_first = 0
    for seed in range(60):
        fx = Fixture.observed(GENERATORS["layout"](seed, SEATINGS[0], CANONICAL), "(test)", 0)
        steps = fx.input["steps"]
        mirrored += sum(step.get("port") in ("linear-b", "branch-b") for step in steps)
        high_first += sum(step["tile"] not in NAMES for step in steps)
        assert replay_fixture(fx).status == "pass"  # observed canonically all the same
    assert mirrored and high_first


@pytest.mark.parametrize(
    ("mutant", "kind"),
    [
        ("exact-target", "match"),
        ("drawn-tile-continues", "hand"),
        ("branches-before-linear", "illegal"),
        ("branches-before-linear", "layout"),
        ("branches-before-linear", "perft"),
        ("round-each-opponent", "settlement"),
    ],
)
def test_each_kind_shrinks_to_a_minimal_valid_finding(mutant, kind, tmp_path):
    run = in_process(MUTANTS[mutant].engine)
    plan = Plan(kinds=(kind,))
    found = next(
        (s, o)
        for seed in range(200)
        for s in scenarios(seed, plan, CANONICAL_ONLY)
        if disagrees(o := run([s.fixture])[0])
    )
    scenario, outcome = found
    small = shrink(
        Shrunk(scenario.fixture, outcome), run, seed=scenario.seed, seating=scenario.seating, ruleset=scenario.ruleset
    )
    finding = finding_of(scenario, small)
    assert disagrees(small.outcome)
    assert (
        all(a <= b for a, b in zip(finding.size.values(), finding.original_size.values(), strict=True))
        or kind == "layout"
    )
    if kind == "play" or kind in ("hand", "match"):
        assert finding.size["hands"] == 1
        placements = small.fixture.input["hands"][0]["placements"]
        if placements:  # one placement fewer agrees
            shorter = with_input(
                small.fixture,
                {**small.fixture.input, "hands": [{**small.fixture.input["hands"][0], "placements": placements[:-1]}]},
            )
            assert not disagrees(run([shorter])[0])
    if kind == "layout":
        assert finding.size["steps"] == 1
    write_finding(finding, small.fixture, ["the-mutant"], tmp_path)
    corpus = load_paths([tmp_path])
    assert corpus.errors == [] and replay_fixture(corpus.fixtures[0]).status == "pass"


def test_the_first_seeds_tell_every_mutant_from_the_reference_engine():
    batch = [s for seed in range(60) for s in scenarios(seed, Plan(), CANONICAL_ONLY)]
    found = {}
    for name, mutant in MUTANTS.items():
        run = in_process(mutant.engine)
        found[name] = next((s.kind for s in batch if disagrees(run([s.fixture])[0])), None)
    assert None not in found.values(), [n for n, k in found.items() if k is None]
    assert set(found.values()) >= {"hand", "match", "settlement", "layout"}


def test_the_cli_knows_every_scenario_kind():
    from horserace.cli.commands.fuzz import KINDS

    assert KINDS == SCENARIO_KINDS
