"""A signal sent to the ``horserace conform`` process alone (what ``timeout``, ``kill PID``
and a CI's cancel do; not a Ctrl-C to the whole process group), at many moments of a run,
in persistent and in one-shot mode (issue 22): each run ends with the signal's exit code
(130, 143, 129) or, signalled after it finished, its own; never a traceback or an internal
error; never a temporary file left; and whenever the report folder holds a stream, the
stream is whole (header to footer) and every report and badge is beside it.  A signal
before the command's handlers are in place, or after they are taken down, kills it by the
default action: before it has written anything, or after it has written everything.

The delays sweep the whole run: from the interpreter's start-up to after the end, the
moments in between spread evenly over the time an unsignalled run takes on this machine
(measured first).  Shown to fail before the stream's finishing and the reports' writing
held signals back (a stream not yet renamed into place: "internal error: FileNotFoundError
... results.jsonl", exit 5, a ``.results-*.jsonl.tmp`` left)."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from horserace.cli.exitcodes import ExitCode

pytestmark = pytest.mark.slow

SELECT = ["--select", "HR-SETTLE-3"]  # 13 settlements: a one-shot run of a few seconds
REPORTS = ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html", "badge.svg", "badge.json")
CODES: dict[int, ExitCode] = {
    signal.SIGINT: ExitCode.INTERRUPTED,
    signal.SIGTERM: ExitCode.TERMINATED,
    signal.SIGHUP: ExitCode.HANGUP,
}
#: Where in the run the signals land, as fractions of an unsignalled run's length, from
#: the first imports of horserace's command to after the end.  Not earlier: a SIGINT in
#: the interpreter's own start-up, before any code of horserace runs, gets Python's
#: KeyboardInterrupt traceback, as every Python program does (SIGTERM there kills it by
#: the default action, and is tried: the first moment, 0).
MOMENTS = (0.0, 0.1, 0.25, 0.4, 0.55, 0.7, 0.85, 1.0, 1.2)


def _default_sigint() -> None:
    """SIGINT at its default action in the child, as at a terminal (a shell without job
    control starts background commands with it ignored; see test_signals.py)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def _start(report: Path, mode: list[str]) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "horserace", "conform", *SELECT, *mode, "--report-dir", str(report)]
    return subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)


def _check(report: Path, code: int, err: str, signum: int) -> None:
    assert "Traceback" not in err and "internal error" not in err, err[-800:]
    if code == -signum:
        # Killed by the default action (a shell says 128 + the signal): before the
        # command's handlers were in place, when nothing had begun, or after they were
        # taken down, when everything was written.
        if report.exists() and any(report.iterdir()):
            assert all((report / name).is_file() for name in REPORTS), sorted(p.name for p in report.iterdir())
            assert not [p for p in report.iterdir() if p.name.startswith(".")]
        return
    assert code in (CODES[signum], ExitCode.OK), (code, err[-800:])
    if not report.exists():
        assert code == CODES[signum]  # stopped before the run began
        return
    left = sorted(p.name for p in report.iterdir() if p.name.startswith("."))
    assert not left, f"temporary files left: {left}"
    if not (report / "results.jsonl").exists():
        assert code == CODES[signum] and not any(report.iterdir()), sorted(p.name for p in report.iterdir())
        return
    lines = [json.loads(line) for line in (report / "results.jsonl").read_text(encoding="utf-8").splitlines()]
    assert lines[0]["record"] == "header" and lines[-1]["record"] == "footer"
    for name in REPORTS:
        assert (report / name).is_file(), name


@pytest.mark.parametrize("mode", [[], ["--one-shot"]], ids=["persistent", "one-shot"])
def test_a_signal_to_the_process_alone_at_any_moment_leaves_whole_outputs(tmp_path, mode):
    began = time.monotonic()
    whole = _start(tmp_path / "unsignalled", mode)
    _, err = whole.communicate(timeout=120)
    length = time.monotonic() - began
    assert whole.returncode == ExitCode.OK, err.decode()[-500:]
    signals = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
    for n, moment in enumerate(MOMENTS):
        signum = signals[n % len(signals)]  # SIGTERM first, at the start
        report = tmp_path / f"at-{n}"
        proc = _start(report, mode)
        time.sleep(moment * length)
        proc.send_signal(signum)
        _, err = proc.communicate(timeout=120)
        _check(report, proc.returncode, err.decode(errors="replace"), signum)
