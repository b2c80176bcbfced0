"""What ``horserace fuzz`` says (issue: diagnostics an implementer can trust, "fuzz"):
the seeds actually tried, hands per second without the shrinking, "shrunk" only when it
shrank, the first event that differs, and the rule named from that event."""

from __future__ import annotations

import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.quality.fuzz import rule_of_event


def _fuzz(mutant: str, budget: int, tmp_path, capsys) -> str:
    impl = f"{sys.executable} -m horserace serve --mutant {mutant}"
    assert main(["fuzz", "--impl", impl, "--budget", str(budget), "--out", str(tmp_path)]) == ExitCode.FAILURES
    return capsys.readouterr().out


@pytest.mark.slow
def test_a_tie_bug_is_named_by_the_tie_and_the_seeds_are_those_tried(tmp_path, capsys):
    out = _fuzz("tied-winners-split", 1500, tmp_path, capsys)
    first, finding = out.splitlines()[:2]
    assert first.startswith("fuzzed 1,055 hands (seeds 0..1054 of 0..1499) in ")
    assert "hands/s, shrinking left out" in first
    assert finding.startswith("DISAGREEMENT seed 1054 (HR-SETTLE-3), not shrunk (18 placements)")
    assert "  first event that differs: hands[0].events[" in out and '"event": "hand-end"' in out


@pytest.mark.slow
def test_a_shrunk_finding_says_how_much(tmp_path, capsys):
    out = _fuzz("drawn-tile-continues", 200, tmp_path, capsys)
    assert "DISAGREEMENT seed 3 (HR-TURN-3), shrunk from 23 to 2 placements" in out


PLACE = {"event": "place", "seat": 0, "tile": "[1|4]", "count": 5, "credit_raw": 5, "credit": 1, "continues": True}
BLOCKED_TIE = {"event": "hand-end", "reason": "blocked", "winners": [0, 1], "credits": [2, 2], "scores": [2, 2]}


@pytest.mark.parametrize(
    ("expected", "actual", "rule"),
    [
        (PLACE, {**PLACE, "count": 6}, "HR-COUNT-1"),
        (PLACE, {**PLACE, "credit": 2}, "HR-CREDIT-2"),
        (PLACE, {**PLACE, "continues": False}, "HR-TURN-1"),
        (PLACE, {**PLACE, "drawn": True}, "HR-TURN-3"),
        (PLACE, {"event": "draw", "seat": 0, "tile": "[2|2]"}, "HR-DRAW-1"),
        (BLOCKED_TIE, {**BLOCKED_TIE, "credits": [1, 1]}, "HR-SETTLE-3"),
        ({**BLOCKED_TIE, "winners": [1]}, {**BLOCKED_TIE, "winners": [1], "credits": [0, 3]}, "HR-SETTLE-1"),
        ({**BLOCKED_TIE, "winners": [1]}, {**BLOCKED_TIE, "winners": [0]}, "HR-END-2"),
        ({"event": "hand-end", "reason": "match"}, {"event": "hand-end", "reason": "domino"}, "HR-MATCH-1"),
    ],
)
def test_the_rule_is_named_from_the_event_that_differs(expected, actual, rule):
    assert rule_of_event(expected, actual) == rule
