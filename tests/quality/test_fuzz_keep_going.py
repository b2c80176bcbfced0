"""``horserace fuzz --keep-going`` in a local run (issue 20: "a run stops at its first
finding"): every seed runs, each cause is shrunk once and written, the other findings of
it counted and listed; the findings of an implementation with two bugs fall into two
causes.  And Ctrl-C: the run stops where it is and says which seeds it fuzzed, what it
found so far (each finding written) and how to fuzz the rest.

The implementation is tests/quality/served.py, the reference engine with two named
deviations through two seams: the count of an interior spinner's unstarted branches
(HR-COUNT-3, the layout's seam) and each opponent's pips rounded on their own
(HR-SETTLE-1, the settlement's)."""

from __future__ import annotations

import json
import os
import signal
from collections import Counter
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.loader import load_paths
from horserace.engine.ruleset import CANONICAL
from horserace.quality.fuzz import Plan, finding_cause, fuzz, scenarios
from horserace.quality.shrink import disagrees
from horserace.reports.command_text import fuzz_text
from tests.quality.served import combined, served_argv, through_protocol

BUGS = ("unstarted-branch-counted", "round-each-opponent")
KINDS = ("settlement", "layout")
SEEDS = 40


def fuzz_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["fuzz", "--impl", " ".join(served_argv(*BUGS)), "--format", "json", *args])
    return code, json.loads(capsys.readouterr().out)


def disagreeing(seeds: int) -> Counter[str]:
    """The scenarios of the first ``seeds`` seeds that the two bugs get wrong, by the
    rule of their first difference (judged in process)."""
    run = through_protocol(combined(*BUGS))
    declared: dict[str, tuple[str, ...]] = {name: (reading,) for name, reading in CANONICAL.readings.items()}
    found: Counter[str] = Counter()
    for seed in range(seeds):
        for scenario in scenarios(seed, Plan(kinds=KINDS), declared):
            (outcome,) = run([scenario.fixture])
            if disagrees(outcome):
                cause = finding_cause(scenario.fixture, outcome)
                assert cause is not None
                found[cause.rule] += 1
    return found


def test_keep_going_groups_the_findings_of_two_bugs_into_two_causes(tmp_path, capsys):
    kinds = [a for kind in KINDS for a in ("--kind", kind)]
    code, report = fuzz_json(capsys, *kinds, "--budget", str(SEEDS), "--keep-going", "--out", str(tmp_path))
    assert code == ExitCode.FAILURES and report["keep_going"] and report["tried"] == [[0, SEEDS - 1]]
    # By the first difference: 34 layouts count branches; the rounding makes 13
    # settlements wrong, 2 of which the map reads as HR-SETTLE-2 (it overlaps HR-SETTLE-1),
    # and the deviation that reproduces them puts them with the other 11.
    wrong = disagreeing(SEEDS)
    assert wrong == {"HR-COUNT-3": 34, "HR-SETTLE-1": 11, "HR-SETTLE-2": 2}
    causes = {(c["rule"], c["deviation"]): c for c in report["causes"]}
    assert set(causes) == {("HR-COUNT-3", "unstarted-branch-counted"), ("HR-SETTLE-1", "round-each-opponent")}
    counting, rounding = causes["HR-COUNT-3", "unstarted-branch-counted"], causes["HR-SETTLE-1", "round-each-opponent"]
    assert (counting["count"], counting["kinds"]) == (34, {"layout": 34})
    assert (rounding["count"], rounding["kinds"]) == (13, {"settlement": 13})
    assert report["findings_found"] == sum(wrong.values())
    # Each cause shrunk once and written; the others counted and listed, not shrunk.
    assert len(report["findings"]) == 2 and {f["rule"] for f in report["findings"]} == {"HR-COUNT-3", "HR-SETTLE-1"}
    for cause in (counting, rounding):
        assert len(cause["shrunk"]) == 1 and cause["not_shrunk"] == cause["count"] - 1
        assert len(cause["not_shrunk_listed"]) == cause["not_shrunk"]
        assert Path(cause["smallest"]["path"]).exists()
    assert counting["smallest"]["size"] == {"steps": 1, "setup": 2}
    corpus = load_paths([tmp_path])
    assert corpus.errors == [] and len(corpus.fixtures) == 2


def test_without_keep_going_the_run_stops_at_its_first_finding(tmp_path, capsys):
    code, report = fuzz_json(capsys, "--kind", "layout", "--budget", str(SEEDS), "--out", str(tmp_path))
    assert code == ExitCode.FAILURES and not report["keep_going"]
    (finding,) = report["findings"]
    assert report["tried"] == [[0, finding["seed"]]] and report["untried"] == [[finding["seed"] + 1, SEEDS - 1]]
    (cause,) = report["causes"]
    assert cause["count"] == 1 and cause["not_shrunk"] == 0


def test_shrink_all_shrinks_and_writes_every_finding(tmp_path, capsys):
    code, report = fuzz_json(
        capsys, "--kind", "settlement", "--budget", "12", "--keep-going", "--shrink-all", "--out", str(tmp_path)
    )
    assert code == ExitCode.FAILURES and report["shrink_all"]
    ((rule, deviation),) = {(c["rule"], c["deviation"]) for c in report["causes"]}
    assert (rule, deviation) == ("HR-SETTLE-1", "round-each-opponent")
    assert len(report["findings"]) == report["findings_found"] == report["causes"][0]["count"] > 1
    assert len(list((tmp_path / "generated").iterdir())) == len(report["findings"])
    assert main(["fuzz", "--shrink-all", "--budget", "1", "--out", str(tmp_path)]) == ExitCode.USAGE


def test_the_text_gives_each_cause_its_count_and_smallest_finding(tmp_path, capsys):
    impl = " ".join(served_argv(*BUGS))
    code = main(["fuzz", "--impl", impl, "--kind", "layout", "--budget", "10", "--keep-going", "--out", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == ExitCode.FAILURES
    assert "  reproduced by deviation unstarted-branch-counted: HR-COUNT-3, " in out
    causes = out[out.index("\ncauses: ") + 1 :].splitlines()
    assert causes[0].startswith("causes: 1 in 9 findings, 1 shrunk: each cause shrunk once, its other findings ")
    assert causes[1] == "  HR-COUNT-3, reproduced by deviation unstarted-branch-counted: 9 findings (layout 9)"
    assert causes[2].startswith("    the smallest: seed 0, layout scenario, 1 step after 2 placements of setup: ")
    assert causes[3].startswith("    not shrunk: 8, seeds 1 (layout), 2 (layout), 3 (layout), ")


@pytest.fixture
def interrupted_after_a_batch():
    """Ctrl-C (SIGINT to this process, which Python turns into KeyboardInterrupt in the
    main thread) once the first batch of seeds is done; the runner may start processes
    again after.  Sent once: a shard may tell of a batch more before it sees the stop,
    and a second SIGINT would land in the run's own clean-up, as a second Ctrl-C would."""
    sent = []

    def interrupt(_: int) -> None:
        if not sent:
            sent.append(True)
            os.kill(os.getpid(), signal.SIGINT)

    return interrupt


def test_ctrl_c_says_the_seeds_done_the_findings_so_far_and_how_to_resume(tmp_path, interrupted_after_a_batch):
    result = fuzz(
        served_argv(*BUGS),
        100,
        1_000_000,
        plan=Plan(kinds=("layout",)),
        out_dir=tmp_path,
        progress=interrupted_after_a_batch,
        keep_going=True,
    )
    assert isinstance(result.stopped_by, KeyboardInterrupt) and result.interrupted == "SIGINT"
    ((first, last),) = result.ranges
    assert first == 100 and last >= 131  # the batch that told of its progress, at least
    assert result.resume == [(last + 1, 1_000_100 - last - 1)]
    assert result.findings and all(Path(f.path).exists() for f in result.findings)
    assert result.causes[0].count > len(result.findings)  # the findings after the first, counted
    text = fuzz_text(result)
    assert text.splitlines()[-1] == (
        f"INTERRUPTED by SIGINT: fuzzed seeds 100..{last} of 100..1000099; to fuzz the rest, run again with "
        f"--seed {last + 1} --budget {1_000_100 - last - 1} (the other options as given)"
    )
    report = result.to_dict()
    assert report["interrupted"] == "SIGINT" and report["resume"] == [
        {"seed": last + 1, "budget": 1_000_100 - last - 1}
    ]
