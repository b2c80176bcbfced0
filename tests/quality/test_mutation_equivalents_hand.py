"""The checks behind the ``equivalent`` verdicts of horserace/quality/mutation_triage.yaml
for the code mutants of ``hand`` and ``settlement`` (the rest are in
tests/quality/test_mutation_equivalents.py, whose differential check plays every
``equivalent`` entry as well).

Each check is an invariant or an exhaustive comparison that would fail if its
equivalence did not hold, and each is shown to catch what it names: the same check run
on a nearby mutant that is killed, or on an engine built to break the invariant, fails.
"""

from __future__ import annotations

import itertools
import operator
import random
from typing import Any, ClassVar

import pytest

pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")

from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.engine.match import Match
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import Continuation
from horserace.engine.seating import SEATINGS
from horserace.engine.settlement import settle
from horserace.engine.tiles import IS_DOUBLE, TILE_COUNT
from horserace.errors import IllegalAction
from horserace.quality import code_mutants as cm
from horserace.quality.mutants import MUTANTS
from tests.quality.test_mutation_equivalents import RULESETS, _every_table, _orders_as_identity


def _mutant(module: str, operator_name: str, code: str, nth: int = 0) -> cm.CodeMutant:
    (m,) = [
        m
        for m in cm.enumerate_mutants(module)
        if m.operator == f"core/{operator_name}" and m.code == code and m.nth == nth
    ]
    return m


def _random_play(engine: type[Hand], seeds: range) -> None:
    """Hands played to their end through :meth:`Hand.run` (random play's loop, which
    places through ``_place`` and draws and passes without the public checks), under
    every reading and at every table."""
    for r, ruleset in enumerate(RULESETS):
        for k, s in enumerate(SEATINGS):
            for seed in seeds:
                n = (seed * len(RULESETS) + r) * len(SEATINGS) + k
                match = Match(s.players, partnership=s.partnership, ruleset=ruleset, seed=n, engine=engine)
                play_random_hand(match.deal(), random.Random(n))


def _replay_corpus(corpus: Any, engine: type[Hand]) -> None:
    for fx in corpus.fixtures:
        if fx.kind != "layout" and not fx.deprecated:
            observe(fx.kind, fx.input, fx.variants, engine=engine)


# ---------------------------------------------------------------------- _place: hand ^ bit
class _TileHeld(Hand):
    """Asserts, at every placement, that the placed tile is in its placer's hand."""

    def _place(self, seat: int, tile: int, target: int | None, port: int | None) -> Any:
        assert self.hands[seat] >> tile & 1, f"seat {seat} places {tile}, which it does not hold"
        return super()._place(seat, tile, target, port)


class _PlacesAnyTile(_TileHeld):
    """HR-PLACE-3's refusal taken out of :meth:`Hand.place`: a tile is placed whoever holds it."""

    def place(self, seat: int, tile: int, target: int | None = None, port: int | None = None) -> Any:
        self._check_actor(seat)
        target, port = self.layout.normalise(tile, target, port)
        return self._place(seat, tile, target, port)


def test_a_placed_tile_is_always_in_its_placers_hand(corpus):
    """``hand = hands[seat] ^ bit`` in ``Hand._place`` as ``hands[seat] - bit``: the two
    agree exactly when ``bit`` is set in ``hands[seat]`` (xor clears a set bit, as
    subtracting it does), and every placement places a tile its placer holds:
    :meth:`Hand.place` refuses any other (HR-PLACE-3) before ``_place``, and
    :meth:`Hand.make` and :meth:`Hand.run` take their moves from the placer's own hand
    (or its pending drawn tile, which is in it).  Shown over the corpus (every illegal
    fixture's refused placement included), random play through the public actions and
    through ``run``, under every reading and at every table; the same watch fails once
    HR-PLACE-3's refusal is taken out (seat 0 placing seat 1's tile), where ``- bit``
    would borrow from the higher bits."""
    full = (1 << TILE_COUNT) - 1
    for x in range(0, full + 1, 99991):
        for t in range(TILE_COUNT):
            bit = 1 << t
            assert ((x | bit) ^ bit) == (x | bit) - bit
            if not x & bit:
                assert (x ^ bit) != x - bit
    _replay_corpus(corpus, _TileHeld)
    _every_table(_TileHeld, range(2), lambda h: None)
    _random_play(_TileHeld, range(2))
    hand = _PlacesAnyTile([[0, 3], [5, 9]], [t for t in range(TILE_COUNT) if t not in (0, 3, 5, 9)], 0, validate=False)
    with pytest.raises(AssertionError, match="does not hold"):
        hand.place(0, 5)  # seat 0 opens with seat 1's tile


# ---------------------------------------------------------------------- end_turn's block check
class _EndTurnWatched(Hand):
    """Records each end of turn that finds the hand blocked (under ``immediate``, with the
    boneyard empty, no hand holds a placement): the block :meth:`Hand.end_turn` checks for."""

    found: ClassVar[list[str]] = []

    def end_turn(self, seat: int) -> None:
        open_mask = self.layout.open_mask
        if (
            self._next_draw == self._boneyard_end
            and self._immediate_block
            and not any(h & open_mask for h in self.hands)
        ):
            self.found.append(f"seat {seat} ends its turn in a blocked hand")
        super().end_turn(seat)


class _BlockMissedAtPlacement(_EndTurnWatched):
    """An engine whose placements never detect the block (the check of ``_place`` taken out)."""

    def _place(self, seat: int, tile: int, target: int | None, port: int | None) -> Any:
        immediate = self._immediate_block
        self._immediate_block = False
        try:
            return super()._place(seat, tile, target, port)
        finally:
            self._immediate_block = immediate


# ---------------------------------------------------------------------- the boneyard's end, by identity
class _BoundsAsIdentities(Hand):
    """Asserts, before every draw and pass and after every action, that the engine's
    comparisons of the next draw with the boneyard's end give the same answer written as
    identities: ``next < end`` as ``next is not end``, ``next >= end`` as ``next is end``."""

    def _bounds(self) -> None:
        n, e = self._next_draw, self._boneyard_end
        assert (n < e) is (n is not e), f"next draw {n}, end {e}: < and 'is not' differ"
        assert (n >= e) is (n is e), f"next draw {n}, end {e}: >= and 'is' differ"

    def _draw(self, seat: int) -> int:
        self._bounds()
        tile = int(super()._draw(seat))
        self._bounds()
        return tile

    def _pass(self, seat: int) -> None:
        self._bounds()
        super()._pass(seat)

    def draw(self, seat: int) -> int:
        self._bounds()
        return int(super().draw(seat))

    def pass_turn(self, seat: int) -> None:
        self._bounds()
        super().pass_turn(seat)


_KeptBack: type[Hand] = MUTANTS["last-two-stay-in-boneyard"].engine  # a class of the registry, named for mypy


class _DrawsPastTheEnd(_BoundsAsIdentities, _KeptBack):  # type: ignore[valid-type,misc]  # a base held in a variable
    """The house rule that keeps the boneyard's last two tiles back, its end's refusal
    gone (every other refusal of a draw kept): a seat with no placement draws the kept
    tiles, and the next draw passes the end."""

    def must_draw(self) -> bool:
        return (
            not self.over
            and self._pending < 0
            and not self.can_place(self.to_act)
            and self._next_draw < len(self.boneyard)
        )

    def draw(self, seat: int) -> int:
        self._bounds()
        end = self._boneyard_end
        self._boneyard_end = len(self.boneyard)  # HR-DRAW-4 refused only past the kept tiles
        try:
            return int(Hand.draw(self, seat))
        finally:
            self._boneyard_end = end


def test_the_boneyards_bounds_compare_as_identities(corpus):
    """``self._next_draw < self._boneyard_end`` as ``is not`` (``pass_turn``,
    ``play_forced``) and ``self._next_draw >= self._boneyard_end`` as ``is`` (``draw``):
    the next draw never passes the end (a draw is refused there, HR-DRAW-4, and takes one
    tile), so ``<`` is ``!=`` and ``>=`` is ``==``; both are ints from 0 to 28, which
    CPython keeps one object each of (test_small_ints_are_one_object_each), so ``!=`` is
    ``is not`` and ``==`` is ``is``.  Checked on the live values before every draw and pass
    over the corpus and random play, every reading and table; it fails on a house rule
    that draws past its end (the last two tiles kept back, drawn all the same)."""
    _replay_corpus(corpus, _BoundsAsIdentities)
    _every_table(_BoundsAsIdentities, range(2), lambda h: None)
    _random_play(_BoundsAsIdentities, range(2))
    with pytest.raises(AssertionError, match="differ"):
        _every_table(_DrawsPastTheEnd, range(2), lambda h: None)


# ---------------------------------------------------------------------- a round of passes
class _PassesCounted(Hand):
    """Asserts after every pass that the count of passes has not passed the seats, and
    that ``>=`` on it answers as ``==`` and ``is`` do."""

    def _pass(self, seat: int) -> None:
        super()._pass(seat)
        p, s = self._passes, self.seats
        assert p <= s, f"{p} passes at a table of {s}"
        assert (p >= s) is (p == s) is (p is s)


def test_a_round_of_passes_never_counts_past_the_seats(corpus):
    """``if self._passes >= self.seats:`` in ``Hand._pass`` as ``==`` or ``is``: passes
    count one at a time from 0 (a placement resets them), and the hand ends at a full
    round, so the count never passes the seats and ``>=`` answers as ``==``; both are
    small ints (one object each), so ``==`` answers as ``is``.  Checked after every pass
    over the corpus (69TXQS, 6XDEAX and the other rounds of passes) and random play,
    every reading and table; it fails under the killed mutant ``>`` of the same line,
    whose hand goes on past a full round."""
    _replay_corpus(corpus, _PassesCounted)
    _every_table(_PassesCounted, range(2), lambda h: None)
    _random_play(_PassesCounted, range(2))
    past = _mutant("hand", "ReplaceComparisonOperator_GtE_Gt", "if self._passes >= self.seats:")
    with cm.applied(past), pytest.raises(AssertionError, match="passes at a table"):
        _replay_corpus(corpus, _PassesCounted)


# ---------------------------------------------------------------------- may_end_turn's reading
def test_continuation_compared_by_order_is_its_identity():
    """``self.ruleset.continuation is _OPTIONAL`` in ``Hand.may_end_turn`` as ``>=``: the
    field holds a member of :class:`Continuation` (``Ruleset.__post_init__`` makes it
    one), whose readings are strings, and 'optional' is the greater of the two
    ('compulsory' < 'optional'), so ``>= OPTIONAL`` holds for it alone; ``<=`` is told
    apart."""
    assert list(Continuation) == [Continuation.COMPULSORY, Continuation.OPTIONAL]
    assert all(isinstance(r.continuation, Continuation) for r in RULESETS)
    assert _orders_as_identity(Continuation.OPTIONAL, operator.ge)
    assert not _orders_as_identity(Continuation.OPTIONAL, operator.le)


# ---------------------------------------------------------------------- the inline continuation
def _inline_is_the_seam(engine: type[Hand]) -> bool:
    """Whether ``_place``'s inline continuation (``not drawn`` when the placement
    credits, else ``IS_DOUBLE[tile] and not drawn``) is ``earns_continuation(count, tile)
    and not drawn`` for every count the layout can make and every tile."""
    h = engine([[0], [1]], [], 0, validate=False, fresh_deal=False)
    raw = h._credit_raw
    for count, tile, drawn in itertools.product(range(len(raw)), range(TILE_COUNT), (False, True)):
        inline = (not drawn) if raw[count] else (IS_DOUBLE[tile] and not drawn)
        if inline != (engine.earns_continuation(h, count, tile) and not drawn):
            return False
    return True


class _CallsTheSeam(Hand):
    """The engine as if it had a custom continuation: ``_place`` calls
    ``earns_continuation`` and looks at its variant branches on every placement."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._custom_continuation = True
        self._turn_variant = True


def test_the_inline_continuation_is_the_engines_earns_continuation():
    """``type(self).earns_continuation is not Hand.earns_continuation`` as ``is`` (in
    ``Hand.__init__``: the reference engine then takes itself for a custom one) and
    ``if self._custom_continuation:`` as ``if not`` (in ``Hand._place``: the reference
    engine calls the seam under a turn variant): the seam's answer, the credit positive
    or the tile a double, is the inline one for every count and tile, and the two other
    branches under ``turn_variant`` test their own flags (``_whole_hand``,
    ``_opening_continues``).  A hand that calls the seam on every placement plays as the
    engine under every reading and table; the same comparison fails for a deviation that
    overrides the seam (no-continuation, zero-count-continues)."""
    assert _inline_is_the_seam(Hand)
    reference = _every_table(Hand, range(2), lambda h: None)
    assert _every_table(_CallsTheSeam, range(2), lambda h: None) == reference
    assert not _inline_is_the_seam(MUTANTS["no-continuation"].engine)
    assert not _inline_is_the_seam(MUTANTS["zero-count-continues"].engine)


# ---------------------------------------------------------------------- the drawn-tile exception's else
def test_the_reference_engine_always_keeps_the_drawn_tile_exception():
    """``self._exempt = tile if self.drawn_tile_exception else -1`` in ``Hand._draw`` with
    ``-1`` written ``+1``, ``~1``, ``not 1``, ``1``, ``- 2`` or ``- 0``: the reference
    engine's ``drawn_tile_exception`` is true (HR-TURN-3) and no replay plays another
    engine, so the else value is never taken; the deviation drawn-tile-continues takes it
    (its ``_exempt`` after a playable draw is that value, a tile for ``1``, ``not 1`` and
    ``- 0``)."""
    assert Hand.drawn_tile_exception is True
    deviation = MUTANTS["drawn-tile-continues"].engine
    assert deviation.drawn_tile_exception is False
    for engine, expected in ((Hand, "the tile"), (deviation, -1)):
        hand = Match(2, seed=3, engine=engine).deal()
        while not hand.over and hand.pending_drawn is None:
            if hand.can_place(hand.to_act):
                hand.make(hand.legal_placements()[0])
            elif hand.boneyard_left:
                hand.draw(hand.to_act)
            else:
                hand.pass_turn(hand.to_act)
        assert hand.pending_drawn is not None
        assert hand._exempt == (hand.pending_drawn if expected == "the tile" else expected)


# ---------------------------------------------------------------------- settle: the lowest total
def _settles_alike(m: cm.CodeMutant) -> bool:
    """``settle`` with ``m`` in the engine against ``settle`` as it is, on every blocked
    hand of 2 and 3 sides with totals 0..12 and of 4 seats (individual and partnership)
    with totals 0..6."""
    cases = [(p, False) for n in (2, 3) for p in itertools.product(range(13), repeat=n)]
    cases += [(p, partnership) for p in itertools.product(range(7), repeat=4) for partnership in (False, True)]

    def run() -> list[Any]:
        out: list[Any] = []
        for pips, partnership in cases:
            sides = 2 if partnership else len(pips)
            try:
                out.append(settle(pips, partnership=partnership, domino_seat=None, scores=[0] * sides, target=61))
            except Exception as exc:  # noqa: BLE001  (a mutant that raises anything differs)
                out.append(repr(exc))
        return out

    reference = run()
    with cm.applied(m):
        mutated = run()
    return mutated == reference


def test_no_total_is_below_the_lowest():
    """``totals[side] == low`` in ``settle`` as ``<=``: ``low`` is ``min(totals)``, so no
    total is below it and ``<=`` picks the same tied winners (HR-SETTLE-3).  Checked on
    every blocked hand of small totals, individual and partnership; ``>=`` of the same
    line (killed) is told apart."""
    line = "winners = tuple([side for side in range(sides) if totals[side] == low])"
    assert _settles_alike(_mutant("settlement", "ReplaceComparisonOperator_Eq_LtE", line))
    assert not _settles_alike(_mutant("settlement", "ReplaceComparisonOperator_Eq_GtE", line))


def test_a_refused_action_in_the_watched_engines_is_refused_as_in_the_engine():
    """The watching subclasses above change nothing the engine does: they refuse what it
    refuses (an empty boneyard's draw, HR-DRAW-4) and play as it plays."""
    reference = _every_table(Hand, range(1), lambda h: None)
    for engine in (_TileHeld, _EndTurnWatched, _BoundsAsIdentities, _PassesCounted):
        assert _every_table(engine, range(1), lambda h: None) == reference
    hand = _BoundsAsIdentities([[0], [1]], [], 0, validate=False, fresh_deal=False)
    with pytest.raises(IllegalAction) as refused:
        hand.draw(0)
    assert refused.value.rule in ("HR-DRAW-1", "HR-DRAW-4")
