"""``horserace fuzz`` through the protocol: it finds a deliberately wrong implementation
and writes a valid, minimal fixture for review (origin: generated, under a generated/
folder); it tries what it says (kinds, tables, rulesets, readings), leaves out the kinds
an implementation does not support, and judges rule IDs only when asked."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.conformance.runner import Options, Worker
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.quality.shrink import with_input

pytestmark = pytest.mark.slow

FAKE = Path(__file__).resolve().parents[1] / "conformance" / "fake_impl.py"


def serve(*extra: str) -> list[str]:
    return [sys.executable, "-m", "horserace", "serve", *extra]


def fuzz_json(capsys, *args: str) -> tuple[int, dict]:
    code = main(["fuzz", *args, "--format", "json"])
    return code, json.loads(capsys.readouterr().out)


def test_fuzz_writes_a_valid_minimal_fixture(tmp_path, capsys):
    mutant = serve("--mutant", "drawn-tile-continues")
    code, report = fuzz_json(
        capsys, "--impl", " ".join(mutant), "--kind", "hand", "--budget", "500", "--out", str(tmp_path)
    )
    assert code == ExitCode.FAILURES
    (finding,) = report["findings"]
    assert finding["rule"] == "HR-TURN-3" and finding["kind"] == "hand" and finding["fixture_kind"] == "play"
    corpus = load_paths([tmp_path])
    assert corpus.errors == []
    (fixture,) = corpus.fixtures
    assert fixture.origin == "generated" and "generated" in fixture.file
    assert fixture.variants == finding["readings"]  # named: the readings it was generated under
    assert replay_fixture(fixture).status == "pass"  # expected values are the reference engine's
    worker = Worker(mutant, Options())
    worker.handshake()
    try:
        assert worker.run_one(fixture, "a").status == "fail"  # the mutant still disagrees
        placements = fixture.input["hands"][0]["placements"]
        assert finding["size"] == {"hands": 1, "placements": len(placements)}
        assert len(placements) <= finding["original_size"]["placements"]
        if placements:  # minimal: one placement fewer and the mutant agrees
            hands = [{**fixture.input["hands"][0], "placements": placements[:-1]}]
            shorter = with_input(fixture, {**fixture.input, "hands": hands})
            assert worker.run_one(shorter, "b").status == "pass"
    finally:
        worker.close()


def test_fuzz_of_the_reference_engine_finds_nothing_and_says_what_it_tried(tmp_path, capsys):
    assert main(["fuzz", "--budget", "40", "--jobs", "2", "--out", str(tmp_path)]) == ExitCode.OK
    out = capsys.readouterr().out
    first, kinds, tables, rulesets, readings, illegal, verdict = out.splitlines()
    assert first.startswith("fuzzed seeds 0..39 in ") and " scenarios (" in first and "hands of play" in first
    assert kinds == "  kinds: hand 40, match 40, settlement 40, illegal 40, perft 40, layout 40"
    assert tables == "  tables: 2 players, 3 players, 4 players, partnership"
    assert rulesets == "  rulesets: target 61, the implementation's readings"
    # The reference engine declares every reading (protocol 1.1): 40 seeds draw each one.
    assert readings == "  readings: " + "; ".join(f"{k}={'|'.join(v)}" for k, v in VARIANT_FIELDS.items())
    assert "--strict-rule-ids" in illegal and verdict == "no disagreement"
    assert not (tmp_path / "generated").exists()


def test_every_ruleset_given_is_fuzzed_with_its_target(tmp_path, capsys):
    code, report = fuzz_json(
        capsys,
        "--budget",
        "8",
        "--rules",
        "canonical",
        "--rules",
        "long-match",
        "--players",
        "3",
        "--out",
        str(tmp_path),
    )
    assert code == ExitCode.OK
    assert report["rulesets"] == ["canonical (target 61)", "long-match (target 121)"]
    assert report["tables"] == ["3 players"] and report["scenarios"] == 8 * 6


def test_the_readings_are_those_the_implementation_declares(tmp_path, capsys):
    impl = " ".join(serve("--variant", "branch_use=one", "--variant", "continuation=optional"))
    code, report = fuzz_json(capsys, "--impl", impl, "--budget", "12", "--partnership", "--out", str(tmp_path))
    assert code == ExitCode.OK
    assert report["readings"]["branch_use"] == ["one"] and report["readings"]["continuation"] == ["optional"]
    assert report["tables"] == ["partnership"]
    # A ruleset the implementation does not declare cannot be fuzzed: it is unusable for it.
    code = main(["fuzz", "--impl", impl, "--budget", "2", "--rules", "canonical", "--out", str(tmp_path)])
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE
    assert "branch_use=one" in capsys.readouterr().err


def test_kinds_the_implementation_does_not_support_are_left_out_and_said(tmp_path, capsys):
    impl = f"{sys.executable} {FAKE} settlement-only"
    assert main(["fuzz", "--impl", impl, "--budget", "5", "--out", str(tmp_path)]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "  kinds: settlement 5\n" in out
    assert "  not tried: hand, match, illegal, perft, layout (the implementation does not support them)" in out
    code = main(["fuzz", "--impl", impl, "--kind", "layout", "--budget", "5", "--out", str(tmp_path)])
    assert code == ExitCode.IMPLEMENTATION_UNUSABLE


def test_rule_ids_count_only_with_strict_rule_ids(tmp_path, capsys):
    impl = f"{sys.executable} {FAKE} wrong-rule"  # the right action refused, always citing HR-SEAT-3
    code, report = fuzz_json(capsys, "--impl", impl, "--kind", "illegal", "--budget", "30", "--out", str(tmp_path))
    assert code == ExitCode.OK and report["strict_rule_ids"] is False
    code, report = fuzz_json(
        capsys, "--impl", impl, "--kind", "illegal", "--budget", "30", "--strict-rule-ids", "--out", str(tmp_path)
    )
    assert code == ExitCode.FAILURES
    (finding,) = report["findings"]
    assert finding["outcome"] == Status.FAIL and finding["rule"] != "HR-SEAT-3"
    assert [d["path"] for d in finding["differences"]] == ["rule"]
    assert finding["size"]["actions"] <= finding["original_size"]["actions"]
    assert load_paths([tmp_path]).errors == []


def test_fuzz_with_an_unusable_implementation(tmp_path, capsys):
    assert (
        main(["fuzz", "--impl", "/no/such/engine", "--budget", "5", "--out", str(tmp_path)])
        == ExitCode.IMPLEMENTATION_UNUSABLE
    )


def test_players_and_partnership_fix_the_table(tmp_path, capsys):
    code, report = fuzz_json(capsys, "--players", "4", "--kind", "settlement", "--budget", "6", "--out", str(tmp_path))
    assert code == ExitCode.OK and report["tables"] == ["4 players"]
    assert main(["fuzz", "--players", "2", "--partnership", "--out", str(tmp_path)]) == ExitCode.USAGE


def test_a_shard_counts_the_seeds_it_judged_whole_in_one_shot_mode_too():
    """One process per scenario (no window): a seed counts once every scenario of it is
    judged, and progress tells every seed once."""
    from horserace.quality.fuzz import Plan, fuzz_range

    told: list[int] = []
    shard = fuzz_range(
        serve(), 5, 3, plan=Plan(kinds=("settlement", "layout")), options=Options(one_shot=True), progress=told.append
    )
    assert shard.finding is None and (shard.first, shard.seeds) == (5, 3) and sum(told) == 3
    assert dict(shard.tried.kinds) == {"settlement": 3, "layout": 3}


def test_a_finding_stops_the_scenarios_sent_ahead_of_it_from_counting():
    """The window holds scenarios of later seeds when the first disagreement comes back:
    they are not counted as tried, and the shard ends at the finding's seed."""
    from horserace.quality.fuzz import Plan, fuzz_range

    argv = serve("--mutant", "tied-winners-split", "--rules", "canonical")
    shard = fuzz_range(argv, 0, 1500, plan=Plan(kinds=("layout", "hand")))
    assert shard.finding is not None and (shard.finding.seed, shard.finding.kind) == (345, "hand")
    assert shard.seeds == 346 and dict(shard.tried.kinds) == {"layout": 346, "hand": 346}
