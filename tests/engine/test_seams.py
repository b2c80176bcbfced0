"""The seams of ``Hand`` and ``Layout`` that the house rules of the Fives family use
(``Hand``'s docstring, "Seams"): each, set in a subclass, changes its one rule and
nothing else, and the reference engine plays the rule as spec/rules.md says.  Each test
sets the seam and contrasts it with the reference engine on the same position, so a seam
that the engine ignores fails it."""

from __future__ import annotations

import pytest

from horserace.engine.hand import Hand
from horserace.engine.layout import CREDIT, POINTS, Layout
from horserace.engine.perft import DRAW, decisions, divide
from horserace.engine.ruleset import CANONICAL
from horserace.engine.tiles import IS_DOUBLE, pips_of
from horserace.errors import IllegalAction
from tests.helpers import T, act, tiles, trace


def engine(**seams: object) -> type[Hand]:
    return type("WithSeams", (Hand,), {"__slots__": (), **seams})


#: Seat 0 holds no 1 and no 5; seat 1 opens [5|5] and places [1|5] on it.
SEATS = ["[0|2] [2|3]", "[5|5] [1|5] [4|4] [1|6]"]
#: The boneyard, in draw order: [0|0] and [2|2] do not play then, [2|5] does.
BONEYARD = "[0|0] [2|2] [2|5] [6|6]"


def position(cls: type[Hand] = Hand, boneyard: str = BONEYARD) -> Hand:
    """Seat 1 opens [5|5] (10: scores, a double: continues) and places [1|5] on it
    ([5|5] 10 + [1|5] low 1 = 11: the turn ends); seat 0 to act, holding no 1 or 5."""
    h = cls([tiles(s) for s in SEATS], tiles(boneyard), 1, fresh_deal=False, validate=False, undoable=True)
    act(h, 1, "[5|5]")
    act(h, 1, "[1|5]", "[5|5]", "linear-a")
    return h


def test_the_position():
    h = position()
    assert h.to_act == 0 and not h.can_place(0) and h.boneyard_left == 4


# ---------------------------------------------------------------------- HR-DEAL-2
def test_undrawable_tiles_stay_in_the_boneyard():
    keeps_two = engine(undrawable=2)
    h, ref = position(keeps_two), position()
    assert (h.boneyard_left, ref.boneyard_left) == (2, 4)
    h.play_forced()
    ref.play_forced()
    assert trace(h)[-3:] == ["0 draw [0|0]", "0 draw [2|2]", "0 pass"]  # then the boneyard is "empty"
    assert h.to_act == 1 and h.boneyard_left == 0  # [2|5] is never drawn: seat 0 passes
    assert trace(ref)[-1] == "0 draw [2|5]" and ref.pending_drawn == T("[2|5]")
    with pytest.raises(IllegalAction) as refused:
        position(engine(undrawable=4)).draw(0)
    assert refused.value.rule == "HR-DRAW-4"


def test_undrawable_tiles_never_make_a_boneyard_below_empty():
    h = engine(undrawable=9)([[T("[0|1]")], [T("[1|5]")]], [T("[0|0]")], 0, fresh_deal=False, validate=False)
    assert h.boneyard_left == 0


# ---------------------------------------------------------------------- HR-DRAW-2
def test_one_draw_a_turn_then_a_pass():
    h, ref = position(engine(draw_until_playable=False)), position()
    assert h.draw(0) == T("[0|0]") and h.to_act == 1  # it did not play: the turn is over
    assert trace(h)[-2:] == ["0 draw [0|0]", "0 pass"]
    assert ref.draw(0) == T("[0|0]") and ref.to_act == 0 and trace(ref)[-1] == "0 draw [0|0]"
    with pytest.raises(IllegalAction) as refused:
        h.draw(0)
    assert refused.value.rule == "HR-SEAT-3"
    h.undo()  # the draw and its pass are one action
    assert h.to_act == 0 and h.boneyard_left == 4 and trace(h)[-1] == "1 place [1|5] [5|5] linear-a =11/0"


def test_a_draw_that_plays_is_placed_as_before():
    h = position(engine(draw_until_playable=False), boneyard="[2|5] [0|0]")
    assert h.draw(0) == T("[2|5]") and h.pending_drawn == T("[2|5]") and h.to_act == 0


def test_the_last_draw_passes_as_any_pass():
    """A draw that empties the boneyard and does not play: the pass that follows is an
    ordinary one, counted for a round of passes (HRI-5 variant), as the reference
    engine's pass after that draw is."""
    round_of_passes = CANONICAL.with_variant("block_detection", "round-of-passes")
    one_draw = engine(draw_until_playable=False)
    h, ref = (
        cls([tiles(s) for s in SEATS], tiles("[0|0]"), 1, fresh_deal=False, validate=False, ruleset=round_of_passes)
        for cls in (one_draw, Hand)
    )
    for x in (h, ref):
        act(x, 1, "[5|5]")
        act(x, 1, "[1|5]", "[5|5]", "linear-a")
        x.draw(0)
    assert (h._passes, h.to_act) == (1, 1)
    ref.pass_turn(0)
    assert (ref._passes, ref.to_act) == (1, 1) and trace(ref) == trace(h)


# ---------------------------------------------------------------------- HR-DRAW-1
def test_a_draw_by_choice():
    free = engine(play_before_drawing=False)
    h, ref = position(free), position()
    h.hands[0] |= 1 << T("[5|6]")  # seat 0 now holds a tile that plays
    ref.hands[0] |= 1 << T("[5|6]")
    assert h.can_place(0) and h.may_draw() and not ref.may_draw()
    assert DRAW in decisions(h) and DRAW not in decisions(ref)
    with pytest.raises(IllegalAction) as refused:
        ref.draw(0)
    assert refused.value.rule == "HR-DRAW-1"
    assert h.draw(0) == T("[0|0]") and h.to_act == 0 and h.may_draw()  # still its turn, still a choice
    assert dict(divide(h, 1))[DRAW] == 1


def test_a_draw_is_no_choice_without_a_placement_in_hand():
    h = position(engine(play_before_drawing=False))
    assert not h.can_place(0) and not h.may_draw()  # the draw is forced: play_forced makes it


# ---------------------------------------------------------------------- HR-SET-2
def test_the_pips_of_a_hand_at_its_end():
    halves = engine(pip_count=staticmethod(lambda mask: pips_of(mask) - sum(1 for t in range(28) if mask >> t & 1)))
    for cls, left in ((Hand, 2 + 4 + 8), (halves, 2 + 4 + 8 - 3)):
        h = cls([[T("[1|5]")], [T("[0|2]"), T("[1|3]"), T("[4|4]")]], [], 0, fresh_deal=False, validate=False)
        h.layout.place(T("[5|5]"), None, None)
        h.place(0, T("[1|5]"), T("[5|5]"), 2)
        (end,) = [e for e in h.events if type(e).__name__ == "HandEnd"]
        assert end.pips == (0, left)


# ---------------------------------------------------------------------- HR-CREDIT-1, HR-CREDIT-2
class _ThreesScoreToo(Layout):
    __slots__ = ()
    credit_raw_table = tuple(10 if c and c % 3 == 0 else raw for c, raw in enumerate(CREDIT))
    credit_table = tuple(2 if c and c % 3 == 0 else points for c, points in enumerate(POINTS))


def test_the_credit_of_a_count_is_the_layouts():
    threes = engine(layout_class=_ThreesScoreToo)
    for cls, credit in ((Hand, (0, 0)), (threes, (10, 2))):
        h = cls([[T("[1|2]"), T("[0|0]")], [T("[2|4]")]], [], 0, fresh_deal=False, validate=False)
        event = h.place(0, T("[1|2]"))  # count 3
        assert (event.credit_raw, event.credit) == credit and h.scores[0] == credit[1]
        assert h.to_act == (0 if credit[0] else 1)  # a score continues the turn


def test_the_plain_loop_reads_the_layouts_credit_too():
    threes = engine(layout_class=_ThreesScoreToo)
    h = threes([[T("[1|2]"), T("[6|6]")], [T("[2|4]"), T("[0|0]")]], [], 0, fresh_deal=False, validate=False)
    h.run(lambda moves: moves[0])  # [1|2] opens (3): scores 2
    assert trace(h)[0] == "0 place [1|2] =3/2+"


# ---------------------------------------------------------------------- HR-OPEN-3
def test_the_opener_is_kept_for_the_next_opener():
    left = engine(next_opener_after=lambda self, reason, seat: (self.opener + 1) % self.seats)
    for cls, opens in ((Hand, 2), (left, 0)):
        h = cls([[T("[0|2]")], [T("[0|3]")], [T("[1|5]")]], [], 2, fresh_deal=False, validate=False)
        assert h.opener == 2
        h.layout.place(T("[5|5]"), None, None)
        h.place(2, T("[1|5]"), T("[5|5]"), 2)  # seat 2 places its last tile: a domino
        assert h.reason is not None and h.next_opener == opens  # the winner (HR-OPEN-3), or 2 + 1 mod 3


def test_the_reference_engine_keeps_its_rules():
    assert (Hand.undrawable, Hand.draw_until_playable, Hand.play_before_drawing) == (0, True, True)
    assert Hand.pip_count is pips_of and Layout.credit_raw_table is CREDIT and Layout.credit_table is POINTS
    assert all(POINTS[c] * 5 == CREDIT[c] for c in range(len(CREDIT)))
    assert Hand._class_seams == (CREDIT, POINTS, 0, False)  # what a hand reads when it is made
    assert engine(undrawable=2, layout_class=_ThreesScoreToo)._class_seams[1:3] == (_ThreesScoreToo.credit_table, 2)
    assert not IS_DOUBLE[T("[1|5]")]
