"""Sample play: a seeded hand or a whole match with uniformly random legal placements,
kept with what each hand began from (``horserace play``)."""

from __future__ import annotations

from dataclasses import dataclass

from horserace.engine.hand import Hand
from horserace.engine.match import Match
from horserace.engine.playout import play_random_hand

__all__ = ["PlayedHand", "play_sample"]


@dataclass(frozen=True)
class PlayedHand:
    """One hand as it was dealt and as it went."""

    opener: int
    opener_by_lot: bool
    dealt: tuple[tuple[int, ...], ...]  #: each seat's tiles
    boneyard: tuple[int, ...]  #: in draw order
    scores_before: tuple[int, ...]
    hand: Hand


def play_sample(match: Match, *, whole_match: bool) -> list[PlayedHand]:
    """Play the next hand of ``match`` (or every hand to the end of the match) at random."""
    played = []
    while True:
        opener, by_lot = match.opener, match.opener_by_lot
        hand = match.deal()
        dealt = tuple(tuple(hand.hand_tiles(s)) for s in range(hand.seats))
        boneyard = tuple(hand.boneyard)
        scores_before = tuple(match.scores)
        play_random_hand(hand, match.rng)
        match.finish(hand)
        played.append(PlayedHand(opener, by_lot, dealt, boneyard, scores_before, hand))
        if not whole_match or match.over:
            return played
