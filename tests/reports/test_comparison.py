"""The comparison page (horserace/reports/comparison.py) made from three runs: two
versions of one hostile-named implementation and a reference.  Everything an
implementation wrote is escaped; the disagreements come first; the matrix has the
counts of each run's own per-rule table; the trend shows only where one implementation
is given at two versions; every internal link resolves, and each failing cell points at
that implementation's section with its differences and its drawing."""

from __future__ import annotations

from html.parser import HTMLParser

from horserace.reports.comparison import disagreements, fixture_rows, render_comparison, trends
from horserace.reports.html import render_html
from horserace.reports.runs import Run
from horserace.reports.summary import per_rule
from tests.reports.test_html_report import HEADER, HOSTILE, footer_for, layout_record, passing, play_record, tags

REFERENCE = {**HEADER, "implementation": {**HEADER["implementation"], "name": "reference", "version": "1"}}
LATER = {
    **HEADER,
    "protocol": "1.1",
    "started": "2026-02-01T00:00:00Z",
    "implementation": {
        **HEADER["implementation"],
        "protocol": "1.1",
        "version": "2.4.0",
        "readings": {"branch_use": ["both", "one"]},
    },
}


def _run(header: dict, results: list[dict]) -> Run:
    return Run(header, results, footer_for(results))


def _runs() -> list[Run]:
    layout, play = layout_record(), play_record(("hands", 0, "events", 3, "count"))
    ok_layout, ok_play = ({**r, "status": "pass", "differences": []} for r in (layout, play))
    hostile_message = {**passing("BBBBBB", "HR-SETTLE-1", "skip"), "message": "kind settlement " + HOSTILE}
    return [
        _run(REFERENCE, [ok_layout, ok_play, passing("AAAAAA", "HR-COUNT-1"), passing("BBBBBB", "HR-SETTLE-1")]),
        _run(HEADER, [layout, play, passing("AAAAAA", "HR-COUNT-1"), hostile_message]),
        _run(LATER, [ok_layout, play, {**passing("AAAAAA", "HR-COUNT-1"), "status": "fail"}]),
    ]


class _Tables(HTMLParser):
    """The text of every cell of every table with an id, row by row."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._table: str | None = None
        self._cell: list[str] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "table" and dict(attrs).get("id"):
            self._table = dict(attrs)["id"]
            self.tables[self._table] = []
        elif tag == "tr" and self._table:
            self.tables[self._table].append([])
        elif tag in ("td", "th") and self._table:
            self._cell = []
        elif tag == "br" and self._cell is not None:
            self._cell.append(" ")

    def handle_endtag(self, tag):
        if tag in ("td", "th") and self._table and self._cell is not None:
            self.tables[self._table][-1].append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "table":
            self._table = None

    def handle_data(self, data):
        if self._cell is not None:
            self._cell.append(data)


def _tables(html: str) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(html)
    return parser.tables


def test_everything_an_implementation_wrote_is_escaped():
    html = render_comparison(_runs(), ["ref", "evil", None])
    found = tags(html)
    assert [t for t, _ in found].count("script") == 1  # the page's own, at the end
    assert not [t for t, _ in found if t in ("img", "iframe", "object", "embed", "link")]
    assert not [a for _, attrs in found for a in attrs if a.startswith("on") or a == "src"]
    assert "my&lt;engine&gt; 2.3.1" in html and "<engine>" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html
    script = html[html.index("<script>") :]
    assert HOSTILE not in script and "alert" not in script  # the data is in the page, not in the script


def test_the_page_fetches_nothing():
    html = render_comparison(_runs(), ["ref", "evil", "later"])
    for tag, attrs in tags(html):
        for name in ("href", "src", "action", "data"):
            value = attrs.get(name) or ""
            assert "//" not in value and not value.startswith(("http", "data:", "javascript:")), (tag, name, value)
    assert "@import" not in html and "url(" not in html


def test_disagreements_come_first():
    runs = _runs()
    assert [row.id for row in disagreements(runs)] == ["7SWR67", "53RZXW", "AAAAAA"]
    rows = fixture_rows(runs)
    assert [row.id for row in rows] == ["7SWR67", "53RZXW", "AAAAAA", "BBBBBB"]
    assert rows[3].results[2] is None and not rows[3].disagree  # skipped by one, absent from another
    table = _tables(render_comparison(runs))["fixture-table"]
    assert [cells[0].split()[0] for cells in table[1:]] == ["7SWR67", "53RZXW", "AAAAAA", "BBBBBB"]
    assert [cells[0].split()[1] for cells in table[1:4]] == ["disagree"] * 3
    assert table[1][3:] == ["pass", "fail", "pass"] and table[4][3:] == ["pass", "skip", "not in this run"]


def test_no_disagreement_when_each_run_agrees():
    same = [passing("AAAAAA", "HR-COUNT-1"), passing("BBBBBB", "HR-SETTLE-1", "skip")]
    runs = [_run(REFERENCE, same), _run(HEADER, [passing("AAAAAA", "HR-COUNT-1")])]
    assert disagreements(runs) == []
    assert "None: every fixture that two or more implementations ran" in render_comparison(runs)


def test_the_matrix_has_each_runs_counts_in_spec_order():
    runs = _runs()
    table = _tables(render_comparison(runs))["matrix-table"]
    head, scope, *rows, totals = table
    assert head[:2] == ["rule", "title"] and head[2].startswith("reference 1")
    assert scope[0] == "scope" and "kinds: layout, play; readings: branch_use=both|one" in scope[4]
    for n, run in enumerate(runs):
        expected = [f"{r['passed']} / {r['failed']} / {r['skipped']}" for r in per_rule(run.results)]
        assert [cells[2 + n] for cells in rows] == expected
    assert [cells[0] for cells in rows][:3] == ["HR-SEAT-1", "HR-SEAT-2", "HR-SEAT-3"]  # spec/rules.md's order
    assert totals[2:] == ["4 / 0 / 0", "1 / 2 / 1", "1 / 2 / 0"]


def test_a_trend_only_for_an_implementation_given_at_two_versions():
    runs = _runs()
    assert {name: [r.version for r in found] for name, found in trends(runs).items()} == {
        "my<engine>": ["2.3.1", "2.4.0"]
    }
    html = render_comparison(runs)
    assert 'id="trend"' in html and "<polyline" in html
    trend = html[html.index('id="trend"') : html.index('id="fixtures"')]
    assert "my&lt;engine&gt;" in trend and "2.3.1" in trend and "2.4.0" in trend and "reference" not in trend
    assert 'id="trend"' not in render_comparison(runs[:2])


def test_every_internal_link_resolves_and_failing_cells_open_their_section():
    """Without reports of their own (no folders), the page carries each failure's section."""
    html = render_comparison(_runs())
    found = tags(html)
    ids = [attrs["id"] for _, attrs in found if "id" in attrs]
    assert len(ids) == len(set(ids)), "ids are unique"
    links = [attrs["href"] for _, attrs in found if attrs.get("href", "").startswith("#")]
    assert links and not [link for link in links if link[1:] not in ids]
    opened = [attrs["href"][1:] for _, attrs in found if "open-failure" in (attrs.get("class") or "")]
    assert opened == ["i2-7SWR67", "i2-53RZXW", "i3-53RZXW", "i3-AAAAAA"]  # 2.3.1's two failures, 2.4.0's
    for target in opened:
        start = html.index(f'id="{target}"')
        section = html[start : html.index("</section>", start)]
        assert f"<code>{target.split('-', 1)[1]}</code>" in section
        if "AAAAAA" not in target:  # a layout or a play fixture: expected against actual, and the drawing
            assert 'class="hr-layout' in section and '<table class="differences">' in section


def test_with_reports_of_their_own_failing_cells_open_the_section_of_that_report():
    """With each run's folder, a failing cell leads to the fixture's section in that run's
    report.html (the page does not carry a second copy), and the anchor is there."""
    runs = _runs()
    html = render_comparison(runs, ["ref", "evil", "later"])
    found = tags(html)
    opened = [attrs["href"] for _, attrs in found if "open-failure" in (attrs.get("class") or "")]
    assert opened == [
        "evil/report.html#fx-7SWR67",
        "evil/report.html#fx-53RZXW",
        "later/report.html#fx-53RZXW",
        "later/report.html#fx-AAAAAA",
    ]
    assert "<section" not in html
    reports = {
        folder: render_html(run.header, run.results, run.footer)
        for folder, run in zip(["ref", "evil", "later"], runs, strict=True)
    }
    for link in opened:
        folder, place = link.split("/report.html#")
        page = reports[folder]
        start = page.index(f'<section class="fixture" id="{place}"')
        section = page[start : page.index("</section>", start)]
        assert f"<code>{place.removeprefix('fx-')}</code>" in section
        if "AAAAAA" not in place:
            assert 'class="hr-layout' in section and '<table class="differences">' in section
    files = [
        attrs["href"]
        for _, attrs in found
        if attrs.get("href") and not attrs["href"].startswith("#") and "open-failure" not in (attrs.get("class") or "")
    ]
    assert files == [
        "ref/report.html",
        "evil/report.html",
        "later/report.html",
        "evil/report.html#failures",
        "later/report.html#failures",
    ]


def test_rows_carry_what_the_filter_reads():
    html = render_comparison(_runs())
    rows = [attrs for tag, attrs in tags(html) if tag == "tr" and "data-rules" in attrs]
    first = rows[0]
    assert first["data-rules"] == "HR-COUNT-1 HR-SPIN-2" and first["data-kind"] == "layout"
    assert first["data-outcomes"] == "pass fail" and first["data-disagree"] == "yes"
    # The messages, which the row does not show (the script adds the row's own text: its ID, description, rules).
    messages = [r["message"] for run in _runs() for r in run.results if r["id"] == "7SWR67" and r["message"]]
    said = first.get("data-text", "")  # none where no run has a message for it
    assert all(m.lower() in said for m in messages)
    assert "7swr67" not in said and "&lt;script&gt;" in html
    options = [attrs.get("value") for tag, attrs in tags(html) if tag == "option"]
    assert {"HR-COUNT-1", "layout", "fail", "disagree"} <= set(options)


def test_beside_the_reference_engine_only_the_others_disagreements_are_listed():
    """The reference passes every fixture: a fixture that two other implementations both
    fail (or both pass) is no disagreement, though the reference passes it."""
    reference = {**HEADER, "implementation": {**HEADER["implementation"], "name": "horserace-reference"}}
    other = {**HEADER, "implementation": {**HEADER["implementation"], "name": "other", "version": "9"}}
    both_fail = {**passing("AAAAAA", "HR-COUNT-1"), "status": "fail"}
    one_fails = {**passing("CCCCCC", "HR-COUNT-1"), "status": "fail"}
    runs = [
        _run(reference, [passing("AAAAAA", "HR-COUNT-1"), passing("CCCCCC", "HR-COUNT-1")]),
        _run(HEADER, [both_fail, one_fails]),
        _run(other, [both_fail, passing("CCCCCC", "HR-COUNT-1")]),
    ]
    assert [row.id for row in disagreements(runs)] == ["CCCCCC"]
    # With the reference and one other implementation, the reference counts: every
    # failure of the other is a disagreement.
    assert [row.id for row in disagreements(runs[:2])] == ["AAAAAA", "CCCCCC"]


def test_each_implementation_shows_its_leading_causes():
    page = render_comparison(_runs())
    assert "causes, most failures first" in page
    assert "<code>HR-COUNT-1</code>" in page.split('class="causes"')[2]
