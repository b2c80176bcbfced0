"""The checks behind the ``equivalent`` verdicts of horserace/quality/mutation_triage.yaml.

Two kinds:

- an **invariant** of the engine that makes a mutated test unable to change a result
  (:func:`test_a_pending_drawn_tile_is_the_only_playable_tile`): a tile drawn playable is
  the only playable tile its drawer holds, so ``if self._pending >= 0`` and the branch for
  no pending tile give the same answer for it, [0|0] (tile 0) included;
- a **differential** check of each mutant that claims one of these
  (:func:`test_each_equivalent_plays_as_the_engine`): with the mutant in the engine,
  random hands under every one of the 64 combinations of the register's readings, at every
  table, played through the public actions, give the same observations as the engine
  (the legal placements and their count, must-draw, may-end-turn, the pending tile, the
  refusal of a draw while a tile is pending, every event and score).

Each is shown to catch what it names: the invariant fails under the named deviation
``draw-while-playable``, the differential check tells a killed mutant from the engine.
"""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest

pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")

from horserace.engine.hand import Hand
from horserace.engine.match import Match
from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS
from horserace.engine.tiles import tiles_of
from horserace.errors import IllegalAction
from horserace.quality import code_mutants as cm
from horserace.quality.mutants import MUTANTS

RULESETS = [
    Ruleset.from_readings(dict(zip(VARIANT_FIELDS, combo, strict=True)))
    for combo in itertools.product(*VARIANT_FIELDS.values())
]
THIS = "tests/quality/test_mutation_equivalents.py"


def _play(engine: type[Hand], ruleset: Ruleset, players: int, partnership: bool, seed: int, look: Any) -> list[Any]:
    """One hand through the public actions, chosen with ``seed``; ``look(hand)`` after
    every action, and what the hand offers at each step, in the returned trace."""
    rng = random.Random(seed)
    match = Match(players, partnership=partnership, ruleset=ruleset, seed=seed, engine=engine)
    h = match.deal()
    trace: list[Any] = []
    while not h.over:
        look(h)
        moves = h.legal_placements()
        seat = h.to_act
        trace.append((seat, sorted(moves), h.count_placements(), h.must_draw(), h.may_end_turn(), h.pending_drawn))
        if h.pending_drawn is not None or (moves and h.boneyard_left and rng.random() < 0.25):
            try:  # a draw the rules refuse (HR-DRAW-2 while a tile is pending, HR-DRAW-1 with one to place)
                drawn = h.draw(seat)
                trace.append(("drew while it had a placement", drawn))
                look(h)
                continue
            except IllegalAction as exc:
                trace.append(exc.rule)
        choices: list[tuple[Any, ...]] = [("place", *m) for m in moves]
        if h.may_end_turn():
            choices.append(("end",))
        if h.must_draw():
            choices.append(("draw",))
        elif not moves:
            choices.append(("pass",))
        action = choices[rng.randrange(len(choices))]
        if action[0] == "place":
            h.place(seat, *action[1:])
        elif action[0] == "draw":
            trace.append(("drew", h.draw(seat)))
        elif action[0] == "pass":
            h.pass_turn(seat)
        else:
            h.end_turn(seat)
    trace.append((tuple(h.events), tuple(h.scores)))
    return trace


def _pending_is_alone(h: Hand) -> None:
    pending = h.pending_drawn
    if pending is not None:
        playable = [t for t in tiles_of(h.hands[h.to_act]) if h.layout.moves_for(t)]
        assert playable == [pending], f"pending {pending}, playable {playable}"
        assert h.legal_placements() == h.layout.moves_for_mask(h.hands[h.to_act])


def _every_table(engine: type[Hand], seeds: range, look: Any) -> list[Any]:
    # A deal of its own for each table, reading and seed.
    return [
        _play(engine, ruleset, s.players, s.partnership, (seed * len(RULESETS) + r) * len(SEATINGS) + k, look)
        for r, ruleset in enumerate(RULESETS)
        for k, s in enumerate(SEATINGS)
        for seed in seeds
    ]


def test_a_pending_drawn_tile_is_the_only_playable_tile():
    """Under every reading and table: while a drawn tile is pending it is the only tile of
    its drawer with a legal placement, and the legal placements are those of the whole
    hand.  So ``_pending >= 0`` against ``> 0`` (or ``== 0``) in ``legal_placements``,
    ``count_placements``, ``pass_turn`` and ``play_forced`` cannot change an answer."""
    _every_table(Hand, range(3), _pending_is_alone)


def test_the_invariant_catches_a_drawer_who_held_a_playable_tile():
    with pytest.raises(AssertionError, match="pending"):
        _every_table(MUTANTS["draw-while-playable"].engine, range(3), _pending_is_alone)


def _equivalents() -> list[dict[str, Any]]:
    """Every mutant the triage calls equivalent, whatever its own check: each is played
    against the engine as well."""
    return [e for e in cm.load_triage().values() if e["verdict"] == "equivalent"]


def _mutant(entry: dict[str, Any]) -> cm.CodeMutant:
    key = cm.entry_key(entry)
    return next(m for m in cm.enumerate_mutants(entry["module"]) if m.key == key)


def _differs(m: cm.CodeMutant, seeds: range) -> bool:
    reference = _every_table(Hand, seeds, lambda h: None)
    with cm.applied(m):
        try:
            mutated = _every_table(Hand, seeds, lambda h: None)
        except Exception:  # noqa: BLE001  (a mutant that raises anything differs)
            return True
    return mutated != reference


@pytest.mark.slow
@pytest.mark.parametrize("entry", _equivalents(), ids=lambda e: f"{e['module']}:{e['line']}:{e['operator']}")
def test_each_equivalent_plays_as_the_engine(entry):
    assert not _differs(_mutant(entry), range(2))


@pytest.mark.slow
def test_the_differential_check_tells_a_real_mutant():
    m = next(
        m
        for m in cm.enumerate_mutants("hand")
        if m.operator == "core/ReplaceComparisonOperator_GtE_Gt" and m.code == "if self._pending >= 0:" and m.line > 650
    )
    assert _differs(m, range(2))  # the draw refused while [0|0] is pending (DD8G82 kills it)


def test_small_ints_are_one_object_each():
    """``a == b`` as ``a is b`` (and ``!=`` as ``is not``) cannot change a result where
    both sides are ints from -5 to 256, which CPython keeps one object each of: tile
    indices (0-27), ports (0-5), pip values (0-6) and pip totals (at most 168), seats and
    sides, positions in the boneyard (0-28), masks of a tile's ports (below 64)."""
    for i in range(-5, 257):
        assert int(str(i)) is i and (i + 0) is i and sum([i, 0]) is i
    assert (257 + int("0")) is not int("257")  # beyond the cache, identity is not equality


def test_a_refusal_is_observed_by_its_index_and_rule_alone(corpus):
    """An illegal fixture observes the index of the refused action and its rule, not the
    message's text (spec/fixture-format.md): a mutant that changes only the words of a
    refusal, or which of two refusals under the same rule is raised (``there is no seat``
    and ``it is seat N's turn``, both HR-SEAT-3), cannot change an observation."""
    from horserace.corpus.observers import observe

    illegal = [fx for fx in corpus.fixtures if fx.kind == "illegal"]
    assert illegal
    for fx in illegal:
        observed = observe(fx.kind, fx.input, fx.variants)
        assert set(observed) <= {"rejected_at", "rule"}, (fx.id, observed)


def test_a_reading_equals_only_itself():
    """``ruleset.field is READING`` as ``==``: a ruleset's fields always hold members of
    their enum (``Ruleset.__post_init__`` turns strings into them), and a member equals
    only itself; ``type(self).earns_continuation is not Hand.earns_continuation`` as
    ``!=``: functions compare by identity."""
    from horserace.engine.ruleset import _ENUMS

    for enum_type in _ENUMS.values():
        for a in enum_type:
            for b in enum_type:
                assert (a == b) is (a is b)
    for ruleset in RULESETS:
        assert all(isinstance(getattr(ruleset, f), _ENUMS[f]) for f in _ENUMS)
    for m in MUTANTS.values():
        assert (m.engine.earns_continuation != Hand.earns_continuation) is (
            m.engine.earns_continuation is not Hand.earns_continuation
        )


def _no_tile_left_undrawable(engine: type[Hand]) -> bool:
    """``end = len(boneyard) - undrawable`` and ``end if end > 0 else 0`` in ``Hand.__init__``
    give the boneyard's length for every length a deal has (0 to 28) when ``undrawable``
    is 0, whichever of ``+ - >> << | ^`` and ``> != >=`` (or ``> -1``) is written."""
    u = engine._class_seams[2]
    for n in range(len(tiles_of((1 << 28) - 1)) + 1):
        ends = {n - u, n + u, n >> u, n << u, n | u, n ^ u}
        if len(ends) != 1:
            return False
        end = ends.pop()
        # the engine's line and its mutants, written as they are
        if {end if end > 0 else 0, end if end != 0 else 0, end if end >= 0 else 0, end if end > -1 else 0} != {n}:  # noqa: FURB136
            return False
    return True


def test_the_engine_leaves_no_tile_of_the_boneyard_undrawable():
    assert Hand.undrawable == 0 and _no_tile_left_undrawable(Hand)


def test_the_undrawable_check_tells_a_house_rule_that_keeps_tiles_back():
    assert not _no_tile_left_undrawable(MUTANTS["last-two-stay-in-boneyard"].engine)


def _orders_as_identity(reading: Any, compare: Any) -> bool:
    """``field is reading`` written ``compare(field, reading)`` (``<=``, ``>=``) gives the same
    answer for every member of the field's enum (its readings are strings, ordered)."""
    return all(bool(compare(m, reading)) is (m is reading) for m in type(reading))


def test_a_two_way_reading_compared_by_order_is_its_identity():
    """In ``Hand.__init__``, each of these two-member fields compared with ``<=`` or ``>=``
    in place of ``is``: 'earned' and 'immediate' are the lesser reading of theirs, 'one',
    'whole-hand' and 'end-turn' the greater."""
    import operator

    from horserace.engine.ruleset import (
        BlockDetection,
        BranchUse,
        ContinuationWithoutTile,
        DrawnTileScope,
        OpeningContinuation,
    )

    assert _orders_as_identity(OpeningContinuation.EARNED, operator.le)
    assert _orders_as_identity(BlockDetection.IMMEDIATE, operator.le)
    assert _orders_as_identity(BranchUse.ONE, operator.ge)
    assert _orders_as_identity(DrawnTileScope.WHOLE_HAND, operator.ge)
    assert _orders_as_identity(ContinuationWithoutTile.END_TURN, operator.ge)
    # It tells a comparison that is not: 'never' >= 'earned' and 'both' <= 'one' hold.
    assert not _orders_as_identity(OpeningContinuation.EARNED, operator.ge)
    assert not _orders_as_identity(BranchUse.ONE, operator.le)


def _never_a_tile(sentinel: int) -> bool:
    return all(t != sentinel for t in range(28)) and tiles_of((1 << 28) - 1) == list(range(28))


def test_the_exempt_tile_sentinel_is_any_number_that_is_no_tile():
    """``Hand._exempt`` is compared only with a tile index (``tile == self._exempt``), so
    its start -1 written -2 (``~1``, ``- 2``) cannot change an answer; -0 would: it is
    [0|0]."""
    import inspect

    source = inspect.getsource(Hand)
    reads = [line.strip() for line in source.splitlines() if "_exempt" in line and "self._exempt =" not in line]
    assert all("== self._exempt" in r or r.startswith(("self._exempt,", '"_exempt"', "Tile,")) for r in reads), reads
    assert _never_a_tile(-1) and _never_a_tile(~1) and _never_a_tile(-2)
    assert not _never_a_tile(-0)


def test_the_engine_forces_no_reading():
    """``if self.forced_readings:`` as ``if not ...`` in ``Hand.__init__``: the engine's
    forced readings are empty, so the loop over them does nothing either way; a deviation
    that forces one is told apart."""
    assert dict(Hand.forced_readings) == {}
    assert dict(MUTANTS["opener-denied-continuation"].engine.forced_readings) != {}


def test_the_port_bits_are_disjoint():
    """``_LA | _LB`` and ``_BA | _BB`` in ``Layout.normalise`` as ``+`` or ``^``: the two
    bits of each pair are distinct powers of two, so or, sum and exclusive or agree; ``-``
    does not (it is another mutant)."""
    from horserace.engine import layout

    for a, b in ((layout._LA, layout._LB), (layout._BA, layout._BB)):
        assert a & b == 0 and a | b == a + b == a ^ b
        assert a - b != a | b


def test_a_tile_is_the_same_whichever_half_is_written_first_when_they_are_equal():
    """``(a, b) if a <= b else (b, a)`` in ``tile()`` as ``a < b``: they differ only when
    ``a == b``, where both orders are the same pair; ``a > b`` is told apart."""
    for a in range(7):
        for b in range(7):
            assert ((a, b) if a <= b else (b, a)) == ((a, b) if a < b else (b, a))
    assert any(((a, b) if a <= b else (b, a)) != ((a, b) if a > b else (b, a)) for a in range(7) for b in range(7))


#: The tables of layout.py by the indices the engine can read: a set of pip values is a
#: mask of 7 bits (below 128); a count never exceeds 168, the pips of the whole set.
_READ = {"MASK_OF_VALUES": 128, "_VALUES_OF": 128, "CREDIT": 169, "POINTS": 169}


def _tables_agree_where_read(m: cm.CodeMutant) -> bool:
    mutated, pristine = cm._namespace("layout", cm.mutated_source(m)), cm._pristine("layout")
    return all(tuple(mutated[t][:n]) == tuple(pristine[t][:n]) for t, n in _READ.items())


def _table_mutants(line_start: str, operators: tuple[str, ...]) -> list[cm.CodeMutant]:
    return [m for m in cm.enumerate_mutants("layout") if m.code.startswith(line_start) and m.operator in operators]


def test_a_table_built_longer_or_shorter_agrees_where_the_engine_reads_it():
    """``range(1 << (MAX_PIPS + 1))`` written ``1 << (MAX_PIPS << 1)``, ``2 << ...`` or
    ``MAX_PIPS + 2`` (a table of 256 or 4,096 entries), and ``range(256)`` of CREDIT as 255
    or 257: every entry the engine can read is as it was (a longer table adds entries past
    them, a shorter CREDIT loses only count 255); ``b >> v & 1`` as ``b | v & 1`` is told
    apart."""
    picked = {
        ("MASK_OF_VALUES", "core/ReplaceBinaryOperator_Add_LShift", 0),
        ("MASK_OF_VALUES", "core/NumberReplacer", 0),
        ("MASK_OF_VALUES", "core/NumberReplacer", 2),
        ("tuple(v for v in range", "core/ReplaceBinaryOperator_Add_LShift", 1),
        ("tuple(v for v in range", "core/NumberReplacer", 4),
        ("tuple(v for v in range", "core/NumberReplacer", 6),
        ("CREDIT: tuple", "core/NumberReplacer", 8),
        ("CREDIT: tuple", "core/NumberReplacer", 9),
    }
    kept = [m for start, op, nth in picked for m in _table_mutants(start, (op,)) if m.nth == nth]
    assert len(kept) == len(picked) and all(_tables_agree_where_read(m) for m in kept)
    (other,) = _table_mutants("tuple(v for v in range", ("core/ReplaceBinaryOperator_RShift_BitOr",))
    assert not _tables_agree_where_read(other)


def _draws_stay_within_the_boneyard(h: Hand) -> None:
    assert 0 <= h._next_draw <= h._boneyard_end, f"next draw {h._next_draw} past the end {h._boneyard_end}"


def test_the_next_draw_never_passes_the_end_of_the_boneyard():
    """Under every reading and table the position of the next draw is at most the end of
    the boneyard: a draw is refused at the end (HR-DRAW-4) and each draw takes one tile.
    So ``next == end`` as ``next >= end`` (the block checks of ``_place``, ``_draw``,
    ``check_position`` and ``end_turn``), ``next < end`` as ``next != end``
    (``pass_turn``, ``play_forced``) and ``next >= end`` as ``next == end`` (``draw``)
    cannot change an answer."""
    _every_table(Hand, range(3), _draws_stay_within_the_boneyard)


_KeptBack: type[Hand] = MUTANTS["last-two-stay-in-boneyard"].engine  # a class of the registry, named for mypy


class _DrawsAKeptBackTile(_KeptBack):  # type: ignore[valid-type,misc]  # a base held in a variable
    """The house rule that keeps the boneyard's last two tiles back, its end's refusal
    gone (every other refusal of a draw kept): a seat with no placement draws one of the
    kept tiles, and the next draw passes the end."""

    def must_draw(self) -> bool:
        return (
            not self.over
            and self._pending < 0
            and not self.can_place(self.to_act)
            and self._next_draw <= self._boneyard_end
        )

    def draw(self, seat: int) -> int:
        end = self._boneyard_end  # type: ignore[has-type]  # set by the engine's __init__, through a base mypy cannot see
        self._boneyard_end = len(self.boneyard)  # HR-DRAW-4 refused only past the kept tiles
        try:
            return int(super().draw(seat))
        finally:
            self._boneyard_end = end


def test_the_boneyard_bound_catches_a_draw_past_the_end():
    with pytest.raises(AssertionError, match="past the end"):
        _every_table(_DrawsAKeptBackTile, range(3), _draws_stay_within_the_boneyard)
