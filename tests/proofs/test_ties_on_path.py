"""Every proof's tie compares the model with the code the engine runs.

A tie (:mod:`horserace.verify.ties`) checks the model against engine code it takes as
its defaults: functions (``hand_credit``, ``round_to_five``), a table (``CREDIT``) and
an engine class (``Hand``, whose ``settle`` and layout it calls).  The proof speaks for
the engine only if that code is what a hand runs.  Here random hands of every seating,
ended by a last tile, by a block and by a placement reaching the target, are played to
their settlement with every Python function the engine calls recorded
(``sys.setprofile``); every function a tie defaults to must be among them, every table
it defaults to must be the table the hands read, and its engine must be the engine
played, whose ``settle`` ran.  A rule computed inline beside the function its proof is
tied to fails here.
"""

from __future__ import annotations

import inspect
import random
import sys
from collections.abc import Sequence
from types import FunctionType

import pytest

from horserace.engine import SEATINGS, Hand, deal
from horserace.engine.events import HandEndReason
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import Ruleset
from horserace.verify import ties

pytestmark = pytest.mark.proof

#: The ties: every public function of horserace.verify.ties that takes engine code.
TIES = [getattr(ties, name) for name in ties.__all__ if inspect.isfunction(getattr(ties, name))]


def played() -> tuple[set, list[Hand]]:
    """The code objects run while random hands are played to their end, and the hands."""
    ran: set = set()

    def profile(frame, event, arg):
        if event == "call":
            ran.add(frame.f_code)

    rng = random.Random(23)
    hands = []
    sys.setprofile(profile)
    try:
        for ruleset in (Ruleset(), Ruleset(target=11)):
            for seating in SEATINGS:
                for _ in range(40):
                    tiles, boneyard = deal(rng, seating.players)
                    hand = Hand(tiles, boneyard, 0, partnership=seating.partnership, ruleset=ruleset)
                    hands.append(play_random_hand(hand, rng))
    finally:
        sys.setprofile(None)
    return ran, hands


@pytest.fixture(scope="module")
def engine_run() -> tuple[set, list[Hand]]:
    return played()


def engine_defaults(tie) -> dict[str, object]:
    """The keyword defaults of ``tie`` that are engine code: functions, tables, engines."""
    out: dict[str, object] = {}
    for name, parameter in inspect.signature(tie).parameters.items():
        value = parameter.default
        if (
            (isinstance(value, FunctionType) and value.__module__.startswith("horserace.engine"))
            or (isinstance(value, type) and issubclass(value, Hand))
            or (isinstance(value, Sequence) and not isinstance(value, str) and name == "table")
        ):
            out[name] = value
    return out


def test_the_hands_end_every_way(engine_run):
    """The play reaches every settlement a tie speaks of: counts, not times."""
    _, hands = engine_run
    reasons = {hand.reason for hand in hands}
    assert {HandEndReason.DOMINO, HandEndReason.BLOCKED, HandEndReason.MATCH} <= reasons
    assert any(hand.settlement and any(hand.settlement.credits) for hand in hands)


def test_every_tie_takes_engine_code():
    assert len(TIES) >= 5
    assert all(engine_defaults(tie) for tie in TIES if tie.__name__ != "check_layout_spinners")


@pytest.mark.parametrize("tie", TIES, ids=lambda t: t.__name__)
def test_a_ties_target_is_on_the_engines_path(tie, engine_run):
    ran, hands = engine_run
    off_path = []
    for name, value in engine_defaults(tie).items():
        if isinstance(value, FunctionType):
            if value.__code__ not in ran:
                off_path.append(f"{name}={value.__module__}.{value.__qualname__} is never called by a hand")
        elif isinstance(value, type):
            if value is not Hand:
                off_path.append(f"{name}={value.__name__} is not the engine played")
            elif value.settle.__code__ not in ran:
                off_path.append(f"{name}.settle is never called by a hand")
            elif value.layout_class is not type(hands[0].layout):
                off_path.append(f"{name}.layout_class is not the layout the hands place on")
        elif not any(value is table for hand in hands[:1] for table in (hand._credit_raw, hand._credit)):
            off_path.append(f"{name} is not a table the hands read")
    assert off_path == [], f"{tie.__name__}: " + "; ".join(off_path)


def test_the_check_sees_a_rule_written_beside_its_function(monkeypatch):
    """Not blind: with the settlement's credit written out again (as it once was), the
    rounding tie's ``hand_credit`` is off the engine's path."""
    from horserace.engine import settlement

    def settle_inline(pips_by_seat, *, partnership, domino_seat, scores, target):
        totals = settlement.side_totals(pips_by_seat, partnership)
        winners = (domino_seat % 2 if partnership else domino_seat,) if domino_seat is not None else ()
        if domino_seat is None:
            low = min(totals)
            winners = tuple(s for s, t in enumerate(totals) if t == low)
        credits = [(sum(totals) - totals[s] + 2) // 5 if s in winners else 0 for s in range(len(totals))]
        after = tuple(a + c for a, c in zip(scores, credits, strict=True))
        return settlement.Settlement(
            winners, tuple(credits), after, tuple(s for s, a in enumerate(after) if a >= target)
        )

    monkeypatch.setattr(Hand, "settle", staticmethod(settle_inline))
    ran, _ = played()
    assert settlement.hand_credit.__code__ not in ran
    assert settlement.round_to_five.__code__ not in ran
