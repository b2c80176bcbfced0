"""Human-readable text for events and hands (``horserace play``)."""

from __future__ import annotations

from horserace.engine.events import Draw, EndTurn, Event, HandEnd, MatchEnd, Pass, Place
from horserace.engine.layout import PORT_NAMES
from horserace.engine.match import Match
from horserace.engine.sample import PlayedHand
from horserace.engine.tiles import NAMES

__all__ = ["play_text"]


def side_name(side: int, partnership: bool) -> str:
    if partnership:
        return f"pair {side} (seats {side} and {side + 2})"
    return f"seat {side}"


def event_line(event: Event, *, partnership: bool = False, match_over: bool = False) -> str:
    if isinstance(event, Place):
        if event.target is None:
            where = "opening tile"
        else:
            assert event.port is not None  # a placement on a target names its port
            where = f"on {NAMES[event.target]} {PORT_NAMES[event.port]}"
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


def play_text(played: list[PlayedHand], match: Match, *, seed: int, whole_match: bool) -> str:
    """A sample hand or match (``horserace play``) as text, every event on its line."""
    ruleset = match.ruleset
    mode = "partnership (pairs: seats 0+2, 1+3)" if match.partnership else f"{match.players} players"
    variants = ", ".join(f"{k}={v}" for k, v in ruleset.variants.items()) or "canonical rules"
    lines = [f"Horse Race, {mode}, seed {seed}, {variants}, target {ruleset.target}"]
    for number, p in enumerate(played, 1):
        lines.append("")
        how = "by lot" if p.opener_by_lot else "placed the last tile of the previous hand"
        lines.append(f"Hand {number}: scores {list(p.scores_before)}; opener seat {p.opener} ({how})")
        for seat, tiles in enumerate(p.dealt):
            lines.append(f"  seat {seat} holds {' '.join(NAMES[t] for t in tiles)}")
        lines.append(f"  boneyard ({len(p.boneyard)}, in draw order): {' '.join(NAMES[t] for t in p.boneyard)}")
        lines.extend(
            f"  {event_line(event, partnership=match.partnership, match_over=p.hand.match_over)}"
            for event in p.hand.events
        )
    if whole_match and not match.over:
        lines += ["", "the match did not finish"]
    return "\n".join(lines)
