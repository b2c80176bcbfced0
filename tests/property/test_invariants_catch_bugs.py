"""Each invariant check fails on an engine broken in the way the check names, so the
property tests can find the bugs they are for."""

from __future__ import annotations

import random

import pytest

from horserace.engine.hand import Hand
from horserace.engine.match import deal
from tests import breakages
from tests.property.invariants import play_checked, play_undoing


def play_many(engine: type[Hand], seeds=range(40), *, undoing: bool = False):
    """Random two-player hands, checked after every action (``undoing``: undone and made
    again after every action, undone to the deal at the end)."""
    for seed in seeds:
        rng = random.Random(seed)
        tiles, boneyard = deal(rng, 2)
        h = engine(tiles, boneyard, 0, undoable=undoing)
        (play_undoing if undoing else play_checked)(h, rng)


def test_the_checks_pass_on_the_reference_engine():
    play_many(Hand)


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        pytest.param(breakages.DRAWN_TILE_CONTINUES, "drawn tile continued", id="drawn-tile-continues"),
        pytest.param(breakages.LOST_DRAWN_TILE, "missing", id="lost-drawn-tile"),
        pytest.param(breakages.INTERIOR_DOUBLE_COUNTED, "count", id="interior-double-counted"),
        pytest.param(breakages.EARLY_BRANCH, "branch before linear", id="early-branch"),
    ],
)
def test_each_check_catches_the_engine_broken_as_it_names(engine, message):
    with pytest.raises(AssertionError, match=message):
        play_many(engine)


def test_the_undo_check_passes_on_the_reference_engine():
    play_many(Hand, range(20), undoing=True)


@pytest.mark.parametrize(
    ("engine", "message"),
    [
        pytest.param(breakages.UNDO_FORGETS_THE_DRAW, "_next_draw", id="undo-forgets-the-draw"),
        pytest.param(breakages.RESTORE_FORGETS_THE_COUNT, "layout.count", id="restore-forgets-the-count"),
    ],
)
def test_the_undo_check_catches_a_broken_undo(engine, message):
    with pytest.raises(AssertionError, match=message):
        play_many(engine, range(20), undoing=True)
