"""Tiles of the double-six set (HR-SET-1, HR-SET-2) and their notation (HR-MOVE-2).

A tile is represented by a small integer index 0..27, so that hands can be bit masks and
the hot path never allocates tile objects.  Index order is ``[0|0], [0|1], ..., [0|6],
[1|1], ..., [6|6]``: low half first, then high half.  The tables below give each index's
halves, pip value and double-ness; the helpers convert to and from the written form
``[a|b]``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from horserace.engine.types import Mask, Tile
from horserace.errors import NotationError

#: Highest value on a half (double-six set).
__all__ = [
    "ALL_TILES",
    "FULL_SET_MASK",
    "HIGH",
    "IS_DOUBLE",
    "LOW",
    "MAX_PIPS",
    "NAMES",
    "PIPS",
    "TILE_COUNT",
    "TOTAL_PIPS",
    "VALUE_MASK",
    "mask_of",
    "name",
    "parse_tile",
    "pips_of",
    "tile",
    "tiles_of",
]

MAX_PIPS = 6

#: ``LOW[t]``, ``HIGH[t]``: the lower and higher half of tile index ``t``.
LOW: tuple[int, ...]
HIGH: tuple[int, ...]
_pairs = [(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)]
LOW = tuple(a for a, _ in _pairs)
HIGH = tuple(b for _, b in _pairs)
#: Number of tiles in the set: 28 (HR-SET-1).
TILE_COUNT = len(_pairs)
ALL_TILES: tuple[Tile, ...] = tuple(range(TILE_COUNT))
#: ``PIPS[t]``: the pip value of a tile, the sum of its halves (HR-SET-2).
PIPS: tuple[int, ...] = tuple(a + b for a, b in _pairs)
#: ``IS_DOUBLE[t]``: whether the tile is a double, hence a spinner (HR-SPIN-1).
IS_DOUBLE: tuple[bool, ...] = tuple(a == b for a, b in _pairs)
#: Total pips in the set: 168.
TOTAL_PIPS = sum(PIPS)
_INDEX = {pair: i for i, pair in enumerate(_pairs)}
#: ``VALUE_MASK[v]``: bit mask of the tiles that carry value ``v`` on either half.
VALUE_MASK: tuple[Mask, ...] = tuple(
    sum(1 << t for t in ALL_TILES if v in (LOW[t], HIGH[t])) for v in range(MAX_PIPS + 1)
)
#: ``NAMES[t]``: the canonical written form, low half first, e.g. ``"[1|4]"``.
NAMES: tuple[str, ...] = tuple(f"[{a}|{b}]" for a, b in _pairs)
FULL_SET_MASK = (1 << TILE_COUNT) - 1

_NOTATION = re.compile(r"\s*\[\s*(\d+)\s*\|\s*(\d+)\s*\]\s*\Z")


def tile(a: int, b: int) -> Tile:
    """Index of the tile with halves ``a`` and ``b``, in either order (HR-MOVE-2)."""
    if not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):
        raise NotationError(f"[{a}|{b}] is not a tile of the double-six set", rule="HR-SET-1")
    return _INDEX[(a, b) if a <= b else (b, a)]


def parse_tile(text: str) -> Tile:
    """Parse ``"[a|b]"`` (either half first, as HR-MOVE-2 allows on input)."""
    if not isinstance(text, str):
        raise NotationError(f"a tile is written as a string like '[1|4]', not {text!r}", rule="HR-MOVE-2")
    match = _NOTATION.match(text)
    if match is None:
        raise NotationError(f"{text!r} is not tile notation; write it as '[a|b]'", rule="HR-MOVE-2")
    return tile(int(match.group(1)), int(match.group(2)))


def name(t: Tile) -> str:
    """The canonical written form of tile index ``t``, low half first (HR-MOVE-2)."""
    return NAMES[t]


def mask_of(tiles: Iterable[Tile]) -> Mask:
    """Bit mask of an iterable of tile indices."""
    mask = 0
    for t in tiles:
        mask |= 1 << t
    return mask


def tiles_of(mask: Mask) -> list[Tile]:
    """Tile indices in a bit mask, in index order."""
    out = []
    while mask:
        low_bit = mask & -mask
        out.append(low_bit.bit_length() - 1)
        mask ^= low_bit
    return out


def pips_of(mask: Mask) -> int:
    """Total pip value of the tiles in a bit mask (HR-SET-2)."""
    # Four table look-ups, seven tiles each, in place of a loop over the bits: a quarter
    # of the machine instructions (valgrind) for a hand's end.
    return (
        _PIPS_OF_BITS_0[mask & 127]
        + _PIPS_OF_BITS_7[mask >> 7 & 127]
        + _PIPS_OF_BITS_14[mask >> 14 & 127]
        + _PIPS_OF_BITS_21[mask >> 21]
    )


def _pips_table(first: Tile) -> tuple[int, ...]:
    """Pips of each combination of the seven tiles from index ``first`` on, by bit mask."""
    return tuple(sum(PIPS[first + i] for i in range(7) if bits >> i & 1) for bits in range(128))


_PIPS_OF_BITS_0, _PIPS_OF_BITS_7, _PIPS_OF_BITS_14, _PIPS_OF_BITS_21 = (_pips_table(f) for f in (0, 7, 14, 21))
