"""Property tests over random seeded games (HR-SET-1, HR-COUNT-1, HR-SPIN-2, HR-TURN-3,
HR-SETTLE-2): every variant of the register, every seating."""

from __future__ import annotations

import random

from hypothesis import given
from hypothesis import strategies as st

from horserace.engine.hand import Hand
from horserace.engine.match import Match, deal
from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset
from horserace.engine.seating import SEATINGS as ALL_SEATINGS
from tests.property.invariants import play_checked

SEATINGS = st.sampled_from([(s.players, s.partnership) for s in ALL_SEATINGS])
RULESETS = st.builds(
    Ruleset.from_readings,
    **{field: st.sampled_from(readings) for field, readings in VARIANT_FIELDS.items()},
    target=st.sampled_from([61, 121, 10]),
)


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS)
def test_invariants_hold_after_every_action(seed, seating, ruleset):
    players, partnership = seating
    rng = random.Random(seed)
    hands, boneyard = deal(rng, players)
    h = Hand(hands, boneyard, rng.randrange(players), partnership=partnership, ruleset=ruleset)
    play_checked(h, rng)
    assert h.over


@given(seed=st.integers(0, 2**32), seating=SEATINGS, ruleset=RULESETS)
def test_scores_never_decrease_over_a_match(seed, seating, ruleset):
    players, partnership = seating
    match = Match(players, partnership=partnership, ruleset=ruleset, seed=seed)
    previous = list(match.scores)
    while not match.over and match.hands_played < 200:
        h = play_checked(match.deal(), match.rng, checks=())
        for event in h.events:
            scores = getattr(event, "scores", None)
            if scores is not None:
                assert all(b >= a for a, b in zip(previous, scores, strict=True))
        match.finish(h)
        assert all(b >= a for a, b in zip(previous, match.scores, strict=True))
        previous = list(match.scores)
    assert match.over, "a match to the target always ends"
    assert all(match.scores[w] >= ruleset.target for w in match.winners)
