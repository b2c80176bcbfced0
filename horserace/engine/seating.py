"""The seatings of Horse Race: two, three or four players each on their own, or four in
two fixed partnerships (HR-SEAT-1, HR-SEAT-2).  The one list of them that random play,
fuzzing, the rule-change diff, benchmarks and the strategies share."""

from __future__ import annotations

from dataclasses import dataclass

from horserace.engine.types import Seat, Side

__all__ = ["SEATINGS", "Seating"]


@dataclass(frozen=True)
class Seating:
    """``players`` seats, on their own or (four players) in partnerships of seats 0+2 and
    1+3."""

    players: int
    partnership: bool = False

    @property
    def sides(self) -> int:
        """The sides that score: one per player, or two pairs (HR-SEAT-2)."""
        return 2 if self.partnership else self.players

    def side_of(self, seat: Seat) -> Side:
        return seat % 2 if self.partnership else seat

    @property
    def label(self) -> str:
        return "partnership" if self.partnership else f"{self.players} players"


#: Every seating, in the order the benchmark and the fuzzer cycle through them.
SEATINGS: tuple[Seating, ...] = (Seating(2), Seating(3), Seating(4), Seating(4, partnership=True))
