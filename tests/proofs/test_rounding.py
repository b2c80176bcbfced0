"""HR-SETTLE-1: the hand-end credit of a combined pip total, rounded once.

Proofs (horserace.verify.proofs), each by refutation over every total 0..168:
rounding-rule (remainders 1-2 down, 3-4 up, / 5), rounding-monotone, rounding-within-two
(never more than 2 pips off).  Tie: the Z3 rounding model evaluated on 0..168 equals
``horserace.engine.settlement.hand_credit`` (and ``round_to_five``) on 0..168, so a model that
drifted from the engine fails here.  Witness: Z3 finds the smallest opponents' pips for
which rounding each separately differs from rounding once (1 + 2), and the engine gives
the "once" value on it.
"""

from __future__ import annotations

import pytest

from horserace.engine import settlement
from horserace.engine.settlement import settle
from horserace.verify import models, proofs, ties
from tests import breakages

pytestmark = pytest.mark.proof


def test_model_is_the_engine_on_every_total():
    """Tie: the model and hand_credit / round_to_five agree on all of 0..168."""
    assert ties.rounding_mismatches(models.ROUNDING) == []


@pytest.mark.parametrize(
    "proof", [proofs.rounding_rule, proofs.rounding_monotone, proofs.rounding_within_two], ids=lambda f: f.__name__
)
def test_rounding_proof(proof):
    proofs.require(proof(models.ROUNDING))


def test_z3_finds_that_rounding_separately_differs_and_the_engine_rounds_once(capsys):
    witness = proofs.rounding_once_witness(models.ROUNDING)
    assert witness.found, witness.explain()
    print(witness.explain())  # noqa: T201  (the witness, seen with -s)
    a, b = witness.values["opponent pips"]
    assert (a, b) == (1, 2)  # the smallest: 3 -> 5 -> 1 point; 1 -> 0 and 2 -> 0 separately
    once, separately = witness.values["credit rounded once"], witness.values["credit rounded separately"]
    assert once != separately
    # The engine, on the witness: three players, seat 0 placed its last tile, the two
    # opponents hold a and b pips.
    result = settle([0, a, b], partnership=False, domino_seat=0, scores=[0, 0, 0], target=61)
    assert result.credits == (once, 0, 0)
    assert settlement.hand_credit(a + b) == once
    assert settlement.hand_credit(a) + settlement.hand_credit(b) == separately


def test_tie_catches_an_engine_that_drifted():
    """If hand_credit rounded a remainder of 3 down, the tie (not the proof) fails."""
    problems = ties.rounding_mismatches(models.ROUNDING, hand_credit=breakages.remainder_3_rounded_down)
    assert problems and problems[0].startswith("pips 3: model credit 1, engine hand_credit 0")
