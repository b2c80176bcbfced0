"""Fuzzing alone finds every named mutant of the engine (the misreadings of ``horserace
mutants --list --family misreading``; the house rules are left out, to keep this slow
test as it was):
``horserace fuzz`` with a budget of 2,000 seeds, against ``horserace serve --mutant
NAME``, reports each one, as the corpus kills each one.

It takes every kind of scenario to.  One hand of play from zero at target 61 under the
canonical readings, all the fuzzer made before, misses four mutants in 2,000 seeds: a spinner's branches opened
early (only layouts, illegal placements and perft counts show it), a tie that crosses the
target together (a settlement near the target), and the two misreadings of the end of
the match (a whole match).  And each kind alone finds a mutant, so that losing any one
fails a test here.

Each mutant is found in the first few dozen seeds, so one implementation process
(``--jobs 1``) is cheaper than two shards that would each find and shrink it; the runs
that must go through all 2,000 seeds use two.  (The quick tier's in-process check of
the same scenarios is tests/quality/test_fuzz_scenarios.py.)
"""

from __future__ import annotations

import json
import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.loader import load_paths
from horserace.quality.deviations import MISREADING
from horserace.quality.mutants import of_family

pytestmark = pytest.mark.slow

BUDGET = "2000"

#: What one hand of play alone misses, and the kinds that find each now.
ONE_HAND_MISSES = {
    "branches-before-linear": ("layout", "illegal", "perft"),
    "seat-order-tiebreak": ("settlement",),
    "exact-target": ("match", "settlement"),
    "settled-after-match": ("match",),
}
#: A mutant that each kind alone finds.
EACH_KIND_FINDS = {
    "hand": "drawn-tile-continues",
    "match": "settled-after-match",
    "settlement": "seat-order-tiebreak",
    "illegal": "branches-before-linear",
    "perft": "branches-before-linear",
    "layout": "branches-before-linear",
}


def fuzz(mutant: str, tmp_path, capsys, *args: str) -> tuple[int, dict]:
    impl = f"{sys.executable} -m horserace serve --mutant {mutant}"
    code = main(["fuzz", "--impl", impl, "--budget", BUDGET, "--out", str(tmp_path), "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


MISREADINGS = [m.name for m in of_family(MISREADING)]


@pytest.mark.parametrize("mutant", MISREADINGS)
def test_fuzzing_reports_the_mutant(mutant, tmp_path, capsys):
    code, report = fuzz(mutant, tmp_path, capsys, "--jobs", "1")
    assert code == ExitCode.FAILURES, f"{mutant} survived {BUDGET} seeds of fuzzing"
    (finding,) = report["findings"]
    assert finding["rule"].startswith("HR-")
    assert load_paths([tmp_path]).errors == []  # the finding is a valid fixture


@pytest.mark.parametrize("mutant", list(ONE_HAND_MISSES))
def test_one_hand_of_play_alone_misses_the_mutant(mutant, tmp_path, capsys):
    code, report = fuzz(mutant, tmp_path, capsys, "--kind", "hand", "--rules", "canonical", "--jobs", "2")
    assert code == ExitCode.OK and report["findings"] == []
    assert report["kinds"] == {"hand": int(BUDGET)}


@pytest.mark.parametrize(("kind", "mutant"), list(EACH_KIND_FINDS.items()))
def test_each_kind_alone_finds_a_mutant(kind, mutant, tmp_path, capsys):
    code, report = fuzz(mutant, tmp_path, capsys, "--kind", kind, "--jobs", "1")
    assert code == ExitCode.FAILURES
    (finding,) = report["findings"]
    assert finding["kind"] == kind


def test_the_kinds_that_find_what_one_hand_misses_are_the_kinds_named():
    assert {kind for kinds in ONE_HAND_MISSES.values() for kind in kinds} | {"hand"} == set(EACH_KIND_FINDS)
    assert set(ONE_HAND_MISSES) <= set(MISREADINGS)
