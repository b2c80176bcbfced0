"""HR-MATCH-2: reaching the target in a settlement.

Proofs, for 2, 3 and 4 sides, by refutation over every target >= 1, every score below
it and every settlement credit >= 0 (horserace.verify.proofs):

* match-winners-exact: the match winners are exactly the sides at or over the target
  after the credits, applied together;
* match-winners-seat-blind: for a symbolic permutation of the seats (scores and credits
  moved together) the winners are the same sides -- seat order breaks no tie;
* scores-never-decrease: no score after the settlement is below the score before.

Tie: the model, given the scores, ``settle()``'s credits and the target, must give
``settle()``'s scores and match winners -- exhaustively on a small domain (2 and 3
individual players, target 3, scores 0..2, pips 0, 3 or 5 per seat, blocked or ended by
each seat with no pips left), and with Hypothesis on any table (2-4 players or
partnerships, targets 1..80, pips 0..40 per seat).  The seat-blindness is tied too:
``settle()`` on permuted seats names the permuted winners.
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
@pytest.mark.parametrize(
    "proof",
    [proofs.match_winners_exact, proofs.match_winners_seat_blind, proofs.scores_never_decrease],
    ids=lambda f: f.__name__,
)
def test_match_proof(proof, sides):
    proofs.require(proof(sides, models.MATCH))


def test_model_is_settle_on_a_small_domain():
    target, cases, problems = 3, 0, []
    for seats in (2, 3):
        for pips in itertools.product((0, 3, 5), repeat=seats):
            endings = [None] + [s for s in range(seats) if pips[s] == 0]
            for scores in itertools.product(range(target), repeat=seats):
                for ended in endings:
                    cases += 1
                    problems += ties.match_case(
                        models.MATCH, pips, partnership=False, domino_seat=ended, scores=scores, target=target
                    )
    assert problems == []
    assert cases == 1_593


@st.composite
def tables(draw):
    partnership = draw(st.booleans())
    seats = 4 if partnership else draw(st.integers(2, 4))
    sides = 2 if partnership else seats
    pips = draw(st.lists(st.integers(0, 40), min_size=seats, max_size=seats))
    target = draw(st.integers(1, 80))
    scores = draw(st.lists(st.integers(0, target - 1), min_size=sides, max_size=sides))
    ended = draw(st.one_of(st.none(), st.integers(0, seats - 1)))
    if ended is not None:
        pips[ended] = 0  # the seat that placed its last tile holds nothing
    return pips, partnership, ended, scores, target


@given(tables())
def test_model_is_settle(table):
    pips, partnership, ended, scores, target = table
    assert (
        ties.match_case(models.MATCH, pips, partnership=partnership, domino_seat=ended, scores=scores, target=target)
        == []
    )


@given(
    st.integers(2, 4).flatmap(
        lambda n: st.tuples(
            st.lists(st.integers(0, 30), min_size=n, max_size=n),
            st.lists(st.integers(50, 60), min_size=n, max_size=n),
            st.permutations(range(n)),
            st.one_of(st.none(), st.integers(0, n - 1)),
        )
    )
)
def test_settle_is_seat_blind(case):
    pips, scores, order, ended = case
    if ended is not None:
        pips[ended] = 0
    base = settle(pips, partnership=False, domino_seat=ended, scores=scores, target=61)
    moved = settle(
        [pips[i] for i in order],
        partnership=False,
        domino_seat=None if ended is None else order.index(ended),
        scores=[scores[i] for i in order],
        target=61,
    )
    assert sorted(order[k] for k in moved.match_winners) == sorted(base.match_winners)
    assert all(after >= before for after, before in zip(base.scores, scores, strict=True))
