"""``Hand.run`` (random play, fuzzing's scenarios, ``diff --play``, the benchmarks) plays
through the code that replay runs: each of its placements is made by ``Hand._place``,
the placement of ``Hand.place`` and ``Hand.make``, under every reading and named
deviation; there is no second copy of the placement written out for speed.  And a hand
played by ``run`` is replayed, action by action, through the public actions (``place``,
``draw``, ``pass_turn``, ``end_turn``: what ``horserace replay`` and the conformance
server call) to the same events and the same end, for every seating, every reading of
the register and every named deviation."""

from __future__ import annotations

import random

import pytest

from horserace.engine import SEATINGS, Hand, deal
from horserace.engine.events import Draw, EndTurn, Pass, Place
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.quality.mutants import MUTANTS

HANDS = 60

#: Every reading of the register, one at a time, and a low target (placements end matches).
READINGS = [CANONICAL, Ruleset(target=11)]
READINGS += [CANONICAL.with_variant(f, r) for f, readings in VARIANT_FIELDS.items() for r in readings[1:]]


def end_state(hand: Hand) -> tuple:
    """What a hand leaves behind: its events and every public field of its end."""
    layout = hand.layout
    return (
        list(hand.events),
        list(hand.scores),
        hand.hands[:],
        hand.over,
        hand.match_over,
        hand.reason,
        hand.settlement,
        hand.next_opener,
        hand.match_winners,
        layout.order[:],
        layout.count,
        layout.open_mask,
        layout.connections(),
    )


def hands_of(engine: type[Hand], seating, ruleset: Ruleset, seed: int):
    """``HANDS`` seeded random hands of ``engine``, each played by ``run`` (scores drawn
    at random too, so that placements reach the target), with what made each."""
    rng = random.Random(seed)
    for _ in range(HANDS):
        tiles, boneyard = deal(rng, seating.players)
        scores = [rng.randrange(min(ruleset.target, 61)) for _ in range(seating.sides)]
        opener = rng.randrange(seating.players)
        made = (tiles, boneyard, opener, seating.partnership, scores)
        hand = engine(tiles, boneyard, opener, partnership=seating.partnership, scores=scores, ruleset=ruleset)
        yield made, play_random_hand(hand, random.Random(rng.random()))


def replayed(engine: type[Hand], made, ruleset: Ruleset, events) -> Hand:
    """The hand made as ``made``, its actions in ``events`` made through the public
    actions: the next event the hand has not made itself is the next action (what the
    engine records on its own, a pass after a draw under ``draw_until_playable`` false,
    the end of a hand, is made by the action before it)."""
    tiles, boneyard, opener, partnership, scores = made
    hand = engine(tiles, boneyard, opener, partnership=partnership, scores=scores, ruleset=ruleset)
    while not hand.over and len(hand.events) < len(events):
        event = events[len(hand.events)]
        if isinstance(event, Place):
            hand.place(event.seat, event.tile, event.target, event.port)
        elif isinstance(event, Draw):
            hand.draw(event.seat)
        elif isinstance(event, Pass):
            hand.pass_turn(event.seat)
        elif isinstance(event, EndTurn):
            hand.end_turn(event.seat)
        else:
            raise AssertionError(f"{event} is not an action")  # noqa: TRY004  (the test's own failure)
    return hand


def first_difference(engine: type[Hand], seating, ruleset: Ruleset, seed: int) -> str | None:
    for i, (made, played) in enumerate(hands_of(engine, seating, ruleset, seed)):
        again = replayed(engine, made, ruleset, played.events)
        if end_state(again) != end_state(played):
            return f"hand {i} of seed {seed}: run {end_state(played)} != replayed {end_state(again)}"
    return None


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
@pytest.mark.parametrize("ruleset", READINGS, ids=lambda r: str(r.variants or "canonical") + f"-{r.target}")
def test_run_plays_what_the_actions_replay(seating, ruleset):
    assert first_difference(Hand, seating, ruleset, seed=7) is None


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_run_plays_what_the_actions_replay_for_each_deviation(name):
    engine = MUTANTS[name].engine
    ruleset = CANONICAL
    for field, reading in getattr(engine, "forced_readings", {}).items():
        ruleset = ruleset.with_variant(field, reading)
    for seating in SEATINGS:
        assert first_difference(engine, seating, ruleset, seed=11) is None


def placements_through_place(engine: type[Hand], ruleset: Ruleset, monkeypatch) -> tuple[int, int]:
    """Random hands of ``engine`` played by ``run``, ``Hand._place`` counting its calls:
    (placements in the hands' events, calls of ``_place``)."""
    calls = []
    placement = Hand._place

    def counted(self, seat, tile, target, port):
        calls.append(tile)
        return placement(self, seat, tile, target, port)

    monkeypatch.setattr(Hand, "_place", counted)
    placed = 0
    for seating in SEATINGS:
        for _, hand in hands_of(engine, seating, ruleset, seed=3):
            placed += sum(isinstance(e, Place) for e in hand.events)
    return placed, len(calls)


@pytest.mark.parametrize("ruleset", READINGS, ids=lambda r: str(r.variants or "canonical") + f"-{r.target}")
def test_every_placement_of_run_is_made_by_the_replayed_placement(ruleset, monkeypatch):
    """One placement code: each placement random play makes goes through ``_place``,
    under the canonical rules as under every reading."""
    placed, calls = placements_through_place(Hand, ruleset, monkeypatch)
    assert placed > 1000
    assert calls == placed


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_every_placement_of_a_deviation_is_made_by_the_replayed_placement(name, monkeypatch):
    placed, calls = placements_through_place(MUTANTS[name].engine, CANONICAL, monkeypatch)
    assert placed > 0
    assert calls == placed


def test_there_is_one_run_loop():
    """No second loop for the canonical rules is kept beside ``run``."""
    assert not [name for name in vars(Hand) if name.startswith("_run")]


class _ForgetsTheDrawnTile(Hand):
    """HR-TURN-3 lost in random play only: a drawn tile that scores continues the turn."""

    __slots__ = ()

    def run(self, choose, give_up=None):
        def pick(moves):
            move = choose(moves)
            self._exempt = -1
            return move

        Hand.run(self, pick, give_up)


def test_the_replay_catches_a_run_that_plays_otherwise():
    """The comparison is not blind: random play that forgets the drawn-tile exception
    (HR-TURN-3) makes a hand that the public actions do not replay to the same end."""
    assert first_difference(_ForgetsTheDrawnTile, SEATINGS[0], CANONICAL, seed=7) is not None
