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


def _records(*statuses: str) -> list[dict]:
    return [{"id": f"F{i}", "status": s, "rule": "HR-SETTLE-1", "kind": "settlement"} for i, s in enumerate(statuses)]


def test_expected_failures_are_in_the_verdict_line():
    judged = verdict({"implementation": HELLO}, _records("pass", "xfail", "xfail"), {"conformant": True})
    assert judged.text == "CONFORMANT with 2 expected failures on all 3 fixtures"
    judged = verdict({"implementation": HELLO}, _records("pass", "xfail", "skip"), {"conformant": True})
    assert judged.text.startswith("CONFORMANT with 1 expected failure on 2 of 3 fixtures (1 skipped;")


def test_an_expected_failure_that_now_passes_says_update_the_expectations_never_failed():
    strict = verdict({"implementation": HELLO}, _records("pass", "xpass", "xpass"), {"conformant": False})
    assert strict.text == (
        "NOT CONFORMANT: 2 expected failures now pass: update the expectations (--update-expectations FILE)"
    )
    assert "failed" not in strict.text
    lenient = verdict(
        {"implementation": HELLO}, _records("pass", "xpass"), {"conformant": True, "lenient_expectations": True}
    )
    assert lenient.text == (
        "CONFORMANT on all 2 fixtures; 1 expected failure now passes: update the expectations "
        "(--update-expectations FILE)"
    )
    mixed = verdict({"implementation": HELLO}, _records("fail", "xpass", "xfail"), {"conformant": False})
    assert mixed.text == (
        "NOT CONFORMANT: 1 of 3 fixtures run failed, 1 expected failure apart; 1 expected failure now passes: "
        "update the expectations (--update-expectations FILE)"
    )


def test_a_selection_says_so_in_the_verdict():
    header = {"implementation": HELLO, "selection": {"selected": 1, "of": 189}}
    assert verdict(header, _records("pass"), {"conformant": True}).text == "CONFORMANT on the 1 fixture selected of 189"
    judged = verdict(header | {"selection": {"selected": 3, "of": 189}}, _records("pass", "fail", "skip"), {})
    assert judged.text == "NOT CONFORMANT: 1 of 2 fixtures run failed (3 selected of 189)"


@pytest.mark.slow
def test_update_expectations_prunes_what_now_passes_and_keeps_the_rest(tmp_path, capsys):
    settlements = [fx.id for fx in _corpus() if fx.kind == "settlement"]
    expectations = tmp_path / "expected.yaml"
    listed = dict.fromkeys(settlements[:3], "credits off by one")
    expectations.write_text(
        "expected_failures:\n" + "".join(f"  {fid}: {reason}\n" for fid, reason in listed.items()), encoding="utf-8"
    )
    # A fixed implementation: every listed fixture now passes.  Strict by default.
    code, footer, text = _conform(tmp_path, "good", "--select", "kind:settlement", "--expectations", str(expectations))
    assert code == ExitCode.FAILURES and not footer["conformant"]
    assert text.startswith("NOT CONFORMANT: 3 expected failures now pass: update the expectations")
    capsys.readouterr()
    code, footer, text = _conform(
        tmp_path, "good", "--select", "kind:settlement", "--update-expectations", str(expectations)
    )
    assert code == ExitCode.OK and footer["conformant"] and footer["lenient_expectations"]
    assert f"expectations {expectations}: removed 3 that now pass" in capsys.readouterr().out
    from horserace.conformance.expectations import read_expectations

    assert read_expectations(expectations) == {}
    code, footer, text = _conform(tmp_path, "good", "--select", "kind:settlement", "--expectations", str(expectations))
    assert code == ExitCode.OK and text.startswith("CONFORMANT on all")


@pytest.mark.slow
def test_the_stream_header_and_the_badge_record_a_selection(tmp_path):
    one = _corpus()[0].id
    code, footer, text = _conform(tmp_path, "good", "--select", one)
    assert code == ExitCode.OK and text == f"CONFORMANT on the 1 fixture selected of {len(_corpus())}"
    header, _, _ = read_stream(tmp_path / "report" / "results.jsonl")
    assert header["selection"] == {"selected": 1, "of": len(_corpus()), "select": [one], "deselect": None}
    badge = json.loads((tmp_path / "report" / "badge.json").read_text())
    assert badge["message"] == f"1/1, 1 selected of {len(_corpus())}" and badge["color"] == "yellow"


@pytest.mark.slow
def test_the_json_output_of_conform_leads_with_the_verdict_and_the_diagnosis(tmp_path, capsys):
    report = tmp_path / "report"
    impl = f"{sys.executable} {FAKE} settle-wrong"
    assert (
        main(
            ["conform", "--impl", impl, "--select", "kind:settlement", "--report-dir", str(report), "--format", "json"]
        )
        == 1
    )
    said = json.loads(capsys.readouterr().out)
    assert said["verdict"].startswith("NOT CONFORMANT:")
    assert said["diagnosis"]["causes"] and all(c["rule"].startswith("HR-") for c in said["diagnosis"]["causes"])
    assert said["diagnosis"]["failures_to_answer"] == []


def test_a_refused_legal_action_says_which_and_no_missing_rule():
    """A play or layout fixture's actions are all legal: a refusal says which action it
    refused (an entry of the placements, a step), that it is legal, and the rule the
    refusal cites only when it cites one; it never reads as a rule left out
    ("no rule given"), since none is asked for."""
    from horserace.conformance.messages import Rejected
    from horserace.conformance.runner import evaluate

    fixtures = {fx.kind: fx for fx in reversed(bundled_corpus().fixtures)}
    play, layout = fixtures["play"], fixtures["layout"]
    status, _, message, at = evaluate(play, Rejected("x", 1, None, "cannot place"), False)
    assert (status, at) == ("rejected", 1)
    assert message == "refused placement entry 1, which is legal here: cannot place"
    _, _, message, _ = evaluate(play, Rejected("x", 1, "HR-TURN-1", "must draw"), False)
    assert message == "refused placement entry 1, which is legal here (citing HR-TURN-1): must draw"
    _, _, message, _ = evaluate(layout, Rejected("x", 0, None, None), False)
    assert message == "refused step 0, which is legal here"
    _, _, message, _ = evaluate(play, Rejected("x", None, None, "no"), False)
    assert message == "refused an action, all being legal: no"
    assert "no rule given" not in message
