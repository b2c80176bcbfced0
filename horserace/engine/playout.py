"""Random play: a uniform choice among the legal placements, from a seeded generator.

Used by the benchmark, the sample hand and the property tests.  Under the variant
``continuation=optional`` a continuation is given up with probability one half.
"""

from __future__ import annotations

import random
from math import floor

from horserace.engine.hand import Hand, Move

__all__ = ["play_random_hand"]


def play_random_hand(hand: Hand, rng: random.Random) -> Hand:
    """Play ``hand`` to its end with uniformly random legal placements."""
    rand = rng.random

    def choose(moves: list[Move]) -> Move:
        # floor() is int()'s truncation here (the product is not negative), cheaper.
        return moves[floor(rand() * len(moves))]

    def give_up() -> bool:
        return rand() < 0.5

    hand.run(choose, give_up)
    return hand
