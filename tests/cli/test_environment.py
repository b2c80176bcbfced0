"""A machine that fails horserace: a full disk (simulated with ``RLIMIT_FSIZE``, under
which a write past the limit fails with EFBIG as it would with ENOSPC) or an output that
refuses writes (``/dev/full``).  The user gets exit 6, "the environment failed", a
message naming the file, no temporary file left behind, and no report of an earlier run
that would pass for this one's."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = [
    pytest.mark.slow,  # subprocesses
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_FSIZE and /dev/full: Linux"),
]

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ["scenarios/rule-text/settlement.yaml", "--select", "kind:settlement"]
REPORTS = ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html")


def conform(report: Path, *, file_limit: int | None = None, stdout=subprocess.PIPE) -> subprocess.CompletedProcess:
    def limit() -> None:
        if file_limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    return subprocess.run(
        [sys.executable, "-m", "horserace", "conform", *FIXTURES, "--report-dir", str(report)],
        stdout=stdout,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
        preexec_fn=limit,
        timeout=120,
    )


def leftovers(report: Path) -> list[str]:
    return sorted(p.name for p in report.iterdir() if p.name.startswith("."))


def test_a_full_disk_while_the_stream_is_written_is_exit_6_and_leaves_nothing_stale(tmp_path):
    report = tmp_path / "report"
    report.mkdir()
    for name in REPORTS:  # an earlier run's reports
        (report / name).write_text("old\n")
        os.utime(report / name, (time.time() - 3600, time.time() - 3600))
    done = conform(report, file_limit=4096)
    assert done.returncode == 6, done.stderr
    assert "horserace: the environment failed: cannot write" in done.stderr
    assert "results.jsonl: File too large" in done.stderr
    assert "Traceback" not in done.stderr
    assert leftovers(report) == []
    assert sorted(p.name for p in report.iterdir()) == []  # the old reports would pass for this run's


def test_a_full_disk_while_a_report_is_written_is_exit_6_and_keeps_what_was_written(tmp_path):
    report = tmp_path / "report"
    first = conform(tmp_path / "sizes")
    assert first.returncode == 0, first.stderr
    sizes = {name: (tmp_path / "sizes" / name).stat().st_size for name in REPORTS}
    largest = max(sizes, key=sizes.__getitem__)
    second = sorted(sizes.values())[-2]
    assert sizes[largest] > second * 1.2  # (timings make sizes vary by a few bytes from run to run)
    limit = (second + sizes[largest]) // 2  # every file fits but the largest
    done = conform(report, file_limit=limit)
    assert done.returncode == 6, done.stderr
    assert f"{largest}: File too large" in done.stderr and "Traceback" not in done.stderr
    assert leftovers(report) == []
    assert largest not in {p.name for p in report.iterdir()}
    assert (report / "results.jsonl").exists()


def test_an_output_that_refuses_writes_is_exit_6(tmp_path):
    with Path("/dev/full").open("w") as full:
        done = conform(tmp_path / "report", stdout=full)
    assert done.returncode == 6, done.stderr
    assert "horserace: the environment failed: No space left on device" in done.stderr
    assert "Traceback" not in done.stderr
