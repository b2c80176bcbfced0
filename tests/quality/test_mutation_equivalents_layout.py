"""The checks behind the ``equivalent`` verdicts of horserace/quality/mutation_triage.yaml
for the code mutants of horserace/engine/layout.py.

Each names the reason a group of mutants cannot change what the engine does, and is shown
to catch what it names: an invariant of the layout is checked on the positions that random
play reaches under every reading and table, and fails on a layout that breaks it (built
by hand, or a killed mutant next to the equivalent ones); an exhaustive check runs over
every value the mutated expression can be given.
"""

from __future__ import annotations

import functools
from typing import Any, ClassVar

import pytest

pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")

from horserace.engine import layout as layout_module
from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_A, LINEAR_B, PORT_HIGH, PORT_LOW, Layout
from horserace.engine.tiles import FULL_SET_MASK, HIGH, IS_DOUBLE, LOW, VALUE_MASK
from horserace.errors import IllegalAction
from horserace.quality import code_mutants as cm
from tests.quality.test_mutation_equivalents import _every_table

_LA, _LB, _BA, _BB = 1 << LINEAR_A, 1 << LINEAR_B, 1 << BRANCH_A, 1 << BRANCH_B
#: The occupied ports a spinner can have, in the order it fills them: none (an opening
#: double), linear-a (the side a placed double touches with, or an opening double's first
#: side: linear-b is renamed linear-a while both are free, HR-MOVE-2), then linear-b, then
#: branch-a (branch-b is renamed branch-a while both are free), then branch-b (branch_use
#: both only).
SPINNER_STATES = (0, _LA, _LA | _LB, _LA | _LB | _BA, _LA | _LB | _BA | _BB)


def _mutants(code_start: str, *wanted: tuple[str, int], scope: str = "") -> list[cm.CodeMutant]:
    """The mutants of layout.py of a line (and scope) by (operator, nth)."""
    found = [
        m
        for m in cm.enumerate_mutants("layout")
        if m.code.startswith(code_start)
        and (m.operator.removeprefix("core/"), m.nth) in wanted
        and (m.scope == scope or (not scope and m.scope in ("<module>", "Layout.normalise")))
    ]
    assert len(found) == len(wanted), (code_start, wanted, found)
    return found


class _Recording(Layout):
    """The engine's layout, keeping every layout it was (as its placements) and checking,
    before each placement, that the port it fills is free."""

    __slots__ = ()
    seen: ClassVar[list[tuple[bool, tuple[tuple[int, int | None, int | None], ...]]]] = []

    def place(self, t: int, target: int | None, port: int | None) -> int:
        if target is not None and port is not None:
            assert not self._filled[target] >> port & 1, f"port {port} of {target} is occupied"
        count = super().place(t, target, port)
        moves = ((self.order[0], None, None), *((j[2], j[0], j[1]) for j in self._joins))
        type(self).seen.append((self._one_branch, moves))
        return count


class _RecordingHand(Hand):
    __slots__ = ()
    layout_class = _Recording


@functools.cache
def _positions() -> tuple[tuple[bool, tuple[tuple[int, int | None, int | None], ...]], ...]:
    """Every layout random play reaches (hands under each of the 64 readings and at each
    table, played through the public actions), as (branch_use_one, its placements)."""
    _Recording.seen = []
    _every_table(_RecordingHand, range(2), lambda h: None)
    return tuple(dict.fromkeys(_Recording.seen))


def _built(one: bool, moves: tuple[tuple[int, int | None, int | None], ...]) -> Layout:
    layout = Layout(branch_use_one=one)
    for t, target, port in moves:
        layout.place(t, target, port)
    return layout


def _spinner_states(layouts: list[Layout]) -> set[int]:
    return {lay.filled_ports(t) for lay in layouts for t in lay.order if IS_DOUBLE[t]}


def test_the_positions_cover_every_state_of_a_spinner():
    layouts = [_built(one, moves) for one, moves in _positions()]
    assert _spinner_states(layouts) == set(SPINNER_STATES)
    assert {_built(True, m).filled_ports(m[0][0]) for one, m in _positions() if one and IS_DOUBLE[m[0][0]]} <= set(
        SPINNER_STATES[:4]
    )


def test_a_spinner_fills_its_ports_in_order():
    """A double's occupied ports are one of :data:`SPINNER_STATES`: only its four ports,
    linear-b only with linear-a, branch-b only with branch-a (branch_use one: never),
    branches only with both linear sides.  So these masks, tested on a double's occupied
    ports, give the same answer as the engine's:

    - ``_BB`` written ``1 // 5``, ``1 % 5``, ``1 ** 5``, ``1 >> 5``, ``1 & 5``, ``2 << 5``
      or ``0 << 5`` (0, 1 or 64: a bit no double's ports hold, or none) in
      ``filled & (_BA | _BB)`` (``normalise``, ``attachment_points``);
    - ``_BA | _BB`` as ``_BA + _BB``, ``_BA - _BB`` (every bit from branch-a up),
      ``_BA % _BB`` (branch-a alone), ``_BA ^ _BB`` (``attachment_points``, ``normalise``);
    - ``_LA | _LB`` as ``_LA - _LB`` or ``_LA % _LB`` (linear-a alone), and
      ``filled & (_LA | _LB)`` as ``filled`` times, divided by, to the power of, or
      shifted by it (zero only when ``filled`` is) (``normalise``: a double with no
      linear side occupied has none occupied at all).

    A spinner whose branch-b is occupied and branch-a free (a state no move makes) is
    told apart: the state check fails, and ``_BA % _BB`` answers
    otherwise there."""
    layouts = [_built(one, moves) for one, moves in _positions()]
    assert _spinner_states(layouts) <= set(SPINNER_STATES)
    branch_masks = [_BA | _BB, _BA + _BB, _BA - _BB, _BA % _BB, _BA ^ _BB, _BA | 0, _BA | 1, _BA | 64]
    mutated_bb = {
        cm._namespace("layout", cm.mutated_source(m))["_BB"]
        for m in _mutants(
            "_LA, _LB, _BA, _BB",
            ("ReplaceBinaryOperator_LShift_FloorDiv", 3),
            ("ReplaceBinaryOperator_LShift_Mod", 3),
            ("ReplaceBinaryOperator_LShift_Pow", 3),
            ("ReplaceBinaryOperator_LShift_RShift", 3),
            ("ReplaceBinaryOperator_LShift_BitAnd", 3),
            ("NumberReplacer", 6),
            ("NumberReplacer", 7),
        )
    }
    assert mutated_bb == {0, 1, 64}
    branch_masks += [_BA | b for b in mutated_bb]
    for f in SPINNER_STATES:
        assert len({bool(f & mask) for mask in branch_masks}) == 1, f
        linear = f & (_LA | _LB)
        assert (
            not linear
            == (not f & (_LA - _LB))
            == (not f & (_LA % _LB))
            == (not f * (_LA | _LB))
            == (not f / (_LA | _LB))
            == (not (f ** (_LA | _LB)))
            == (not f << (_LA | _LB))
        ), f
    # A branch-b filled before branch-a (no move of the engine makes it) breaks the order,
    # and the masks no longer agree there.
    wrong = _built(False, ((0, None, None), (1, 0, LINEAR_A), (2, 0, LINEAR_B)))  # [0|0], [0|1], [0|2]
    wrong._filled[0] |= _BB
    assert not _spinner_states([wrong]) <= set(SPINNER_STATES)
    f = wrong.filled_ports(0)
    assert bool(f & (_BA | _BB)) != bool(f & (_BA % _BB))


#: The mutants of ``Layout.normalise`` whose equivalence rests on the order of a spinner's
#: ports (above) and on a refusal being observed by its rule only (its words are not).
NORMALISE = [
    *_mutants(
        "if port == LINEAR_B and not filled & (_LA | _LB):",
        ("ReplaceBinaryOperator_BitOr_Sub", 0),
        ("ReplaceBinaryOperator_BitOr_Mod", 0),
        ("ReplaceBinaryOperator_BitAnd_Mul", 0),
        ("ReplaceBinaryOperator_BitAnd_Div", 0),
        ("ReplaceBinaryOperator_BitAnd_Mod", 0),
        ("ReplaceBinaryOperator_BitAnd_Pow", 0),
        ("ReplaceBinaryOperator_BitAnd_LShift", 0),
        ("ReplaceComparisonOperator_Eq_LtE", 0),
        ("ReplaceComparisonOperator_Eq_GtE", 0),
    ),
    *_mutants(
        "elif port == BRANCH_B and not filled & (_BA | _BB):",
        ("ReplaceBinaryOperator_BitOr_Sub", 0),
        ("ReplaceBinaryOperator_BitOr_Mod", 0),
        ("ReplaceComparisonOperator_Eq_GtE", 0),
    ),
    *_mutants(
        "if double and self._one_branch and port >= BRANCH_A and filled & (_BA | _BB):",
        ("ReplaceBinaryOperator_BitOr_Sub", 0),
        ("ReplaceBinaryOperator_BitOr_Mod", 0),
        ("ReplaceComparisonOperator_GtE_NotEq", 0),
        ("ReplaceComparisonOperator_GtE_Gt", 0),
        ("ReplaceComparisonOperator_GtE_IsNot", 0),
    ),
    *_mutants(
        "if port >= BRANCH_A and filled & _BOTH_LINEAR != _BOTH_LINEAR:", ("ReplaceComparisonOperator_NotEq_Lt", 0)
    ),
    *_mutants('kind = "a double" if double else "a non-double"', ("AddNot", 0)),
]


@functools.cache
def _normalise_cases() -> tuple[tuple[Layout, int, int | None, int | None], ...]:
    """Every move of every tile off the layout, on a double of the layout (each port, the
    ones it does not have included) or on its first tile, on a sample of the positions
    (each kind of spinner state under both readings of HRI-10 among them)."""
    cases: list[tuple[Layout, int, int | None, int | None]] = []
    positions = _positions()
    for one, moves in positions[:: max(1, len(positions) // 150)]:
        layout = _built(one, moves)
        targets = [*[t for t in layout.order if IS_DOUBLE[t]][:3], layout.order[0]]
        for t in range(28):
            if t in layout:
                continue
            cases.extend((layout, t, target, port) for target in targets for port in range(6))
    return tuple(cases)


def _answers(cases: tuple[tuple[Layout, int, int | None, int | None], ...]) -> list[Any]:
    out: list[Any] = []
    for layout, t, target, port in cases:
        try:
            out.append(layout.normalise(t, target, port))
        except IllegalAction as exc:
            out.append(exc.rule)
    return out


def test_normalise_answers_alike_where_a_spinner_fills_its_ports_in_order():
    """With each mutant of :data:`NORMALISE` in the engine, ``Layout.normalise`` accepts
    the same moves, under the same canonical names, and refuses the others under the same
    rule, for every tile off the layout on every port of the layout's doubles, on the
    positions of random play (a fixture observes a refusal's rule, not its words:
    tests/quality/test_mutation_equivalents.py::test_a_refusal_is_observed_by_its_index_and_rule_alone).
    ``filled & (_LA | _LB)`` as ``filled % 12`` differs at both linear sides occupied,
    where linear-b becomes linear-a: occupied too, the same refusal; ``port >= BRANCH_A``
    as ``!=``, ``>`` or ``is not`` in the check of HR-SPIN-3 differs at branch-a, which is
    occupied whenever a branch is started under branch_use one (branch-b is renamed
    branch-a while both are free).  The same check tells ``port >= BRANCH_A`` as
    ``port == BRANCH_A`` in the check of HR-SPIN-2 (killed by DRR471): branch-b accepted
    with a linear side free."""
    cases = _normalise_cases()
    assert len(cases) > 10_000
    reference = _answers(cases)
    assert {"HR-SPIN-2", "HR-SPIN-3", "HR-PLACE-1", "HR-MOVE-1"} <= {a for a in reference if isinstance(a, str)}
    for m in NORMALISE:
        with cm.applied(m):
            assert _answers(cases) == reference, m.key
    (killed,) = _mutants(
        "if port >= BRANCH_A and filled & _BOTH_LINEAR != _BOTH_LINEAR:", ("ReplaceComparisonOperator_GtE_Eq", 0)
    )
    with cm.applied(killed):
        assert _answers(cases) != reference


def test_a_port_shows_its_half_whichever_comparison_picks_high():
    """``HIGH[t] if port == PORT_HIGH else LOW[t]`` (``port_value``, and the value of a
    move in ``Layout.save`` and ``Layout.place``) as ``port >= PORT_HIGH``: they differ only
    at the four ports of a double, whose halves are equal; a port is always one of its
    tile's own (``normalise`` refuses the others, HR-MOVE-1; ``moves_for_mask`` offers no
    other).  ``port > PORT_HIGH`` is told apart (the high end of a non-double)."""
    for t in range(28):
        for port in (LINEAR_A, LINEAR_B, BRANCH_A, BRANCH_B) if IS_DOUBLE[t] else (PORT_LOW, PORT_HIGH):
            assert (HIGH[t] if port == PORT_HIGH else LOW[t]) == (HIGH[t] if port >= PORT_HIGH else LOW[t])
    assert any(
        (HIGH[t] if port == PORT_HIGH else LOW[t]) != (HIGH[t] if port > PORT_HIGH else LOW[t])
        for t in range(28)
        for port in (PORT_LOW, PORT_HIGH)
    )


def test_the_half_a_non_double_touches_with_is_one_of_its_two():
    """``Layout.place``: ``elif lo == value`` as ``lo >= value``, and ``Layout.save``:
    ``lo != value`` as ``lo < value``, for a non-double placed on a value it shows (the
    move is legal, HR-PLACE-1): the value is its low half or its higher high half, so
    ``>=`` holds only at equality and ``<`` at the high half.  ``lo <= value`` is told
    apart."""
    for t in range(28):
        if IS_DOUBLE[t]:
            continue
        lo = LOW[t]
        for value in (LOW[t], HIGH[t]):
            assert (lo == value) == (lo >= value)
            assert (lo != value) == (lo < value)
    assert any((LOW[t] == v) != (LOW[t] <= v) for t in range(28) if not IS_DOUBLE[t] for v in (LOW[t], HIGH[t]))


def test_the_linear_sides_compared_by_order():
    """``filled & _BOTH_LINEAR != _BOTH_LINEAR`` as ``<`` (``contributions``,
    ``attachment_points``) and ``== _BOTH_LINEAR`` as ``>=`` (``place``): the masked value
    is never above the mask, for every bit set of six ports.  ``port == BRANCH_A`` as
    ``port <= BRANCH_A`` in ``place``, where the port is past linear-b (branch-a or
    branch-b): the same.  The mask of a non-double's port, ``1 << port`` as ``1 + port``
    in ``contributions``, for its two ports 0 and 1.  Each told apart where it can be
    (``> _BOTH_LINEAR`` never holds; ``1 + port`` at port 2)."""
    both = _LA | _LB
    for f in range(64):
        assert (f & both != both) == (f & both < both)
        assert (f & both == both) == (f & both >= both)
    assert not any(f & both > both for f in range(64))
    for port in (BRANCH_A, BRANCH_B):
        assert (port == BRANCH_A) == (port <= BRANCH_A)
    for port in (PORT_LOW, PORT_HIGH):
        assert 1 << port == 1 + port
    assert 1 << LINEAR_A != 1 + LINEAR_A


def test_a_placement_fills_a_free_port():
    """Every placement of random play (every reading and table) fills a port that was
    free, so ``filled_ports[target] | (1 << port)`` in ``Layout.place`` as ``+`` or ``^``
    gives the same bits.  The check fails on a placement onto an occupied port."""
    _positions()  # plays through _Recording.place, which asserts it
    layout = _Recording()
    layout.place(8, None, None)  # [1|2]
    layout.place(3, 8, PORT_LOW)  # [0|1] on its low end
    with pytest.raises(AssertionError, match="occupied"):
        layout.place(4, 8, PORT_LOW)  # [0|2]... on the same port
    _Recording.seen = []


def _state(layout: Layout) -> tuple[Any, ...]:
    return (
        layout.count,
        layout._open_values,
        layout.open_mask,
        [list(s) for s in layout._slots],
        dict(layout._filled),
        list(layout.order),
    )


def test_an_empty_layout_reads_neither_its_count_nor_its_open_values():
    """``self.count = 0`` and ``self._open_values = 0`` of ``Layout.__init__`` and of
    ``Layout.restore`` (the opening tile taken back), written 1 or -1: on an empty layout
    no query reads them (the moves, their count, the contributions and attachment points
    of an empty layout are those of every tile, or none), and the opening tile sets both
    before anything reads them.  A wrong ``_open_values`` after the opening is told apart:
    ``count_moves_for_mask`` reads it."""
    for wrong in (1, -1):
        for t in range(28):
            for how in ("init", "restore"):
                layout = Layout()
                if how == "restore":
                    layout.place(5, None, None)
                    layout.restore(None)
                layout.count = layout._open_values = wrong
                assert layout.moves_for_mask(FULL_SET_MASK) == [(u, None, None) for u in range(28)]
                assert layout.count_moves_for_mask(FULL_SET_MASK) == 28
                assert layout.contributions() == [] and layout.attachment_points() == []
                layout.place(t, None, None)
                fresh = Layout()
                fresh.place(t, None, None)
                assert _state(layout) == _state(fresh)
    layout = Layout()
    layout.place(8, None, None)  # [1|2]
    n = layout.count_moves_for_mask(FULL_SET_MASK)
    layout._open_values = 1
    assert layout.count_moves_for_mask(FULL_SET_MASK) != n


_VALUES_OF_MUTANTS = _mutants(
    "tuple(v for v in range(MAX_PIPS + 1) if b >> v & 1)",
    ("ReplaceBinaryOperator_RShift_BitOr", 0),
    ("ReplaceBinaryOperator_RShift_BitXor", 0),
    ("ReplaceBinaryOperator_BitAnd_Mul", 0),
    ("ReplaceBinaryOperator_BitAnd_FloorDiv", 0),
    ("ReplaceBinaryOperator_BitAnd_Mod", 0),
    ("ReplaceBinaryOperator_BitAnd_Pow", 0),
    ("ReplaceBinaryOperator_BitAnd_LShift", 0),
    ("ReplaceBinaryOperator_BitAnd_BitOr", 0),
)


def _counts(layouts: list[Layout], values_of: tuple[tuple[int, ...], ...], hands: list[int]) -> list[int]:
    out = []
    for layout in layouts:
        for hand in hands:
            playable = hand & layout.open_mask
            if not playable or not layout.order:
                out.append(playable.bit_count())
                continue
            out.append(
                sum(
                    len(layout._slots[v]) * (playable & VALUE_MASK[v]).bit_count()
                    for v in values_of[layout._open_values]
                )
            )
    return out


def test_the_values_counted_are_the_open_ones_and_any_with_no_move():
    """``_VALUES_OF[b]`` (read only by ``count_moves_for_mask``) built with ``b >> v & 1``
    written ``b | v & 1``, ``b ^ v & 1``, ``b >> v * 1`` (``// 1``, ``** 1``),
    ``b >> v % 1``, ``b >> v << 1`` or ``b >> v | 1``: each entry holds every value whose bit
    is set, once, and maybe others; and on every layout of random play a value whose bit
    is clear in ``_open_values`` has no slot (the invariant of ``place``), so it adds
    nothing to the count, which is that of ``moves_for_mask``.  A table that leaves out a
    value whose bit is set (value 0) is told apart."""
    layouts = [_built(one, moves) for one, moves in _positions()[::5]]
    for layout in layouts:
        assert all(bool(layout._slots[v]) == bool(layout._open_values >> v & 1) for v in range(7))
    hands = [FULL_SET_MASK, *(VALUE_MASK[v] for v in range(7)), 0x5A5A5A5, 0xA5A5A5A]
    reference = [len(layout.moves_for_mask(hand)) for layout in layouts for hand in hands]
    assert _counts(layouts, layout_module._VALUES_OF, hands) == reference
    for m in _VALUES_OF_MUTANTS:
        table = cm._namespace("layout", cm.mutated_source(m))["_VALUES_OF"]
        for b in range(128):
            assert set(layout_module._VALUES_OF[b]) <= set(table[b]) and len(set(table[b])) == len(table[b]), (m.key, b)
        assert _counts(layouts, table, hands) == reference, m.key
    short = tuple(tuple(v for v in vs if v) for vs in layout_module._VALUES_OF)
    assert _counts(layouts, short, hands) != reference


def test_the_triage_names_these_checks():
    """Every mutant named above is equivalent in the triage with a check of this file, and
    every check of this file the triage names is a test here."""
    triage = cm.load_triage()
    here = "tests/quality/test_mutation_equivalents_layout.py::"
    for m in [*NORMALISE, *_VALUES_OF_MUTANTS]:
        assert triage[m.key]["verdict"] == "equivalent" and triage[m.key]["check"].startswith(here), m.key
    named = {e["check"].removeprefix(here) for e in triage.values() if e.get("check", "").startswith(here)}
    assert len(named) == 8 and all(callable(globals().get(name)) for name in named), named
