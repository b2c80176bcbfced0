"""SIGINT, SIGTERM and SIGHUP sent to a real ``horserace conform`` mid-run: the
implementation is stopped, the stream is finished as interrupted, all five reports are
written from it, and the exit code is 130, 143 or 129."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from horserace.cli.exitcodes import ExitCode

pytestmark = pytest.mark.slow

FAKE = Path(__file__).with_name("fake_impl.py")
HANGS_ON = "7SWR67"  # a layout fixture: the fake answers the ones before it, then hangs


def _fakes_alive(tag: str) -> list[str]:
    """The fake implementations running with ``tag`` in their arguments: processes whose
    command line *starts* with the fake's (``conform`` carries the same words in its
    ``--impl`` argument, and must not count: it is up before its signal handlers are)."""
    pattern = f"^{re.escape(sys.executable)} {re.escape(str(FAKE))} {re.escape(tag)}"
    out = subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True)
    return out.stdout.split()


def _sigint_as_at_a_terminal() -> None:
    """In the child, before it runs: SIGINT at its default action.  A command started in
    the background by a shell without job control (``cmd &`` in a script, as CI may run
    the suite) inherits SIGINT ignored, and Python then installs no KeyboardInterrupt
    handler: ``horserace conform`` rightly keeps the signal ignored, as every program so
    started does, and this test would wait out the timeout instead."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.mark.parametrize(
    ("signum", "code"),
    [
        (signal.SIGINT, ExitCode.INTERRUPTED),
        (signal.SIGTERM, ExitCode.TERMINATED),
        (signal.SIGHUP, ExitCode.HANGUP),
    ],
)
def test_a_signal_mid_run_writes_every_report_and_stops_the_implementation(tmp_path, signum, code):
    report = tmp_path / "report"
    tag = f"hang-fixture {HANGS_ON} {signum}"  # unique per case, to count its processes
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "conform",
            "--impl",
            f"{sys.executable} {FAKE} hang-fixture {HANGS_ON} {signum}",
            "--select",
            "kind:layout",
            "--timeout",
            "60",
            "--report-dir",
            str(report),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    deadline = time.monotonic() + 30
    while not _fakes_alive(tag) and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(1.0)  # it has answered the fixtures before the one it hangs on
    proc.send_signal(signum)
    _, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err.decode()[-500:]
    assert b"Traceback" not in err
    for name in ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html"):
        assert (report / name).exists(), name
    lines = (report / "results.jsonl").read_text(encoding="utf-8").splitlines()
    footer = json.loads(lines[-1])
    assert footer["record"] == "footer" and footer["interrupted"] and not footer["conformant"]
    assert not [p for p in report.iterdir() if p.name.startswith(".")]  # no temporary file left
    time.sleep(0.5)
    assert _fakes_alive(tag) == []
