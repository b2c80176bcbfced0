"""Ties between the Z3 models of :mod:`horserace.verify.models` and the engine.

A proof speaks about a model; it speaks for the engine only if the model computes what
the engine computes.  Each function here evaluates a model (:func:`models.evaluate`, on
constants) at every point of a bounded domain, or at one point chosen by the caller
(Hypothesis), runs the engine's own code at the same point and returns the mismatches:
an empty list means the model and the engine agree there.

* HR-SETTLE-1: :func:`rounding_mismatches` -- every pip total 0..168 against
  ``horserace.engine.settlement.hand_credit`` and ``round_to_five``;
* HR-CREDIT-1: :func:`credit_mismatches` -- every count of ``horserace.engine.layout.CREDIT``;
* HR-COUNT-2, HR-COUNT-3, HR-SPIN-2: :func:`spinner_layouts` -- every layout reachable
  by up to ``max_placements`` legal placements from every opening tile, each spinner of
  it compared with the model (``Layout.count``, ``contributions()``,
  ``attachment_points()``);
* HR-MATCH-2: :func:`match_case` -- one call of ``horserace.engine.settlement.settle``;
* HR-SETTLE-3: :func:`blocked_case` -- one blocked-hand call of ``settle``.

Each tie takes the engine's part it compares as an argument, the reference engine's by
default: a table or function (``table=``, ``hand_credit=``) or an engine (``engine=``, a
:class:`~horserace.engine.hand.Hand` subclass through its seams).  A test shows that a tie
catches a drifted engine by handing it one, without patching anything; another
(tests/proofs/test_ties_on_path.py) that each default is code the engine runs when it
plays and settles a hand, so that a proof does not speak for a function no hand calls.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import lru_cache

import z3

from horserace.engine import layout as layout_module
from horserace.engine import settlement
from horserace.engine.hand import Hand
from horserace.engine.layout import CREDIT, LINEAR_A, PORT_HIGH, PORT_LOW, AttachmentPoint, Contribution, Layout
from horserace.engine.tiles import FULL_SET_MASK, HIGH, IS_DOUBLE, LOW, NAMES
from horserace.verify import models as m
from horserace.verify.models import SPINNER_PORTS, evaluate

#: Engine port number of model port ``p`` (horserace.engine.layout: LINEAR_A = 2 .. BRANCH_B = 5).
ENGINE_PORT = tuple(LINEAR_A + p for p in range(4))


# ---------------------------------------------------------------------- HR-SETTLE-1
def rounding_mismatches(
    model: m.RoundingModel = m.ROUNDING,
    *,
    hand_credit: Callable[[int], int] = settlement.hand_credit,
    round_to_five: Callable[[int], int] = settlement.round_to_five,
) -> list[str]:
    """The model's credit against ``hand_credit`` (and five times it against
    ``round_to_five``) for every pip total 0..168."""
    out = []
    pips = z3.Int("pips")
    credit = model.credit(pips)
    for p in range(m.MAX_PIPS_TOTAL + 1):
        c = evaluate(z3.substitute(credit, (pips, z3.IntVal(p))))
        if c != hand_credit(p):
            out.append(f"pips {p}: model credit {c}, engine hand_credit {hand_credit(p)}")
        if 5 * c != round_to_five(p):
            out.append(f"pips {p}: model rounds to {5 * c}, engine round_to_five {round_to_five(p)}")
    return out


# ---------------------------------------------------------------------- HR-CREDIT-1
def credit_mismatches(
    model: m.PlacementCreditModel = m.PLACEMENT_CREDIT, *, table: Sequence[int] = CREDIT
) -> list[str]:
    """The model's raw credit against ``table`` (the engine's ``horserace.engine.layout.CREDIT``)
    over its whole range."""
    count = z3.Int("count")
    credit = model.credit_raw(count)
    out = []
    if len(table) != m.CREDIT_TABLE_SIZE:
        out.append(f"CREDIT has {len(table)} entries; the proof covers 0..{m.CREDIT_TABLE_SIZE - 1}")
    for c in range(len(table)):
        got = evaluate(z3.substitute(credit, (count, z3.IntVal(c))))
        if got != table[c]:
            out.append(f"count {c}: model credit_raw {got}, engine CREDIT[{c}] = {table[c]}")
    return out


# ---------------------------------------------------------------------- spinners
@dataclass
class SpinnerTieReport:
    """What :func:`spinner_layouts` checked and what disagreed."""

    max_placements: int
    sequences: int = 0  #: placement sequences of 1..max_placements placements walked
    layouts: int = 0  #: distinct layouts among them
    spinner_checks: int = 0  #: (layout, spinner) pairs compared with the model
    started_branches: int = 0  #: of which the spinner has a started branch
    model_states: int = 0  #: distinct (value, occupied ports, arm counts) evaluated in Z3
    mismatches: list[str] = field(default_factory=list)


class SpinnerEvaluator:
    """The model evaluated on constants, cached per distinct argument."""

    def __init__(self, model: m.SpinnerModel) -> None:
        self.model = model
        self.whole = lru_cache(maxsize=None)(self._whole)
        self.available = lru_cache(maxsize=None)(self._available)
        self.total = lru_cache(maxsize=None)(self._total)

    def _whole(self, v: int, occ: tuple[bool, ...]) -> tuple[bool, int]:
        return bool(evaluate(self.model.counts_whole(occ))), int(evaluate(self.model.whole_value(v, occ)))

    def _available(self, occ: tuple[bool, ...]) -> frozenset[int]:
        return frozenset(p for p in range(4) if evaluate(self.model.available(p, occ)))

    def _total(self, v: int, occ: tuple[bool, ...], arms: tuple[int, ...]) -> int:
        return int(evaluate(self.model.total(v, occ, arms)))


def _describe(layout: Layout) -> str:
    out = [NAMES[layout.order[0]]]
    out.extend(f"{NAMES[c.other]} on {NAMES[c.tile]} {layout_module.PORT_NAMES[c.port]}" for c in layout.connections())
    return ", ".join(out)


def check_layout_spinners(layout: Layout, ev: SpinnerEvaluator) -> tuple[int, int, list[str]]:
    """Compare every spinner of ``layout`` with the model; returns (spinners, spinners
    with a started branch, mismatches).

    The model's inputs come from the layout's *connections* only: which ports of the
    double are occupied, and each arm's counted sum -- the tiles beyond that port, each
    non-double counting its unconnected halves and each double what the model says.
    The engine's answers are ``Layout.count`` (kept incrementally), ``contributions()``
    and ``attachment_points()`` (derived from its port bit sets)."""
    joins = _joins(layout)
    contributions = layout.contributions()
    found = _count_mismatches(layout, joins, ev, contributions)
    points = layout.attachment_points()
    spinners = [t for t in layout.order if IS_DOUBLE[t]]
    branched = 0
    for d in spinners:
        occ = tuple(ENGINE_PORT[p] in joins[d] for p in range(4))
        branched += any(occ[p] for p in m.BRANCHES)
        found += _spinner_mismatches(layout, d, occ, joins, ev, contributions, points)
    where = f"layout {_describe(layout)}" if found else ""
    return len(spinners), branched, [f"{where}: {problem}" for problem in found]


#: Each tile of a layout: its ports that are joined, and the tile joined there.
_Joins = dict[int, dict[int, int]]


def _joins(layout: Layout) -> _Joins:
    """The layout's connections, both ways: tile -> {port: the tile joined there}."""
    joins: _Joins = {t: {} for t in layout.order}
    for c in layout.connections():
        joins[c.tile][c.port] = c.other
        joins[c.other][c.other_port] = c.tile
    return joins


def _own_count(t: int, joins: _Joins, ev: SpinnerEvaluator) -> int:
    """What tile ``t`` counts by the model: a double what the model says of its occupied
    ports, another tile its unconnected halves."""
    if IS_DOUBLE[t]:
        occ = tuple(ENGINE_PORT[p] in joins[t] for p in range(4))
        return ev.whole(LOW[t], occ)[1]
    return sum(v for port, v in ((PORT_LOW, LOW[t]), (PORT_HIGH, HIGH[t])) if port not in joins[t])


def _arm_count(start: int, came_from: int, joins: _Joins, ev: SpinnerEvaluator) -> int:
    """An arm's counted sum: every tile reached from ``start`` without going back through
    ``came_from``."""
    seen, stack, counted = {came_from, start}, [start], 0
    while stack:
        t = stack.pop()
        counted += _own_count(t, joins, ev)
        for nxt in joins[t].values():
            if nxt not in seen:
                seen.add(nxt)
                stack.append(nxt)
    return counted


def _count_mismatches(
    layout: Layout, joins: _Joins, ev: SpinnerEvaluator, contributions: Sequence[Contribution]
) -> list[str]:
    """``Layout.count`` against the sum of its contributions and against the model's count
    from the connections."""
    problems = []
    if sum(c.value for c in contributions) != layout.count:
        problems.append(f"Layout.count {layout.count} != sum of contributions()")
    reference = sum(_own_count(t, joins, ev) for t in layout.order)
    if reference != layout.count:
        problems.append(f"Layout.count {layout.count}, counted from connections with the model {reference}")
    return problems


def _spinner_mismatches(
    layout: Layout,
    d: int,
    occ: tuple[bool, ...],
    joins: _Joins,
    ev: SpinnerEvaluator,
    contributions: Sequence[Contribution],
    points: Sequence[AttachmentPoint],
) -> list[str]:
    """Spinner ``d`` (its ports ``occ``) against the model: no started branch with a free
    linear side (HR-SPIN-2), its contribution, the layout's count, its attachment points."""
    problems = []
    v = LOW[d]
    if any(occ[p] for p in m.BRANCHES) and not (occ[m.LINEAR_A] and occ[m.LINEAR_B]):
        problems.append(f"{NAMES[d]} has a started branch with a free linear side (HR-SPIN-2)")
    arms = tuple(_arm_count(joins[d][ENGINE_PORT[p]], d, joins, ev) if occ[p] else 0 for p in range(4))
    counted, whole = ev.whole(v, occ)
    listed = [c.value for c in contributions if c.tile == d]
    if listed != ([whole] if counted else []):
        problems.append(f"{NAMES[d]} contributions() {listed}, model {[whole] if counted else []}")
    model_total = ev.total(v, occ, arms)
    if model_total != layout.count:
        state = ", ".join(f"{SPINNER_PORTS[p]}={'arm ' + str(arms[p]) if occ[p] else 'free'}" for p in range(4))
        problems.append(f"Layout.count {layout.count}, model count at {NAMES[d]} ({state}) {model_total}")
    engine_ports = frozenset(pt.port - LINEAR_A for pt in points if pt.tile == d)
    if engine_ports != ev.available(occ):
        problems.append(
            f"{NAMES[d]} attachment points {sorted(SPINNER_PORTS[p] for p in engine_ports)}, "
            f"model {sorted(SPINNER_PORTS[p] for p in ev.available(occ))}"
        )
    return problems


def spinner_layouts(
    model: m.SpinnerModel = m.SPINNER,
    max_placements: int = 4,
    *,
    max_mismatches: int = 20,
    engine: type[Hand] = Hand,
) -> SpinnerTieReport:
    """Walk every legal placement sequence of 1..``max_placements`` placements from every
    opening tile (the engine's move generator, canonical ruleset) and check every
    spinner of every layout against the model."""
    report = SpinnerTieReport(max_placements)
    ev = SpinnerEvaluator(model)
    seen: set[tuple[int | None, frozenset[tuple[int, int, int, int]]]] = set()

    def walk(path: list[tuple[int, int | None, int | None]], placed: int) -> None:
        if len(report.mismatches) >= max_mismatches:
            return  # enough evidence; the counts in the report are then partial
        layout = engine.layout_class()
        for move in path:
            layout.place(*move)
        if path:
            report.sequences += 1
            key = (
                layout.order[0] if len(layout.order) == 1 else None,
                frozenset((c.tile, c.port, c.other, c.other_port) for c in layout.connections()),
            )
            if key not in seen:
                seen.add(key)
                checked, branched, problems = check_layout_spinners(layout, ev)
                report.spinner_checks += checked
                report.started_branches += branched
                if len(report.mismatches) < max_mismatches:
                    report.mismatches.extend(problems[: max_mismatches - len(report.mismatches)])
        if len(path) == max_placements:
            return
        for move in layout.moves_for_mask(FULL_SET_MASK & ~placed):
            walk([*path, move], placed | 1 << move[0])

    walk([], 0)
    report.layouts = len(seen)
    report.model_states = ev.total.cache_info().currsize
    return report


# ---------------------------------------------------------------------- HR-MATCH-2
def match_case(
    model: m.MatchModel,
    pips_by_seat: Sequence[int],
    *,
    partnership: bool,
    domino_seat: int | None,
    scores: Sequence[int],
    target: int,
    engine: type[Hand] = Hand,
) -> list[str]:
    """One settlement by the engine (``engine.settle``); the model, given the same
    scores, the engine's credits and the target, must give the same scores after and
    the same match winners."""
    result = engine.settle(pips_by_seat, partnership=partnership, domino_seat=domino_seat, scores=scores, target=target)
    after = [evaluate(m.int_term(a)) for a in model.after(list(scores), list(result.credits))]
    winners = tuple(i for i, w in enumerate(model.winners(after, target)) if evaluate(m.bool_term(w)))
    out = []
    if tuple(after) != tuple(result.scores):
        out.append(
            f"scores {list(scores)} + credits {list(result.credits)}: model {after}, engine {list(result.scores)}"
        )
    if winners != tuple(result.match_winners):
        out.append(
            f"scores after {list(result.scores)}, target {target}: model winners {list(winners)}, "
            f"engine {list(result.match_winners)}"
        )
    return out


# ---------------------------------------------------------------------- HR-SETTLE-3
def blocked_case(
    model: m.BlockedSettlementModel, pips_by_seat: Sequence[int], *, partnership: bool, engine: type[Hand] = Hand
) -> list[str]:
    """One blocked hand settled by the engine (``engine.settle``); the model, given each
    side's pip total, must name the same winners and credits."""
    n = len(pips_by_seat)
    result = engine.settle(
        pips_by_seat, partnership=partnership, domino_seat=None, scores=[0] * (2 if partnership else n), target=10**9
    )
    totals = settlement.side_totals(pips_by_seat, partnership)
    winners = tuple(i for i, w in enumerate(model.winners(totals)) if evaluate(m.bool_term(w)))
    credits = tuple(evaluate(m.int_term(c)) for c in model.credits(totals))
    out = []
    if winners != tuple(result.winners):
        out.append(
            f"pips {list(pips_by_seat)} (sides {totals}): model winners {list(winners)}, engine {list(result.winners)}"
        )
    if credits != tuple(result.credits):
        out.append(
            f"pips {list(pips_by_seat)} (sides {totals}): model credits {list(credits)}, engine {list(result.credits)}"
        )
    return out


__all__ = [
    "SpinnerEvaluator",
    "SpinnerTieReport",
    "blocked_case",
    "check_layout_spinners",
    "credit_mismatches",
    "match_case",
    "rounding_mismatches",
    "spinner_layouts",
]
