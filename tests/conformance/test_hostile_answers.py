"""Answers that are valid JSON to a lenient parser but no protocol message (issue: a
runner nothing can break): nested 100,000 deep, NaN, lone surrogates.  Each costs the
fixture it answers a ``crash`` with the reason, the run goes on, every report is
written, and the stream and report.json stay strict JSON."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import read_stream

pytestmark = pytest.mark.slow  # subprocesses

FAKE = Path(__file__).with_name("fake_impl.py")
LAYOUT = "7SWR67"
SUBSET = ["--select", "kind:layout", "--select", "kind:settlement"]


def _strict(text: str):
    def refuse(constant: str):
        raise ValueError(f"bare {constant}")

    return json.loads(text, parse_constant=refuse)


def run(tmp_path, mode, arg=""):
    report = tmp_path / "report"
    code = main(
        [
            "conform",
            "--impl",
            f"{sys.executable} {FAKE} {mode} {arg}",
            "--report-dir",
            str(report),
            "--timeout",
            "5",
            "--handshake-timeout",
            "3",
            *SUBSET,
        ]
    )
    for name in ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html"):
        assert (report / name).exists(), name
    for line in (report / "results.jsonl").read_text(encoding="utf-8").splitlines():
        _strict(line)
    _strict((report / "report.json").read_text(encoding="utf-8"))
    ET.parse(report / "junit.xml")
    _, results, footer = read_stream(report / "results.jsonl")
    return code, {r["id"]: r for r in results}, footer


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("deep", "nested too deep"),
        ("nan", "not strict JSON: NaN"),
        ("surrogate-observations", "lone surrogate"),
    ],
)
def test_an_undecodable_answer_is_a_crash_of_its_fixture_and_the_run_goes_on(tmp_path, capsys, mode, words):
    code, results, footer = run(tmp_path, mode, LAYOUT)
    assert code == ExitCode.FAILURES and not footer["conformant"]
    assert results[LAYOUT]["status"] == "crash" and words in results[LAYOUT]["message"]
    others = [r for r in results.values() if r["id"] != LAYOUT]
    assert len(others) >= 40 and all(r["status"] in ("pass", "skip") for r in others)


def test_a_lone_surrogate_in_a_message_is_replaced_and_said(tmp_path, capsys):
    code, results, _ = run(tmp_path, "surrogate-message", LAYOUT)
    assert code == ExitCode.FAILURES
    assert results[LAYOUT]["status"] == "error"
    assert results[LAYOUT]["message"] == "bad \ufffd input [lone surrogates replaced by U+FFFD]"


def test_a_lone_surrogate_in_the_hello_is_replaced_and_the_run_goes_on(tmp_path, capsys):
    code, results, footer = run(tmp_path, "surrogate-hello")
    assert code == ExitCode.OK and footer["conformant"] and results
    header, _, _ = read_stream(tmp_path / "report" / "results.jsonl")
    assert header["implementation"]["name"].startswith("fake \ufffd engine")


@pytest.mark.parametrize(("mode", "words"), [("deep-hello", "nested too deep"), ("nan-hello", "NaN")])
def test_an_undecodable_hello_makes_the_implementation_unusable(tmp_path, capsys, mode, words):
    code, results, footer = run(tmp_path, mode)
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE and words in footer["unusable"]


def test_a_fixture_the_runner_loses_still_gets_an_outcome(monkeypatch):
    """The safety net behind every other case: if running fixtures fails inside the
    runner itself, the fixtures left are crashes with the reason, never missing."""
    from horserace.conformance import runner
    from horserace.corpus.loader import load_paths

    fixtures = [fx for fx in load_paths().fixtures if fx.kind == "settlement"][:5]
    real = runner.Worker.run_many

    def fails_after_one(self, items, emit):
        real(self, items[:1], emit)
        raise RuntimeError("a defect")

    monkeypatch.setattr(runner.Worker, "run_many", fails_after_one)
    outcomes = runner.run([sys.executable, "-m", "horserace", "serve"], fixtures, runner.Options(timeout=5))
    assert [o.fixture.id for o in outcomes] == [fx.id for fx in fixtures]
    assert outcomes[0].status == "pass"
    assert all(o.status == "crash" and "RuntimeError: a defect" in o.message for o in outcomes[1:])
    assert not runner.conformant(outcomes)


def test_a_helper_that_keeps_the_pipes_open_is_killed_with_its_group(tmp_path, capsys):
    """The leader exits on one fixture while a helper of its process group holds its
    pipes: that fixture times out, the group (helper included) is killed, the run goes
    on with a new process, and nothing of it is left running."""
    import subprocess
    import time

    tag = f"fake_impl.py daemon-exit {LAYOUT} {tmp_path.name}"
    report = tmp_path / "report"
    code = main(
        [
            "conform",
            "--impl",
            f"{sys.executable} {FAKE} daemon-exit {LAYOUT} {tmp_path.name}",
            "--report-dir",
            str(report),
            "--timeout",
            "1",
            "--handshake-timeout",
            "3",
            *SUBSET,
        ]
    )
    _, records, footer = read_stream(report / "results.jsonl")
    results = {r["id"]: r for r in records}
    assert code == ExitCode.FAILURES
    assert results[LAYOUT]["status"] in ("timeout", "crash")
    assert all(r["status"] in ("pass", "skip") for r in results.values() if r["id"] != LAYOUT)
    time.sleep(0.5)
    assert subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout.split() == []


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


def test_control_characters_from_the_implementation_reach_no_report_raw(tmp_path, capsys):
    """An ESC sequence in a message cannot clear the terminal or print a fake verdict, and
    junit.xml stays well-formed (run() parses it) with NUL and ESC in the text."""
    code, results, _ = run(tmp_path, "control-message", LAYOUT)
    assert code == ExitCode.FAILURES and results[LAYOUT]["status"] == "error"
    out = capsys.readouterr().out
    assert "\x1b" not in out and "\x07" not in out and "\r" not in out
    assert "\\x1b[2J\\x0dCONFORMANT\\x07\\x0asecond line" in out
    assert out.rstrip().splitlines()[-2] == "NOT CONFORMANT"
    junit = (tmp_path / "report" / "junit.xml").read_text(encoding="utf-8")
    assert "\x1b" not in junit and "\x00" not in junit and "\\x1b[2J" in junit


def _alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie does not)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


@pytest.mark.skipif(not Path("/proc/self/environ").exists(), reason="finding descendants reads /proc (Linux)")
@pytest.mark.parametrize(
    ("mode", "in_process"),
    [("setsid-exit", True), ("setsid-exit", False), ("setsid-clean-env", False)],
    ids=["own-session-in-process", "own-session-command", "own-session-empty-environment-command"],
)
def test_a_daemon_in_its_own_session_is_found_and_killed(mode, in_process, tmp_path, monkeypatch):
    """A helper that leaves the process group (fork, setsid, fork: a daemon) and holds
    the pipes while the leader exits: it is found (by the mark in its environment, or, as
    an orphan re-parented to the runner, by its parent) and killed; none outlives the run.
    The empty-environment daemon carries no mark: only the ``horserace`` command, which
    owns its process, may treat an unknown child as an orphan, so that case runs there."""
    import subprocess
    import time

    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    report = tmp_path / "report"
    argv = [
        "conform",
        "--impl",
        f"{sys.executable} {FAKE} {mode} {LAYOUT}",
        "--report-dir",
        str(report),
        "--timeout",
        "1",
        "--handshake-timeout",
        "3",
        *SUBSET,
    ]
    if in_process:
        code = main(argv)
    else:
        code = subprocess.run([sys.executable, "-m", "horserace", *argv], capture_output=True, timeout=120).returncode
    assert code == ExitCode.FAILURES
    _, records, _ = read_stream(report / "results.jsonl")
    results = {r["id"]: r for r in records}
    assert results[LAYOUT]["status"] in ("timeout", "crash")
    assert all(r["status"] in ("pass", "skip") for r in results.values() if r["id"] != LAYOUT)
    daemons = [int(line) for line in pids.read_text().split()]
    assert daemons
    deadline = time.monotonic() + 2
    while any(_alive(pid) for pid in daemons) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in daemons if _alive(pid)] == []
