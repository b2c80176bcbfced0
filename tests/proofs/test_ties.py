"""HR-SETTLE-3: ties in a blocked hand (with HR-END-2 and HR-SETTLE-1).

Proof tied-winners-full-credit, for 2, 3 and 4 sides, by refutation over every pip
total per side (each 0..168, all together at most 168): the hand's winners are exactly
the sides tied for the lowest total, and each of them receives the full credit of all
other sides' pips, co-winners included -- rounded once, ``|5c - P| <= 2``, not divided,
own pips not subtracted; every other side receives nothing.

Tie: the model's winners and credits equal ``settle(..., domino_seat=None)``'s --
exhaustively for 2, 3 and 4 individual players with 0..5, 0..5 and 0..3 pips each
(36 + 216 + 256 hands), and with Hypothesis on hands built to tie (2-4 players or
partnerships, pip totals up to the set's 168).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from horserace.engine.settlement import settle
from horserace.verify import models, proofs, ties

pytestmark = pytest.mark.proof


@pytest.mark.parametrize("sides", proofs.SIDES)
def test_ties_proof(sides):
    proofs.require(proofs.tied_winners_full_credit(sides, models.BLOCKED_SETTLEMENT))


@pytest.mark.parametrize(("seats", "top"), [(2, 5), (3, 5), (4, 3)])
def test_model_is_settle_on_every_small_hand(seats, top):
    problems = []
    for pips in itertools.product(range(top + 1), repeat=seats):
        problems += ties.blocked_case(models.BLOCKED_SETTLEMENT, pips, partnership=False)
    assert problems == []


@st.composite
def tied_hands(draw):
    partnership = draw(st.booleans())
    seats = 4 if partnership else draw(st.integers(2, 4))
    low = draw(st.integers(0, 30))
    pips = [low + draw(st.sampled_from([0, 0, 1, 2, 3, 7, 20])) for _ in range(seats)]
    if sum(pips) > 168:
        pips = [p * 168 // sum(pips) for p in pips]
    return pips, partnership


@given(tied_hands())
def test_model_is_settle(hand):
    pips, partnership = hand
    assert ties.blocked_case(models.BLOCKED_SETTLEMENT, pips, partnership=partnership) == []


def test_the_documents_example():
    """Totals 4, 4, 4, 14: each of the three with 4 receives 4 (22 -> 20), the model too."""
    assert settle([4, 4, 4, 14], partnership=False, domino_seat=None, scores=[0] * 4, target=61).credits == (4, 4, 4, 0)
    assert ties.blocked_case(models.BLOCKED_SETTLEMENT, [4, 4, 4, 14], partnership=False) == []
