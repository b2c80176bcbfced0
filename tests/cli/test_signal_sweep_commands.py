"""A signal sent to a command's process alone (``timeout``, ``kill PID``, a CI's cancel), at
moments that sweep its whole run, for every command that writes or prints a result besides
``conform`` (its own sweep is ``tests/conformance/test_signal_sweep.py``, and ``fuzz``'s is
``tests/quality/test_fuzz_signals.py``): ``site``, ``export``, ``report``, ``mutants``,
``perft`` and ``replay``.  Each run ends with the signal's exit code (130, 143, 129) or,
signalled after it finished, its own; never a traceback or an internal error; never a
temporary file left in what it writes; and what it wrote is whole: the files a site lists
in its ``site.json`` are there once it says it is complete, the export's manifest lists
files that are there, a report folder holds every report once it exists at all.

Shown to fail before every command ran inside the handlers of SIGTERM and SIGHUP (a site,
an export, a report: killed by the default action, no exit status, files half written),
and before the site and the export wrote each file through a temporary file renamed into
place."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from horserace.cli.exitcodes import ExitCode

pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
STREAM = ROOT / "tests" / "reports" / "streams"
CODES = {signal.SIGINT: ExitCode.INTERRUPTED, signal.SIGTERM: ExitCode.TERMINATED, signal.SIGHUP: ExitCode.HANGUP}
#: Where the signals land, as fractions of an unsignalled run's length (0: as soon as the
#: process exists, SIGTERM; a SIGINT that early would meet Python's own start-up, whose
#: KeyboardInterrupt traceback every Python program shows).
MOMENTS = (0.0, 0.15, 0.3, 0.45, 0.6, 0.75, 0.9, 1.2)
REPORTS = ("report.json", "junit.xml", "report.md", "report.html", "badge.svg", "badge.json")


def _stream() -> Path:
    return min(STREAM.glob("*.jsonl"))


def _whole_site(out: Path, code: int) -> None:
    marker = out / "site.json"
    if not marker.is_file():
        assert code != ExitCode.OK
        return
    stamp = json.loads(marker.read_text(encoding="utf-8"))
    if code == ExitCode.OK:
        assert stamp["complete"] is True
    if stamp["complete"]:
        missing = [name for name in stamp["files"] if not (out / name).is_file()]
        assert not missing, missing[:5]


def _whole_export(out: Path, code: int) -> None:
    manifest = out / "manifest.json"
    if code == ExitCode.OK:
        assert manifest.is_file()
    if manifest.is_file():
        data = json.loads(manifest.read_text(encoding="utf-8"))
        listed = [name for key in ("files", "rulesets", "schemas", "spec") for name in data[key]]
        assert listed and all((out / name).is_file() for name in listed)


def _whole_reports(out: Path, code: int) -> None:
    if code == ExitCode.OK:
        assert all((out / name).is_file() for name in REPORTS)


def _nothing_written(out: Path, code: int) -> None:
    assert not out.exists()


#: name: (the command's words after ``horserace``, OUT standing for its folder; the check
#: of what it wrote).
COMMANDS: dict[str, tuple[list[str], Callable[[Path, int], None]]] = {
    "site": (["site", "OUT"], _whole_site),
    "export": (["export", "OUT"], _whole_export),
    "report": (["report", str(_stream()), "--out", "OUT"], _whole_reports),
    "mutants": (
        ["mutants", "--jobs", "1", "--only", "unstarted-branch-counted", "--only", "interior-double-counted"],
        _nothing_written,
    ),
    "perft": (["perft", "seed:1", "--depth", "12", "--divide"], _nothing_written),
    "replay": (["replay"], _nothing_written),
}


def _default_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_DFL)  # as at a terminal (see test_signals.py)


def _start(words: list[str], out: Path, cwd: Path) -> subprocess.Popen[bytes]:
    argv = [sys.executable, "-m", "horserace", *(str(out) if w == "OUT" else w for w in words)]
    return subprocess.Popen(argv, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=_default_sigint)


def _temporary_files(folder: Path) -> list[str]:
    if not folder.exists():
        return []
    return sorted(str(p.relative_to(folder)) for p in folder.rglob("*") if p.name.startswith(".") or ".tmp" in p.name)


@pytest.mark.parametrize("name", list(COMMANDS))
def test_a_signal_to_the_command_alone_at_any_moment(tmp_path, name):
    words, whole = COMMANDS[name]
    began = time.monotonic()
    unsignalled = _start(words, tmp_path / "unsignalled", tmp_path)
    printed, err = unsignalled.communicate(timeout=120)
    length = time.monotonic() - began
    assert unsignalled.returncode == ExitCode.OK, err.decode()[-500:]
    lines = printed.count(b"\n")
    whole(tmp_path / "unsignalled", ExitCode.OK)
    signals = [signal.SIGTERM, signal.SIGINT, signal.SIGHUP]
    for n, moment in enumerate(MOMENTS):
        signum = signals[n % len(signals)]
        out = tmp_path / f"at-{n}"
        proc = _start(words, out, tmp_path)
        time.sleep(moment * length)
        proc.send_signal(signum)
        out_text, raw = proc.communicate(timeout=120)
        err = raw.decode(errors="replace")
        code = proc.returncode
        assert "Traceback" not in err and "internal error" not in err, (moment, err[-800:])
        if code == -signum:
            # Killed by the default action: before any of horserace's code ran (nothing
            # begun), or in the interpreter's shutdown, after main returned (everything
            # written and printed), where Python has put the default handlers back.
            if out_text or out.exists():
                assert out_text.count(b"\n") == lines, (moment, out_text[-300:])
                whole(out, ExitCode.OK)
            continue
        assert code in (CODES[signum], ExitCode.OK), (moment, signal.Signals(signum).name, code, err[-800:])
        assert not _temporary_files(out), _temporary_files(out)
        whole(out, code)
