"""Perft works under every mutant of the engine: a mutant's layout undoes its placements
too (Layout.save / Layout.restore), so perft by make and unmake counts, under each
mutant, what the replay-based perft (tests/perft_oracle.py) counts under it, on
positions where the mutants' misreadings show: fresh deals, the corpus's perft
positions, and positions near a hand's end, some of them with every side two points
short of the target, where dominoes, blocks, settlements and the target end the lines.
(A mutant of the settlement or of the next hand's opener cannot change a count, since a
hand that ends is one leaf whoever wins it; for those the test shows perft runs under
them.)"""

from __future__ import annotations

import pytest

from horserace.corpus.observers import perft_observations, perft_position
from horserace.corpus.positions import SeedName, seeded_input
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.quality.mutants import MUTANTS
from tests.helpers import bundled_corpus, late_position
from tests.perft_oracle import perft_by_replay

pytestmark = pytest.mark.slow


def near_the_target(inp: dict) -> dict:
    """The position with every side two points short of the target: a credit of two
    reaches it exactly, of three passes it (HR-MATCH-1)."""
    return {**inp, "scores": [inp["target"] - 2] * len(inp["scores"])}


def positions() -> list[tuple[str, dict, Ruleset, int]]:
    """(name, input, ruleset, depth): where each mutant's tree may differ from the
    reference engine's."""
    out = [
        (f"{fx.id}", fx.input, fx.ruleset, fx.input["depth"])
        for fx in bundled_corpus().fixtures
        if fx.kind == "perft" and fx.applies_under(CANONICAL)
    ]
    out += [(f"seed:1:players={p}", seeded_input(SeedName(1, p)), CANONICAL, 4) for p in (2, 3, 4)]
    for s in range(2):
        for p in (2, 4):
            late = late_position(s, p)
            out += [
                (f"late:{s}:players={p}", late, CANONICAL, 5),
                (f"late:{s}:players={p}:61-2", near_the_target(late), CANONICAL, 5),
            ]
    return out


@pytest.mark.parametrize("name", MUTANTS)
def test_perft_under_each_mutant_counts_what_replay_counts_under_it(name):
    engine = MUTANTS[name].engine
    for where, inp, ruleset, depth in positions():
        fast = perft_observations(perft_position(inp, ruleset, engine), depth)
        assert fast == perft_by_replay({**inp, "depth": depth}, ruleset, engine), where
