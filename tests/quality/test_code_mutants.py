"""Code mutants of the engine (``horserace mutants --code``): cosmic-ray's operators,
written as cosmic-ray writes them, put into the live engine for one mutant and taken out
after, bounded in time, judged by the fixtures that run their line, and checked against
the committed triage file."""

from __future__ import annotations

import json
import threading
from pathlib import Path

import pytest

pytest.importorskip("cosmic_ray", reason="the [mutation] extra (cosmic-ray) is not installed")

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.quality import code_mutants as cm

ROOT = Path(__file__).resolve().parents[2]


def _find(module: str, operator: str, code: str, nth: int = 0) -> cm.CodeMutant:
    found = [m for m in cm.enumerate_mutants(module) if m.operator == operator and m.code == code]
    assert len(found) > nth, f"no mutant {operator} of {code!r} in {module}"
    return found[nth]


def test_each_mutant_is_written_as_cosmic_rays_own_visitor_writes_it():
    """The one parse tree per module, mutated and put back, gives the text cosmic-ray's
    MutationVisitor gives from a fresh parse, for every mutant of two modules, and the
    tree is as it was after."""
    for module in ("settlement", "seating"):
        mutants = cm.enumerate_mutants(module)
        assert mutants
        for m in mutants:
            assert cm.mutated_source(m) == cm.mutated_by_cosmic_ray(m), m
        tree, _ = cm._tree(module)
        assert tree.get_code() == cm._source(module)


def test_annotations_and_signature_markers_are_left_out():
    codes = [m.code for m in cm.enumerate_mutants("settlement")]
    assert not any(m.operator.endswith("BitOr_Add") and "| None" in m.code for m in cm.enumerate_mutants("settlement"))
    assert "*," not in codes


def test_a_function_body_mutant_is_in_the_engine_for_its_block_only():
    from horserace.engine import settlement

    m = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    assert settlement.hand_credit(17) == 3
    with cm.applied(m):
        assert settlement.hand_credit(17) == 75  # 15 * 5
    assert settlement.hand_credit(17) == 3


def test_a_default_and_a_module_constant_are_put_in_and_taken_out():
    """The dataclass default 61 of Ruleset.target: the class, its __init__, its field and
    the canonical ruleset (here and where other modules imported it) are all 62 inside."""
    from horserace.engine import match, ruleset
    from horserace.engine.ruleset import Ruleset

    m = _find("ruleset", "core/NumberReplacer", "target: int = 61")
    with cm.applied(m):
        assert Ruleset().target == 62
        assert ruleset.CANONICAL.target == 62 and match.CANONICAL.target == 62
    assert Ruleset().target == 61 and ruleset.CANONICAL.target == 61 and match.CANONICAL.target == 61


def _sample_across_the_engine() -> list[cm.CodeMutant]:
    mutants, _ = cm.select(None, 60, 7)
    # With one of each kind of place: a module constant, a class default, a function body.
    mutants.append(
        _find(
            "layout",
            "core/NumberReplacer",
            "CREDIT: tuple[int, ...] = tuple(c if c > 0 and c % 5 == 0 else 0 for c in range(256))",
        )
    )
    mutants.append(_find("ruleset", "core/NumberReplacer", "target: int = 61"))
    return mutants


def test_no_mutant_leaks_into_the_next(corpus):
    """After each mutant the engine is as it was (every function's code and defaults,
    every class attribute and module value, by identity), and the corpus is green."""
    before = cm.engine_fingerprint()
    coverage = cm.trace_corpus(corpus.fixtures)
    outcomes = cm.judge_all(_sample_across_the_engine(), corpus.fixtures, coverage)
    assert {o.status for o in outcomes} >= {"killed"}
    assert cm.engine_fingerprint() == before
    assert all(replay_fixture(fx).status in (Status.PASS, Status.SKIP) for fx in corpus.fixtures)


def test_the_leak_check_catches_a_mutant_left_in(monkeypatch):
    """The fingerprint is shown to catch what it names: with the undoing switched off, a
    mutant stays in the engine and the fingerprint differs."""
    before = cm.engine_fingerprint()
    m = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    undo = cm._Patches.undo
    kept: list[cm._Patches] = []
    monkeypatch.setattr(cm._Patches, "undo", lambda self: kept.append(self))  # noqa: PLW0108  (a method: self is the argument)
    with cm.applied(m):
        pass
    try:
        assert cm.engine_fingerprint() != before
    finally:
        for patches in kept:
            undo(patches)
    assert cm.engine_fingerprint() == before


def test_a_table_another_module_built_at_import_is_built_again_under_the_mutant():
    """The replay reads tiles through ``observers._WRITTEN``, built at import by
    ``tiles.tile``: under a mutant of the tile table (``range(a, MAX_PIPS + 2)``: each low
    half gets an eighth partner, so [1|1] is index 8, after [0|0]..[0|7]) the table is built
    again (7 before, as the engine has it), and put back after."""
    from horserace.corpus import observers

    table = observers._WRITTEN
    m = _find(
        "tiles",
        "core/NumberReplacer",
        "_pairs = [(a, b) for a in range(MAX_PIPS + 1) for b in range(a, MAX_PIPS + 1)]",
        2,
    )
    assert "MAX_PIPS + 2" in cm.diff_of(m)
    with cm.applied(m) as rebuilt:
        assert observers._WRITTEN["[1|1]"] == 8 and "horserace.corpus.observers._WRITTEN" in rebuilt
    assert observers._WRITTEN is table and table["[1|1]"] == 7


def test_a_mutant_of_tile_is_judged_on_what_the_replay_reads(corpus):
    """``0 <= a`` as ``0 < a`` in ``tile()``: every tile written [0|b] is refused, so the
    table of written tiles cannot be built (a fresh import fails) and the mutant is killed,
    though no fixture calls ``tile()`` during its replay; the next mutant finds the engine
    and the table as they were."""
    from horserace.corpus import observers

    before, table = cm.engine_fingerprint(), dict(observers._WRITTEN)
    coverage = cm.trace_corpus(corpus.fixtures)
    m = _find("tiles", "core/ReplaceComparisonOperator_LtE_Lt", "if not (0 <= a <= MAX_PIPS and 0 <= b <= MAX_PIPS):")
    outcome = cm.judge(m, cm.covering(m, corpus.fixtures, coverage), every=corpus.fixtures)
    assert outcome.status == "killed" and "horserace.corpus.observers" in outcome.note, outcome
    assert cm.engine_fingerprint() == before and table == observers._WRITTEN
    following = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    assert cm.judge(following, cm.covering(following, corpus.fixtures, coverage)).status == "killed"
    assert cm.engine_fingerprint() == before
    assert all(replay_fixture(fx).status in (Status.PASS, Status.SKIP) for fx in corpus.fixtures)


def test_a_memo_filled_before_the_mutant_is_emptied_for_it_and_after(corpus):
    """The rulesets of each target (``observers._with_target``) are memoized as the corpus
    is loaded: EQRMKT's replay is traced from an empty memo (so it runs the ruleset's check
    of its target); under ``self.target < 1`` written ``<= 1`` the ruleset of its target 1
    is made again, and refused, so EQRMKT kills it; after, no ruleset made under the
    mutant is kept (the memo is empty) and EQRMKT passes."""
    from horserace.corpus import observers

    (fx,) = [f for f in corpus.fixtures if f.id == "EQRMKT"]
    replay_fixture(fx)
    assert observers._with_target.cache_info().currsize > 0
    m = _find(
        "ruleset",
        "core/ReplaceComparisonOperator_Lt_LtE",
        "if not isinstance(self.target, int) or isinstance(self.target, bool) or self.target < 1:",
    )
    assert cm.covering(m, [fx], cm.trace_corpus([fx])) == [fx]  # traced from cold too
    assert cm.judge(m, [fx]).killers == ("EQRMKT",)
    assert observers._with_target.cache_info().currsize == 0
    assert replay_fixture(fx).status is Status.PASS


def test_a_mutant_that_never_ends_is_stopped_by_its_bound(monkeypatch, corpus):
    def forever(fx, *args, **kwargs):
        while True:
            pass

    m = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    monkeypatch.setattr(cm, "replay_fixture", forever)
    before = cm.engine_fingerprint()
    outcome = cm.judge(m, corpus.fixtures[:3], bound=0.2)
    assert outcome.status == "killed" and outcome.killers[-1] == "timeout"
    assert cm.engine_fingerprint() == before


def test_the_bound_works_in_any_thread():
    seen: list[str] = []

    def loop() -> None:
        try:
            with cm._bounded(0.2):
                while True:
                    pass
        except cm.MutantTimeout:
            seen.append("stopped")

    t = threading.Thread(target=loop)
    t.start()
    t.join()
    assert seen == ["stopped"]


def test_a_module_that_raises_on_import_is_killed():
    m = _find(
        "events", "core/ReplaceBinaryOperator_BitOr_Add", "Event = Place | Draw | Pass | EndTurn | HandEnd | MatchEnd"
    )
    outcome = cm.judge(m, [object()])  # never replayed
    assert outcome.status == "killed" and "raises on import" in outcome.note


def test_a_function_mutant_is_judged_only_by_the_fixtures_that_run_its_line(corpus):
    coverage = cm.trace_corpus(corpus.fixtures)
    body = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    judged = cm.covering(body, corpus.fixtures, coverage)
    assert 0 < len(judged) < len(corpus.fixtures)
    assert not any(fx.kind == "layout" for fx in judged)  # a count of the layout settles nothing
    module_level = [m for m in cm.enumerate_mutants("layout") if m.scope == "<module>"]
    assert module_level and len(cm.covering(module_level[0], corpus.fixtures, coverage)) == len(corpus.fixtures)


# ---------------------------------------------------------------------- the triage
def test_every_triage_entry_names_a_mutant_of_the_engine_and_says_why():
    triage = cm.load_triage()
    keys = {m.key for module in cm.ENGINE_MODULES for m in cm.enumerate_mutants(module)}
    stale = [k for k in triage if k not in keys]
    assert stale == [], f"triage entries that name no mutant (stale): {stale}"
    tests = ROOT / "tests"
    for entry in triage.values():
        if entry["verdict"] == "equivalent":
            file, _, name = str(entry["check"]).partition("::")
            assert f"def {name}(" in (ROOT / file).read_text(encoding="utf-8"), entry["check"]
            assert (ROOT / file).is_relative_to(tests)
    share = sum(e["verdict"] == "out-of-reach" for e in triage.values()) / len(keys)
    assert share <= 0.05


def test_a_stale_entry_is_reported(tmp_path, capsys):
    m = _find("settlement", "core/ReplaceBinaryOperator_FloorDiv_Mul", "return round_to_five(pips) // 5")
    triage = tmp_path / "triage.yaml"
    entry = {k: getattr(m, k) for k in ("module", "scope", "operator", "nth", "code")}
    triage.write_text(json.dumps({"survivors": [entry | {"verdict": "equivalent", "check": "x::y"}]}), encoding="utf-8")
    code = main(["mutants", "--code", "--module", "settlement", "--triage", str(triage), "--format", "json"])
    result = json.loads(capsys.readouterr().out)
    assert code == ExitCode.FAILURES
    assert [s["entry"] for s in result["stale"]] == [m.key]


@pytest.mark.slow
def test_a_sample_campaign_agrees_with_the_triage(capsys):
    """40 mutants drawn with a fixed seed: each survivor has a verdict in the triage file
    (an open one is counted as untriaged and fails the run: nothing is pretended), no
    entry among them is stale, and the score is reported on the lines the corpus runs."""
    code = main(["mutants", "--code", "--sample", "40", "--seed", "23", "--jobs", "1", "--format", "json"])
    result = json.loads(capsys.readouterr().out)
    assert result["mutants"] == 40 and result["stale"] == []
    assert all(s["verdict"] != "untriaged" for s in result["survivors"]), result["survivors"]
    opened = [s for s in result["survivors"] if s["verdict"] in ("open", "killed-by")]
    assert code == (ExitCode.FAILURES if opened else ExitCode.OK)
    c = result["covered"]
    assert c["killed"] + c["survived"] + result["not_run"] + result["not_applied"] + result["same_definitions"] == 40


def test_code_options_need_code_and_the_deviation_options_refuse_it():
    assert main(["mutants", "--sample", "3"]) == ExitCode.USAGE
    assert main(["mutants", "--code", "--only", "round-each-opponent"]) == ExitCode.USAGE
    assert main(["mutants", "--code", "--module", "no-such"]) == ExitCode.USAGE


def test_a_campaign_prints_its_survivors_with_place_operator_and_diff(capsys):
    code = main(["mutants", "--code", "--module", "settlement", "--sample", "30", "--seed", "2"])
    out = capsys.readouterr().out
    assert "code mutants (a sample of" in out and "on lines the corpus runs:" in out
    assert "on lines no fixture runs:" in out
    assert code in (ExitCode.OK, ExitCode.FAILURES)


def test_the_score_within_reach_leaves_out_the_equivalent_and_the_out_of_reach():
    """Ten mutants of settlement: 6 killed, and of 4 survivors 1 equivalent, 1 out of
    reach, 1 open, 1 with no verdict. The score is 6 of 9 (the equivalent left out); the
    goal's figure within reach is 6 of 8 (the out of reach left out too, counted beside
    it, never as killed); the open and the unverdicted are untriaged."""
    ms = cm.enumerate_mutants("settlement")[:10]
    outcomes = [cm.Outcome(m, "killed", ("X",), 1) for m in ms[:6]] + [cm.Outcome(m, "survived", (), 1) for m in ms[6:]]
    triage = {
        ms[6].key: {"verdict": "equivalent", "check": "t::c"},
        ms[7].key: {"verdict": "out-of-reach", "why": "w"},
        ms[8].key: {"verdict": "open", "why": "w"},
    }
    c = cm.summary(cm.Campaign(outcomes, 10, 1), triage, whole=False)["covered"]
    assert (c["killed"], c["equivalent"], c["out_of_reach"], c["untriaged"]) == (6, 1, 1, 2)
    assert c["score"] == round(6 / 9, 4)
    assert (c["within_reach"], c["score_within_reach"]) == (8, 0.75)


def test_what_a_fixture_keeps_is_made_before_the_mutant_is_in():
    """A fixture computes its canonical expected values once, reading tiles through
    ``parse_tile``, and keeps them. On a corpus loaded afresh and never replayed, a
    mutant of ``parse_tile`` judged first must not be the one that computes them: the
    verdict is the campaign's, and the fixtures pass again with the engine as it is."""
    fixtures = load_paths(None).fixtures
    m = _find("tiles", "core/NumberReplacer", "return tile(int(match.group(1)), int(match.group(2)))", 0)
    assert cm.judge(m, fixtures).status == "survived"
    failing = [fx.id for fx in fixtures if replay_fixture(fx).status != Status.PASS]
    assert failing == []


_PORT_BITS = "_LA, _LB, _BA, _BB = 1 << LINEAR_A, 1 << LINEAR_B, 1 << BRANCH_A, 1 << BRANCH_B"


def test_a_constant_is_put_only_where_it_was_imported_from_the_mutated_module():
    """``_LB = 1 << LINEAR_B`` as ``*`` makes ``_LB`` 3 and layout's ``_BOTH_LINEAR`` 7.
    house_rules computes its own ``_BOTH_LINEAR = 12``, the one 12 CPython keeps: holding
    the same object, it was given 7 too, built again as 12, and that 12 put back into
    layout, so that the mutant survived whenever house_rules was imported. It is killed."""
    import horserace.quality.house_rules  # noqa: F401  (the module whose own constant was caught)

    m = _find("layout", "core/ReplaceBinaryOperator_LShift_Mul", _PORT_BITS, 1)
    assert cm.judge(m, load_paths(None).fixtures).status == "killed"
