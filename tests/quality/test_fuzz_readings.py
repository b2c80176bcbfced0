"""The fuzzer and protocol 1.1: it draws each seed's readings among those the hello
declares (every reading, from an adapter that can be switched; one per field from a 1.0
one), the runner sends them with each request, and a target the implementation does not
accept is refused before anything runs (HRI-29)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from horserace.engine.ruleset import CANONICAL
from horserace.errors import ImplementationUnusable
from horserace.quality.fuzz import Plan, fuzz_range
from horserace.resources.rulesets import bundled

pytestmark = pytest.mark.slow  # an adapter process per test

ADAPTER = Path(__file__).resolve().parents[1] / "conformance" / "versioned_adapter.py"


def _argv(mode: str) -> list[str]:
    return [sys.executable, str(ADAPTER), mode]


def test_a_1_1_adapter_is_fuzzed_under_readings_other_than_the_canonical():
    shard = fuzz_range(_argv("1.1"), 0, 30, plan=Plan(kinds=("hand", "illegal")))
    assert shard.finding is None  # the adapter errs on a run without readings: none came
    canonical = tuple(sorted(CANONICAL.readings.items()))
    assert len(shard.tried.readings) > 1 and shard.tried.readings - {canonical}


def test_a_1_0_adapter_is_fuzzed_under_the_readings_it_follows_only():
    shard = fuzz_range(_argv("1.0"), 0, 30, plan=Plan(kinds=("hand", "illegal")))
    assert shard.finding is None  # the adapter errs on a run that carries readings: none did
    assert shard.tried.readings == {tuple(sorted(CANONICAL.readings.items()))}


def test_a_target_the_implementation_does_not_accept_is_refused_before_running():
    with pytest.raises(ImplementationUnusable, match="accepts the targets 61 only"):
        fuzz_range(_argv("1.1-targets"), 0, 5, plan=Plan(rulesets=(bundled()["long-match"],)))
    shard = fuzz_range(_argv("1.1-targets"), 0, 5, plan=Plan(kinds=("settlement",)))
    assert shard.finding is None
