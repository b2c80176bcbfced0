"""Perft by make and unmake (horserace.engine.perft) counts what the replay-based perft of
0.1 counts (tests/perft_oracle.py), node for node and first move by first move: on every
perft fixture of the corpus and deeper, on fresh deals of every seating under every
reading of the register, and on positions near a hand's end, where dominoes, blocks and
the target end the lines; and it gives the position back as it found it."""

from __future__ import annotations

import itertools
import random

import pytest

from horserace.corpus.observers import perft_observations, perft_position
from horserace.corpus.positions import SeedName, seeded_input
from horserace.engine.hand import Hand
from horserace.engine.match import deal
from horserace.engine.perft import END_TURN, decisions, divide, perft
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.errors import NothingToUndo
from tests.helpers import bundled_corpus, late_position
from tests.perft_oracle import perft_by_replay
from tests.property.invariants import state_of

#: Every reading of the register that is not canonical, one at a time, and the canonical rules.
READINGS = [CANONICAL] + [
    Ruleset.from_readings({field: reading}) for field, readings in VARIANT_FIELDS.items() for reading in readings[1:]
]
PERFT_FIXTURES = [fx for fx in bundled_corpus().fixtures if fx.kind == "perft"]


def agree(inp: dict, ruleset: Ruleset, depth: int) -> dict:
    """The counts of both perfts, asserted equal."""
    new = perft_observations(perft_position(inp, ruleset), depth)
    assert new == perft_by_replay({**inp, "depth": depth}, ruleset)
    return new


@pytest.mark.parametrize("fixture", PERFT_FIXTURES, ids=lambda fx: fx.id)
def test_each_perft_fixture_and_two_plies_deeper(fixture):
    depth = fixture.input["depth"]
    assert agree(fixture.input, fixture.ruleset, depth) == fixture.expected
    for deeper in (depth + 1, depth + 2):
        agree(fixture.input, fixture.ruleset, deeper)


@pytest.mark.parametrize(
    "ruleset", READINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.variants.items()) or "canonical"
)
@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
def test_fresh_deals_under_every_reading(seating, ruleset):
    for seed in range(3):
        agree(seeded_input(SeedName(seed, seating.players, seating.partnership), ruleset), ruleset, 4)


@pytest.mark.parametrize(
    "ruleset", READINGS, ids=lambda r: ",".join(f"{k}={v}" for k, v in r.variants.items()) or "canonical"
)
@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
def test_positions_near_the_end_of_a_hand(seating, ruleset):
    for seed in range(3):
        agree(late_position(seed, seating.players, seating.partnership, ruleset), ruleset, 6)


def test_the_position_is_given_back_as_it_was():
    dealt, boneyard = deal(random.Random(3), 2)
    h = Hand(dealt, boneyard, 0, undoable=True)
    before = state_of(h)
    counts = divide(h, 6)
    assert state_of(h) == before and h.record
    assert [move for move, _ in counts] == decisions(h)
    assert perft(h, 6) == sum(n for _, n in counts)


def test_depth_zero_and_a_hand_already_over():
    dealt, boneyard = deal(random.Random(3), 2)
    h = Hand(dealt, boneyard, 0, undoable=True)
    assert perft(h, 0) == 1 and divide(h, 0) == []
    h.run(lambda moves: moves[0])
    assert h.over and perft(h, 5) == 1 and divide(h, 5) == []


def test_end_turn_is_a_move_under_optional_continuation():
    fx = next(fx for fx in PERFT_FIXTURES if fx.id == "0FSP7G")
    h = perft_position(fx.input, fx.ruleset)
    h.make(next(m for m in h.legal_placements() if m[0] == 27))  # [6|6]: a double continues
    assert decisions(h)[-1] == END_TURN


def test_perft_needs_an_undoable_hand():
    dealt, boneyard = deal(random.Random(3), 2)
    with pytest.raises(NothingToUndo, match="undoable=True"):
        perft(Hand(dealt, boneyard, 0), 3)
    with pytest.raises(NothingToUndo, match="nothing is left"):
        Hand(dealt, boneyard, 0, undoable=True).undo()


def test_progress_counts_up_to_the_whole_tree():
    dealt, boneyard = deal(random.Random(3), 2)
    seen: list[tuple[int, float]] = []
    nodes = perft(Hand(dealt, boneyard, 0, undoable=True), 6, lambda n, done: seen.append((n, done)))
    assert seen[-1] == (nodes, 1.0)
    assert all(a <= b for a, b in itertools.pairwise(seen))
