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


@pytest.mark.slow
def test_bench_perft_alone(capsys):
    assert main(["bench", "--hands", "0", "--perft", "--repeat", "1", "--format", "json"]) == ExitCode.OK
    doc = json.loads(capsys.readouterr().out)
    assert doc["play"] == []
    # The counts of the replay-based perft of 0.1 on K5N2P7's deal (the "before" of docs/performance-history.md).
    assert [(f["depth"], f["nodes"]) for f in doc["perft"]] == [(4, 96), (6, 717), (8, 5202), (10, 35825), (12, 207016)]
    assert all(f["moves_made"] < f["nodes"] and f["median_nodes_per_second"] > 0 for f in doc["perft"])


def test_bench_perft_times_small_depths_by_repetition():
    from horserace.quality.bench import format_text, measure_perft, report

    figures = measure_perft(depths=(1, 3), repeats=2, min_seconds=0.05)
    assert [f.nodes for f in figures] == [7, 40] and figures[0].counts_per_run > 1
    assert figures[0].min_nodes_per_second <= figures[0].median_nodes_per_second <= figures[0].max_nodes_per_second
    text = format_text(report([], None, perft_result=figures))
    assert text.startswith("Perft nodes per second on K5N2P7's deal (median of 2 runs")


@pytest.mark.slow
def test_bench_fuzz_gives_both_workloads_with_one_and_two_processes(capsys):
    argv = ["bench", "--hands", "0", "--fuzz", "--repeat", "1", "--fuzz-seeds", "40", "--fuzz-mix-seeds", "4"]
    assert main([*argv, "--format", "json"]) == ExitCode.OK
    doc = json.loads(capsys.readouterr().out)["fuzz"]
    figures = {(f["workload"], f["jobs"]): f for f in doc["figures"]}
    assert sorted(figures) == [("every kind", 1), ("every kind", 2), ("one hand", 1), ("one hand", 2)]
    hand, mix = figures["one hand", 1], figures["every kind", 1]
    assert hand["kinds"] == ["hand"] and hand["scenarios"] == hand["hands"] == 40
    assert mix["scenarios"] == 4 * len(mix["kinds"]) == 24 and mix["hands"] > 4  # a match has hands of its own
    for f in doc["figures"]:
        assert 0 < f["min_hands_per_second"] <= f["median_hands_per_second"] <= f["max_hands_per_second"]
        assert abs(f["per_process_hands_per_second"] - f["median_hands_per_second"] / f["jobs"]) <= 1
        assert f["runner_cpu_ms_per_scenario"] > 0 and f["implementation_cpu_ms_per_scenario"] >= 0
    assert main(argv) == ExitCode.OK
    text = capsys.readouterr().out
    assert "Fuzzing against 'horserace serve' (median [min-max] of 1 runs" in text
    assert any(line.startswith("one hand       2     40") for line in text.splitlines())


def test_bench_fuzz_refuses_no_seeds(capsys):
    assert main(["bench", "--hands", "0", "--fuzz", "--fuzz-seeds", "0"]) == ExitCode.USAGE
    assert "--fuzz-seeds" in capsys.readouterr().err


def test_console_script_help():
    out = subprocess.run([sys.executable, "-m", "horserace", "--help"], capture_output=True, text=True, check=True)
    assert "play" in out.stdout and "bench" in out.stdout and "Exit codes" in out.stdout
