"""The suite's own strength: every named deviation of the engine, the mutants (a
realistic misreading of one rule) and the house rules of the Fives family, is killed by
the corpus through the protocol and in process, and by a fixture that cites the rule it
departs from."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.engine.ruleset import CANONICAL
from horserace.quality.deviations import HOUSE_RULE, MISREADING
from horserace.quality.mutants import MUTANTS, of_family
from horserace.resources.documents import load_rules

pytestmark = pytest.mark.slow


def test_at_least_fifteen_mutants_and_fifteen_house_rules_each_naming_a_real_rule():
    rules = load_rules()
    assert len(of_family(MISREADING)) >= 15 and len(of_family(HOUSE_RULE)) >= 15
    assert all(m.rule in rules for m in MUTANTS.values())


@pytest.mark.parametrize("how", [["--jobs", "2"], ["--in-process"]], ids=["through-the-protocol", "in-process"])
def test_every_mutant_is_killed_by_a_fixture_citing_its_rule(capsys, corpus, how):
    assert main(["mutants", "--format", "json", *how]) == ExitCode.OK
    report = json.loads(capsys.readouterr().out)
    assert report["survivors"] == []
    assert [r["mutant"] for r in report["mutants"]] == list(MUTANTS)  # every deviation judged, both families
    fixtures = {fx.id: fx for fx in corpus.fixtures}
    for result in report["mutants"]:
        citing = [k["id"] for k in result["killers"] if result["rule"] in fixtures[k["id"]].rules]
        assert citing, f"{result['mutant']} is killed only by fixtures that do not cite {result['rule']}"


def test_a_surviving_mutant_fails_the_run(capsys):
    # Against the settlement fixtures alone, a mutant of the turn cannot be caught.
    settlement_only = Path(__file__).resolve().parents[2] / "scenarios" / "rule-text" / "settlement.yaml"
    code = main(["mutants", str(settlement_only), "--only", "drawn-tile-continues"])
    assert code == ExitCode.FAILURES
    assert "SURVIVED  drawn-tile-continues" in capsys.readouterr().out


def test_unknown_mutant_is_a_usage_error(capsys):
    assert main(["mutants", "--only", "no-such-mutant"]) == ExitCode.USAGE
    assert main(["serve", "--mutant", "no-such-mutant"]) == ExitCode.USAGE


def test_mutants_live_beside_the_reference_engine(corpus):
    """A mutant is a subclass through the engine's seams, not a patch: judging every one
    in this process leaves the reference engine as it was, green on the whole corpus."""
    from horserace.corpus.replay import replay_fixture
    from horserace.engine.hand import Hand
    from horserace.engine.layout import CREDIT, POINTS, Layout
    from horserace.engine.settlement import settle
    from horserace.engine.tiles import pips_of
    from horserace.quality.mutants import judge_in_process

    canonical = [fx for fx in corpus.fixtures if fx.applies_under(CANONICAL)]
    for m in MUTANTS.values():
        assert issubclass(m.engine, Hand) and m.engine is not Hand
        assert judge_in_process(m, canonical).killed
    assert Hand.layout_class is Layout and Hand.settle is settle and Hand.target_type is int
    assert Layout.credit_raw_table is CREDIT and Layout.credit_table is POINTS and Hand.pip_count is pips_of
    assert (Hand.undrawable, Hand.draw_until_playable, Hand.play_before_drawing) == (0, True, True)
    assert all(replay_fixture(fx).status == "pass" for fx in canonical)


def test_a_mutant_that_cannot_be_judged_is_not_killed(corpus):
    """A mutant the server does not know cannot start: no fixture told it apart, so it is
    not counted as killed."""
    from horserace.engine.hand import Hand
    from horserace.quality.mutants import Mutant, judge_through_protocol

    unknown = Mutant("not-registered", "HR-TURN-1", "never registered", Hand)
    verdict = judge_through_protocol(unknown, [fx for fx in corpus.fixtures if fx.kind == "settlement"][:3])
    assert not verdict.killed and verdict.killers == () and "unusable" in verdict.note


def test_a_mutant_that_crashes_in_process_is_killed_by_the_fixture_it_crashes_on(corpus):
    from horserace.corpus.status import Status
    from horserace.engine.hand import Hand
    from horserace.quality.mutants import Mutant, judge_in_process

    class Crashing(Hand):
        __slots__ = ()

        def earns_continuation(self, count: int, tile: int) -> bool:
            raise ZeroDivisionError("a broken rule")

    play = [fx for fx in corpus.fixtures if fx.kind == "play" and fx.applies_under(CANONICAL)]
    verdict = judge_in_process(Mutant("crashing", "HR-TURN-1", "crashes", Crashing), play)
    assert verdict.killed and {k.status for k in verdict.killers} == {Status.CRASH}
