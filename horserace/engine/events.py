"""Events: everything that happens in a hand, as small immutable records.

Fixtures check these (the whole event trace of a ``play`` fixture), so each field is
named for the observation it carries.  Tiles and seats are ints here; the canonical text
encoding lives with the fixture code.  They are NamedTuples: cheap to create on the hot
path and immutable.
"""

from __future__ import annotations

from enum import Enum
from typing import NamedTuple

from horserace.engine.types import Port, Seat, Side, Tile

__all__ = ["Draw", "EndTurn", "Event", "HandEnd", "HandEndReason", "MatchEnd", "Pass", "Place"]


class HandEndReason(str, Enum):
    DOMINO = "domino"  #: a player placed their last tile (HR-END-1)
    BLOCKED = "blocked"  #: empty boneyard and nobody can place (HR-BLOCK-1)
    MATCH = "match"  #: a placement reached the target; the hand is not settled (HR-MATCH-1)


class Place(NamedTuple):
    """A placement (HR-PLACE-1) with its count (HR-COUNT-1) and credit (HR-CREDIT-1)."""

    seat: Seat
    tile: Tile
    target: Tile | None
    port: Port | None
    count: int  # type: ignore[assignment]  # the field shadows tuple.count(); its name is the observation's
    credit_raw: int
    credit: int  #: displayed points (HR-CREDIT-2)
    continues: bool  #: the same player places again (HR-TURN-1)
    drawn: bool  #: the tile fell under the drawn-tile exception (HR-TURN-3)


class Draw(NamedTuple):
    """One tile drawn from the boneyard (HR-DRAW-2)."""

    seat: Seat
    tile: Tile


class Pass(NamedTuple):
    """A pass: no legal placement and an empty boneyard (HR-PASS-1)."""

    seat: Seat


class EndTurn(NamedTuple):
    """A turn given up during a continuation (variant ``continuation=optional``) or ended
    at once for want of a playable tile (variant ``continuation_without_tile=end-turn``)."""

    seat: Seat


class HandEnd(NamedTuple):
    """The end of a hand and its settlement (HR-END-1..2, HR-SETTLE-1..3)."""

    reason: HandEndReason
    winners: tuple[Side, ...]  #: winning sides; empty when the match ended first
    pips: tuple[int, ...]  #: remaining pip total per seat
    credits: tuple[int, ...]  #: settlement credit per side, displayed points
    scores: tuple[int, ...]  #: scores per side after the settlement
    next_opener: Seat | None  #: seat; ``None`` after a block (a new lot) or the match's end


class MatchEnd(NamedTuple):
    """The match is won (HR-MATCH-1, HR-MATCH-2)."""

    winners: tuple[Side, ...]  #: sides, sharing the win when several
    scores: tuple[int, ...]


Event = Place | Draw | Pass | EndTurn | HandEnd | MatchEnd
