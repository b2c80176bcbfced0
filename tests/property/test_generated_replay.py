"""A random hand recorded as a ``play`` fixture replays to the same trace through the
fixture path (horserace.corpus.observers) as the engine produced while playing it, under every
reading of the register: the two drivers of a hand agree."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from horserace.corpus.fixture import Fixture
from horserace.corpus.generate import random_play_fixture
from horserace.corpus.replay import replay_fixture
from horserace.engine.ruleset import VARIANT_FIELDS, Ruleset

RULESETS = st.builds(
    Ruleset.from_readings, **{field: st.sampled_from(readings) for field, readings in VARIANT_FIELDS.items()}
)


@given(
    seed=st.integers(0, 2**32),
    seating=st.sampled_from([(2, False), (3, False), (4, False), (4, True)]),
    ruleset=RULESETS,
)
def test_generated_fixture_replays_green(seed, seating, ruleset):
    doc = random_play_fixture(seed, *seating, ruleset)
    fixture = Fixture(
        **{k: doc[k] for k in ("id", "description", "kind", "rules", "origin", "why", "input", "expected")},
        variants=doc.get("variants", {}),
        file="generated",
    )
    result = replay_fixture(fixture)
    assert result.status == "pass", (result.message, result.differences[:3])
