"""Canonical observations: the one text encoding of tiles, ports, layouts and events.

Two correct implementations produce identical observations: tiles are written low half
first, ports by name, seats and sides as integers, unordered collections sorted
(HR-MOVE-2).  Everything here is plain data (dicts, lists, strings, ints) ready for JSON
or YAML.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, cast

from horserace.engine.events import Draw, EndTurn, Event, HandEnd, MatchEnd, Pass, Place
from horserace.engine.layout import PORT_NAMES, Layout
from horserace.engine.seating import Seating
from horserace.engine.tiles import NAMES, parse_tile
from horserace.engine.types import Port, Tile

if TYPE_CHECKING:  # the play document's types only: the server never makes one
    from horserace.engine.match import Match
    from horserace.engine.sample import PlayedHand

__all__ = [
    "SORT_KEYS",
    "canonical",
    "event_record",
    "layout_snapshot",
    "placement_record",
    "play_document",
    "port_name",
    "table_record",
]


# How the canonical encoding sorts unordered collections (spec/fixture-format.md, HR-MOVE-2):
# the one order of both the engine's observations and the expected values of fixtures.
SORT_KEYS: dict[str, Callable[[Any], Any]] = {
    "contributions": lambda d: (d.get("tile", ""), d.get("port", "")),
    "attachment_points": lambda d: (d.get("tile", ""), d.get("port", "")),
    "connections": lambda pair: (pair[0].get("tile", ""), pair[0].get("port", ""), pair[1].get("tile", "")),
    "tiles": lambda t: t,
    "spinners": lambda t: t,
    # Sides, not a ranking: a shared win lists its sides in any order.
    "winners": lambda side: side,
    "match_winners": lambda side: side,
}


def port_name(port: Port | None) -> str | None:
    return None if port is None else PORT_NAMES[port]


def placement_record(tile: Tile, target: Tile | None, port: Port | None) -> dict[str, str]:
    """A placement as input writes it (spec/fixture-format.md, "placement"): ``{tile}``
    for the opening, else ``{tile, target, port}``."""
    if target is None:
        return {"tile": NAMES[tile]}
    # The cast: a move with a target has a port (a move names both or neither, HR-MOVE-1).
    return {"tile": NAMES[tile], "target": NAMES[target], "port": PORT_NAMES[cast("Port", port)]}


def table_record(seating: Seating, scores: list[int], target: int) -> dict[str, Any]:
    """A fixture's table as input writes it (spec/fixture-format.md, "table")."""
    return {
        "mode": "partnership" if seating.partnership else "individual",
        "seats": seating.players,
        "scores": scores,
        "target": target,
    }


def layout_snapshot(layout: Layout) -> dict[str, Any]:
    """The layout as the rule documents' snapshots describe it: tiles, spinners,
    connections, available attachment points with values, counted contributions, their
    sum and the credit of a placement that produced this count (HR-COUNT-1, HR-CREDIT-1)."""
    contributions = sorted(
        (
            {"tile": NAMES[c.tile], "value": c.value}
            if c.port is None
            else {"tile": NAMES[c.tile], "port": PORT_NAMES[c.port], "value": c.value}
            for c in layout.contributions()
        ),
        key=SORT_KEYS["contributions"],
    )
    points = sorted(
        ({"tile": NAMES[p.tile], "port": PORT_NAMES[p.port], "value": p.value} for p in layout.attachment_points()),
        key=SORT_KEYS["attachment_points"],
    )
    joins = sorted(
        (
            [
                {"tile": NAMES[c.tile], "port": PORT_NAMES[c.port]},
                {"tile": NAMES[c.other], "port": PORT_NAMES[c.other_port]},
            ]
            for c in layout.connections()
        ),
        key=SORT_KEYS["connections"],
    )
    count = layout.count
    return {
        "tiles": sorted((NAMES[t] for t in layout.order), key=SORT_KEYS["tiles"]),
        "spinners": sorted((NAMES[t] for t in layout.spinners()), key=SORT_KEYS["spinners"]),
        "connections": joins,
        "attachment_points": points,
        "contributions": contributions,
        "sum": count,
        "credit_raw": layout.credit_raw_table[count],  # the layout's credit (HR-CREDIT-1, a seam)
        "credit": layout.credit_table[count],
    }


def event_record(event: Event) -> dict[str, Any]:
    """One event as canonical plain data."""
    if event.__class__ is Place:  # most events: the record written out in one go
        seat, tile, target, port, count, credit_raw, credit, continues, drawn = event
        if target is None:
            return {
                "event": "place",
                "seat": seat,
                "tile": NAMES[tile],
                "count": count,
                "credit_raw": credit_raw,
                "credit": credit,
                "continues": continues,
                "drawn": drawn,
            }
        return {
            "event": "place",
            "seat": seat,
            "tile": NAMES[tile],
            "target": NAMES[target],
            "port": PORT_NAMES[cast("Port", port)],  # a Place with a target has a port
            "count": count,
            "credit_raw": credit_raw,
            "credit": credit,
            "continues": continues,
            "drawn": drawn,
        }
    if isinstance(event, Place):  # a subclass of it: the same record, field by field
        record: dict[str, Any] = {"event": "place", "seat": event.seat, "tile": NAMES[event.tile]}
        if event.target is not None:
            record["target"] = NAMES[event.target]
            record["port"] = PORT_NAMES[cast("Port", event.port)]
        record.update(
            count=event.count,
            credit_raw=event.credit_raw,
            credit=event.credit,
            continues=event.continues,
            drawn=event.drawn,
        )
        return record
    if isinstance(event, Draw):
        return {"event": "draw", "seat": event.seat, "tile": NAMES[event.tile]}
    if isinstance(event, Pass):
        return {"event": "pass", "seat": event.seat}
    if isinstance(event, EndTurn):
        return {"event": "end-turn", "seat": event.seat}
    if isinstance(event, HandEnd):
        return {
            "event": "hand-end",
            "reason": event.reason.value,
            "winners": list(event.winners),
            "pips": list(event.pips),
            "credits": list(event.credits),
            "scores": list(event.scores),
            "next_opener": event.next_opener,
        }
    if isinstance(event, MatchEnd):
        return {"event": "match-end", "winners": list(event.winners), "scores": list(event.scores)}
    raise TypeError(f"not an event: {event!r}")


_TILE = re.compile(r"^\[\d\|\d\]$")


def canonical(value: Any, key: str | None = None) -> Any:
    """Expected values in the canonical encoding: tiles low half first, the unordered
    collections (a layout snapshot's, and the sides of `winners`) sorted."""
    if isinstance(value, str) and _TILE.match(value):
        try:
            return NAMES[parse_tile(value)]
        except ValueError:
            return value
    if isinstance(value, dict):
        return {k: canonical(v, k) for k, v in value.items()}
    if isinstance(value, list):
        items = [canonical(v) for v in value]
        sort_key = SORT_KEYS.get(key or "")
        if sort_key is not None:
            with contextlib.suppress(TypeError, AttributeError, IndexError, KeyError):
                items.sort(key=sort_key)
        return items
    return value


def play_document(played: list[PlayedHand], match: Match, *, seed: int) -> dict[str, Any]:
    """A sample match (``horserace play --format json``) in the canonical encoding."""
    ruleset = match.ruleset
    return {
        "seed": seed,
        "players": match.players,
        "mode": "partnership" if match.partnership else "individual",
        "variants": ruleset.variants,
        "target": ruleset.target,
        "hands": [
            {
                "opener": p.opener,
                "opener_by_lot": p.opener_by_lot,
                "hands": [[NAMES[t] for t in tiles] for tiles in p.dealt],
                "boneyard": [NAMES[t] for t in p.boneyard],
                "scores_before": list(p.scores_before),
                "events": [event_record(e) for e in p.hand.events],
            }
            for p in played
        ],
        "scores": match.scores,
        "match_winners": list(match.winners),
    }
