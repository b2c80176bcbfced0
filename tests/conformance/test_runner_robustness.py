"""The runner never crashes or hangs because of the implementation under test: each way
a fake implementation misbehaves ends in a clear outcome, and the report is written."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import read_stream

pytestmark = pytest.mark.slow  # subprocesses and timeouts: seconds, not milliseconds

FAKE = Path(__file__).with_name("fake_impl.py")
CORPUS = Path(__file__).resolve().parents[2] / "scenarios" / "rule-text"
LAYOUT = "7SWR67"  # the long worked sequence (worked-examples.yaml)
SUBSET = ["--select", "kind:layout", "--select", "kind:settlement"]


def conform(tmp_path, mode, arg="", *extra, timeout="5", env=None, monkeypatch=None):
    if env and monkeypatch:
        for k, v in env.items():
            monkeypatch.setenv(k, v)
    report = tmp_path / "report"
    start = time.perf_counter()
    code = main(
        [
            "conform",
            "--impl",
            f"{sys.executable} {FAKE} {mode} {arg}",
            "--report-dir",
            str(report),
            "--timeout",
            timeout,
            "--handshake-timeout",
            "3",
            *extra,
        ]
    )
    elapsed = time.perf_counter() - start
    header, results, footer = read_stream(report / "results.jsonl")
    assert (report / "report.md").exists() and (report / "junit.xml").exists()
    return code, {r["id"]: r for r in results}, footer, elapsed


def test_good_fake_is_conformant(tmp_path, capsys):
    code, results, footer, _ = conform(tmp_path, "good", "", *SUBSET)
    assert code == ExitCode.OK and footer["conformant"] and results


def test_hang_on_handshake_is_unusable_and_still_reported(tmp_path, capsys):
    code, results, footer, elapsed = conform(tmp_path, "hang-handshake")
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE and "handshake failed (timeout)" in footer["unusable"]
    assert elapsed < 10


def test_other_protocol_version_is_unusable(tmp_path, capsys):
    code, _, footer, _ = conform(tmp_path, "other-protocol")
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE and "protocol '2.0'" in footer["unusable"]


def test_hang_on_one_fixture_times_out_and_the_run_goes_on(tmp_path, capsys):
    code, results, footer, elapsed = conform(tmp_path, "hang-fixture", LAYOUT, *SUBSET, timeout="1")
    assert code == ExitCode.FAILURES
    assert results[LAYOUT]["status"] == "timeout"
    assert all(r["status"] in ("pass", "skip") for r in results.values() if r["id"] != LAYOUT)
    assert elapsed < 20


def test_exit_in_the_middle_is_a_crash_then_a_restart(tmp_path, capsys, monkeypatch):
    counter = tmp_path / "count"
    code, results, footer, _ = conform(
        tmp_path, "exit-midway", "3", *SUBSET, env={"FAKE_COUNT_FILE": str(counter)}, monkeypatch=monkeypatch
    )
    crashed = [r for r in results.values() if r["status"] == "crash"]
    assert len(crashed) == 1 and "exit status 7" in crashed[0]["message"]
    assert all(r["status"] in ("pass", "skip") for r in results.values() if r["status"] != "crash")


@pytest.mark.parametrize(
    ("mode", "words"),
    [
        ("non-json", "not JSON"),
        ("non-utf8", "not UTF-8"),
        ("huge-line", "longer than 16 MiB"),
        ("wrong-seq", "echoes seq"),
        ("close-stdout", "closed its output"),
    ],
)
def test_bad_answers_are_crashes_with_a_reason(tmp_path, capsys, mode, words):
    code, results, footer, _ = conform(tmp_path, mode, LAYOUT, *SUBSET)
    assert code == ExitCode.FAILURES
    assert results[LAYOUT]["status"] == "crash" and words in results[LAYOUT]["message"]
    others = [r for r in results.values() if r["id"] != LAYOUT]
    assert others and all(r["status"] in ("pass", "skip") for r in others)


def test_extra_lines_are_caught(tmp_path, capsys):
    first_settlement = "P4RYQF"  # settlement.yaml; layout and settlement fixtures follow it
    code, results, footer, _ = conform(tmp_path, "extra-lines", first_settlement, *SUBSET)
    assert code == ExitCode.FAILURES
    bad = [r for r in results.values() if r["status"] == "crash"]
    assert results[first_settlement]["status"] == "pass"
    assert len(bad) == 1 and "nobody asked for" in bad[0]["message"] and "'unasked'" in bad[0]["message"]


def test_flooded_stderr_does_not_block(tmp_path, capsys):
    code, results, footer, elapsed = conform(tmp_path, "flood-stderr", "", "--select", "kind:settlement")
    assert code == ExitCode.OK and elapsed < 30


def test_error_and_unexpected_rejection(tmp_path, capsys):
    _, results, _, _ = conform(tmp_path, "error", LAYOUT, *SUBSET)
    assert results[LAYOUT]["status"] == "error" and results[LAYOUT]["message"] == "not implemented"
    _, results, _, _ = conform(tmp_path, "reject", LAYOUT, *SUBSET)
    assert results[LAYOUT]["status"] == "rejected" and "HR-PLACE-1" in results[LAYOUT]["message"]


def test_illegal_fixtures_accepted_are_not_rejected(tmp_path, capsys):
    code, results, _, _ = conform(tmp_path, "accept-all", "", "--select", "kind:illegal")
    assert code == ExitCode.FAILURES and results
    assert all(r["status"] == "not-rejected" for r in results.values() if r["status"] != "skip")


def test_a_refusal_naming_no_rule_passes_by_its_accepted_twin(tmp_path, capsys):
    code, results, _, _ = conform(tmp_path, "no-rule", "", "--select", "kind:illegal")
    ran = [r for r in results.values() if r["status"] != "skip"]
    assert code == ExitCode.OK and ran and all(r["status"] == "pass" for r in ran)
    for r in ran:
        assert "it names no rule, and its legal twin was accepted" in r["message"]
        assert r["refusal"]["rule"] is None and r["refusal"]["message"] == "not allowed"
        assert r["twin"]["status"] == "accepted" and r["breaks"].startswith("HR-")


def test_a_refusal_for_another_reason_is_unconfirmed(tmp_path, capsys):
    """An engine that refuses the last action whatever it is (it wants a draw first)
    refuses the twin too: not one illegal fixture passes, and each says why."""
    code, results, _, _ = conform(tmp_path, "refuse-last", "", "--select", "kind:illegal")
    ran = [r for r in results.values() if r["status"] != "skip"]
    assert code == ExitCode.FAILURES and ran and all(r["status"] == "unconfirmed" for r in ran)
    for r in ran:
        assert "but its legal twin was refused action" in r["message"] and "you must draw first" in r["message"]
        assert r["twin"]["status"] == "refused" and r["twin_input"]["actions"]
        assert r["diagnosis"]["cause"]["basis"].startswith("refused the legal twin's action")
    said = capsys.readouterr().out
    assert "UNCONFIRMED" in said and "legal twin: refused action" in said


def test_rule_ids_count_only_when_strict(tmp_path, capsys):
    code, _, _, _ = conform(tmp_path, "wrong-rule", "", "--select", "kind:illegal")
    assert code == ExitCode.OK
    code, results, _, _ = conform(tmp_path, "wrong-rule", "", "--select", "kind:illegal", "--strict-rule-ids")
    failed = [r for r in results.values() if r["status"] == "fail"]
    assert code == ExitCode.FAILURES and failed
    assert all(d["path"] == "rule" for r in failed for d in r["differences"])


def test_failures_are_reported_against_the_primary_rule_field_by_field(tmp_path, capsys):
    code, results, _, _ = conform(tmp_path, "settle-wrong", "", "--select", "kind:settlement")
    assert code == ExitCode.FAILURES
    failed = [r for r in results.values() if r["status"] == "fail"]
    assert failed and all(r["rule"] == r["rules"][0] for r in failed)
    assert any(d["path"].startswith("credits[") for r in failed for d in r["differences"])


def test_expectations_are_strict(tmp_path, capsys):
    expectations = tmp_path / "expected.yaml"
    code, results, _, _ = conform(
        tmp_path, "settle-wrong", "", "--select", "kind:settlement", "--write-expectations", str(expectations)
    )
    assert code == ExitCode.FAILURES and "expected_failures" in expectations.read_text()
    code, results, _, _ = conform(
        tmp_path, "settle-wrong", "", "--select", "kind:settlement", "--expectations", str(expectations)
    )
    assert code == ExitCode.OK and any(r["status"] == "xfail" for r in results.values())
    code, results, _, _ = conform(
        tmp_path, "good", "", "--select", "kind:settlement", "--expectations", str(expectations)
    )
    assert code == ExitCode.FAILURES and any(r["status"] == "xpass" for r in results.values())


def test_bad_expectations_file_is_invalid_input(tmp_path, capsys):
    bad = tmp_path / "bad.yaml"
    bad.write_text("expected_failures: [1, 2]\n")
    assert main(["conform", "--expectations", str(bad), "--report-dir", str(tmp_path / "r")]) == ExitCode.INVALID_INPUT
    bad.write_text("expected_failures: {NOSUCH: x}\n")
    assert main(["conform", "--expectations", str(bad), "--report-dir", str(tmp_path / "r")]) == ExitCode.INVALID_INPUT


def test_command_that_cannot_start(tmp_path, capsys):
    code = main(["conform", "--impl", "/no/such/program", "--report-dir", str(tmp_path / "r")])
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE
    _, _, footer = read_stream(tmp_path / "r" / "results.jsonl")
    assert "cannot start" in footer["unusable"]


def test_one_shot_and_jobs(tmp_path, capsys):
    code, results, _, _ = conform(tmp_path, "good", "", "--select", "kind:settlement", "--one-shot")
    assert code == ExitCode.OK and results
    code, results, _, _ = conform(tmp_path, "good", "", *SUBSET, "--jobs", "3")
    assert code == ExitCode.OK and results


def test_reference_engine_is_fully_conformant(tmp_path, capsys):
    code = main(["conform", "--report-dir", str(tmp_path / "r"), "--format", "json"])
    doc = json.loads(capsys.readouterr().out)
    assert code == ExitCode.OK and doc["footer"]["conformant"]
    assert doc["footer"]["counts"]["pass"] > 0


def test_large_requests_sent_ahead_do_not_wait_for_each_other():
    """Whole matches: requests of kilobytes, answers of tens of kilobytes.  Sixteen sent
    ahead fill both pipes; the runner takes in the answers while it writes, so the
    implementation never waits on a full output pipe while the runner waits for room in
    its input (they would wait for each other until the timeout)."""
    from horserace.conformance.runner import Options, Worker
    from horserace.corpus.fixture import Fixture
    from horserace.corpus.generate import match_fixture
    from horserace.engine.ruleset import CANONICAL
    from horserace.engine.seating import SEATINGS

    matches = [Fixture.observed(match_fixture(s, SEATINGS[s % 4], CANONICAL), "(test)", 0) for s in range(24)]
    assert sum(len(fx.input["hands"]) for fx in matches) > 100  # several hands each
    worker = Worker([sys.executable, "-m", "horserace", "serve"], Options(timeout=5))
    outcomes = []
    start = time.perf_counter()
    try:
        worker.run_many([(fx, f"{fx.id}/{i}") for i, fx in enumerate(matches)], outcomes.append)
    finally:
        worker.close()
    assert [o.status for o in outcomes] == ["pass"] * len(matches)
    assert time.perf_counter() - start < 5  # no request waited for the timeout


def test_a_generator_of_fixtures_is_read_as_the_window_asks_and_no_further():
    """``run_many`` takes its fixtures from a generator one at a time as there is room
    for a request (the fuzzer makes its scenarios so): never more than the window ahead
    of the outcomes, and nothing after the generator ends."""
    from horserace.conformance.runner import WINDOW, Options, Worker
    from horserace.corpus.fixture import Fixture
    from horserace.corpus.generate import hand_fixture
    from horserace.engine.ruleset import CANONICAL
    from horserace.engine.seating import SEATINGS

    fixtures = [Fixture.observed(hand_fixture(s, SEATINGS[s % 4], CANONICAL), "(test)", 0) for s in range(3 * WINDOW)]
    taken: list[int] = []
    ahead: list[int] = []

    def source():
        for i, fx in enumerate(fixtures):
            if i == 2 * WINDOW:
                return  # the caller stops making fixtures
            taken.append(i)
            yield fx, f"{fx.id}/{i}"

    def emit(outcome):
        ahead.append(len(taken) - len(outcomes))
        outcomes.append(outcome)

    outcomes: list = []
    worker = Worker([sys.executable, "-m", "horserace", "serve"], Options(timeout=5))
    try:
        worker.run_many(source(), emit)
    finally:
        worker.close()
    assert [o.fixture for o in outcomes] == fixtures[: 2 * WINDOW] and {o.status for o in outcomes} == {"pass"}
    assert taken == list(range(2 * WINDOW))
    assert max(ahead) == WINDOW  # the window was full, and never more than full
