"""``--jobs N`` of ``fuzz`` and ``mutants`` on worker processes, the same results for
every N (issue 25, item 4): the shards of a fuzzing run are fixed by ``--seed`` and
``--budget`` alone and merged in shard order, so the findings (their seeds, the shrunk
fixtures written, their causes) and the summary are those of ``--jobs 1`` whatever N,
timings aside; the mutants' verdicts come in the order asked.  And a signal to a run on
two workers leaves no worker and no implementation running.

The implementation is tests/quality/served.py with two bugs through two seams (as in
test_fuzz_keep_going.py).  Budget 120 makes three shards (seeds 0..49, 50..99,
100..119); both bugs show in every one, so the shards of the old code, cut by N (0..119
for one job, 0..59 and 60..119 for two), reported one finding for one job and two for
two."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.quality import mutants
from tests.conformance.test_signals import _sigint_as_at_a_terminal
from tests.helpers import left_running
from tests.quality.served import SERVED, served_argv

pytestmark = pytest.mark.slow  # processes

BUGS = ("unstarted-branch-counted", "round-each-opponent")
KINDS = ("--kind", "layout", "--kind", "settlement")
TIMINGS = ("seconds", "scenarios_per_second", "hands_per_second")


def fuzz_run(capsys, out: Path, jobs: int, *extra: str) -> tuple[int, dict, dict[str, str]]:
    impl = " ".join(served_argv(*BUGS))
    argv = ["fuzz", "--impl", impl, *KINDS, "--budget", "120", "--jobs", str(jobs), "--out", str(out)]
    code = main([*argv, "--format", "json", *extra])
    report = json.loads(capsys.readouterr().out)
    for key in TIMINGS:
        report.pop(key)
    for finding in report["findings"]:
        finding.pop("shrink_seconds")
        finding["path"] = Path(finding["path"]).name
    for cause in report["causes"]:
        cause["smallest"]["path"] = Path(cause["smallest"]["path"]).name
        for shrunk in cause["shrunk"]:
            shrunk["path"] = Path(shrunk["path"]).name
    written = {p.name: p.read_text() for p in sorted((out / "generated").glob("*.yaml"))}
    return code, report, written


def test_a_run_that_stops_at_its_finding_is_the_same_for_every_jobs(tmp_path, capsys):
    """The finding of the lowest seed, whatever N; the shards after its shard dropped."""
    one = fuzz_run(capsys, tmp_path / "1", 1)
    code, report, written = one
    assert code == ExitCode.FAILURES
    assert [f["seed"] for f in report["findings"]] == [0] and len(written) == 1
    assert report["tried"] == [[0, 0]] and report["untried"] == [[1, 119]]
    for jobs in (2, 3):
        assert fuzz_run(capsys, tmp_path / str(jobs), jobs) == one


def test_a_run_that_keeps_going_is_the_same_for_every_jobs(tmp_path, capsys):
    """Every shard, each cause shrunk once per shard: the same findings shrunk and
    written, the same counts, the same smallest finding of each cause."""
    one = fuzz_run(capsys, tmp_path / "1", 1, "--keep-going")
    code, report, written = one
    assert code == ExitCode.FAILURES and report["tried"] == [[0, 119]]
    assert {c["rule"] for c in report["causes"]} == {"HR-COUNT-3", "HR-SETTLE-1"}
    assert len(written) == len(report["findings"]) > 2  # shrunk once per cause and shard
    assert fuzz_run(capsys, tmp_path / "2", 2, "--keep-going") == one


MUTANTS = ("zero-end-not-listed", "round-each-opponent", "drawn-tile-continues")
ONLY = [a for name in MUTANTS for a in ("--only", name)]


def mutants_json(capsys, *args: str) -> dict:
    assert main(["mutants", "--format", "json", *args, *ONLY]) == ExitCode.OK
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize("how", [["--in-process"], []], ids=["in-process", "through-the-protocol"])
def test_mutants_verdicts_are_the_same_for_every_jobs(capsys, how):
    one = mutants_json(capsys, "--jobs", "1", *how)
    assert [m["mutant"] for m in one["mutants"]] == list(MUTANTS) and one["survivors"] == []
    assert mutants_json(capsys, "--jobs", "2", *how) == one


def test_in_process_jobs_judges_in_the_workers(capsys, monkeypatch):
    """With --jobs 2 the mutants are judged by the worker processes: a judge broken in
    this process alone does not touch the verdicts (``--in-process`` used to ignore
    --jobs and judge them here); with --jobs 1 it is this process's judge."""
    one = mutants_json(capsys, "--jobs", "1", "--in-process")

    def broken(*args: object, **kwargs: object) -> object:
        raise AssertionError("judged in this process")

    monkeypatch.setattr(mutants, "judge_in_process", broken)
    assert mutants_json(capsys, "--jobs", "2", "--in-process") == one
    assert main(["mutants", "--jobs", "1", "--in-process", *ONLY]) != ExitCode.OK
    assert "judged in this process" in capsys.readouterr().err


def _children(pid: int) -> list[int]:
    out = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout
    return [int(p) for p in out.split()]


def _served_alive(tag: str) -> list[str]:
    pattern = f"^{re.escape(sys.executable)} {re.escape(SERVED)} {re.escape(tag)}"
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


@pytest.mark.parametrize(("signum", "code"), [(signal.SIGTERM, ExitCode.TERMINATED), (signal.SIGINT, 130)])
def test_a_signal_to_a_run_on_two_workers_leaves_no_process(tmp_path, signum, code):
    """``fuzz --jobs 2 --keep-going`` on a long budget, stopped once its first shard's
    findings are written: the summary of the shards done, the --seed and --budget of the
    rest, and neither worker nor implementation left running."""
    budget = 1_000_000
    tag = "interior-double-counted"
    impl = " ".join(served_argv(tag))
    argv = [sys.executable, "-m", "horserace", "fuzz", "--impl", impl, "--kind", "layout", "--budget", str(budget)]
    argv += ["--jobs", "2", "--keep-going", "--out", str(tmp_path), "--format", "json"]
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_sigint_as_at_a_terminal)
    deadline = time.monotonic() + 120
    while not list(tmp_path.glob("generated/*.yaml")) and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.1)
    workers = _children(proc.pid)
    implementations = [c for w in workers for c in _children(w)]
    assert len(workers) >= 2 and len(implementations) >= 2  # two workers, each with its implementation
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err.decode()[-500:]
    assert b"Traceback" not in err and b"Exception ignored" not in err
    report = json.loads(out)
    ((first, last),) = report["tried"]
    assert first == 0 and (last + 1) % 400 == 0  # whole shards, in order
    assert report["resume"] == [{"seed": last + 1, "budget": budget - last - 1}]
    assert report["findings"] and all(Path(f["path"]).exists() for f in report["findings"])
    assert left_running(workers + implementations) == []
    assert _served_alive(tag) == []
