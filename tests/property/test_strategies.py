"""The public strategies of horserace.strategies produce valid values: tiles in fixture
notation, fresh deals (HR-DEAL-1, HR-DEAL-2), layouts that replay legally (HR-PLACE-1,
HR-SPIN-2, HR-SPIN-3), and settlement states and play scenarios that, wrapped into fixture
files, pass the loader's schema and semantic checks (spec/fixture-format.md)."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest
import yaml
from hypothesis import find, given
from hypothesis import strategies as st
from hypothesis.errors import InvalidArgument

from horserace import strategies as hrst
from horserace.corpus.fixture import Fixture
from horserace.corpus.ids import generated_id
from horserace.corpus.loader import check_fixtures, load_text
from horserace.corpus.observers import observe
from horserace.engine.hand import DEAL_SIZE, Hand
from horserace.engine.layout import Layout, parse_port
from horserace.engine.ruleset import VARIANT_FIELDS, BranchUse, Continuation, Ruleset
from horserace.engine.tiles import NAMES, TILE_COUNT, parse_tile

FILE = "scenarios/generated/strategies.yaml"
TILE_TEXT = re.compile(r"^\[(\d)\|(\d)\]$")
RULES = {"layout": ["HR-COUNT-1"], "play": ["HR-TURN-1"], "settlement": ["HR-SETTLE-1"]}


class _NoAliases(getattr(yaml, "CSafeDumper", yaml.SafeDumper)):  # type: ignore[misc]  # libyaml's dumper where built
    """The format forbids anchors and aliases: write every value out."""

    def ignore_aliases(self, data):
        return True


def as_fixture(kind: str, inp: dict, variants: dict[str, str] | None = None, n: int = 0) -> dict:
    """A fixture dict around a strategy's input; ``expected`` is the reference engine's."""
    fixture = {
        "id": generated_id(n, "strategies"),
        "description": f"a {kind} drawn by horserace.strategies",
        "kind": kind,
        "rules": RULES[kind],
        "origin": "generated",
        "why": "drawn by a Hypothesis strategy; expected values are the reference engine's",
        "input": inp,
        "expected": observe(kind, inp, variants),
    }
    if variants:
        fixture["variants"] = variants
    return fixture


def load_checked(*fixtures: dict) -> list[Fixture]:
    """Write the fixtures as a YAML file, load it and run every check on it."""
    text = yaml.dump(list(fixtures), Dumper=_NoAliases, sort_keys=False, allow_unicode=True)
    loaded, errors = load_text(text, FILE)
    assert not errors, [e.render() for e in errors]
    errors = check_fixtures(loaded)
    assert not errors, [e.render() for e in errors]
    return loaded


# ---------------------------------------------------------------------- tiles
@given(hrst.tile_indices())
def test_tile_indices_are_the_28_tiles(t):
    assert 0 <= t < TILE_COUNT


@given(hrst.tiles())
def test_tiles_are_written_low_half_first(text):
    low, high = map(int, TILE_TEXT.match(text).groups())
    assert 0 <= low <= high <= 6
    assert NAMES[parse_tile(text)] == text


@given(hrst.tiles(either_order=True))
def test_tiles_in_either_order_parse(text):
    assert TILE_TEXT.match(text)
    low, high = sorted(map(int, TILE_TEXT.match(text).groups()))
    assert NAMES[parse_tile(text)] == f"[{low}|{high}]"


def test_tiles_in_either_order_include_high_half_first():
    reversed_tile = find(hrst.tiles(either_order=True), lambda text: text[1] > text[3])
    assert reversed_tile == "[1|0]"


# ---------------------------------------------------------------------- rulesets
@given(hrst.rulesets(target=st.integers(1, 200)))
def test_rulesets_use_the_register_readings(ruleset):
    assert isinstance(ruleset, Ruleset)
    for name, reading in ruleset.readings.items():
        assert reading in VARIANT_FIELDS[name]
    assert 1 <= ruleset.target <= 200
    assert Ruleset.from_readings(**ruleset.variants, target=ruleset.target) == ruleset


@given(hrst.variants())
def test_variants_name_only_non_canonical_readings(variants):
    for name, reading in variants.items():
        assert reading in VARIANT_FIELDS[name][1:]


# ---------------------------------------------------------------------- tables and deals
@given(hrst.tables())
def test_tables_keep_scores_below_the_target(table):
    sides = 2 if table["mode"] == "partnership" else table["seats"]
    assert len(table["scores"]) == sides
    assert all(0 <= s < table["target"] for s in table["scores"])
    if table["mode"] == "partnership":
        assert table["seats"] == 4


@given(hrst.deals())
def test_deals_are_fresh_deals(deal):
    seats = len(deal["hands"])
    hands = [[parse_tile(t) for t in h] for h in deal["hands"]]
    boneyard = [parse_tile(t) for t in deal["boneyard"]]
    assert all(len(h) == DEAL_SIZE[seats] for h in hands)
    assert len(boneyard) == TILE_COUNT - DEAL_SIZE[seats] * seats
    Hand(hands, boneyard, deal["opener"], validate=True)  # HR-SET-1, HR-DEAL-1, HR-DEAL-2
    table = {"mode": "individual", "seats": seats, "scores": [0] * seats, "target": 61}
    load_checked(as_fixture("play", {**table, "hands": [{**deal, "placements": []}]}))


@given(hrst.deals(players=3))
def test_deals_for_three(deal):
    assert len(deal["hands"]) == 3 and 0 <= deal["opener"] < 3


@given(hrst.deals(partnership=True))
def test_partnership_deals_have_four_seats(deal):
    assert len(deal["hands"]) == 4


@pytest.mark.parametrize("kwargs", [{"players": 5}, {"players": 1}, {"players": 2, "partnership": True}])
def test_impossible_seatings_are_refused(kwargs):
    with pytest.raises(InvalidArgument):
        hrst.deals(**kwargs)


# ---------------------------------------------------------------------- layouts
@given(st.data())
def test_layouts_replay_legally(data):
    ruleset = data.draw(hrst.rulesets(), label="ruleset")
    placements = data.draw(hrst.layouts(ruleset=ruleset), label="layout")
    assert 1 <= len(placements) <= TILE_COUNT
    layout = Layout(branch_use_one=ruleset.branch_use is BranchUse.ONE)
    for entry in placements:
        tile = parse_tile(entry["tile"])
        assert tile not in layout
        target = parse_tile(entry["target"]) if "target" in entry else None
        port = parse_port(entry["port"]) if "port" in entry else None
        assert (target is None) == (port is None) == (not layout.order)
        assert layout.normalise(tile, target, port) == (target, port), "the placement is not named canonically"
        layout.place(tile, target, port)
    load_checked(as_fixture("layout", {"steps": placements}, ruleset.variants))


@given(hrst.layouts(max_placements=4, min_placements=2))
def test_layouts_respect_the_length_bounds(placements):
    assert 2 <= len(placements) <= 4


# ---------------------------------------------------------------------- settlements
@given(hrst.settlement_states())
def test_settlement_states_are_valid_settlement_fixtures(state):
    seats = state["seats"]
    assert len(state["hands"]) == seats
    tiles = [t for h in state["hands"] for t in h]
    assert len(set(tiles)) == len(tiles) < TILE_COUNT
    for seat, h in enumerate(state["hands"]):
        assert (not h) == (seat == state["ended_by"])
    assert all(s < state["target"] for s in state["scores"])
    (fixture,) = load_checked(as_fixture("settlement", state))
    assert fixture.expected["scores"] == [
        s + c for s, c in zip(state["scores"], fixture.expected["credits"], strict=True)
    ]


# ---------------------------------------------------------------------- play
@given(st.data())
def test_play_scenarios_are_complete_valid_play_fixtures(data):
    ruleset = data.draw(hrst.rulesets(), label="ruleset")
    scenario = data.draw(hrst.play_scenarios(ruleset=ruleset, max_hands=2), label="scenario")
    (fixture,) = load_checked(as_fixture("play", scenario, ruleset.variants))
    observed = fixture.expected
    assert len(observed["hands"]) == len(scenario["hands"])
    for listed, played in zip(scenario["hands"], observed["hands"], strict=True):
        kinds = [e["event"] for e in played["events"]]
        assert kinds[-1] in ("hand-end", "match-end"), "the placements do not play the hand to its end"
        assert kinds.count("place") == sum("tile" in p for p in listed["placements"])
        assert kinds.count("end-turn") >= sum("end_turn" in p for p in listed["placements"])
        if ruleset.continuation is Continuation.COMPULSORY:
            assert not any("end_turn" in p for p in listed["placements"])
    last = observed["hands"][-1]["events"]
    assert (last[-1]["event"] == "match-end") == bool(observed["match_winners"])


@given(hrst.play_scenarios(players=4, partnership=True, target=61))
def test_play_scenarios_honour_the_table(scenario):
    assert scenario["mode"] == "partnership" and scenario["seats"] == 4 and scenario["target"] == 61
    assert len(scenario["hands"]) == 1


def test_importing_horserace_does_not_need_hypothesis():
    code = (
        "import sys, horserace, horserace.corpus.observers, horserace.corpus.loader, horserace.cli; "
        "sys.exit('hypothesis' in sys.modules)"
    )
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0
