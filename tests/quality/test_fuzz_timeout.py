"""``horserace fuzz --timeout``: the same checks and meaning as conform's, and an
implementation that stops answering is one finding, waited for once: the scenarios sent
ahead of it are not waited out again, and a timeout is not shrunk.  Nothing the
implementation started is left running once fuzz is over."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from tests.helpers import left_running

pytestmark = pytest.mark.slow  # subprocesses

FAKE = Path(__file__).resolve().parents[1] / "conformance" / "fake_impl.py"


def test_an_implementation_that_stops_reading_is_one_timeout_waited_once(tmp_path, monkeypatch, capsys):
    """It answers its hello, then reads nothing more and never exits.  With
    ``--timeout 1`` and three seeds, the run stops at its first scenario, a timeout that
    says the limit, not shrunk; one process was started (shrinking used to restart it and
    wait out the limit at every step), and it is ended."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    impl = f"{sys.executable} {FAKE} stops-reading"
    argv = ["fuzz", "--impl", impl, "--budget", "3", "--timeout", "1", "--out", str(tmp_path), "--format", "json"]
    assert main(argv) == ExitCode.FAILURES
    report = json.loads(capsys.readouterr().out)
    [finding] = report["findings"]
    assert finding["outcome"] == "timeout" and finding["message"] == "no answer within 1 s"
    assert finding["size"] == finding["original_size"]  # not shrunk
    started = [int(line) for line in pids.read_text().split()]
    assert len(started) == 1
    assert left_running(started) == []


@pytest.mark.parametrize("value", ["0", "-1", "nan", "3601", "soon"])
def test_timeout_is_checked_as_conform_checks_it(value, capsys):
    assert main(["fuzz", "--timeout", value, "--budget", "1"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "argument --timeout" in err
    assert "is not a number of seconds" in err or "give seconds above 0 and at most 3600" in err


def test_timeout_is_for_a_local_run(capsys):
    assert main(["fuzz", "--timeout", "5", "--cluster", "tcp://127.0.0.1:1"]) == ExitCode.USAGE
    assert "--timeout is for a local run" in capsys.readouterr().err


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc")
def test_a_daemon_of_the_implementation_is_ended_when_fuzz_ends(tmp_path, monkeypatch, capsys):
    """A correct implementation that relies on a detached daemon started with an empty
    environment: fuzz finds nothing (the daemon kept for every scenario), and the daemon
    is ended with the run, in process too (a library caller)."""
    pids = tmp_path / "pids"
    monkeypatch.setenv("FAKE_PID_FILE", str(pids))
    impl = f"{sys.executable} {FAKE} keeps-daemon -"
    argv = ["fuzz", "--impl", impl, "--budget", "2", "--kind", "settlement", "--out", str(tmp_path)]
    assert main(argv) == ExitCode.OK
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) == 1
    assert left_running(daemons) == []


def test_a_shrink_stops_at_the_first_candidate_not_answered_in_time():
    """In process: a finding that is a failure, whose first candidates the
    implementation no longer answers.  One batch is judged, not one per shrinking step
    (each would wait out the time limit)."""
    from horserace.conformance.runner import Outcome
    from horserace.corpus.status import Status
    from horserace.engine.ruleset import VARIANT_FIELDS
    from horserace.quality.fuzz import Plan, scenarios
    from horserace.quality.shrink import Shrunk, shrink

    declared = {name: (readings[0],) for name, readings in VARIANT_FIELDS.items()}
    scenario = scenarios(0, Plan(kinds=("match",)), declared)[0]
    batches: list[int] = []

    def stuck(candidates):
        batches.append(len(candidates))
        return [Outcome(fx, Status.TIMEOUT, "no answer within 1 s") for fx in candidates]

    found = Shrunk(scenario.fixture, Outcome(scenario.fixture, Status.FAIL, "differs"))
    small = shrink(found, stuck, seed=0, seating=scenario.seating, ruleset=scenario.ruleset)
    assert small is found
    assert len(batches) == 1
