"""Random play: a uniform choice among the legal placements, from a seeded generator.

Used by the benchmark, the sample hand and the property tests.  Under the variant
``continuation=optional`` a continuation is given up with probability one half.
"""

from __future__ import annotations

import random

from horserace.hand import Hand
from horserace.match import Match


def play_random_hand(hand: Hand, rng: random.Random) -> Hand:
    """Play ``hand`` to its end with uniformly random legal placements."""
    rand = rng.random

    def choose(moves):
        return moves[int(rand() * len(moves))]

    def give_up() -> bool:
        return rand() < 0.5

    hand.run(choose, give_up)
    return hand


def play_random_match(match: Match, *, max_hands: int = 10_000) -> Match:
    """Play a whole match with random placements; returns the finished match."""
    while not match.over and match.hands_played < max_hands:
        match.finish(play_random_hand(match.deal(), match.rng))
    return match
