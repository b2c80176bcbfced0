"""Human-readable text for events and hands (the CLI's text output)."""

from __future__ import annotations

from horserace.engine.events import Draw, EndTurn, Event, HandEnd, MatchEnd, Pass, Place
from horserace.engine.layout import PORT_NAMES
from horserace.engine.tiles import NAMES


def side_name(side: int, partnership: bool) -> str:
    if partnership:
        return f"pair {side} (seats {side} and {side + 2})"
    return f"seat {side}"


def event_line(event: Event, *, partnership: bool = False, match_over: bool = False) -> str:
    if isinstance(event, Place):
        where = "opening tile" if event.target is None else f"on {NAMES[event.target]} {PORT_NAMES[event.port]}"
        line = f"seat {event.seat} places {NAMES[event.tile]} {where}: count {event.count}"
        if event.credit_raw:
            line += f", scores {event.credit_raw} raw = {event.credit}"
        if event.drawn:
            line += " (drawn tile: turn ends)"
        elif event.continues:
            line += ", plays again"
        return line
    if isinstance(event, Draw):
        return f"seat {event.seat} draws {NAMES[event.tile]}"
    if isinstance(event, Pass):
        return f"seat {event.seat} passes"
    if isinstance(event, EndTurn):
        return f"seat {event.seat} ends the turn"
    if isinstance(event, HandEnd):
        winners = ", ".join(side_name(s, partnership) for s in event.winners) or "none (the match ended)"
        if event.next_opener is not None:
            opener = f"seat {event.next_opener}"
        elif match_over:
            opener = "none (the match is over)"
        else:
            opener = "by lot"
        return (
            f"hand ends ({event.reason.value}); pips left {list(event.pips)}; winners: {winners}; "
            f"credits {list(event.credits)}; scores {list(event.scores)}; next opener {opener}"
        )
    if isinstance(event, MatchEnd):
        winners = " and ".join(side_name(s, partnership) for s in event.winners)
        shared = " (shared)" if len(event.winners) > 1 else ""
        return f"match won by {winners}{shared}; scores {list(event.scores)}"
    raise TypeError(f"not an event: {event!r}")
