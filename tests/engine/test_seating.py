"""The one list of seatings agrees with the hand's own idea of sides (HR-SEAT-1, HR-SEAT-2)."""

from __future__ import annotations

import random

import pytest

from horserace.engine import SEATINGS, Hand, deal


def test_every_seating_once():
    assert [(s.players, s.partnership) for s in SEATINGS] == [(2, False), (3, False), (4, False), (4, True)]
    assert [s.label for s in SEATINGS] == ["2 players", "3 players", "4 players", "partnership"]


@pytest.mark.parametrize("seating", SEATINGS, ids=lambda s: s.label)
def test_sides_are_the_hands_sides(seating):
    tiles, boneyard = deal(random.Random(1), seating.players)
    hand = Hand(tiles, boneyard, 0, partnership=seating.partnership)
    assert len(hand.scores) == seating.sides
    assert [seating.side_of(seat) for seat in range(seating.players)] == [
        hand.side_of(seat) for seat in range(seating.players)
    ]
