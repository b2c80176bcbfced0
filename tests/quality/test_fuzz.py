"""``horserace fuzz`` finds a deliberately wrong implementation, and writes a valid,
minimal fixture for review (origin: generated, under a generated/ folder)."""

from __future__ import annotations

import json
import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.conformance.runner import Options, Worker
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.quality.fuzz import truncated

pytestmark = pytest.mark.slow

MUTANT = [sys.executable, "-m", "horserace", "serve", "--mutant", "drawn-tile-continues"]


def test_fuzz_writes_a_valid_minimal_fixture(tmp_path, capsys):
    code = main(["fuzz", "--impl", " ".join(MUTANT), "--budget", "500", "--out", str(tmp_path), "--format", "json"])
    assert code == ExitCode.FAILURES
    report = json.loads(capsys.readouterr().out)
    (finding,) = report["findings"]
    assert finding["rule"] == "HR-TURN-1" or finding["rule"].startswith("HR-")
    corpus = load_paths([tmp_path])
    assert corpus.errors == []
    (fixture,) = corpus.fixtures
    assert fixture.origin == "generated" and "generated" in fixture.file
    assert replay_fixture(fixture).status == "pass"  # expected values are the reference engine's
    worker = Worker(MUTANT, Options())
    worker.handshake()
    try:
        assert worker.run_one(fixture, "a").status == "fail"  # the mutant still disagrees
        n = len(fixture.input["hands"][0]["placements"])
        assert n == finding["placements"] and n <= finding["original_placements"]
        if n > 0:  # minimal: one placement fewer and the mutant agrees
            assert worker.run_one(truncated(fixture, n - 1), "b").status == "pass"
    finally:
        worker.close()


def test_fuzz_of_the_reference_engine_finds_nothing(tmp_path, capsys):
    assert main(["fuzz", "--budget", "300", "--jobs", "2", "--out", str(tmp_path)]) == ExitCode.OK
    assert "no disagreement" in capsys.readouterr().out
    assert not (tmp_path / "generated").exists()


def test_fuzz_with_an_unusable_implementation(tmp_path, capsys):
    assert (
        main(["fuzz", "--impl", "/no/such/engine", "--budget", "5", "--out", str(tmp_path)])
        == ExitCode.IMPLEMENTATION_UNUSABLE
    )
