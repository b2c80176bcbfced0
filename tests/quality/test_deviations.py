"""The library of named deviations (horserace.quality.deviations, .mutants, .house_rules):
one registry of both families, each entry complete and naming a real rule; every
deviation observes every fixture kind through ``observe(..., engine=...)``, the same
way twice; and ``observe_deviation`` gives observations or a refusal with its index
and rule.  (That the corpus kills each one by a fixture citing its rule, through the
protocol and in process, is tests/quality/test_mutants.py; perft under each one is
tests/quality/test_perft_mutants.py; the two loops of ``Hand.run`` under each one are
tests/engine/test_run_paths.py.)"""

from __future__ import annotations

import json
import random
from collections.abc import Iterable

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.observers import observe
from horserace.engine.hand import Hand
from horserace.engine.ruleset import CANONICAL
from horserace.quality.deviations import FAMILIES, HOUSE_RULE, MISREADING, Deviation, observe_deviation
from horserace.quality.house_rules import HOUSE_RULES
from horserace.quality.mutants import DEVIATIONS, MUTANTS, Mutant, named, of_family
from horserace.resources.documents import load_rules
from tests.helpers import bundled_corpus

#: The misreadings as they were before the house rules came: their names are stable.
MISREADINGS = [
    "unstarted-branch-counted",
    "interior-double-counted",
    "zero-end-not-listed",
    "terminal-double-once",
    "opening-double-per-side",
    "branches-before-linear",
    "round-each-opponent",
    "remainder-3-down",
    "winner-pips-subtracted",
    "partner-pips-credited",
    "tied-winners-split",
    "co-winners-excluded",
    "seat-order-tiebreak",
    "drawn-tile-continues",
    "earlier-draw-as-just-drawn",
    "no-continuation",
    "opener-denied-continuation",
    "zero-count-continues",
    "exact-target",
    "settled-after-match",
    "last-placer-opens-after-block",
    "next-seat-opens-after-domino",
]


def registry_problems(registry: dict[str, Deviation], rules: Iterable[str]) -> list[str]:
    """What is wrong with a registry of deviations: an entry under another name, a rule
    that spec/rules.md does not have, an empty description or source, an unknown family,
    an engine that is not a subclass of Hand (or is Hand itself)."""
    known = set(rules)
    problems = []
    for key, d in registry.items():
        if d.name != key:
            problems.append(f"{key}: registered as {d.name!r}")
        if d.rule not in known:
            problems.append(f"{key}: no rule {d.rule}")
        if not d.description.strip() or not d.source.strip():
            problems.append(f"{key}: no description or source")
        if d.family not in FAMILIES:
            problems.append(f"{key}: family {d.family!r}")
        if not (isinstance(d.engine, type) and issubclass(d.engine, Hand) and d.engine is not Hand):
            problems.append(f"{key}: engine {d.engine!r}")
    return problems


def test_one_registry_of_both_families_misreadings_first():
    assert DEVIATIONS is MUTANTS
    assert Mutant is Deviation
    assert [m.name for m in of_family(MISREADING)] == MISREADINGS
    house = of_family(HOUSE_RULE)
    assert len(house) >= 15 and [m.name for m in house] == list(HOUSE_RULES)
    assert list(MUTANTS) == MISREADINGS + list(HOUSE_RULES)  # no name in both families
    assert all(named(name) is MUTANTS[name] for name in MUTANTS)


def test_every_entry_is_complete_and_names_a_rule_of_the_spec():
    assert registry_problems(MUTANTS, load_rules()) == []


def test_the_registry_check_finds_a_broken_entry():
    good = MUTANTS["fives-and-threes"]
    broken = {
        "renamed": good,
        "no-rule": Deviation("no-rule", "not-a-rule", "d", good.engine, HOUSE_RULE, "s"),
        "no-source": Deviation("no-source", "HR-TURN-1", "d", good.engine, HOUSE_RULE, " "),
        "no-family": Deviation("no-family", "HR-TURN-1", "d", good.engine, "folklore", "s"),
        "reference": Deviation("reference", "HR-TURN-1", "d", Hand, HOUSE_RULE, "s"),
    }
    found = registry_problems(broken, load_rules())
    assert len(found) == 5 and all(any(p.startswith(k) for p in found) for k in broken)


def test_the_house_rules_cover_the_kinds_the_issue_names():
    """Which doubles are spinners, move naming, the opening and who opens, the
    continuation, drawing, blocked hands and ties, whose pips count, rounding, credit in
    raw points and scoring on threes: each kind's rule has a house rule."""
    rules = {m.rule for m in of_family(HOUSE_RULE)}
    assert rules >= {
        "HR-SPIN-1",
        "HR-MOVE-2",
        "HR-OPEN-2",
        "HR-OPEN-3",
        "HR-TURN-1",
        "HR-DRAW-1",
        "HR-DRAW-2",
        "HR-DEAL-2",
        "HR-END-2",
        "HR-SETTLE-1",
        "HR-SETTLE-2",
        "HR-SETTLE-3",
        "HR-SET-2",
        "HR-CREDIT-1",
        "HR-CREDIT-2",
    }


def test_the_list_shows_family_and_source(capsys):
    assert main(["mutants", "--list", "--format", "json"]) == ExitCode.OK
    listed = json.loads(capsys.readouterr().out)["mutants"]
    assert [m["name"] for m in listed] == list(MUTANTS)
    assert all(m["family"] in FAMILIES and m["source"] for m in listed)
    assert main(["mutants", "--list", "--family", "house rule"]) == ExitCode.OK
    text = capsys.readouterr().out
    assert "fives-and-threes" in text and "house rule" in text and "source: Fives-and-Threes" in text
    assert "unstarted-branch-counted" not in text


# ---------------------------------------------------------------------- every kind, deterministically
#: Fixtures observed per kind: the first ones under the canonical readings.
PER_KIND = 8


def sample() -> list:
    fixtures = [fx for fx in bundled_corpus().fixtures if fx.applies_under(CANONICAL)]
    kinds = sorted({fx.kind for fx in fixtures})
    return [fx for kind in kinds for fx in [f for f in fixtures if f.kind == kind][:PER_KIND]]


def unsteady(engine: type[Hand], fixtures: list) -> list[str]:
    """The fixtures whose observations (or refusal) by ``engine`` differ between two
    runs, or that raise anything but a refusal of the input."""
    out = []
    for fx in fixtures:
        runs = []
        for _ in range(2):
            observed = observe_deviation(Deviation("d", "HR-TURN-1", "d", engine), fx.kind, fx.input, fx.variants)
            runs.append(json.dumps([observed.observations, observed.at, observed.rule], sort_keys=True))
        if runs[0] != runs[1]:
            out.append(fx.id)
    return out


def test_the_sample_holds_every_kind():
    assert {fx.kind for fx in sample()} == {"layout", "play", "settlement", "illegal", "perft"}


@pytest.mark.parametrize("name", list(MUTANTS))
def test_every_deviation_observes_every_kind_the_same_way_twice(name):
    assert unsteady(MUTANTS[name].engine, sample()) == []


class _CoinOpener(Hand):
    """A deviation that is not deterministic: after a domino, a coin says who opens."""

    __slots__ = ()

    def next_opener_after(self, reason, domino_seat):
        return random.randrange(self.seats)


def test_the_determinism_check_catches_a_coin():
    dominoed = [fx for fx in bundled_corpus().fixtures if fx.kind == "play" and "HR-OPEN-3" in fx.rules]
    assert unsteady(_CoinOpener, dominoed)


# ---------------------------------------------------------------------- observe_deviation
def fixture(fid: str):
    return next(fx for fx in bundled_corpus().fixtures if fx.id == fid)


def test_observations_are_those_of_observe_with_the_engine():
    fx = fixture("3MEDY5")
    d = MUTANTS["unrounded-pips-kept"]
    got = observe_deviation(d, fx.kind, fx.input, fx.variants)
    assert not got.refused and got.observations == observe(fx.kind, fx.input, fx.variants, engine=d.engine)
    # Raw points kept: 14 pips give 2 (4 kept), 111 + 4 give 23 where the rules give 3 and 22.
    assert [h["events"][-1]["credits"][0] for h in got.observations["hands"]] == [2, 23]


def test_a_refused_placement_gives_its_index_and_rule():
    fx = fixture("SEB7PV")  # the boneyard's last two tiles: kept back, seat 0 passes
    got = observe_deviation(MUTANTS["last-two-stay-in-boneyard"], fx.kind, fx.input, fx.variants)
    assert got.refused and got.observations is None
    assert (got.at, got.rule) == (0, "HR-PLACE-3")  # seat 1 does not hold [1|2]


def test_a_refused_position_has_no_index():
    fx = fixture("GE9J15")  # a perft position whose layout opened with [0|5]
    assert fx.input["layout"][0]["tile"] == "[0|5]"
    got = observe_deviation(MUTANTS["opening-must-be-double"], fx.kind, fx.input, fx.variants)
    assert got.refused and got.at is None and got.rule == "HR-OPEN-2"


def test_an_illegal_input_is_observed_not_refused():
    fx = next(f for f in bundled_corpus().fixtures if f.kind == "illegal" and f.expected["rule"] == "HR-DRAW-1")
    got = observe_deviation(MUTANTS["draw-while-playable"], fx.kind, fx.input, fx.variants)
    assert not got.refused and got.observations["rule"] != "HR-DRAW-1"


def test_perft_names_the_moves_the_house_rules_add():
    fx = fixture("K5N2P7")
    divide = observe_deviation(MUTANTS["draw-while-playable"], "perft", {**fx.input, "depth": 2}).observations["divide"]
    reference = observe("perft", {**fx.input, "depth": 2})["divide"]
    assert "draw" not in reference and set(divide) - set(reference) == {"draw"}
    held = [["[0|1]"], ["[2|5]", "[1|3]"]]
    on_table = {"[0|1]", "[2|5]", "[1|3]", "[5|5]"}
    opening_double = {  # seat 1 holds one tile for the lone opening [5|5]: on either linear side
        "mode": "individual",
        "seats": 2,
        "scores": [0, 0],
        "target": 61,
        "hands": held,
        "boneyard": [f"[{a}|{b}]" for a in range(7) for b in range(a, 7) if f"[{a}|{b}]" not in on_table],
        "opener": 1,
        "layout": [{"tile": "[5|5]"}],
        "depth": 1,
    }
    mirrored = observe_deviation(MUTANTS["mirror-moves-distinct"], "perft", opening_double).observations
    assert observe("perft", opening_double)["divide"] == {"[2|5] [5|5] linear-a": 1}
    assert mirrored["divide"] == {"[2|5] [5|5] linear-a": 1, "[2|5] [5|5] linear-b": 1}
