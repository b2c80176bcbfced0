"""The runner's promises that the hostile suite (test_hostile_suite.py, one broken
implementation per case through the real command) does not reach from outside: the
safety net for a defect of the runner itself, a write to an implementation that stops
reading, and daemons found in process (where the runner does not own its process)."""

from __future__ import annotations

import itertools
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import read_stream
from tests.helpers import alive, bundled_corpus

pytestmark = pytest.mark.slow  # subprocesses

FAKE = Path(__file__).with_name("fake_impl.py")
LAYOUT = "7SWR67"
SUBSET = ["--select", "kind:layout", "--select", "kind:settlement"]


def test_a_fixture_the_runner_loses_still_gets_an_outcome(monkeypatch):
    """The safety net behind every other case: if running fixtures fails inside the
    runner itself, the fixtures left are crashes with the reason, never missing."""
    from horserace.conformance import runner
    from horserace.corpus.loader import load_paths

    fixtures = [fx for fx in load_paths().fixtures if fx.kind == "settlement"][:5]
    real = runner.Worker.run_many

    def fails_after_one(self, items, emit):
        real(self, itertools.islice(items, 1), emit)  # items: a generator of the fixtures
        raise RuntimeError("a defect")

    monkeypatch.setattr(runner.Worker, "run_many", fails_after_one)
    outcomes = runner.run([sys.executable, "-m", "horserace", "serve"], fixtures, runner.Options(timeout=5))
    assert [o.fixture.id for o in outcomes] == [fx.id for fx in fixtures]
    assert outcomes[0].status == "pass"
    assert all(o.status == "crash" and "RuntimeError: a defect" in o.message for o in outcomes[1:])
    assert not runner.conformant(outcomes)


@pytest.mark.parametrize("one_shot", [False, True], ids=["persistent", "one-shot"])
def test_an_implementation_that_stops_reading_costs_a_timeout_not_a_hang(one_shot):
    """A request bigger than the pipe's buffer to an implementation that does not read:
    the write gives up at the fixture's time limit, and the failure is a timeout."""
    import time

    from horserace.conformance.process import Implementation
    from horserace.errors import ImplementationFailure

    impl = Implementation([sys.executable, str(FAKE), "stop-reading"], one_shot=one_shot)
    big = {"type": "run", "seq": "1", "kind": "play", "input": {"padding": "x" * 300_000}}
    start = time.monotonic()
    with pytest.raises(ImplementationFailure) as failure:
        if one_shot:
            impl.exchange(big, 1)
        else:
            impl.send(big, 1)  # pipelined: returns at the time limit, the failure kept for receive
            impl.receive(1)
    assert failure.value.outcome == "timeout" and "stopped reading its input" in failure.value.message
    assert time.monotonic() - start < 10
    impl.kill()


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finding descendants reads /proc (Linux)")
def test_a_daemon_in_its_own_session_is_found_by_its_mark_in_process(tmp_path, monkeypatch):
    """A helper that leaves the process group (fork, setsid, fork: a daemon) and holds
    the pipes while the leader exits, with the runner inside another program (pytest
    here), which does not let it treat an unknown child as an orphan: the daemon is found
    by the mark in its environment and killed.  (The hostile suite runs the daemons,
    with and without the mark, through the ``horserace`` command.)"""
    import time

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    report = tmp_path / "report"
    argv = [
        "conform",
        "--impl",
        f"{sys.executable} {FAKE} setsid-exit {LAYOUT}",
        "--report-dir",
        str(report),
        "--timeout",
        "1",
        "--handshake-timeout",
        "3",
        *SUBSET,
    ]
    code = main(argv)
    assert code == ExitCode.FAILURES
    _, records, _ = read_stream(report / "results.jsonl")
    results = {r["id"]: r for r in records}
    assert results[LAYOUT]["status"] in ("timeout", "crash")
    assert all(r["status"] in ("pass", "skip") for r in results.values() if r["id"] != LAYOUT)
    daemons = [int(line) for line in pids.read_text().split()]
    assert daemons
    deadline = time.monotonic() + 2
    while any(alive(pid) for pid in daemons) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in daemons if alive(pid)] == []


@pytest.mark.parametrize("one_shot", [False, True], ids=["persistent", "one-shot"])
def test_a_leader_that_exits_is_a_crash_at_once_whatever_its_helper_holds_open(tmp_path, monkeypatch, one_shot):
    """Issue 22: the leader exits without answering every third request, its helper (in
    a session of its own) keeping the pipes open.  The runner is the leader's parent and
    sees the exit at once: each such fixture is a ``crash`` that says so, never a
    ``timeout`` waited out (``--timeout 30``: a wait would be one), and the helpers are
    ended.  Shown to fail before the leader was watched (each a timeout of 30 s)."""
    import time

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    monkeypatch.setenv("FAKE_COUNT_FILE", str(tmp_path / "count"))
    report = tmp_path / "report"
    mode = ["--one-shot"] if one_shot else []
    impl = f"{sys.executable} {FAKE} leader-exits-every 3"
    argv = ["conform", "--impl", impl, "--report-dir", str(report), "--timeout", "30", *mode, *SUBSET]
    assert main(argv) == ExitCode.FAILURES
    _, records, _ = read_stream(report / "results.jsonl")
    statuses = [r["status"] for r in records]
    crashes = [r for r in records if r["status"] == "crash"]
    assert "timeout" not in statuses and len(crashes) >= len(records) // 4
    assert all("exited without answering (exit status 3)" in r["message"] for r in crashes)
    assert set(statuses) <= {"pass", "crash", "skip"}
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) >= len(crashes)
    deadline = time.monotonic() + 2
    while any(alive(pid) for pid in daemons) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in daemons if alive(pid)] == []


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_hello_that_changes_after_a_restart_makes_the_implementation_unusable_once(
    tmp_path, monkeypatch, capsys, jobs
):
    """Issue 22: started again after it exits at the layout fixture, the implementation
    declares other kinds.  Its first hello is the run's scope: the run stops there, as
    unusable (exit 3), said once with the difference; the fixtures before are kept (and
    its crash), and none is run under a scope the implementation no longer declares.
    With ``--jobs 2`` the second process gives the other hello at once.  Shown to fail
    before the hello was fixed for the run (the later fixtures run, or skipped, under the
    new hello)."""
    monkeypatch.setenv("FAKE_COUNT_FILE", str(tmp_path / "count"))
    report = tmp_path / "report"
    run = [fx for fx in bundled_corpus().fixtures if fx.kind in ("layout", "settlement") and not fx.variants]
    first = run[4].id  # four pass before it
    impl = f"{sys.executable} {FAKE} hello-changes {first}"
    argv = ["conform", "--impl", impl, "--report-dir", str(report), "--jobs", jobs, *SUBSET]
    assert main(argv) == ExitCode.IMPLEMENTATION_UNUSABLE
    out = capsys.readouterr().out
    _, records, footer = read_stream(report / "results.jsonl")
    said = "its hello changed when it was started again (kinds: "
    assert said in footer["unusable"] and ', then ["settlement"]' in footer["unusable"]
    assert out.count(said) == 1 and "implementation unusable: its hello changed" in out
    before = [r for r in records if r["id"] != first]
    assert before and all(r["status"] in ("pass", "skip") for r in before)  # kept
    crashed = [r for r in records if r["id"] == first]  # its exit, where --jobs 1 ran it
    assert all(r["status"] == "crash" and "closed its output" in r["message"] for r in crashed)
    order = [fx.id for fx in bundled_corpus().fixtures]
    if jobs == "1":  # nothing after it ran
        assert crashed and max(order.index(r["id"]) for r in records) == order.index(first)
