"""Every report in a standard format passes that format's real parser (principle 4):
``report.md`` rendered by markdown-it-py as CommonMark with GitHub's tables has, in every
row of every table, the cells it was written with (a tile ``[3|4]`` or a pipe in a message
would split a row if it were not escaped); ``junit.xml`` parses with the standard
library and with junitparser, one case per fixture.  The run is a failing one whose
text is hostile: tiles with pipes in every difference, and a message with pipes,
backticks, markup and control characters."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import junitparser
import pytest
from markdown_it import MarkdownIt

from horserace.reports.junit import junit_xml
from horserace.reports.markdown import markdown

HEADER = {
    "record": "header",
    "suite": "0.1.0",
    "protocol": "1.0",
    "implementation": {"name": "evil | name `x`", "version": "1", "language": "py", "kinds": ["layout"]},
}
HOSTILE = "bad | input `tick` ``` fence <b>bold</b> \x1b[2J\x00 [3|4]"


def _results() -> list[dict]:
    diff = {"path": "steps[0].tiles", "at": ["steps", 0, "tiles"], "length": False}
    return [
        {
            "id": "7SWR67",
            "kind": "layout",
            "file": "scenarios/rule-text/layout.yaml",
            "line": 3,
            "rule": "HR-COUNT-1",
            "rules": ["HR-COUNT-1", "HR-COUNT-4"],
            "description": "a | description with [0|5]",
            "status": "fail",
            "message": HOSTILE,
            "differences": [
                {**diff, "expected": ["[3|4]", "[0|5]"], "actual": ["[3|4]", "[1|2]"]},
                {**diff, "path": "steps[1].contributions", "expected": [{"tile": "[0|5]", "value": 0}], "actual": []},
                {**diff, "path": "weird`|path", "expected": "a`b", "actual": "|"},
            ],
            "seconds": 0.01,
        },
        {
            "id": "P4RYQF",
            "kind": "settlement",
            "file": "x.yaml",
            "line": 9,
            "rule": "HR-SETTLE-1",
            "rules": ["HR-SETTLE-1"],
            "description": "ok",
            "status": "pass",
            "message": "",
            "differences": [],
            "seconds": 0.01,
        },
    ]


FOOTER = {"record": "footer", "counts": {"pass": 1, "fail": 1}, "conformant": False}


def _tables(tokens) -> list[list[list[str]]]:
    """Each table as rows of cell texts (inline content, as the renderer sees it)."""
    tables: list[list[list[str]]] = []
    rows: list[list[str]] = []
    row: list[str] = []
    for i, tok in enumerate(tokens):
        if tok.type == "table_open":
            rows = []
        elif tok.type == "tr_open":
            row = []
        elif tok.type in ("th_open", "td_open"):
            row.append(tokens[i + 1].content if tokens[i + 1].type == "inline" else "")
        elif tok.type == "tr_close":
            rows.append(row)
        elif tok.type == "table_close":
            tables.append(rows)
    return tables


def test_markdown_tables_keep_their_cells_under_a_real_parser():
    text = markdown(HEADER, _results(), FOOTER)
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    tables = _tables(tokens)
    written = [line for line in text.splitlines() if line.startswith("| ") and not line.startswith("|---")]
    assert tables, "no table was parsed"
    assert sum(len(t) for t in tables) == len(written)  # every row written is a row parsed
    for table in tables:
        widths = {len(row) for row in table}
        assert len(widths) == 1, table
    differences = next(t for t in tables if t[0] == ["field", "expected", "actual"])
    assert len(differences) == 4
    # The tile with its pipe is in one cell, whole: ``[3\\|4]`` in the source, [3|4] rendered.
    html = MarkdownIt("commonmark").enable("table").render(text)
    assert "[3|4]" in html and "<b>bold</b>" not in html and "\x1b" not in html and "\x00" not in html


@pytest.mark.parametrize("parser", ["stdlib", "junitparser"])
def test_junit_parses_with_real_parsers(parser, tmp_path):
    path = tmp_path / "junit.xml"
    path.write_text(junit_xml(HEADER, _results(), FOOTER), encoding="utf-8")
    if parser == "stdlib":
        cases = ET.parse(path).getroot().iter("testcase")
        assert len(list(cases)) == 2
    else:
        xml = junitparser.JUnitXml.fromfile(str(path))
        cases = [case for suite in xml for case in suite]
        assert len(cases) == 2
        failed = [case for case in cases if not case.is_passed]
        assert [case.name for case in failed] and "7SWR67" in failed[0].name


def test_markdown_has_the_skipped_section_of_the_html_report():
    """report.md lists the fixtures that did not run, with their reasons, as report.html
    does: the same fixtures, kinds, rules and reasons (a hostile reason stays in its cell)."""
    from horserace.reports.html import render_html

    skipped = {
        **_results()[1],
        "id": "R65M6V",
        "kind": "illegal",
        "rule": "HR-DRAW-1",
        "status": "skip",
        "message": "holds only under continuation=optional | " + HOSTILE,
    }
    results = [*_results(), skipped]
    footer = {**FOOTER, "counts": {"pass": 1, "fail": 1, "skip": 1}}
    text = markdown(HEADER, results, footer)
    assert "## Skipped" in text
    tables = _tables(MarkdownIt("commonmark").enable("table").parse(text))
    table = next(t for t in tables if t[0] == ["fixture", "kind", "rule", "reason"])
    assert [row[:3] for row in table[1:]] == [["`R65M6V`", "illegal", "`HR-DRAW-1`"]]
    assert table[1][3].startswith("holds only under continuation=optional | bad | input")  # one cell, whole
    page = render_html(HEADER, results, footer).split("<h2>Skipped</h2>", 1)[1]
    assert "<code>R65M6V</code>" in page and "<code>HR-DRAW-1</code>" in page
    assert "1 fixture(s) did not run" in text and "1 fixture(s) did not run" in page
    # None skipped: said so, in both.
    assert "None: every fixture ran." in markdown(HEADER, _results(), FOOTER)
    assert "None: every fixture ran." in render_html(HEADER, _results(), FOOTER)
