"""``horserace impact`` on the command line: its help, its JSON and HTML, its usage errors,
the extra it needs named when missing, and a stop by SIGINT or SIGTERM that prints what
ran, exits 130 or 143 and leaves no worker process behind."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import time

import psutil
import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from tests.conformance.test_signals import _sigint_as_at_a_terminal
from tests.helpers import left_running

pytest.importorskip("scipy", reason="the impact extra (NumPy, SciPy) is not installed")

SMALL = ["impact", "--rules", "canonical", "--rules", "one-branch", "--matches", "8", "--players", "2"]


def test_help_teaches_the_design(capsys):
    with pytest.raises(SystemExit) as stop:
        main(["impact", "--help"])
    assert stop.value.code == 0
    text = capsys.readouterr().out
    for said in ("common random numbers", "Holm", "smallest", "--streams", "--jobs", "--cluster", "horserace[impact]"):
        assert said in text, said


def test_json_and_html(tmp_path, capsys):
    code = main([*SMALL, "--players", "partnership", "--format", "json", "--html", str(tmp_path)])
    data = json.loads(capsys.readouterr().out)
    assert code in (ExitCode.OK, ExitCode.FAILURES)
    assert code == (ExitCode.FAILURES if data["significant"] else ExitCode.OK)
    assert data["paired"] and data["tests"] == 2 * 13 == len(data["rows"])
    assert [s["seating"] for s in data["seatings"]] == ["2 players", "partnership"]
    row = data["rows"][0]
    assert row["ci95"][0] <= row["difference"] <= row["ci95"][1] and row["smallest_detectable"] > 0
    page = (tmp_path / "impact.html").read_text()
    assert page.count('class="forest"') == 2 and page.count('class="bars"') == 4


@pytest.mark.parametrize(
    ("argv", "said"),
    [
        (["impact", "--rules", "canonical"], "exactly twice"),
        ([*SMALL, "--level", "1.5"], "between 0 and 1"),
        ([*SMALL, "--jobs", "2", "--cluster", "local:2"], "--jobs is for a local run"),
        (["impact", "--rules", "canonical", "--rules", "no-such-rules"], "no bundled ruleset"),
    ],
)
def test_usage_errors(argv, said, capsys):
    assert main(argv) == ExitCode.USAGE
    assert said in capsys.readouterr().err


def test_without_the_extra_it_names_the_extra(monkeypatch, capsys):
    monkeypatch.setitem(sys.modules, "scipy", None)  # import scipy now fails
    assert main(SMALL) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "pip install 'horserace[impact]'" in err and "Traceback" not in err


@pytest.mark.slow
@pytest.mark.parametrize(("signum", "code"), [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_stops_the_study_with_what_ran(signum, code):
    proc = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "horserace",
            "impact",
            "--rules",
            "canonical",
            "--rules",
            "one-branch",
            "--matches",
            "100000",
            "--players",
            "2",
            "--jobs",
            "2",
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=_sigint_as_at_a_terminal,
    )
    parent = psutil.Process(proc.pid)
    deadline = time.monotonic() + 60
    while len(parent.children(recursive=True)) < 2 and time.monotonic() < deadline:
        time.sleep(0.1)
    workers = [c.pid for c in parent.children(recursive=True)]
    time.sleep(3)  # some shards finish
    proc.send_signal(signum)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == code, err.decode()[-500:]
    assert b"Traceback" not in err and b"shards that ran" in err
    found = re.search(rb"stopped: (\d+) of (\d+) shards ran", out)
    assert found and int(found[2]) == 100_000 // 50, out[-500:]
    assert (b"2 players (" in out) == (int(found[1]) > 0)  # the figures of the shards that ran
    assert left_running(workers) == []


def test_bench_measures_the_study_with_one_and_two_jobs(capsys):
    assert (
        main(["bench", "--hands", "0", "--impact", "--impact-matches", "3", "--repeat", "1", "--format", "json"]) == 0
    )
    impact = json.loads(capsys.readouterr().out)["impact"]
    assert impact["matches_per_run"] == 2 * 4 * 3
    assert [f["jobs"] for f in impact["figures"]] == [1, 2] and impact["figures"][0]["median_speed_up"] == 1.0
