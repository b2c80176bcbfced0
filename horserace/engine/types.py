"""Type aliases for the small integers the engine works in.

They are plain ``int`` at run time (no wrapper, no cost on the hot path) and name what an
``int`` means in a signature:

* :data:`Tile`: a tile index 0..27 (:mod:`horserace.engine.tiles`);
* :data:`Port`: a port index 0..5 (:data:`horserace.engine.layout.PORT_NAMES`, HR-MOVE-1);
* :data:`Seat`: a player's seat 0..3, in turn order (HR-SEAT-3);
* :data:`Side`: a scoring side, a seat or a partnership 0..1 (HR-SEAT-1, HR-SEAT-2);
* :data:`Mask`: a bit set of tile indices (a hand, the tiles that play).
"""

from __future__ import annotations

from typing import TypeAlias

__all__ = ["Mask", "Port", "Seat", "Side", "Tile"]

Tile: TypeAlias = int
Port: TypeAlias = int
Seat: TypeAlias = int
Side: TypeAlias = int
Mask: TypeAlias = int
