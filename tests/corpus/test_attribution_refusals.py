"""The cause of a legal action refused (:func:`horserace.corpus.attribution.refusal_cause`),
where the fuzzer needed more than the map had: a draw or a pass refused to the seat that
holds a continuation is the continuation's rule (the implementation ended the turn), not
the draw's; an input refused as a whole, no action named, says little (not firm), and
for a match of several hands points at the openers of its later deals (HR-OPEN-3).

The positions are the fuzzer's own scenarios (:mod:`horserace.corpus.generate`), the
refusal given by the index an implementation would name."""

from __future__ import annotations

from horserace.corpus.attribution import cause_of
from horserace.corpus.compare import Difference
from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import GENERATORS
from horserace.engine.ruleset import CANONICAL
from horserace.engine.seating import SEATINGS


def scenario(kind: str, seed: int) -> Fixture:
    return Fixture.observed(GENERATORS[kind](seed, SEATINGS[seed % len(SEATINGS)], CANONICAL), "(test)", 0)


def refused_too_early(fx: Fixture, at: int):
    """The cause of an illegal fixture whose legal action ``at`` was refused."""
    return cause_of(fx, "fail", [Difference(("rejected_at",), fx.expected["rejected_at"], at)])


def test_a_draw_refused_in_the_opening_tiles_continuation_is_the_opening_rule():
    fx = scenario("illegal", 0)
    assert (
        fx.input["actions"][1]["action"] == "draw" and fx.input["actions"][1]["seat"] == fx.input["actions"][0]["seat"]
    )
    cause = refused_too_early(fx, 1)
    assert cause is not None and cause.rule == "HR-OPEN-2"  # it was HR-DRAW-2: "a draw with no legal placement"
    assert "a draw in the continuation" in cause.basis and not cause.firm and "HR-TURN-1" in cause.alternatives


def test_a_draw_refused_in_a_later_continuation_is_the_continuation_rule():
    fx = scenario("illegal", 14)
    assert fx.input["actions"][9]["action"] == "draw"
    cause = refused_too_early(fx, 9)
    assert cause is not None and cause.rule == "HR-TURN-1"
    assert "a double or a scoring tile" in cause.basis and not cause.firm


def test_a_draw_refused_out_of_any_continuation_is_still_the_draw_rule():
    fx = scenario("illegal", 4)
    assert (
        fx.input["actions"][7]["action"] == "draw" and fx.input["actions"][6]["seat"] != fx.input["actions"][7]["seat"]
    )
    cause = refused_too_early(fx, 7)  # the first action of a turn
    assert cause is not None and cause.rule == "HR-DRAW-2"


def test_an_input_refused_as_a_whole_says_little():
    match = scenario("match", 0)
    assert len(match.input["hands"]) > 1
    cause = cause_of(match, "rejected", [], refused_at=None)
    assert cause is not None and cause.rule == "HR-OPEN-3" and not cause.firm  # it was HR-MATCH-1, firm
    assert cause.basis.startswith("the input was refused, no action named")
    hand = scenario("hand", 0)
    cause = cause_of(hand, "rejected", [], refused_at=None)
    assert cause is not None and cause.rule == hand.primary_rule and not cause.firm
