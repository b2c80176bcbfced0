"""The example implementations in examples/, written from the spec alone, each with one
deliberate rule error: the runner's report names exactly the rules they break, and with
the error switched off (HORSERACE_EXAMPLE_CORRECT=1) they are fully conformant, down to
the rule IDs of every rejection (--strict-rule-ids)."""

from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.causes import run_causes
from horserace.reports.stream import read_stream

pytestmark = pytest.mark.slow  # subprocesses and timeouts: seconds, not milliseconds

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"
CASES = {
    "python": [sys.executable, str(EXAMPLES / "python" / "horse_race.py")],
    "javascript": ["node", str(EXAMPLES / "javascript" / "horse-race.js")],
}


def command(name: str) -> str:
    argv = CASES[name]
    if shutil.which(argv[0]) is None:
        if os.environ.get("CI"):
            pytest.fail(f"{argv[0]} is not installed; .ci/run must provide it")
        pytest.skip(f"{argv[0]} is not installed")
    return " ".join(argv)


def run(tmp_path, name, *extra):
    report = tmp_path / "report"
    code = main(["conform", "--impl", command(name), "--report-dir", str(report), *extra])
    _, results, footer = read_stream(report / "results.jsonl")
    return code, results, footer


@pytest.mark.parametrize("name", sorted(CASES))
def test_report_names_exactly_the_deliberate_error(tmp_path, capsys, monkeypatch, name):
    monkeypatch.delenv("HORSERACE_EXAMPLE_CORRECT", raising=False)
    documented = json.loads((EXAMPLES / name / "broken-rules.json").read_text())
    code, results, _ = run(tmp_path, name)
    failing = [r for r in results if r["status"] not in ("pass", "skip")]
    assert code == ExitCode.FAILURES
    assert {r["status"] for r in failing} == {"fail"}, "only wrong answers: no crash, error or timeout"
    assert sorted(r["id"] for r in failing) == documented["failing_fixtures"]
    # The diagnosis leads with the deliberate error, as its only cause, named by the
    # deviation that reproduces every failing fixture exactly.
    causes = run_causes(results)
    assert [line.rule for line in causes.lines] == [documented["leading_cause"]["rule"]]
    assert documented["leading_cause"]["rule"] == documented["deliberate_error"]
    assert causes.lines[0].deviations == ((documented["leading_cause"]["deviation"], len(failing), len(failing)),)


@pytest.mark.parametrize("name", sorted(CASES))
def test_without_the_error_the_example_conforms(tmp_path, capsys, monkeypatch, name):
    monkeypatch.setenv("HORSERACE_EXAMPLE_CORRECT", "1")
    code, results, footer = run(tmp_path, name, "--strict-rule-ids")
    assert code == ExitCode.OK and footer["conformant"]
    assert sum(r["status"] == "pass" for r in results) > 20


def test_javascript_example_one_shot(tmp_path, capsys, monkeypatch):
    monkeypatch.setenv("HORSERACE_EXAMPLE_CORRECT", "1")
    code, results, _ = run(tmp_path, "javascript", "--one-shot", "--select", "kind:settlement")
    assert code == ExitCode.OK and any(r["status"] == "pass" for r in results)
