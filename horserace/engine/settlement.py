"""Hand-end settlement and match winners (HR-END-2, HR-SETTLE-1..3, HR-MATCH-2).

Pure functions over numbers, shared by the engine and by ``settlement`` fixtures.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import NamedTuple, Protocol

from horserace.engine.types import Seat, Side
from horserace.errors import SetupError

__all__ = ["SettleFunction", "Settlement", "hand_credit", "round_to_five", "settle", "side_totals"]


def round_to_five(pips: int) -> int:
    """Round a pip total to the nearest multiple of five, remainders 1-2 down and 3-4 up
    (HR-SETTLE-1): 17 -> 15, 18 -> 20, 22 -> 20, 12 -> 10."""
    return (pips + 2) // 5 * 5


def hand_credit(pips: int) -> int:
    """Displayed points for a combined opponents' pip total, rounded once (HR-SETTLE-1):
    :func:`round_to_five`'s multiple of five, in fives.  :func:`settle` credits through it,
    so the proof's tie (``horserace.verify.ties.rounding_mismatches``) speaks for it."""
    return round_to_five(pips) // 5


_new = tuple.__new__


class Settlement(NamedTuple):
    winners: tuple[Side, ...]  #: winning sides of the hand
    credits: tuple[int, ...]  #: credit per side, displayed points
    scores: tuple[int, ...]  #: per side, after the credits
    match_winners: tuple[Side, ...]  #: sides at or over the target; empty if none


class SettleFunction(Protocol):
    """The shape of :func:`settle`: the seam a variant or a mutant of the settlement fills
    (``Hand.settle``)."""

    def __call__(
        self,
        pips_by_seat: Sequence[int],
        *,
        partnership: bool,
        domino_seat: Seat | None,
        scores: Sequence[int],
        target: int,
    ) -> Settlement: ...


def side_totals(pips_by_seat: Sequence[int], partnership: bool) -> list[int]:
    """Remaining pips per side: per player, or per pair of partners (HR-SEAT-2, HR-END-2)."""
    if not partnership:
        return list(pips_by_seat)
    if len(pips_by_seat) != 4:
        raise SetupError("the partnership game has four seats", rule="HR-SEAT-1")
    return [pips_by_seat[0] + pips_by_seat[2], pips_by_seat[1] + pips_by_seat[3]]


def settle(
    pips_by_seat: Sequence[int],
    *,
    partnership: bool,
    domino_seat: Seat | None,
    scores: Sequence[int],
    target: int,
) -> Settlement:
    """Settle a hand.

    ``domino_seat`` is the seat that placed its last tile (HR-END-1), or ``None`` for a
    blocked hand (HR-END-2).  The winner takes the combined pips of every other side,
    rounded once (HR-SETTLE-1); own and partner's pips are not counted and nobody loses
    points (HR-SETTLE-2); each tied lowest side takes the full credit of all other sides,
    co-winners included (HR-SETTLE-3).  Credits are applied together, and every side at
    or over the target afterwards shares the match (HR-MATCH-2).
    """
    # Written for speed (a settlement ends every hand): loops and comprehensions where
    # generator expressions were, the tuple made directly.  The credit is hand_credit's,
    # called, not written out: the rounding has one source, the one its proof is tied to.
    totals = side_totals(pips_by_seat, partnership) if partnership else pips_by_seat
    sides = len(totals)
    if len(scores) != sides:
        raise SetupError(f"{sides} sides need {sides} scores, not {len(scores)}", rule="HR-SEAT-1")
    if domino_seat is None:
        low = min(totals)
        winners = tuple([side for side in range(sides) if totals[side] == low])
    else:
        winners = (domino_seat % 2 if partnership else domino_seat,)
    grand = sum(totals)
    credits = [0] * sides
    for side in winners:
        credits[side] = hand_credit(grand - totals[side])  # HR-SETTLE-1
    after = tuple(map(add, scores, credits))
    match_winners: tuple[Side, ...] = ()
    for side in range(sides):
        if after[side] >= target:
            match_winners += (side,)
    return _new(Settlement, (winners, tuple(credits), after, match_winners))
