"""Every report is made from the JSON Lines stream: JUnit XML with one test case per
fixture, Markdown and JSON with the per-rule table, written atomically."""

from __future__ import annotations

import json
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.reports.stream import ResultStream, read_stream

FAKE = (
    Path(__file__).resolve().parents[1] / "conformance" / "fake_impl.py"
)  # the fake implementations live with the runner tests


@pytest.fixture(scope="module")
def report(tmp_path_factory):
    out = tmp_path_factory.mktemp("report")
    code = main(
        [
            "conform",
            "--impl",
            f"{sys.executable} {FAKE} settle-wrong",
            "--report-dir",
            str(out),
            "--select",
            "kind:settlement",
            "--select",
            "kind:layout",
        ]
    )
    assert code == 1
    return out


def test_junit_has_one_case_per_fixture_with_failures_by_rule(report):
    header, results, footer = read_stream(report / "results.jsonl")
    suite = ET.parse(report / "junit.xml").getroot().find("testsuite")
    cases = suite.findall("testcase")
    assert len(cases) == len(results)
    failed = [c for c in cases if c.find("failure") is not None]
    assert failed and {c.get("classname") for c in failed} <= {r["rule"] for r in results if r["status"] == "fail"}
    assert int(suite.get("failures")) == len(failed)


def test_markdown_and_json_carry_the_rule_table(report):
    text = (report / "report.md").read_text()
    assert "| [HR-SETTLE-1](spec-rules.md#hr-settle-1-" in text and "NOT CONFORMANT: " in text
    doc = json.loads((report / "report.json").read_text())
    assert {row["rule"] for row in doc["rules"]} >= {"HR-SETTLE-1"}
    assert doc["footer"]["conformant"] is False


def test_the_stream_is_finished_even_when_the_run_is_cut_short(tmp_path):
    path = tmp_path / "results.jsonl"
    with pytest.raises(KeyboardInterrupt), ResultStream(path, {"command": "x"}) as stream:
        stream.add({"record": "result", "id": "AAAAAA", "status": "pass", "rule": "HR-SET-1"})
        raise KeyboardInterrupt
    header, results, footer = read_stream(path)
    assert header["command"] == "x" and len(results) == 1
    assert footer["interrupted"] is True and footer["conformant"] is False
    assert not list(tmp_path.glob(".results-*"))  # no temporary file left behind
