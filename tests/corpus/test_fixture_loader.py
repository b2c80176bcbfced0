"""Every class of bad fixture input is refused with file:line:column and a plain message
(spec/fixture-format.md, "Checks on load"); hostile YAML is refused in bounded time."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from horserace.corpus.loader import load_paths
from horserace.resources.limits import MAX_FILE_BYTES

GOOD_LAYOUT = """\
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
"""

FULL_SET = [f"[{a}|{b}]" for a in range(7) for b in range(a, 7)]


def play_fixture(hands: list[list[str]], boneyard: list[str], placements: str = "[]", fid: str = "T3STPP") -> str:
    def seq(tiles):
        return "[" + ", ".join(f'"{t}"' for t in tiles) + "]"

    return f"""\
- id: {fid}
  description: a play fixture
  kind: play
  rules: [HR-DEAL-1]
  origin: rule-text
  why: test
  input:
    mode: individual
    seats: {len(hands)}
    scores: {[0] * len(hands)}
    target: 61
    hands:
      - hands: [{", ".join(seq(h) for h in hands)}]
        boneyard: {seq(boneyard)}
        opener: 0
        placements: {placements}
  expected: {{hands: [], scores: {[0] * len(hands)}, match_winners: []}}
"""


def errors_for(tmp_path: Path, text: str | bytes, name: str = "case.yaml") -> list[str]:
    path = tmp_path / name
    if isinstance(text, bytes):
        path.write_bytes(text)
    else:
        path.write_text(text, encoding="utf-8")
    corpus = load_paths([path])
    return [e.render() for e in corpus.errors]


def only_error(tmp_path, text, **kw) -> str:
    errs = errors_for(tmp_path, text, **kw)
    assert len(errs) == 1, errs
    return errs[0]


def test_a_good_fixture_loads(tmp_path):
    assert errors_for(tmp_path, GOOD_LAYOUT) == []


def test_yaml_syntax_error_has_line_and_column(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("kind: layout", "kind: [layout"))
    assert "case.yaml:" in err and "YAML" in err
    assert err.split("case.yaml:")[1].split(":")[0].isdigit()


def test_duplicate_keys_are_refused(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("  kind: layout\n", "  kind: layout\n  kind: play\n"))
    assert "case.yaml:4:3" in err and "duplicate key 'kind'" in err


def test_unknown_field(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("  origin:", "  colour: blue\n  origin:"))
    assert "case.yaml:1:3" in err and "colour" in err and "T3STAA" in err


def test_wrong_type(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("sum: 4", "sum: four"))
    assert "expected/steps/0/sum" in err and '"four" is not of type "integer"' in err and ":12:" in err


def test_bad_tile_notation_and_unquoted_tiles(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace('- {tile: "[2|2]"}', '- {tile: "2-2"}'))
    assert "input/steps/0/tile" in err
    err = only_error(tmp_path, GOOD_LAYOUT.replace('- {tile: "[2|2]"}', "- {tile: [2|2]}"))
    assert "quote tiles in YAML" in err


def test_tile_outside_the_set(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace('- {tile: "[2|2]"}', '- {tile: "[2|7]"}'))
    assert "HR-SET-1" in err and "[2|7]" in err


def test_tile_twice_across_hands_boneyard_and_layout(tmp_path):
    hands = [FULL_SET[0:7], FULL_SET[7:14]]
    boneyard = [*FULL_SET[14:27], FULL_SET[0]]
    err = only_error(tmp_path, play_fixture(hands, boneyard))
    assert "HR-SET-1" in err and "[0|0] appears twice" in err


def test_play_setup_must_hold_all_28_tiles(tmp_path):
    err = only_error(tmp_path, play_fixture([FULL_SET[0:7], FULL_SET[7:14]], FULL_SET[14:27]))
    assert "HR-DEAL-2" in err and "missing [6|6]" in err


def test_fresh_deal_hand_sizes(tmp_path):
    err = only_error(tmp_path, play_fixture([FULL_SET[0:8], FULL_SET[8:14]], FULL_SET[14:]))
    assert "HR-DEAL-1" in err and "7 tiles" in err


def test_unknown_rule_id(tmp_path):
    unknown = "HR-COUNT-" + "99"  # spelt in two parts: tests/documents/test_spec.py checks every ID cited here exists
    err = only_error(tmp_path, GOOD_LAYOUT.replace("[HR-COUNT-2]", f"[{unknown}]"))
    assert f"{unknown} does not exist" in err


def test_duplicate_fixture_ids_across_files(tmp_path):
    (tmp_path / "a.yaml").write_text(GOOD_LAYOUT)
    (tmp_path / "b.yaml").write_text(GOOD_LAYOUT)
    errs = [e.render() for e in load_paths([tmp_path]).errors]
    assert len(errs) == 1 and "duplicate fixture ID" in errs[0] and "a.yaml" in errs[0]


def test_illegal_placement_where_the_fixture_says_legal(tmp_path):
    text = GOOD_LAYOUT.replace(
        '- {tile: "[2|2]"}', '- {tile: "[2|2]"}\n      - {tile: "[3|4]", target: "[2|2]", port: linear-b}'
    )
    err = only_error(tmp_path, text)
    assert "HR-PLACE-1" in err and "[3|4]" in err


def test_branch_before_linear_sides_in_a_play_fixture(tmp_path):
    hands = [["[2|2]", "[2|3]", *FULL_SET[20:25]], FULL_SET[0:7]]
    rest = [t for t in FULL_SET if t not in hands[0] and t not in hands[1]]
    text = play_fixture(hands, rest, '[{tile: "[2|2]"}, {tile: "[2|3]", target: "[2|2]", port: branch-a}]')
    errs = errors_for(tmp_path, text)
    assert any("HR-SPIN-2" in e for e in errs), errs


def test_reading_the_register_does_not_name(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("  origin:", "  variants: {branch_use: three}\n  origin:"))
    assert "variants/branch_use" in err
    err = only_error(tmp_path, GOOD_LAYOUT.replace("  origin:", "  variants: {spinner_style: wild}\n  origin:"))
    assert "spinner_style" in err


def test_generated_fixtures_are_kept_apart(tmp_path):
    err = only_error(tmp_path, GOOD_LAYOUT.replace("origin: rule-text", "origin: generated"))
    assert "scenarios/generated/" in err


def test_not_utf8_and_empty_files(tmp_path):
    assert "not UTF-8" in only_error(tmp_path, b"- id: \xff\xfe\n")
    assert "empty" in only_error(tmp_path, "")


def test_not_utf8_says_the_line_and_column(tmp_path):
    """The place of the first byte that is not UTF-8, as an editor counts it (the
    column in characters: "é" before it is one)."""
    err = only_error(tmp_path, "- id: X\n  why: \u00e9t\u00e9 ".encode() + b"\xff\n")
    assert ":2:12: not UTF-8 (byte 21)" in err, err


# ---------------------------------------------------------------- hostile input
def test_alias_bomb_is_refused_quickly(tmp_path):
    lines = ['a0: &a0 ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    lines.extend(f"a{i}: &a{i} [" + ", ".join([f"*a{i - 1}"] * 9) + "]" for i in range(1, 12))
    start = time.perf_counter()
    err = only_error(tmp_path, "- " + "\n  ".join(lines) + "\n")
    assert time.perf_counter() - start < 2
    assert "aliases" in err


def test_deep_nesting_is_refused(tmp_path):
    start = time.perf_counter()
    err = only_error(tmp_path, "- " + "[" * 5000 + "]" * 5000 + "\n")
    assert time.perf_counter() - start < 2
    assert "nesting deeper" in err


@pytest.mark.parametrize(("levels", "prefix"), [(500, "- "), (500, ""), (2000, "- ")])
def test_deep_block_nesting_is_refused(tmp_path, levels, prefix):
    # Each key one column deeper than the one before: valid YAML, ``levels`` mappings deep.
    indent = len(prefix)
    lines = ["k:"] + [" " * (indent + i) + "k:" for i in range(1, levels)] + [" " * (indent + levels) + "v"]
    path = tmp_path / "case.yaml"
    path.write_text(prefix + "\n".join(lines) + "\n")
    start = time.perf_counter()
    errors = load_paths([path]).errors
    assert time.perf_counter() - start < 5
    assert len(errors) == 1, errors
    # The message, not the rendering: the test's folder name holds "nesting" too.
    assert errors[0].message.startswith("nesting deeper than 64 levels"), errors[0].render()


def test_huge_file_is_refused_before_parsing(tmp_path):
    path = tmp_path / "huge.yaml"
    with path.open("w") as f:
        f.write("- id: ABCDEF\n  why: '")
        f.write("x" * (MAX_FILE_BYTES + 10))
        f.write("'\n")
    start = time.perf_counter()
    errs = [e.render() for e in load_paths([path]).errors]
    assert time.perf_counter() - start < 2
    assert len(errs) == 1 and "larger than" in errs[0]


def test_python_object_tags_are_not_constructed(tmp_path):
    err = only_error(tmp_path, "- !!python/object/apply:os.system ['echo pwned']\n")
    assert "YAML" in err


def test_errors_of_all_files_are_reported(tmp_path):
    (tmp_path / "one.yaml").write_text("- [")
    (tmp_path / "two.yaml").write_text(GOOD_LAYOUT.replace("sum: 4", "sum: x"))
    errs = [e.render() for e in load_paths([tmp_path]).errors]
    assert any("one.yaml" in e for e in errs) and any("two.yaml" in e for e in errs)


def test_a_position_in_which_a_seat_holds_no_tile_is_refused(tmp_path):
    """Its hand ended with that seat's last tile (HR-END-1): it is no position to act in,
    and the engine would play on from it."""
    rest = [t for t in FULL_SET if t not in ("[3|3]", "[3|6]", "[1|3]", "[0|1]", "[3|5]")]
    text = f"""\
- id: T3STEH
  description: seat 0 holds nothing
  kind: perft
  rules: [HR-END-1]
  origin: rule-text
  why: test
  input:
    mode: individual
    seats: 2
    scores: [0, 0]
    target: 61
    hands: [[], ["[0|1]", "[3|5]"]]
    boneyard: [{", ".join(f'"{t}"' for t in rest)}]
    opener: 1
    layout:
      - {{tile: "[3|3]"}}
      - {{tile: "[3|6]", target: "[3|3]", port: linear-a}}
      - {{tile: "[1|3]", target: "[3|3]", port: linear-b}}
    depth: 2
  expected: {{nodes: 1, divide: {{}}}}
"""
    err = only_error(tmp_path, text)
    assert "input.hands[0]" in err and "seat 0 holds no tile" in err and "HR-END-1" in err


def test_a_perft_position_is_checked_at_its_own_target(tmp_path):
    """Scores above 61 are below a target of 121: the position is valid (the check of a
    perft position had taken the canonical target, and refused it)."""
    hands = [FULL_SET[:7], FULL_SET[7:14]]
    text = f"""\
- id: T3STPF
  description: a perft position of a long match
  kind: perft
  rules: [HR-MOVE-1]
  origin: rule-text
  why: seven openings
  input:
    mode: individual
    seats: 2
    scores: [100, 70]
    target: 121
    hands: [{", ".join("[" + ", ".join(f'"{t}"' for t in h) + "]" for h in hands)}]
    boneyard: [{", ".join(f'"{t}"' for t in FULL_SET[14:])}]
    opener: 0
    depth: 1
  expected: {{nodes: 7, divide: {{}}}}
"""
    assert errors_for(tmp_path, text) == []
