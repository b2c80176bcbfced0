"""The checks behind the ``equivalent`` verdicts of horserace/quality/mutation_triage.yaml
for the modules perft and tiles.

Each names the reason a mutated line cannot change what the engine does, and is shown
to catch what it names: the depth check fails under the triaged mutant ``depth < 0`` of
``divide`` at depth 0; the walks' agreement fails under the house rule
``draw-while-playable`` and under two killed mutants of the bulk count; the identity
check tells a string built at run time; the record check tells a move not taken back;
each table check tells a nearby change that is not equivalent (a table one entry short,
a pip mask that drops [0|1], an opening mask that drops [0|0], a tile check that lets a
half of 7 through).
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")

from horserace.corpus.fixture import Corpus
from horserace.corpus.observers import _ruleset, perft_position
from horserace.engine import perft as perft_module
from horserace.engine import tiles
from horserace.engine.hand import Hand
from horserace.engine.perft import DRAW, END_TURN, decisions, divide, make_decision
from horserace.quality import code_mutants as cm
from horserace.quality.house_rules import HOUSE_RULES

PACKAGE = Path(perft_module.__file__).resolve().parent.parent
#: The depth the walks are compared at: the generated perft fixtures go to 13, which a
#: move-by-move walk would take minutes over; every hand-made one is at most 4.
MAX_DEPTH = 4


def _mutant(module: str, operator: str, code: str, nth: int = 0) -> cm.CodeMutant:
    return next(
        m for m in cm.enumerate_mutants(module) if m.operator == f"core/{operator}" and m.code == code and m.nth == nth
    )


def _positions(corpus: Corpus, engine: type[Hand] = Hand) -> Iterator[tuple[str, Hand, int]]:
    """Every perft fixture's position under its readings, with its depth (at most
    :data:`MAX_DEPTH`, and at most 2 for a fresh deal of the generated ones)."""
    for fx in corpus.fixtures:
        if fx.kind != "perft":
            continue
        depth = min(fx.input["depth"], MAX_DEPTH if fx.origin != "generated" else 2)
        yield fx.id, perft_position(fx.input, _ruleset(fx.variants), engine), depth


@contextmanager
def _depths_seen() -> Iterator[list[int]]:
    """Every depth the two walks of perft.py are called with, while the block runs."""
    seen: list[int] = []
    originals = {name: getattr(perft_module, name) for name in ("_count", "_count_choosing")}

    def spy(walk: Callable[..., int]) -> Callable[..., int]:
        def counted(hand: Hand, depth: int, each: Any = None) -> int:
            seen.append(depth)
            return walk(hand, depth, each)

        return counted

    try:
        for name, walk in originals.items():
            setattr(perft_module, name, spy(walk))
        yield seen
    finally:
        for name, walk in originals.items():
            setattr(perft_module, name, walk)


def test_perft_walks_no_depth_below_one(corpus):
    """``_count`` and ``_count_choosing`` are only called with ``depth >= 1``: ``divide``
    returns at ``depth < 1`` and calls the walk with ``depth - 1`` only when ``depth`` is
    not 1; ``_count`` goes down (``below = depth - 1``) only in its branch for ``depth``
    not 1.  So in ``_count`` ``depth <= 1`` is ``depth == 1``, and ``below`` is at least 1:
    ``below <= 1`` is ``below == 1``, while ``below < 1`` and ``below == 0`` are never true
    (the walk then goes move by move, which counts the same:
    :func:`test_the_bulk_ply_is_only_a_shortcut`); in ``divide``, past the return at
    ``depth < 1``, ``depth <= 1`` is ``depth == 1``."""
    with _depths_seen() as seen:
        for _, hand, depth in _positions(corpus):
            for d in range(depth + 1):
                divide(hand, d)
    assert seen and min(seen) >= 1


def test_the_depth_check_tells_a_walk_called_at_depth_zero(corpus):
    """Under the mutant ``if depth < 0:`` of ``divide`` (out of reach: the schema asks a
    perft fixture for a depth of 1 to 20), depth 0 walks each root at depth -1."""
    fx = next(f for f in corpus.fixtures if f.id == "JNGCW0")
    with cm.applied(_mutant("perft", "NumberReplacer", "if depth < 1:", 1)), _depths_seen() as seen:
        divide(perft_position(fx.input, _ruleset(fx.variants)), 0)
    assert min(seen) < 1


def _walks_agree(corpus: Corpus, engine: type[Hand]) -> list[str]:
    """The fixtures whose position ``_count`` (the last ply in bulk, reached from
    ``divide`` without progress, or move by move with ``each``) and ``_count_choosing``
    (move by move, every move of :func:`decisions` made) count differently."""
    differ = []
    for fid, hand, depth in _positions(corpus, engine):
        for d in range(1, depth + 1):
            counts = {
                perft_module._count(hand, d),
                perft_module._count(hand, d, lambda n, done, of: None),
                perft_module._count_choosing(hand, d),
            }
            if len(counts) != 1:
                differ.append(f"{fid} at depth {d}: {sorted(counts)}")
    return differ


def test_the_bulk_ply_is_only_a_shortcut(corpus):
    """On the reference engine (``play_before_drawing`` true: no draw is ever a choice,
    HR-DRAW-1) the bulk walk, the same walk move by move (``each`` given, or ``below``
    never 1) and ``_count_choosing`` count the same at every depth.  So
    ``below == 1 and each is None`` written ``below < 1``, ``below == 0`` or
    ``each is not None`` (the last ply made move by move, or counted in bulk with
    ``each`` given, which is then not told of it: what only a progress display reads)
    cannot change a count, nor can ``count = _count if not hand.play_before_drawing
    else _count_choosing`` in ``divide``: every engine a replay runs has
    ``play_before_drawing`` true."""
    assert Hand.play_before_drawing is True
    assert _walks_agree(corpus, Hand) == []


def test_the_walks_tell_a_draw_that_is_a_choice(corpus):
    """Under the house rule draw-while-playable drawing is a move, which only
    ``_count_choosing`` counts: the two walks differ there."""
    assert _walks_agree(corpus, HOUSE_RULES["draw-while-playable"].engine)


def _every_decision(hand: Hand, depth: int, strings: list[str]) -> None:
    """The moves of :func:`decisions` down the tree to ``depth``: each string in
    ``strings``, each placement checked to equal neither constant."""
    forced = hand.play_forced()
    for move in [] if hand.over or depth < 1 else decisions(hand):
        if isinstance(move, str):
            strings.append(move)
        else:
            assert move not in (END_TURN, DRAW)
        make_decision(hand, move)
        _every_decision(hand, depth - 1, strings)
        hand.undo()
    for _ in range(forced):
        hand.undo()


def test_make_decision_is_given_the_constants_themselves(corpus):
    """``move == END_TURN`` and ``move == DRAW`` in ``make_decision`` as ``is``: its
    callers in horserace (``divide``, ``positions.descend``, ``cluster.perft``) give it a
    move of :func:`decisions`, whose strings are the two constants themselves; a
    placement is a tuple, never equal to either."""
    callers = sorted(
        str(p.relative_to(PACKAGE))
        for p in PACKAGE.rglob("*.py")
        if "make_decision(" in p.read_text(encoding="utf-8") and p.name != "__init__.py"
    )
    assert callers == ["cluster/perft.py", "corpus/positions.py", "engine/perft.py"], callers
    for path in callers:
        source = (PACKAGE / path).read_text(encoding="utf-8")
        calls = re.findall(r"make_decision\(hand, (\w+(?:\[\w+\])?)\)", source)
        assert calls and all(c in ("move", "moves[root]") for c in calls), (path, calls)
    strings: list[str] = []
    for engine in (Hand, HOUSE_RULES["draw-while-playable"].engine):
        for _, hand, depth in _positions(corpus, engine):
            _every_decision(hand, min(depth, 3), strings)
    assert {END_TURN, DRAW} <= set(strings)  # continuation=optional, and the house rule
    assert all(s is END_TURN or s is DRAW for s in strings)
    made = "".join(["end-", "turn"])  # noqa: FLY002  (made at run time: equal to END_TURN, another object)
    assert made == END_TURN and made is not END_TURN


def test_the_walk_keeps_no_event(corpus):
    """``hand.record = False`` in ``divide`` as ``True``: the walk then records the events
    of its moves, and takes each back with its move (``Hand.undo`` cuts the events to
    their length before it); no count reads an event.  So the counts are the same and the
    hand's events after the walk are those before it."""
    for fid, hand, depth in _positions(corpus):
        before = divide(hand, depth)
        hand.record = True
        events = list(hand.events)
        assert divide(hand, depth) == before, fid
        assert hand.events == events, fid
    # It tells a move not taken back: its event stays.
    hand.play_forced()
    if not hand.over:
        make_decision(hand, decisions(hand)[0])
        assert hand.events != events


def _table(module: str, name: str, m: cm.CodeMutant | None = None) -> Any:
    return (cm._namespace(module, cm.mutated_source(m)) if m else cm._pristine(module))[name]


VALUE_MASK_LINE = "sum(1 << t for t in ALL_TILES if v in (LOW[t], HIGH[t])) for v in range(MAX_PIPS + 1)"


def test_a_longer_value_mask_agrees_where_it_is_read():
    """``VALUE_MASK`` built over ``range(MAX_PIPS << 1)`` or ``range(MAX_PIPS + 2)``: the
    entries past 6 are 0 (no tile shows a 7 or more), and the engine indexes it only by a
    pip value 0..6 (``layout._mask_of_values`` over ``range(MAX_PIPS + 1)``, ``count``
    over ``_VALUES_OF``); ``MASK_OF_VALUES``, built from it, is the same.  One entry short
    is told apart."""
    from horserace.engine import layout

    pristine = _table("tiles", "VALUE_MASK")
    for op, nth in (("ReplaceBinaryOperator_Add_LShift", 0), ("NumberReplacer", 2)):
        longer = _table("tiles", "VALUE_MASK", _mutant("tiles", op, VALUE_MASK_LINE, nth))
        assert len(longer) > len(pristine) and longer[: len(pristine)] == pristine
        assert set(longer[len(pristine) :]) == {0}
    reads = re.findall(r"VALUE_MASK\[(\w+)\]", inspect.getsource(layout))
    assert sorted(set(reads)) == ["v", "value"]
    assert all(v <= tiles.MAX_PIPS for values in layout._VALUES_OF for v in values)
    shorter = pristine[: tiles.MAX_PIPS]  # range(MAX_PIPS): value 6 lost, read at 6
    assert any(v == tiles.MAX_PIPS for values in layout._VALUES_OF for v in values) and len(shorter) == 6


def test_the_full_set_mask_is_read_only_as_a_filter_of_tiles():
    """``FULL_SET_MASK`` written -1 (``1 // 28``, ``1 >> 28``, ``1 & 28``, ``0 << 28``,
    less 1) or ``(2 << 28) - 1``: the engine reads it only as a layout's ``open_mask``
    (HR-OPEN-2, every tile playable on an empty layout), which every reader ands with a
    hand or a tile's bit, both within the 28 bits of the set; on those the three masks
    agree.  (Outside the engine, the layout generator of horserace.corpus.generate and
    horserace.verify.ties take it as the set of unplaced tiles; no replay runs either.)
    ``(1 << 28) - 2`` drops [0|0] (RYAJ52 kills it)."""
    engine = PACKAGE / "engine"
    # Besides the filters (``x & open_mask``) and the assignments, the lines that name it:
    # a local copy read only by a filter, the slot, a comment, a layout's save and restore.
    others = {
        "open_mask = self.layout.open_mask",
        "open_mask = layout.open_mask",
        '__slots__ = ("_filled", "_joins", "_one_branch", "_open_values", "_slots", "count", "open_mask", "order")',
        "self.open_mask,",
        "target, filled, count, open_values, open_mask, value, value_slots, added, added_slots = saved",
        "self.open_mask = open_mask",
    }
    for path in engine.glob("*.py"):
        source = path.read_text(encoding="utf-8")
        assert "FULL_SET_MASK" not in source or path.name in ("tiles.py", "layout.py"), path
        for line in source.splitlines():
            if "open_mask" not in line or line.strip() in others or "``open_mask``" in line:
                continue
            rest = re.sub(r"& (self\.layout\.|layout\.|self\.)?open_mask\b", "", line)
            rest = re.sub(r"(self\.)?open_mask(: Mask)? = (FULL_SET_MASK|MASK_OF_VALUES\[\w+\])$", "", rest.strip())
            assert "open_mask" not in rest, (path.name, line)
    full = (1 << tiles.TILE_COUNT) - 1
    masks = {-1, (2 << tiles.TILE_COUNT) - 1}
    for t in range(tiles.TILE_COUNT):
        bit = 1 << t
        assert all(bit & m == bit & full for m in masks)
    assert {_table("tiles", "FULL_SET_MASK", m) for m in _full_set_mutants()} == masks
    assert 1 & full != 1 & ((1 << tiles.TILE_COUNT) - 2)  # [0|0], tile 0


def _full_set_mutants() -> list[cm.CodeMutant]:
    code = "FULL_SET_MASK = (1 << TILE_COUNT) - 1"
    return [
        _mutant("tiles", op, code, nth)
        for op, nth in (
            ("ReplaceBinaryOperator_LShift_FloorDiv", 0),
            ("ReplaceBinaryOperator_LShift_RShift", 0),
            ("ReplaceBinaryOperator_LShift_BitAnd", 0),
            ("NumberReplacer", 0),
            ("NumberReplacer", 1),
        )
    ]


def test_the_blank_tile_adds_no_pips():
    """``_PIPS_OF_BITS_0[mask & 126]`` in ``pips_of``: bit 0 is [0|0], 0 pips (HR-SET-2),
    so every one of the 128 indices gives the same total with it or without; ``& 125``
    (dropping [0|1]) is told apart."""
    table = tiles._PIPS_OF_BITS_0
    assert tiles.PIPS[0] == 0 and tiles.NAMES[0] == "[0|0]"
    assert all(table[b & 126] == table[b & 127] for b in range(128))
    assert any(table[b & 125] != table[b & 127] for b in range(128))


def test_no_caller_gives_a_tile_a_negative_half():
    """``0 <= a`` (or ``0 <= b``) as ``-1 <= a`` in ``tile()``: they differ only at -1,
    which no caller gives: ``parse_tile`` reads each half with the pattern ``\\d+``,
    digits only, and ``observers._WRITTEN`` and ``verify.synthesis`` give 0..6.  On every
    half a caller can give the two checks agree; ``or`` for ``and`` does not (a 7)."""
    assert tiles._NOTATION.match("[-1|3]") is None and tiles._NOTATION.match("[ -1 | 3 ]") is None
    pattern = tiles._NOTATION.pattern
    assert pattern.count(r"(\d+)") == 2
    for a in range(100):
        for b in range(100):
            given = 0 <= a <= 6 and 0 <= b <= 6
            assert given == (-1 <= a <= 6 and 0 <= b <= 6) == (0 <= a <= 6 and -1 <= b <= 6)
    callers = [
        line.strip()
        for p in PACKAGE.rglob("*.py")
        for line in p.read_text(encoding="utf-8").splitlines()
        if re.search(r"(?<![\w.])tile\(", line) and "def tile(" not in line and "tile(s)" not in line
    ]
    assert len(callers) == 3, callers  # parse_tile, observers._WRITTEN, verify.synthesis
    a, b = 7, 3  # [7|3]: where `and` and `or` part
    assert (0 <= a <= 6 or 0 <= b <= 6) != (0 <= a <= 6 and 0 <= b <= 6)


def test_the_walks_tell_a_killed_bulk_count(corpus):
    """The agreement of the walks fails under the bulk count's mutants that are not
    equivalent: ``+`` as ``<<`` in the bulk leaf (18350X kills it), ``below >= 1`` (every
    ply below counted in bulk, JNGCW0 kills it)."""
    bulk = "if below == 1 and each is None:  # the last ply in bulk: one leaf per move, none made"
    leaf = "nodes += 1 if hand.over else count_placements() + may_end_turn()"
    for m in (
        _mutant("perft", "ReplaceBinaryOperator_Add_LShift", leaf),
        _mutant("perft", "ReplaceComparisonOperator_Eq_GtE", bulk),
    ):
        with cm.applied(m):
            assert _walks_agree(corpus, Hand), m.operator
