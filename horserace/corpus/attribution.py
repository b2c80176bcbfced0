"""The rule a failing fixture's first difference concerns: the map from observation
fields to the rules that decide them (spec/protocol.md, "How a failure is diagnosed").

A wrong count makes a wrong credit, a wrong score and a continuation that should not
be: every field after it differs too, but only the count is the cause.  So the
differences of a fixture are read in **dependency order**: the hands and events of a
trace in order, the steps of a layout in order, and within one event or snapshot its
fields in the order in which each decides the next (:data:`EVENT_FIELDS`,
:data:`SNAPSHOT_FIELDS`, :data:`SETTLEMENT_FIELDS`).  The first difference so found is
mapped to a rule, read in the light of the position where it falls (the reference
engine's layout at that point: an extra contribution of a branch port is HR-COUNT-3, a
missing branch of a double that is not the first one is HR-SPIN-1).

A legal action that the implementation refused (``rejected``, or the legal twin of an
illegal fixture refused) is attributed by the action and its context: a continuation
refused is HR-TURN-1, a branch placement refused HR-SPIN-1, and so on
(:func:`refusal_cause`).  Crashes, timeouts and errors have no cause here: the reports
give them lines of their own, never a rule.

Only the fixture (its kind, input, readings and expected values) and the differences
are read; the reference engine replays the input where the position matters.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

from horserace.corpus.compare import MISSING, Difference, PathStep, diff, format_path
from horserace.corpus.fixture import Fixture
from horserace.corpus.observers import act, new_position, with_target
from horserace.engine.events import Draw, Place
from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_A, LINEAR_B, PORT_NAMES, Layout, parse_port
from horserace.engine.ruleset import BranchUse, Ruleset
from horserace.engine.tiles import HIGH, IS_DOUBLE, LOW, NAMES, parse_tile
from horserace.engine.types import Tile
from horserace.errors import HorseRaceError

__all__ = [
    "EVENT_FIELDS",
    "GENERIC_RULES",
    "OVERLAPS",
    "SETTLEMENT_FIELDS",
    "SNAPSHOT_FIELDS",
    "Cause",
    "cause_of",
    "difference_cause",
    "first_difference",
    "place_of",
    "refusal_cause",
]

#: The fields of each event, in dependency order: who acts and what is placed decide the
#: count, the count the credit; the credit and the drawn-tile exception decide the
#: continuation.
EVENT_FIELDS: dict[str, tuple[str, ...]] = {
    "place": ("seat", "tile", "target", "port", "count", "credit_raw", "credit", "drawn", "continues"),
    "draw": ("seat", "tile"),
    "pass": ("seat",),
    "end-turn": ("seat",),
    "hand-end": ("reason", "winners", "pips", "credits", "scores", "next_opener"),
    "match-end": ("winners", "scores"),
}
#: The fields of a layout snapshot in dependency order: where the tile went decides the
#: spinners and the available points; the contributions decide the sum, the sum the credit.
SNAPSHOT_FIELDS = (
    "tiles",
    "connections",
    "spinners",
    "attachment_points",
    "contributions",
    "sum",
    "credit_raw",
    "credit",
)
#: A settlement's fields in dependency order.
SETTLEMENT_FIELDS = ("winners", "credits", "scores", "match_winners")
_PERFT_FIELDS = ("divide", "nodes")
_ILLEGAL_FIELDS = ("rejected_at", "rule")
_PLAY_TOP = ("hands", "scores", "match_winners")

_BRANCHES = (PORT_NAMES[BRANCH_A], PORT_NAMES[BRANCH_B])
_LINEARS = (PORT_NAMES[LINEAR_A], PORT_NAMES[LINEAR_B])
_LAST = 1 << 30  # a place after every real one


@dataclass(frozen=True)
class Cause:
    """The rule a failure is attributed to, and why: ``basis`` in words (the first
    difference, or the action refused), ``at`` where it is in the observations or the
    input (``("hands", 0, "events", 3)``), ``field`` the field in dispute."""

    rule: str
    basis: str
    at: tuple[PathStep, ...] = ()
    field: str | None = None
    #: Rules the same difference may equally be filed under, where the rules overlap
    #: (the opening's continuation: HR-TURN-1, also HR-OPEN-2): a named deviation of one
    #: of them that reproduces the answer names the cause.
    alternatives: tuple[str, ...] = ()
    #: ``False`` where the position says little of the rule: a legal action refused
    #: with nothing observed before it, a perft count; a named deviation that
    #: reproduces the answer then names the cause.
    firm: bool = True

    @property
    def generic(self) -> bool:
        """Whether the map fell back on a rule that decides much and says little (the
        count, a placement's legality, the move model), or is not firm: a named
        deviation that reproduces the answer may then name the cause more precisely."""
        return not self.firm or self.rule in GENERIC_RULES

    def admits(self, rule: str) -> bool:
        """Whether a deviation of ``rule`` that explains the difference may name the cause."""
        return self.generic or rule == self.rule or rule in self.alternatives

    def to_record(self) -> dict[str, Any]:
        out: dict[str, Any] = {"rule": self.rule, "basis": self.basis, "at": list(self.at), "field": self.field}
        if self.alternatives:
            out["alternatives"] = list(self.alternatives)
        if not self.firm:
            out["firm"] = False
        return out

    @classmethod
    def from_record(cls, record: Mapping[str, Any]) -> Cause:
        at = record.get("at") or []
        return cls(
            str(record["rule"]),
            str(record.get("basis") or ""),
            tuple(at),
            record.get("field"),
            tuple(str(r) for r in record.get("alternatives") or ()),
            record.get("firm") is not False,
        )


#: The rules the map falls back on when the position says no more (see :attr:`Cause.generic`).
GENERIC_RULES = frozenset({"HR-COUNT-1", "HR-PLACE-1", "HR-MOVE-1"})
#: Rules whose texts overlap, so that one difference may be filed under either (the
#: spec restates some rules in others: HR-OPEN-2 defers the opening's continuation to
#: HR-TURN-1; the drawn tile is HR-TURN-3, HR-DRAW-2 and HR-DRAW-3; a settlement's
#: credit is HR-SETTLE-1 to 3; the target is reached by HR-MATCH-1 or 2).
OVERLAPS: dict[str, tuple[str, ...]] = {
    "HR-TURN-1": ("HR-OPEN-2",),
    "HR-OPEN-2": ("HR-TURN-1",),
    "HR-TURN-3": ("HR-DRAW-2", "HR-DRAW-3"),
    "HR-DRAW-3": ("HR-TURN-3", "HR-DRAW-2"),
    "HR-DRAW-2": ("HR-TURN-3", "HR-DRAW-3"),
    "HR-SETTLE-1": ("HR-SETTLE-2",),
    "HR-SETTLE-2": ("HR-SETTLE-1",),
    "HR-SETTLE-3": ("HR-SETTLE-1", "HR-END-2"),
    "HR-END-2": ("HR-SETTLE-3",),
    "HR-MATCH-1": ("HR-MATCH-2",),
    "HR-MATCH-2": ("HR-MATCH-1",),
}


# ---------------------------------------------------------------------- where a difference is
def _rank(name: object, order: Sequence[str]) -> int:
    return order.index(name) if isinstance(name, str) and name in order else len(order)


def _first_index(expected: object, actual: object) -> int:
    """The first index at which two lists differ (their common length if one is a
    prefix of the other)."""
    if not isinstance(expected, list) or not isinstance(actual, list):
        return 0
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if diff(e, a):
            return i
    return min(len(expected), len(actual))


def _event_fields(expected: object, actual: object) -> list[str]:
    """The fields in which two events differ, in dependency order (the kind first)."""
    if not isinstance(expected, dict) or not isinstance(actual, dict):
        return ["event"]
    if expected.get("event") != actual.get("event"):
        return ["event"]
    order = EVENT_FIELDS.get(str(expected.get("event")), ())
    differing = [k for k in expected if k != "event" and diff(expected[k], actual.get(k, MISSING), (k,))]
    return sorted(differing, key=lambda k: _rank(k, order))


def place_of(kind: str, d: Difference) -> tuple[int, ...]:
    """An ordering key of a difference in dependency order: the earlier hand, event or
    step first, then the field that decides the others."""
    at = d.at
    if kind == "play":
        return _play_place(d)
    if kind == "layout":
        if len(at) < 2:
            index = min(d.expected, d.actual) if d.length else _first_index(d.expected, d.actual)
            return (index, -1)
        step = at[1] if isinstance(at[1], int) else 0
        return (step, _rank(at[2] if len(at) > 2 else None, SNAPSHOT_FIELDS))
    if kind == "settlement":
        return (_rank(at[0] if at else None, SETTLEMENT_FIELDS),)
    if kind == "perft":
        only_one_side = len(at) > 1 and MISSING in (d.expected, d.actual)
        return (_rank(at[0] if at else None, _PERFT_FIELDS), 0 if only_one_side else 1)
    return (_rank(at[0] if at else None, _ILLEGAL_FIELDS),)


def _play_place(d: Difference) -> tuple[int, ...]:
    """A play fixture's ordering key: (0, hand, event, field) for a difference in a hand,
    the top-level field's rank first otherwise."""
    at = d.at
    top = _rank(at[0] if at else None, _PLAY_TOP)
    if top or len(at) < 2:
        if at and at[0] == "hands":  # the list of hands itself: another number of hands
            return (0, _first_index(d.expected, d.actual) if not d.length else min(d.expected, d.actual), 0, 0)
        return (top, 0, 0, 0)
    hand = at[1] if isinstance(at[1], int) else 0
    if len(at) == 3 or (len(at) == 2):  # the hand's events as a whole (their number)
        index = min(d.expected, d.actual) if d.length else _first_index(d.expected, d.actual)
        return (0, hand, index, -1)
    index = at[3] if isinstance(at[3], int) else 0
    fields = _event_fields(d.expected, d.actual) if len(at) == 4 else [str(at[4])]
    order = ("event", *EVENT_FIELDS.get(_event_kind(d.expected), ()))
    return (0, hand, index, _rank(fields[0] if fields else None, order))


def _event_kind(value: object) -> str:
    return str(value.get("event")) if isinstance(value, dict) else ""


def first_difference(kind: str, differences: Sequence[Difference]) -> Difference | None:
    """The difference that comes first in dependency order (:func:`place_of`); among
    several at one place, the first the comparison gave."""
    if not differences:
        return None
    return min(differences, key=lambda d: place_of(kind, d))


# ---------------------------------------------------------------------- the reference's position
def _ruleset(fx: Fixture) -> Ruleset:
    ruleset = Ruleset.from_readings(fx.variants)
    target = fx.input.get("target")
    return with_target(ruleset, target) if isinstance(target, int) else ruleset


def _tile(text: object) -> Tile | None:
    try:
        return parse_tile(str(text))
    except HorseRaceError:
        return None


def _layout_before(fx: Fixture, step: int) -> Layout | None:
    """The reference layout of a ``layout`` fixture before step ``step``."""
    ruleset = _ruleset(fx)
    layout = Hand.layout_class(branch_use_one=ruleset.branch_use is BranchUse.ONE)
    try:
        for entry in [*fx.input.get("setup", []), *fx.input["steps"][:step]]:
            tile, target = _tile(entry["tile"]), _tile(entry["target"]) if "target" in entry else None
            port = parse_port(entry["port"]) if "port" in entry else None
            if tile is None:
                return None
            target, port = layout.normalise(tile, target, port)
            layout.place(tile, target, port)
    except (HorseRaceError, KeyError, TypeError, ValueError):
        return None
    return layout


def _hand_before(fx: Fixture, at: int, inp: Mapping[str, Any] | None = None) -> tuple[Hand, dict[str, Any]] | None:
    """The reference hand just before the ``at``-th action of a ``play`` or ``illegal``
    input (``inp``, default the fixture's), and that action; ``None`` where the input
    cannot be replayed so far."""
    inp = fx.input if inp is None else inp
    ruleset = _ruleset(fx)
    partnership = inp.get("mode") == "partnership"
    try:
        if fx.kind == "illegal":
            hand = new_position(
                dict(inp),
                ("input",),
                partnership=partnership,
                seats=inp["seats"],
                scores=list(inp["scores"]),
                ruleset=ruleset,
            )
            actions = inp["actions"]
            for action in actions[:at]:
                _act(hand, action)
            return hand, dict(actions[at])
        scores = list(inp["scores"])
        offset = 0
        for n, deal in enumerate(inp["hands"]):
            hand = new_position(
                deal, ("input", "hands", n), partnership=partnership, seats=inp["seats"], scores=scores, ruleset=ruleset
            )
            entries = deal["placements"]
            if at < offset + len(entries):
                for entry in entries[: at - offset]:
                    _play_entry(hand, entry)
                _forced(hand)
                return hand, dict(entries[at - offset])
            offset += len(entries)
            for entry in entries:
                _play_entry(hand, entry)
            scores = list(hand.scores)
    except (HorseRaceError, KeyError, TypeError, ValueError, IndexError):
        return None
    return None


def _forced(hand: Hand) -> None:
    while not hand.over and hand.pending_drawn is None and not hand.can_place(hand.to_act) and not hand.may_end_turn():
        hand.play_forced()


def _play_entry(hand: Hand, entry: Mapping[str, Any]) -> None:
    _forced(hand)
    if "end_turn" in entry:
        hand.end_turn(hand.to_act)
        return
    _act(hand, {"seat": hand.to_act, "action": "place", **entry})


def _act(hand: Hand, action: Mapping[str, Any]) -> None:
    act(hand, action)


# ---------------------------------------------------------------------- a placement in context
def _placement_rule(layout: Layout, entry: Mapping[str, Any], pending: Tile | None = None) -> tuple[str, str]:
    """The rule that decides whether a placement is legal where it is made, and a few
    words on why: what an implementation that refuses it (or misses it) most likely
    gets wrong."""
    if "target" not in entry:
        return "HR-OPEN-2", "the opening tile"
    tile, target = _tile(entry.get("tile")), _tile(entry.get("target"))
    port = str(entry.get("port"))
    if target is None or target not in layout:
        return "HR-MOVE-1", "a target not on the layout"
    if IS_DOUBLE[target]:
        found = _spinner_port_rule(layout, target, port)
        if found is not None:
            return found
    if tile is not None and pending is not None and tile == pending:
        return "HR-DRAW-3", "the tile just drawn"
    value = LOW[target] if IS_DOUBLE[target] else (LOW[target] if port == "low" else HIGH[target])
    if value == 0:
        return "HR-PLACE-1", "on an end of value 0"
    return "HR-PLACE-1", "onto an available attachment point"


def _spinner_port_rule(layout: Layout, target: Tile, port: str) -> tuple[str, str] | None:
    """The rule of a placement onto double ``target``'s branch or mirror-named linear
    side; ``None`` for a plain linear side (the placement rule decides)."""
    filled = layout.filled_ports(target)
    if port in _BRANCHES:
        other = BRANCH_B if port == _BRANCHES[0] else BRANCH_A
        if filled >> other & 1:
            return "HR-SPIN-3", f"the second branch of {NAMES[target]}"
        first_double = next((t for t in layout.order if IS_DOUBLE[t]), None)
        which = "the layout's first double" if target == first_double else "a double that is not the layout's first"
        # Its linear sides are filled (the placement is legal): the implementation does
        # not take this double for a spinner.
        return "HR-SPIN-1", f"a branch of {NAMES[target]}, {which}, its linear sides filled"
    if port in _LINEARS and not filled >> LINEAR_A & 1 and not filled >> LINEAR_B & 1 and port == _LINEARS[1]:
        return "HR-MOVE-2", "the mirror-image name linear-b of a free linear side"
    return None


def refusal_cause(fx: Fixture, at: int | None, *, inp: Mapping[str, Any] | None = None, what: str = "") -> Cause:
    """The cause of a legal action refused: the ``at``-th action of the fixture's input
    (``inp``: of another input of the same fixture, its legal twin), read in the
    reference engine's position just before it.  ``what`` names the action in the
    basis ("the legal twin's action 2")."""
    what = what or f"action {at}"
    if at is None:
        if fx.kind == "play" and len((inp or fx.input).get("hands") or ()) > 1:
            # The deals after the first carry the openers the reference engine's HR-OPEN-3
            # gives them: an implementation that opens otherwise refuses such an input.
            return Cause(
                "HR-OPEN-3",
                "the input was refused, no action named: a match of several hands, whose later deals are "
                "opened as HR-OPEN-3 says",
            )
        return Cause(fx.primary_rule, "an action was refused (the implementation did not say which)")
    if fx.kind == "layout":
        layout = _layout_before(fx, at)
        steps = fx.input.get("steps", [])
        if layout is None or not 0 <= at < len(steps):
            return Cause(fx.primary_rule, f"refused {what}", ("steps", at))
        rule, why = _placement_rule(layout, steps[at])
        return Cause(rule, f"refused {what}, {_name(steps[at])}: {why}", ("steps", at))
    if fx.kind not in ("play", "illegal"):
        return Cause(fx.primary_rule, f"refused {what}")
    found = _hand_before(fx, at, inp)
    where: tuple[PathStep, ...] = ("actions", at) if fx.kind == "illegal" else ("placements", at)
    if found is None:
        return Cause(fx.primary_rule, f"refused {what}", where)
    return _action_refused(*found, what, where)


def _action_refused(hand: Hand, entry: dict[str, Any], what: str, where: tuple[PathStep, ...]) -> Cause:
    """The cause of a refused action of a hand (``entry``, in the position ``hand`` is in
    just before it): an end of turn, a draw or a pass, a placement."""
    kind = entry.get("action", "end-turn" if "end_turn" in entry else "place")
    if kind == "end-turn":
        return Cause("HR-TURN-1", f"refused {what}, an end of turn during a continuation (HRI-2)", where)
    last = next((e for e in reversed(hand.events) if isinstance(e, Place)), None)
    if kind in ("draw", "pass"):
        return _draw_or_pass_refused(kind, hand, last, what, where)
    if hand.continuing and "target" in entry and last is not None:
        return _continuation_refused(hand, last, f"refused {what}, {_name(entry)}", where)
    if last is not None and hand.events and hand.events[-1] is last and not last.continues and last.seat != hand.to_act:
        found = _turn_over_refused(last, entry, what, where)
        if found is not None:
            return found
    rule, why = _placement_rule(hand.layout, entry, hand.pending_drawn)
    return Cause(rule, f"refused {what}, {_name(entry)}: {why}", where)


def _draw_or_pass_refused(kind: str, hand: Hand, last: Place | None, what: str, where: tuple[PathStep, ...]) -> Cause:
    """The cause of a refused draw or pass: in a continuation, of one of the boneyard's
    last tiles, or with no legal placement (HR-DRAW-2, HR-PASS-1)."""
    if hand.continuing and last is not None:
        # The seat that holds a continuation and no legal placement draws (or passes): an
        # implementation that refuses it has most likely ended the turn instead.
        name = "a draw" if kind == "draw" else "a pass"
        return _continuation_refused(hand, last, f"refused {what}, {name} in the continuation", where)
    if kind == "draw" and 0 < hand.boneyard_left <= 2:
        return Cause("HR-DEAL-2", f"refused {what}, a draw of one of the boneyard's last tiles", where)
    if kind == "draw":
        return Cause("HR-DRAW-2", f"refused {what}, a draw with no legal placement in hand", where)
    return Cause("HR-PASS-1", f"refused {what}, a pass with no legal placement and an empty boneyard", where)


def _turn_over_refused(last: Place, entry: dict[str, Any], what: str, where: tuple[PathStep, ...]) -> Cause | None:
    """A placement refused after the last placement ended the turn, for a reason that is
    no placement rule: a drawn tile's placement (HR-TURN-3), one that counts 0 (HR-CREDIT-1)."""
    if last.drawn:
        return Cause("HR-TURN-3", f"refused {what}, {_name(entry)}: the turn after a drawn tile's placement", where)
    if last.count == 0 and not IS_DOUBLE[last.tile]:
        return Cause("HR-CREDIT-1", f"refused {what}, {_name(entry)}: the turn after a placement that counts 0", where)
    return None


def _continuation_refused(hand: Hand, last: Place, basis: str, where: tuple[PathStep, ...]) -> Cause:
    """An action of the seat that holds a continuation, refused: the rule of the
    continuation that placement ``last`` earned."""
    if last.target is None and len([e for e in hand.events if isinstance(e, Place)]) == 1:
        return Cause("HR-OPEN-2", f"{basis}: the continuation the opening tile earned (HRI-3)", where)
    if any(isinstance(e, Draw) and e.tile == last.tile for e in hand.events):
        return Cause("HR-TURN-3", f"{basis}: a continuation after a tile drawn in an earlier turn", where)
    return Cause("HR-TURN-1", f"{basis}: a continuation after a double or a scoring tile", where)


def _name(entry: Mapping[str, Any]) -> str:
    if "target" not in entry:
        return str(entry.get("tile"))
    return f"{entry.get('tile')} on {entry.get('target')} {entry.get('port')}"


# ---------------------------------------------------------------------- a difference in context
def difference_cause(fx: Fixture, d: Difference) -> Cause:
    """The cause of one difference (the first, in dependency order): its field mapped to
    the rule that decides it, in the light of the position."""
    basis = f"first difference: {_short(d.text())}"
    if fx.kind == "layout":
        return _layout_cause(fx, d, basis)
    if fx.kind == "play":
        return _play_cause(fx, d, basis)
    if fx.kind == "settlement":
        return _settlement_cause(fx, d, basis)
    if fx.kind == "perft":
        return _perft_cause(fx, d, basis)
    return Cause(str(fx.expected.get("rule") or fx.primary_rule), basis, d.at, d.field)


def _short(text: str, width: int = 240) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def _layout_cause(fx: Fixture, d: Difference, basis: str) -> Cause:
    at = d.at
    if len(at) < 3:  # another number of steps: the implementation stopped, or went on
        return Cause(fx.primary_rule, basis, at, "steps")
    step, name = at[1], str(at[2])
    layout = _layout_before(fx, step + 1) if isinstance(step, int) else None
    if name in ("tiles", "connections"):
        rule = "HR-MOVE-2" if _mirror_item(d) else "HR-MOVE-1"
    elif name == "spinners":
        rule = "HR-SPIN-1"
    elif name == "attachment_points":
        rule = _point_rule(d, layout)
    elif name == "contributions":
        rule = _contribution_rule(d, layout)
    elif name == "sum":
        rule = "HR-COUNT-1"
    elif name == "credit_raw":
        rule = "HR-CREDIT-1"
    elif name == "credit":
        rule = "HR-CREDIT-2"
    else:
        rule = fx.primary_rule
    return Cause(rule, basis, at, name)


def _item(d: Difference) -> Any:
    return d.expected if d.item == "missing" else d.actual if d.item == "extra" else None


def _mirror_item(d: Difference) -> bool:
    text = json.dumps([d.expected, d.actual])
    return "linear-b" in text or "branch-b" in text


def _point_rule(d: Difference, layout: Layout | None) -> str:
    item = _item(d)
    if not isinstance(item, dict):
        return "HR-PLACE-1"
    port, tile = item.get("port"), _tile(item.get("tile"))
    if tile is None or not IS_DOUBLE[tile] or layout is None or tile not in layout:
        return "HR-PLACE-1"
    filled = layout.filled_ports(tile)
    if port in _BRANCHES:
        return _branch_point_rule(d, layout, tile, port, filled)
    if port in _LINEARS and d.item == "missing" and port == _LINEARS[1] and not filled >> LINEAR_A & 1:
        return "HR-MOVE-2"
    return "HR-SPIN-1" if d.item == "missing" else "HR-PLACE-1"


def _branch_point_rule(d: Difference, layout: Layout, tile: Tile, port: object, filled: int) -> str:
    """The rule of an attachment point on a branch of double ``tile`` (its ports
    ``filled``) that the implementation listed and should not have, or left out."""
    linear_free = not (filled >> LINEAR_A & 1 and filled >> LINEAR_B & 1)
    if d.item == "extra":
        return "HR-SPIN-2" if linear_free else ("HR-SPIN-3" if filled & (3 << BRANCH_A) else "HR-MOVE-2")
    first_double = next((t for t in layout.order if IS_DOUBLE[t]), None)
    other = BRANCH_B if port == _BRANCHES[0] else BRANCH_A
    if not filled >> other & 1 and port == _BRANCHES[1]:
        return "HR-MOVE-2"  # one of a free mirror pair left out
    if tile != first_double:
        return "HR-SPIN-1"
    return "HR-SPIN-3" if filled >> other & 1 else "HR-SPIN-1"


def _contribution_rule(d: Difference, layout: Layout | None) -> str:
    item = _item(d)
    if not isinstance(item, dict):
        return "HR-COUNT-1"
    tile, port = _tile(item.get("tile")), item.get("port")
    if tile is None:
        return "HR-COUNT-1"
    if d.item == "missing" and item.get("value") == 0:
        return "HR-COUNT-4"  # a zero end left out, a double's or a tile's
    if IS_DOUBLE[tile]:
        if port in _BRANCHES:
            return "HR-COUNT-3"  # an unstarted branch counted
        if port is None and d.item == "extra" and layout is not None and tile in layout:
            filled = layout.filled_ports(tile)
            if filled >> LINEAR_A & 1 and filled >> LINEAR_B & 1:
                return "HR-COUNT-3"  # an interior double counted
        return "HR-COUNT-2"
    if d.item == "missing" and item.get("value") == 0:
        return "HR-COUNT-4"
    if layout is not None and len(layout) == 1 and layout.order[0] == tile:
        return "HR-COUNT-5"
    return "HR-COUNT-1"


def _play_cause(fx: Fixture, d: Difference, basis: str) -> Cause:
    at = d.at
    if not at or at[0] != "hands":
        field = str(at[0]) if at else None
        rule = {"scores": "HR-CREDIT-2", "match_winners": "HR-MATCH-2"}.get(field or "", fx.primary_rule)
        return Cause(rule, basis, at, field)
    if len(at) < 4:  # another number of hands or events: the trace ends early or goes on
        return _trace_length_cause(fx, d, basis)
    hand, index = at[1], at[3]
    trace = _expected_events(fx, hand)
    expected, actual = (d.expected, d.actual) if len(at) == 4 else (None, None)
    if expected is None and isinstance(index, int) and index < len(trace):
        expected = trace[index]
    fields = _event_fields(expected, actual) if len(at) == 4 else [str(at[4])]
    field = fields[0] if fields else None
    rule = _event_rule(fx, trace, index if isinstance(index, int) else 0, expected, actual, field)
    return Cause(rule, basis, at[:4], field)


def _expected_events(fx: Fixture, hand: PathStep) -> list[dict[str, Any]]:
    hands = fx.expected.get("hands") or []
    if isinstance(hand, int) and hand < len(hands):
        events = hands[hand].get("events") or []
        return list(events)
    return []


def _trace_length_cause(fx: Fixture, d: Difference, basis: str) -> Cause:
    if len(d.at) == 3 and d.length and isinstance(d.at[1], int):
        index = min(d.expected, d.actual)
        trace = _expected_events(fx, d.at[1])
        if d.actual < d.expected and index < len(trace):  # the implementation's trace stops early
            missing = trace[index]
            return Cause(_ended_early_rule(trace, index, missing), basis, (*d.at, index), "event")
        if index and index <= len(trace):  # it goes on after the expected end
            last = trace[index - 1]
            if last.get("event") == "hand-end":
                return Cause(_hand_end_rule(last), basis, (*d.at, index), "event")
            return Cause("HR-TURN-2", basis, (*d.at, index), "event")
    return Cause(fx.primary_rule, basis, d.at, "hands")


def _ended_early_rule(trace: list[dict[str, Any]], index: int, missing: Mapping[str, Any]) -> str:
    kind = missing.get("event")
    if kind == "hand-end":
        return _hand_end_rule(missing)
    if kind == "match-end":
        return "HR-MATCH-1"
    previous = trace[index - 1] if index else {}
    if previous.get("event") == "place" and previous.get("continues"):
        return "HR-TURN-1"
    return {"draw": "HR-DRAW-2", "pass": "HR-PASS-1", "place": "HR-DRAW-3"}.get(str(kind), "HR-TURN-1")


def _hand_end_rule(event: Mapping[str, Any]) -> str:
    return {"blocked": "HR-BLOCK-1", "match": "HR-MATCH-1"}.get(str(event.get("reason")), "HR-END-1")


def _event_rule(
    fx: Fixture, trace: list[dict[str, Any]], index: int, expected: Any, actual: Any, field: str | None
) -> str:
    e = expected if isinstance(expected, dict) else {}
    a = actual if isinstance(actual, dict) else {}
    kind = e.get("event")
    previous = trace[index - 1] if 0 < index <= len(trace) else {}
    if field == "event" or (field == "seat" and kind != "hand-end"):
        if kind == "draw" and a.get("event") in ("pass", "hand-end") and _boneyard_left(fx, trace, index) <= 2:
            return "HR-DEAL-2"  # the last tiles of the boneyard kept back: none is set aside
        return _kind_rule(e, a, previous)
    if kind == "place":
        return _place_field_rule(fx, trace, index, e, a, field)
    if kind == "hand-end":
        return _hand_end_field_rule(fx, e, a, field)
    if kind == "match-end":
        return "HR-MATCH-1" if previous.get("reason") == "match" else "HR-MATCH-2"
    if kind == "draw":
        return "HR-DEAL-2" if field == "tile" else "HR-DRAW-2"
    return "HR-TURN-1"


def _place_field_rule(
    fx: Fixture, trace: list[dict[str, Any]], index: int, e: dict[str, Any], a: dict[str, Any], field: str | None
) -> str:
    """The rule of a differing field of a placement event."""
    if field in ("tile", "target", "port"):
        return (
            "HR-MOVE-2"
            if field == "port" and {e.get("port"), a.get("port")} & {"linear-b", "branch-b"}
            else "HR-MOVE-1"
        )
    if field == "count":
        return _count_rule(fx, index, trace, e, a)
    if field == "credit_raw":
        return "HR-CREDIT-1"
    if field == "credit":
        return "HR-CREDIT-2"
    if field == "continues":
        return _continues_rule(trace, index, e, a)
    if field == "drawn":
        return "HR-TURN-3"
    return "HR-TURN-1"


def _continues_rule(trace: list[dict[str, Any]], index: int, e: dict[str, Any], a: dict[str, Any]) -> str:
    """The rule of a placement whose ``continues`` differs: whether the same seat places again."""
    after = trace[index + 1] if index + 1 < len(trace) else {}
    if e.get("drawn") or a.get("drawn"):
        return "HR-TURN-3"
    if "target" not in e and not any(ev.get("event") == "place" for ev in trace[:index]):
        return "HR-OPEN-2"  # the opening tile's continuation (HRI-3), overlapping HR-TURN-1
    if a.get("continues") and e.get("count") == 0 and not _is_double(e.get("tile")):
        return "HR-CREDIT-1"  # a count of 0 earns nothing, and no continuation
    if after.get("event") == "hand-end":
        return "HR-MATCH-1" if after.get("reason") == "match" else "HR-TURN-2"
    return "HR-TURN-1"


def _hand_end_field_rule(fx: Fixture, e: dict[str, Any], a: dict[str, Any], field: str | None) -> str:
    """The rule of a differing field of a hand's end: its reason, winners, pips, credits,
    scores or next opener."""
    reason = e.get("reason")
    tie = len(e.get("winners") or []) > 1 or len(a.get("winners") or []) > 1
    if reason == "match" or a.get("reason") == "match":
        return "HR-MATCH-1"
    if field == "reason":
        return "HR-BLOCK-1" if "blocked" in (reason, a.get("reason")) else "HR-END-1"
    if field == "winners":
        if reason == "blocked":
            return "HR-SETTLE-3" if tie else "HR-END-2"
        return "HR-END-1"
    if field == "pips":
        return "HR-SET-2"
    if field == "credits":
        if reason == "blocked" and tie:
            return "HR-SETTLE-3"
        return _credit_rule(fx, e, a)
    if field == "scores":
        return "HR-CREDIT-2"
    if field == "next_opener":
        return "HR-OPEN-3"
    return "HR-SETTLE-1"


def _is_double(text: object) -> bool:
    tile = _tile(text)
    return tile is not None and IS_DOUBLE[tile]


def _layout_after(fx: Fixture, hand: int, place_index: int) -> Layout | None:
    """The reference layout of hand ``hand`` of a ``play`` fixture just after its
    ``place_index``-th placement (the layout's own tiles not counted)."""
    deals = fx.input.get("hands") or []
    if not 0 <= hand < len(deals):
        return None
    offset = sum(len(d.get("placements", [])) for d in deals[:hand])
    entries = deals[hand].get("placements", [])
    placed = -1
    for i, entry in enumerate(entries):
        if "end_turn" not in entry:
            placed += 1
        if placed == place_index:
            found = _hand_before(fx, offset + i + 1) if i + 1 < len(entries) else None
            if found is not None:
                return found[0].layout
            whole = _hand_before(fx, offset + i)
            if whole is None:
                return None
            hand_state, entry_now = whole
            try:
                _act(hand_state, {"seat": hand_state.to_act, "action": "place", **entry_now})
            except (HorseRaceError, KeyError, TypeError, ValueError):
                return None
            return hand_state.layout
    return None


def _subset_sums(values: Sequence[int]) -> set[int]:
    sums = {0}
    for v in values[:12]:
        sums |= {s + v for s in sums}
    return sums - {0}


def _count_rule(
    fx: Fixture, index: int, trace: list[dict[str, Any]], e: Mapping[str, Any], a: Mapping[str, Any]
) -> str:
    """A placement's count that differs, read against the reference layout after it:
    what the implementation counted too much or too little names the counting rule
    (HR-COUNT-2, HR-COUNT-3, HR-COUNT-5), else HR-COUNT-1."""
    if not isinstance(e.get("count"), int) or not isinstance(a.get("count"), int):
        return "HR-COUNT-1"
    delta = a["count"] - e["count"]
    hand_index = _hand_of_trace(fx, trace)
    if hand_index is None:
        return "HR-COUNT-1"
    place_index = sum(1 for ev in trace[:index] if ev.get("event") == "place")
    layout = _layout_after(fx, hand_index, place_index)
    if layout is None:
        return "HR-COUNT-1"
    interior, branches, terminal = _doubles_by_side(layout)
    if delta > 0 and delta in _subset_sums([*interior, *branches]):
        return "HR-COUNT-3"
    if delta and abs(delta) in _subset_sums([*terminal, *terminal]):
        return "HR-COUNT-2"  # a double with a free linear side counted by one or three halves, or four
    if len(layout) == 1 and not IS_DOUBLE[layout.order[0]] and -delta in (LOW[layout.order[0]], HIGH[layout.order[0]]):
        return "HR-COUNT-5"
    return "HR-COUNT-1"


def _hand_of_trace(fx: Fixture, trace: list[dict[str, Any]]) -> int | None:
    """The index of the expected hand whose events ``trace`` is (the same list, else an equal one)."""
    hand_index = next((h for h, d in enumerate(fx.expected.get("hands") or []) if d.get("events") is trace), None)
    if hand_index is None:
        hand_index = next(
            (h for h, d in enumerate(fx.expected.get("hands") or []) if list(d.get("events") or []) == trace), None
        )
    return hand_index


def _doubles_by_side(layout: Layout) -> tuple[list[int], list[int], list[int]]:
    """What the layout's doubles could be miscounted by: each interior double's whole
    (both linear sides joined), the pips of its free branch sides, and each terminal
    double's half (a linear side free)."""
    interior: list[int] = []
    branches: list[int] = []
    terminal: list[int] = []
    for t in layout.order:
        if not IS_DOUBLE[t]:
            continue
        filled = layout.filled_ports(t)
        if filled >> LINEAR_A & 1 and filled >> LINEAR_B & 1:
            interior.append(2 * LOW[t])
            branches += [LOW[t] for p in (BRANCH_A, BRANCH_B) if not filled >> p & 1]
        else:
            terminal.append(LOW[t])
    return interior, branches, terminal


def _boneyard_left(fx: Fixture, trace: list[dict[str, Any]], index: int) -> int:
    """The tiles left in the boneyard of the hand whose trace is ``trace`` before its
    ``index``-th event (a large number where the hand is not found)."""
    hands = fx.expected.get("hands") or []
    deals = fx.input.get("hands") or []
    for h, played in enumerate(hands):
        ours = played.get("events") is trace or list(played.get("events") or []) == trace
        if ours and h < len(deals) and isinstance(deals[h].get("boneyard"), list):
            drawn = sum(1 for ev in trace[:index] if ev.get("event") == "draw")
            return len(deals[h]["boneyard"]) - drawn
    return _LAST


def _kind_rule(e: Mapping[str, Any], a: Mapping[str, Any], previous: Mapping[str, Any]) -> str:
    """Another event, or another seat acting, where the expected event is ``e``."""
    kinds = (e.get("event"), a.get("event"))
    if (
        previous.get("event") == "place"
        and "seat" in a
        and a.get("seat") != previous.get("seat")
        and previous.get("continues")
    ):
        return "HR-TURN-1"  # the turn passed where a continuation holds
    went_on = previous.get("event") == "place" and a.get("seat") == previous.get("seat")
    if went_on and not previous.get("continues") and kinds[0] != "hand-end":
        return "HR-TURN-3" if previous.get("drawn") else "HR-TURN-1"  # the turn went on where it ends
    if kinds[0] == "hand-end":
        return _hand_end_rule(e)
    if kinds[1] == "hand-end":
        return _hand_end_rule(a)
    table = {
        ("place", "draw"): "HR-PLACE-1",  # it saw no legal placement where there is one
        ("draw", "place"): "HR-PLACE-1",  # it placed a tile that does not play there
        ("draw", "pass"): "HR-DRAW-2",
        ("pass", "draw"): "HR-DRAW-4",
        ("place", "pass"): "HR-PASS-1",
        ("pass", "place"): "HR-PASS-1",
        ("end-turn", "place"): "HR-TURN-1",
        ("place", "end-turn"): "HR-TURN-1",
        ("end-turn", "draw"): "HR-TURN-1",
        ("draw", "end-turn"): "HR-TURN-1",
    }
    if kinds[0] == kinds[1]:
        return "HR-SEAT-3"
    return table.get((str(kinds[0]), str(kinds[1])), "HR-TURN-1")


def _credit_rule(fx: Fixture, expected: Mapping[str, Any], actual: Mapping[str, Any]) -> str:
    """Settlement credits that differ: HR-SETTLE-2 when the implementation's credit is
    what counting the winner's own or partner's pips gives, else HR-SETTLE-1."""
    pips = expected.get("pips")
    winners = expected.get("winners") or []
    credits = actual.get("credits")
    if not isinstance(pips, list) or not isinstance(credits, list) or len(winners) != 1:
        return "HR-SETTLE-1"
    partnership = fx.input.get("mode") == "partnership"
    side = winners[0]
    if not isinstance(side, int) or not 0 <= side < len(credits):
        return "HR-SETTLE-1"
    return _whose_pips(pips, side, credits[side], partnership)


def _whose_pips(pips: list[Any], side: int, credit_given: object, partnership: bool) -> str:
    """HR-SETTLE-2 when the credit the implementation gave the winning ``side`` is what
    subtracting the winner's own pips, or counting its partner's, gives; else HR-SETTLE-1."""

    def credit(total: int) -> int:
        return (total + 2) // 5

    if not all(isinstance(p, int) for p in pips) or not isinstance(credit_given, int):
        return "HR-SETTLE-1"
    own = [p for seat, p in enumerate(pips) if (seat % 2 if partnership else seat) == side]
    others = sum(pips) - sum(own)
    if credit_given != credit(others) and credit_given in (
        credit(max(0, others - sum(own))),
        credit(others + sum(own) - min(own, default=0)),
    ):
        return "HR-SETTLE-2"
    return "HR-SETTLE-1"


def _settlement_cause(fx: Fixture, d: Difference, basis: str) -> Cause:
    field = str(d.at[0]) if d.at else None
    tie = len(fx.expected.get("winners") or []) > 1
    blocked = fx.input.get("ended_by") == "blocked"
    if field == "winners":
        rule = ("HR-SETTLE-3" if tie or d.item == "extra" else "HR-END-2") if blocked else "HR-END-1"
    elif field == "credits":
        rule = "HR-SETTLE-3" if tie else _credits_rule(fx, d)
    elif field == "scores":
        rule = "HR-CREDIT-2"
    elif field == "match_winners":
        rule = "HR-MATCH-2"
    else:
        rule = fx.primary_rule
    return Cause(rule, basis, d.at, field)


def _credits_rule(fx: Fixture, d: Difference) -> str:
    """The rule of a settlement's credits that differ with one winning side: whose pips
    the implementation credited (``_whose_pips``)."""
    pips = [sum(LOW[t] + HIGH[t] for t in map(_tile, hand) if t is not None) for hand in fx.input["hands"]]
    winners = fx.expected.get("winners") or []
    side = winners[0] if len(winners) == 1 else None
    partnership = fx.input.get("mode") == "partnership"
    if isinstance(d.actual, list) and isinstance(side, int) and side < len(d.actual):
        given: object = d.actual[side]
    else:
        given = d.actual if d.at == ("credits", side) else None
    return _whose_pips(pips, side, given, partnership) if isinstance(side, int) else "HR-SETTLE-1"


def _perft_cause(fx: Fixture, d: Difference, basis: str) -> Cause:
    if len(d.at) >= 2 and d.at[0] == "divide":
        move = str(d.at[1])
        only_theirs = d.expected == MISSING
        parts = move.split(" ")
        if move == "end-turn":
            return Cause("HR-TURN-1", basis, d.at, "divide")
        if len(parts) == 3 and only_theirs and parts[2] in ("linear-b", "branch-b"):
            return Cause("HR-MOVE-2", basis, d.at, "divide")  # a mirror image counted again
        one_side = MISSING in (d.expected, d.actual)
        if one_side and len(parts) == 3 and parts[2] in _BRANCHES:
            return Cause("HR-SPIN-2" if only_theirs else "HR-SPIN-1", basis, d.at, "divide")
        if one_side and len(parts) == 1:
            return Cause("HR-OPEN-2", basis, d.at, "divide")
    return Cause(fx.primary_rule, basis, d.at, d.field)


# ---------------------------------------------------------------------- one fixture
def _settled(cause: Cause, firm: bool = True) -> Cause:
    """A cause with the rules it overlaps (:data:`OVERLAPS`) and its firmness."""
    return replace(cause, alternatives=OVERLAPS.get(cause.rule, ()), firm=cause.firm and firm)


def cause_of(
    fx: Fixture,
    status: str,
    differences: Sequence[Difference],
    *,
    refused_at: int | None = None,
    twin_refused_at: int | None = None,
) -> Cause | None:
    """The cause of one fixture's failure (``None`` for an outcome that is not a failure
    of the rules: a pass, a skip, an error, a crash, a timeout).

    - ``fail``: the first difference in dependency order (:func:`difference_cause`);
      for an ``illegal`` fixture refused too early, the legal action refused;
    - ``rejected``: the first difference among the observations sent before the refusal
      (protocol 1.2), else the action refused (:func:`refusal_cause`);
    - ``not-rejected``: the rule the illegal action breaks, which the implementation
      does not enforce;
    - ``unconfirmed``: the legal twin's action the implementation refused, else the
      illegal fixture's rule (its reason not established).

    The cause carries the rules it overlaps (:data:`OVERLAPS`); one found from a
    refusal alone, or from a perft count, is not firm (:attr:`Cause.firm`)."""
    found = _cause_of(fx, status, differences, refused_at=refused_at, twin_refused_at=twin_refused_at)
    if found is None:
        return None
    # A refusal alone, an acceptance of the illegal action (an earlier state that differs
    # would do it too) and a perft count say little of the rule; a refusal that names no
    # action, less.
    weak = found.basis.startswith(("refused", "accepted", "an action was refused", "the input was refused")) or (
        fx.kind == "perft" and found.rule != "HR-MOVE-2"
    )
    return _settled(found, firm=not weak)


def _cause_of(
    fx: Fixture,
    status: str,
    differences: Sequence[Difference],
    *,
    refused_at: int | None = None,
    twin_refused_at: int | None = None,
) -> Cause | None:
    if status in ("pass", "skip", "xpass", "error", "crash", "timeout"):
        return None
    if fx.kind == "illegal":
        return _illegal_cause(fx, status, differences, twin_refused_at)
    first = first_difference(fx.kind, differences)
    if status == "rejected":
        if first is not None:
            cause = difference_cause(fx, first)
            return Cause(cause.rule, f"before the refusal of action {refused_at}, {cause.basis}", cause.at, cause.field)
        return refusal_cause(fx, refused_at)
    if first is None:
        return None
    return difference_cause(fx, first)


def _illegal_cause(fx: Fixture, status: str, differences: Sequence[Difference], twin_refused_at: int | None) -> Cause:
    """The cause of an illegal fixture that failed: the illegal action accepted, refused
    for no established reason or under another rule, or a legal action refused before it."""
    expected_rule = str(fx.expected.get("rule") or fx.primary_rule)
    expected_at = fx.expected.get("rejected_at")
    where: tuple[PathStep, ...] = ("actions", expected_at) if isinstance(expected_at, int) else ("actions",)
    if status == "not-rejected":
        return Cause(expected_rule, f"accepted the illegal action {expected_at}", where, "rejected_at")
    if status == "unconfirmed":
        twin_input = fx.twin_input
        if twin_refused_at is not None and twin_input is not None:
            return refusal_cause(fx, twin_refused_at, inp=twin_input, what=f"the legal twin's action {twin_refused_at}")
        return Cause(expected_rule, "refused the illegal action, but its reason is not established", where)
    at_difference = next((d for d in differences if d.at == ("rejected_at",)), None)
    at = None if at_difference is None else at_difference.actual
    if isinstance(at, int) and isinstance(expected_at, int) and at < expected_at:
        return refusal_cause(fx, at, what=f"the legal action {at}")
    first = first_difference(fx.kind, differences)
    if first is not None and first.at == ("rule",):
        return Cause(
            expected_rule,
            f"refused the illegal action under another rule: {_short(first.text())}",
            ("rule",),
            "rule",
        )
    return Cause(expected_rule, f"first difference: {_short(first.text())}" if first else "failed", (), None)


def at_text(at: Sequence[PathStep]) -> str:
    return format_path(tuple(at))
