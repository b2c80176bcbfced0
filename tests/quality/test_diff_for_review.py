"""``horserace diff`` as a reviewer reads it (issue: diagnostics an implementer can
trust, "diff"): the fields that differ in the header, matches summarised (raw events
only with --verbose), ``a`` and ``b`` in the JSON, Markdown that a real parser renders."""

from __future__ import annotations

import json

from markdown_it import MarkdownIt

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode


def test_the_header_names_the_fields_that_differ(capsys):
    assert main(["diff", "--rules", "canonical", "--rules", "one-branch"]) == ExitCode.FAILURES
    assert "fields that differ: branch_use: both -> one" in capsys.readouterr().out
    assert main(["diff", "--rules", "canonical", "--rules", "long-match", "--select", "kind:settlement"]) == 0
    assert "fields that differ: target: 61 -> 121" in capsys.readouterr().out


def test_matches_are_summarised_and_raw_events_come_only_when_asked(capsys):
    argv = ["diff", "--rules", "canonical", "--rules", "long-match", "--select", "kind:settlement", "--play", "20"]
    main(argv)
    out = capsys.readouterr().out
    assert "20 of 20 seeded matches differ; the winners changed in " in out
    assert "largest score gap between A and B per match:" in out
    assert out.count("  match ") == 3 and "... and 17 more (--verbose lists them all)" in out
    assert '{"event"' not in out  # no raw events
    main([*argv, "--verbose"])
    verbose = capsys.readouterr().out
    assert verbose.count("  match ") == 20 and '    A {"event"' in verbose


def test_the_json_calls_the_sides_a_and_b(capsys):
    main(["diff", "--rules", "canonical", "--rules", "one-branch", "--format", "json", "--play", "2"])
    doc = json.loads(capsys.readouterr().out)
    assert doc["fields"] == [{"field": "branch_use", "a": "both", "b": "one"}]
    text = json.dumps(doc)
    assert '"expected"' not in text and '"actual"' not in text
    change = next(c for changes in doc["changed_fixtures"].values() for c in changes)
    assert {"path", "a", "b", "text"} <= set(change["first"])
    assert set(doc["match_summary"]) == {"matches", "differ", "winners_changed", "score_gap"}


def test_the_markdown_renders_with_every_cell_in_place(capsys):
    main(["diff", "--rules", "canonical", "--rules", "one-branch", "--format", "markdown"])
    text = capsys.readouterr().out
    tokens = MarkdownIt("commonmark").enable("table").parse(text)
    rows: list[int] = []
    for tok in tokens:
        if tok.type == "tr_open":
            rows.append(0)
        elif tok.type in ("td_open", "th_open"):
            rows[-1] += 1
    assert rows and set(rows) == {6}  # every row of every fixture table: six cells, tiles with pipes included
    assert "[1\\|3]" in text  # a tile's pipe, escaped in its cell
