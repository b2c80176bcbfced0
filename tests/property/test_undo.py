"""Undo (:meth:`Hand.undo`): after any action the hand is given back as it was before it,
every field of it and of its layout, over random play of every seating, every reading of
the register and every kind of action (place, make, draw, pass, end-turn, the forced
draws and passes of play_forced); and perft by make and unmake counts what the
replay-based perft of 0.1 counts (tests/perft_oracle.py)."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from horserace.engine.hand import Hand
from horserace.engine.match import deal
from horserace.engine.perft import perft
from tests.property.invariants import play_undoing, state_of
from tests.property.test_random_games import RULESETS, SEATINGS


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS, record=st.booleans())
def test_undo_gives_back_the_hand_before_each_action(seed, seating, ruleset, record):
    players, partnership = seating
    rng = random.Random(seed)
    hands, boneyard = deal(rng, players)
    h = Hand(
        hands,
        boneyard,
        rng.randrange(players),
        partnership=partnership,
        ruleset=ruleset,
        record=record,
        undoable=True,
    )
    play_undoing(h, rng)


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS, depth=st.integers(1, 4))
def test_perft_gives_back_the_position_it_counted(seed, seating, ruleset, depth):
    players, partnership = seating
    rng = random.Random(seed)
    hands, boneyard = deal(rng, players)
    h = Hand(hands, boneyard, rng.randrange(players), partnership=partnership, ruleset=ruleset, undoable=True)
    before = state_of(h)
    first = perft(h, depth)
    assert state_of(h) == before
    assert perft(h, depth) == first
