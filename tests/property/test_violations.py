"""Every condition of the order of checks (:meth:`Hand.violations`) agrees with the
actions themselves: its first rule is the one the action raises, it is empty exactly when
the action is accepted, and the condition an illegal action was made to break is among
those it names.  Over random play of every seating and every reading, judging random
actions of every kind before each action and after the hand's end, and over the fuzzer's
illegal scenarios (:mod:`horserace.corpus.illegal_actions`, one check of the order aimed
at in each).  The last tests show that the properties catch an evaluator broken as they
name (tests/breakages.py)."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from horserace.corpus.illegal_actions import CHECKS, illegal_scenario
from horserace.engine.hand import Hand
from horserace.engine.layout import parse_port
from horserace.engine.match import deal
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.seating import SEATINGS as ALL_SEATINGS
from horserace.engine.seating import Seating
from horserace.engine.tiles import parse_tile
from tests import breakages
from tests.property.invariants import act, check_violations_agree, play_judging_violations
from tests.property.test_random_games import RULESETS, SEATINGS

RULE_OF_CHECK = {check.name: check.rule for check in CHECKS}
EVERY_SEATING = [(s.players, s.partnership) for s in ALL_SEATINGS]


def judge_random_play(engine: type[Hand], seed: int, seating: tuple[int, bool], ruleset: Ruleset) -> None:
    players, partnership = seating
    rng = random.Random(seed)
    hands, boneyard = deal(rng, players)
    h = engine(hands, boneyard, rng.randrange(players), partnership=partnership, ruleset=ruleset, undoable=True)
    play_judging_violations(h, rng)


def _arguments(action: dict) -> tuple:
    if action["action"] != "place":
        return None, None, None
    return (
        parse_tile(action["tile"]),
        parse_tile(action["target"]) if "target" in action else None,
        parse_port(action["port"]) if "port" in action else None,
    )


def judge_illegal_scenario(engine: type[Hand], seed: int, seating: tuple[int, bool], ruleset: Ruleset) -> None:
    """The fuzzer's illegal scenario of ``seed``: each legal action judged and made, then
    the last, illegal one judged."""
    players, partnership = seating
    sides = 2 if partnership else players
    scenario = illegal_scenario(random.Random(seed), Seating(players, partnership), ruleset, [0] * sides)
    h = engine(
        [[parse_tile(t) for t in tiles] for tiles in scenario.deal["hands"]],
        [parse_tile(t) for t in scenario.deal["boneyard"]],
        scenario.deal["opener"],
        partnership=partnership,
        scores=scenario.scores,
        ruleset=ruleset,
        undoable=True,
    )
    for action in scenario.actions[:-1]:
        check_violations_agree(h, action["seat"], action["action"], *_arguments(action))  # accepted, then undone
        act(h, action["seat"], action["action"], *_arguments(action))
    last = scenario.actions[-1]
    found = h.violations(last["seat"], last["action"], *_arguments(last))
    aimed = RULE_OF_CHECK[scenario.check]
    assert found[:1] == (scenario.rule,), (
        f"the fuzzer's {scenario.check!r}: the engine names {scenario.rule}, the evaluator {found}"
    )
    assert aimed in found, f"the fuzzer's {scenario.check!r} breaks {aimed}, but the evaluator finds {found}"
    check_violations_agree(h, last["seat"], last["action"], *_arguments(last))


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS)
def test_the_evaluator_agrees_with_the_actions_over_random_play(seed, seating, ruleset):
    judge_random_play(Hand, seed, seating, ruleset)


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS)
def test_the_evaluator_agrees_on_the_fuzzers_illegal_actions(seed, seating, ruleset):
    judge_illegal_scenario(Hand, seed, seating, ruleset)


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        pytest.param(
            breakages.TURN_ENDED_FORGOTTEN_BY_THE_EVALUATOR,
            r"refused under HR-TURN-[13], but the evaluator names \('HR-SEAT-3'",
            id="turn-ended-forgotten",
        ),
        pytest.param(
            breakages.BONEYARD_FORGOTTEN_BY_THE_EVALUATOR,
            "refused under HR-DRAW-4, but the evaluator finds nothing broken",
            id="boneyard-forgotten",
        ),
    ],
)
def test_random_play_catches_a_broken_evaluator(engine, message):
    with pytest.raises(AssertionError, match=message):
        for seed in range(40):
            judge_random_play(engine, seed, EVERY_SEATING[seed % 4], CANONICAL)


def test_the_fuzzers_scenarios_catch_a_broken_evaluator():
    with pytest.raises(AssertionError, match=r"the engine names HR-TURN-[13], the evaluator"):
        for seed in range(200):
            judge_illegal_scenario(breakages.TURN_ENDED_FORGOTTEN_BY_THE_EVALUATOR, seed, (2, False), CANONICAL)


def test_the_reference_passes_the_catching_runs():
    """The same runs on the reference engine find nothing: the failures above are the
    broken evaluator's."""
    for seed in range(40):
        judge_random_play(Hand, seed, EVERY_SEATING[seed % 4], CANONICAL)
    for seed in range(200):
        judge_illegal_scenario(Hand, seed, (2, False), CANONICAL)
