"""Invariants of a hand in progress, as plain checks that raise AssertionError.

Kept apart from the Hypothesis tests so that tests/property/test_invariants_catch_bugs.py
can show each check fails on a deliberately broken engine (a check that cannot fail is
no check).
"""

from __future__ import annotations

import random
from typing import Any

from horserace.engine.events import Draw, EndTurn, Pass, Place
from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_A, LINEAR_B
from horserace.engine.tiles import FULL_SET_MASK, IS_DOUBLE, TOTAL_PIPS, mask_of, pips_of
from horserace.errors import IllegalAction


def check_conservation(h: Hand) -> None:
    """28 tiles and 168 pips across hands, boneyard and layout, each tile once."""
    parts = [*h.hands, mask_of(h.boneyard[h._next_draw :]), mask_of(h.layout.order)]
    union = 0
    for part in parts:
        assert union & part == 0, "a tile is in two places at once"
        union |= part
    assert union == FULL_SET_MASK, "a tile went missing"
    assert sum(pips_of(p) for p in parts) == TOTAL_PIPS
    assert len(h.layout.order) == len(set(h.layout.order))


def check_count(h: Hand) -> None:
    """The running count equals the sum of the counted contributions (HR-COUNT-1)."""
    assert h.layout.count == sum(c.value for c in h.layout.contributions()), (
        "running count differs from the contributions"
    )


def check_spinners(h: Hand) -> None:
    """No branch of a spinner before both linear sides are filled (HR-SPIN-2)."""
    for t in h.layout.order:
        if IS_DOUBLE[t]:
            filled = h.layout.filled_ports(t)
            if filled & ((1 << BRANCH_A) | (1 << BRANCH_B)):
                assert filled & (1 << LINEAR_A) and filled & (1 << LINEAR_B), "branch before linear sides"


def check_drawn_tiles_end_the_turn(events) -> None:
    """A tile drawn and placed in the same turn never continues it (HR-TURN-3)."""
    drawn_this_turn: dict[int, set[int]] = {}
    for e in events:
        if isinstance(e, Draw):
            drawn_this_turn.setdefault(e.seat, set()).add(e.tile)
        elif isinstance(e, Place):
            if e.tile in drawn_this_turn.get(e.seat, ()):
                assert e.drawn and not e.continues, "a drawn tile continued the turn"
            if not e.continues:
                drawn_this_turn.pop(e.seat, None)
        elif isinstance(e, (Pass, EndTurn)):
            drawn_this_turn.pop(e.seat, None)


def play_checked(h: Hand, rng: random.Random, checks=(check_conservation, check_count, check_spinners)) -> Hand:
    """Random play through the public actions, running every check after every action."""
    rand = rng.random
    for check in checks:
        check(h)
    while not h.over:
        seat = h.to_act
        moves = h.legal_placements()
        if h.may_end_turn() and rand() < 0.3:
            h.end_turn(seat)
        elif moves:
            h.place(seat, *moves[int(rand() * len(moves))])
        elif h.must_draw():
            h.draw(seat)
        else:
            h.pass_turn(seat)
        for check in checks:
            check(h)
    check_drawn_tiles_end_the_turn(h.events)
    return h


# ---------------------------------------------------------------------- undo
def _frozen(value):
    """A value as plain data to compare: lists (and the lists inside) as tuples, a dict by
    its items."""
    if isinstance(value, list):
        return tuple(_frozen(v) for v in value)
    if isinstance(value, dict):
        return {k: _frozen(v) for k, v in value.items()}
    return value


def _fields(obj) -> dict:
    """Every field of an object with ``__slots__``, whatever class of its line declares it."""
    names = [n for cls in type(obj).__mro__ for n in getattr(cls, "__slots__", ())]
    return {n: _frozen(getattr(obj, n)) for n in names if hasattr(obj, n)}


def state_of(h: Hand) -> dict:
    """Everything a hand holds, its layout's fields included, as plain data: two hands are
    in the same state when these are equal (the undo history by its length: the entries
    are the hand's own)."""
    fields = _fields(h)
    fields["layout"] = _fields(h.layout)
    fields["_undo"] = h.undo_depth
    return fields


def _differences(before: dict, after: dict) -> list[str]:
    out = []
    for key in sorted(before.keys() | after.keys()):
        if key == "layout":
            out += [f"layout.{d}" for d in _differences(before[key], after[key])]
        elif before.get(key) != after.get(key):
            out.append(f"{key}: {before.get(key)!r} became {after.get(key)!r}")
    return out


def check_same_state(before: dict, h: Hand, what: str) -> None:
    differences = _differences(before, state_of(h))
    assert not differences, f"{what}: the hand differs from before: " + "; ".join(differences)


def _actions(h: Hand) -> list[tuple[str, tuple]]:
    """Every legal action of the player to act, each kind through each of its methods:
    (method name, arguments)."""
    seat = h.to_act
    out: list[tuple[str, tuple]] = []
    for move in h.legal_placements():
        out += [("place", (seat, *move)), ("make", (move,))]
    if h.may_end_turn():
        out.append(("end_turn", (seat,)))
    if h.pending_drawn is None and not h.can_place(seat):
        out.append(("play_forced", ()))
        out.append(("draw", (seat,)) if h.must_draw() else ("pass_turn", (seat,)))
    return out


def _illegal(h: Hand) -> list[tuple[str, tuple]]:
    """Actions the rules refuse here: the other seat's turn, a draw or pass with a placement."""
    seat = h.to_act
    out = [("draw", ((seat + 1) % h.seats,)), ("pass_turn", ((seat + 1) % h.seats,))]
    if h.pending_drawn is not None or h.can_place(seat):
        out += [("draw", (seat,)), ("pass_turn", (seat,))]
    return out


def play_undoing(h: Hand, rng: random.Random) -> Hand:
    """Random play of an undoable hand, every kind of action: after each action, undo
    gives back the hand as it was before it, and making it again gives the same hand as
    the first time; an illegal action changes nothing; at the end, undoing every action in
    turn gives back each earlier state down to the deal."""
    states: list[dict[Any, Any] | None] = [state_of(h)]
    while not h.over:
        before_action = states[-1]
        assert before_action is not None  # the last state kept is the hand's latest
        for name, args in _illegal(h):
            try:
                getattr(h, name)(*args)
            except IllegalAction:
                check_same_state(before_action, h, f"refused {name}{args}")
            else:
                raise AssertionError(f"{name}{args} should have been refused")
        name, args = rng.choice(_actions(h))
        made = getattr(h, name)(*args)
        actions = made if name == "play_forced" else 1
        after = state_of(h)
        for _ in range(actions):
            h.undo()
        check_same_state(before_action, h, f"undo of {name}{args}")
        getattr(h, name)(*args)
        check_same_state(after, h, f"{name}{args} made again")
        states += [None] * (actions - 1) + [after]
    for before in reversed(states[:-1]):
        h.undo()
        if before is not None:
            check_same_state(before, h, "undo back to the deal")
    assert h.undo_depth == 0
    return h


# ---------------------------------------------------------------------- every condition of the order of checks
_KINDS = ("place", "draw", "pass", "end-turn")


def act(h: Hand, seat: int, kind: str, tile=None, target=None, port=None) -> None:
    """Make an action of the fixtures' kinds (``place``, ``draw``, ``pass``, ``end-turn``)."""
    if kind == "place":
        h.place(seat, tile, target, port)
    elif kind == "draw":
        h.draw(seat)
    elif kind == "pass":
        h.pass_turn(seat)
    else:
        h.end_turn(seat)


def check_violations_agree(h: Hand, seat: int, kind: str, tile=None, target=None, port=None) -> None:
    """:meth:`Hand.violations` agrees with the action itself: its first rule is the rule
    the action raises, and it is empty exactly when the action is accepted.  An accepted
    action is undone (the hand is undoable), so the hand is as it was."""
    found = h.violations(seat, kind, tile, target, port)
    what = f"{kind} by seat {seat}" + ("" if kind != "place" else f" of {tile} on {target} {port}")
    try:
        act(h, seat, kind, tile, target, port)
    except IllegalAction as exc:
        assert found, f"{what} is refused under {exc.rule}, but the evaluator finds nothing broken"
        assert found[0] == exc.rule, f"{what} is refused under {exc.rule}, but the evaluator names {found}"
        return
    assert found == (), f"{what} is accepted, but the evaluator finds {found} broken"
    h.undo()


def _candidates(h: Hand, rng: random.Random) -> list[tuple]:
    """Actions to judge at this point: every kind, by the seat to act, by any seat, by a
    seat that does not exist; placements of a tile of the actor's hand or any tile, on a
    port of a layout tile, with no target, or on a tile that is not there; and a few of
    the legal placements."""
    out: list[tuple] = []
    order = h.layout.order
    for _ in range(6):
        seat = rng.choice((h.to_act, h.to_act, rng.randrange(h.seats), h.seats + rng.randrange(3)))
        kind = rng.choice(_KINDS)
        if kind != "place":
            out.append((seat, kind, None, None, None))
            continue
        own = h.hand_tiles(seat) if seat < h.seats else []
        tile = rng.choice(own) if own and rng.random() < 0.7 else rng.randrange(28)
        where = rng.random()
        if not order or where < 0.1:
            target, port = None, None
        elif where < 0.15:
            target, port = rng.randrange(28), rng.randrange(6)
        else:
            target, port = rng.choice(order), rng.randrange(6)
        out.append((seat, "place", tile, target, port))
    moves = h.legal_placements()
    out += [(h.to_act, "place", *m) for m in rng.sample(moves, min(2, len(moves)))]
    return out


def play_judging_violations(h: Hand, rng: random.Random) -> Hand:
    """Random play of an undoable hand in which, before every action, random actions of
    every kind are judged (:func:`check_violations_agree`), and some after its end."""
    rand = rng.random
    while not h.over:
        for candidate in _candidates(h, rng):
            check_violations_agree(h, *candidate)
        seat = h.to_act
        moves = h.legal_placements()
        if h.may_end_turn() and rand() < 0.3:
            h.end_turn(seat)
        elif moves:
            h.place(seat, *moves[int(rand() * len(moves))])
        elif h.must_draw():
            h.draw(seat)
        else:
            h.pass_turn(seat)
    for candidate in _candidates(h, rng):
        check_violations_agree(h, *candidate)
    return h
