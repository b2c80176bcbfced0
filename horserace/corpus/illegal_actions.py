"""Illegal actions at random points of random hands, one per rule of the order of checks
(spec/rules.md, "Order of checks for illegal actions"): the generator of the ``illegal``
scenarios that ``horserace fuzz`` sends.

Each :class:`Check` is one step of that order: where in a hand it can be broken
(:attr:`Check.possible`) and an action that breaks it there (:attr:`Check.action`),
made so that no earlier check rejects it.  A scenario aims at one check, plays a random
hand with explicit actions (placements, draws, passes and, under
``continuation=optional``, ends of turn), and puts the illegal action at a point chosen
uniformly among those where the check can be broken; the expected rejection (its index
and rule) is the reference engine's, from replaying the actions.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from horserace.corpus.encoding import placement_record, table_record
from horserace.corpus.observers import observe_illegal
from horserace.engine.events import Place
from horserace.engine.hand import Hand
from horserace.engine.layout import (
    BRANCH_A,
    BRANCH_B,
    LINEAR_A,
    LINEAR_B,
    PORT_HIGH,
    PORT_LOW,
    port_value,
)
from horserace.engine.match import deal, draw_lot
from horserace.engine.ruleset import BranchUse, Ruleset
from horserace.engine.seating import Seating
from horserace.engine.tiles import HIGH, IS_DOUBLE, LOW, NAMES, TILE_COUNT
from horserace.engine.types import Port, Seat, Tile

__all__ = ["CHECKS", "Check", "IllegalScenario", "illegal_scenario"]

#: The highest seat number an action may name (the fixture schema's limit): a seat
#: above the table's is a seat that does not exist (HR-SEAT-3).
_MAX_SEAT = 9
_BOTH_LINEAR = (1 << LINEAR_A) | (1 << LINEAR_B)
_DOUBLE_PORTS: tuple[Port, ...] = (LINEAR_A, LINEAR_B, BRANCH_A, BRANCH_B)
_PLAIN_PORTS: tuple[Port, ...] = (PORT_LOW, PORT_HIGH)
Action = dict[str, Any]


@dataclass(frozen=True)
class Check:
    """One step of the order of checks: the rule the engine names when it fails."""

    name: str
    rule: str
    #: Whether ``hand``'s current point lets an action break this check first.
    possible: Callable[[Hand], bool]
    #: An action that breaks it there.
    action: Callable[[Hand, random.Random], Action]
    #: Whether the check exists under a ruleset (HR-SPIN-3 only under ``branch_use=one``).
    applies: Callable[[Ruleset], bool] = lambda ruleset: True


@dataclass(frozen=True)
class IllegalScenario:
    """A deal, the scores before, and actions of which only the last is illegal."""

    deal: dict[str, Any]  #: hands, boneyard, opener
    scores: list[int]
    actions: list[Action]
    #: The rule the reference engine names for the last action.
    rule: str
    #: The check the scenario aimed at (its name), or the check it fell back to.
    check: str


# ---------------------------------------------------------------------- the hand's state
def _live(hand: Hand) -> bool:
    return not hand.over


def _ended_turn(hand: Hand) -> Place | None:
    """The placement that has just ended its player's turn, when the next seat has not
    acted yet (the third check of the order)."""
    if hand.over or not hand.events:
        return None
    last = hand.events[-1]
    return last if isinstance(last, Place) and not last.continues else None


def _own_tiles(hand: Hand) -> list[Tile]:
    """The tiles the player to act may place: the drawn tile if one is pending (HR-DRAW-3),
    else the whole hand."""
    pending = hand.pending_drawn
    return [pending] if pending is not None else hand.hand_tiles(hand.to_act)


def _matching_first(tiles: list[Tile], value: int, rng: random.Random) -> Tile:
    """A tile of ``tiles``, one showing ``value`` if there is one (so that only the check
    aimed at tells the action from a legal one)."""
    fitting = [t for t in tiles if value in (LOW[t], HIGH[t])]
    return rng.choice(fitting or tiles)


def _place(seat: Seat, tile: Tile, target: Tile | None, port: Port | None) -> Action:
    return {"seat": seat, "action": "place", **placement_record(tile, target, port)}


def _plausible_move(hand: Hand, tile: Tile, rng: random.Random) -> tuple[Tile | None, Port | None]:
    """Where ``tile`` could go: a legal move for it if it has one, else a free port."""
    layout = hand.layout
    if not layout.order:
        return None, None
    moves = layout.moves_for(tile)
    if moves:
        return rng.choice(moves)
    points = layout.attachment_points()
    if points:
        point = rng.choice(points)
        return point.tile, point.port
    first = layout.order[0]
    return first, LINEAR_A if IS_DOUBLE[first] else PORT_LOW


def _some_action(hand: Hand, seat: Seat, rng: random.Random) -> Action:
    """Any action by ``seat``: a placement that looks legal, a draw or a pass."""
    kind = rng.choice(("place", "place", "draw", "pass"))
    if kind != "place":
        return {"seat": seat, "action": kind}
    tiles = hand.hand_tiles(seat) if seat < hand.seats else []
    tile = rng.choice(tiles or range(TILE_COUNT))
    return _place(seat, tile, *_plausible_move(hand, tile, rng))


# ---------------------------------------------------------------------- the checks
def _anyone(hand: Hand, rng: random.Random) -> Action:
    return _some_action(hand, rng.randrange(hand.seats), rng)


def _ended_seat_acts(hand: Hand, rng: random.Random) -> Action:
    ended = _ended_turn(hand)
    assert ended is not None  # possible() said so
    return _some_action(hand, ended.seat, rng)


def _wrong_seat(hand: Hand, rng: random.Random) -> Action:
    ended = _ended_turn(hand)
    others = [s for s in range(hand.seats) if s != hand.to_act and (ended is None or s != ended.seat)]
    if not others or rng.random() < 0.2:
        return _some_action(hand, rng.randint(hand.seats, _MAX_SEAT), rng)  # no such seat
    return _some_action(hand, rng.choice(others), rng)


def _not_in_hand(hand: Hand, rng: random.Random) -> Action:
    mine = hand.hands[hand.to_act]
    tile = rng.choice([t for t in range(TILE_COUNT) if not mine >> t & 1])
    return _place(hand.to_act, tile, *_plausible_move(hand, tile, rng))


def _drawn_pending_with_others(hand: Hand) -> bool:
    return _live(hand) and hand.pending_drawn is not None and len(hand.hand_tiles(hand.to_act)) > 1


def _not_the_drawn_tile(hand: Hand, rng: random.Random) -> Action:
    others = [t for t in hand.hand_tiles(hand.to_act) if t != hand.pending_drawn]
    playable = [t for t in others if hand.layout.moves_for(t)]
    tile = rng.choice(playable or others)
    return _place(hand.to_act, tile, *_plausible_move(hand, tile, rng))


def _no_such_move(hand: Hand, rng: random.Random) -> Action:
    """HR-MOVE-1: a target for the opening tile, none after it, a target not on the
    layout, or a port that the target does not have."""
    tile = rng.choice(_own_tiles(hand))
    order = hand.layout.order
    if not order:
        other = rng.choice([t for t in range(TILE_COUNT) if t != tile])
        return _place(hand.to_act, tile, other, rng.choice(_DOUBLE_PORTS if IS_DOUBLE[other] else _PLAIN_PORTS))
    way = rng.randrange(3)
    if way == 0:
        return _place(hand.to_act, tile, None, None)
    if way == 1:
        absent = rng.choice([t for t in range(TILE_COUNT) if t not in hand.layout])
        return _place(hand.to_act, tile, absent, rng.choice(_DOUBLE_PORTS if IS_DOUBLE[absent] else _PLAIN_PORTS))
    target = rng.choice(order)
    return _place(hand.to_act, tile, target, rng.choice(_PLAIN_PORTS if IS_DOUBLE[target] else _DOUBLE_PORTS))


def _unopened_spinners(hand: Hand) -> list[Tile]:
    """Doubles on the layout with a free linear side: their branches are not open (HR-SPIN-2)."""
    layout = hand.layout
    return [t for t in layout.order if IS_DOUBLE[t] and layout.filled_ports(t) & _BOTH_LINEAR != _BOTH_LINEAR]


def _branch_too_early(hand: Hand, rng: random.Random) -> Action:
    target = rng.choice(_unopened_spinners(hand))
    tile = _matching_first(_own_tiles(hand), LOW[target], rng)
    return _place(hand.to_act, tile, target, rng.choice((BRANCH_A, BRANCH_B)))


def _occupied_ports(hand: Hand) -> list[tuple[Tile, Port]]:
    """Occupied ports, by names that no earlier check refuses: a branch only of a double
    whose linear sides are filled (else HR-SPIN-2 comes first)."""
    layout = hand.layout
    out: list[tuple[Tile, Port]] = []
    for t in layout.order:
        filled = layout.filled_ports(t)
        out.extend((t, port) for port in (_DOUBLE_PORTS if IS_DOUBLE[t] else _PLAIN_PORTS) if filled >> port & 1)
    return out


def _onto_occupied(hand: Hand, rng: random.Random) -> Action:
    target, port = rng.choice(_occupied_ports(hand))
    tile = _matching_first(_own_tiles(hand), port_value(target, port), rng)
    return _place(hand.to_act, tile, target, port)


def _one_branch_started(hand: Hand) -> list[Tile]:
    """Under ``branch_use=one``: spinners whose first branch is started (HR-SPIN-3)."""
    layout = hand.layout
    out = []
    for t in layout.order:
        filled = layout.filled_ports(t)
        one_branch = filled >> BRANCH_A & 1 and not filled >> BRANCH_B & 1
        if IS_DOUBLE[t] and filled & _BOTH_LINEAR == _BOTH_LINEAR and one_branch:
            out.append(t)
    return out


def _second_branch(hand: Hand, rng: random.Random) -> Action:
    target = rng.choice(_one_branch_started(hand))
    return _place(hand.to_act, _matching_first(_own_tiles(hand), LOW[target], rng), target, BRANCH_B)


def _unmatched(hand: Hand) -> list[tuple[Tile, Tile, Port]]:
    """Placements of the player's tiles on free ports whose value neither half shows."""
    points = hand.layout.attachment_points() if hand.layout.order else []
    return [(t, p.tile, p.port) for t in _own_tiles(hand) for p in points if p.value not in (LOW[t], HIGH[t])]


def _onto_unmatched(hand: Hand, rng: random.Random) -> Action:
    return _place(hand.to_act, *rng.choice(_unmatched(hand)))


def _by_the_seat_to_act(kind: str) -> Callable[[Hand, random.Random], Action]:
    def act(hand: Hand, rng: random.Random) -> Action:
        return {"seat": hand.to_act, "action": kind}

    return act


CHECKS: tuple[Check, ...] = (
    Check("match over", "HR-MATCH-3", lambda h: h.match_over, _anyone),
    Check("hand over", "HR-END-3", lambda h: h.over and not h.match_over, _anyone),
    Check(
        "turn ended by a drawn tile",
        "HR-TURN-3",
        lambda h: (e := _ended_turn(h)) is not None and e.drawn,
        _ended_seat_acts,
    ),
    Check(
        "turn ended by a tile that did not score",
        "HR-TURN-1",
        lambda h: (e := _ended_turn(h)) is not None and not e.drawn,
        _ended_seat_acts,
    ),
    Check("another seat", "HR-SEAT-3", _live, _wrong_seat),
    Check("tile not in hand", "HR-PLACE-3", _live, _not_in_hand),
    Check("not the drawn tile", "HR-DRAW-3", _drawn_pending_with_others, _not_the_drawn_tile),
    Check("no such move", "HR-MOVE-1", _live, _no_such_move),
    Check(
        "branch before the linear sides",
        "HR-SPIN-2",
        lambda h: _live(h) and bool(_unopened_spinners(h)),
        _branch_too_early,
    ),
    Check("occupied port", "HR-PLACE-1", lambda h: _live(h) and bool(_occupied_ports(h)), _onto_occupied),
    Check(
        "second branch",
        "HR-SPIN-3",
        lambda h: _live(h) and bool(_one_branch_started(h)),
        _second_branch,
        applies=lambda r: r.branch_use is BranchUse.ONE,
    ),
    Check("unmatched value", "HR-PLACE-1", lambda h: _live(h) and bool(_unmatched(h)), _onto_unmatched),
    Check(
        "draw with a drawn tile pending",
        "HR-DRAW-2",
        lambda h: _live(h) and h.pending_drawn is not None,
        _by_the_seat_to_act("draw"),
    ),
    Check(
        "draw holding a placement",
        "HR-DRAW-1",
        lambda h: _live(h) and h.pending_drawn is None and h.can_place(h.to_act),
        _by_the_seat_to_act("draw"),
    ),
    Check(
        "draw from an empty boneyard",
        "HR-DRAW-4",
        lambda h: _live(h) and h.pending_drawn is None and not h.can_place(h.to_act) and h.boneyard_left == 0,
        _by_the_seat_to_act("draw"),
    ),
    Check(
        "pass when not stuck",
        "HR-PASS-1",
        lambda h: _live(h) and (h.pending_drawn is not None or h.can_place(h.to_act) or h.boneyard_left > 0),
        _by_the_seat_to_act("pass"),
    ),
    Check(
        "end a turn that may not end",
        "HR-DRAW-1",
        lambda h: _live(h) and not h.may_end_turn(),
        _by_the_seat_to_act("end-turn"),
    ),
)


# ---------------------------------------------------------------------- the scenario
def _legal_action(hand: Hand, rng: random.Random) -> Action:
    """Take one random legal action for the player to act, and say what it was."""
    seat = hand.to_act
    if hand.may_end_turn() and rng.random() < 0.3:
        hand.end_turn(seat)
        return {"seat": seat, "action": "end-turn"}
    if hand.pending_drawn is not None or hand.can_place(seat):
        moves = hand.legal_placements()
        tile, target, port = moves[int(rng.random() * len(moves))]
        hand.place(seat, tile, target, port)
        return _place(seat, tile, target, port)
    if hand.boneyard_left:
        hand.draw(seat)
        return {"seat": seat, "action": "draw"}
    hand.pass_turn(seat)
    return {"seat": seat, "action": "pass"}


class _Reservoir:
    """A choice uniform over the points offered, one at a time (reservoir sampling)."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng
        self.seen = 0
        self.chosen: tuple[int, Action, Check] | None = None

    def offer(self, at: int, check: Check, hand: Hand) -> None:
        self.seen += 1
        if self.rng.random() * self.seen < 1:
            self.chosen = (at, check.action(hand, self.rng), check)


def illegal_scenario(rng: random.Random, seating: Seating, ruleset: Ruleset, scores: list[int]) -> IllegalScenario:
    """A random hand's legal actions up to a random point, then an illegal one.

    The check aimed at is drawn among those that exist under ``ruleset``; the point among
    those where it can be broken.  In a hand where it never can (no drawn tile ends a
    turn, the boneyard never runs out), another check drawn at a random point stands in,
    and failing that an action after the hand's end.  For "match over" the scores start
    near the target, so that a placement or the settlement ends the match."""
    checks = [c for c in CHECKS if c.applies(ruleset)]
    aim = rng.choice(checks)
    if aim.rule == "HR-MATCH-3":
        scores = [max(0, ruleset.target - 1 - rng.randrange(8)) for _ in scores]
    dealt, boneyard = deal(rng, seating.players)
    opener = draw_lot(rng, seating.players)
    deal_input = {
        "hands": [[NAMES[t] for t in h] for h in dealt],
        "boneyard": [NAMES[t] for t in boneyard],
        "opener": opener,
    }
    hand = Hand(
        dealt, boneyard, opener, partnership=seating.partnership, scores=scores, ruleset=ruleset, validate=False
    )
    pick = random.Random(rng.random())  # the points and the illegal actions, apart from the play
    aimed, stand_in = _Reservoir(pick), _Reservoir(pick)
    legal: list[Action] = []
    while True:
        if aim.possible(hand):
            aimed.offer(len(legal), aim, hand)
        other = pick.choice(checks)
        if other is not aim and other.possible(hand):
            stand_in.offer(len(legal), other, hand)
        if hand.over:
            break
        legal.append(_legal_action(hand, rng))
    end = next(c for c in checks if c.possible(hand))  # the match or the hand is over
    candidates = [aimed.chosen, stand_in.chosen, (len(legal), end.action(hand, pick), end)]
    table = table_record(seating, scores, ruleset.target)
    for candidate in candidates:
        if candidate is None:
            continue
        at, action, check = candidate
        actions = [*legal[:at], action]
        seen = observe_illegal({**table, **deal_input, "actions": actions}, ruleset)
        if seen["rejected_at"] == at:  # the reference engine's rejection is the expected one
            return IllegalScenario(deal_input, scores, actions, seen["rule"], check.name)
    raise AssertionError("an action after the end of the hand is always rejected")  # pragma: no cover
