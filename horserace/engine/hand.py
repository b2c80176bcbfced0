"""One hand of Horse Race: the turn flow from the opening tile to the settlement.

Rules implemented here: HR-SEAT-3 (turn order), HR-PLACE-3, HR-OPEN-2, HR-TURN-1..3
(continuation, priority of the hand's and match's end, the drawn-tile exception),
HR-DRAW-1..4, HR-PASS-1, HR-BLOCK-1, HR-END-1..3, HR-MATCH-1 and HR-MATCH-3; the
settlement itself is :func:`horserace.engine.settlement.settle`.

A :class:`Hand` is driven by four actions, each checked in the order spec/rules.md gives
and rejected with :class:`IllegalAction` naming the rule: :meth:`Hand.place`,
:meth:`Hand.draw`, :meth:`Hand.pass_turn` and, under the variant
``continuation=optional``, :meth:`Hand.end_turn`.  Draws and passes are explicit actions
so that an illegal draw or pass can be rejected; :meth:`Hand.play_forced` performs them
for callers that only choose placements.  :meth:`Hand.violations` evaluates every
condition of that order on an action, not only the first, without making it (the lint of
illegal fixtures, :mod:`horserace.corpus.twins`); the actions never call it.

A hand made with ``undoable=True`` can take its actions back, one at a time, with
:meth:`Hand.undo`: after it the hand equals the hand before that action, every field of
it and of its layout (tests/property/test_undo.py shows it over random play, every action
kind, every reading).  Perft (:mod:`horserace.engine.perft`) walks the tree of moves so,
with make (:meth:`Hand.make`) and undo, as chess perft tools do.

The core does no I/O and draws no random numbers: the deal, the boneyard order and the
opener are inputs.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import ClassVar, NamedTuple, Protocol, cast

from horserace.engine.events import Draw, EndTurn, Event, HandEnd, HandEndReason, MatchEnd, Pass, Place
from horserace.engine.layout import Layout, LayoutSave
from horserace.engine.ruleset import (
    CANONICAL,
    BlockDetection,
    BranchUse,
    Continuation,
    ContinuationWithoutTile,
    DrawnTileScope,
    OpeningContinuation,
    Ruleset,
)
from horserace.engine.settlement import SettleFunction, Settlement, settle
from horserace.engine.tiles import IS_DOUBLE, NAMES, TILE_COUNT, mask_of, pips_of, tiles_of
from horserace.engine.types import Mask, Port, Seat, Side, Tile
from horserace.errors import IllegalAction, NothingToUndo, SetupError

__all__ = ["ACTION_KINDS", "DEAL_SIZE", "Hand", "Move", "PipCount", "Violation"]

_new = tuple.__new__

# An enum member read from its class (``HandEndReason.DOMINO``) costs some 1,400 machine
# instructions on Python 3.11 (valgrind), as much as a dozen lines of the turn logic; the
# hot path and the set-up of a hand read these module constants instead.
_DOMINO, _BLOCKED, _MATCH = HandEndReason.DOMINO, HandEndReason.BLOCKED, HandEndReason.MATCH
_BRANCH_USE_ONE = BranchUse.ONE
_OPENING_EARNED = OpeningContinuation.EARNED
_WHOLE_HAND = DrawnTileScope.WHOLE_HAND
_END_TURN = ContinuationWithoutTile.END_TURN
_IMMEDIATE = BlockDetection.IMMEDIATE
_OPTIONAL = Continuation.OPTIONAL

#: A placement: (tile, target tile, target port); the opening has no target (HR-MOVE-1).
Move = tuple[Tile, Tile | None, Port | None]


class PipCount(Protocol):
    """The shape of :func:`~horserace.engine.tiles.pips_of`: the seam ``Hand.pip_count``."""

    def __call__(self, hand: Mask, /) -> int: ...


#: Tiles dealt to each player by number of players (HR-DEAL-1).
DEAL_SIZE: dict[int, int] = {2: 7, 3: 6, 4: 5}

#: The kinds of action, as the fixtures and the protocol name them (spec/fixture-format.md):
#: :meth:`Hand.place`, :meth:`Hand.draw`, :meth:`Hand.pass_turn`, :meth:`Hand.end_turn`.
ACTION_KINDS = ("place", "draw", "pass", "end-turn")


class Violation(NamedTuple):
    """One condition of the order of checks (spec/rules.md, "Order of checks for illegal
    actions") that an action breaks (:meth:`Hand.broken_conditions`): the rule it names,
    what is broken in words, and, for a condition that follows from an earlier one the
    action breaks, that one's rule (``implied_by``): the hand's end once the match is over
    (HR-MATCH-3), a continuation given up by a seat that holds none (the hand is over, or
    it is not that seat's turn), a legal placement held while a drawn tile is pending
    (HR-DRAW-2), a tile of the hand that does not fit while a drawn tile is pending
    (HR-DRAW-3: no other tile of the hand plays then)."""

    rule: str
    condition: str
    implied_by: str | None = None


#: One entry of the undo history, what an action may change of a hand, kept before it
#: (:meth:`Hand.undo`): whether it placed a tile and what the layout kept before it
#: (:meth:`Layout.save`), then ``to_act``, the turn's flags, the draw and pass counters, the
#: scores list with its values, the hands' masks and the number of events.  The end of the
#: hand and match is not kept: an action is made only while the hand is not over.
_Undo = tuple[
    bool,  # placed
    LayoutSave,
    Seat,  # to_act
    bool,  # _continuing
    Tile,  # _pending
    bool,  # _drew
    Mask,  # _drawn_mask
    Tile,  # _exempt
    tuple[Seat, str] | None,  # _last_ended
    int,  # _passes
    int,  # _next_draw
    list[int],  # scores (the list itself)
    tuple[int, ...],  # its values
    tuple[Mask, ...],  # hands
    int,  # len(events)
]


class Hand:
    """The state of one hand.  Read ``to_act``, ``over``, ``events``; act with the
    action methods.

    **Seams.**  A variant of the rules, or a deliberately wrong engine (the mutants of
    :mod:`horserace.quality.mutants`), is a subclass that sets these class attributes or
    overrides these methods, as python-chess's variants subclass its ``Board``; nothing
    else of a hand is meant to be replaced:

    - :attr:`layout_class`, the layout the hand builds (a :class:`Layout` subclass);
    - :attr:`settle`, the settlement of a hand's end (:func:`~horserace.engine.settlement.settle`);
    - :attr:`target_type`, the type of the target, whose comparisons decide when it is reached;
    - :attr:`drawn_tile_exception` (HR-TURN-3) and :attr:`forced_readings`;
    - :meth:`earns_continuation` (HR-TURN-1), :meth:`next_opener_after` (HR-OPEN-3, which
      may read :attr:`opener`, the seat that acted first) and :meth:`end_by_placement`
      (HR-MATCH-1);
    - the draw: :attr:`undrawable` (HR-DEAL-2: tiles left in the boneyard),
      :attr:`draw_until_playable` (HR-DRAW-2: one draw a turn, then a pass) and
      :attr:`play_before_drawing` (HR-DRAW-1: a draw may be chosen, :meth:`may_draw`);
    - :attr:`pip_count` (HR-SET-2), the pips of a hand at its end;
    - the credit of a count, which is the layout's (``Layout.credit_raw_table`` and
      ``Layout.credit_table``, HR-CREDIT-1 and HR-CREDIT-2).

    The hot path reads the seams once per hand (the credit tables, ``undrawable`` and
    ``draw_until_playable`` into the hand when it is made, from one tuple gathered when
    the class is made, so a seam is set in the class body or ``type()`` call, not on the
    class afterwards; ``drawn_tile_exception`` once per draw, ``play_before_drawing``
    only when a draw is refused, ``pip_count`` once per hand's end) and tests one flag
    per placement for an overridden :meth:`earns_continuation`; the cost was measured
    with valgrind and ``horserace bench`` (docs/performance.md).  The named deviations of
    :mod:`horserace.quality.mutants` (misreadings) and :mod:`horserace.quality.house_rules`
    (the house rules of the Fives family) are all built through these seams.

    **Undo.**  With ``undoable=True`` every action (:meth:`place`, :meth:`make`,
    :meth:`draw`, :meth:`pass_turn`, :meth:`end_turn`, and each draw and pass of
    :meth:`play_forced`) keeps what it changes, and :meth:`undo` takes back the last one.
    A subclass through the seams needs nothing more: the whole state of a hand is kept,
    and its layout keeps what its :meth:`Layout.place` changes (a layout subclass that
    changes more overrides :meth:`Layout.save` and :meth:`Layout.restore` too).
    """

    #: The layout a hand builds on (HR-PLACE, HR-COUNT, HR-SPIN).
    layout_class: ClassVar[type[Layout]] = Layout
    #: The settlement of a blocked or dominoed hand (HR-SETTLE-1..3, HR-MATCH-2).
    settle: ClassVar[SettleFunction] = staticmethod(settle)
    #: The target's type (HR-MATCH-1): ``score >= target`` decides that a side has reached it.
    target_type: ClassVar[type[int]] = int
    #: HR-TURN-3: a tile drawn and placed in the same turn earns no continuation.
    drawn_tile_exception: ClassVar[bool] = True
    #: Register readings this engine follows whatever the ruleset says, ``{field: reading}``.
    forced_readings: ClassVar[Mapping[str, str]] = {}
    #: HR-DEAL-2: how many tiles at the end of the boneyard are never drawn (none).
    undrawable: ClassVar[int] = 0
    #: HR-DRAW-2: a player draws until a tile plays; if false, one draw a turn, and a
    #: drawn tile that does not play ends the turn with a pass.
    draw_until_playable: ClassVar[bool] = True
    #: HR-DRAW-1: a player who holds a legal placement may not draw; if false, drawing is
    #: a choice (a move of perft, :meth:`may_draw`) while the boneyard holds tiles.
    play_before_drawing: ClassVar[bool] = True
    #: HR-SET-2: the pips of a hand (a bit mask of tiles), as the end of a hand counts them.
    pip_count: ClassVar[PipCount] = staticmethod(pips_of)
    #: What a hand reads of the seams when it is made, in one look-up (:func:`_seams_of`):
    #: the layout's credit tables, ``undrawable`` and ``not draw_until_playable``.  Set
    #: for every subclass when it is made; a seam changed on a class afterwards is not seen.
    _class_seams: ClassVar[tuple[tuple[int, ...], tuple[int, ...], int, bool]]

    __slots__ = (
        "_boneyard_end",
        "_continuing",
        "_credit",
        "_credit_raw",
        "_custom_continuation",
        "_drawn_mask",
        "_drew",
        "_end_turn_variant",
        "_exempt",
        "_immediate_block",
        "_last_ended",
        "_next_draw",
        "_one_draw",
        "_opening_continues",
        "_passes",
        "_pending",
        "_turn_variant",
        "_undo",
        "_whole_hand",
        "boneyard",
        "events",
        "hands",
        "layout",
        "match_over",
        "match_winners",
        "next_opener",
        "opener",
        "over",
        "partnership",
        "reason",
        "record",
        "ruleset",
        "scores",
        "seats",
        "settlement",
        "target",
        "to_act",
    )

    def __init__(
        self,
        hands: Sequence[Sequence[Tile]],
        boneyard: Sequence[Tile],
        opener: Seat,
        *,
        partnership: bool = False,
        scores: Sequence[int] | None = None,
        ruleset: Ruleset = CANONICAL,
        target: int | None = None,
        record: bool = True,
        fresh_deal: bool = True,
        validate: bool = True,
        undoable: bool = False,
    ) -> None:
        seats = len(hands)
        if seats not in DEAL_SIZE:
            raise SetupError(f"Horse Race is played by 2, 3 or 4 players, not {seats}", rule="HR-SEAT-1")
        if partnership and seats != 4:
            raise SetupError("the partnership game has exactly four players", rule="HR-SEAT-1")
        if not 0 <= opener < seats:
            raise SetupError(f"opener {opener} is not a seat of {seats}", rule="HR-SEAT-3")
        masks = [mask_of(h) for h in hands]
        if validate:
            self._validate_deal(hands, boneyard, fresh_deal)
        sides = 2 if partnership else seats
        if scores is None:
            scores = [0] * sides
        if len(scores) != sides:
            raise SetupError(f"{sides} sides need {sides} scores", rule="HR-SEAT-1")
        if self.forced_readings:
            for field_name, reading in self.forced_readings.items():
                ruleset = ruleset.with_variant(field_name, reading)
        self.ruleset = ruleset
        self.target = self.target_type(ruleset.target if target is None else target)
        for s in scores:  # a loop, not any() over a generator: a third of the cost
            if s >= self.target or s < 0:
                raise SetupError(
                    f"scores {list(scores)} must lie in 0..{self.target - 1}: a side at the target has won",
                    rule="HR-MATCH-1",
                )
        self.partnership = partnership
        self.seats = seats
        self.layout = self.layout_class(branch_use_one=ruleset.branch_use is _BRANCH_USE_ONE)
        # The seams read once per hand, gathered when the class was made (__init_subclass__).
        self._credit_raw, self._credit, undrawable, self._one_draw = self._class_seams
        self.hands: list[Mask] = masks
        self.boneyard: list[Tile] = list(boneyard)
        end = len(self.boneyard) - undrawable
        self._boneyard_end = end if end > 0 else 0  # _next_draw when the boneyard is empty (HR-DEAL-2)
        self._next_draw = 0
        self.scores = list(scores)
        #: The seat that acts first in this hand (the opener of a fresh deal).
        self.opener: Seat = opener
        self.to_act: Seat = opener
        self._continuing = False  # the player to act is in a continuation (HR-TURN-1)
        self._pending = -1  # playable tile drawn this turn, to be placed (HR-DRAW-3)
        self._drew = False  # the player to act has drawn in this turn
        self._drawn_mask = 0  # tiles drawn in this hand (variant drawn_tile_scope)
        self._last_ended: tuple[Seat, str] | None = None  # (seat, rule that ended its turn)
        self._passes = 0
        self.over = False
        self.match_over = False
        self.settlement: Settlement | None = None
        self.reason: HandEndReason | None = None
        self.match_winners: tuple[Side, ...] = ()
        self.next_opener: Seat | None = None
        #: Every event of the hand, in order, when ``record`` (else it stays empty).
        self.events: list[Event] = []
        self.record = record
        self._exempt = -1  # the drawn tile that HR-TURN-3 keeps from continuing the turn
        self._custom_continuation = type(self).earns_continuation is not Hand.earns_continuation
        self._opening_continues = ruleset.opening_continuation is _OPENING_EARNED
        self._whole_hand = ruleset.drawn_tile_scope is _WHOLE_HAND
        self._end_turn_variant = ruleset.continuation_without_tile is _END_TURN
        # One flag for the readings and seams _place looks at per placement, so that the
        # canonical turn rules cost it one read, not three.
        self._turn_variant = self._custom_continuation or self._whole_hand or not self._opening_continues
        self._immediate_block = ruleset.block_detection is _IMMEDIATE
        #: The undo history, last action last; ``None`` when the hand is not undoable.
        self._undo: list[_Undo] | None = [] if undoable else None

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        cls._class_seams = _seams_of(cls)

    @staticmethod
    def _validate_deal(hands: Sequence[Sequence[Tile]], boneyard: Sequence[Tile], fresh_deal: bool) -> None:
        """Every tile once (HR-SET-1); for a fresh deal, all 28 tiles and the deal sizes of
        HR-DEAL-1 and HR-DEAL-2."""
        seen = 0
        for tiles in [*hands, boneyard]:
            for t in tiles:
                if not 0 <= t < TILE_COUNT:
                    raise SetupError(f"tile index {t} is not in the set", rule="HR-SET-1")
                if seen >> t & 1:
                    raise SetupError(f"{NAMES[t]} is dealt twice", rule="HR-SET-1")
                seen |= 1 << t
        if fresh_deal:
            if seen.bit_count() != TILE_COUNT:
                raise SetupError("hands and boneyard must hold all 28 tiles", rule="HR-DEAL-2")
            seats = len(hands)
            size = DEAL_SIZE[seats]
            for seat, h in enumerate(hands):
                if len(h) != size:
                    raise SetupError(
                        f"seat {seat} holds {len(h)} tiles; {seats} players are dealt {size} each",
                        rule="HR-DEAL-1",
                    )

    # ------------------------------------------------------------------ queries
    def side_of(self, seat: Seat) -> Side:
        """The side a seat scores for (HR-SEAT-1, HR-SEAT-2)."""
        return seat % 2 if self.partnership else seat

    @property
    def boneyard_left(self) -> int:
        return self._boneyard_end - self._next_draw

    @property
    def pending_drawn(self) -> Tile | None:
        """The playable tile just drawn, which must be placed now (HR-DRAW-3)."""
        return None if self._pending < 0 else self._pending

    @property
    def continuing(self) -> bool:
        """Whether the player to act is placing a continuation (HR-TURN-1)."""
        return self._continuing

    def undrawn(self) -> list[Tile]:
        """The tiles of the boneyard not drawn yet, in draw order (a position written out
        holds them as its ``boneyard``)."""
        return self.boneyard[self._next_draw :]

    def starts_a_turn(self) -> bool:
        """Whether the player to act stands where a position given with a layout starts
        (spec/fixture-format.md): in a fresh turn, with nothing drawn or pending in it, no
        pass of a round under way, no continuation it may give up (HRI-2) and no tile held
        that counts as drawn (HRI-4, ``whole-hand``).  A continuation that cannot be given
        up is played on as a fresh turn is (the same draws, the same placements), so the
        position written with the player to act as ``opener`` has the same tree below it."""
        if self.over or self._pending >= 0 or self._drew or self._passes or self.may_end_turn():
            return False
        if self._whole_hand:
            drawn = self._drawn_mask
            return not any(held & drawn for held in self.hands)
        return True

    def hand_tiles(self, seat: Seat) -> list[Tile]:
        return tiles_of(self.hands[seat])

    def legal_placements(self) -> list[Move]:
        """Distinct legal placements ``(tile, target, port)`` for the player to act."""
        if self.over:
            return []
        if self._pending >= 0:
            return [(self._pending, tg, p) for tg, p in self.layout.moves_for(self._pending)]
        return self.layout.moves_for_mask(self.hands[self.to_act])

    def count_placements(self) -> int:
        """How many distinct legal placements the player to act has:
        ``len(legal_placements())``, without making the list (perft's last ply)."""
        if self.over:
            return 0
        pending = self._pending
        return self.layout.count_moves_for_mask(1 << pending if pending >= 0 else self.hands[self.to_act])

    def can_place(self, seat: Seat) -> bool:
        return bool(self.hands[seat] & self.layout.open_mask)

    def must_draw(self) -> bool:
        """The player to act has no legal placement and the boneyard is not empty."""
        return not self.over and self._pending < 0 and not self.can_place(self.to_act) and self.boneyard_left > 0

    @property
    def undoable(self) -> bool:
        """Whether the hand keeps its actions for :meth:`undo`."""
        return self._undo is not None

    @property
    def undo_depth(self) -> int:
        """How many actions :meth:`undo` can take back."""
        return 0 if self._undo is None else len(self._undo)

    def may_end_turn(self) -> bool:
        """Variant ``continuation=optional``: a continuation may be given up instead of
        placing, before any draw in it, by a player who holds a legal placement (HRI-2);
        one who holds none draws or passes, as at any point of a turn (HR-TURN-1)."""
        return (
            not self.over
            and self._continuing
            and not self._drew
            and self.ruleset.continuation is _OPTIONAL
            and self.can_place(self.to_act)
        )

    def may_draw(self) -> bool:
        """Whether drawing is a choice of the player to act, beside their placements: only
        where ``play_before_drawing`` is false (a house rule; HR-DRAW-1 forbids it), while
        they hold a legal placement, no drawn tile is pending and the boneyard holds a
        tile.  A draw made for want of a placement is forced, not a choice
        (:meth:`play_forced`).  Perft counts a choice to draw as a move."""
        return (
            not self.play_before_drawing
            and not self.over
            and self._pending < 0
            and self._next_draw < self._boneyard_end
            and bool(self.hands[self.to_act] & self.layout.open_mask)
        )

    # ------------------------------------------------------------------ the order of checks, every condition
    def violations(
        self, seat: Seat, kind: str, tile: Tile | None = None, target: Tile | None = None, port: Port | None = None
    ) -> tuple[str, ...]:
        """The rule of every condition of the order of checks (spec/rules.md) that an
        action would break here, in that order, implied conditions included; ``()`` when
        the action is legal.  ``kind`` is one of :data:`ACTION_KINDS`; a placement names
        its ``tile`` and, after the opening, its ``target`` and ``port``.

        Read-only: nothing is done.  The first rule is the one the action itself raises
        (:attr:`IllegalAction.rule`), and the tuple is empty exactly when the action is
        accepted (tests/property/test_violations.py holds it to that); the rest is what the
        action's own checks, stopping at the first, never say.  :meth:`broken_conditions`
        gives the same conditions with their words."""
        return tuple(v.rule for v in self.broken_conditions(seat, kind, tile, target, port))

    def broken_conditions(
        self, seat: Seat, kind: str, tile: Tile | None = None, target: Tile | None = None, port: Port | None = None
    ) -> tuple[Violation, ...]:
        """Every condition of the order of checks that an action would break here, in
        that order (see :meth:`violations` and :class:`Violation`).  Each condition is
        evaluated on its own, as the order of checks states it:

        1. HR-MATCH-3, the match is over; 2. HR-END-3, the hand is over;
        3. the seat: one that does not exist (HR-SEAT-3; nothing else is evaluated, it
           holds nothing), or one that is not the seat to act (HR-TURN-3 or HR-TURN-1
           when its turn has just ended so, else HR-SEAT-3);
        4. the conditions of the action's kind, for the acting seat: in its own turn as
           the turn stands, and for a seat not to act as at the start of a turn of its own
           (no drawn tile pending, no continuation).  A placement: HR-PLACE-3 (not in the
           hand), HR-DRAW-3 (a drawn tile is pending and this is another), then the move
           (:meth:`Layout.move_violations`); a draw: HR-DRAW-2 (a drawn tile pending),
           HR-DRAW-1 (a legal placement held), HR-DRAW-4 (the boneyard is empty); a pass:
           HR-PASS-1 twice over, a legal placement held and the boneyard not empty; an
           end of turn: HR-DRAW-1 (no continuation that may be given up, variant
           ``continuation=optional``).

        In a hand that is over, 3 and 4 are evaluated as the turn would stand had the
        action that ended the hand not ended it (HR-TURN-2 set aside: the placer of a
        double or of a scoring tile not drawn would act again, as HR-TURN-1 says;
        :meth:`turn_had_it_gone_on`): what an implementation that misses the end would
        check.  Without recorded events that turn is not known, and 3 is not evaluated."""
        if kind not in ACTION_KINDS:
            raise ValueError(f"{kind!r} is not an action; actions are {', '.join(ACTION_KINDS)}")
        out: list[Violation] = []
        if self.match_over:
            out.append(Violation("HR-MATCH-3", "the match is over"))
        if self.over:
            out.append(Violation("HR-END-3", "the hand is over", "HR-MATCH-3" if self.match_over else None))
        if not 0 <= seat < self.seats:
            out.append(Violation("HR-SEAT-3", f"there is no seat {seat}"))
            return tuple(out)
        turn = (
            self.turn_had_it_gone_on() if self.over else (self.to_act, self._last_ended, self._continuing, self._drew)
        )
        # Why the seat holds no continuation to give up, when that is implied by the above.
        no_continuation: str | None = "HR-END-3" if turn is None else None
        in_turn = False
        if turn is not None:
            to_act, ended, continuing, drew = turn
            in_turn = seat == to_act
            had = " (had the hand gone on)" if self.over else ""
            if not in_turn:
                if ended is not None and ended[0] == seat:
                    why = "a placed drawn tile" if ended[1] == "HR-TURN-3" else "a non-double that did not score"
                    out.append(Violation(ended[1], f"seat {seat}'s turn has ended{had}: {why} ended it"))
                else:
                    out.append(Violation("HR-SEAT-3", f"it is seat {to_act}'s turn{had}, not seat {seat}'s"))
                no_continuation = out[-1].rule
        pending = self._pending if in_turn and not self.over else -1
        held = self.hands[seat]
        playable = held & self.layout.open_mask
        if kind == "place":
            if tile is None:
                raise ValueError("a placement names its tile")
            in_hand = held >> tile & 1
            if not in_hand:
                out.append(Violation("HR-PLACE-3", f"{NAMES[tile]} is not in seat {seat}'s hand"))
            instead = pending >= 0 and tile != pending
            if instead:
                out.append(Violation("HR-DRAW-3", f"the drawn tile {NAMES[pending]} must be placed, not {NAMES[tile]}"))
            # While a drawn tile is pending no other tile of the hand plays (a player draws
            # only when none does, and drawing changes no layout): its move fails somewhere.
            unplayable = instead and in_hand and not playable >> tile & 1
            for rule, condition in self.layout.move_violations(tile, target, port):
                out.append(Violation(rule, condition, "HR-DRAW-3" if unplayable else None))
        elif kind == "draw":
            if pending >= 0:
                out.append(Violation("HR-DRAW-2", f"seat {seat} drew the playable {NAMES[pending]} and must place it"))
            if playable and self.play_before_drawing:  # the seam the draw itself reads
                out.append(
                    Violation(
                        "HR-DRAW-1",
                        f"seat {seat} holds a legal placement and must play",
                        "HR-DRAW-2" if pending >= 0 else None,
                    )
                )
            if self._next_draw >= self._boneyard_end:
                out.append(Violation("HR-DRAW-4", "the boneyard is empty"))
        elif kind == "pass":
            if pending >= 0 or playable:
                out.append(Violation("HR-PASS-1", f"seat {seat} holds a legal placement and may not pass"))
            if self._next_draw < self._boneyard_end:
                out.append(
                    Violation(
                        "HR-PASS-1", f"the boneyard still holds {self.boneyard_left} tile(s); seat {seat} must draw"
                    )
                )
        elif not (in_turn and continuing and not drew and self.ruleset.continuation is _OPTIONAL):
            out.append(
                Violation("HR-DRAW-1", f"seat {seat} holds no continuation that it may give up", no_continuation)
            )
        elif not self.can_place(seat):  # HRI-2: given up only instead of a placement
            by_end = "HR-END-3" if self.over else None  # a hand won by a domino leaves nothing to place
            out.append(
                Violation("HR-DRAW-2", f"seat {seat} holds no legal placement and must draw", by_end)
                if self._next_draw < self._boneyard_end
                else Violation("HR-PASS-1", f"seat {seat} holds no legal placement and must pass", by_end)
            )
        return tuple(out)

    def turn_had_it_gone_on(self) -> tuple[Seat, tuple[Seat, str] | None, bool, bool] | None:
        """In a hand that is over, the turn as it would stand had the action that ended
        the hand not ended it (HR-TURN-2 set aside): ``(seat to act, (seat, rule) of a
        turn that has just ended or None, continuing, drawn in this turn)``, read from the
        events (``None`` when they are not recorded).  After a placement, its placer acts
        again when it would have had a continuation (HR-TURN-1, HR-TURN-3, HRI-1, HRI-3),
        else the next seat; after a draw, the drawer; after a pass or an end of turn, the
        next seat; in a position blocked as given, the opener."""
        if not self.record:
            return None
        events = self.events
        end = len(events) - 1
        while end >= 0 and not isinstance(events[end], HandEnd):
            end -= 1
        last = events[end - 1] if end > 0 else None
        if last is None:
            return self.to_act, None, False, False
        if isinstance(last, Place):
            seat = last.seat
            goes_on = (
                self.earns_continuation(last.count, last.tile)
                and not last.drawn
                and (last.target is not None or self._opening_continues)
            )
            if goes_on and not (self._end_turn_variant and not self.hands[seat] & self.layout.open_mask):
                return seat, None, True, False
            nxt = (seat + 1) % self.seats
            if goes_on:  # HRI-1 variant: the continuation lapses, the turn passes at once
                return nxt, None, False, False
            return nxt, (seat, "HR-TURN-3" if last.drawn else "HR-TURN-1"), False, False
        if isinstance(last, Draw):
            return last.seat, None, False, True
        if isinstance(last, (Pass, EndTurn)):
            return (last.seat + 1) % self.seats, None, False, False
        return None  # pragma: no cover  (a hand ends after a placement, a draw, a pass or an end of turn)

    # ------------------------------------------------------------------ actions
    def place(self, seat: Seat, tile: Tile, target: Tile | None = None, port: Port | None = None) -> Place | None:
        """Place ``tile`` from ``seat``'s hand on ``(target, port)``; ``None`` target for
        the opening tile.  Returns the :class:`Place` event (``None`` when not recording)."""
        self._check_actor(seat)
        bit = 1 << tile
        if not self.hands[seat] & bit:
            raise IllegalAction(f"{NAMES[tile]} is not in seat {seat}'s hand", rule="HR-PLACE-3", seat=seat)
        pending = self._pending
        if pending >= 0 and tile != pending:
            raise IllegalAction(
                f"the drawn tile {NAMES[pending]} must be placed, not {NAMES[tile]}", rule="HR-DRAW-3", seat=seat
            )
        target, port = self.layout.normalise(tile, target, port)
        if self._undo is not None:
            self._keep(True, self.layout.save(tile, target, port))
        return self._place(seat, tile, target, port)

    def make(self, move: Move) -> None:
        """Make a placement of :meth:`legal_placements` for the player to act, without
        checking it again (it comes from the engine), keeping it for :meth:`undo` if the
        hand is undoable: the make of perft's make and unmake."""
        tile, target, port = move
        if self._undo is not None:
            self._keep(True, self.layout.save(tile, target, port))
        self._place(self.to_act, tile, target, port)

    def _place(self, seat: Seat, tile: Tile, target: Tile | None, port: Port | None) -> Place | None:
        """Apply a placement already known to be legal (the hot path).

        Written for speed, measured in executed bytecodes and machine instructions
        (valgrind) over two-player random hands: the common case, a placement that neither
        ends the hand nor earns a continuation, runs the fewest lines (128 bytecodes a
        placement on average, from 137); the hand's and match's end (HR-TURN-2) is one
        test on that path; the opening is known from the move (it alone has no target,
        HR-MOVE-1); the turn passes without a call to :meth:`_next_turn`.  It is the one
        placement of the engine: :meth:`place`, :meth:`make` and :meth:`run` all call it."""
        layout = self.layout
        count = layout.place(tile, target, port)
        bit = 1 << tile
        hands = self.hands
        hand = hands[seat] ^ bit
        hands[seat] = hand
        self._passes = 0
        credit_raw = self._credit_raw[count]
        # HR-TURN-3: the tile drawn this turn (or, variant HRI-4, in this hand) never continues.
        drawn = tile == self._exempt
        turn_variant = self._turn_variant
        if turn_variant and self._whole_hand and self._drawn_mask & bit:
            drawn = True
        if credit_raw:
            side = seat % 2 if self.partnership else seat
            scores = self.scores
            score = scores[side] + self._credit[count]
            scores[side] = score
            match_end = score >= self.target  # HR-MATCH-1: before anything else
            continues = not drawn
        else:
            match_end = False
            continues = IS_DOUBLE[tile] and not drawn  # HR-TURN-1
        if turn_variant:
            if self._custom_continuation:
                continues = self.earns_continuation(count, tile) and not drawn
            if target is None and not self._opening_continues:
                continues = False  # HRI-3 variant
        # HR-BLOCK-1, HRI-5: with the boneyard empty, does anyone still hold a placement?
        # Asked in the condition, so that the common placement stores no flag for it.
        if (
            match_end
            or not hand
            or (self._next_draw == self._boneyard_end and self._immediate_block and _nobody_places(hands, layout))
        ):
            # HR-TURN-2: the end of the hand or match takes priority over a continuation.
            self._last_ended = None
            event = None
            if self.record:
                # tuple.__new__ skips NamedTuple's Python-level __new__: 2.3x cheaper here.
                event = _new(Place, (seat, tile, target, port, count, credit_raw, self._credit[count], False, drawn))
                self.events.append(event)
            if match_end:
                self.end_by_placement(side)
            elif not hand:
                self._finish(_DOMINO, seat)  # HR-END-1
            else:
                self._finish(_BLOCKED, None)
            return event
        if self.record:
            event = _new(Place, (seat, tile, target, port, count, credit_raw, self._credit[count], continues, drawn))
            self.events.append(event)
        else:
            event = None
        if continues:  # HR-TURN-1
            self._last_ended = None
            self._pending = -1
            self._continuing = True
            self._drew = False
            if self._end_turn_variant and not hand & layout.open_mask:
                # HRI-1 variant: the turn passes at once, without drawing.
                if self.record:
                    self.events.append(EndTurn(seat))
                self._next_turn(seat, None)
            return event
        # The turn ends (HR-SEAT-3): _next_turn, written out.
        self.to_act = (seat + 1) % self.seats
        self._continuing = False
        self._pending = -1
        self._drew = False
        self._last_ended = (seat, "HR-TURN-3" if drawn else "HR-TURN-1")
        return event

    def draw(self, seat: Seat) -> Tile:
        """Draw one tile (HR-DRAW-2); returns it.  If it plays, it must be placed next."""
        self._check_actor(seat)
        if self._pending >= 0:
            raise IllegalAction(
                f"seat {seat} drew the playable {NAMES[self._pending]} and must place it",
                rule="HR-DRAW-2",
                seat=seat,
            )
        if self.hands[seat] & self.layout.open_mask and self.play_before_drawing:
            raise IllegalAction(f"seat {seat} holds a legal placement and must play", rule="HR-DRAW-1", seat=seat)
        if self._next_draw >= self._boneyard_end:
            raise IllegalAction("the boneyard is empty", rule="HR-DRAW-4", seat=seat)
        if self._undo is not None:
            self._keep(False, None)
        return self._draw(seat)

    def _draw(self, seat: Seat) -> Tile:
        tile = self.boneyard[self._next_draw]
        self._next_draw += 1
        bit = 1 << tile
        self.hands[seat] |= bit
        self._drawn_mask |= bit
        self._drew = True
        self._last_ended = None
        if self.record:
            self.events.append(_new(Draw, (seat, tile)))
        if bit & self.layout.open_mask:
            self._pending = tile
            # HR-TURN-3: this tile, placed next, earns no continuation.  Set per draw, not
            # checked per placement; a tile is placed once, so it never needs resetting.
            self._exempt = tile if self.drawn_tile_exception else -1
        elif self._next_draw == self._boneyard_end and self._immediate_block:
            self._check_block()
        elif self._one_draw:
            self._pass_after_draw(seat)
        return tile

    def _pass_after_draw(self, seat: Seat) -> None:
        """``draw_until_playable`` false: the turn's one draw did not play, and the player
        passes.  With the boneyard now empty it is any pass (HR-PASS-1, counted for a
        round of passes); otherwise it is not one of a round of passes, since a tile was
        drawn."""
        if self._next_draw == self._boneyard_end:
            self._pass(seat)
            return
        if self.record:
            self.events.append(Pass(seat))
        self._next_turn(seat, None)

    def pass_turn(self, seat: Seat) -> None:
        """Pass: allowed only with no legal placement and an empty boneyard (HR-PASS-1)."""
        self._check_actor(seat)
        if self._pending >= 0 or self.hands[seat] & self.layout.open_mask:
            raise IllegalAction(f"seat {seat} holds a legal placement and may not pass", rule="HR-PASS-1", seat=seat)
        if self._next_draw < self._boneyard_end:
            raise IllegalAction(
                f"the boneyard still holds {self.boneyard_left} tile(s); seat {seat} must draw",
                rule="HR-PASS-1",
                seat=seat,
            )
        if self._undo is not None:
            self._keep(False, None)
        self._pass(seat)

    def _pass(self, seat: Seat) -> None:
        if self.record:
            self.events.append(Pass(seat))
        self._passes += 1
        self._next_turn(seat, None)
        # HRI-5 variant: a round of passes.  Under the canonical reading the block is found
        # before anyone passes (:meth:`_check_block`); a full round of passes ends the hand
        # under both readings, so that no position can make the players pass forever.
        if self._passes >= self.seats:
            self._finish(_BLOCKED, None)

    def check_position(self) -> None:
        """End a hand whose starting position is blocked already (HR-BLOCK-1): a position
        given with its layout, an empty boneyard and no seat able to place.  Under the
        canonical HRI-5 it ends at once, with no pass; under ``round-of-passes`` the
        players pass first, as in play.  Call it once the layout is built."""
        if not self.over and self._next_draw == self._boneyard_end and self._immediate_block:
            self._check_block()

    def end_turn(self, seat: Seat) -> None:
        """Give up a continuation: only under the variant ``continuation=optional``, and
        only instead of a placement (:meth:`may_end_turn`).  The player keeps a legal
        placement, so ending the turn never blocks the hand."""
        self._check_actor(seat)
        if not self.may_end_turn():
            raise self._end_turn_refused(seat)
        if self._undo is not None:
            self._keep(False, None)
        if self.record:
            self.events.append(EndTurn(seat))
        self._next_turn(seat, None)

    def _end_turn_refused(self, seat: Seat) -> IllegalAction:
        """Why an end of turn is refused: under ``continuation=optional``, during a
        continuation before any draw, a player who holds no legal placement must draw
        (HR-DRAW-2) or, the boneyard empty, pass (HR-PASS-1); otherwise a player who
        can place must place (HR-DRAW-1)."""
        if self._continuing and not self._drew and self.ruleset.continuation is _OPTIONAL:
            if self._next_draw < self._boneyard_end:
                return IllegalAction(
                    f"seat {seat} may not end the turn: a player who holds no legal placement must draw",
                    rule="HR-DRAW-2",
                    seat=seat,
                )
            return IllegalAction(
                f"seat {seat} may not end the turn: a player who holds no legal placement and cannot draw must pass",
                rule="HR-PASS-1",
                seat=seat,
            )
        return IllegalAction(
            f"seat {seat} may not end the turn: a player who can place must place", rule="HR-DRAW-1", seat=seat
        )

    def run(self, choose: Callable[[list[Move]], Move], give_up: Callable[[], bool] | None = None) -> None:
        """Play the hand to its end.  Forced draws and passes are made here; ``choose``
        picks each placement from the distinct legal ones (it must return one of them);
        under ``continuation=optional``, ``give_up()`` decides whether a continuation is
        given up (default: never).  Moves come from the engine, so they are not checked
        again.  Its actions are not kept for :meth:`undo`, and those before it are
        forgotten: the hand is played to its end."""
        if self._undo is not None:
            self._undo.clear()
        # One loop under every rule set: each placement through _place, the code that
        # replay's actions run (place, make), so that random play, fuzzing and the
        # benchmarks play the rules the corpus checks.
        optional = give_up is not None and self.ruleset.continuation is _OPTIONAL
        layout = self.layout
        hands = self.hands
        moves_for_mask = layout.moves_for_mask  # bound once: this loop is a hot path
        moves_for = layout.moves_for
        place = self._place
        while not self.over:
            seat = self.to_act
            pending = self._pending
            if pending >= 0:
                moves = [(pending, tg, p) for tg, p in moves_for(pending)]
            elif hands[seat] & layout.open_mask:  # can_place, inline: a quarter of the turns draw
                # give_up is not None when optional: the cast tells mypy so.
                if optional and self.may_end_turn() and cast("Callable[[], bool]", give_up)():
                    self.end_turn(seat)
                    continue
                moves = moves_for_mask(hands[seat])
            else:
                if optional and self.may_end_turn() and cast("Callable[[], bool]", give_up)():
                    self.end_turn(seat)
                elif self._next_draw < self._boneyard_end:
                    self._draw(seat)
                else:
                    self._pass(seat)
                continue
            tile, target, port = choose(moves)
            place(seat, tile, target, port)

    def play_forced(self) -> int:
        """Perform forced draws and passes until a placement must be chosen or the hand
        is over; return how many were made (each one an action for :meth:`undo`)."""
        made = 0
        undo = self._undo
        while not self.over and self._pending < 0:
            seat = self.to_act
            if self.hands[seat] & self.layout.open_mask:
                return made
            if undo is not None:
                self._keep(False, None)
            if self._next_draw < self._boneyard_end:
                self._draw(seat)
            else:
                self._pass(seat)
            made += 1
        return made

    def undo(self) -> None:
        """Take back the last action kept (``undoable``): the hand, its layout and its
        events are then as they were before it."""
        if not self._undo:
            why = "nothing is left to undo" if self._undo is not None else "the hand was not made undoable"
            raise NothingToUndo(f"no action to undo: {why}")
        (
            placed,
            saved,
            self.to_act,
            self._continuing,
            self._pending,
            self._drew,
            self._drawn_mask,
            self._exempt,
            self._last_ended,
            self._passes,
            self._next_draw,
            scores,
            score_values,
            hands,
            events,
        ) = self._undo.pop()
        if placed:
            self.layout.restore(saved)
        scores[:] = score_values
        self.scores = scores
        self.hands[:] = hands
        del self.events[events:]
        if self.over:  # the action ended the hand: before it, the hand was not over
            self.over = self.match_over = False
            self.reason = self.settlement = self.next_opener = None
            self.match_winners = ()

    # ------------------------------------------------------------------ internals
    def _keep(self, placed: bool, saved: LayoutSave) -> None:
        """Keep what the action about to be made may change, for :meth:`undo` (see
        :data:`_Undo`).  The fields are written out here and in :meth:`undo`, in the same
        order: one list of names read and set in a loop made perft 39% dearer (measured
        in instructions)."""
        self._undo.append(  # type: ignore[union-attr]  # called only when the hand is undoable
            (
                placed,
                saved,
                self.to_act,
                self._continuing,
                self._pending,
                self._drew,
                self._drawn_mask,
                self._exempt,
                self._last_ended,
                self._passes,
                self._next_draw,
                self.scores,
                tuple(self.scores),
                tuple(self.hands),
                len(self.events),
            )
        )

    def _check_actor(self, seat: Seat) -> None:
        """The first checks of every action (spec/rules.md, order of checks)."""
        if self.match_over:
            raise IllegalAction("the match is over", rule="HR-MATCH-3", seat=seat)
        if self.over:
            raise IllegalAction("the hand is over", rule="HR-END-3", seat=seat)
        if seat != self.to_act:
            if not 0 <= seat < self.seats:
                raise IllegalAction(f"there is no seat {seat}", rule="HR-SEAT-3", seat=seat)
            ended = self._last_ended
            if ended is not None and ended[0] == seat:
                why = (
                    "a placed drawn tile always ends the turn"
                    if ended[1] == "HR-TURN-3"
                    else ("a non-double that does not score ends the turn")
                )
                raise IllegalAction(f"seat {seat}'s turn has ended: {why}", rule=ended[1], seat=seat)
            raise IllegalAction(f"it is seat {self.to_act}'s turn, not seat {seat}'s", rule="HR-SEAT-3", seat=seat)

    def _next_turn(self, seat: Seat, ended_by: str | None) -> None:
        self.to_act = (seat + 1) % self.seats  # HR-SEAT-3
        self._continuing = False
        self._pending = -1
        self._drew = False
        self._last_ended = None if ended_by is None else (seat, ended_by)

    def _check_block(self) -> None:
        """HR-BLOCK-1, canonical HRI-5: the hand ends as soon as nobody can place."""
        open_mask = self.layout.open_mask
        for h in self.hands:
            if h & open_mask:
                return
        self._finish(_BLOCKED, None)

    def _finish(self, reason: HandEndReason, domino_seat: Seat | None) -> None:
        pips = tuple(map(self.pip_count, self.hands))
        result = self.settle(
            pips, partnership=self.partnership, domino_seat=domino_seat, scores=self.scores, target=self.target
        )
        self.over = True
        self.reason = reason
        self.settlement = result
        self.scores = list(result.scores)
        self.next_opener = None if result.match_winners else self.next_opener_after(reason, domino_seat)
        if self.record:
            self.events.append(
                _new(HandEnd, (reason, result.winners, pips, result.credits, result.scores, self.next_opener))
            )
        if result.match_winners:
            self.end_match(result.match_winners)

    # ------------------------------------------------------------------ turn rules (seams)
    def earns_continuation(self, count: int, tile: Tile) -> bool:
        """HR-TURN-1, HR-CREDIT-1: whether a placement that leaves the count at ``count``
        earns another placement: it scores (a positive multiple of five) or it is a
        double.  The limits of HR-TURN-2, HR-TURN-3 and HRI-3 apply after it.  The
        reference engine inlines this rule; a subclass that overrides it is called."""
        return self._credit_raw[count] > 0 or IS_DOUBLE[tile]

    def next_opener_after(self, reason: HandEndReason, domino_seat: Seat | None) -> Seat | None:
        """HR-OPEN-3: who opens the next hand of the match: the player who dominoed;
        ``None`` (a new lot) after a blocked hand."""
        return domino_seat

    def end_by_placement(self, side: Side) -> None:
        """HR-MATCH-1: a placement took ``side`` to the target: the match ends at once and
        the hand is not settled."""
        self.over = True
        self.reason = _MATCH
        self.next_opener = None
        if self.record:
            sides = len(self.scores)
            pips = tuple(map(self.pip_count, self.hands))
            self.events.append(HandEnd(_MATCH, (), pips, (0,) * sides, tuple(self.scores), None))
        self.end_match((side,))

    def end_match(self, winners: tuple[Side, ...]) -> None:
        """The match is over, won by ``winners`` (HR-MATCH-1, HR-MATCH-2)."""
        self.match_over = True
        self.match_winners = winners
        if self.record:
            self.events.append(MatchEnd(winners, tuple(self.scores)))


def _nobody_places(hands: list[Mask], layout: Layout) -> bool:
    """No hand holds a tile that fits the layout (HR-BLOCK-1)."""
    open_mask = layout.open_mask
    return not any(h & open_mask for h in hands)


def _seams_of(cls: type[Hand]) -> tuple[tuple[int, ...], tuple[int, ...], int, bool]:
    """The seams a hand of ``cls`` reads when it is made, gathered once per class: one
    class attribute read per hand in their stead (each read of a class attribute through
    an instance costs some 150 machine instructions on Python 3.11)."""
    layout = cls.layout_class
    return layout.credit_raw_table, layout.credit_table, cls.undrawable, not cls.draw_until_playable


Hand._class_seams = _seams_of(Hand)
