"""Every proof can fail: fed a deliberately wrong model (horserace.verify.models.WRONG_*),
each proof reports ``sat`` with a counterexample in game values, and a solver that gives
up (``unknown``) is a failure, never a pass.  Also: the ties catch an engine that drifted
from a correct model."""

from __future__ import annotations

import pytest
import z3

from horserace.verify import models, proofs, ties
from tests import breakages

pytestmark = pytest.mark.proof

CASES = [
    # (proof, wrong model, what the counterexample must show)
    (
        proofs.rounding_rule,
        models.WRONG_ROUNDING_3_DOWN,
        lambda cx: cx["remainder"] == 3 and cx["credit (model)"] == cx["credit (rule)"] - 1,
    ),
    (
        proofs.rounding_monotone,
        models.WRONG_ROUNDING_NOT_MONOTONE,
        lambda cx: cx["pips (fewer)"] <= cx["pips (more)"] and cx["credit"] > cx["credit "],
    ),
    (proofs.rounding_within_two, models.WRONG_ROUNDING_TRUNCATE, lambda cx: abs(cx["off by"]) > 2),
    (proofs.rounding_within_two, models.WRONG_ROUNDING_CEIL, lambda cx: abs(cx["off by"]) > 2),
    (
        proofs.placement_credit,
        models.WRONG_CREDIT_ROUNDED,
        lambda cx: cx["credit_raw (model)"] != cx["credit_raw (rule)"],
    ),
    (
        proofs.placement_credit,
        models.WRONG_CREDIT_TENS,
        lambda cx: cx["count"] % 10 == 5 and cx["credit_raw (model)"] == 0,
    ),
    (
        proofs.unstarted_branches_count_zero,
        models.WRONG_SPINNER_FREE_BRANCH_COUNTS,
        lambda cx: any(cx[b] == "free" and cx["port adds (model)"][b] != 0 for b in ("branch-a", "branch-b")),
    ),
    (
        proofs.unstarted_branches_count_zero,
        models.WRONG_SPINNER_INTERIOR_COUNTS,
        lambda cx: cx["linear-a"] != "free" and cx["linear-b"] != "free" and cx["double counted whole (model)"],
    ),
    (
        proofs.double_counts_once,
        models.WRONG_SPINNER_PER_SIDE,
        lambda cx: cx["double adds (model)"] != 2 * int(cx["spinner"][1]),
    ),
    (
        proofs.no_branch_before_both_linear,
        models.WRONG_SPINNER_EARLY_BRANCHES,
        lambda cx: (
            "free" in (cx["linear-a"], cx["linear-b"]) and {"branch-a", "branch-b"} & set(cx["available (model)"])
        ),
    ),
    (
        proofs.branches_open_after_both_linear,
        models.WRONG_SPINNER_EARLY_BRANCHES,
        lambda cx: {"branch-a", "branch-b"} & set(cx["available (model)"]),
    ),
]


@pytest.mark.parametrize(
    ("proof", "wrong", "shows"), CASES, ids=lambda x: getattr(x, "__name__", getattr(x, "name", ""))
)
def test_a_wrong_model_gives_a_counterexample(proof, wrong, shows):
    result = proof(wrong)
    assert result.status == proofs.COUNTEREXAMPLE, result.explain()
    assert not result.proved
    assert shows(result.counterexample), result.explain()
    with pytest.raises(AssertionError, match="COUNTEREXAMPLE"):
        proofs.require(result)


@pytest.mark.parametrize("sides", proofs.SIDES)
def test_seat_order_tie_break_is_refuted(sides):
    for proof in (proofs.match_winners_exact, proofs.match_winners_seat_blind):
        result = proof(sides, models.WRONG_MATCH_SEAT_ORDER)
        assert result.status == proofs.COUNTEREXAMPLE, result.explain()
        cx = result.counterexample
        assert len(cx["sides at or over the target"]) >= 2, result.explain()


@pytest.mark.parametrize("sides", proofs.SIDES)
def test_losers_paying_is_refuted(sides):
    result = proofs.scores_never_decrease(sides, models.WRONG_MATCH_LOSERS_PAY)
    assert result.status == proofs.COUNTEREXAMPLE, result.explain()
    cx = result.counterexample
    assert any(a < b for a, b in zip(cx["scores after (model)"], cx["scores before"], strict=True))


@pytest.mark.parametrize(
    "wrong",
    [models.WRONG_SETTLEMENT_COWINNERS_EXCLUDED, models.WRONG_SETTLEMENT_DIVIDED, models.WRONG_SETTLEMENT_ROUNDED_EACH],
    ids=lambda w: w.name,
)
@pytest.mark.parametrize("sides", [3, 4])
def test_wrong_tie_settlements_are_refuted(wrong, sides):
    result = proofs.tied_winners_full_credit(sides, wrong)
    assert result.status == proofs.COUNTEREXAMPLE, result.explain()
    cx = result.counterexample
    assert cx["credits (model)"] != cx["credits (rule)"], result.explain()


def test_no_witness_for_a_model_that_does_not_round():
    additive = models.RoundingModel("pips as points, no rounding", models.int_term)
    witness = proofs.rounding_once_witness(additive)
    assert not witness.found and witness.reason == "unsat"


def test_unknown_is_a_failure():
    x, y = z3.Ints("x y")
    result = proofs.refute(
        "factor",
        ["HR-SETTLE-1"],
        "1000000007 * 998244353 has no factors",
        "hard",
        [x > 1, y > 1, x < y, x * y == 1000000007 * 998244353],
        lambda s: {},
        timeout_ms=20,
    )
    assert result.status == proofs.UNKNOWN and not result.proved
    with pytest.raises(AssertionError, match="UNKNOWN"):
        proofs.require(result)


def test_blocked_tie_catches_an_engine_that_divides_the_credit():
    engine = breakages.DIVIDED_BLOCKED_CREDIT
    assert ties.blocked_case(models.BLOCKED_SETTLEMENT, [4, 4, 4, 14], partnership=False, engine=engine) == [
        "pips [4, 4, 4, 14] (sides [4, 4, 4, 14]): model credits [4, 4, 4, 0], engine [1, 1, 1, 0]"
    ]


@pytest.mark.parametrize(
    "wrong",
    [
        models.WRONG_ROUNDING_3_DOWN,
        models.WRONG_ROUNDING_CEIL,
        models.WRONG_ROUNDING_TRUNCATE,
        models.WRONG_ROUNDING_NOT_MONOTONE,
    ],
    ids=lambda w: w.name,
)
def test_rounding_tie_rejects_a_wrong_model(wrong):
    assert ties.rounding_mismatches(wrong)


@pytest.mark.parametrize("wrong", [models.WRONG_CREDIT_ROUNDED, models.WRONG_CREDIT_TENS], ids=lambda w: w.name)
def test_credit_tie_rejects_a_wrong_model(wrong):
    assert ties.credit_mismatches(wrong)


def test_match_tie_rejects_wrong_models():
    # Two pairs at 59, blocked at 12 pips each: each pair takes 2 and both reach 61 (HR-MATCH-2).
    case = {"partnership": True, "domino_seat": None, "scores": [59, 59], "target": 61}
    assert ties.match_case(models.MATCH, [6, 6, 6, 6], **case) == []
    assert ties.match_case(models.WRONG_MATCH_SEAT_ORDER, [6, 6, 6, 6], **case)
    assert ties.match_case(
        models.WRONG_MATCH_LOSERS_PAY,
        [0, 8, 0, 9],
        partnership=False,
        domino_seat=0,
        scores=[10, 10, 10, 10],
        target=61,
    )


@pytest.mark.parametrize(
    "wrong",
    [models.WRONG_SETTLEMENT_COWINNERS_EXCLUDED, models.WRONG_SETTLEMENT_DIVIDED, models.WRONG_SETTLEMENT_ROUNDED_EACH],
    ids=lambda w: w.name,
)
def test_blocked_tie_rejects_a_wrong_model(wrong):
    assert ties.blocked_case(wrong, [4, 4, 4, 14], partnership=False)
