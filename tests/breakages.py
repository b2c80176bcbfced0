"""Deliberately broken engines, for the tests that show a property, an invariant check
or a proof's tie catches the bug it names.  Each one is built through the engine's
explicit seams, as the mutants of ``horserace.quality.mutants`` are: a :class:`Hand`
subclass (its ``layout_class``, ``settle``, ``drawn_tile_exception``,
``forced_readings``), a :class:`Layout` subclass, or a drifted table or function that a
tie takes as an argument.  Nothing is patched, so a broken engine cannot leak into another
test, and the same breakage is written once however many tests use it."""

from __future__ import annotations

from horserace.engine.events import EndTurn, Pass
from horserace.engine.hand import Hand, Violation
from horserace.engine.layout import BRANCH_A, CREDIT, AttachmentPoint, Layout, LayoutSave
from horserace.engine.settlement import Settlement, settle
from horserace.engine.tiles import IS_DOUBLE, LOW
from horserace.errors import IllegalAction

__all__ = [
    "BLOCK_AFTER_A_ROUND_OF_PASSES",
    "BONEYARD_FORGOTTEN_BY_THE_EVALUATOR",
    "BRANCH_OFFERED_TOO_EARLY",
    "DIVIDED_BLOCKED_CREDIT",
    "DRAWN_TILE_CONTINUES",
    "EARLY_BRANCH",
    "END_TURN_TRACED_AS_PASS",
    "INTERIOR_DOUBLE_COUNTED",
    "LOST_DRAWN_TILE",
    "PASS_WITH_A_BONEYARD",
    "RESTORE_FORGETS_THE_COUNT",
    "STARTED_BRANCH_ONE_TOO_MANY",
    "TURN_ENDED_FORGOTTEN_BY_THE_EVALUATOR",
    "UNDO_FORGETS_THE_DRAW",
    "drifted_credit_table",
    "remainder_3_rounded_down",
]


def _engine(name: str, **seams: object) -> type[Hand]:
    return type(name, (Hand,), {"__slots__": (), **seams})


# ---------------------------------------------------------------------- the turn
#: HR-TURN-3 forgotten: a drawn tile that scores or is a double continues the turn.
DRAWN_TILE_CONTINUES = _engine("DrawnTileContinues", drawn_tile_exception=False)

#: HRI-5 misread: the canonical ruleset played as block_detection=round-of-passes.
BLOCK_AFTER_A_ROUND_OF_PASSES = _engine(
    "BlockAfterARoundOfPasses", forced_readings={"block_detection": "round-of-passes"}
)


class _PassWithABoneyard(Hand):
    """HR-PASS-1 half-read: a player without a placement may pass while the boneyard
    still holds tiles.  (The pass rule has no seam: the broken engine overrides the
    action itself.)"""

    __slots__ = ()

    def pass_turn(self, seat: int) -> None:
        self._check_actor(seat)
        if self.pending_drawn is not None or self.can_place(seat):
            raise IllegalAction("holds a legal placement", rule="HR-PASS-1", seat=seat)
        self._pass(seat)  # the boneyard is no longer checked


PASS_WITH_A_BONEYARD: type[Hand] = _PassWithABoneyard


class _EndTurnTracedAsPass(Hand):
    """An end of turn (HRI-2 variant) recorded as a pass."""

    __slots__ = ()

    def end_turn(self, seat: int) -> None:
        first = len(self.events)
        super().end_turn(seat)
        if len(self.events) > first and isinstance(self.events[first], EndTurn):
            self.events[first] = Pass(seat)


END_TURN_TRACED_AS_PASS: type[Hand] = _EndTurnTracedAsPass


class _LostDrawnTile(Hand):
    """HR-SET-1 broken: the drawn tile vanishes from the hand."""

    __slots__ = ()

    def draw(self, seat: int) -> int:
        tile = super().draw(seat)
        self.hands[seat] &= ~(1 << tile)
        return tile


LOST_DRAWN_TILE: type[Hand] = _LostDrawnTile


# ---------------------------------------------------------------------- the evaluator of every condition
class _TurnEndedForgottenByTheEvaluator(Hand):
    """HRI-28 misread by :meth:`Hand.broken_conditions` alone: the seat whose turn has just
    ended is any other seat (HR-SEAT-3), not HR-TURN-1 or HR-TURN-3.  The actions are the
    reference's; only the evaluator is wrong."""

    __slots__ = ()

    def broken_conditions(self, *args: object, **kwargs: object) -> tuple[Violation, ...]:
        found = super().broken_conditions(*args, **kwargs)  # type: ignore[arg-type]  # the reference's own arguments, passed through
        return tuple(v._replace(rule="HR-SEAT-3") if v.rule in ("HR-TURN-1", "HR-TURN-3") else v for v in found)


TURN_ENDED_FORGOTTEN_BY_THE_EVALUATOR: type[Hand] = _TurnEndedForgottenByTheEvaluator


class _BoneyardForgottenByTheEvaluator(Hand):
    """HR-DRAW-4 left out of :meth:`Hand.broken_conditions`: a draw from an empty boneyard
    breaks nothing, for the evaluator."""

    __slots__ = ()

    def broken_conditions(self, *args: object, **kwargs: object) -> tuple[Violation, ...]:
        found = super().broken_conditions(*args, **kwargs)  # type: ignore[arg-type]  # the reference's own arguments, passed through
        return tuple(v for v in found if v.rule != "HR-DRAW-4")


BONEYARD_FORGOTTEN_BY_THE_EVALUATOR: type[Hand] = _BoneyardForgottenByTheEvaluator


# ---------------------------------------------------------------------- the layout
class _InteriorDoubleCounted(Layout):
    """HR-COUNT-3 misread: a spinner whose branch is started still counts both halves."""

    __slots__ = ()

    def place(self, t: int, target: int | None, port: int | None) -> int:
        count = super().place(t, target, port)
        if target is not None and IS_DOUBLE[target] and port is not None and port >= BRANCH_A:
            self.count = count = count + 2 * LOW[target]
        return count


INTERIOR_DOUBLE_COUNTED = _engine("InteriorDoubleCounted", layout_class=_InteriorDoubleCounted)


class _EarlyBranch(Layout):
    """HR-SPIN-2 broken: a spinner's branches open as soon as it is placed, and any
    placement is taken as it is written."""

    __slots__ = ()

    def normalise(self, t: int, target: int | None, port: int | None) -> tuple[int | None, int | None]:
        return target, port

    def place(self, t: int, target: int | None, port: int | None) -> int:
        count = super().place(t, target, port)
        if IS_DOUBLE[t]:
            self._slots[LOW[t]].append((t, BRANCH_A))
        return count


EARLY_BRANCH = _engine("EarlyBranch", layout_class=_EarlyBranch)


class _StartedBranchOneTooMany(Layout):
    """HR-COUNT-3 drifted: a placement on a started branch adds one too many."""

    __slots__ = ()

    def place(self, t: int, target: int | None, port: int | None) -> int:
        count = super().place(t, target, port)
        if len(self.order) > 1 and target is not None and port is not None and port >= BRANCH_A:
            self.count = count = count + 1
        return count


STARTED_BRANCH_ONE_TOO_MANY = _engine("StartedBranchOneTooMany", layout_class=_StartedBranchOneTooMany)


class _BranchOfferedTooEarly(Layout):
    """HR-SPIN-2 drifted in the attachment points only: a spinner with one filled port
    already offers a branch."""

    __slots__ = ()

    def attachment_points(self) -> list[AttachmentPoint]:
        points = super().attachment_points()
        for t in self.spinners():
            if self.filled_ports(t) and not any(p.tile == t and p.port >= BRANCH_A for p in points):
                points.append(AttachmentPoint(t, BRANCH_A, LOW[t]))
        return points


BRANCH_OFFERED_TOO_EARLY = _engine("BranchOfferedTooEarly", layout_class=_BranchOfferedTooEarly)


# ---------------------------------------------------------------------- undo
class _UndoForgetsTheDraw(Hand):
    """Undo that leaves the boneyard as the action left it: an undone draw is never put
    back."""

    __slots__ = ()

    def undo(self) -> None:
        drawn = self._next_draw
        super().undo()
        self._next_draw = drawn


UNDO_FORGETS_THE_DRAW: type[Hand] = _UndoForgetsTheDraw


class _RestoreForgetsTheCount(Layout):
    """A layout whose undone placement keeps the count it made (HR-COUNT-1)."""

    __slots__ = ()

    def restore(self, saved: LayoutSave) -> None:
        count = self.count
        super().restore(saved)
        self.count = count


RESTORE_FORGETS_THE_COUNT = _engine("RestoreForgetsTheCount", layout_class=_RestoreForgetsTheCount)


# ---------------------------------------------------------------------- settlement and tables
def _dividing_settle(*args: object, **kwargs: object) -> Settlement:
    """HR-SETTLE-3 misread: tied winners of a blocked hand divide the credit."""
    result = settle(*args, **kwargs)  # type: ignore[arg-type]  # the reference's own arguments, passed through
    n = len(result.winners)
    return result._replace(credits=tuple(c // n for c in result.credits))


DIVIDED_BLOCKED_CREDIT = _engine("DividedBlockedCredit", settle=staticmethod(_dividing_settle))


def remainder_3_rounded_down(pips: int) -> int:
    """HR-SETTLE-1 drifted: a remainder of 3 rounds down (only 4 rounds up)."""
    return (pips + 1) // 5


def drifted_credit_table() -> tuple[int, ...]:
    """HR-CREDIT-1 drifted: a count of 12 "rounded" to 10."""
    drifted = list(CREDIT)
    drifted[12] = 10
    return tuple(drifted)
