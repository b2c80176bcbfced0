"""The table of bad documents: each row a fixture file built from a small valid one, the
fragment its one error must hold, and the line and column that error must point at
(spec/fixture-format.md, "Checks on load").  Rows without a position are documents that
look suspicious to a text scan but are valid, and must load.

Then the hostile inputs that are about time and memory (an alias bomb, nesting far past
libyaml's own limit), and the same refusals for rulesets and expectations files, which
are read by the same strict layer."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from horserace.conformance.expectations import read_expectations
from horserace.corpus.fixture import Fixture
from horserace.corpus.loader import check_fixtures, load_paths
from horserace.errors import ExpectationsError, RulesetError
from horserace.resources.rulesets import load_ruleset
from tests.corpus.test_fixture_loader import FULL_SET, GOOD_LAYOUT

# GOOD_LAYOUT, line by line (the positions below count from it):
#  1 - id: T3STAA
#  2   description: a lone [2|2]
#  3   kind: layout
#  4   rules: [HR-COUNT-2]
#  5   origin: rule-text
#  6   why: both halves once, 4
#  7   input:
#  8     steps:
#  9       - {tile: "[2|2]"}  # noqa: ERA001  (the document shown with its line numbers)
# 10   expected:


def layout(old: str, new: str) -> str:
    """GOOD_LAYOUT with one edit (which must apply)."""
    assert old in GOOD_LAYOUT, old
    return GOOD_LAYOUT.replace(old, new, 1)


def play(hands: list[list[str]], boneyard: list[str], placements: str = "[]") -> str:
    """A play fixture in block style, one list a line: hands[s] is on line 15 + s, the
    boneyard on the line after the last hand, placements on the next."""

    def seq(tiles: list[str]) -> str:
        return "[" + ", ".join(f'"{t}"' for t in tiles) + "]"

    hand_lines = "".join(f"          - {seq(h)}\n" for h in hands)
    zeros = [0] * len(hands)
    return (
        "- id: T3STPP\n"  # 1
        "  description: a play fixture\n"  # 2
        "  kind: play\n"  # 3
        "  rules: [HR-DEAL-1]\n"  # 4
        "  origin: rule-text\n"  # 5
        "  why: test\n"  # 6
        "  input:\n"  # 7
        "    mode: individual\n"  # 8
        f"    seats: {len(hands)}\n"  # 9
        f"    scores: {zeros}\n"  # 10
        "    target: 61\n"  # 11
        "    hands:\n"  # 12
        "      - opener: 0\n"  # 13
        "        hands:\n"  # 14
        f"{hand_lines}"  # 15, 16, ...
        f"        boneyard: {seq(boneyard)}\n"
        f"        placements: {placements}\n"
        f"  expected: {{hands: [], scores: {zeros}, match_winners: []}}\n"
    )


#: A valid two-player deal: 7 tiles each, 14 in the boneyard.
HANDS = [FULL_SET[0:7], FULL_SET[7:14]]
BONEYARD = FULL_SET[14:]
#: Seat 0 holds [2|2] and [2|3]: it may open with the spinner [2|2] and then play [2|3].
SPIN_HANDS = [["[2|2]", "[2|3]", *FULL_SET[20:25]], FULL_SET[0:7]]
SPIN_REST = [t for t in FULL_SET if t not in SPIN_HANDS[0] and t not in SPIN_HANDS[1]]

DEEP = 70  # nesting levels in the rows below; the limit is 64
HOSTILE = "a & b, *c, !d, !!str e, <<: f, &g *h"

#: (row id, document, fragment of the one error, line, column); line None: it loads.
ROWS = [
    # ---- what the format forbids, refused from the parser's events
    (
        "scalar alias",
        layout("  description: a lone [2|2]", "  description: &d a lone [2|2]").replace(
            "why: both halves once, 4", "why: *d"
        ),
        "anchor &d: anchors and aliases are not allowed",  # the anchor comes first
        2,
        16,
    ),
    (
        "alias alone",
        layout("why: both halves once, 4", "why: *d"),
        "alias *d: anchors and aliases are not allowed",
        6,
        8,
    ),
    (
        "plain anchor",
        layout("description: a lone [2|2]", "description: &d a lone [2|2]"),
        "anchor &d: anchors and aliases are not allowed",
        2,
        16,
    ),
    (
        "anchored collection",
        layout("rules: [HR-COUNT-2]", "rules: &r [HR-COUNT-2]"),
        "anchor &r: anchors and aliases are not allowed",
        4,
        10,
    ),
    (
        "merge key without overlap",
        layout("    steps:\n", "    <<: {setup: []}\n    steps:\n"),
        "merge key '<<': merge keys are not allowed",
        8,
        5,
    ),
    (
        "merge key with overlap",
        layout("    steps:\n", "    <<: {steps: []}\n    steps:\n"),
        "merge key '<<': merge keys are not allowed",
        8,
        5,
    ),
    (
        "merge key in flow",
        layout('- {tile: "[2|2]"}', '- {<<: {port: low}, tile: "[2|2]"}'),
        "merge key '<<': merge keys are not allowed",
        9,
        10,
    ),
    ("plain << as a value", layout("why: both halves once, 4", "why: <<"), "a plain '<<' is read as a merge key", 6, 8),
    (
        "!!str tag",
        layout("why: both halves once, 4", "why: !!str both halves once, 4"),
        "YAML tag !!str: explicit tags are not allowed",
        6,
        8,
    ),
    ("!!binary", layout("why: both halves once, 4", "why: !!binary aGVsbG8="), "YAML tag !!binary", 6, 8),
    ("!!set", layout("why: both halves once, 4", "why: !!set {a, b}"), "YAML tag !!set", 6, 8),
    ("tag on a mapping", layout('- {tile: "[2|2]"}', '- !!map {tile: "[2|2]"}'), "YAML tag !!map", 9, 9),
    ("local tag", layout("why: both halves once, 4", "why: !note both halves"), "YAML tag !note", 6, 8),
    (
        "python tag",
        layout("why: both halves once, 4", "why: !!python/object/apply:os.system ['true']"),
        "YAML tag !!python/object/apply:os.system",
        6,
        8,
    ),
    # ---- values YAML 1.1 reads as something else than the format's types
    ("date", layout("why: both halves once, 4", "why: 2024-01-01"), "a date is not allowed; quote it", 6, 8),
    ("date and time", layout("why: both halves once, 4", "why: 2024-01-01 10:00:00"), "a date is not allowed", 6, 8),
    ("integer key", layout("  origin:", "  1: x\n  origin:"), "keys must be strings, not an integer (1)", 5, 3),
    ("boolean key", layout("  origin:", "  yes: x\n  origin:"), "keys must be strings, not a boolean (yes)", 5, 3),
    ("null key", layout("  origin:", "  ~: x\n  origin:"), "keys must be strings, not null", 5, 3),
    ("list key", layout("  origin:", "  ? [a]\n  : x\n  origin:"), "keys must be strings, not a list", 5, 5),
    ("duplicate key", layout("  kind: layout\n", "  kind: layout\n  kind: play\n"), "duplicate key 'kind'", 4, 3),
    # ---- suspicious to a text scan, valid YAML: these load
    (
        "70 [ in a comment",
        layout("why: both halves once, 4", "why: both halves once, 4  # " + "[" * DEEP),
        None,
        None,
        None,
    ),
    ("70 [ in a quoted string", layout("why: both halves once, 4", "why: '" + "[" * DEEP + "'"), None, None, None),
    ("70 { in a block scalar", layout("why: both halves once, 4", "why: |\n    " + "{" * DEEP), None, None, None),
    ("& * ! << quoted", layout("why: both halves once, 4", f'why: "{HOSTILE}"'), None, None, None),
    ("& * ! << single-quoted", layout("description: a lone [2|2]", f"description: '{HOSTILE}'"), None, None, None),
    (
        "& * ! << in a comment",
        layout("why: both halves once, 4", f"why: both halves once, 4  # {HOSTILE}"),
        None,
        None,
        None,
    ),
    ("& * ! inside a plain scalar", layout("why: both halves once, 4", "why: 2*2 & 4!"), None, None, None),
    # ---- nesting, measured on the parsed structure (the fixture list and the fixture are two levels)
    (
        "deep flow nesting",
        layout("why: both halves once, 4", "why: " + "[" * DEEP + "]" * DEEP),
        "nesting deeper than 64 levels",
        6,
        8 + 62,  # the 63rd '[' is the 65th level
    ),
    (
        "deep block nesting",
        layout(
            "why: both halves once, 4",
            "why:\n" + "".join(" " * (4 + i) + "k:\n" for i in range(DEEP)) + " " * (4 + DEEP) + "v",
        ),
        "nesting deeper than 64 levels",
        7 + 62,  # the 63rd 'k:' opens the 65th level
        5 + 62,
    ),
    (
        "deep block sequences",
        layout("why: both halves once, 4", "why:\n    " + "- " * DEEP + "v"),
        "nesting deeper than 64 levels",
        7,
        5 + 2 * 62,
    ),
    (
        "far past libyaml's limit",
        layout("why: both halves once, 4", "why: " + "[" * 100_000 + "]" * 100_000),
        "nesting deeper than 64 levels",
        6,
        1006,  # where libyaml gives up (its own limit, 1000 flow levels), before any event
    ),
    # ---- the meaning: each error at its offending value
    ("tile outside the set", layout('- {tile: "[2|2]"}', '- {tile: "[7|2]"}'), "input.steps[0].tile: ", 9, 16),
    (
        "target outside the set",
        layout(
            '      - {tile: "[2|2]"}', '      - {tile: "[2|2]"}\n      - {tile: "[2|3]", target: "[2|9]", port: low}'
        ),
        "input.steps[1].target: ",
        10,
        33,
    ),
    (
        "tile twice",
        play(HANDS, [*BONEYARD[:-1], FULL_SET[3]]),
        "[0|3] appears twice (input.hands[0].hands[0] and input.hands[0].boneyard)",
        17,
        137,
    ),
    (
        "tile twice on the layout",
        layout(
            '      - {tile: "[2|2]"}',
            '      - {tile: "[2|2]"}\n      - {tile: "[2|2]", target: "[2|2]", port: linear-a}',
        ),
        "input.steps[1].tile: [2|2] is already on the layout",
        10,
        16,
    ),
    (
        "wrong deal size",
        play([FULL_SET[0:8], FULL_SET[8:14]], FULL_SET[14:]),
        "input.hands[0].hands[0]: a fresh deal gives 7 tiles",
        15,
        13,
    ),
    (
        "play setup missing a tile",
        play(HANDS, BONEYARD[:-1]),
        "input.hands[0]: hands, boneyard and layout hold 27 tiles, not 28; missing [6|6]",
        13,
        9,
    ),
    (
        "illegal placement",
        layout(
            '      - {tile: "[2|2]"}',
            '      - {tile: "[2|2]"}\n      - {tile: "[3|4]", target: "[2|2]", port: linear-b}',
        ),
        "input.steps[1]: placing [3|4] is illegal",
        10,
        9,
    ),
    (
        "illegal placement in play",
        play(SPIN_HANDS, SPIN_REST, '[{tile: "[2|2]"}, {tile: "[2|3]", target: "[2|2]", port: branch-a}]'),
        "input.hands[0].placements[1]: seat 0 placing [2|3] [2|2] branch-a is illegal",
        18,
        39,
    ),
    (
        "unknown rule ID",
        layout("rules: [HR-COUNT-2]", "rules: [HR-COUNT-2, HR-COUNT-" + "99]"),  # see test_fixture_loader
        "does not exist in spec/rules.md",
        4,
        23,
    ),
    (
        "duplicate fixture ID",
        GOOD_LAYOUT + GOOD_LAYOUT.replace("description: a lone", "description: again, a lone"),
        "duplicate fixture ID (also ",
        14,  # the second fixture's id
        7,
    ),
    (
        "unknown variant reading",
        layout("  origin:", "  variants: {branch_use: three}\n  origin:"),
        "variants/branch_use",  # the schema names the readings first
        5,
        26,
    ),
    (
        "generated fixture outside scenarios/generated/",
        layout("origin: rule-text", "origin: generated"),
        "generated fixtures live under scenarios/generated/",
        5,
        11,
    ),
]


def _errors(tmp_path: Path, text: str) -> list:
    path = tmp_path / "case.yaml"
    path.write_text(text, encoding="utf-8")
    return load_paths([path]).errors


@pytest.mark.parametrize(("document", "fragment", "line", "column"), [r[1:] for r in ROWS], ids=[r[0] for r in ROWS])
def test_bad_document(tmp_path, document, fragment, line, column):
    start = time.perf_counter()
    errors = _errors(tmp_path, document)
    assert time.perf_counter() - start < 2
    if fragment is None:
        assert [e.render() for e in errors] == []
        return
    assert len(errors) == 1, [e.render() for e in errors]
    err = errors[0]
    assert fragment in err.message, err.render()
    assert (err.line, err.column) == (line, column), err.render()
    assert err.render().startswith(f"{err.file}:{line}:{column}: ")


def test_the_positions_of_the_table_point_at_the_values():
    """The hand-counted positions of the semantic rows, checked against the text: each
    points at the start of the value it names."""
    starts = {
        "tile outside the set": '"[7|2]"',
        "target outside the set": '"[2|9]"',
        "tile twice": '"[0|3]"]',  # the boneyard's last tile
        "wrong deal size": '["[0|0]"',
        "duplicate fixture ID": "T3STAA",
        "play setup missing a tile": "opener",
        "illegal placement": '{tile: "[3|4]"',
        "illegal placement in play": '{tile: "[2|3]"',
        "unknown rule ID": "HR-COUNT-" + "99",
        "generated fixture outside scenarios/generated/": "generated",
        "unknown variant reading": "three",
    }
    for row_id, document, _, line, column in ROWS:
        if row_id in starts:
            text_line = document.splitlines()[line - 1]
            assert text_line[column - 1 :].startswith(starts[row_id]), (row_id, text_line)


def test_an_unknown_variant_reading_the_schema_let_through_points_at_it():
    """The semantic check behind the schema's enum (the register and the schema are two
    sources): its error points at the reading."""
    text = layout("  origin:", "  variants: {branch_use: one}\n  origin:")
    fx = Fixture.from_document(
        {
            "id": "T3STAA",
            "description": "x",
            "kind": "layout",
            "rules": ["HR-COUNT-2"],
            "origin": "rule-text",
            "why": "x",
            "input": {"steps": [{"tile": "[2|2]"}]},
            "expected": {},
            "variants": {"branch_use": "three"},
        },
        "case.yaml",
        1,
    )
    (err,) = check_fixtures([fx], {"case.yaml": text}.get)
    assert "variant branch_use=three is not a reading" in err.message
    assert (err.line, err.column) == (5, 26)
    (err,) = check_fixtures([fx])  # no text: the fixture's line
    assert (err.line, err.column) == (1, None)


def test_rejected_at_not_the_last_action_points_at_it(tmp_path):
    text = textwrap.dedent(
        """\
        - id: T3STQQ
          description: x
          kind: illegal
          rules: [HR-PLACE-1]
          origin: rule-text
          why: x
          input:
            mode: individual
            seats: 2
            scores: [0, 0]
            target: 61
            hands: [HANDS0, HANDS1]
            boneyard: BONEYARD
            opener: 0
            actions:
              - {seat: 1, action: draw}
              - {seat: 0, action: draw}
          expected:
            rejected_at: 0
            rule: HR-TURN-1
        """
    )
    q = lambda tiles: "[" + ", ".join(f'"{t}"' for t in tiles) + "]"  # noqa: E731
    text = text.replace("HANDS0", q(HANDS[0])).replace("HANDS1", q(HANDS[1])).replace("BONEYARD", q(BONEYARD))
    errors = _errors(tmp_path, text)
    assert len(errors) == 1, [e.render() for e in errors]
    assert "rejected_at must be the last action" in errors[0].message
    assert (errors[0].line, errors[0].column) == (19, 18)


# ---------------------------------------------------------------- time and memory
_BOMB = """\
import resource, sys
from pathlib import Path
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from horserace.corpus.loader import load_paths
errors = load_paths([Path(sys.argv[1])]).errors
print(errors[0].render() if len(errors) == 1 else errors)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
def test_an_alias_bomb_is_refused_quickly_in_bounded_memory(tmp_path):
    """256 KiB anchored once and aliased 40,000 times (10 GB written out): the old loader
    built it and ran out of memory in the schema check; it is refused at the anchor, in a
    process that may not use more than 1 GiB."""
    path = tmp_path / "bomb.yaml"
    path.write_text("- &a '" + "x" * (256 * 1024) + "'\n- [" + ",".join(["*a"] * 40_000) + "]\n")
    start = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-c", _BOMB, str(path)], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert time.perf_counter() - start < 20  # a Python start and the imports included
    assert "bomb.yaml:1:3: anchor &a: anchors and aliases are not allowed" in proc.stdout


@pytest.mark.parametrize(
    "document",
    ["[" * 100_000 + "]" * 100_000, "- " * 100_000 + "x\n", "{a: " * 100_000 + "b" + "}" * 100_000],
    ids=["flow lists", "block sequences", "flow mappings"],
)
def test_nesting_far_past_libyamls_limit_is_a_clean_error(tmp_path, document):
    start = time.perf_counter()
    errors = _errors(tmp_path, document)
    assert time.perf_counter() - start < 2
    assert len(errors) == 1 and "nesting deeper than 64 levels" in errors[0].message
    assert errors[0].line == 1 and errors[0].column is not None


# ---------------------------------------------------------------- the other documents
RULESET = "name: strict\ndescription: a ruleset\ntarget: 61\nreadings: {branch_use: one}\n"


@pytest.mark.parametrize(
    ("text", "fragment", "line", "column"),
    [
        (RULESET.replace("description: a", "description: &d a"), "anchor &d", 2, 14),
        (RULESET.replace("target: 61", "target: !!int 61"), "YAML tag !!int", 3, 9),
        (RULESET + "<<: {target: 101}\n", "merge key '<<'", 5, 1),
        (RULESET.replace("description: a ruleset", "description: 2024-01-01"), "a date is not allowed", 2, 14),
    ],
    ids=["anchor", "tag", "merge key", "date"],
)
def test_rulesets_get_the_same_refusals(tmp_path, text, fragment, line, column):
    path = tmp_path / "strict.yaml"
    path.write_text(text)
    with pytest.raises(RulesetError) as caught:
        load_ruleset(path)
    assert fragment in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column)


def test_the_ruleset_of_the_table_is_valid(tmp_path):
    path = tmp_path / "strict.yaml"
    path.write_text(RULESET)
    assert load_ruleset(path).name == "strict"


@pytest.mark.parametrize(
    ("text", "fragment", "line", "column"),
    [
        ("expected_failures:\n  T3STAA: &r reason\n  T3STAB: *r\n", "anchor &r", 2, 11),
        ("expected_failures: !!map {T3STAA: x}\n", "YAML tag !!map", 1, 20),
        ("expected_failures:\n  123456: an all-digit ID, unquoted\n", "keys must be strings, not an integer", 2, 3),
    ],
    ids=["anchor", "tag", "non-string key"],
)
def test_expectations_files_get_the_same_refusals(tmp_path, text, fragment, line, column):
    path = tmp_path / "expected.yaml"
    path.write_text(text)
    with pytest.raises(ExpectationsError) as caught:
        read_expectations(path)
    assert fragment in caught.value.message
    assert (caught.value.line, caught.value.column) == (line, column)


_SPECIAL = """\
import resource, sys
resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))
from horserace.conformance.expectations import read_expectations
from horserace.errors import InputError
from horserace.resources.rulesets import load_ruleset
for read in (load_ruleset, read_expectations):
    try:
        read(sys.argv[1])
    except InputError as exc:
        print(exc.message)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS is enforced on Linux")
@pytest.mark.parametrize("special", ["/dev/zero", "fifo"])
def test_rulesets_and_expectations_files_are_not_read_unless_regular(tmp_path, special):
    """The kind and size of the file are checked before reading, so /dev/zero never fills
    memory and a FIFO never blocks (it would wait for a writer).  In a process of at most
    1 GiB, with a time limit: a regression fails this test, not the machine."""
    if special == "fifo":
        special = str(tmp_path / "pipe.yaml")
        os.mkfifo(special)
    proc = subprocess.run(
        [sys.executable, "-c", _SPECIAL, special], capture_output=True, text=True, timeout=60, check=False
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert proc.stdout.splitlines() == ["not a regular file", "not a regular file"]
