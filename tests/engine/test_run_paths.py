"""``Hand.run`` has two loops: ``_run_plain``, the benchmark's hot path, with the
placement written out, for hands under the canonical turn rules, and ``_run_each``, each
placement through ``Hand._place``, under any rules.  They must play the same games: the
same seed gives the same events and the same end state through either loop, for every
seating, every reading of the register the plain loop takes (HRI-5, HRI-10 and the
target) and every named deviation of the engine whose rules it takes (the mutants and
the house rules: their layouts, credit tables, draws, settlements and openers); and
``run`` sends a hand under any other reading, or under a deviation of the turn rules the
plain loop does not follow (an overridden continuation), to the general loop."""

from __future__ import annotations

import random

import pytest

from horserace.engine import SEATINGS, Hand, deal
from horserace.engine.events import Place
from horserace.engine.layout import CREDIT, POINTS
from horserace.engine.playout import play_random_hand
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS, Ruleset
from horserace.quality.mutants import MUTANTS

HANDS = 150

#: The readings under which ``run`` takes the plain loop: the turn rules canonical.
PLAIN_READINGS = [CANONICAL, CANONICAL.with_variant("block_detection", "round-of-passes")]
PLAIN_READINGS += [CANONICAL.with_variant("branch_use", "one"), Ruleset(target=11)]


def state(hand: Hand) -> tuple:
    """Everything a game leaves behind: its events and every field of the hand's end."""
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
        hand.to_act,
        hand._next_draw,
        hand._passes,
        hand._last_ended,
        hand._pending,
        hand._continuing,
        hand._drew,
        hand._exempt,
        hand._drawn_mask,
        layout.order[:],
        layout.count,
        layout.open_mask,
        layout.contributions(),
        layout.attachment_points(),
        layout.connections(),
    )


def first_difference(engine: type[Hand], seating, ruleset: Ruleset, seed: int) -> str | None:
    """Play ``HANDS`` seeded hands twice, through ``run`` and through ``_run_each``
    (scores drawn at random too, so that placements reach the target); the first hand
    whose state differs, or ``None``."""
    rng = random.Random(seed)
    for i in range(HANDS):
        tiles, boneyard = deal(rng, seating.players)
        sides = seating.sides
        scores = [rng.randrange(min(ruleset.target, 61)) for _ in range(sides)]
        opener = rng.randrange(seating.players)
        choice_seed = rng.random()
        ends = []
        for path in ("run", "_run_each"):
            hand = engine(tiles, boneyard, opener, partnership=seating.partnership, scores=scores, ruleset=ruleset)
            choices = random.Random(choice_seed).random

            def choose(moves, choices=choices):
                return moves[int(choices() * len(moves))]

            if path == "run":
                hand.run(choose)
            else:
                hand._run_each(choose, lambda: False, False)
            ends.append(state(hand))
        if ends[0] != ends[1]:
            return f"hand {i} of seed {seed}: {ends[0]} != {ends[1]}"
    return None


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
@pytest.mark.parametrize("ruleset", PLAIN_READINGS, ids=lambda r: str(r.variants or "canonical") + f"-{r.target}")
def test_plain_loop_plays_the_general_loops_games(seating, ruleset):
    assert first_difference(Hand, seating, ruleset, seed=7) is None


def loop_taken(engine: type[Hand], monkeypatch) -> str:
    """Which loop ``run`` takes for a hand of ``engine``: ``"plain"`` or ``"each"``."""
    taken = []
    with monkeypatch.context() as patch:
        patch.setattr(Hand, "_run_plain", lambda self, choose: taken.append("plain"))
        patch.setattr(Hand, "_run_each", lambda self, choose, give_up, optional: taken.append("each"))
        tiles, boneyard = deal(random.Random(1), 2)
        play_random_hand(engine(tiles, boneyard, 0), random.Random(2))
    return taken[0]


@pytest.mark.parametrize("name", sorted(MUTANTS))
def test_plain_loop_plays_each_deviations_games(name, monkeypatch):
    """A deviation changes its layout, its credit, its draws, its settlement or a seam of
    the turn; whichever loop ``run`` takes for it, it plays the deviation's rules.  A
    deviation that ``run`` sends to the general loop plays it under both: that it is sent
    there is the check (comparing the general loop with itself would show nothing)."""
    engine = MUTANTS[name].engine
    if loop_taken(engine, monkeypatch) == "each":  # only for a turn rule the plain loop does not write out
        turn_readings = {"drawn_tile_scope", "opening_continuation", "continuation_without_tile"}
        assert engine.earns_continuation is not Hand.earns_continuation or turn_readings & set(engine.forced_readings)
        return
    for seating in SEATINGS:
        assert first_difference(engine, seating, CANONICAL, seed=11) is None


class _ForgetsTheDrawnTile(Hand):
    """The plain loop with HR-TURN-3 lost: a drawn tile that scores continues the turn."""

    __slots__ = ()

    def _run_plain(self, choose):
        def pick(moves):
            move = choose(moves)
            self._exempt = -1
            return move

        Hand._run_plain(self, pick)


class _PlainLoopScoresCanonically(MUTANTS["fives-and-threes"].engine):  # type: ignore[misc,valid-type]
    """The plain loop with the layout's credit tables lost: it scores as Horse Race does
    while the general loop scores Fives-and-Threes."""

    __slots__ = ()

    def _run_plain(self, choose):
        self._credit_raw, self._credit = CREDIT, POINTS
        Hand._run_plain(self, choose)


def test_the_comparison_catches_a_plain_loop_that_ignores_a_seam():
    """Not blind to the seams either: a plain loop that ignores the credit tables of a
    house rule's layout differs from the general loop."""
    assert first_difference(_PlainLoopScoresCanonically, SEATINGS[0], CANONICAL, seed=7) is not None


def test_the_comparison_catches_a_loop_that_plays_otherwise():
    """The comparison is not blind: a plain loop that forgets the drawn-tile exception
    (HR-TURN-3) differs from the general loop in some two-player hand."""
    found = first_difference(_ForgetsTheDrawnTile, SEATINGS[0], CANONICAL, seed=7)
    assert found is not None


@pytest.mark.parametrize(
    ("field", "reading"),
    [(f, r) for f, readings in VARIANT_FIELDS.items() for r in readings[1:]],
)
def test_run_takes_the_general_loop_under_every_other_reading(field, reading, monkeypatch):
    """Under a reading of the turn rules the plain loop does not follow, ``run`` plays
    each placement through ``_place``; under the others it may not."""
    ruleset = CANONICAL.with_variant(field, reading)
    plain = ruleset in PLAIN_READINGS
    taken = []
    monkeypatch.setattr(Hand, "_run_plain", lambda self, choose: taken.append("plain"))
    monkeypatch.setattr(Hand, "_run_each", lambda self, choose, give_up, optional: taken.append("each"))
    tiles, boneyard = deal(random.Random(1), 2)
    play_random_hand(Hand(tiles, boneyard, 0, ruleset=ruleset), random.Random(2))
    assert taken == ["plain" if plain else "each"]


def test_an_overridden_continuation_takes_the_general_loop(monkeypatch):
    taken = []
    monkeypatch.setattr(Hand, "_run_plain", lambda self, choose: taken.append("plain"))
    monkeypatch.setattr(Hand, "_run_each", lambda self, choose, give_up, optional: taken.append("each"))
    tiles, boneyard = deal(random.Random(1), 2)
    play_random_hand(MUTANTS["no-continuation"].engine(tiles, boneyard, 0), random.Random(2))
    assert taken == ["each"]


def test_the_plain_loop_records_what_place_records():
    """The written-out placement makes the same event as the public action would."""
    tiles, boneyard = deal(random.Random(5), 2)
    played = Hand(tiles, boneyard, 0)
    played.run(lambda moves: moves[0])
    again = Hand(tiles, boneyard, 0)
    for event in played.events:
        if again.over:
            break
        again.play_forced()
        if isinstance(event, Place):
            assert again.place(event.seat, event.tile, event.target, event.port) == event
    assert again.events == played.events
