"""Inline SVG drawings of a layout, as the rule documents drew theirs.

The documents' pictures (shared/rules/README.md) use three marks, and so does this:

* an **orange outline** marks a spinner (every double, HR-SPIN-1), not a counted end;
* a **filled number** is a counted contribution (HR-COUNT-1), drawn at its end: a free
  end of a non-double shows its value, a double with a free linear side counts whole and
  shows ``2 x v`` once, at its (first) free linear side (HR-COUNT-2);
* a **hollow dot** is an attachment point that does not count (an open spinner branch).

The layout itself is built with the engine's public API (:class:`~horserace.engine.layout.Layout`),
so the marks are the engine's contributions and attachment points, never a second
implementation of the counting rules.

Placement of tiles (deterministic, a tree drawn on a grid of half-half units):

* the opening tile sits in the middle, horizontal; its low end (a double: linear A) faces
  left, its high end (linear B) right;
* a tile continues its parent's line from the port it touches: a non-double lies along the
  line, a double lies crosswise (HR-SPIN-1's "placed across");
* a spinner's branches leave it across the line: branch A up and branch B down on a
  horizontal line, left and right on a vertical one;
* tiles are laid out by branch depth (the main line first, then first branches, ...) and,
  within a depth, in placement order, so a parent always comes before its children;
* a grid occupancy map keeps one free unit between unrelated tiles and keeps room beyond
  every port that gets a mark or a child; a non-double whose place is taken bends (turns
  a corner); a tile that can neither go straight nor bend goes to the nearest free place
  (rings of growing radius around the port) that a dashed connector can reach without
  crossing anything.  A main line longer than about seven tiles on one side bends too,
  to keep the drawing narrow.  (In rare enclosed pockets, about 1 random 28-tile layout
  in 3000, the connector has to pass under other tiles.)

Nothing here raises on bad input: a placement that is unknown or illegal stops the
drawing there, and the drawing says so in a note.

A drawing stands alone (an SVG file, a page of the site), or is one of many on a page
(``shared=True``, the reports): then the page shows the legend once
(:func:`legend_html`) and defines once the tile faces and marks the drawings use
(:func:`page_defs`, SVG ``<use>``), and its style sheet gives their font.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeAlias
from xml.sax.saxutils import escape, quoteattr

from horserace.engine.layout import (
    BRANCH_A,
    BRANCH_B,
    LINEAR_A,
    LINEAR_B,
    PORT_HIGH,
    PORT_LOW,
    PORT_NAMES,
    Layout,
    parse_port,
    port_value,
)
from horserace.engine.tiles import IS_DOUBLE, LOW, NAMES, parse_tile
from horserace.errors import HorseRaceError, RuleError

__all__ = ["SHARED_CSS", "SPINNER_COLOUR", "layout_svg", "legend_html", "page_defs"]

#: The text attributes of a drawing's tile values and of its marks' numbers, inherited
#: from their group; a page of shared drawings gives them once in its style sheet
#: (:data:`SHARED_CSS`) and each group names its class.
_VALUES = 'text-anchor="middle" font-size="22" font-weight="bold" fill="#222"'
_MARKS = 'text-anchor="middle" font-size="15" font-weight="bold" fill="#fff"'
_LAST_PLACED = ' fill="none" stroke="#c0142b" stroke-width="2.5" stroke-dasharray="5 3"'
SHARED_CSS = (
    "svg .hr-v { text-anchor: middle; font-size: 22px; font-weight: bold; fill: #222; }\n"
    "svg .hr-m { text-anchor: middle; font-size: 15px; font-weight: bold; fill: #fff; }\n"
    "svg .last-placed { fill: none; stroke: #c0142b; stroke-width: 2.5; stroke-dasharray: 5 3; }\n"
    "svg .legend { font-size: 14px; fill: #222; } svg .legend .sum { font-weight: bold; } "
    "svg .legend .note { fill: #a40000; }\n"
)

#: Pixels per grid unit; a tile half is 2 x 2 units.
UNIT = 20
#: Colours of the documents' marks.
SPINNER_COLOUR = "#e67e00"
FILLED_COLOUR = "#1d4f91"
HOLLOW_COLOUR = "#333333"
#: A main line bends rather than run further than this many units from the middle.
MAX_HALF_WIDTH = 28

#: A point on the drawing's grid, or a unit direction on it.
_Point: TypeAlias = tuple[int, int]

_E, _W, _N, _S = (1, 0), (-1, 0), (0, -1), (0, 1)
_FONT = 'font-family="DejaVu Sans, Verdana, Arial, sans-serif"'


def _add(p: _Point, q: _Point, k: int = 1) -> _Point:
    return (p[0] + k * q[0], p[1] + k * q[1])


def _neg(d: _Point) -> _Point:
    return (-d[0], -d[1])


def _across(d: _Point) -> tuple[tuple[int, int], tuple[int, int]]:
    """The two directions across a line: branch A's, then branch B's (up/down on a
    horizontal line, left/right on a vertical one)."""
    return (_N, _S) if d[1] == 0 else (_W, _E)


@dataclass
class _Placed:
    tile: int
    q: tuple[int, int]  #: midpoint of the edge where the tile touches its parent (its back edge)
    d: tuple[int, int]  #: the direction its line runs
    touching: int  #: the port at ``q``: the touching port (the opening: low / linear A)
    connector: tuple[tuple[int, int], tuple[int, int]] | None = None  #: shifted: parent port -> q

    @property
    def double(self) -> bool:
        return IS_DOUBLE[self.tile]

    def rect(self) -> tuple[int, int, int, int]:
        length, half_width = (2, 2) if self.double else (4, 1)
        a = self.q
        b = _add(self.q, self.d, length)
        side = (abs(self.d[1]), abs(self.d[0]))  # unit vector across the line
        xs = (a[0] - half_width * side[0], a[0] + half_width * side[0], b[0], b[0])
        ys = (a[1] - half_width * side[1], a[1] + half_width * side[1], b[1], b[1])
        return min(xs), min(ys), max(xs), max(ys)

    def centre(self) -> tuple[float, float]:
        x0, y0, x1, y1 = self.rect()
        return (x0 + x1) / 2, (y0 + y1) / 2

    def port(self, port: int) -> tuple[tuple[int, int], tuple[int, int]]:
        """Where a port is (a point on the tile's edge) and the direction it faces."""
        if self.double:
            centre = _add(self.q, self.d)
            if port == LINEAR_A:
                return self.q, _neg(self.d)
            if port == LINEAR_B:
                return _add(self.q, self.d, 2), self.d
            side = _across(self.d)[0 if port == BRANCH_A else 1]
            return _add(centre, side, 2), side
        if port == self.touching:
            return self.q, _neg(self.d)
        return _add(self.q, self.d, 4), self.d

    def halves(self) -> list[tuple[tuple[float, float], int]]:
        """The centre of each half and the value it shows."""
        if self.double:
            centre = _add(self.q, self.d)
            a, b = _across(self.d)
            return [(_add(centre, a), LOW[self.tile]), (_add(centre, b), LOW[self.tile])]
        near = port_value(self.tile, self.touching)
        other = port_value(self.tile, PORT_HIGH if self.touching == PORT_LOW else PORT_LOW)
        return [(_add(self.q, self.d, 1), near), (_add(self.q, self.d, 3), other)]


def _cells(rect: tuple[int, int, int, int], margin: int = 0) -> Iterator[_Point]:
    x0, y0, x1, y1 = rect
    for x in range(x0 - margin, x1 + margin):
        for y in range(y0 - margin, y1 + margin):
            yield x, y


def _mark_box(point: _Point, facing: _Point) -> tuple[int, int, int, int]:
    centre = _add(point, facing)
    return centre[0] - 1, centre[1] - 1, centre[0] + 1, centre[1] + 1


def _describe(entry: object) -> str:
    if not isinstance(entry, dict):
        return repr(entry)[:60]
    parts = [str(entry.get("tile", "?"))]
    if entry.get("target") is not None or entry.get("port") is not None:
        parts.append(f"on {entry.get('target', '?')} {entry.get('port', '?')}")
    return " ".join(parts)[:80]


def build_layout(placements: object, *, branch_use_one: bool = False) -> tuple[Layout, list[str]]:
    """The layout the placements build, as far as they are legal, and notes on the rest."""
    layout = Layout(branch_use_one=branch_use_one)
    notes: list[str] = []
    entries = list(placements) if isinstance(placements, (list, tuple)) else []
    if not isinstance(placements, (list, tuple)):
        notes.append(f"not a list of placements: {repr(placements)[:60]}")
    for i, entry in enumerate(entries):
        if isinstance(entry, dict) and "tile" not in entry and entry.get("end_turn"):
            continue  # a continuation given up (play fixtures): not a placement
        try:
            if not isinstance(entry, dict):
                raise ValueError("a placement is a {tile, target, port} mapping")  # noqa: TRY004, TRY301  (a note below, as every bad placement is)
            if "tile" not in entry:
                raise ValueError("the placement names no tile")  # noqa: TRY301  (a note below, as every bad placement is)
            t = parse_tile(entry["tile"])
            target = parse_tile(entry["target"]) if entry.get("target") is not None else None
            port = parse_port(entry["port"]) if entry.get("port") is not None else None
            if t in layout:
                raise ValueError(f"{NAMES[t]} is already on the layout")  # noqa: TRY301  (a note below, as every bad placement is)
            target, port = layout.normalise(t, target, port)
            layout.place(t, target, port)
        except (HorseRaceError, ValueError, TypeError, KeyError, IndexError) as exc:
            reason = exc.message if isinstance(exc, HorseRaceError) else str(exc)
            if isinstance(exc, RuleError):
                reason += f" ({exc.rule})"
            rest = len(entries) - i - 1
            notes.append(
                f"placement {i} ({_describe(entry)}) cannot be drawn: {reason}. "
                f"The drawing stops before it" + (f"; {rest} later placement(s) not drawn." if rest else ".")
            )
            break
    return layout, notes


def _marks(layout: Layout) -> dict[tuple[int, int], tuple[str, int]]:
    """``(tile, port) -> ("filled"|"hollow", value)`` for every free port that gets a mark."""
    points = layout.attachment_points()
    marks: dict[tuple[int, int], tuple[str, int]] = {}
    counted: set[tuple[int, int]] = set()
    for c in layout.contributions():
        if c.port is not None:
            marks[(c.tile, c.port)] = ("filled", c.value)
            counted.add((c.tile, c.port))
        else:  # a double counts whole: one number at its first free linear side
            linear = sorted(p.port for p in points if p.tile == c.tile and p.port in (LINEAR_A, LINEAR_B))
            for port in linear:
                counted.add((c.tile, port))
            if linear:
                marks[(c.tile, linear[0])] = ("filled", c.value)
    for p in points:
        if (p.tile, p.port) not in counted:
            marks[(p.tile, p.port)] = ("hollow", p.value)
    return marks


def _place_tiles(layout: Layout, marks: dict[tuple[int, int], tuple[str, int]]) -> dict[int, _Placed]:
    if not layout.order:
        return {}
    parent: dict[int, tuple[int, int, int]] = {}
    for c in layout.connections():
        parent[c.other] = (c.tile, c.port, c.other_port)
    order_index = {t: i for i, t in enumerate(layout.order)}
    depth: dict[int, int] = {}
    for t in layout.order:  # parents come first in placement order
        if t not in parent:
            depth[t] = 0
        else:
            p, port, _ = parent[t]
            depth[t] = depth[p] + (port in (BRANCH_A, BRANCH_B))
    sequence = sorted(layout.order, key=lambda t: (depth[t], order_index[t]))

    # Each cell's owner: ("tile", tile), ("link", tile) or ("room", tile, port).
    occupied: dict[tuple[int, int], tuple[str, int] | tuple[str, int, int]] = {}
    placed: dict[int, _Placed] = {}

    exits: dict[int, list[tuple[int, int | None]]] = {}  # each tile's ports that get a mark or a child
    for t, port in marks:
        exits.setdefault(t, []).append((port, None))
    for child, (p, port, _) in parent.items():
        exits.setdefault(p, []).append((port, child))

    def own_exits(cand: _Placed) -> Iterator[tuple[int, tuple[int, int, int, int], int]]:
        """The room kept clear beyond each port that gets a mark (its box) or a child
        (the child's straight place, with a unit of margin): ``(port, box, margin)``."""
        for port, child in exits.get(cand.tile, ()):
            point, facing = cand.port(port)
            if child is None:
                yield port, _mark_box(point, facing), 0
            else:
                yield port, _Placed(child, point, facing, parent[child][2]).rect(), 1

    def fits(cand: _Placed, parent_tile: int | None, parent_port: int | None, limit: bool, margin: int = 1) -> bool:
        rect = cand.rect()
        if limit and cand.d[1] == 0 and (rect[0] < -MAX_HALF_WIDTH or rect[2] > MAX_HALF_WIDTH):
            return False
        allowed = (("tile", parent_tile), ("room", parent_tile, parent_port))
        for cell in _cells(rect, margin):
            owner = occupied.get(cell)
            if owner is not None and owner not in allowed:
                return False
        for _, box, exit_margin in own_exits(cand):
            if any(occupied.get(cell, allowed[0]) not in allowed for cell in _cells(box, exit_margin)):
                return False
        return True

    def occupy(cand: _Placed) -> None:
        for cell in _cells(cand.rect()):
            occupied[cell] = ("tile", cand.tile)
        for port, box, _ in own_exits(cand):
            for cell in _cells(box):
                occupied.setdefault(cell, ("room", cand.tile, port))
        if cand.connector:
            (ax, ay), (bx, by) = cand.connector
            steps = 4 * max(abs(bx - ax), abs(by - ay), 1)
            for i in range(steps + 1):
                cell = (math.floor(ax + (bx - ax) * i / steps), math.floor(ay + (by - ay) * i / steps))
                occupied.setdefault(cell, ("link", cand.tile))
        placed[cand.tile] = cand

    def clear(start: _Point, end: _Point, parent_tile: int, parent_port: int) -> bool:
        """Whether a connector from ``start`` to ``end`` passes no tile and no mark."""
        length = max(abs(end[0] - start[0]), abs(end[1] - start[1]))
        steps = 4 * length
        for i in range(2, steps - 1):
            x = start[0] + (end[0] - start[0]) * i / steps
            y = start[1] + (end[1] - start[1]) * i / steps
            owner = occupied.get((math.floor(x), math.floor(y)))
            if owner is not None and owner[0] != "link" and owner != ("room", parent_tile, parent_port):
                return False
        return True

    def search(t: int, parent_tile: int, parent_port: int, point: _Point, facing: _Point, touching: int) -> _Placed:
        """The nearest free place for a tile whose own place is taken, joined to its
        parent's port by a connector that crosses nothing; rings of growing radius
        around the port, nearest first, ahead of the port before behind it."""
        xs = [c[0] for c in occupied] or [0]
        ys = [c[1] for c in occupied] or [0]
        reach = max(max(xs) - min(xs), max(ys) - min(ys)) + 12
        for margin in (1, 0):  # a unit of room around the tile if possible, else none
            for r in range(2, reach):
                ring = [
                    (point[0] + dx, point[1] + dy)
                    for dx in range(-r, r + 1)
                    for dy in range(-r, r + 1)
                    if max(abs(dx), abs(dy)) == r
                ]
                ring.sort(
                    key=lambda q: (
                        (q[0] - point[0]) ** 2 + (q[1] - point[1]) ** 2,
                        -((q[0] - point[0]) * facing[0] + (q[1] - point[1]) * facing[1]),
                        q,
                    )
                )
                for q in ring:
                    for d in (facing, *_across(facing)):
                        if (q[0] - point[0]) * d[0] + (q[1] - point[1]) * d[1] <= 0:
                            continue  # the connector would run into the tile itself
                        cand = _Placed(t, q, d, touching, connector=(point, q))
                        if fits(cand, parent_tile, parent_port, False, margin) and clear(
                            point, q, parent_tile, parent_port
                        ):
                            return cand
        # Enclosed (never seen in practice): straight out beyond everything drawn.
        k = 2
        while True:
            q = _add(point, facing, k)
            cand = _Placed(t, q, facing, touching, connector=(point, q))
            if fits(cand, parent_tile, parent_port, False) or k > 4 * reach:
                return cand
            k += 2

    for t in sequence:
        if t not in parent:
            start = _Placed(t, (-1, 0) if IS_DOUBLE[t] else (-2, 0), _E, LINEAR_A if IS_DOUBLE[t] else PORT_LOW)
            occupy(start)
            continue
        p, port, touching = parent[t]
        point, facing = placed[p].port(port)
        straight = _Placed(t, point, facing, touching)
        # A non-double may turn a corner; a double may not (one of its branches would
        # face back into its parent).
        bends = (
            []
            if IS_DOUBLE[t]
            else [_Placed(t, _add(_add(point, facing), turn, -1), turn, touching) for turn in _across(facing)]
        )
        chosen = None
        # A line that would run too far from the middle bends first (the bend itself may
        # reach past the limit: the line then runs across it, not further out).
        for cand, limit in ((straight, True), *((b, False) for b in bends), (straight, False)):
            if fits(cand, p, port, limit):
                chosen = cand
                break
        if chosen is None:
            chosen = search(t, p, port, point, facing, touching)
        occupy(chosen)
    return placed


def _wrap(text: str, width: int = 95) -> list[str]:
    words, lines, line = text.split(), [], ""
    for word in words:
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line:
        lines.append(line)
    return lines or [""]


CLAIM_COLOUR = "#c0142b"


def _claim_key(item: object) -> tuple[str, str] | None:
    """(tile, port) of a contribution or attachment point in a difference; a double's
    whole contribution has no port (its linear sides are where it is drawn)."""
    if not isinstance(item, dict) or not isinstance(item.get("tile"), str):
        return None
    return item["tile"], str(item.get("port", ""))


def _n(value: float) -> str:
    """A coordinate as short as it is exact to a tenth: ``120``, ``137.5``."""
    text = f"{value:.1f}"
    return text.removesuffix(".0")


def _legend_marks(y: float) -> list[tuple[str, str, str, bool]]:
    """The legend's entries: (class, the mark drawn at height ``y``, the text, whether it
    belongs only where a drawing has claims or a tile placed last)."""
    return [
        (
            "filled",
            (
                f'<circle cx="22" cy="{_n(y)}" r="11" fill="{FILLED_COLOUR}"/><text x="22" y="{_n(y + 4)}" '
                'text-anchor="middle" font-size="11" font-weight="bold" fill="#fff">5</text>'
            ),
            "filled number = counted contribution",
            False,
        ),
        (
            "hollow",
            f'<circle cx="22" cy="{_n(y)}" r="7" fill="none" stroke="{HOLLOW_COLOUR}" stroke-width="2.5"/>',
            "hollow dot = attachment point, not counted",
            False,
        ),
        (
            "spinner",
            (
                f'<rect x="12" y="{_n(y - 10)}" width="20" height="20" rx="3" fill="#fff" stroke="{SPINNER_COLOUR}" '
                'stroke-width="3"/>'
            ),
            "orange outline = spinner (every double); a double with a free linear side counts whole",
            False,
        ),
        (
            "ring",
            f'<circle cx="22" cy="{_n(y)}" r="9" fill="none" stroke="{CLAIM_COLOUR}" stroke-width="3"/>',
            "red ring = expected, missing from the answer",
            True,
        ),
        (
            "cross",
            (
                f'<path d="M15 {_n(y - 7)}L29 {_n(y + 7)}M15 {_n(y + 7)}L29 {_n(y - 7)}" stroke="{CLAIM_COLOUR}" '
                'stroke-width="3"/>'
            ),
            "red cross = in the answer, not expected",
            True,
        ),
        (
            "last",
            (
                f'<rect x="12" y="{_n(y - 10)}" width="20" height="20" rx="3" fill="none" stroke="{CLAIM_COLOUR}" '
                'stroke-width="2.5" stroke-dasharray="5 3"/>'
            ),
            "dashed red = the tile placed last",
            True,
        ),
    ]


#: What a character of the legend's 14-pixel text takes at most, in pixels (DejaVu Sans,
#: the widest of the fonts named, averages 8.0 on these texts).
_CHAR = 8.6
#: The rows of the legend, one entry each: they cannot overlap.
_ROW = 26


def legend_html(claims: bool = True) -> str:
    """The legend of the drawings as HTML, for a page that shows several drawings drawn
    with ``shared=True``: a list that wraps as the page narrows (its entries never
    overlap); ``claims=False`` leaves out the marks of claims and of the tile placed last."""
    items = []
    for cls, mark, text, for_claims in _legend_marks(12):
        if for_claims and not claims:
            continue
        items.append(
            f'<li class="{cls}"><svg width="34" height="24" viewBox="0 0 34 24" aria-hidden="true" {_FONT}>'
            f"{mark}</svg>{escape(text)}</li>"
        )
    return '<ul class="hr-legend">' + "".join(items) + "</ul>"


def _face(first: int, second: int, wide: bool) -> str:
    """A tile's face at the origin: its outline (a double's a spinner's), the divider
    and its two values, ``first`` on the left (``wide``) or on top; the values take their
    font from where the face is used."""
    width, height = (80, 40) if wide else (40, 80)
    spinner = first == second
    stroke = f'stroke="{SPINNER_COLOUR}" stroke-width="4"' if spinner else 'stroke="#222" stroke-width="2"'
    divider = "M40 5V35" if wide else "M5 40H35"
    (x1, y1), (x2, y2) = ((20, 28), (60, 28)) if wide else ((20, 28), (20, 68))
    return (
        f'<rect x="1" y="1" width="{width - 2}" height="{height - 2}" rx="5" fill="#fff" {stroke}/>'
        f'<path d="{divider}" stroke="#444" stroke-width="1.5"/>'
        f'<text x="{x1}" y="{y1}">{first}</text><text x="{x2}" y="{y2}">{second}</text>'
    )


_FACE_ID = re.compile(r'href="#hr-t([0-6])([0-6])([hv])"')


def page_defs(page: str) -> str:
    """What the drawings made with ``shared=True`` use, once for a page: the marks and
    the face of every tile (in each way it lies) that ``page`` uses, an SVG of no size
    to put before the first drawing."""
    faces = sorted(set(_FACE_ID.findall(page)))
    shapes = "".join(f'<g id="hr-t{a}{b}{o}">{_face(int(a), int(b), o == "h")}</g>' for a, b, o in faces) + (
        f'<circle id="hr-c" r="16" fill="{FILLED_COLOUR}"/>'
        f'<circle id="hr-o" r="8" fill="none" stroke="{HOLLOW_COLOUR}" stroke-width="2.5"/>'
    )
    return (
        '<svg class="hr-defs" width="0" height="0" aria-hidden="true" style="position:absolute">'
        f"<defs>{shapes}</defs></svg>"
    )


def layout_svg(
    placements: list[dict[str, Any]],
    *,
    title: str = "",
    branch_use_one: bool = False,
    mark_last: bool = False,
    claims: list[dict[str, Any]] | None = None,
    refused: dict[str, Any] | None = None,
    shared: bool = False,
) -> str:
    """A self-contained SVG drawing of the layout that ``placements`` build ({tile,
    target, port} dicts, the first without target), with a legend and the sum.

    ``branch_use_one`` selects the register variant HRI-10 ``branch_use=one`` (the marks
    of a spinner's second branch depend on it).  ``mark_last`` outlines the tile placed
    last.  ``claims`` are the differences of the step drawn (from the stream): an
    expected contribution or attachment point the implementation left out is ringed in
    red, one it claimed that is not there is crossed out in red where the port is, and
    every one of them is listed under the drawing.  ``refused`` ({tile, target, port}) is
    a placement the rules refuse here: its target port is marked and the action written
    under the drawing.  ``shared=True`` draws for a page that shows several drawings: it
    leaves the legend out (the page shows :func:`legend_html` once) and draws each tile
    with the shapes of :func:`page_defs` (the page includes them once).  Never raises for bad
    placements: the drawing stops at the first one that cannot be placed and says why.

    Rings and crosses are drawn under the marks, around them: a value always stays on
    top.  The legend has one entry per row, so that its entries never overlap.
    """
    layout, notes = build_layout(placements, branch_use_one=branch_use_one)
    marks = _marks(layout)
    tiles = _place_tiles(layout, marks)
    missing, extra = _claimed(claims)
    claim_lines = _claim_lines(refused, missing, extra)
    min_x, min_y, draw_w, draw_h = _extent(tiles, marks)

    contributions = layout.contributions()
    values = [c.value for c in contributions]
    total = sum(values)
    sum_text = (
        f"Sum of counted contributions: {' + '.join(map(str, values))} = {total}"
        if values
        else "Empty layout: nothing counts (sum 0)."
    )
    note_lines = [line for note in notes for line in _wrap("Note: " + note)] + claim_lines
    title_lines = _wrap(title, 80) if title and not shared else []  # on a page: its caption
    entries = (
        [(mark, text) for _, mark, text, for_claims in _legend_marks(0) if mark_last or claim_lines or not for_claims]
        if not shared
        else []
    )

    top = 10 + 22 * len(title_lines)
    legend_top = top + draw_h + 12
    legend_h = 30 + 22 * len(note_lines) + _ROW * len(entries) + 10
    width = max(
        draw_w,
        760,
        8.2 * max([len(sum_text)] + [len(line) for line in note_lines + title_lines]) + 20,
        *(40 + _CHAR * len(text) + 10 for _, text in entries),
    )
    height = legend_top + legend_h
    offset_x = (width - draw_w) / 2  # centre the drawing above the legend

    def px(point: tuple[float, float]) -> tuple[float, float]:
        return (point[0] - min_x) * UNIT, (point[1] - min_y) * UNIT + top

    # On a page (``shared``), its style sheet gives the font, the size and the background.
    own = "" if shared else f'xmlns="http://www.w3.org/2000/svg" style="max-width:100%;height:auto" {_FONT} '
    out: list[str] = [
        (
            f'<svg {own}class="hr-layout" role="img" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}" data-sum="{total}" data-tiles="{len(tiles)}">'
        ),
        f"<title>{escape(title or 'Horse Race layout')}</title>",
        "" if shared else f'<rect width="{width:.0f}" height="{height:.0f}" fill="#fbfaf6"/>',
    ]
    for i, line in enumerate(title_lines):
        out.append(
            f'<text x="10" y="{26 + 22 * i}" font-size="16" font-weight="bold" fill="#222">{escape(line)}</text>'
        )
    out.append(f'<g transform="translate({_n(offset_x)},0)">')
    out += _connectors(layout, tiles, px)
    out += _tiles_drawn(layout, tiles, px, mark_last=mark_last, shared=shared)
    placed = {NAMES[t]: t for t in tiles}
    out += _claims_drawn(missing, extra, placed, tiles, marks, px)
    out += _marks_drawn(layout, tiles, marks, px, shared=shared)
    out += _refused_drawn(refused, placed, tiles, px)
    out.append("</g>")
    out += _legend_drawn(legend_top, width, sum_text, note_lines, entries, shared=shared)
    return "".join(out)


#: Where a drawing's grid point (in units) lies in the SVG (in pixels).
_ToPixels = Callable[[tuple[float, float]], tuple[float, float]]


def _claimed(claims: list[dict[str, Any]] | None) -> tuple[list[tuple[str, object]], list[tuple[str, object]]]:
    """The step's differences as (what, item): those the implementation left out, those
    it claimed that are not expected."""
    missing: list[tuple[str, object]] = []  # (what, item) the implementation left out
    extra: list[tuple[str, object]] = []  # (what, item) it claimed, not expected
    for d in claims or []:
        what = next((step for step in reversed(d.get("at") or []) if isinstance(step, str)), "")
        if d.get("item") == "missing":
            missing.append((what, d.get("expected")))
        elif d.get("item") == "extra":
            extra.append((what, d.get("actual")))
    return missing, extra


def _claim_lines(
    refused: dict[str, Any] | None, missing: list[tuple[str, object]], extra: list[tuple[str, object]]
) -> list[str]:
    """The lines under the drawing for the refused placement and each difference."""
    refused_lines = (
        _wrap(f"refused here: {refused.get('tile')} on {refused.get('target')} {refused.get('port')}")
        if refused
        else []
    )
    return refused_lines + [
        line
        for what, item, side in [
            *((w, i, "expected, not in the answer") for w, i in missing),
            *((w, i, "in the answer, not expected") for w, i in extra),
        ]
        for line in _wrap(f"{side}: {what} {_claim_text(item)}")
    ]


def _extent(
    tiles: dict[int, _Placed], marks: dict[tuple[int, int], tuple[str, int]]
) -> tuple[float, float, float, float]:
    """The grid's corner (in units) and the drawing's width and height (in pixels):
    every tile and mark, with a unit of padding."""
    xs: list[float] = [0]
    ys: list[float] = [0]
    for pl in tiles.values():
        x0, y0, x1, y1 = pl.rect()
        xs += [x0, x1]
        ys += [y0, y1]
    for t, port in marks:
        x0, y0, x1, y1 = _mark_box(*tiles[t].port(port))
        xs += [x0, x1]
        ys += [y0, y1]
    pad = 1
    min_x, min_y = min(xs) - pad, min(ys) - pad
    draw_w = (max(xs) + pad - min_x) * UNIT
    draw_h = (max(ys) + pad - min_y) * UNIT
    return min_x, min_y, draw_w, draw_h


def _connectors(layout: Layout, tiles: dict[int, _Placed], px: _ToPixels) -> list[str]:
    """The connectors of shifted tiles, drawn under the tiles."""
    out = []
    for t in layout.order:
        pl = tiles[t]
        if pl.connector:
            (ax, ay), (bx, by) = (px(p) for p in pl.connector)
            out.append(
                f'<line x1="{_n(ax)}" y1="{_n(ay)}" x2="{_n(bx)}" y2="{_n(by)}" stroke="#777" '
                f'stroke-width="3" stroke-dasharray="6 4"/>'
            )
    return out


def _tiles_drawn(
    layout: Layout, tiles: dict[int, _Placed], px: _ToPixels, *, mark_last: bool, shared: bool
) -> list[str]:
    """Every tile in the order placed, the last outlined when ``mark_last``; on a page,
    each as the page's face of it."""
    # The tiles' values share their text attributes (inherited from the group).
    out = ['<g class="hr-v">' if shared else f"<g {_VALUES}>"]
    for t in layout.order:
        pl = tiles[t]
        x0, y0, x1, y1 = pl.rect()
        (rx, ry), (rx1, ry1) = px((x0, y0)), px((x1, y1))
        last = (
            f'<rect class="last-placed" x="{_n(rx - 3)}" y="{_n(ry - 3)}" width="{_n(rx1 - rx + 6)}" '
            f'height="{_n(ry1 - ry + 6)}" rx="7"{"" if shared else _LAST_PLACED}><title>placed last</title></rect>'
            if mark_last and t == layout.order[-1]
            else ""
        )
        if shared:  # the page's face of the tile, as it lies here
            (_, first), (_, second) = sorted(pl.halves(), key=lambda half: half[0])
            face = f"hr-t{first}{second}{'h' if rx1 - rx >= ry1 - ry else 'v'}"
            out.append(f'<use href="#{face}" x="{_n(rx)}" y="{_n(ry)}"/>{last}')
            continue
        out += _tile_drawn(t, pl, px, (rx, ry, rx1, ry1), last)
    out.append("</g>")
    return out


def _tile_drawn(t: int, pl: _Placed, px: _ToPixels, box: tuple[float, float, float, float], last: str) -> list[str]:
    """One tile of a standalone drawing: its face in ``box`` (pixels), the divider across
    its long axis, its two values."""
    rx, ry, rx1, ry1 = box
    spinner = pl.double
    stroke = f'stroke="{SPINNER_COLOUR}" stroke-width="4"' if spinner else 'stroke="#222" stroke-width="2"'
    cls = "tile spinner" if spinner else "tile"
    out = [
        (
            f'<g class="{cls}" data-tile={quoteattr(NAMES[t])}><title>{escape(NAMES[t])}'
            f"{' (spinner)' if spinner else ''}</title>"
            f'<rect x="{_n(rx + 1)}" y="{_n(ry + 1)}" width="{_n(rx1 - rx - 2)}" height="{_n(ry1 - ry - 2)}" '
            f'rx="5" fill="#fff" {stroke}/>{last}'
        )
    ]
    # The divider between the halves: across the tile's long axis.
    cx, cy = px(pl.centre())
    divider = (
        f"M{_n(cx)} {_n(ry + 5)}V{_n(ry1 - 5)}" if rx1 - rx >= ry1 - ry else f"M{_n(rx + 5)} {_n(cy)}H{_n(rx1 - 5)}"
    )
    out.append(f'<path d="{divider}" stroke="#444" stroke-width="1.5"/>')
    for centre, value in pl.halves():
        hx, hy = px(centre)
        out.append(f'<text x="{_n(hx)}" y="{_n(hy + 8)}">{value}</text>')
    out.append("</g>")
    return out


def _claims_drawn(
    missing: list[tuple[str, object]],
    extra: list[tuple[str, object]],
    placed: dict[str, int],
    tiles: dict[int, _Placed],
    marks: dict[tuple[int, int], tuple[str, int]],
    px: _ToPixels,
) -> list[str]:
    """The implementation's claims against the drawing, under the marks: rings around
    what it left out, crosses behind what it claimed that is not there (where the port
    is drawn). A claim on no tile of the drawing is only listed under it."""
    out = []
    for kind, items in (("missing", missing), ("extra", extra)):
        for _, item in items:
            key = _claim_key(item)
            if key is None or key[0] not in placed:
                continue  # listed under the drawing only
            t = placed[key[0]]
            if key[1] in PORT_NAMES:
                spots = [(t, PORT_NAMES.index(key[1]))]
            else:  # a double's whole contribution: at its counted (linear) sides
                spots = [(tile, port) for (tile, port) in marks if tile == t][:2]
            for t, port in spots:
                point, facing = tiles[t].port(port)
                mx, my = px(_add(point, facing))
                out.append(_claim_drawn(kind, item, mx, my))
    return out


def _claim_drawn(kind: str, item: object, mx: float, my: float) -> str:
    """A ring (``missing``) or a cross (``extra``) around the port at (mx, my)."""
    if kind == "missing":
        return (
            f'<circle class="claim-missing" cx="{_n(mx)}" cy="{_n(my)}" r="21" fill="none" '
            f'stroke="{CLAIM_COLOUR}" stroke-width="3"><title>expected, not in the answer: '
            f"{escape(_claim_text(item))}</title></circle>"
        )
    a = b = 22  # beyond the mark's disc (16): the cross shows around it
    return (
        f'<g class="claim-extra"><title>in the answer, not expected: {escape(_claim_text(item))}</title>'
        f'<path d="M{_n(mx - a)} {_n(my - b)}L{_n(mx + a)} {_n(my + b)}M{_n(mx - a)} {_n(my + b)}'
        f'L{_n(mx + a)} {_n(my - b)}" stroke="{CLAIM_COLOUR}" stroke-width="3"/></g>'
    )


def _marks_drawn(
    layout: Layout,
    tiles: dict[int, _Placed],
    marks: dict[tuple[int, int], tuple[str, int]],
    px: _ToPixels,
    *,
    shared: bool,
) -> list[str]:
    """Every counted contribution (a filled disc with its value) and attachment point (a
    hollow ring), in the order the tiles were placed."""
    # The marks' numbers share their text attributes (inherited from the group).
    out = ['<g class="hr-m">' if shared else f"<g {_MARKS}>"]
    for (t, port), (kind, value) in sorted(
        marks.items(), key=lambda item: (layout.order.index(item[0][0]), item[0][1])
    ):
        point, facing = tiles[t].port(port)
        mx, my = px(_add(point, facing))
        if shared:  # the same marks, with the page's shapes (the page's legend says what they are)
            out.append(_page_mark(kind, value, mx, my))
        else:
            out.append(_own_mark(t, port, kind, value, mx, my))
    out.append("</g>")
    return out


def _page_mark(kind: str, value: int, mx: float, my: float) -> str:
    """A mark drawn with the page's shapes."""
    if kind == "filled":
        return (
            f'<g class="contribution"><use href="#hr-c" x="{_n(mx)}" y="{_n(my)}"/>'
            f'<text x="{_n(mx)}" y="{_n(my + 5.5)}">{value}</text></g>'
        )
    return f'<use class="attachment" href="#hr-o" x="{_n(mx)}" y="{_n(my)}"/>'


def _own_mark(t: int, port: int, kind: str, value: int, mx: float, my: float) -> str:
    """A mark of a standalone drawing, with its own shapes and a tooltip saying what it is."""
    label = f"{NAMES[t]} {PORT_NAMES[port]}"
    if kind == "filled":
        whole = IS_DOUBLE[t]
        tip = f"{label}: counted contribution {value}" + (" (the double counts whole)" if whole else "")
        return (
            f'<g class="contribution" data-tile={quoteattr(NAMES[t])} data-value="{value}">'
            f"<title>{escape(tip)}</title>"
            f'<circle cx="{_n(mx)}" cy="{_n(my)}" r="16" fill="{FILLED_COLOUR}"/>'
            f'<text x="{_n(mx)}" y="{_n(my + 5.5)}">{value}</text></g>'
        )
    tip = f"{label}: attachment point for a {value}, not counted"
    return (
        f'<g class="attachment" data-tile={quoteattr(NAMES[t])} data-port="{PORT_NAMES[port]}" '
        f'data-value="{value}"><title>{escape(tip)}</title>'
        f'<circle cx="{_n(mx)}" cy="{_n(my)}" r="8" fill="none" stroke="{HOLLOW_COLOUR}" '
        f'stroke-width="2.5"/></g>'
    )


def _refused_drawn(
    refused: dict[str, Any] | None, placed: dict[str, int], tiles: dict[int, _Placed], px: _ToPixels
) -> list[str]:
    """The port a refused placement aims at, boxed and marked, when it is on the drawing."""
    if not (refused and refused.get("target") in placed and refused.get("port") in PORT_NAMES):
        return []
    point, facing = tiles[placed[refused["target"]]].port(PORT_NAMES.index(refused["port"]))
    mx, my = px(_add(point, facing))
    return [
        (
            f'<g class="refused"><title>refused here: {escape(str(refused.get("tile")))} on '
            f"{escape(str(refused['target']))} {escape(str(refused['port']))}</title>"
            f'<rect x="{_n(mx - 15)}" y="{_n(my - 15)}" width="30" height="30" rx="4" fill="none" '
            f'stroke="{CLAIM_COLOUR}" stroke-width="3" stroke-dasharray="4 3"/>'
            f'<text x="{_n(mx)}" y="{_n(my + 5)}" text-anchor="middle" font-size="14" font-weight="bold" '
            f'fill="{CLAIM_COLOUR}">!</text></g>'
        )
    ]


def _legend_drawn(
    legend_top: float,
    width: float,
    sum_text: str,
    note_lines: list[str],
    entries: list[tuple[str, str]],
    *,
    shared: bool,
) -> list[str]:
    """The sum, the notes, and the legend (one entry per row), under the drawing; closes the SVG."""
    y = legend_top
    out = ['<g class="legend">' if shared else '<g class="legend" font-size="14" fill="#222">']
    out.append(f'<path d="M10 {y - 4:.0f}H{width - 10:.0f}" stroke="#ccc"/>')
    ly = y + 16
    bold, red = ("", "") if shared else (' font-weight="bold"', ' fill="#a40000"')
    out.append(f'<text class="sum" x="10" y="{ly + 2:.0f}"{bold}>{escape(sum_text)}</text>')
    for line in note_lines:
        ly += 22
        out.append(f'<text class="note" x="10" y="{ly + 2:.0f}"{red}>{escape(line)}</text>')
    for mark, text in entries:
        ly += _ROW
        out.append(
            f'<g class="legend-entry" transform="translate(0,{ly:.0f})">{mark}'
            f'<text x="40" y="5">{escape(text)}</text></g>'
        )
    out.append("</g></svg>")
    return out


def _claim_text(item: object) -> str:
    if isinstance(item, dict):
        port = f" {item['port']}" if item.get("port") else ""
        value = f" = {item['value']}" if "value" in item else ""
        return f"{item.get('tile', '?')}{port}{value}"
    return str(item)
