"""Cleaning up after an implementation ends its processes and no one else's: a correct
implementation that relies on a detached daemon (setsid, an empty environment) keeps it
under ``--jobs 2``, and nothing is left running once a command is over."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import read_stream
from tests.helpers import left_running

pytestmark = pytest.mark.slow  # subprocesses

FAKE = Path(__file__).with_name("fake_impl.py")
SUBSET = ["--select", "kind:layout", "--select", "kind:settlement"]


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_jobs_2_keeps_the_daemon_of_each_implementation_and_ends_both_with_the_run(tmp_path, monkeypatch):
    """Through the real command (which owns its process).  Each process of a correct implementation starts a detached daemon with an empty
    environment and answers through it.  The second process is stopped and cleaned up
    while the first still has fixtures to answer: the first one's daemon is not the
    second one's, and is kept; every fixture passes.  Both daemons are ended when the
    run ends.  Shown to fail when the cleanup swept every orphan of the runner (the
    first process's fixtures after that cleanup all errors)."""
    pids = tmp_path / "pids"
    sync = tmp_path / "sync"
    sync.mkdir()
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    report = tmp_path / "report"
    impl = f"{sys.executable} {FAKE} keeps-daemon {sync}"
    argv = ["conform", "--impl", impl, "--report-dir", str(report), "--jobs", "2", "--timeout", "60", *SUBSET]
    code = subprocess.run([sys.executable, "-m", "horserace", *argv], capture_output=True, timeout=300).returncode
    _, records, _ = read_stream(report / "results.jsonl")
    errors = [r["id"] for r in records if r["status"] == "error"]
    assert errors == []
    assert code == ExitCode.OK
    assert (sync / "second.pid").exists()  # two processes ran
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) == 2
    assert left_running(daemons) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_the_pytest_plugin_ends_the_daemon_of_the_implementation(pytester, monkeypatch, tmp_path):
    """The same implementation through the pytest plugin: every item passes (its daemon
    kept), and the daemon is ended with the session."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    impl = f"{sys.executable} {FAKE} keeps-daemon -"
    result = pytester.runpytest_subprocess(
        "-p", "no:cacheprovider", "--horserace-impl", impl, "-q", "-k", "HR-SETTLE-3"
    )
    assert result.ret == 0
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) == 1
    assert left_running(daemons) == []


def _tagged(tag: str) -> list[int]:
    """The processes whose command line holds ``tag``."""
    found = []
    for entry in Path("/proc").iterdir():
        try:
            with (entry / "cmdline").open("rb") as f:
                if tag.encode() in f.read().split(b"\0"):
                    found.append(int(entry.name))
        except (OSError, ValueError):
            pass
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_runner_killed_outright_leaves_nothing_of_the_implementation_running(tmp_path, monkeypatch):
    """SIGKILL to ``conform`` while the implementation (with its detached daemon) works
    on a fixture: the runner cleans up nothing, yet the implementation's reaper sees the
    runner gone and ends the implementation and its daemon."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    tag = f"tag-{os.getpid()}-{tmp_path.name}"
    impl = f"{sys.executable} {FAKE} keeps-daemon hang {tag}"
    argv = [sys.executable, "-m", "horserace", "conform", "--impl", impl, "--report-dir", str(tmp_path / "r")]
    runner = subprocess.Popen(
        [*argv, "--timeout", "600", *SUBSET], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        for _ in range(3000):  # the daemon is up once its PID is written
            if pids.exists() and pids.read_text().endswith("\n"):
                break
            time.sleep(0.01)
        leaders = _tagged(tag)
        assert leaders  # the implementation (and its reaper, whose command line holds it)
    finally:
        runner.send_signal(signal.SIGKILL)
        runner.wait()
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) == 1
    assert left_running(daemons + leaders) == []


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_an_implementation_that_kills_its_parent_leaves_nothing_running(tmp_path, monkeypatch):
    """At its first request the implementation kills its parent (its reaper) and answers
    on.  Through the real command: the run ends with every fixture judged, and no process
    of the implementation is left.  Whether the reaper's end is seen as a crash before the
    answer arrives is a race the implementation wins or loses (on a loaded machine its
    answer can come first, and is judged as any answer is): either is a judged fixture."""
    monkeypatch.setenv("FAKE_COUNT_FILE", str(tmp_path / "count"))
    tag = f"tag-{os.getpid()}-{tmp_path.name}"
    report = tmp_path / "report"
    impl = f"{sys.executable} {FAKE} kills-reaper - {tag}"
    argv = [sys.executable, "-m", "horserace", "conform", "--impl", impl, "--report-dir", str(report), *SUBSET]
    done = subprocess.run(argv, capture_output=True, timeout=300)
    assert done.returncode in (ExitCode.OK, ExitCode.FAILURES), done.stderr[-500:]
    _, records, footer = read_stream(report / "results.jsonl")
    statuses = {r["status"] for r in records}
    assert statuses <= {"pass", "crash", "skip"} and "pass" in statuses
    assert (done.returncode == ExitCode.FAILURES) == ("crash" in statuses)
    assert left_running(_tagged(tag)) == []
