"""SIGINT and SIGTERM sent to a real ``horserace fuzz`` in a local run, once it has
found something (issue 20: "Ctrl-C prints the seeds done"; SIGTERM used to kill it
without a word): the run stops, the summary is printed (text, or JSON) with the seeds
fuzzed, the findings so far, each written, and the --seed and --budget that fuzz the
rest; the implementation is stopped; the exit code is 130 or 143."""

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
from horserace.corpus.loader import load_paths
from tests.conformance.test_signals import _sigint_as_at_a_terminal
from tests.quality.served import SERVED, served_argv

pytestmark = pytest.mark.slow

BUDGET = 1_000_000


def _served_alive(tag: str) -> list[str]:
    pattern = f"^{re.escape(sys.executable)} {re.escape(SERVED)} {re.escape(tag)}"
    return subprocess.run(["pgrep", "-f", pattern], capture_output=True, text=True).stdout.split()


def _fuzz_until_found(out: Path, tag: str, *extra: str) -> subprocess.Popen[bytes]:
    """``horserace fuzz --keep-going`` on a counting bug, up once its first finding is
    written (each is written as soon as it is shrunk)."""
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "fuzz",
            "--impl",
            " ".join(served_argv(tag)),
            "--kind",
            "layout",
            "--budget",
            str(BUDGET),
            "--keep-going",
            "--out",
            str(out),
            *extra,
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    deadline = time.monotonic() + 30
    while not list(out.glob("generated/*.yaml")) and time.monotonic() < deadline:
        if proc.poll() is not None:
            break
        time.sleep(0.1)
    return proc


def test_ctrl_c_prints_the_seeds_done_and_how_to_resume(tmp_path):
    mutant = "unstarted-branch-counted"
    proc = _fuzz_until_found(tmp_path, mutant)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == ExitCode.INTERRUPTED, err.decode()[-500:]
    assert b"Traceback" not in err and b"horserace: interrupted; the summary holds the " in err
    text = out.decode()
    last = text.splitlines()[-1]
    found = re.fullmatch(
        rf"INTERRUPTED by SIGINT: fuzzed seeds 0\.\.(\d+) of 0\.\.{BUDGET - 1}; to fuzz the rest, run again with "
        r"--seed (\d+) --budget (\d+) \(the other options as given\)",
        last,
    )
    assert found, last
    done, resume, budget = (int(g) for g in found.groups())
    assert resume == done + 1 and budget == BUDGET - resume
    assert "causes: 1 in " in text and "HR-COUNT-3, reproduced by deviation unstarted-branch-counted" in text
    written = re.findall(r"written to (\S+)", text)
    assert written and all(Path(p).exists() for p in written)
    assert load_paths([tmp_path]).errors == []
    time.sleep(0.5)
    assert _served_alive(mutant) == []


def test_sigterm_prints_the_summary_too(tmp_path):
    proc = _fuzz_until_found(tmp_path, "interior-double-counted", "--format", "json")
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == ExitCode.TERMINATED, err.decode()[-500:]
    assert b"Traceback" not in err and b"stopped by SIGTERM (signal 15)" in err
    report = json.loads(out)
    assert report["interrupted"] == "SIGTERM"
    ((first, last),) = report["tried"]
    assert first == 0 and report["resume"] == [{"seed": last + 1, "budget": BUDGET - last - 1}]
    (cause,) = report["causes"]
    assert (cause["rule"], cause["deviation"]) == ("HR-COUNT-3", "interior-double-counted")
    assert report["findings"] and all(Path(f["path"]).exists() for f in report["findings"])
    time.sleep(0.5)
    assert _served_alive("interior-double-counted") == []
