"""Symbolic (Z3) models of the rules that the proofs in :mod:`horserace.verify.proofs`
speak about.

A model is a small frozen dataclass of functions that build Z3 terms.  The same function
serves twice: over symbolic variables, in a proof; over constants, evaluated by
:func:`evaluate`, in a tie (:mod:`horserace.verify.ties`) that compares it with the
engine's code point by point.  The canonical models are named in capitals (``ROUNDING``,
``PLACEMENT_CREDIT``, ``SPINNER``, ``MATCH``, ``BLOCKED_SETTLEMENT``); the deliberately
wrong ones (``WRONG_*``) exist so that the tests can show every proof able to fail.

Rules modelled: HR-SETTLE-1 (rounding a settlement total once), HR-CREDIT-1 (the credit
of a placement), HR-COUNT-2, HR-COUNT-3, HR-SPIN-2, HR-SPIN-3 (a spinner, its counted
contribution and its ports), HR-MATCH-2 (match winners after the settlement credits),
HR-SETTLE-3 (ties in a blocked hand).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Union

import z3

__all__ = [
    "BLOCKED_SETTLEMENT",
    "BRANCHES",
    "CREDIT_TABLE_SIZE",
    "LINEAR",
    "LINEAR_A",
    "LINEAR_B",
    "MATCH",
    "MAX_PIPS_TOTAL",
    "PLACEMENT_CREDIT",
    "ROUNDING",
    "SPINNER",
    "SPINNER_PORTS",
    "WRONG_CREDIT_ROUNDED",
    "WRONG_CREDIT_TENS",
    "WRONG_MATCH_LOSERS_PAY",
    "WRONG_MATCH_SEAT_ORDER",
    "WRONG_ROUNDING_3_DOWN",
    "WRONG_ROUNDING_CEIL",
    "WRONG_ROUNDING_NOT_MONOTONE",
    "WRONG_ROUNDING_TRUNCATE",
    "WRONG_SETTLEMENT_COWINNERS_EXCLUDED",
    "WRONG_SETTLEMENT_DIVIDED",
    "WRONG_SETTLEMENT_ROUNDED_EACH",
    "WRONG_SPINNER_EARLY_BRANCHES",
    "WRONG_SPINNER_FREE_BRANCH_COUNTS",
    "WRONG_SPINNER_INTERIOR_COUNTS",
    "WRONG_SPINNER_PER_SIDE",
    "BlockedSettlementModel",
    "MatchModel",
    "PlacementCreditModel",
    "RoundingModel",
    "SpinnerModel",
    "bool_term",
    "evaluate",
    "int_term",
    "total",
]

# Union, not X | Y: z3 ships no types, and mypy reads `X | Y` of an untyped class as a value.
Int = Union[z3.ArithRef, int]  # noqa: UP007
Bool = Union[z3.BoolRef, bool]  # noqa: UP007

#: Largest pip total a settlement can see: the whole set (HR-SET-1).
MAX_PIPS_TOTAL = 168
#: The engine's CREDIT table covers counts 0..255 (horserace.engine.layout.CREDIT).
CREDIT_TABLE_SIZE = 256


def int_term(x: Int) -> z3.ArithRef:
    return x if isinstance(x, z3.ExprRef) else z3.IntVal(x)


def bool_term(x: Bool) -> z3.BoolRef:
    return x if isinstance(x, z3.ExprRef) else z3.BoolVal(x)


def evaluate(term: z3.ExprRef) -> int | bool:
    """The value of a ground term (no free variables) as a Python int or bool."""
    value = z3.simplify(term)
    if z3.is_int_value(value):
        return int(value.as_long())
    if z3.is_true(value):
        return True
    if z3.is_false(value):
        return False
    raise ValueError(f"term does not reduce to a constant: {value}")


def total(terms: Sequence[Int]) -> z3.ArithRef:
    terms = [int_term(t) for t in terms]
    return z3.Sum(terms) if terms else z3.IntVal(0)


# ---------------------------------------------------------------------- HR-SETTLE-1
@dataclass(frozen=True)
class RoundingModel:
    """HR-SETTLE-1: the credit, in displayed points, of one combined pip total ``P``."""

    name: str
    credit: Callable[[Int], z3.ArithRef]


def _nearest_five(pips: Int) -> z3.ArithRef:
    # Z3's integer division rounds down for a positive divisor, like Python's //: the
    # same formula as horserace.engine.settlement.hand_credit.
    return (int_term(pips) + 2) / 5


ROUNDING = RoundingModel("nearest multiple of five, remainders 1-2 down, 3-4 up", _nearest_five)
#: Wrong: a remainder of 3 rounds down (only 4 rounds up).
WRONG_ROUNDING_3_DOWN = RoundingModel("remainder 3 rounds down", lambda p: (int_term(p) + 1) / 5)
#: Wrong: always rounds up to the next multiple of five.
WRONG_ROUNDING_CEIL = RoundingModel("always rounds up", lambda p: (int_term(p) + 4) / 5)
#: Wrong: truncates (every remainder rounds down); still monotone, but up to 4 pips off.
WRONG_ROUNDING_TRUNCATE = RoundingModel("truncates", lambda p: int_term(p) / 5)
#: Wrong: not monotone (a jump back at 100 pips).
WRONG_ROUNDING_NOT_MONOTONE = RoundingModel(
    "drops two points at 100 pips",
    lambda p: z3.If(int_term(p) >= 100, (int_term(p) + 2) / 5 - 2, (int_term(p) + 2) / 5),
)


# ---------------------------------------------------------------------- HR-CREDIT-1
@dataclass(frozen=True)
class PlacementCreditModel:
    """HR-CREDIT-1: the raw credit of a placement whose count is ``count``; the model of
    the engine's ``horserace.engine.layout.CREDIT`` table."""

    name: str
    credit_raw: Callable[[Int], z3.ArithRef]


def _positive_multiple_of_five(count: Int) -> z3.ArithRef:
    c = int_term(count)
    return z3.If(z3.And(c > 0, c % 5 == 0), c, 0)


PLACEMENT_CREDIT = PlacementCreditModel("the count when a positive multiple of five", _positive_multiple_of_five)
#: Wrong: the settlement's rounding applied to a placement (12 would pay 10).
WRONG_CREDIT_ROUNDED = PlacementCreditModel("count rounded to five", lambda c: 5 * _nearest_five(c))
#: Wrong: only multiples of ten pay.
WRONG_CREDIT_TENS = PlacementCreditModel(
    "multiples of ten only", lambda c: z3.If(z3.And(int_term(c) > 0, int_term(c) % 10 == 0), int_term(c), 0)
)


# ---------------------------------------------------------------------- spinners
#: Model port order; the engine's port numbers are these plus 2 (horserace.engine.layout).
LINEAR_A, LINEAR_B, BRANCH_A, BRANCH_B = range(4)
SPINNER_PORTS = ("linear-a", "linear-b", "branch-a", "branch-b")
LINEAR = (LINEAR_A, LINEAR_B)
BRANCHES = (BRANCH_A, BRANCH_B)


@dataclass(frozen=True)
class SpinnerModel:
    """A double ``[v|v]`` and its four ports (HR-MOVE-1).  ``occ[p]`` says whether port
    ``p`` carries an arm; ``arm[p]`` is that arm's counted sum (for a plain line, the
    value 0..6 of its outer end; an arm with spinners of its own may count more).

    * ``counts_whole(occ)``: the double is itself a counted contribution (listed, even
      when it is worth 0, HR-COUNT-4);
    * ``whole_value(v, occ)``: what the double itself adds to the count;
    * ``port_count(p, v, occ_p, arm_p)``: what port ``p`` adds (its arm, if any);
    * ``available(p, occ)``: port ``p`` is an attachment point (HR-PLACE-1, HR-SPIN-2),
      mirror images included.
    """

    name: str
    counts_whole: Callable[[Sequence[Bool]], z3.BoolRef]
    whole_value: Callable[[Int, Sequence[Bool]], z3.ArithRef]
    port_count: Callable[[int, Int, Bool, Int], z3.ArithRef]
    available: Callable[[int, Sequence[Bool]], z3.BoolRef]

    def total(self, v: Int, occ: Sequence[Bool], arms: Sequence[Int]) -> z3.ArithRef:
        """The count of a layout seen from this spinner: the double itself plus what
        each of its four ports adds (HR-COUNT-1)."""
        return int_term(self.whole_value(v, occ)) + total([self.port_count(p, v, occ[p], arms[p]) for p in range(4)])


def _some_linear_free(occ: Sequence[Bool]) -> z3.BoolRef:
    return z3.Or(z3.Not(bool_term(occ[LINEAR_A])), z3.Not(bool_term(occ[LINEAR_B])))


def _canonical_available(p: int, occ: Sequence[Bool]) -> z3.BoolRef:
    free = z3.Not(bool_term(occ[p]))
    if p in LINEAR:
        return free
    return z3.And(bool_term(occ[LINEAR_A]), bool_term(occ[LINEAR_B]), free)  # HR-SPIN-2, HR-SPIN-3


SPINNER = SpinnerModel(
    "canonical spinner",
    counts_whole=_some_linear_free,  # HR-COUNT-2
    whole_value=lambda v, occ: z3.If(_some_linear_free(occ), 2 * int_term(v), 0),  # HR-COUNT-2/3
    port_count=lambda p, v, o, arm: z3.If(bool_term(o), int_term(arm), 0),  # HR-COUNT-3
    available=_canonical_available,
)


def _replace(model: SpinnerModel, name: str, **fields: Callable[..., object]) -> SpinnerModel:
    values = {f: getattr(model, f) for f in ("counts_whole", "whole_value", "port_count", "available")}
    values.update(fields)
    return SpinnerModel(name, **values)


#: Wrong: each free linear side counts ``v`` (a placed double with one free side counts
#: ``v`` instead of ``2v``).
WRONG_SPINNER_PER_SIDE = _replace(
    SPINNER,
    "each free linear side counts v",
    whole_value=lambda v, occ: (
        z3.If(z3.Not(bool_term(occ[LINEAR_A])), int_term(v), 0)
        + z3.If(z3.Not(bool_term(occ[LINEAR_B])), int_term(v), 0)
    ),
)
#: Wrong: an interior double still counts ``2v``.
WRONG_SPINNER_INTERIOR_COUNTS = _replace(
    SPINNER,
    "an interior double still counts 2v",
    counts_whole=lambda occ: z3.BoolVal(True),
    whole_value=lambda v, occ: 2 * int_term(v),
)
#: Wrong: a free branch counts its value ``v`` (an attachment point taken for a counted end).
WRONG_SPINNER_FREE_BRANCH_COUNTS = _replace(
    SPINNER,
    "a free branch counts v",
    port_count=lambda p, v, o, arm: z3.If(bool_term(o), int_term(arm), int_term(v) if p in BRANCHES else 0),
)
#: Wrong: the branches open as soon as one linear side is filled.
WRONG_SPINNER_EARLY_BRANCHES = _replace(
    SPINNER,
    "branches open after one linear side",
    available=lambda p, occ: (
        z3.Not(bool_term(occ[p]))
        if p in LINEAR
        else z3.And(z3.Or(bool_term(occ[LINEAR_A]), bool_term(occ[LINEAR_B])), z3.Not(bool_term(occ[p])))
    ),
)


# ---------------------------------------------------------------------- HR-MATCH-2
@dataclass(frozen=True)
class MatchModel:
    """HR-MATCH-2: scores after the settlement credits, and who wins the match."""

    name: str
    after: Callable[[Sequence[Int], Sequence[Int]], list[z3.ArithRef]]
    winners: Callable[[Sequence[Int], Int], list[z3.BoolRef]]


def _after_together(scores: Sequence[Int], credits: Sequence[Int]) -> list[z3.ArithRef]:
    return [int_term(s) + int_term(c) for s, c in zip(scores, credits, strict=True)]


MATCH = MatchModel(
    "credits applied together; every side at or over the target wins",
    after=_after_together,
    winners=lambda after, target: [int_term(a) >= int_term(target) for a in after],
)
#: Wrong: seat order breaks a tie (the first side at or over the target wins alone).
WRONG_MATCH_SEAT_ORDER = MatchModel(
    "seat order breaks the tie",
    after=_after_together,
    winners=lambda after, target: [
        z3.And(int_term(a) >= int_term(target), *[int_term(b) < int_term(target) for b in after[:i]])
        for i, a in enumerate(after)
    ],
)
#: Wrong: the losers pay the winners' credits (zero-sum scoring).
WRONG_MATCH_LOSERS_PAY = MatchModel(
    "losers pay the credits",
    after=lambda scores, credits: [
        int_term(s) + int_term(c) - total([c2 for j, c2 in enumerate(credits) if j != i])
        for i, (s, c) in enumerate(zip(scores, credits, strict=True))
    ],
    winners=MATCH.winners,
)


# ---------------------------------------------------------------------- HR-SETTLE-3
@dataclass(frozen=True)
class BlockedSettlementModel:
    """HR-END-2, HR-SETTLE-1..3: the winners and credits of a blocked hand, given each
    side's remaining pip total."""

    name: str
    winners: Callable[[Sequence[Int]], list[z3.BoolRef]]
    credits: Callable[[Sequence[Int]], list[z3.ArithRef]]


def _lowest(totals: Sequence[Int]) -> list[z3.BoolRef]:
    return [z3.And(*[int_term(p) <= int_term(q) for q in totals]) for p in totals]


def _blocked_credits(
    rounding: RoundingModel, others: Callable[[Sequence[Int], int], list[Int]]
) -> Callable[[Sequence[Int]], list[z3.ArithRef]]:
    def credits(totals: Sequence[Int]) -> list[z3.ArithRef]:
        lowest = _lowest(totals)
        return [z3.If(lowest[i], rounding.credit(total(others(totals, i))), 0) for i in range(len(totals))]

    return credits


def _all_others(totals: Sequence[Int], i: int) -> list[Int]:
    return [p for j, p in enumerate(totals) if j != i]


BLOCKED_SETTLEMENT = BlockedSettlementModel(
    "each tied lowest side takes the rounded pips of all other sides",
    winners=_lowest,
    credits=_blocked_credits(ROUNDING, _all_others),
)


def _losers_only(totals: Sequence[Int], i: int) -> list[Int]:
    lowest = _lowest(totals)
    return [z3.If(lowest[j], 0, p) for j, p in enumerate(totals) if j != i]


#: Wrong: co-winners' pips are left out of a tied winner's credit.
WRONG_SETTLEMENT_COWINNERS_EXCLUDED = BlockedSettlementModel(
    "co-winners' pips excluded", winners=_lowest, credits=_blocked_credits(ROUNDING, _losers_only)
)


def _divided(totals: Sequence[Int]) -> list[z3.ArithRef]:
    lowest = _lowest(totals)
    tied = total([z3.If(w, 1, 0) for w in lowest])
    return [z3.If(lowest[i], ROUNDING.credit(total(_all_others(totals, i))) / tied, 0) for i in range(len(totals))]


#: Wrong: the credit is divided among the co-winners.
WRONG_SETTLEMENT_DIVIDED = BlockedSettlementModel("credit divided among co-winners", winners=_lowest, credits=_divided)
#: Wrong: each tied total rounded separately (the rounding fault inside a settlement).
WRONG_SETTLEMENT_ROUNDED_EACH = BlockedSettlementModel(
    "each other side rounded separately",
    winners=_lowest,
    credits=lambda totals: [
        z3.If(_lowest(totals)[i], total([ROUNDING.credit(p) for p in _all_others(totals, i)]), 0)
        for i in range(len(totals))
    ],
)
