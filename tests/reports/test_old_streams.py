"""Streams written before diagnoses were (suite 0.1.0, stream schema 1, no ``schema`` in
the header): ``horserace report`` still renders them, and diagnoses their failures from
what their records hold (input, readings, expected values, observations), as ``conform``
would have.  ``streams/python-example-suite-0.1.0.jsonl`` is the stream the suite of
0.1.0 wrote for examples/python/horse_race.py (its deliberate error: ties in a blocked
hand, HR-SETTLE-3)."""

from __future__ import annotations

import json
from pathlib import Path

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.stream import STREAM_SCHEMA

OLD = Path(__file__).with_name("streams") / "python-example-suite-0.1.0.jsonl"


def test_a_stream_of_0_1_0_is_rendered_and_diagnosed(tmp_path, capsys):
    header = json.loads(OLD.read_text().splitlines()[0])
    assert "schema" not in header and header["suite"] == "0.1.0"
    out = tmp_path / "out"
    assert main(["report", str(OLD), "--out", str(out)]) == ExitCode.OK
    said = capsys.readouterr().out
    assert "causes of the 12 failing fixtures, most first:" in said
    assert "1. HR-SETTLE-3 Ties in a blocked hand: 12 failing fixtures" in said
    assert said.rstrip().splitlines()[-6].startswith("NOT CONFORMANT: 12 of 153 fixtures run failed")
    report = json.loads((out / "report.json").read_text())
    assert report["schema"] == STREAM_SCHEMA
    causes = report["diagnosis"]["causes"]
    assert [c["rule"] for c in causes] == ["HR-SETTLE-3"] and causes[0]["count"] == 12
    assert "Diagnosis: the causes, most failures first" in (out / "report.html").read_text()
    assert "| 1 | [HR-SETTLE-3]" in (out / "report.md").read_text()


def test_a_stream_of_schema_2_with_paths_of_the_machine_is_rendered_without_them(tmp_path, capsys):
    """Schema 2 gave a fixture's file as the working folder saw it: absolute when conform
    ran outside the clone.  The reports of such a stream name the repository's location."""
    from horserace.resources.paths import source_root

    lines = OLD.read_text().splitlines()
    records = [json.loads(line) for line in lines]
    records[0]["schema"] = 2
    for r in records[1:-1]:
        r["file"] = str(source_root() / r["file"])
    stream = tmp_path / "results.jsonl"
    stream.write_text("".join(json.dumps(r) + "\n" for r in records))
    out = tmp_path / "out"
    assert main(["report", str(stream), "--out", str(out)]) == ExitCode.OK
    assert str(source_root()) not in capsys.readouterr().out
    for name in ("report.md", "report.html", "junit.xml", "report.json"):
        text = (out / name).read_text(encoding="utf-8")
        assert str(source_root()) not in text, name
        assert "scenarios/rule-text/settlement.yaml:" in text or "scenarios/rule-text/play" in text, name
