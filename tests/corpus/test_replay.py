"""``horserace replay`` and ``horserace coverage`` from the command line: summaries,
field-by-field failures, selection, JSON output and the exit-code table."""

from __future__ import annotations

import json

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.compare import diff
from horserace.corpus.encoding import canonical
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from tests.corpus.test_fixture_loader import GOOD_LAYOUT

FAILING = (
    GOOD_LAYOUT.replace("T3STAA", "T3STBB")
    .replace("sum: 4", "sum: 5")
    .replace("[HR-COUNT-2]", "[HR-COUNT-4, HR-COUNT-2]")
)
VARIANT = GOOD_LAYOUT.replace("T3STAA", "T3STCC").replace("  origin:", "  variants: {branch_use: one}\n  origin:")


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def test_passing_file(tmp_path, capsys):
    assert main(["replay", write(tmp_path, "a.yaml", GOOD_LAYOUT)]) == ExitCode.OK
    assert "1 passed, 0 failed" in capsys.readouterr().out


def test_failure_is_reported_field_by_field_against_the_primary_rule(tmp_path, capsys):
    path = write(tmp_path, "b.yaml", FAILING)
    assert main(["replay", path]) == ExitCode.FAILURES
    out = capsys.readouterr().out
    assert "FAIL T3STBB [layout] (HR-COUNT-4)" in out and "b.yaml:1" in out
    assert "steps[0].sum: expected 5, got 4" in out


def test_json_output(tmp_path, capsys):
    path = write(tmp_path, "b.yaml", FAILING)
    assert main(["replay", path, "--format", "json"]) == ExitCode.FAILURES
    doc = json.loads(capsys.readouterr().out)
    assert doc["summary"]["fail"] == 1
    result = doc["results"][0]
    assert result["id"] == "T3STBB" and result["rule"] == "HR-COUNT-4"
    assert result["differences"] == [
        {"path": "steps[0].sum", "expected": 5, "actual": 4, "text": "steps[0].sum: expected 5, got 4"}
    ]


def test_select_and_deselect(tmp_path, capsys):
    write(tmp_path, "a.yaml", GOOD_LAYOUT)
    write(tmp_path, "b.yaml", FAILING)
    assert main(["replay", str(tmp_path), "--select", "T3STAA"]) == ExitCode.OK
    assert "replayed 1 fixture" in capsys.readouterr().out
    assert main(["replay", str(tmp_path), "--deselect", "rule:HR-COUNT-4"]) == ExitCode.OK
    assert main(["replay", str(tmp_path), "--select", "kind:layout"]) == ExitCode.FAILURES
    assert main(["replay", str(tmp_path), "--select", "HR-COUNT-4"]) == ExitCode.FAILURES
    capsys.readouterr()


def test_variant_ruleset_skips_fixtures_for_other_readings(tmp_path, capsys):
    write(tmp_path, "c.yaml", VARIANT)
    assert main(["replay", str(tmp_path)]) == ExitCode.OK
    assert "1 passed" in capsys.readouterr().out
    assert main(["replay", str(tmp_path), "--variant", "branch_use=both"]) == ExitCode.OK
    assert "1 skipped" in capsys.readouterr().out


def test_invalid_input_exits_2_and_replays_nothing(tmp_path, capsys):
    path = write(tmp_path, "d.yaml", GOOD_LAYOUT.replace("sum: 4", "sum: x"))
    assert main(["replay", path]) == ExitCode.INVALID_INPUT
    err = capsys.readouterr().err
    assert "d.yaml:12" in err and "nothing was replayed" in err


def test_missing_path_is_a_usage_error(capsys):
    assert main(["replay", "no/such/place"]) == ExitCode.USAGE
    assert "no such file" in capsys.readouterr().err


def test_coverage_reports_gaps(tmp_path, capsys):
    write(tmp_path, "a.yaml", GOOD_LAYOUT)
    assert main(["coverage", str(tmp_path), "--format", "json"]) == ExitCode.FAILURES
    report = json.loads(capsys.readouterr().out)
    gaps = {g.get("rule") or g.get("variant") for g in report["gaps"]}
    assert "HR-COUNT-2" in gaps and "branch_use=one" in gaps and "HR-SET-1" in gaps


def test_expected_tiles_either_half_first():
    assert canonical(
        {"tile": "[5|2]", "contributions": [{"tile": "[6|6]", "value": 12}, {"tile": "[1|2]", "value": 2}]}
    ) == {"tile": "[2|5]", "contributions": [{"tile": "[1|2]", "value": 2}, {"tile": "[6|6]", "value": 12}]}


def test_diff_does_not_confuse_booleans_and_integers():
    assert diff({"a": True}, {"a": 1})
    assert not diff({"a": [1, {"b": 2}]}, {"a": [1, {"b": 2, "c": 3}]})


def test_replay_fixture_directly(tmp_path):
    fixture = load_paths([write(tmp_path, "a.yaml", GOOD_LAYOUT)]).fixtures[0]
    assert replay_fixture(fixture).status == "pass"
