"""The legal twin of an illegal fixture and the lint of illegal fixtures
(spec/fixture-format.md, "illegal" and "Checks on load"): the twin's input built from
``replace`` or given whole, every refusal of a twin at the twin's own value
(``file:line:column``), the lint's refusals at the last action, and ``horserace
coverage`` listing the illegal fixtures without a twin."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus.fixture import build_twin_input, parse_input_path
from horserace.corpus.loader import load_paths
from horserace.corpus.rule_coverage import coverage_report
from horserace.corpus.twins import lint_illegal, readings_sent

FULL_SET = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]
#: The documents' worked layout P1 (scenarios/rule-text/illegal.yaml): free ends [1|1]
#: linear-b (1), [3|4] low (3), [4|4] branch-a / branch-b (4).
P1 = [
    '{tile: "[1|4]"}',
    '{tile: "[1|1]", target: "[1|4]", port: low}',
    '{tile: "[4|4]", target: "[1|4]", port: high}',
    '{tile: "[3|4]", target: "[4|4]", port: linear-b}',
]
P1_TILES = ["[1|4]", "[1|1]", "[4|4]", "[3|4]"]
#: HHD647's twin, as the corpus writes it.
TWIN = """\
  twin:
    why: "[1|5] is in seat 0's hand and shows 1"
    replace:
      "actions[0].tile": "[1|5]"
"""


def _tiles(tiles: list[str]) -> str:
    return "[" + ", ".join(f'"{t}"' for t in tiles) + "]"


def illegal(
    actions: list[str],
    *,
    hands: tuple[list[str], list[str]] = (["[0|0]", "[1|5]"], ["[1|2]", "[6|6]"]),
    expected: str = "{rejected_at: 0, rule: HR-PLACE-3}",
    twin: str = TWIN,
    origin: str = "rule-text",
    variants: str = "",
    scores: str = "[0, 0]",
    fid: str = "T3STTW",
) -> str:
    """An illegal fixture on P1 (by default HHD647: seat 0 places seat 1's [1|2], with
    its twin), the boneyard the rest of the set."""
    boneyard = [t for t in FULL_SET if t not in P1_TILES and t not in hands[0] + hands[1]]
    layout = "".join(f"      - {e}\n" for e in P1)
    listed = "".join(f"      - {a}\n" for a in actions)
    return (
        f"- id: {fid}\n  description: a test\n  kind: illegal\n  rules: [HR-PLACE-3]\n"
        + (f"  variants: {variants}\n" if variants else "")
        + f"  origin: {origin}\n  why: test\n  input:\n    mode: individual\n    seats: 2\n"
        + f"    scores: {scores}\n    target: 61\n    layout:\n{layout}"
        + f"    hands: [{_tiles(hands[0])}, {_tiles(hands[1])}]\n    boneyard: {_tiles(boneyard)}\n"
        + f"    opener: 0\n    actions:\n{listed}  expected: {expected}\n{twin}"
    )


HHD647 = illegal(['{seat: 0, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}'])


def load(tmp_path: Path, text: str, folder: str = ""):
    path = tmp_path / folder / "case.yaml"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return load_paths([path])


def only_error(tmp_path: Path, text: str):
    errors = load(tmp_path, text).errors
    assert len(errors) == 1, [e.render() for e in errors]
    return errors[0]


def at(text: str, fragment: str, after: str = "  twin:") -> tuple[int, int]:
    """Line and column (1-based) of ``fragment``'s first character, after ``after``."""
    start = text.index(after)
    offset = text.index(fragment, start)
    line = text.count("\n", 0, offset) + 1
    return line, offset - (text.rfind("\n", 0, offset) + 1) + 1


def twin(replace: str) -> str:
    return f"  twin:\n    why: test\n    replace:\n{textwrap.indent(replace, '      ')}"


# ---------------------------------------------------------------- the twin's input
def test_a_twin_built_from_replace_leaves_the_fixture_alone(tmp_path):
    corpus = load(tmp_path, HHD647)
    assert corpus.errors == []
    (fx,) = corpus.fixtures
    assert fx.twin_input is not None and fx.twin_input["actions"][0]["tile"] == "[1|5]"
    assert fx.input["actions"][0]["tile"] == "[1|2]"
    assert {k: v for k, v in fx.twin_input.items() if k != "actions"} == {
        k: v for k, v in fx.input.items() if k != "actions"
    }
    assert fx.twin_input is fx.twin_input  # built once


def test_a_twin_given_whole_is_the_twin_input(tmp_path):
    corpus = load(tmp_path, HHD647)
    (fx,) = corpus.fixtures
    whole = {**fx.input, "actions": [{**fx.input["actions"][0], "tile": "[1|5]"}]}
    assert build_twin_input(fx.input, {"why": "x", "input": whole}) is whole
    text = HHD647.replace(TWIN, "  twin:\n    why: whole\n    input: " + json.dumps(whole) + "\n")
    corpus = load(tmp_path, text)
    assert corpus.errors == [] and corpus.fixtures[0].twin_input == whole


def test_no_twin_no_twin_input(tmp_path):
    (fx,) = load(tmp_path, HHD647.replace(TWIN, "")).fixtures
    assert fx.twin is None and fx.twin_input is None


@pytest.mark.parametrize(
    ("text", "steps"),
    [
        ("actions[0].port", ("actions", 0, "port")),
        ("hands[1]", ("hands", 1)),
        ("hands[1][3]", ("hands", 1, 3)),
        ("boneyard", ("boneyard",)),
        ("scores[0]", ("scores", 0)),
    ],
)
def test_paths_are_read_as_the_comparison_writes_them(text, steps):
    assert parse_input_path(text) == steps


@pytest.mark.parametrize("text", ["", "[0]", "actions.0", "hands[01]", "actions[0]port", ".hands", "hands[-1]"])
def test_what_is_not_a_path(text):
    assert parse_input_path(text) is None


# ---------------------------------------------------------------- the twin's checks, each at its value
def test_a_path_the_input_does_not_have(tmp_path):
    text = HHD647.replace(TWIN, twin('"actions[1].tile": "[1|5]"\n'))
    err = only_error(tmp_path, text)
    assert "the input has no actions[1]" in err.message
    assert (err.line, err.column) == at(text, '"[1|5]"')


def test_a_key_that_is_not_a_path(tmp_path):
    text = HHD647.replace(TWIN, twin('"hands[01]": ["[0|0]", "[1|5]"]\n'))
    err = only_error(tmp_path, text)
    assert "'hands[01]' is not a path of the input" in err.message
    assert (err.line, err.column) == at(text, '["[0|0]"')
    # One the schema's pattern refuses already: a schema error, at the twin.
    err = only_error(tmp_path, HHD647.replace(TWIN, twin('"actions.0": 1\n')))
    assert "twin/replace" in err.message


def test_paths_that_overlap(tmp_path):
    text = HHD647.replace(TWIN, twin('"actions[0]": {seat: 0, action: draw}\n"actions[0].tile": "[1|5]"\n'))
    err = only_error(tmp_path, text)
    assert "actions[0].tile and actions[0] overlap" in err.message
    assert (err.line, err.column) == at(text, '"[1|5]"')


def test_a_twin_position_that_is_not_valid_points_inside_the_value(tmp_path):
    # [0|0] is in seat 0's hand already: the replaced hand of seat 1 holds it twice.
    text = HHD647.replace(TWIN, twin('"hands[1]": ["[1|2]", "[0|0]"]\n'))
    err = only_error(tmp_path, text)
    assert (
        "the twin's input: [0|0] appears twice (input.hands[0] and input.hands[1])" in err.message
        and err.rule == "HR-SET-1"
    )
    assert (err.line, err.column) == at(text, '"[0|0]"]')


def test_a_replaced_value_the_schema_refuses(tmp_path):
    text = HHD647.replace(TWIN, twin('"actions[0].port": lowx\n'))
    err = only_error(tmp_path, text)
    assert "the twin's input.actions[0].port" in err.message and "lowx" in err.message
    assert (err.line, err.column) == at(text, "lowx")


def test_a_twin_with_another_number_of_actions(tmp_path):
    text = HHD647.replace(
        TWIN,
        twin(
            '"actions":\n'
            '  - {seat: 0, action: place, tile: "[1|5]", target: "[1|1]", port: linear-b}\n'
            "  - {seat: 1, action: draw}\n"
        ),
    )
    err = only_error(tmp_path, text)
    assert "the twin has 2 action(s), the fixture 1" in err.message
    assert (err.line, err.column) == at(text, "- {seat: 0")


def test_a_twin_the_reference_refuses_gives_the_index_and_rule(tmp_path):
    text = HHD647.replace(TWIN, twin('"actions[0].tile": "[6|6]"\n'))
    err = only_error(tmp_path, text)
    assert "the reference refuses the twin's action 0 (HR-PLACE-3)" in err.message
    assert "[6|6] is not in seat 0's hand" in err.message and err.rule == "HR-PLACE-3"
    assert (err.line, err.column) == at(text, '"[6|6]"')


def test_a_twin_given_whole_is_refused_inside_its_input(tmp_path):
    (fx,) = load(tmp_path, HHD647).fixtures
    whole = {**fx.input, "actions": [{**fx.input["actions"][0], "tile": "[6|6]"}]}
    text = HHD647.replace(TWIN, "  twin:\n    why: whole\n    input:\n" + textwrap.indent(json.dumps(whole), "      "))
    err = only_error(tmp_path, text + "\n")
    assert "refuses the twin's action 0 (HR-PLACE-3)" in err.message
    assert (err.line, err.column) == at(text, '{"seat": 0', after='"actions"')


def test_a_twin_of_another_kind(tmp_path):
    # Seat 0 holds [1|5], which plays: its draw would be refused too, but the kind comes first.
    text = HHD647.replace(TWIN, twin('"actions[0]": {seat: 0, action: draw}\n'))
    err = only_error(tmp_path, text)
    assert "the twin's last action is a draw, not a place" in err.message
    assert (err.line, err.column) == at(text, "draw}")


def test_a_twin_by_another_seat_unless_the_seat_is_what_is_broken(tmp_path):
    text = HHD647.replace(
        TWIN, twin('"actions[0]": {seat: 1, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}\n')
    )
    err = only_error(tmp_path, text)
    assert "by seat 1, the fixture's by seat 0" in err.message
    # A fixture that breaks the seat (seat 1 acts out of turn) has the seat to act in its twin.
    out_of_turn = illegal(
        ['{seat: 1, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}'],
        hands=(["[0|0]", "[2|6]"], ["[1|2]", "[6|6]"]),
        expected="{rejected_at: 0, rule: HR-SEAT-3}",
        twin=twin('"opener": 1\n'),
    )
    assert load(tmp_path, out_of_turn).errors == []


@pytest.mark.parametrize(
    ("twin_text", "found"),
    [
        ("  twin:\n    why: nothing\n", "'oneOf'"),
        ('  twin:\n    why: both\n    replace: {"opener": 1}\n    input: {}\n', "'oneOf'"),
        ('  twin:\n    replace: {"opener": 1}\n', '"why" is a required property'),
    ],
    ids=["neither", "both", "no-why"],
)
def test_a_twin_has_a_why_and_replace_or_input(tmp_path, twin_text, found):
    errors = load(tmp_path, HHD647.replace(TWIN, twin_text)).errors
    assert errors and all(e.message.startswith("twin") for e in errors), [e.render() for e in errors]
    assert any(found in e.message for e in errors), [e.render() for e in errors]


def test_only_an_illegal_fixture_has_a_twin(tmp_path):
    text = textwrap.dedent(
        """\
        - id: T3STAA
          description: a lone [2|2]
          kind: layout
          rules: [HR-COUNT-2]
          origin: rule-text
          why: both halves once, 4
          input:
            steps:
              - {tile: "[2|2]"}
          expected:
            steps:
              - {contributions: [{tile: "[2|2]", value: 4}], sum: 4, credit_raw: 0, credit: 0,
                 attachment_points: [{tile: "[2|2]", port: linear-a, value: 2}, {tile: "[2|2]", port: linear-b, value: 2}]}
          twin: {why: x, replace: {"steps[0].tile": "[3|3]"}}
        """
    )
    err = only_error(tmp_path, text)
    assert "twin" in err.message and err.line == 14


def test_the_twin_holds_under_every_reading_the_fixture_is_sent_under(tmp_path):
    """A draw in a continuation is legal only under continuation_without_tile=draw: the
    twin of a fixture that does not name that reading is refused under end-turn."""
    # Seat 0 puts [3|3] on [3|4] low (a double: a continuation) and, holding [1|6] that
    # plays on [1|1] linear-b, draws (HR-DRAW-1).  The twin swaps [1|6] for [2|5].
    hands = (["[3|3]", "[1|6]", "[0|0]"], ["[6|6]", "[5|6]"])
    boneyard = [t for t in FULL_SET if t not in P1_TILES and t not in hands[0] + hands[1]]
    repair = twin(
        f'"hands[0]": ["[3|3]", "[2|5]", "[0|0]"]\n'
        f"boneyard: {_tiles([('[1|6]' if t == '[2|5]' else t) for t in boneyard])}\n"
    )
    actions = ['{seat: 0, action: place, tile: "[3|3]", target: "[3|4]", port: low}', "{seat: 0, action: draw}"]
    text = illegal(actions, hands=hands, expected="{rejected_at: 1, rule: HR-DRAW-1}", twin=repair)
    err = only_error(tmp_path, text)
    assert "under continuation_without_tile=end-turn" in err.message and "(HR-SEAT-3)" in err.message
    named = illegal(
        actions,
        hands=hands,
        expected="{rejected_at: 1, rule: HR-DRAW-1}",
        twin=repair,
        variants="{continuation_without_tile: draw}",
    )
    assert load(tmp_path, named).errors == []


# ---------------------------------------------------------------- the lint
def test_a_placement_whose_actor_holds_no_legal_placement(tmp_path):
    """HHD647 as it was: seat 0 held [0|0] [2|6], nothing that plays on P1, so an
    implementation that wants a draw first refused seat 1's tile for that reason."""
    text = illegal(
        ['{seat: 0, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}'],
        hands=(["[0|0]", "[2|6]"], ["[1|2]", "[6|6]"]),
        twin="",
    )
    err = only_error(tmp_path, text)
    assert "seat 0 holds no legal placement here" in err.message and "HR-PLACE-3" in err.message
    assert (err.line, err.column) == at(text, "{seat: 0, action: place", after="actions:")


def test_an_action_that_breaks_another_rule_too(tmp_path):
    # [1|2] is seat 1's and [1|4] low is occupied: HR-PLACE-3 and HR-PLACE-1.
    text = illegal(['{seat: 0, action: place, tile: "[1|2]", target: "[1|4]", port: low}'], twin="")
    err = only_error(tmp_path, text)
    assert "breaks more than HR-PLACE-3: HR-PLACE-1: port low of [1|4] is already occupied" in err.message
    assert (err.line, err.column) == at(text, "{seat: 0, action: place", after="actions:")


def test_the_end_of_the_hand_is_judged_as_the_turn_would_stand_without_it(tmp_path):
    """FQR8B7 as it was: seat 0's last tile [1|2] scored 5, so had the hand gone on seat 0
    would have continued, and seat 1's placement was out of turn as well: an
    implementation that misses the end refuses it for the seat."""
    text = illegal(
        [
            '{seat: 0, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}',
            '{seat: 1, action: place, tile: "[2|3]", target: "[3|4]", port: low}',
        ],
        hands=(["[1|2]"], ["[2|3]", "[0|0]"]),
        expected="{rejected_at: 1, rule: HR-END-3}",
        twin="",
    )
    err = only_error(tmp_path, text)
    assert "breaks more than HR-END-3: HR-SEAT-3: it is seat 0's turn (had the hand gone on)" in err.message


def test_a_fixture_wrong_under_a_reading_beside_those_it_names(tmp_path):
    """A fixture that names no reading, wrong under continuation_without_tile=end-turn
    (as 6FNNYT was): after [4|5] scores, seat 0 holds nothing playable and draws, as the
    canonical reading has it ([0|1], playable, which it must place: seat 1's [5|6] is out
    of turn); under end-turn its continuation lapses at once and that draw is refused."""
    text = illegal(
        [
            '{seat: 0, action: place, tile: "[4|5]", target: "[4|4]", port: branch-a}',
            "{seat: 0, action: draw}",
            '{seat: 1, action: place, tile: "[5|6]", target: "[4|5]", port: high}',
        ],
        hands=(["[4|5]", "[0|0]"], ["[6|6]", "[5|6]"]),
        expected="{rejected_at: 2, rule: HR-SEAT-3}",
        twin="",
    )
    err = only_error(tmp_path, text)
    assert "under continuation_without_tile=end-turn the reference refuses an earlier action (" in err.message


def test_generated_fixtures_are_not_linted(tmp_path):
    text = illegal(
        ['{seat: 0, action: place, tile: "[1|2]", target: "[1|1]", port: linear-b}'],
        hands=(["[0|0]", "[2|6]"], ["[1|2]", "[6|6]"]),
        twin="",
        origin="generated",
    )
    assert load(tmp_path, text, folder="generated").errors == []


def test_implied_conditions_are_not_counted(corpus):
    """BEH6H1 (a draw with a playable drawn tile pending also holds a legal placement),
    SKGBTP (the other tile placed in its stead misses its port), E1K6YY (the match over,
    the hand over too): each breaks a second condition, implied by its rule, and passes."""
    by_id = {fx.id: fx for fx in corpus.fixtures}
    for fid in ("BEH6H1", "SKGBTP", "E1K6YY"):
        lint_illegal(by_id[fid])


def test_the_readings_sent(corpus):
    by_id = {fx.id: fx for fx in corpus.fixtures}
    sent = readings_sent(by_id["GGC1AD"])  # it names branch_use=one
    assert sent[0] == {"branch_use": "one"}
    assert all(r["branch_use"] == "one" for r in sent) and len(sent) == 6  # one other reading of five fields
    assert len(readings_sent(by_id["HHD647"])) == 7


# ---------------------------------------------------------------- coverage
def test_coverage_lists_the_illegal_fixtures_without_a_twin(tmp_path, capsys):
    (tmp_path / "rule-text").mkdir()
    (tmp_path / "rule-text" / "a.yaml").write_text(HHD647.replace(TWIN, ""), encoding="utf-8")
    (tmp_path / "generated").mkdir()
    generated = HHD647.replace(TWIN, "").replace("T3STTW", "T3STGN").replace("origin: rule-text", "origin: generated")
    (tmp_path / "generated" / "b.yaml").write_text(generated, encoding="utf-8")
    corpus = load_paths([tmp_path])
    assert corpus.errors == []
    report = coverage_report(corpus.fixtures)
    assert [(t["fixture"], t["origin"]) for t in report["without_twin"]] == [
        ("T3STGN", "generated"),
        ("T3STTW", "rule-text"),
    ]
    twin_gaps = [g for g in report["gaps"] if "fixture" in g]
    assert [g["fixture"] for g in twin_gaps] == ["T3STTW"]  # a generated fixture is not a gap
    assert twin_gaps[0]["rule"] == "HR-PLACE-3"

    assert main(["coverage", str(tmp_path)]) == ExitCode.FAILURES
    out = capsys.readouterr().out
    assert "HR-PLACE-3: illegal fixture T3STTW" in out and "has no legal twin" in out
    assert main(["coverage", str(tmp_path), "--format", "json"]) == ExitCode.FAILURES
    assert [t["fixture"] for t in json.loads(capsys.readouterr().out)["without_twin"]] == ["T3STGN", "T3STTW"]


def test_a_twin_closes_the_gap(tmp_path):
    report = coverage_report(load(tmp_path, HHD647).fixtures)
    assert report["without_twin"] == [] and not [g for g in report["gaps"] if "fixture" in g]


def test_every_illegal_fixture_of_the_bundled_corpus_has_a_one_line_twin(corpus):
    illegal_fixtures = [fx for fx in corpus.fixtures if fx.kind == "illegal" and not fx.deprecated]
    assert len(illegal_fixtures) >= 59
    for fx in illegal_fixtures:
        assert fx.twin is not None, fx.id
        assert "\n" not in fx.twin["why"].strip(), fx.id
        assert fx.twin_input != fx.input, fx.id


def test_coverage_text_says_which_illegal_fixtures_have_no_twin():
    from horserace.reports.coverage_text import format_text

    base = {"fixtures": 2, "kinds": {"illegal": 2}, "rules": [], "readings": {}, "gaps": []}
    none = format_text({**base, "without_twin": []})
    assert "every illegal fixture has its legal twin (2)" in none
    one = format_text({**base, "without_twin": [{"fixture": "ABCDEF", "origin": "generated", "file": "x", "line": 1}]})
    assert "illegal fixtures without a legal twin (1 of 2): ABCDEF (generated)" in one
