"""Every condition of the order of checks on an action (spec/rules.md, "Order of checks for
illegal actions"): :meth:`Hand.violations` and :meth:`Hand.broken_conditions`, read-only,
in that order, with the conditions implied by an earlier one marked.  Each position is
the documents' worked layout P1 (scenarios/rule-text/illegal.yaml) unless it says
otherwise: [1|4] opening, [1|1] on its low end, [4|4] on its high end, [3|4] on [4|4]
linear-b; free ends [1|1] linear-b (1), [3|4] low (3), [4|4] branch-a / branch-b (4), a
count of 5.  Every expected tuple is worked by hand in a comment, and the first rule of
each is the one the action itself raises (:func:`refused_as`)."""

from __future__ import annotations

import pytest

from horserace.engine.layout import BRANCH_A, BRANCH_B, LINEAR_B, PORT_HIGH, PORT_LOW, Layout, parse_port
from horserace.engine.ruleset import Ruleset
from horserace.errors import IllegalAction
from tests.helpers import T, act, hand, place
from tests.property.invariants import state_of

OPTIONAL = Ruleset.from_readings(continuation="optional")


def p1(seats: list[str], boneyard: str = "", opener: int = 0, **kw):
    h = hand(seats, boneyard, opener, **kw)
    for step in [("[1|4]",), ("[1|1]", "[1|4]", "low"), ("[4|4]", "[1|4]", "high"), ("[3|4]", "[4|4]", "linear-b")]:
        place(h.layout, *step)
    return h


def args(tile: str | None = None, target: str | None = None, port: str | None = None):
    return (
        None if tile is None else T(tile),
        None if target is None else T(target),
        None if port is None else parse_port(port),
    )


def refused_as(h, seat: int, kind: str, *action: str | None) -> tuple[str, ...]:
    """The rules of the action's broken conditions; the action itself, made, is refused
    under the first of them and changes nothing."""
    rules = h.violations(seat, kind, *args(*action))
    before = state_of(h)
    method = {"place": h.place, "draw": h.draw, "pass": h.pass_turn, "end-turn": h.end_turn}[kind]
    with pytest.raises(IllegalAction) as refusal:
        method(seat, *args(*action)) if kind == "place" else method(seat)
    assert refusal.value.rule == rules[0]
    assert state_of(h) == before
    return rules


def test_a_legal_action_breaks_nothing_and_nothing_is_done():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"], "[0|1]")
    before = state_of(h)
    assert h.violations(0, "place", *args("[2|3]", "[3|4]", "low")) == ()  # 3 on 3
    assert state_of(h) == before


def test_the_kinds_of_a_seat_that_holds_a_placement():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"], "[0|1]")
    assert refused_as(h, 0, "draw") == ("HR-DRAW-1",)  # [2|3] plays on [3|4] low
    # A pass breaks both halves of HR-PASS-1: a legal placement held, a tile left to draw.
    assert refused_as(h, 0, "pass") == ("HR-PASS-1", "HR-PASS-1")
    assert refused_as(h, 0, "end-turn") == ("HR-DRAW-1",)  # no continuation; compulsory anyway


def test_every_condition_of_a_placement_in_the_order_of_checks():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"], "[0|1]")
    # [5|6] is seat 1's (HR-PLACE-3); [1|1] still has linear-b free, so its branches are
    # closed (HR-SPIN-2); branch-a is free, and shows 1, a half of neither (HR-PLACE-1).
    assert refused_as(h, 0, "place", "[5|6]", "[1|1]", "branch-a") == ("HR-PLACE-3", "HR-SPIN-2", "HR-PLACE-1")
    # [0|0] on [1|4] low: occupied, and 1 is no half of [0|0]: HR-PLACE-1 twice.
    assert refused_as(h, 0, "place", "[0|0]", "[1|4]", "low") == ("HR-PLACE-1", "HR-PLACE-1")
    # A target that is not on the layout names no point: nothing about the point is judged.
    assert refused_as(h, 0, "place", "[5|6]", "[2|2]", "linear-a") == ("HR-PLACE-3", "HR-MOVE-1")
    assert refused_as(h, 0, "place", "[0|0]") == ("HR-MOVE-1",)  # no target after the opening


def test_the_seat():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"], "[0|1]")
    # Seat 1 is not to act (HR-SEAT-3) and its [5|6] shows no 3 for [3|4] low (HR-PLACE-1),
    # judged as at the start of a turn of its own.
    assert refused_as(h, 1, "place", "[5|6]", "[3|4]", "low") == ("HR-SEAT-3", "HR-PLACE-1")
    assert refused_as(h, 1, "draw") == ("HR-SEAT-3",)  # seat 1 holds no 1, 3 or 4: its draw is otherwise fine
    # A seat that does not exist holds nothing: nothing more is judged.
    assert refused_as(h, 7, "place", "[5|6]", "[3|4]", "low") == ("HR-SEAT-3",)
    # Only the seat to act holds a continuation: the end of turn's condition is implied.
    (seat, end_turn) = h.broken_conditions(1, "end-turn")
    assert (seat.rule, end_turn.rule, end_turn.implied_by) == ("HR-SEAT-3", "HR-DRAW-1", "HR-SEAT-3")


def test_a_turn_ended_by_a_tile_that_did_not_score():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"], "[0|1]")
    act(h, 0, "[2|3]", "[3|4]", "low")  # [1|1] 2 + [2|3] low 2 = 4: the turn ends
    # Seat 0 holds [0|0] (no 1, 2 or 4): its draw would be legal in a turn of its own.
    assert refused_as(h, 0, "draw") == ("HR-TURN-1",)
    rules = [(v.rule, v.implied_by) for v in h.broken_conditions(0, "end-turn")]
    assert rules == [("HR-TURN-1", None), ("HR-DRAW-1", "HR-TURN-1")]


def test_a_drawn_tile_pending_and_the_turn_it_ends():
    h = p1(["[0|0]", "[6|6] [5|6]"], "[3|6] [2|2]")
    h.draw(0)  # [3|6] plays on [3|4] low: pending
    draw = h.broken_conditions(0, "draw")
    assert [(v.rule, v.implied_by) for v in draw] == [("HR-DRAW-2", None), ("HR-DRAW-1", "HR-DRAW-2")]
    refused_as(h, 0, "draw")
    # [0|0] in its stead: not the drawn tile, and it misses [3|4] low, as every tile of the
    # hand held before the draw must.
    other = h.broken_conditions(0, "place", *args("[0|0]", "[3|4]", "low"))
    assert [(v.rule, v.implied_by) for v in other] == [("HR-DRAW-3", None), ("HR-PLACE-1", "HR-DRAW-3")]
    refused_as(h, 0, "place", "[0|0]", "[3|4]", "low")
    assert refused_as(h, 0, "pass") == ("HR-PASS-1", "HR-PASS-1")  # [2|2] is left to draw
    assert refused_as(h, 1, "draw") == ("HR-SEAT-3",)  # the pending tile is seat 0's, not seat 1's
    act(h, 0, "[3|6]", "[3|4]", "low")  # 2 + 6 = 8; a drawn tile ends the turn anyway
    assert refused_as(h, 0, "place", "[0|0]", "[1|1]", "linear-b") == ("HR-TURN-3", "HR-PLACE-1")


def test_the_boneyard():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"])
    assert refused_as(h, 0, "draw") == ("HR-DRAW-1", "HR-DRAW-4")  # a placement held, nothing to draw
    assert refused_as(h, 0, "pass") == ("HR-PASS-1",)  # the boneyard is empty: one half only
    stuck = p1(["[0|0]", "[2|3] [5|6]"])  # seat 0 holds no 1, 3 or 4; seat 1 can place
    assert refused_as(stuck, 0, "draw") == ("HR-DRAW-4",)
    assert stuck.violations(0, "pass") == ()


def test_an_end_of_turn_under_the_optional_continuation():
    h = p1(["[3|3] [0|0]", "[6|6] [5|6]"], "[2|5] [1|5]", ruleset=OPTIONAL)
    act(h, 0, "[3|3]", "[3|4]", "low")  # a double: a continuation
    # [0|0] fits nowhere: given up only instead of a placement, so it must draw (HRI-2)
    assert refused_as(h, 0, "end-turn") == ("HR-DRAW-2",)
    held = p1(["[3|3] [1|5]", "[6|6] [5|6]"], "[2|5] [0|0]", ruleset=OPTIONAL)
    act(held, 0, "[3|3]", "[3|4]", "low")
    assert held.violations(0, "end-turn") == ()  # [1|5] fits [1|1]: it may be given up
    h.draw(0)  # [2|5]: no 1, 3 or 4, kept
    assert refused_as(h, 0, "end-turn") == ("HR-DRAW-1",)  # drawn in: no longer given up (HRI-2)


def test_a_hand_that_is_over_is_judged_as_the_turn_would_stand_without_its_end():
    # Scores [60, 0]: [1|2] on [1|1] linear-b counts 0 + 2 + 3 = 5, 1 point: 61, the match
    # is over.  Had it gone on, the scoring tile would have continued: seat 0 to act.
    h = p1(["[1|2] [2|5]", "[6|6] [2|3]"], "[0|1]", scores=[60, 0])
    act(h, 0, "[1|2]", "[1|1]", "linear-b")
    assert h.match_over
    (match, hand_over, seat) = h.broken_conditions(1, "place", *args("[2|3]", "[3|4]", "low"))
    assert (match.rule, hand_over.rule, hand_over.implied_by) == ("HR-MATCH-3", "HR-END-3", "HR-MATCH-3")
    assert (seat.rule, seat.condition) == ("HR-SEAT-3", "it is seat 0's turn (had the hand gone on), not seat 1's")
    assert refused_as(h, 0, "place", "[2|5]", "[1|2]", "high") == ("HR-MATCH-3", "HR-END-3")
    assert h.turn_had_it_gone_on() == (0, None, True, False)


def test_after_a_domino_that_did_not_score_the_next_seat_would_act():
    # [1|5] on [1|1] linear-b: 0 + 5 + 3 = 8, no credit, a non-double: the turn would pass.
    h = p1(["[1|5]", "[2|3] [0|0]"], "[0|1]")
    act(h, 0, "[1|5]", "[1|1]", "linear-b")
    assert h.over and h.turn_had_it_gone_on() == (1, (0, "HR-TURN-1"), False, False)
    assert refused_as(h, 1, "place", "[2|3]", "[3|4]", "low") == ("HR-END-3",)
    assert refused_as(h, 0, "draw") == ("HR-END-3", "HR-TURN-1")


def test_without_recorded_events_the_turn_after_the_end_is_not_known():
    h = p1(["[1|5]", "[2|3] [0|0]"], "[0|1]")
    h.record = False
    act(h, 0, "[1|5]", "[1|1]", "linear-b")
    assert h.turn_had_it_gone_on() is None
    assert h.violations(0, "draw") == ("HR-END-3",)  # the seat is not judged
    (_, end_turn) = h.broken_conditions(1, "end-turn")
    assert end_turn.implied_by == "HR-END-3"


def test_kinds_and_arguments():
    h = p1(["[2|3] [0|0]", "[6|6] [5|6]"])
    with pytest.raises(ValueError, match="not an action"):
        h.violations(0, "jump")
    with pytest.raises(ValueError, match="names its tile"):
        h.violations(0, "place")


def test_the_layout_judges_each_condition_of_a_move():
    # A lone opening [2|2]: linear-b is the mirror of a free linear-a; the branches are
    # closed until both linear sides are filled.
    layout = Layout()
    place(layout, "[2|2]")
    assert layout.move_violations(T("[2|3]"), T("[2|2]"), LINEAR_B) == []
    assert [r for r, _ in layout.move_violations(T("[2|3]"), T("[2|2]"), BRANCH_B)] == ["HR-SPIN-2"]
    assert [r for r, _ in layout.move_violations(T("[3|5]"), T("[2|2]"), BRANCH_B)] == ["HR-SPIN-2", "HR-PLACE-1"]
    assert [r for r, _ in layout.move_violations(T("[2|3]"), T("[2|2]"), PORT_HIGH)] == ["HR-MOVE-1"]
    # Under branch_use=one, a free second branch of a spinner whose first is started.
    one = Layout(branch_use_one=True)
    for step in [
        ("[3|3]",),
        ("[3|5]", "[3|3]", "linear-a"),
        ("[3|4]", "[3|3]", "linear-b"),
        ("[3|6]", "[3|3]", "branch-a"),
    ]:
        place(one, *step)
    assert [r for r, _ in one.move_violations(T("[0|3]"), T("[3|3]"), BRANCH_B)] == ["HR-SPIN-3"]
    assert [r for r, _ in one.move_violations(T("[0|1]"), T("[3|3]"), BRANCH_B)] == ["HR-SPIN-3", "HR-PLACE-1"]
    assert [r for r, _ in one.move_violations(T("[0|3]"), T("[3|3]"), BRANCH_A)] == ["HR-PLACE-1"]  # occupied
    # The first refusal of normalise is the first condition listed.
    for t, target, port in [("[0|3]", "[3|3]", BRANCH_B), ("[0|1]", "[3|5]", PORT_LOW), ("[0|3]", "[3|3]", BRANCH_A)]:
        with pytest.raises(IllegalAction) as refusal:
            one.normalise(T(t), T(target), port)
        assert refusal.value.rule == one.move_violations(T(t), T(target), port)[0][0]
