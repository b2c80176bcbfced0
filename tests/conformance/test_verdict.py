"""The verdict never claims more than what ran (issue: diagnostics an implementer can
trust): a run where nothing ran is not conformant, a partial one states its scope, a
selection of nothing is a usage error, ``--require-all`` fails a run with skips."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import read_stream
from horserace.reports.summary import verdict
from tests.helpers import bundled_corpus

FAKE = Path(__file__).with_name("fake_impl.py")
HELLO = {"name": "x", "version": "1", "language": "py", "kinds": ["settlement"], "readings": {}}


def _results(*statuses: str) -> list[dict]:
    return [{"id": f"F{i}", "status": s, "rule": "HR-SETTLE-1"} for i, s in enumerate(statuses)]


@pytest.mark.parametrize(
    ("statuses", "footer", "text", "tone"),
    [
        (("pass", "pass"), {"conformant": True}, "CONFORMANT on all 2 fixtures", "ok"),
        (
            ("pass", "skip", "skip"),
            {"conformant": True},
            "CONFORMANT on 1 of 3 fixtures (2 skipped; kinds: settlement; readings: canonical)",
            "ok",
        ),
        (("skip", "skip"), {"conformant": False}, "NOT CONFORMANT: nothing ran (2 skipped;", "bad"),
        (("pass", "fail", "skip"), {"conformant": False}, "NOT CONFORMANT: 1 of 2 fixtures run failed", "bad"),
        (
            ("pass", "skip"),
            {"conformant": False, "require_all": True},
            "NOT CONFORMANT: 1 of 2 fixtures skipped (--require-all)",
            "bad",
        ),
        (("pass",), {"conformant": False, "interrupted": True}, "INTERRUPTED after 1 fixture(s)", "warn"),
        ((), {"conformant": False, "unusable": "no hello"}, "IMPLEMENTATION UNUSABLE", "bad"),
        ((), {"conformant": False}, "NOT CONFORMANT: no fixture to run", "bad"),
    ],
)
def test_the_verdict_says_what_ran(statuses, footer, text, tone):
    judged = verdict({"implementation": HELLO}, _results(*statuses), footer)
    assert judged.text.startswith(text) and judged.tone == tone


def test_readings_other_than_the_canonical_are_named_in_the_scope():
    hello = {**HELLO, "readings": {"block_detection": "round-of-passes", "continuation": "compulsory"}}
    judged = verdict({"implementation": hello}, _results("pass", "skip"), {"conformant": True})
    assert "readings: block_detection=round-of-passes)" in judged.text  # compulsory is canonical


def _corpus():
    return [fx for fx in bundled_corpus().fixtures if not fx.deprecated]


def _conform(tmp_path, mode: str, *extra: str) -> tuple[int, dict, str]:
    report = tmp_path / "report"
    code = main(["conform", "--impl", f"{sys.executable} {FAKE} {mode}", "--report-dir", str(report), *extra])
    _, _, footer = read_stream(report / "results.jsonl")
    doc = json.loads((report / "report.json").read_text(encoding="utf-8"))
    return code, footer, doc["verdict"]["text"]


@pytest.mark.slow
def test_an_implementation_that_declares_no_kind_is_not_conformant(tmp_path, capsys):
    code, footer, text = _conform(tmp_path, "no-kinds")
    assert code == ExitCode.FAILURES and not footer["conformant"]
    assert text.startswith(f"NOT CONFORMANT: nothing ran ({len(_corpus())} skipped")
    assert text in capsys.readouterr().out
    assert text in (tmp_path / "report" / "report.html").read_text(encoding="utf-8")
    assert text in (tmp_path / "report" / "report.md").read_text(encoding="utf-8")


@pytest.mark.slow
def test_a_partial_implementation_is_conformant_on_what_it_ran_and_says_so(tmp_path, capsys):
    code, footer, text = _conform(tmp_path, "settlement-only", "--select", "kind:settlement", "--select", "kind:layout")
    assert code == ExitCode.OK and footer["conformant"]
    settlements = sum(1 for fx in _corpus() if fx.kind == "settlement")
    assert text.startswith(f"CONFORMANT on {settlements} of ") and "kinds: settlement; readings: canonical" in text
    code, footer, text = _conform(
        tmp_path, "settlement-only", "--select", "kind:settlement", "--select", "kind:layout", "--require-all"
    )
    assert code == ExitCode.FAILURES and not footer["conformant"] and "(--require-all)" in text


@pytest.mark.parametrize("command", ["conform", "replay", "diff"])
def test_a_selection_that_matches_nothing_is_a_usage_error(command, capsys):
    extra = ["--rules", "canonical", "--rules", "canonical"] if command == "diff" else []
    assert main([command, "--select", "rule:HR-NOPE", *extra]) == ExitCode.USAGE
    assert "--select rule:HR-NOPE: no fixture matches" in capsys.readouterr().err
