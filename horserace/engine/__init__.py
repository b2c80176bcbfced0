"""The engine: the rules of Horse Race as code (spec/rules.md).

Tiles, the layout, a hand, settlement, the match, the ruleset (one reading of each entry
of the interpretations register), events and random play.  No I/O, no randomness of its
own (random play takes a seeded generator), and no import of any other room of horserace:
only :mod:`horserace.errors`, the root of the error hierarchy.
"""

from horserace.engine.events import Draw, EndTurn, Event, HandEnd, HandEndReason, MatchEnd, Pass, Place
from horserace.engine.hand import DEAL_SIZE, Hand
from horserace.engine.layout import PORT_NAMES, Layout, parse_port
from horserace.engine.match import Match, deal
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS, Seating
from horserace.engine.settlement import Settlement, settle
from horserace.engine.tiles import NAMES, parse_tile

__all__ = [
    "CANONICAL",
    "DEAL_SIZE",
    "NAMES",
    "PORT_NAMES",
    "SEATINGS",
    "VARIANT_FIELDS",
    "Draw",
    "EndTurn",
    "Event",
    "Hand",
    "HandEnd",
    "HandEndReason",
    "Layout",
    "Match",
    "MatchEnd",
    "Pass",
    "Place",
    "Ruleset",
    "Seating",
    "Settlement",
    "deal",
    "parse_port",
    "parse_tile",
    "play_random_hand",
    "settle",
]
