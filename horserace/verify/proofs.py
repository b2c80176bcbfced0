"""Z3 proofs about the models of :mod:`horserace.verify.models`, by refutation.

Every proof states a claim, asserts its *negation* over a bounded domain and asks Z3 for
a solution:

* ``unsat`` — no counterexample exists: the claim is proved for the whole domain;
* ``sat`` — Z3 found a counterexample, returned in game values (pips, scores, counts,
  ports) so that a failure reads like a game position;
* ``unknown`` — the solver gave up (timeout, default :data:`TIMEOUT_MS` ms): a failure,
  never a pass.

A proof speaks about a *model*; :mod:`horserace.verify.ties` checks each model against
the engine's code over the same bounded domain, which is what makes the proof speak for
the engine.  Every proof takes the model as a parameter so that the tests can feed it a
deliberately wrong one (``models.WRONG_*``) and see it fail.

Proofs (rule, claim):

* HR-SETTLE-1 :func:`rounding_rule`, :func:`rounding_monotone`,
  :func:`rounding_within_two`; and :func:`rounding_once_witness`, which *finds* (``sat``
  wanted) pips for which rounding each opponent separately differs from rounding once;
* HR-CREDIT-1 :func:`placement_credit`;
* HR-COUNT-3 :func:`unstarted_branches_count_zero`; HR-COUNT-2
  :func:`double_counts_once`; HR-SPIN-2 :func:`no_branch_before_both_linear`;
  HR-SPIN-3 :func:`branches_open_after_both_linear`;
* HR-MATCH-2 :func:`match_winners_exact`, :func:`match_winners_seat_blind`,
  :func:`scores_never_decrease` (2, 3 and 4 sides each);
* HR-SETTLE-3 :func:`tied_winners_full_credit` (2, 3 and 4 sides).

:func:`run_all` runs every canonical proof.  Measured with z3-solver 5.4.1: the 20
canonical proofs take 0.07-0.08 s wall time together (about 0.03 s inside the solver);
the slowest is match-winners-seat-blind-4 at ~7 ms, then rounding-rule, 3 ms;
rounding-once-witness (an ``Optimize`` query) ~4 ms.  The budget is 20 s
(tests/proofs/test_budget.py).  match-winners-exact is settled by Z3's simplifier for the
canonical model (~0.1 ms): its claim and the model are nearly the same formula; it bites
only on a model that words the winners differently (models.WRONG_MATCH_SEAT_ORDER).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import z3

from horserace.verify import models as m
from horserace.verify.models import (
    BRANCHES,
    LINEAR,
    LINEAR_A,
    LINEAR_B,
    MAX_PIPS_TOTAL,
    SPINNER_PORTS,
    bool_term,
    int_term,
    total,
)

#: Solver timeout per proof, milliseconds.  A timeout is reported as ``unknown``: a failure.
TIMEOUT_MS = 5000

PROVED, COUNTEREXAMPLE, UNKNOWN = "proved", "counterexample", "unknown"


@dataclass(frozen=True)
class ProofResult:
    """The outcome of one proof by refutation."""

    name: str
    rules: tuple[str, ...]
    claim: str
    model: str
    status: str  #: PROVED (unsat), COUNTEREXAMPLE (sat) or UNKNOWN
    counterexample: dict[str, Any] | None = None
    seconds: float = 0.0
    reason: str = ""

    @property
    def proved(self) -> bool:
        return self.status == PROVED

    def explain(self) -> str:
        head = f"{', '.join(self.rules)} {self.name} [{self.model}]: "
        if self.status == PROVED:
            return head + f"proved in {self.seconds:.3f} s: {self.claim}"
        if self.status == UNKNOWN:
            return (
                head
                + f"UNKNOWN after {self.seconds:.3f} s ({self.reason}); a proof that is not unsat fails\n  claim: {self.claim}"
            )
        lines = [head + "COUNTEREXAMPLE (the negation is sat)", f"  claim: {self.claim}"]
        lines += [f"  {key}: {value}" for key, value in (self.counterexample or {}).items()]
        return "\n".join(lines)

    __str__ = explain


@dataclass(frozen=True)
class Witness:
    """The outcome of a search that *should* succeed (``sat``)."""

    name: str
    rules: tuple[str, ...]
    question: str
    found: bool
    values: dict[str, Any] = field(default_factory=dict)
    seconds: float = 0.0
    reason: str = ""

    def explain(self) -> str:
        head = f"{', '.join(self.rules)} {self.name}: "
        if not self.found:
            return head + f"no witness ({self.reason}): {self.question}"
        return (
            head
            + f"witness found in {self.seconds:.3f} s: {self.question}\n"
            + "\n".join(f"  {k}: {v}" for k, v in self.values.items())
        )

    __str__ = explain


def require(result: ProofResult) -> ProofResult:
    """Raise :class:`AssertionError` with the counterexample (or the solver's reason)
    unless ``result`` is proved; ``unknown`` fails like ``sat``."""
    if not result.proved:
        raise AssertionError(result.explain())
    return result


def value(model: z3.ModelRef, term: z3.ExprRef) -> int | bool:
    """A term's value in a Z3 model, as a Python int or bool."""
    return m.evaluate(model.eval(term, model_completion=True))


def refute(
    name: str,
    rules: Sequence[str],
    claim: str,
    model_name: str,
    negation: Sequence[z3.BoolRef],
    decode: Callable[[z3.ModelRef], dict[str, Any]],
    timeout_ms: int = TIMEOUT_MS,
) -> ProofResult:
    """Assert ``negation`` and check it: ``unsat`` proves the claim."""
    solver = z3.Solver()
    solver.set("timeout", timeout_ms)
    solver.add(*negation)
    start = time.perf_counter()
    answer = solver.check()
    seconds = time.perf_counter() - start
    if answer == z3.unsat:
        return ProofResult(name, tuple(rules), claim, model_name, PROVED, None, seconds)
    if answer == z3.sat:
        return ProofResult(name, tuple(rules), claim, model_name, COUNTEREXAMPLE, decode(solver.model()), seconds)
    return ProofResult(name, tuple(rules), claim, model_name, UNKNOWN, None, seconds, solver.reason_unknown())


def _rule_rounding(pips: int) -> int:
    """HR-SETTLE-1 by its own words, for counterexample messages: remainder 1-2 down,
    3-4 up, then divided by five."""
    r = pips % 5
    rounded = pips if r == 0 else pips - r if r <= 2 else pips + 5 - r
    return rounded // 5


# ---------------------------------------------------------------------- HR-SETTLE-1
def rounding_rule(model: m.RoundingModel = m.ROUNDING, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-SETTLE-1: for every combined pip total ``P`` in 0..168, the credit is ``P``
    rounded once to the nearest multiple of five (``r = P mod 5``: 1-2 down, 3-4 up, 0
    stays), divided by five.  The rule is stated with its own quotient and remainder,
    not with the model's integer division."""
    P, q, r = z3.Ints("pips quotient remainder")
    rounded = z3.If(r == 0, P, z3.If(r <= 2, P - r, P + 5 - r))
    credit = model.credit(P)
    negation = [P >= 0, P <= MAX_PIPS_TOTAL, P == 5 * q + r, r >= 0, r <= 4, 5 * credit != rounded]  # noqa: SIM300  (P = 5q + r, as the proof reads)

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        p = value(s, P)
        return {"pips": p, "remainder": p % 5, "credit (model)": value(s, credit), "credit (rule)": _rule_rounding(p)}

    return refute(
        "rounding-rule",
        ["HR-SETTLE-1"],
        "credit(P) = P rounded to the nearest 5 (1-2 down, 3-4 up) / 5 for P in 0..168",
        model.name,
        negation,
        decode,
        timeout_ms,
    )


def rounding_monotone(model: m.RoundingModel = m.ROUNDING, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-SETTLE-1: more opponents' pips never give a smaller credit (0..168)."""
    P1, P2 = z3.Ints("pips_low pips_high")
    c1, c2 = model.credit(P1), model.credit(P2)
    negation = [P1 >= 0, P2 <= MAX_PIPS_TOTAL, P1 <= P2, c1 > c2]

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        return {
            "pips (fewer)": value(s, P1),
            "credit": value(s, c1),
            "pips (more)": value(s, P2),
            "credit ": value(s, c2),
        }

    return refute(
        "rounding-monotone",
        ["HR-SETTLE-1"],
        "P1 <= P2 implies credit(P1) <= credit(P2) for 0..168",
        model.name,
        negation,
        decode,
        timeout_ms,
    )


def rounding_within_two(model: m.RoundingModel = m.ROUNDING, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-SETTLE-1: five times the credit is never more than 2 pips from the total
    (0..168): the rounding goes to the *nearest* multiple of five."""
    P = z3.Int("pips")
    credit = model.credit(P)
    negation = [P >= 0, P <= MAX_PIPS_TOTAL, z3.Or(5 * credit - P > 2, P - 5 * credit > 2)]

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        p, c = value(s, P), value(s, credit)
        return {"pips": p, "credit (model)": c, "rounded pips": 5 * c, "off by": 5 * c - p}

    return refute(
        "rounding-within-two",
        ["HR-SETTLE-1"],
        "|5 * credit(P) - P| <= 2 for P in 0..168",
        model.name,
        negation,
        decode,
        timeout_ms,
    )


def rounding_once_witness(model: m.RoundingModel = m.ROUNDING, timeout_ms: int = TIMEOUT_MS) -> Witness:
    """HR-SETTLE-1 ("round the single total once"): Z3 *finds* two opponents' pip
    totals ``a``, ``b`` (``a + b <= 168``) for which rounding the combined total once
    differs from rounding each opponent separately; the smallest such ``a + b``."""
    a, b = z3.Ints("opponent_1 opponent_2")
    once = model.credit(a + b)
    separately = model.credit(a) + model.credit(b)
    opt = z3.Optimize()
    opt.set("timeout", timeout_ms)
    opt.add(a >= 0, b >= 0, a + b <= MAX_PIPS_TOTAL, a <= b, once != separately)
    opt.minimize(a + b)
    opt.minimize(a)
    start = time.perf_counter()
    answer = opt.check()
    seconds = time.perf_counter() - start
    question = "pips a, b of two opponents with credit(a + b) != credit(a) + credit(b), smallest a + b"
    if answer != z3.sat:
        return Witness(
            "rounding-once-witness",
            ("HR-SETTLE-1",),
            question,
            False,
            {},
            seconds,
            "unsat" if answer == z3.unsat else opt.reason_unknown(),
        )
    s = opt.model()
    values = {
        "opponent pips": [value(s, a), value(s, b)],
        "combined": value(s, a + b),
        "credit rounded once": value(s, once),
        "credit rounded separately": value(s, separately),
    }
    return Witness("rounding-once-witness", ("HR-SETTLE-1",), question, True, values, seconds)


# ---------------------------------------------------------------------- HR-CREDIT-1
def placement_credit(model: m.PlacementCreditModel = m.PLACEMENT_CREDIT, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-CREDIT-1: over the whole range of the engine's CREDIT table (counts 0..255),
    a placement's raw credit is its count exactly when the count is a positive multiple
    of five (``count = 5q`` with ``q >= 1``), and zero otherwise."""
    c, q, r = z3.Ints("count quotient remainder")
    paid = z3.And(r == 0, q >= 1)
    credit = model.credit_raw(c)
    negation = [c >= 0, c < m.CREDIT_TABLE_SIZE, c == 5 * q + r, r >= 0, r <= 4, credit != z3.If(paid, c, 0)]

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        n = value(s, c)
        return {
            "count": n,
            "credit_raw (model)": value(s, credit),
            "credit_raw (rule)": n if n > 0 and n % 5 == 0 else 0,
        }

    return refute(
        "placement-credit",
        ["HR-CREDIT-1"],
        "credit_raw(count) = count if count is a positive multiple of 5, else 0 (0..255)",
        model.name,
        negation,
        decode,
        timeout_ms,
    )


# ---------------------------------------------------------------------- spinners
def _spinner_vars(
    arm_max: int = MAX_PIPS_TOTAL,
) -> tuple[z3.ArithRef, list[z3.BoolRef], list[z3.ArithRef], list[z3.BoolRef]]:
    v = z3.Int("double_value")
    occ = [z3.Bool(f"occupied_{name}") for name in SPINNER_PORTS]
    arms = [z3.Int(f"arm_{name}") for name in SPINNER_PORTS]
    domain = [v >= 0, v <= 6] + [z3.And(a >= 0, a <= arm_max) for a in arms]
    return v, occ, arms, domain


def _describe_spinner(
    s: z3.ModelRef, v: z3.ArithRef, occ: list[z3.BoolRef], arms: list[z3.ArithRef], model: m.SpinnerModel
) -> dict[str, Any]:
    d = value(s, v)
    out: dict[str, Any] = {"spinner": f"[{d}|{d}]"}
    for p, name in enumerate(SPINNER_PORTS):
        out[name] = f"arm counting {value(s, arms[p])}" if value(s, occ[p]) else "free"
    out["double counted whole (model)"] = value(s, model.counts_whole(occ))
    out["double adds (model)"] = value(s, model.whole_value(v, occ))
    out["port adds (model)"] = {
        name: value(s, model.port_count(p, v, occ[p], arms[p])) for p, name in enumerate(SPINNER_PORTS)
    }
    out["available (model)"] = [name for p, name in enumerate(SPINNER_PORTS) if value(s, model.available(p, occ))]
    out["count (model)"] = value(s, model.total(v, occ, arms))
    return out


def unstarted_branches_count_zero(model: m.SpinnerModel = m.SPINNER, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-COUNT-3: an unstarted branch contributes zero, whatever the double's value;
    and a double with both linear sides occupied (interior) contributes zero itself."""
    v, occ, arms, domain = _spinner_vars()
    broken = [z3.And(z3.Not(occ[p]), model.port_count(p, v, occ[p], arms[p]) != 0) for p in BRANCHES]
    broken.append(
        z3.And(occ[LINEAR_A], occ[LINEAR_B], z3.Or(model.whole_value(v, occ) != 0, bool_term(model.counts_whole(occ))))
    )
    return refute(
        "unstarted-branches-count-zero",
        ["HR-COUNT-3", "HR-COUNT-1"],
        "a free branch adds 0 and an interior double adds 0 (is not a counted end)",
        model.name,
        [*domain, z3.Or(*broken)],
        lambda s: _describe_spinner(s, v, occ, arms, model),
        timeout_ms,
    )


def double_counts_once(model: m.SpinnerModel = m.SPINNER, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-COUNT-2: a double is a counted end worth exactly ``2 x v`` -- once, whether one
    or both linear sides are free -- exactly while a linear side is free."""
    v, occ, arms, domain = _spinner_vars()
    some_free = z3.Or(z3.Not(occ[LINEAR_A]), z3.Not(occ[LINEAR_B]))
    whole, counted = model.whole_value(v, occ), bool_term(model.counts_whole(occ))
    broken = z3.Or(
        z3.And(some_free, z3.Or(whole != 2 * v, z3.Not(counted))),
        z3.And(z3.Not(some_free), z3.Or(whole != 0, counted)),
    )
    return refute(
        "double-counts-once",
        ["HR-COUNT-2", "HR-COUNT-4"],
        "the double adds 2v, once, iff a linear side is free (else 0, not listed)",
        model.name,
        [*domain, broken],
        lambda s: _describe_spinner(s, v, occ, arms, model),
        timeout_ms,
    )


def no_branch_before_both_linear(model: m.SpinnerModel = m.SPINNER, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-SPIN-2: no branch is an attachment point while either linear side is free."""
    v, occ, arms, domain = _spinner_vars()
    broken = z3.Or(
        *[z3.And(bool_term(model.available(p, occ)), z3.Not(z3.And(occ[LINEAR_A], occ[LINEAR_B]))) for p in BRANCHES]
    )
    return refute(
        "no-branch-before-both-linear",
        ["HR-SPIN-2"],
        "a branch is available only when both linear sides are occupied",
        model.name,
        [*domain, broken],
        lambda s: _describe_spinner(s, v, occ, arms, model),
        timeout_ms,
    )


def branches_open_after_both_linear(model: m.SpinnerModel = m.SPINNER, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-SPIN-3 (canonical ``branch_use=both``), HR-PLACE-1: a port is available exactly
    when it is free and, for a branch, both linear sides are occupied -- so after one
    branch is started the other stays available."""
    v, occ, arms, domain = _spinner_vars()
    both_linear = z3.And(occ[LINEAR_A], occ[LINEAR_B])
    broken = z3.Or(
        *[
            bool_term(model.available(p, occ))
            != z3.And(z3.Not(occ[p]), z3.BoolVal(True) if p in LINEAR else both_linear)
            for p in range(4)
        ]
    )
    return refute(
        "branches-open-after-both-linear",
        ["HR-SPIN-3", "HR-PLACE-1"],
        "port p is available iff it is free and (linear, or both linear sides occupied)",
        model.name,
        [*domain, broken],
        lambda s: _describe_spinner(s, v, occ, arms, model),
        timeout_ms,
    )


# ---------------------------------------------------------------------- HR-MATCH-2
def _match_vars(sides: int) -> tuple[list[z3.ArithRef], list[z3.ArithRef], z3.ArithRef, list[z3.BoolRef]]:
    scores = [z3.Int(f"score_{i}") for i in range(sides)]
    credits = [z3.Int(f"credit_{i}") for i in range(sides)]
    target = z3.Int("target")
    domain = [target >= 1] + [z3.And(s >= 0, s < target) for s in scores] + [c >= 0 for c in credits]
    return scores, credits, target, domain


def _describe_match(
    s: z3.ModelRef, scores: list[z3.ArithRef], credits: list[z3.ArithRef], target: z3.ArithRef, model: m.MatchModel
) -> dict[str, Any]:
    after = model.after(scores, credits)
    winners = model.winners(after, target)
    return {
        "target": value(s, target),
        "scores before": [value(s, x) for x in scores],
        "settlement credits": [value(s, x) for x in credits],
        "scores after (model)": [value(s, x) for x in after],
        "match winners (model)": [i for i, w in enumerate(winners) if value(s, w)],
        "sides at or over the target": [
            i
            for i, (x, c) in enumerate(zip(scores, credits, strict=True))
            if value(s, x) + value(s, c) >= value(s, target)
        ],
    }


def match_winners_exact(sides: int, model: m.MatchModel = m.MATCH, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-MATCH-2: with every score below the target and any settlement credits, the
    match winners are exactly the sides whose score plus credit is at or over the target
    (credits applied together; all such sides share the win)."""
    scores, credits, target, domain = _match_vars(sides)
    winners = model.winners(model.after(scores, credits), target)
    broken = z3.Or(*[bool_term(w) != (s + c >= target) for w, s, c in zip(winners, scores, credits, strict=True)])
    return refute(
        f"match-winners-exact-{sides}",
        ["HR-MATCH-2"],
        f"{sides} sides: winner(i) iff score(i) + credit(i) >= target",
        model.name,
        [*domain, broken],
        lambda s: _describe_match(s, scores, credits, target, model),
        timeout_ms,
    )


def _select(items: Sequence[z3.ExprRef], index: z3.ArithRef) -> z3.ExprRef:
    """``items[index]`` for a symbolic index, as an If chain."""
    out = items[-1]
    for i in range(len(items) - 2, -1, -1):
        out = z3.If(index == i, items[i], out)
    return out


def match_winners_seat_blind(sides: int, model: m.MatchModel = m.MATCH, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-MATCH-2 ("seat order does not break the tie"): permuting the seats -- scores
    and credits together -- permutes the winners and nothing else, for every
    permutation (a symbolic one)."""
    scores, credits, target, domain = _match_vars(sides)
    perm = [z3.Int(f"seat_moved_to_{k}") for k in range(sides)]
    domain += [z3.And(p >= 0, p < sides) for p in perm] + [z3.Distinct(*perm)]
    winners = [bool_term(w) for w in model.winners(model.after(scores, credits), target)]
    p_scores = [_select(scores, p) for p in perm]
    p_credits = [_select(credits, p) for p in perm]
    p_winners = [bool_term(w) for w in model.winners(model.after(p_scores, p_credits), target)]
    broken = z3.Or(*[p_winners[k] != _select(winners, perm[k]) for k in range(sides)])

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        out = _describe_match(s, scores, credits, target, model)
        order = [value(s, p) for p in perm]
        out["permuted seating (new seat k holds old side)"] = order
        out["match winners after permuting (model), as old sides"] = [
            order[k] for k in range(sides) if value(s, p_winners[k])
        ]
        return out

    return refute(
        f"match-winners-seat-blind-{sides}",
        ["HR-MATCH-2"],
        f"{sides} sides: the set of winning sides does not depend on the seating",
        model.name,
        [*domain, broken],
        decode,
        timeout_ms,
    )


def scores_never_decrease(sides: int, model: m.MatchModel = m.MATCH, timeout_ms: int = TIMEOUT_MS) -> ProofResult:
    """HR-MATCH-2, HR-SETTLE-2 ("no score is ever reduced"): no score after the
    settlement credits is below the score before."""
    scores, credits, target, domain = _match_vars(sides)
    after = model.after(scores, credits)
    broken = z3.Or(*[a < s for a, s in zip(after, scores, strict=True)])
    return refute(
        f"scores-never-decrease-{sides}",
        ["HR-MATCH-2", "HR-SETTLE-2"],
        f"{sides} sides: score after >= score before",
        model.name,
        [*domain, broken],
        lambda s: _describe_match(s, scores, credits, target, model),
        timeout_ms,
    )


# ---------------------------------------------------------------------- HR-SETTLE-3
def tied_winners_full_credit(
    sides: int, model: m.BlockedSettlementModel = m.BLOCKED_SETTLEMENT, timeout_ms: int = TIMEOUT_MS
) -> ProofResult:
    """HR-SETTLE-3 (with HR-END-2, HR-SETTLE-1): in a blocked hand with any pip totals
    per side (each 0..168, together at most 168), the winners are exactly the sides
    tied for the lowest total, and each of them receives the full credit of *all* other
    sides' pips, co-winners included, rounded once (``|5c - P| <= 2``), not divided; every
    other side receives 0."""
    totals = [z3.Int(f"pips_side_{i}") for i in range(sides)]
    domain = [z3.And(p >= 0, p <= MAX_PIPS_TOTAL) for p in totals] + [total(totals) <= MAX_PIPS_TOTAL]
    winners = [bool_term(w) for w in model.winners(totals)]
    credits = [int_term(c) for c in model.credits(totals)]
    grand = total(totals)
    broken = []
    for i in range(sides):
        lowest = z3.And(*[totals[i] <= q for q in totals])
        others = grand - totals[i]
        broken += [
            winners[i] != lowest,
            z3.And(lowest, z3.Or(5 * credits[i] - others > 2, others - 5 * credits[i] > 2)),
            z3.And(z3.Not(lowest), credits[i] != 0),
        ]

    def decode(s: z3.ModelRef) -> dict[str, Any]:
        pips = [value(s, p) for p in totals]
        low = min(pips)
        return {
            "pips per side": pips,
            "tied lowest (rule)": [i for i, p in enumerate(pips) if p == low],
            "winners (model)": [i for i, w in enumerate(winners) if value(s, w)],
            "credits (model)": [value(s, c) for c in credits],
            "credits (rule)": [_rule_rounding(sum(pips) - p) if p == low else 0 for p in pips],
        }

    return refute(
        f"tied-winners-full-credit-{sides}",
        ["HR-SETTLE-3", "HR-END-2", "HR-SETTLE-1"],
        f"{sides} sides, blocked: each tied lowest side gets round(all other pips) / 5; others 0",
        model.name,
        [*domain, z3.Or(*broken)],
        decode,
        timeout_ms,
    )


# ---------------------------------------------------------------------- registry
SIDES = (2, 3, 4)

#: Every canonical proof, by a stable label.
PROOFS: dict[str, Callable[[], ProofResult]] = {
    "rounding-rule": rounding_rule,
    "rounding-monotone": rounding_monotone,
    "rounding-within-two": rounding_within_two,
    "placement-credit": placement_credit,
    "unstarted-branches-count-zero": unstarted_branches_count_zero,
    "double-counts-once": double_counts_once,
    "no-branch-before-both-linear": no_branch_before_both_linear,
    "branches-open-after-both-linear": branches_open_after_both_linear,
    **{f"match-winners-exact-{n}": partial(match_winners_exact, n) for n in SIDES},
    **{f"match-winners-seat-blind-{n}": partial(match_winners_seat_blind, n) for n in SIDES},
    **{f"scores-never-decrease-{n}": partial(scores_never_decrease, n) for n in SIDES},
    **{f"tied-winners-full-credit-{n}": partial(tied_winners_full_credit, n) for n in SIDES},
}


def run_all() -> list[ProofResult]:
    """Run every canonical proof; each result says whether it was proved, and how fast."""
    return [proof() for proof in PROOFS.values()]


__all__ = [  # noqa: PLE0604  (the proofs' names, unpacked below, are strings)
    "ProofResult",
    "Witness",
    "PROOFS",
    "run_all",
    "refute",
    "require",
    "TIMEOUT_MS",
    *(
        f.__name__
        for f in (
            rounding_rule,
            rounding_monotone,
            rounding_within_two,
            rounding_once_witness,
            placement_credit,
            unstarted_branches_count_zero,
            double_counts_once,
            no_branch_before_both_linear,
            branches_open_after_both_linear,
            match_winners_exact,
            match_winners_seat_blind,
            scores_never_decrease,
            tied_winners_full_credit,
        )
    ),
]
