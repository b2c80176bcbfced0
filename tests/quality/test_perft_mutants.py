"""Perft works under every named deviation of the engine, mutants and house rules alike: a
deviation's layout undoes its placements too (Layout.save / Layout.restore), so perft by
make and unmake counts, under each one, what the replay-based perft
(tests/perft_oracle.py) counts under it, on positions where the deviations show: fresh
deals, the corpus's perft positions, and positions near a hand's end, some of them with
every side two points short of the target, where dominoes, blocks, settlements and the
target end the lines; and positions near the end of hands the deviation played itself
(a house rule's layout may be one the reference engine cannot build, and the other way
round: such a position is refused by both counts alike).  A deviation of the
settlement or of the next hand's opener cannot change a count, since a hand that ends
is one leaf whoever wins it; for those the test shows perft runs under them.  A house
rule's own moves are counted by both: a draw by choice (``draw``) and the second port of
a mirror-image pair."""

from __future__ import annotations

import pytest

from horserace.corpus.observers import perft_observations, perft_position
from horserace.corpus.positions import SeedName, seeded_input
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.errors import ScenarioError
from horserace.quality.mutants import MUTANTS
from tests import breakages
from tests.helpers import bundled_corpus, late_position
from tests.perft_oracle import perft_by_replay

pytestmark = pytest.mark.slow


def near_the_target(inp: dict) -> dict:
    """The position with every side two points short of the target: a credit of two
    reaches it exactly, of three passes it (HR-MATCH-1)."""
    return {**inp, "scores": [inp["target"] - 2] * len(inp["scores"])}


def positions(engine: type[Hand] = Hand) -> list[tuple[str, dict, Ruleset, int]]:
    """(name, input, ruleset, depth): where each deviation's tree may differ from the
    reference engine's; with ``engine``, also positions near the end of hands it played."""
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
            if engine is not Hand:
                own = late_position(s, p, engine=engine)
                out += [
                    (f"own:{s}:players={p}", own, CANONICAL, 5),
                    (f"own:{s}:players={p}:61-2", near_the_target(own), CANONICAL, 5),
                ]
    return out


def counted(count, inp: dict, ruleset: Ruleset, depth: int, engine: type[Hand]):
    """A count's observations, or the refusal of the position (the rule it names)."""
    try:
        return count(inp, ruleset, depth, engine)
    except ScenarioError as exc:
        return ("refused", exc.rule)


def fast(inp, ruleset, depth, engine):
    return perft_observations(perft_position(inp, ruleset, engine), depth)


def slow(inp, ruleset, depth, engine):
    return perft_by_replay({**inp, "depth": depth}, ruleset, engine)


@pytest.mark.parametrize("name", MUTANTS)
def test_perft_under_each_deviation_counts_what_replay_counts_under_it(name):
    engine = MUTANTS[name].engine
    counts = 0
    for where, inp, ruleset, depth in positions(engine):
        by_make = counted(fast, inp, ruleset, depth, engine)
        assert by_make == counted(slow, inp, ruleset, depth, engine), where
        counts += isinstance(by_make, dict)
    assert counts >= 8  # most positions are counted, not refused


def test_the_comparison_catches_an_engine_whose_undo_is_broken():
    """Not blind: a layout whose undone placement keeps its count (tests/breakages.py)
    counts otherwise by make and unmake than by replay on some position of the list."""
    engine = breakages.RESTORE_FORGETS_THE_COUNT
    assert any(
        counted(fast, inp, ruleset, depth, engine) != counted(slow, inp, ruleset, depth, engine)
        for _, inp, ruleset, depth in positions(engine)
    )
