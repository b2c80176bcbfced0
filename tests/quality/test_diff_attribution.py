"""``horserace diff`` between rulesets that differ in several readings: each fixture's
difference attributed to the reading whose change alone produces it, by the diagnosis's
comparison (the same observations exactly, or the same first difference), not a second
one."""

from __future__ import annotations

import json

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.engine.ruleset import Ruleset
from horserace.quality.ruleset_diff import diff_fixtures
from horserace.resources.rulesets import NamedRuleset, resolve

CANONICAL = resolve("canonical")


def _both(*names: str) -> NamedRuleset:
    readings: dict[str, str] = {}
    for name in names:
        readings |= resolve(name).ruleset.variants
    return NamedRuleset("+".join(names), "several readings", Ruleset.from_readings(readings, target=61))


def _changed(corpus, b: NamedRuleset) -> dict[str, object]:
    return {c.fixture.id: c for c in diff_fixtures(corpus.fixtures, CANONICAL, b)}


def test_independent_readings_are_told_apart(corpus):
    """HRI-10 (branch use) and HRI-1 (a continuation with no tile) touch different
    fixtures: with both changed, each fixture's difference is caused by one of them
    alone, and exactly the fixtures each one changes on its own are put down to it."""
    both = _changed(corpus, _both("one-branch", "continuation-end-turn"))
    branch = set(_changed(corpus, resolve("one-branch")))
    lapse = set(_changed(corpus, resolve("continuation-end-turn")))
    assert set(both) == branch | lapse and not branch & lapse
    for fid, change in both.items():
        expected = ("branch_use",) if fid in branch else ("continuation_without_tile",)
        assert change.attribution.alone == expected, (fid, change.attribution)
    # "Position S, depth 3, one branch per spinner - the second branch of [3|3] is never a move"  # noqa: ERA001  (a quoted description)
    assert both["8F4FM2"].attribution.alone == ("branch_use",)


def test_a_first_difference_of_one_reading_and_the_rest_of_both():
    """6A5D6P (HRI-5 immediate, HRI-1 draw): seat 0 scores, holds nothing to continue
    and draws the last two tiles; the hand is blocked at once. With `end-turn` the
    continuation lapses at its first event (an end of turn, not a draw): that first
    difference is HRI-1's alone; the hand then goes on to a block that `round-of-passes`
    plays out, so the rest needs HRI-5 too."""
    from horserace.corpus.loader import load_paths

    fx = [f for f in load_paths().fixtures if f.id == "6A5D6P"]
    (change,) = diff_fixtures(fx, CANONICAL, _both("block-round-of-passes", "continuation-end-turn"))
    assert change.attribution.alone == () and change.attribution.first == ("continuation_without_tile",)
    assert change.attribution.rule == "HR-TURN-1"


def test_readings_that_only_together_give_the_count(corpus):
    """8F4FM2, perft of position S to depth 3: an optional continuation adds moves (an
    end of turn), one branch per spinner takes some away; each alone changes the
    counts, neither gives those of both: the difference is the two readings together."""
    change = _changed(corpus, _both("continuation-optional", "one-branch"))["8F4FM2"]
    assert change.attribution.alone == () and change.attribution.first == ()


def test_the_text_and_json_say_the_cause(tmp_path, capsys):
    rules = tmp_path / "two.yaml"
    rules.write_text(
        "name: two-readings\ndescription: HRI-10 and HRI-1, reading 2 each.\ntarget: 61\n"
        "readings: {branch_use: one, continuation_without_tile: end-turn}\n"
    )
    assert main(["diff", "--rules", "canonical", "--rules", str(rules), "--select", "8F4FM2"]) == ExitCode.FAILURES
    assert "    caused by branch_use alone; rule HR-SPIN-3" in capsys.readouterr().out
    main(["diff", "--rules", "canonical", "--rules", str(rules), "--select", "8F4FM2", "--format", "json"])
    (change,) = json.loads(capsys.readouterr().out)["changed_fixtures"]["HR-SPIN-3"]
    assert change["attribution"] == {"alone": ["branch_use"], "first": [], "rule": "HR-SPIN-3"}
    main(["diff", "--rules", "canonical", "--rules", "one-branch", "--select", "8F4FM2"])
    assert "caused by" not in capsys.readouterr().out  # one reading differs: nothing to attribute
