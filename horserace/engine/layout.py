"""The layout: placed tiles, their ports, the counted ends and the legal targets.

Rules implemented here: HR-PLACE-1 (matching halves), HR-MOVE-1 and HR-MOVE-2 (the move
model and mirror-image ports), HR-SPIN-1..3 (every double a spinner, linear sides before
branches, both branches usable), HR-COUNT-1..5 (counted contributions and their sum).

The representation is incremental, because counting and move generation are the engine's
hot path:

* ``_slots[v]`` lists the *moves* onto the layout whose attachment value is ``v``, as
  ``(target tile, port)`` pairs, one per mirror-image group (HR-MOVE-2);
* ``open_mask`` is the bit mask of all tiles that match some slot, so "does this hand hold
  a legal placement" is one ``&``;
* ``count`` is the running sum of counted contributions, updated by each placement.

Everything else (contributions per tile, every attachment point, connections) is derived
on demand from ``_filled``, the bit set of occupied ports of each placed tile.

A placement can be undone: :meth:`Layout.save` keeps, before a placement, what that
placement will change (a few integers and the one or two slot lists it touches), and
:meth:`Layout.restore` puts it back.  :meth:`Layout.place` itself keeps nothing, so the
hot path of random play pays nothing for undo; :class:`~horserace.engine.hand.Hand` saves
only when asked to (``undoable``), and perft walks the tree with it.
"""

from __future__ import annotations

from typing import ClassVar, NamedTuple

from horserace.engine.tiles import FULL_SET_MASK, HIGH, IS_DOUBLE, LOW, MAX_PIPS, NAMES, VALUE_MASK
from horserace.engine.types import Mask, Port, Tile
from horserace.errors import IllegalAction, NotationError

# HIGH (of horserace.engine.tiles) too: horserace.quality.mutants reads it from here.
__all__ = [
    "BRANCH_A",
    "BRANCH_B",
    "CREDIT",
    "HIGH",
    "LINEAR_A",
    "LINEAR_B",
    "MASK_OF_VALUES",
    "POINTS",
    "PORT_HIGH",
    "PORT_LOW",
    "PORT_NAMES",
    "AttachmentPoint",
    "Connection",
    "Contribution",
    "Layout",
    "LayoutSave",
    "parse_port",
    "port_value",
]


if MAX_PIPS != 6:  # pragma: no cover  (Layout.__init__ writes out one slot list per value)
    raise ImportError("the layout is written for the double-six set")


def _mask_of_values(values: int) -> Mask:
    mask = 0
    for v in range(MAX_PIPS + 1):
        if values >> v & 1:
            mask |= VALUE_MASK[v]
    return mask


#: ``MASK_OF_VALUES[b]``: the tiles that match some value whose bit is set in ``b``.
MASK_OF_VALUES: tuple[Mask, ...] = tuple(_mask_of_values(b) for b in range(1 << (MAX_PIPS + 1)))
#: ``_VALUES_OF[b]``: the values whose bit is set in ``b``.
_VALUES_OF: tuple[tuple[int, ...], ...] = tuple(
    tuple(v for v in range(MAX_PIPS + 1) if b >> v & 1) for b in range(1 << (MAX_PIPS + 1))
)

# Ports (HR-MOVE-1).  A non-double has LOW and HIGH; a double the other four.
PORT_LOW, PORT_HIGH, LINEAR_A, LINEAR_B, BRANCH_A, BRANCH_B = range(6)
PORT_NAMES = ("low", "high", "linear-a", "linear-b", "branch-a", "branch-b")
_PORT_BY_NAME = {n: i for i, n in enumerate(PORT_NAMES)}
_LA, _LB, _BA, _BB = 1 << LINEAR_A, 1 << LINEAR_B, 1 << BRANCH_A, 1 << BRANCH_B
_BOTH_LINEAR = _LA | _LB
_LOW_BIT, _HIGH_BIT = 1 << PORT_LOW, 1 << PORT_HIGH

#: ``CREDIT[count]``: raw credit of a placement whose count is ``count`` (HR-CREDIT-1).
#: The count never exceeds 168, the pips of the whole set (no tile counts more than its
#: pips); 256 entries leave room.
CREDIT: tuple[int, ...] = tuple(c if c > 0 and c % 5 == 0 else 0 for c in range(256))
#: ``POINTS[count]``: the same credit in displayed points, ``CREDIT[count] // 5`` (HR-CREDIT-2).
POINTS: tuple[int, ...] = tuple(c // 5 for c in CREDIT)


#: What :meth:`Layout.save` keeps of a layout before one placement, for :meth:`Layout.restore`:
#: ``None`` before the opening tile (the layout was empty), otherwise the target, its
#: occupied ports, the count, the open values and tiles, and the slot lists the placement
#: changes (the attachment value's, and the value the placed tile adds if it is another),
#: each with its index.  Opaque to callers; a subclass that changes more keeps more.
LayoutSave = tuple[Tile, int, int, int, Mask, int, list[tuple[Tile, Port]], int, list[tuple[Tile, Port]] | None] | None


def parse_port(text: str) -> Port:
    """Port index from its name (HR-MOVE-1)."""
    try:
        return _PORT_BY_NAME[text]
    except (KeyError, TypeError):
        raise NotationError(f"{text!r} is not a port; ports are {', '.join(PORT_NAMES)}", rule="HR-MOVE-1") from None


class Contribution(NamedTuple):
    """One counted contribution (HR-COUNT-1): a free end of a non-double (``port`` set),
    or a double with a free linear side (``port`` is ``None``: the double counts whole)."""

    tile: Tile
    port: Port | None
    value: int


class AttachmentPoint(NamedTuple):
    """A free port where a tile of matching value may be placed (HR-PLACE-1)."""

    tile: Tile
    port: Port
    value: int


class Connection(NamedTuple):
    """Two touching ports: the target's port and the placed tile's port."""

    tile: Tile
    port: Port
    other: Tile
    other_port: Port


def port_value(t: Tile, port: Port) -> int:
    """The value a port of tile ``t`` shows: its half, or the double's value."""
    return HIGH[t] if port == PORT_HIGH else LOW[t]


class Layout:
    """The tiles on the table.  Mutated only by :meth:`place`; everything else reads.

    ``branch_use_one`` selects the register variant HRI-10 ``branch_use=one``.

    The credit of a placement, by its count, is a seam of the layout (a house rule that
    scores otherwise sets both tables; :class:`~horserace.engine.hand.Hand` reads them
    once per hand, and a layout snapshot reports them): :attr:`credit_raw_table` and
    :attr:`credit_table`.
    """

    #: HR-CREDIT-1: the raw credit of a placement whose count is the index.
    credit_raw_table: ClassVar[tuple[int, ...]] = CREDIT
    #: HR-CREDIT-2: the same credit in displayed points.
    credit_table: ClassVar[tuple[int, ...]] = POINTS

    __slots__ = ("_filled", "_joins", "_one_branch", "_open_values", "_slots", "count", "open_mask", "order")

    def __init__(self, *, branch_use_one: bool = False) -> None:
        self.order: list[Tile] = []
        self._filled: dict[Tile, int] = {}  # bit p set: port p is occupied
        # One list per value 0..MAX_PIPS, written out: a comprehension costs a hand's
        # set-up 3,000 machine instructions more (valgrind).
        self._slots: list[list[tuple[Tile, Port]]] = [[], [], [], [], [], [], []]
        self._open_values = 0  # bit v set: some move attaches to value v
        #: Tiles that have a legal placement now; every tile on an empty layout (HR-OPEN-2).
        self.open_mask: Mask = FULL_SET_MASK
        #: Sum of counted contributions (HR-COUNT-1).
        self.count = 0
        self._joins: list[tuple[Tile, Port, Tile, Port]] = []
        self._one_branch = branch_use_one

    # ------------------------------------------------------------------ queries
    def __len__(self) -> int:
        return len(self.order)

    def __contains__(self, t: Tile) -> bool:
        return t in self._filled

    def moves_for(self, t: Tile) -> list[tuple[Tile | None, Port | None]]:
        """Distinct legal ``(target, port)`` pairs for tile ``t`` (HR-MOVE-2); the
        opening move is ``(None, None)``."""
        if not self.order:
            return [(None, None)]
        slots = self._slots
        out: list[tuple[Tile | None, Port | None]] = list(slots[LOW[t]])
        if HIGH[t] != LOW[t]:
            out.extend(slots[HIGH[t]])
        return out

    def moves_for_mask(self, hand: Mask) -> list[tuple[Tile, Tile | None, Port | None]]:
        """Every distinct legal placement ``(tile, target, port)`` for a hand bit mask."""
        playable = hand & self.open_mask
        out: list[tuple[Tile, Tile | None, Port | None]] = []
        if not playable:
            return out
        if not self.order:
            while playable:
                low_bit = playable & -playable
                out.append((low_bit.bit_length() - 1, None, None))
                playable ^= low_bit
            return out
        slots = self._slots
        while playable:
            low_bit = playable & -playable
            t = low_bit.bit_length() - 1
            playable ^= low_bit
            for target, port in slots[LOW[t]]:
                out.append((t, target, port))
            if not IS_DOUBLE[t]:  # a double's one value once
                for target, port in slots[HIGH[t]]:
                    out.append((t, target, port))
        return out

    def count_moves_for_mask(self, hand: Mask) -> int:
        """How many placements :meth:`moves_for_mask` gives for ``hand``, without making
        them: each playable tile has one move per slot of each of its values (a double's
        one value once).  A subclass that overrides :meth:`moves_for_mask` overrides this
        too."""
        playable = hand & self.open_mask
        if not playable or not self.order:
            return playable.bit_count()  # the opening: every tile in hand (HR-OPEN-2)
        slots = self._slots
        count = 0
        for value in _VALUES_OF[self._open_values]:
            count += len(slots[value]) * (playable & VALUE_MASK[value]).bit_count()
        return count

    def contributions(self) -> list[Contribution]:
        """Counted contributions, in placement order (HR-COUNT-1..5)."""
        out = []
        for t in self.order:
            filled = self._filled[t]
            if IS_DOUBLE[t]:
                if filled & _BOTH_LINEAR != _BOTH_LINEAR:
                    out.append(Contribution(t, None, 2 * LOW[t]))  # HR-COUNT-2
            else:
                for port in (PORT_LOW, PORT_HIGH):
                    if not filled & (1 << port):
                        out.append(Contribution(t, port, port_value(t, port)))
        return out

    def attachment_points(self) -> list[AttachmentPoint]:
        """Every free port a tile may be placed on, mirror images included (HR-PLACE-1,
        HR-SPIN-2, HR-SPIN-3).  An attachment point is not necessarily counted."""
        out = []
        for t in self.order:
            filled = self._filled[t]
            if IS_DOUBLE[t]:
                if filled & _BOTH_LINEAR != _BOTH_LINEAR:
                    ports: tuple[Port, ...] = (LINEAR_A, LINEAR_B)
                elif self._one_branch and filled & (_BA | _BB):
                    ports = ()
                else:
                    ports = (BRANCH_A, BRANCH_B)
            else:
                ports = (PORT_LOW, PORT_HIGH)
            for port in ports:
                if not filled & (1 << port):
                    out.append(AttachmentPoint(t, port, port_value(t, port)))
        return out

    def connections(self) -> list[Connection]:
        """Every pair of touching ports, in placement order."""
        return [Connection(*j) for j in self._joins]

    def spinners(self) -> list[Tile]:
        """Every double on the layout is a spinner (HR-SPIN-1)."""
        return [t for t in self.order if IS_DOUBLE[t]]

    def filled_ports(self, t: Tile) -> int:
        """Bit set of the occupied ports of a placed tile."""
        return self._filled[t]

    # ------------------------------------------------------------------ validation
    def normalise(self, t: Tile, target: Tile | None, port: Port | None) -> tuple[Tile | None, Port | None]:
        """Check that placing ``t`` on ``(target, port)`` is legal and return the
        canonical ``(target, port)`` (HR-MOVE-2 mirror names).  Raises
        :class:`IllegalAction` naming the first rule broken, in the spec's order of checks:
        HR-MOVE-1, HR-SPIN-2, HR-PLACE-1 (occupied), HR-SPIN-3 (variant
        ``branch_use=one``), HR-PLACE-1 (value)."""
        why = self._no_point(t, target, port)
        if why is not None:
            raise IllegalAction(why, rule="HR-MOVE-1")
        if target is None or port is None:
            return None, None  # the opening tile
        filled = self._filled[target]
        double = IS_DOUBLE[target]
        if double:
            if port >= BRANCH_A and filled & _BOTH_LINEAR != _BOTH_LINEAR:
                raise IllegalAction(_branch_not_open(target, port), rule="HR-SPIN-2")
            port = _first_of_mirrors(port, filled)
        if filled & (1 << port):
            raise IllegalAction(f"port {PORT_NAMES[port]} of {NAMES[target]} is already occupied", rule="HR-PLACE-1")
        if double and self._one_branch and port >= BRANCH_A and filled & (_BA | _BB):
            raise IllegalAction(
                f"spinner {NAMES[target]} already has a started branch (variant branch_use=one)",
                rule="HR-SPIN-3",
            )
        value = port_value(target, port)
        if value != LOW[t] and value != HIGH[t]:
            raise IllegalAction(
                f"{NAMES[t]} has no half {value} to match port {PORT_NAMES[port]} of {NAMES[target]}",
                rule="HR-PLACE-1",
            )
        return target, port

    def _no_point(self, t: Tile, target: Tile | None, port: Port | None) -> str | None:
        """What is wrong (HR-MOVE-1) when placing ``t`` on ``(target, port)`` names no
        point of the layout: a target for the opening tile, none after it, a target not on
        the layout, a port the target does not have; ``None`` when it names one (or none,
        for the opening tile)."""
        if not self.order:
            if target is not None or port is not None:
                return f"the layout is empty: {NAMES[t]} is the opening tile and takes no target"
            return None
        if target is None or port is None:
            return f"placing {NAMES[t]} needs a target tile and port: the layout is not empty"
        if target not in self._filled:
            return f"target {NAMES[target]} is not on the layout"
        double = IS_DOUBLE[target]
        if double != (port >= LINEAR_A):
            kind = "a double" if double else "a non-double"
            return f"{NAMES[target]} is {kind} and has no port {PORT_NAMES[port]!r}"
        return None

    def move_violations(self, t: Tile, target: Tile | None, port: Port | None) -> list[tuple[str, str]]:
        """Every condition of the order of checks about the move that placing ``t`` on
        ``(target, port)`` breaks, as ``(rule, what is broken)`` pairs in that order
        (spec/rules.md: HR-MOVE-1, HR-SPIN-2, HR-PLACE-1 for an occupied port, HR-SPIN-3
        under ``branch_use=one``, HR-PLACE-1 for the value); empty when :meth:`normalise`
        accepts the move.  Read-only, and unlike :meth:`normalise` it does not stop at the
        first: the conditions are evaluated one by one, mirror-image names resolved first
        (HR-MOVE-2).  A move that names no point of the layout (HR-MOVE-1: a target for the
        opening tile, none after it, a target not on the layout, a port the target does
        not have) leaves nothing else to evaluate."""
        why = self._no_point(t, target, port)
        if why is not None:
            return [("HR-MOVE-1", why)]
        if target is None or port is None:
            return []  # the opening tile
        filled = self._filled[target]
        double = IS_DOUBLE[target]
        out = []
        if double:
            if port >= BRANCH_A and filled & _BOTH_LINEAR != _BOTH_LINEAR:
                out.append(("HR-SPIN-2", _branch_not_open(target, port)))
            port = _first_of_mirrors(port, filled)
        if filled & (1 << port):
            out.append(("HR-PLACE-1", f"port {PORT_NAMES[port]} of {NAMES[target]} is already occupied"))
        elif double and self._one_branch and port >= BRANCH_A and filled & (_BA | _BB):
            out.append(("HR-SPIN-3", f"spinner {NAMES[target]} already has a started branch (variant branch_use=one)"))
        value = port_value(target, port)
        if value != LOW[t] and value != HIGH[t]:
            out.append(
                ("HR-PLACE-1", f"{NAMES[t]} has no half {value} to match port {PORT_NAMES[port]} of {NAMES[target]}")
            )
        return out

    # ------------------------------------------------------------------ mutation
    def save(self, t: Tile, target: Tile | None, port: Port | None) -> LayoutSave:
        """What placing ``t`` on ``(target, port)`` (a move already normalised) will change,
        kept for :meth:`restore`.  Call it just before :meth:`place`.

        A subclass whose :meth:`place` changes more than this one's (other slot lists, a
        field of its own) overrides both, keeping what its placement changes too."""
        if target is None:
            return None
        # port is set whenever target is (normalise, moves_for_mask); see place().
        value = HIGH[target] if port == PORT_HIGH else LOW[target]
        lo = LOW[t]
        added = lo if IS_DOUBLE[t] or lo != value else HIGH[t]  # the value the placed tile offers
        slots = self._slots
        return (
            target,
            self._filled[target],
            self.count,
            self._open_values,
            self.open_mask,
            value,
            slots[value][:],
            added,
            slots[added][:] if added != value else None,
        )

    def restore(self, saved: LayoutSave) -> None:
        """Undo the last placement, with what :meth:`save` kept just before it: the layout
        is then equal to the layout before that placement.  Each saved value is restored
        at most once."""
        t = self.order.pop()
        del self._filled[t]
        slots = self._slots
        if saved is None:  # the opening tile: the layout is empty again
            for entries in slots:
                entries.clear()
            self._open_values = 0
            self.open_mask = FULL_SET_MASK
            self.count = 0
            return
        target, filled, count, open_values, open_mask, value, value_slots, added, added_slots = saved
        self._filled[target] = filled
        slots[value] = value_slots  # the saved copy becomes the list itself: it is used once
        if added_slots is not None:
            slots[added] = added_slots
        self._joins.pop()
        self.count = count
        self._open_values = open_values
        self.open_mask = open_mask

    def place(self, t: Tile, target: Tile | None, port: Port | None) -> int:
        """Place tile ``t`` on a move already checked by :meth:`normalise` (or produced by
        :meth:`moves_for_mask`); return the new count (HR-COUNT-1)."""
        slots = self._slots
        self.order.append(t)
        lo = LOW[t]
        if target is None:  # opening tile (HR-OPEN-2)
            self._filled[t] = 0
            if IS_DOUBLE[t]:
                slots[lo].append((t, LINEAR_A))  # mirror of LINEAR_B (HR-MOVE-2)
                count = 2 * lo  # HR-COUNT-2: counts both halves once
            else:
                hi = HIGH[t]
                slots[lo].append((t, PORT_LOW))
                slots[hi].append((t, PORT_HIGH))
                count = lo + hi  # HR-COUNT-5
            self.count = count
            self._open_values = values = (1 << lo) | (1 << HIGH[t])
            self.open_mask = MASK_OF_VALUES[values]
            return count

        # From here ``port`` is a Port: a move names both a target and a port or neither
        # (normalise, moves_for_mask).  mypy cannot see the pairing and the hot path takes
        # no check to narrow it, hence the ``type: ignore`` comments below.
        filled_ports = self._filled
        value = HIGH[target] if port == PORT_HIGH else LOW[target]
        target_slots = slots[value]
        target_slots.remove((target, port))  # type: ignore[arg-type]  # port is set, see above
        filled = filled_ports[target] | (1 << port)  # type: ignore[operator]  # port is set, see above
        filled_ports[target] = filled
        if IS_DOUBLE[target]:
            count = self.count
            if port <= LINEAR_B:  # type: ignore[operator]  # port is set, see above
                if filled & _BOTH_LINEAR == _BOTH_LINEAR:
                    count -= 2 * value  # HR-COUNT-3: now interior
                    target_slots.append((target, BRANCH_A))  # branches open (HR-SPIN-2)
                else:  # an opening double's first linear side
                    target_slots.append((target, LINEAR_B))
            elif port == BRANCH_A and not self._one_branch:
                target_slots.append((target, BRANCH_B))  # HR-SPIN-3
        else:
            count = self.count - value  # that end is covered

        # Each branch appends its own join: one variable fewer on the hot path.
        if IS_DOUBLE[t]:
            filled_ports[t] = _LA  # a placed double touches with linear-a (HR-MOVE-1)
            self._joins.append((target, port, t, LINEAR_A))  # type: ignore[arg-type]  # port is set, see above
            count += 2 * lo
            slots[lo].append((t, LINEAR_B))
            added = lo
        elif lo == value:
            filled_ports[t] = _LOW_BIT
            self._joins.append((target, port, t, PORT_LOW))  # type: ignore[arg-type]  # port is set, see above
            added = HIGH[t]
            count += added
            slots[added].append((t, PORT_HIGH))
        else:
            filled_ports[t] = _HIGH_BIT
            self._joins.append((target, port, t, PORT_HIGH))  # type: ignore[arg-type]  # port is set, see above
            added = lo
            count += lo
            slots[lo].append((t, PORT_LOW))
        self.count = count
        values = self._open_values | (1 << added)
        if not target_slots:
            values &= ~(1 << value)
        self._open_values = values
        self.open_mask = MASK_OF_VALUES[values]
        return count


def _branch_not_open(target: Tile, port: Port) -> str:
    """HR-SPIN-2's words for a branch of a spinner whose linear sides are not both filled."""
    return f"branch {PORT_NAMES[port]} of spinner {NAMES[target]} is not open: both linear sides must be filled first"


def _first_of_mirrors(port: Port, filled: int) -> Port:
    """A double's port by its canonical name: of a free mirror pair, the first free of A
    then B names the move (HR-MOVE-2)."""
    if port == LINEAR_B and not filled & (_LA | _LB):
        return LINEAR_A
    if port == BRANCH_B and not filled & (_BA | _BB):
        return BRANCH_A
    return port
