"""Each invariant check fails on an engine broken in the way the check names, so the
property tests can find the bugs they are for."""

from __future__ import annotations

import random

import pytest

from horserace.engine.hand import Hand
from horserace.engine.layout import BRANCH_A, Layout
from horserace.engine.match import deal
from horserace.engine.tiles import IS_DOUBLE, LOW
from tests.property.invariants import play_checked


def play_many(seeds=range(40)):
    for seed in seeds:
        rng = random.Random(seed)
        tiles, boneyard = deal(rng, 2)
        play_checked(Hand(tiles, boneyard, 0), rng)


def test_drawn_tile_check_catches_a_continuing_drawn_tile(monkeypatch):
    original = Hand._place

    def broken(self, seat, tile, target, port):
        self._pending = -1  # forget the drawn tile: it may now continue the turn
        return original(self, seat, tile, target, port)

    monkeypatch.setattr(Hand, "_place", broken)
    with pytest.raises(AssertionError, match="drawn tile continued"):
        play_many()


def test_conservation_check_catches_a_lost_tile(monkeypatch):
    original = Hand._draw

    def broken(self, seat):
        tile = original(self, seat)
        self.hands[seat] &= ~(1 << tile)  # the drawn tile vanishes
        self._pending = -1
        return tile

    monkeypatch.setattr(Hand, "_draw", broken)
    with pytest.raises(AssertionError, match="missing"):
        play_many()


def test_count_check_catches_an_interior_double_still_counted(monkeypatch):
    original = Layout.place

    def broken(self, t, target, port):
        count = original(self, t, target, port)
        if target is not None and IS_DOUBLE[target] and port is not None and port >= BRANCH_A:
            self.count = count = count + 2 * LOW[target]  # counts an interior spinner again
        return count

    monkeypatch.setattr(Layout, "place", broken)
    with pytest.raises(AssertionError, match="count"):
        play_many()


def test_spinner_check_catches_an_early_branch(monkeypatch):
    original = Layout.place

    def broken(self, t, target, port):
        count = original(self, t, target, port)
        if IS_DOUBLE[t]:
            self._slots[LOW[t]].append((t, BRANCH_A))  # branches open at once (breaks HR-SPIN-2)
        return count

    monkeypatch.setattr(Layout, "place", broken)
    monkeypatch.setattr(Layout, "normalise", lambda self, t, target, port: (target, port))
    with pytest.raises(AssertionError, match="branch before linear"):
        play_many()
