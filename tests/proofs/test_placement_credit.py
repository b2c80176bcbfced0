"""HR-CREDIT-1: a placement's credit is its count exactly when the count is a positive
multiple of five.

Proof placement-credit: over counts 0..255 (the whole CREDIT table), the model's raw
credit equals the count when ``count = 5q``, ``q >= 1`` (the rule's own quotient and
remainder), else 0.  Tie: the model evaluated on 0..255 equals
``horserace.engine.layout.CREDIT`` entry by entry.
"""

from __future__ import annotations

import pytest

from horserace.engine import layout
from horserace.verify import models, proofs, ties
from tests import breakages

pytestmark = pytest.mark.proof


def test_model_is_the_credit_table():
    assert len(layout.CREDIT) == models.CREDIT_TABLE_SIZE
    assert ties.credit_mismatches(models.PLACEMENT_CREDIT) == []


def test_placement_credit_proof():
    proofs.require(proofs.placement_credit(models.PLACEMENT_CREDIT))


def test_tie_catches_a_table_that_drifted():
    drifted = breakages.drifted_credit_table()  # 12 "rounded" to 10
    assert ties.credit_mismatches(models.PLACEMENT_CREDIT, table=drifted) == [
        "count 12: model credit_raw 0, engine CREDIT[12] = 10"
    ]
