"""Invariants of a hand in progress, as plain checks that raise AssertionError.

Kept apart from the Hypothesis tests so that tests/property/test_invariants_catch_bugs.py
can show each check fails on a deliberately broken engine (a check that cannot fail is
no check).
"""

from __future__ import annotations

import random

from horserace.engine.events import Draw, EndTurn, Pass, Place
from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_A, LINEAR_B
from horserace.engine.tiles import FULL_SET_MASK, IS_DOUBLE, TOTAL_PIPS, mask_of, pips_of


def check_conservation(h: Hand) -> None:
    """28 tiles and 168 pips across hands, boneyard and layout, each tile once."""
    parts = [*h.hands, mask_of(h.boneyard[h._next_draw :]), mask_of(h.layout.order)]
    union = 0
    for part in parts:
        assert union & part == 0, "a tile is in two places at once"
        union |= part
    assert union == FULL_SET_MASK, "a tile went missing"
    assert sum(pips_of(p) for p in parts) == TOTAL_PIPS
    assert len(h.layout.order) == len(set(h.layout.order))


def check_count(h: Hand) -> None:
    """The running count equals the sum of the counted contributions (HR-COUNT-1)."""
    assert h.layout.count == sum(c.value for c in h.layout.contributions()), (
        "running count differs from the contributions"
    )


def check_spinners(h: Hand) -> None:
    """No branch of a spinner before both linear sides are filled (HR-SPIN-2)."""
    for t in h.layout.order:
        if IS_DOUBLE[t]:
            filled = h.layout.filled_ports(t)
            if filled & ((1 << BRANCH_A) | (1 << BRANCH_B)):
                assert filled & (1 << LINEAR_A) and filled & (1 << LINEAR_B), "branch before linear sides"


def check_drawn_tiles_end_the_turn(events) -> None:
    """A tile drawn and placed in the same turn never continues it (HR-TURN-3)."""
    drawn_this_turn: dict[int, set[int]] = {}
    for e in events:
        if isinstance(e, Draw):
            drawn_this_turn.setdefault(e.seat, set()).add(e.tile)
        elif isinstance(e, Place):
            if e.tile in drawn_this_turn.get(e.seat, ()):
                assert e.drawn and not e.continues, "a drawn tile continued the turn"
            if not e.continues:
                drawn_this_turn.pop(e.seat, None)
        elif isinstance(e, (Pass, EndTurn)):
            drawn_this_turn.pop(e.seat, None)


def play_checked(h: Hand, rng: random.Random, checks=(check_conservation, check_count, check_spinners)) -> Hand:
    """Random play through the public actions, running every check after every action."""
    rand = rng.random
    for check in checks:
        check(h)
    while not h.over:
        seat = h.to_act
        moves = h.legal_placements()
        if h.may_end_turn() and rand() < 0.3:
            h.end_turn(seat)
        elif moves:
            h.place(seat, *moves[int(rand() * len(moves))])
        elif h.must_draw():
            h.draw(seat)
        else:
            h.pass_turn(seat)
        for check in checks:
            check(h)
    check_drawn_tiles_end_the_turn(h.events)
    return h
