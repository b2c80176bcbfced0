"""What ``horserace fuzz`` says (issue: diagnostics an implementer can trust, "fuzz"):
the seeds actually tried, scenarios and hands per second without the shrinking, "shrunk"
only when it shrank (in the sizes of the scenario's kind), the table and readings of the
finding, the first event that differs, and the rule named from that event."""

from __future__ import annotations

import sys

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode


def _fuzz(mutant: str, budget: int, tmp_path, capsys, *extra: str) -> str:
    """Fuzz a mutant under the canonical readings (its server declares every reading: the
    seeds and sizes these tests expect are those of the canonical game)."""
    impl = f"{sys.executable} -m horserace serve --mutant {mutant} --rules canonical"
    code = main(["fuzz", "--impl", impl, "--budget", str(budget), "--out", str(tmp_path), *extra])
    assert code == ExitCode.FAILURES
    return capsys.readouterr().out


@pytest.mark.slow
def test_a_tie_bug_is_named_by_the_tie_and_the_seeds_are_those_tried(tmp_path, capsys):
    out = _fuzz("tied-winners-split", 1500, tmp_path, capsys, "--kind", "hand")
    first, kinds = out.splitlines()[:2]
    assert first.startswith("fuzzed seeds 0..345 of 0..1499 in ")
    assert "346 scenarios (" in first and "hands/s), shrinking left out" in first
    assert kinds == "  kinds: hand 346"
    finding = next(line for line in out.splitlines() if line.startswith("DISAGREEMENT"))
    assert finding == "DISAGREEMENT seed 345, hand scenario (HR-SETTLE-3), not shrunk (1 hand, 18 placements): fail"
    assert "  first event that differs: hands[0].events[" in out and '"event": "hand-end"' in out


@pytest.mark.slow
def test_a_shrunk_finding_says_how_much(tmp_path, capsys):
    out = _fuzz("drawn-tile-continues", 200, tmp_path, capsys, "--kind", "hand")
    assert (
        "DISAGREEMENT seed 0, hand scenario (HR-TURN-3), shrunk from 1 hand, 15 placements to 1 hand, 13 placements"
        in out
    )
    assert "  2 players, target 61, readings canonical\n" in out


@pytest.mark.slow
def test_a_finding_of_each_kind_says_its_size_in_its_own_words(tmp_path, capsys):
    out = _fuzz("branches-before-linear", 50, tmp_path, capsys, "--kind", "layout")
    # Issue 20 saw 7 placements of setup kept here: the spinner and its one linear side show it.
    assert "layout scenario (HR-SPIN-2), shrunk from 13 steps to 1 step after 1 placement of setup" in out
    out = _fuzz("round-each-opponent", 50, tmp_path, capsys, "--kind", "settlement")
    assert (
        "settlement scenario (HR-SETTLE-1), shrunk from 10 tiles in hand (62 pips), 3 seats, highest score 60 "
        "to 2 tiles in hand (3 pips), 3 seats, highest score 0: fail"
    ) in out
    out = _fuzz("exact-target", 50, tmp_path, capsys, "--kind", "match")
    assert "match scenario (HR-MATCH-1), shrunk from 3 hands, 47 placements to 1 hand, " in out
