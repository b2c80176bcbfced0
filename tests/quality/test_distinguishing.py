"""``horserace coverage`` counts what distinguishes (horserace.quality.distinguishing):
per reading, the fixtures that name it and fail under the field's other reading; per
rule, the fixtures that fail under a deviation of it. Checked on a hand-picked corpus
of fixtures that distinguish and fixtures that only name, through the API and the
command; then the bundled corpus meets the threshold, with the rules no deviation
names listed apart, exactly those."""

from __future__ import annotations

import json
from pathlib import Path

import yaml

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.loader import load_paths
from horserace.quality.distinguishing import distinguishing, distinguishing_coverage, reading_fails_under
from horserace.quality.mutants import MUTANTS
from horserace.resources.paths import default_corpus

# Fixtures of the bundled corpus, by what they show (each checked below, not assumed):
#: names continuation_without_tile=end-turn and fails under draw (a continuation lost for want of a tile)
TELLS_END_TURN = "QRJVBT"
#: names continuation_without_tile=draw but passes under end-turn: an illegal action refused either way
NAMES_DRAW_ONLY = "3P9CPZ"
#: a match whose settlement credits pips with a remainder of 3: remainder-3-down credits 5 less
TELLS_REMAINDER = "RA2KFM"
#: a settlement that remainder-3-down settles the same (other deviations of HR-SETTLE-1 do not)
SAME_UNDER_REMAINDER = "P4RYQF"

#: The rules of spec/rules.md that no deviation of horserace.quality.mutants names: listed
#: apart by ``horserace coverage``, never counted as covered.  A new rule, or a deviation
#: removed, changes this list and fails the test until it is written here.
APART = [
    "HR-SEAT-1",
    "HR-SEAT-2",
    "HR-SEAT-3",
    "HR-SET-1",
    "HR-DEAL-1",
    "HR-OPEN-1",
    "HR-PLACE-1",
    "HR-PLACE-3",
    "HR-MOVE-1",
    "HR-SPIN-3",
    "HR-COUNT-1",
    "HR-COUNT-5",
    "HR-TURN-2",
    "HR-DRAW-3",
    "HR-DRAW-4",
    "HR-PASS-1",
    "HR-BLOCK-1",
    "HR-END-1",
    "HR-END-3",
    "HR-MATCH-3",
]


def _bundled(*ids: str):
    by_id = {fx.id: fx for fx in load_paths(None).fixtures}
    return [by_id[i] for i in ids]


def _write(tmp_path: Path, ids: list[str]) -> Path:
    """The fixtures ``ids`` of the bundled corpus, copied into one file of their own."""
    entries = []
    for path in sorted(default_corpus().glob("rule-text/*.yaml")):
        entries += [e for e in yaml.safe_load(path.read_text(encoding="utf-8")) if e["id"] in ids]
    assert sorted(e["id"] for e in entries) == sorted(ids)
    out = tmp_path / "picked.yaml"
    out.write_text(yaml.safe_dump(entries, sort_keys=False, allow_unicode=True), encoding="utf-8")
    return out


def test_a_reading_counts_the_fixtures_that_fail_under_the_other_not_those_that_name_it():
    tells, names = _bundled(TELLS_END_TURN, NAMES_DRAW_ONLY)
    assert tells.variants["continuation_without_tile"] == "end-turn"
    assert names.variants["continuation_without_tile"] == "draw"
    assert reading_fails_under(tells, "continuation_without_tile", "draw")
    assert not reading_fails_under(names, "continuation_without_tile", "end-turn")
    found = distinguishing([tells, names], deviations={})
    field = found.readings["continuation_without_tile"]
    assert field["end-turn"] == {"draw": [TELLS_END_TURN]}
    assert field["draw"] == {"end-turn": []}  # named, and distinguishes nothing
    assert found.named["continuation_without_tile"] == {"draw": [NAMES_DRAW_ONLY], "end-turn": [TELLS_END_TURN]}
    # a fixture that names no reading of a field counts for neither reading of it
    assert found.readings["branch_use"] == {"both": {"one": []}, "one": {"both": []}}


def test_a_rule_counts_the_fixtures_that_fail_under_its_deviations():
    tells, same = _bundled(TELLS_REMAINDER, SAME_UNDER_REMAINDER)
    found = distinguishing([tells, same], deviations={"remainder-3-down": MUTANTS["remainder-3-down"]})
    assert found.rules == {"HR-SETTLE-1": {"remainder-3-down": [TELLS_REMAINDER]}}
    assert found.rule_fixtures("HR-SETTLE-1") == [TELLS_REMAINDER]
    # every other rule has no deviation here: apart, not a gap and not covered
    apart = {a["rule"] for a in found.apart if "rule" in a}
    assert "HR-SETTLE-1" not in apart and "HR-SETTLE-2" in apart
    gaps = {g.get("rule") or g["variant"]: g for g in found.gaps()}
    assert gaps["HR-SETTLE-1"]["fixtures"] == 1
    assert "HR-SETTLE-2" not in gaps


def test_the_command_names_every_reading_and_rule_under_three_with_its_count(tmp_path, capsys):
    corpus = _write(tmp_path, [TELLS_END_TURN, NAMES_DRAW_ONLY, TELLS_REMAINDER, SAME_UNDER_REMAINDER])
    assert main(["coverage", str(corpus), "--format", "json"]) == ExitCode.FAILURES
    report = json.loads(capsys.readouterr().out)
    gaps = {(g.get("rule") or g["variant"]): g["fixtures"] for g in report["gaps"] if "problem" in g}
    assert gaps["continuation_without_tile=end-turn"] == 1
    assert gaps["continuation_without_tile=draw"] == 0
    assert gaps["branch_use=one"] == 0
    assert report["distinguishing"]["rules"]["HR-SETTLE-1"]["by_deviation"]["remainder-3-down"] == [TELLS_REMAINDER]
    assert gaps["HR-SETTLE-1"] == len(report["distinguishing"]["rules"]["HR-SETTLE-1"]["fixtures"]) == 2
    assert gaps["HR-COUNT-4"] == 0
    assert sorted(a["rule"] for a in report["distinguishing"]["apart"] if "rule" in a) == sorted(APART)
    assert "counted" in report
    assert main(["coverage", str(corpus)]) == ExitCode.FAILURES
    text = capsys.readouterr().out
    assert "continuation_without_tile=end-turn: 1 fixture(s) of this reading fail under " in text
    assert "no deviation names these rules (20): HR-SEAT-1 " in text
    assert "  HR-SETTLE-1: 2 fixture(s) fail under its deviations (round-each-opponent, " in text
    assert "counted: a reading counts the fixtures that name it and fail" in text


def test_the_bundled_corpus_distinguishes_every_reading_and_rule_three_times():
    corpus = load_paths(None).fixtures
    report = distinguishing_coverage(corpus)
    assert report["gaps"] == []
    assert sorted(a["rule"] for a in report["distinguishing"]["apart"] if "rule" in a) == sorted(APART)
    for name, readings in report["distinguishing"]["readings"].items():
        for reading, row in readings.items():
            assert all(len(ids) >= 3 for ids in row["fail_under"].values()), (name, reading)


def test_the_cache_keeps_each_judgement_by_the_fixtures_content(tmp_path):
    """A second run judges nothing; a fixture whose expected values change is judged
    again, alone, and counted as it now is; a file written by other code is not read."""
    import dataclasses

    from horserace.quality.distinguishing import JudgementCache

    tells, names = _bundled(TELLS_END_TURN, NAMES_DRAW_ONLY)
    deviations = {"remainder-3-down": MUTANTS["remainder-3-down"]}
    path = tmp_path / "cache" / "coverage.json"
    first = JudgementCache(path)
    found = distinguishing([tells, names], deviations, first)
    assert first.save() == "" and path.is_file()
    judgements = first.judged
    assert found.rules["HR-SETTLE-1"]["remainder-3-down"] == []
    assert judgements == len(tells.variants) + len(names.variants) + 2  # each reading named, the deviation on each

    again = JudgementCache(path)
    assert distinguishing([tells, names], deviations, again).readings == found.readings
    assert again.judged == 0

    # the same ID with other expected values (the first event's seat changed) is a new fixture
    events = tells.expected["hands"][0]["events"]
    edited = {**tells.expected, "hands": [{"events": [{**events[0], "seat": 1}, *events[1:]]}]}
    changed = dataclasses.replace(tells, expected=edited, _canonical=None)
    third = JudgementCache(path)
    now = distinguishing([changed, names], deviations, third)
    assert (
        third.judged == len(tells.variants) + 1
    )  # the changed fixture alone, under each other reading and the deviation
    assert now.readings["continuation_without_tile"]["end-turn"] == {"draw": [TELLS_END_TURN]}
    assert now.rules["HR-SETTLE-1"]["remainder-3-down"] == [TELLS_END_TURN]  # wrong anyway: fails under it too

    path.write_text(json.dumps({"code": "other code", "entries": dict.fromkeys(first.entries, True)}))
    stale = JudgementCache(path)
    assert stale.entries == {}
    assert distinguishing([tells, names], deviations, stale).readings == found.readings
    assert stale.judged == judgements


def test_the_command_keeps_its_cache_and_says_so(tmp_path, capsys):
    corpus = _write(tmp_path, [TELLS_END_TURN, NAMES_DRAW_ONLY])
    cache = tmp_path / "coverage-cache.json"
    main(["coverage", str(corpus), "--cache", str(cache), "--format", "json"])
    first = json.loads(capsys.readouterr().out)
    assert first["cache"]["judged"] > 0 and first["cache"]["written"] and cache.is_file()
    main(["coverage", str(corpus), "--cache", str(cache), "--format", "json"])
    second = json.loads(capsys.readouterr().out)
    assert second["cache"]["judged"] == 0
    assert {k: v for k, v in second.items() if k != "cache"} == {k: v for k, v in first.items() if k != "cache"}
    # a cache that cannot be written is said, and the counts are printed all the same
    blocked = tmp_path / "a-file"
    blocked.write_text("")
    assert main(["coverage", str(corpus), "--cache", str(blocked / "cache.json")]) == ExitCode.FAILURES
    out, err = capsys.readouterr()
    assert "could not be written" in err and "Traceback" not in err
    assert "continuation_without_tile=end-turn: 1 fixture(s) of this reading fail under " in out
