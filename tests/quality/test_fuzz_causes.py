"""What a fuzz finding says is wrong, and how small it is (issue 20, "fuzz findings
labelled by kind"): its rule is that of its first difference, through the map the
conformance reports use (:mod:`horserace.corpus.attribution`), and the named deviation
that reproduces it exactly is named; a layout finding keeps only the setup placements
its bug needs; a settlement is minimised in seats, tiles, pips and scores; a shrink
keeps the cause it started from.  In process: each mutant is judged as its server
would answer (tests/quality/served.py), so these are quick."""

from __future__ import annotations

import pytest

from horserace.corpus.fixture import Fixture
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL
from horserace.engine.tiles import NAMES, PIPS, TILE_COUNT, parse_tile
from horserace.errors import InputError
from horserace.quality.diagnosis import Diagnoser
from horserace.quality.fuzz import Finding, Plan, Scenario, finding_cause, finding_of, same_cause, scenarios
from horserace.quality.mutants import MUTANTS
from horserace.quality.shrink import Shrunk, disagrees, shrink, with_input
from tests.quality.served import combined, through_protocol

CANONICAL_ONLY: dict[str, tuple[str, ...]] = {name: (reading,) for name, reading in CANONICAL.readings.items()}


def first_found(engine: type[Hand], kind: str, seeds: int = 300) -> tuple[Scenario, Shrunk]:
    """The first scenario of ``kind`` on which ``engine`` disagrees, and its outcome."""
    run = through_protocol(engine)
    for seed in range(seeds):
        (scenario,) = scenarios(seed, Plan(kinds=(kind,)), CANONICAL_ONLY)
        (outcome,) = run([scenario.fixture])
        if disagrees(outcome):
            return scenario, Shrunk(scenario.fixture, outcome)
    raise AssertionError(f"no {kind} scenario of the first {seeds} seeds tells it from the reference engine")


def found_and_shrunk(engine: type[Hand], kind: str) -> tuple[Finding, Shrunk]:
    """The first finding of ``kind``, shrunk as the fuzzer shrinks it (for the same cause)."""
    scenario, found = first_found(engine, kind)
    cause = finding_cause(found.fixture, found.outcome)
    small = shrink(
        found,
        through_protocol(engine),
        seed=scenario.seed,
        seating=scenario.seating,
        ruleset=scenario.ruleset,
        keep=same_cause(cause, str(found.outcome.status)),
    )
    return finding_of(scenario, small, found=found), small


# ---------------------------------------------------------------------- the rule of a finding
def test_an_opening_rule_difference_is_filed_under_the_opening_rule():
    """The issue saw it written as HR-TURN-1: the old table read a refusal with nothing
    observed, and a continuation that differs, as the turn's rule whatever tile it was."""
    finding, _ = found_and_shrunk(MUTANTS["opener-denied-continuation"].engine, "hand")
    assert finding.outcome == "fail" and finding.size == {"hands": 1, "placements": 1}
    assert finding.rule == "HR-OPEN-2"
    assert finding.deviation == "opener-denied-continuation"
    assert finding.cause is not None and "HR-OPEN-2" in (finding.cause["rule"], *finding.cause["alternatives"])


@pytest.mark.parametrize("mutant", ["unstarted-branch-counted", "interior-double-counted"])
def test_a_layout_counting_bug_is_filed_under_the_counting_rule_it_breaks(mutant):
    """The issue saw HR-COUNT-1 where HR-COUNT-3 broke (the old table: any contribution
    that differs is the count; a double's whole one HR-COUNT-2)."""
    finding, _ = found_and_shrunk(MUTANTS[mutant].engine, "layout")
    assert finding.rule == "HR-COUNT-3" and finding.cause is not None and finding.cause["rule"] == "HR-COUNT-3"
    assert finding.deviation == mutant
    assert finding.cause["field"] == "contributions"


def test_a_match_refused_as_a_whole_is_filed_under_the_next_opener():
    """An implementation that opens the next hand otherwise refuses a match's later deal
    without naming an action.  The map points at HR-OPEN-3, not firm (it filed it under
    the match's own HR-MATCH-1, firm), and the deviation that refuses the same input
    reproduces it (the diagnosis had none reproduce a refusal without an index); shrunk,
    it is a hand whose hand-end names another next opener."""
    engine = MUTANTS["next-seat-opens-after-domino"].engine
    _, found = first_found(engine, "match")
    assert found.outcome.status == "rejected" and found.outcome.refused_at is None
    cause = finding_cause(found.fixture, found.outcome)
    assert cause is not None and cause.rule == "HR-OPEN-3" and not cause.firm
    diagnosis = Diagnoser().diagnose(found.fixture, found.outcome.record())
    assert diagnosis is not None and "next-seat-opens-after-domino" in diagnosis.exact
    finding, _ = found_and_shrunk(engine, "match")
    assert finding.size["hands"] == 1 and finding.cause is not None and finding.cause["field"] == "next_opener"
    assert finding.rule == "HR-OPEN-3" and finding.deviation == "next-seat-opens-after-domino"


def test_a_crash_has_no_rule():
    from horserace.conformance.runner import Outcome
    from horserace.corpus.status import Status

    (scenario,) = scenarios(0, Plan(kinds=("layout",)), CANONICAL_ONLY)
    crashed = Shrunk(scenario.fixture, Outcome(scenario.fixture, Status.CRASH, "it died"))
    finding = finding_of(scenario, crashed)
    assert finding.rule == "" and finding.cause is None and finding.deviations == []


# ---------------------------------------------------------------------- layouts
def _without(fx: Fixture, i: int) -> Fixture | None:
    setup = [dict(entry) for entry in fx.input["setup"]]
    del setup[i]
    if i == 0 and setup:
        setup[0] = {"tile": setup[0]["tile"]}
    try:
        return with_input(fx, {**fx.input, "setup": setup})
    except InputError:
        return None


@pytest.mark.parametrize(
    ("mutant", "was", "placements"),
    [
        ("unstarted-branch-counted", 12, 3),  # a spinner, its two linear sides: one of them the step
        ("branches-before-linear", 7, 2),  # a spinner and a tile on one linear side
    ],
)
def test_a_layout_finding_keeps_only_the_setup_placements_its_bug_needs(mutant, was, placements):
    """The issue saw 12 setup placements kept where 3 show the counting bug, and 7 for
    the spinner's early branches (the shrinker only moved steps into the setup)."""
    engine = MUTANTS[mutant].engine
    finding, small = found_and_shrunk(engine, "layout")
    assert finding.seed == 0 and finding.original_size == {"steps": 13, "setup": 0}
    assert finding.size == {"steps": 1, "setup": placements - 1}, f"the shrinker of 0.1 kept {was}"
    run = through_protocol(engine)
    for i in range(len(small.fixture.input.get("setup", []))):
        smaller = _without(small.fixture, i)
        # Each one is needed: without it the layout is not one, or the engine agrees.
        assert smaller is None or not disagrees(run([smaller])[0]), i


# ---------------------------------------------------------------------- settlements
def _pips(fx: Fixture) -> int:
    return sum(PIPS[parse_tile(t)] for hand in fx.input["hands"] for t in hand)


def _one_smaller(fx: Fixture) -> list[Fixture]:
    """Every settlement one step smaller: a tile out of a hand that keeps one, a tile
    given fewer pips, a side's score to zero."""
    inp = fx.input
    used = {parse_tile(t) for hand in inp["hands"] for t in hand}
    out = []
    for seat, hand in enumerate(inp["hands"]):
        for i, tile in enumerate(hand):
            if len(hand) > 1:
                out.append(
                    {**inp, "hands": [h[:i] + h[i + 1 :] if s == seat else h for s, h in enumerate(inp["hands"])]}
                )
            for other in range(TILE_COUNT):
                if other not in used and PIPS[other] < PIPS[parse_tile(tile)]:
                    hands = [list(h) for h in inp["hands"]]
                    hands[seat][i] = NAMES[other]
                    out.append({**inp, "hands": hands})
    out += [
        {**inp, "scores": [0 if s == side else v for s, v in enumerate(inp["scores"])]}
        for side in range(len(inp["scores"]))
        if inp["scores"][side]
    ]
    return [with_input(fx, candidate) for candidate in out]


@pytest.mark.parametrize(
    ("mutant", "was", "now"),
    [
        # Each opponent's 1 and 2 pips rounded on their own: 0 + 0, not (1 + 2 + 2) // 5 = 1.
        (
            "round-each-opponent",
            {"seats": 3, "tiles": 10, "pips": 62, "score": 60},
            {"seats": 3, "tiles": 2, "pips": 3, "score": 0},
        ),
        # A tie of 3 pips each: the "not minimised" (tiles alone cannot shrink a tie).
        (
            "tied-winners-split",
            {"seats": 2, "tiles": 6, "pips": 50, "score": 60},
            {"seats": 2, "tiles": 2, "pips": 6, "score": 0},
        ),
    ],
)
def test_a_settlement_finding_is_minimised(mutant, was, now):
    engine = MUTANTS[mutant].engine
    finding, small = found_and_shrunk(engine, "settlement")
    assert finding.original_size == was and finding.size == now
    assert finding.table == f"{now['seats']} players"
    run = through_protocol(engine)
    assert not any(disagrees(o) for o in run(_one_smaller(small.fixture)))  # no one step smaller still disagrees


def test_a_shrink_keeps_the_cause_it_started_from():
    """Two bugs at once, through two seams: each opponent's pips rounded on their own
    (HR-SETTLE-1) and a target reached only exactly (HR-MATCH-1).  Shrunk for any
    disagreement, the rounding finding of seed 1 slips to the other bug (the scores
    near the target kept, the match no longer won); shrunk for its cause, it stays a
    rounding finding, scores and all made small."""
    engine = combined("round-each-opponent", "exact-target")
    run = through_protocol(engine)
    (scenario,) = scenarios(1, Plan(kinds=("settlement",)), CANONICAL_ONLY)
    found = Shrunk(scenario.fixture, run([scenario.fixture])[0])
    cause = finding_cause(found.fixture, found.outcome)
    assert cause is not None and cause.rule == "HR-SETTLE-1"
    where = {"seed": scenario.seed, "seating": scenario.seating, "ruleset": scenario.ruleset}
    slipped = shrink(found, run, **where)
    assert finding_cause(slipped.fixture, slipped.outcome).rule in ("HR-MATCH-1", "HR-MATCH-2")
    kept = shrink(found, run, keep=same_cause(cause, str(found.outcome.status)), **where)
    assert finding_cause(kept.fixture, kept.outcome).rule == "HR-SETTLE-1"
    assert max(kept.fixture.input["scores"]) == 0 and _pips(kept.fixture) < _pips(found.fixture)
