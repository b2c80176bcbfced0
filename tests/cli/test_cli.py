"""The command line: sample play, benchmark, help and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode


def test_play_is_reproducible_and_prints_events(capsys):
    assert main(["play", "--seed", "7"]) == ExitCode.OK
    first = capsys.readouterr().out
    assert main(["play", "--seed", "7"]) == ExitCode.OK
    assert capsys.readouterr().out == first
    assert "seat 0 holds" in first and "hand ends" in first


def test_play_json_holds_the_whole_hand(capsys):
    assert main(["play", "--seed", "3", "--players", "4", "--partnership", "--format", "json"]) == ExitCode.OK
    doc = json.loads(capsys.readouterr().out)
    hand = doc["hands"][0]
    dealt = [t for h in hand["hands"] for t in h] + hand["boneyard"]
    assert len(dealt) == len(set(dealt)) == 28
    assert hand["events"][-1]["event"] in {"hand-end", "match-end"}


def test_play_match_reaches_the_target(capsys):
    assert main(["play", "--seed", "5", "--match", "--target", "10", "--format", "json"]) == ExitCode.OK
    doc = json.loads(capsys.readouterr().out)
    assert doc["match_winners"] and max(doc["scores"]) >= 10


def test_variant_option(capsys):
    assert main(["play", "--variant", "block_detection=round-of-passes", "--format", "json"]) == ExitCode.OK
    assert json.loads(capsys.readouterr().out)["variants"] == {"block_detection": "round-of-passes"}


@pytest.mark.parametrize(
    "argv",
    [[], ["play", "--players", "5"], ["play", "--variant", "nonsense=1"], ["play", "--partnership"], ["frobnicate"]],
)
def test_usage_errors_exit_4_without_traceback(argv, capsys):
    assert main(argv) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "Traceback" not in err


def test_bench_prints_figures(capsys):
    assert main(["bench", "--hands", "20", "--repeat", "1", "--soak", "30", "--format", "json"]) == ExitCode.OK
    doc = json.loads(capsys.readouterr().out)
    assert {f["config"] for f in doc["play"]} == {"2 players", "3 players", "4 players", "partnership"}
    assert all(f["median_hands_per_second"] > 0 for f in doc["play"])
    assert doc["soak"]["hands"] == 30 and doc["peak_rss_kib"] > 0


def test_console_script_help():
    out = subprocess.run([sys.executable, "-m", "horserace", "--help"], capture_output=True, text=True, check=True)
    assert "play" in out.stdout and "bench" in out.stdout and "Exit codes" in out.stdout
