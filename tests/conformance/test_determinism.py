"""Every output of ``conform --jobs N`` is byte-identical to that of ``--jobs 1``,
timestamps, durations and the ``jobs`` option aside (issue 21): the stream, report.json,
junit.xml, report.md, report.html, the badge and what the terminal says.

The two runs are separate processes with different hash seeds (``PYTHONHASHSEED``), so an
order taken from a set of strings (a perft ``divide``'s extra moves, once) would differ
between them.  The implementation fails fixtures of several kinds: tests/quality/served.py
with mirror-image moves counted apart in perft (two and three extra moves in a divide) and
an interior spinner's unstarted branches counted.  Shown to fail on the runner before the
outcomes were handed on in fixture order (the stream's results in the order they finished)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

from tests.quality.served import served_argv

IMPL = " ".join(served_argv("mirror-moves-distinct", "unstarted-branch-counted"))

#: What may differ between two runs of the same fixtures: when they ran, how long each
#: took, and how many processes ran them.
_VOLATILE = [
    (re.compile(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"), "TIME"),
    (re.compile(r'"(seconds|elapsed|duration|time)": [0-9.e-]+'), r'"\1": 0'),
    (re.compile(r'time="[0-9.]+"'), 'time="0"'),
    (re.compile(r'"jobs": \d+'), '"jobs": J'),
]


def _masked(text: str) -> str:
    for pattern, replacement in _VOLATILE:
        text = pattern.sub(replacement, text)
    return text


def _conform(cwd: Path, jobs: int, hash_seed: str) -> tuple[str, dict[str, str]]:
    cwd.mkdir()
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    done = subprocess.run(
        [sys.executable, "-m", "horserace", "conform", "--impl", IMPL, "--jobs", str(jobs)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 1, done.stderr
    folder = cwd / "horserace-report"
    return done.stdout, {p.name: p.read_text(encoding="utf-8") for p in sorted(folder.iterdir()) if p.is_file()}


def test_jobs_do_not_change_any_output(tmp_path):
    out_1, files_1 = _conform(tmp_path / "one", 1, "1")
    out_3, files_3 = _conform(tmp_path / "three", 3, "2")
    assert set(files_1) == set(files_3) >= {"results.jsonl", "report.json", "junit.xml", "report.md", "report.html"}
    assert '"divide"' in files_1["results.jsonl"] and "WVVQ6S" in files_1["results.jsonl"]  # the extra moves are there
    for name in files_1:
        assert _masked(files_1[name]) == _masked(files_3[name]), name
    assert _masked(out_1) == _masked(out_3)
