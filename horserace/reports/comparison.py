"""The comparison page: several runs side by side (``index.html`` of ``conform`` with
several ``--impl``, and of ``horserace report`` given several streams).

One self-contained page (inline CSS, a small script of its own, no resource to fetch,
readable from ``file://``):

- the implementations, each with its verdict, scope (kinds and readings declared),
  badge and a link to its own report;
- the fixtures on which the implementations disagree (one passes where another fails):
  where a rule is read two ways;
- a matrix of the rules of the specification, in its order, by implementation, with
  passed / failed / skipped counts (a fixture counts for every rule it cites, as in
  every report);
- where several versions of one implementation are given, its pass count across them;
- a table of every fixture by implementation, the disagreements first, filtered by
  rule, kind, outcome and text; a failing cell opens that implementation's
  expected-against-actual with the drawing, the section of the single-run report
  (:func:`horserace.reports.html.fixture_section`), which the page also lists below.

Without the script the page still reads: the filters do nothing, and a failing cell is
a link to its section.  Every text from a stream goes through
:func:`horserace.reports.escape.for_html`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from horserace.corpus.status import PASSING, Status
from horserace.reports.badge import badge_for, badge_svg
from horserace.reports.causes import run_causes
from horserace.reports.escape import for_html
from horserace.reports.html import (
    OUTCOME_ORDER,
    anchor,
    drawings_legend,
    fixture_section,
    page_start,
    rules_cited,
    section_anchors,
)
from horserace.reports.links import Links
from horserace.reports.runs import Run
from horserace.reports.summary import per_rule, scope, verdict
from horserace.reports.svg import legend_html
from horserace.resources.documents import load_rules

__all__ = ["FixtureRow", "disagreements", "fixture_rows", "render_comparison", "trends"]

_CSS = """
main { max-width: 1400px; }
nav { display: flex; flex-wrap: wrap; gap: 0.3em 1.2em; }
caption { text-align: left; color: #555; padding: 0.2em 0; }
.cell { white-space: nowrap; text-align: center; font-variant-numeric: tabular-nums; }
.cell.good { background: #e3f3e6; }
.cell.part { background: #fbf3d5; }
.cell.bad { background: #fbe1de; }
.cell.none { background: #efefef; color: #777; }
.cell.absent { color: #999; }
.n-fail { color: #8c1d18; font-weight: bold; }
.n-skip { color: #666; }
.cell .zero { color: #aaa; font-weight: normal; }
table.matrix code, table.fixtures code, table.implementations th { overflow-wrap: normal; white-space: nowrap; }
tr.disagree td:first-child { border-left: 4px solid #a15c00; }
.flag { font-size: 0.8em; color: #a15c00; font-weight: bold; }
.filters { display: flex; flex-wrap: wrap; gap: 0.5em 1.2em; align-items: center; margin: 0.6em 0;
  padding: 0.5em 0.8em; background: #f7f7f4; border: 1px solid #e2e2dc; }
.filters input[type=search] { min-width: 14em; }
a.status { text-decoration: none; }
a.status:hover, a.status:focus { outline: 2px solid #1c1c1c; }
.who { font-size: 0.85em; color: #444; font-weight: normal; }
th.impl small { display: block; font-weight: normal; color: #555; }
td.scope { font-size: 0.85em; max-width: 18em; }
table.implementations .verdict { overflow-wrap: normal; min-width: 10em; font-size: 1em; }
code.command { font-size: 0.75em; color: #555; }
table.implementations td:last-child a { overflow-wrap: normal; white-space: nowrap; }
.split { color: #555; font-size: 0.9em; }
dialog#viewer { max-width: min(1100px, 96vw); max-height: 92vh; overflow: auto; padding: 0.5em 1em 1em; }
dialog#viewer::backdrop { background: rgba(0, 0, 0, 0.45); }
dialog#viewer form { text-align: right; position: sticky; top: 0; }
dialog#viewer iframe { width: min(1060px, 90vw); height: 78vh; border: 1px solid #ddd; }
dialog#viewer.framed .hr-legend { display: none; }
svg.trend { max-width: 100%; height: auto; }
"""

_SCRIPT = """
(() => {
  "use strict";
  const table = document.getElementById("fixture-table");
  const rows = Array.from(table.tBodies[0].rows);
  const text = document.getElementById("filter-text");
  const rule = document.getElementById("filter-rule");
  const kind = document.getElementById("filter-kind");
  const outcome = document.getElementById("filter-outcome");
  const count = document.getElementById("filter-count");
  const words = (value) => (value || "").split(" ").filter(Boolean);
  const texts = new Map(rows.map((row) => [row, `${row.textContent} ${row.dataset.text || ""}`.toLowerCase()]));
  function matches(row, needle) {
    const d = row.dataset;
    if (rule.value && !words(d.rules).includes(rule.value)) return false;
    if (kind.value && d.kind !== kind.value) return false;
    if (outcome.value === "disagree" && d.disagree !== "yes") return false;
    if (outcome.value && outcome.value !== "disagree" && !words(d.outcomes).includes(outcome.value)) return false;
    return !needle || texts.get(row).includes(needle);
  }
  function apply() {
    const needle = text.value.trim().toLowerCase();
    let shown = 0;
    for (const row of rows) {
      row.hidden = !matches(row, needle);
      if (!row.hidden) shown += 1;
    }
    count.value = `${shown} of ${rows.length} fixtures`;
  }
  for (const control of [text, rule, kind, outcome]) {
    control.addEventListener("input", apply);
    control.addEventListener("change", apply);
  }
  for (const link of document.querySelectorAll("a.filter-rule")) {
    link.addEventListener("click", () => { rule.value = link.dataset.rule; apply(); });
  }
  const viewer = document.getElementById("viewer");
  const body = document.getElementById("viewer-body");
  for (const link of document.querySelectorAll("a.open-failure")) {
    link.addEventListener("click", (event) => {
      if (typeof viewer.showModal !== "function") return;
      const href = link.getAttribute("href");
      if (href.startsWith("#")) {  // a section of this page
        const section = document.getElementById(href.slice(1));
        if (!section) return;
        const copy = section.cloneNode(true);
        copy.removeAttribute("id");
        body.replaceChildren(copy);
        viewer.classList.remove("framed");
      } else {  // the section of the implementation's own report
        const frame = document.createElement("iframe");
        frame.title = link.title;
        frame.src = href;
        body.replaceChildren(frame);
        viewer.classList.add("framed");
      }
      event.preventDefault();
      viewer.showModal();
    });
  }
  apply();
})();
"""


def _e(value: Any) -> str:
    return for_html(str(value))


@dataclass(frozen=True)
class FixtureRow:
    """One row of the fixture table: a fixture and its result in each run (``None``
    where a run has none)."""

    id: str
    kind: str
    rule: str
    rules: tuple[str, ...]
    description: str
    results: tuple[dict[str, Any] | None, ...]
    #: Which runs count in a disagreement: all but the reference engine, when others are compared with it.
    counted: tuple[bool, ...] = ()

    @property
    def disagree(self) -> bool:
        """Whether it passes for one implementation that ran it and fails for another
        (the reference engine left out when other implementations are compared beside
        it: that the others fail where it passes is in their own reports)."""
        counted = self.counted or (True,) * len(self.results)
        ran = {
            r["status"] in PASSING
            for r, c in zip(self.results, counted, strict=True)
            if c and r is not None and r["status"] != Status.SKIP
        }
        return len(ran) == 2


#: The reference engine's name in its hello (``horserace serve``).
REFERENCE_NAME = "horserace-reference"


def _counted(runs: Sequence[Run]) -> tuple[bool, ...]:
    """The runs a disagreement is made of: every one, but the reference engine's when
    two or more other implementations are compared beside it."""
    reference = tuple(run.hello.get("name") == REFERENCE_NAME for run in runs)
    others = len(runs) - sum(reference)
    return tuple(not r for r in reference) if any(reference) and others >= 2 else (True,) * len(runs)


def fixture_rows(runs: Sequence[Run]) -> list[FixtureRow]:
    """Every fixture of the runs, in the order they first appear, the disagreements first."""
    counted = _counted(runs)
    by_id: dict[str, list[dict[str, Any] | None]] = {}
    first: dict[str, dict[str, Any]] = {}
    for n, run in enumerate(runs):
        for r in run.results:
            slots = by_id.setdefault(r["id"], [None] * len(runs))
            slots[n] = r
            first.setdefault(r["id"], r)
    rows = [
        FixtureRow(
            fid,
            first[fid]["kind"],
            first[fid]["rule"],
            tuple(first[fid].get("rules") or [first[fid]["rule"]]),
            str(first[fid].get("description", "")),
            tuple(slots),
            counted,
        )
        for fid, slots in by_id.items()
    ]
    return [row for row in rows if row.disagree] + [row for row in rows if not row.disagree]


def disagreements(runs: Sequence[Run]) -> list[FixtureRow]:
    return [row for row in fixture_rows(runs) if row.disagree]


def trends(runs: Sequence[Run]) -> dict[str, list[Run]]:
    """Each implementation given at two or more versions, with its runs in the order
    they started (then as given)."""
    by_name: dict[str, list[tuple[str, int, Run]]] = {}
    for n, run in enumerate(runs):
        if run.hello:
            by_name.setdefault(run.name, []).append((str(run.header.get("started", "")), n, run))
    return {
        name: [run for _, _, run in sorted(entries, key=lambda e: (e[0], e[1]))]
        for name, entries in by_name.items()
        if len({run.version for _, _, run in entries}) >= 2
    }


def _labels(runs: Sequence[Run]) -> list[str]:
    """A column title per run: the name and version, numbered where two are the same."""
    plain = [f"{run.name} {run.version}".strip() for run in runs]
    return [f"{label} (#{n + 1})" if plain.count(label) > 1 else label for n, label in enumerate(plain)]


def _impl_header(run: Run, label: str) -> str:
    language = run.hello.get("language")
    return f'<th class="impl">{_e(label)}' + (f"<small>{_e(language)}</small>" if language else "") + "</th>"


def _implementations(runs: Sequence[Run], labels: list[str], folders: Sequence[str | None]) -> str:
    rows = []
    for run, label, folder in zip(runs, labels, folders, strict=True):
        judged = verdict(run.header, run.results, run.footer)
        report = f'<a href="{_e(folder)}/report.html">report</a>' if folder else ""
        rows.append(
            f"<tr><td>{_e(label)}<br><span class='zero'>{_e(run.hello.get('language', ''))}</span>"
            f"<br><code class='command'>{_e(run.header.get('command', ''))}</code></td>"
            f'<td><span class="verdict {judged.tone}">{_e(judged.text)}</span></td>'
            f'<td class="num">{run.passed}</td><td class="num">{run.failed}</td>'
            f'<td class="num">{run.skipped}</td><td class="num">{len(run.results)}</td>'
            f'<td class="scope">{_e(_scope(run))}</td><td class="causes">{_top_causes(run)}</td>'
            f"<td>{badge_svg(badge_for(run))}</td><td>{report}</td></tr>"
        )
    return (
        '<table class="implementations"><thead><tr><th>implementation</th><th>verdict</th>'
        '<th class="num">passed</th><th class="num">failed</th><th class="num">skipped</th>'
        '<th class="num">fixtures</th><th>scope</th><th>causes, most failures first</th><th>badge</th><th></th>'
        "</tr></thead><tbody>" + "".join(rows) + "</tbody></table>"
    )


def _top_causes(run: Run, shown: int = 3) -> str:
    """A run's leading causes in a few words (the diagnosis of its own report)."""
    causes = run_causes(run.results)
    items = [
        f"<code>{_e(line.rule)}</code> {line.count}"
        + (f" (<code>{_e(line.deviations[0][0])}</code>)" if line.deviations else "")
        for line in causes.lines[:shown]
    ]
    if len(causes.lines) > shown:
        items.append(f"{len(causes.lines) - shown} more")
    items += [f"{_e(f.status)} {len(f.fixtures)}" for f in causes.failures]
    return "<br>".join(items) or '<span class="zero">none</span>'


def _scope(run: Run) -> str:
    if run.unusable:
        return f"unusable: {run.footer['unusable']}"
    return scope(run.header, run.results) if run.hello else "no hello"


def _cell(row: dict[str, Any] | None) -> str:
    if row is None:
        return '<td class="cell absent" title="no fixture cites this rule in this run">0 / 0 / 0</td>'
    passed, failed, skipped = row["passed"], row["failed"], row["skipped"]
    tone = "bad" if failed else "good" if passed and not skipped else "part" if passed else "none"
    tone = tone if passed or failed or skipped else "absent"
    return f'<td class="cell {tone}" title="{passed} passed, {failed} failed, {skipped} skipped">{_counts(passed, failed, skipped)}</td>'


def _counts(passed: int, failed: int, skipped: int) -> str:
    """``passed / failed / skipped``, each number marked (a zero greyed)."""
    return " / ".join(
        f'<span class="{cls if n else f"{cls} zero"}">{n}</span>'
        for cls, n in (("n-pass", passed), ("n-fail", failed), ("n-skip", skipped))
    )


def _matrix(runs: Sequence[Run], labels: list[str]) -> str:
    rules = load_rules()
    tables = [{row["rule"]: row for row in per_rule(run.results, rules)} for run in runs]
    order = list(dict.fromkeys([rule_id for table in tables for rule_id in table]))
    body = [
        '<tr class="scope"><th>scope</th><td></td>'
        + "".join(f'<td class="scope">{_e(_scope(run))}</td>' for run in runs)
        + "</tr>"
    ]
    for rule_id in order:
        title = next((t[rule_id]["title"] for t in tables if rule_id in t), "")
        body.append(
            f'<tr><td><a class="filter-rule" href="#fixtures" data-rule="{_e(rule_id)}"><code>{_e(rule_id)}</code></a>'
            f"</td><td>{_e(title)}</td>" + "".join(_cell(t.get(rule_id)) for t in tables) + "</tr>"
        )
    totals = "".join(  # passed as in the rows: an expected failure counts as passing
        f'<td class="cell">{_counts(len(run.results) - run.failed - run.skipped, run.failed, run.skipped)}</td>'
        for run in runs
    )
    return (
        '<table class="matrix" id="matrix-table"><caption>passed / failed / skipped fixtures</caption>'
        "<thead><tr><th>rule</th><th>title</th>"
        + "".join(_impl_header(run, label) for run, label in zip(runs, labels, strict=True))
        + "</tr></thead><tbody>"
        + "".join(body)
        + f"</tbody><tfoot><tr><th>fixtures</th><td>each counted once</td>{totals}</tr></tfoot></table>"
    )


def _trend_svg(runs: list[Run]) -> str:
    """The pass count of each version as a line over the fixtures run, left to right."""
    step, height, top = 90, 120, 20
    width = step * (len(runs) - 1) + 80
    most = max([len(run.results) for run in runs] + [1])

    def y(value: int) -> float:
        return round(top + (height - top - 30) * (1 - value / most), 1)

    points = [(40 + step * n, y(run.passed)) for n, run in enumerate(runs)]
    marks = "".join(
        f'<circle cx="{x}" cy="{py}" r="4" fill="#1f7a33"><title>{_e(run.version)}: {run.passed} passed of '
        f"{len(run.results)}</title></circle>"
        f'<text x="{x}" y="{py - 8}" text-anchor="middle" font-size="11">{run.passed}</text>'
        f'<text x="{x}" y="{height - 6}" text-anchor="middle" font-size="11">{_e(run.version)}</text>'
        for (x, py), run in zip(points, runs, strict=True)
    )
    line = " ".join(f"{x},{py}" for x, py in points)
    return (
        f'<svg class="trend" xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-label="passed fixtures by version">'
        f'<line x1="20" y1="{y(most)}" x2="{width - 20}" y2="{y(most)}" stroke="#ccc" stroke-dasharray="3 3"/>'
        f'<line x1="20" y1="{y(0)}" x2="{width - 20}" y2="{y(0)}" stroke="#999"/>'
        f'<polyline points="{line}" fill="none" stroke="#1f7a33" stroke-width="2"/>{marks}</svg>'
    )


def _trends(runs: Sequence[Run]) -> str:
    found = trends(runs)
    if not found:
        return ""
    out = ['<h2 id="trend">Across versions</h2>']
    for name, versions in found.items():
        out.append(f"<h3>{_e(name)}</h3>")
        out.append(_trend_svg(versions))
        out.append(
            '<table class="trend"><thead><tr><th>version</th><th>started</th><th class="num">passed</th>'
            '<th class="num">failed</th><th class="num">skipped</th><th class="num">fixtures</th></tr></thead><tbody>'
            + "".join(
                f"<tr><td>{_e(run.version)}</td><td>{_e(run.header.get('started', ''))}</td>"
                f'<td class="num">{run.passed}</td><td class="num">{run.failed}</td>'
                f'<td class="num">{run.skipped}</td><td class="num">{len(run.results)}</td></tr>'
                for run in versions
            )
            + "</tbody></table>"
        )
    return "\n".join(out)


def _options(values: list[str], everything: str, extra: Sequence[tuple[str, str]] = ()) -> str:
    shown = [("", everything), *extra, *((v, v) for v in values)]
    return "".join(f'<option value="{_e(v)}">{_e(text)}</option>' for v, text in shown)


def _fixture_table(
    rows: list[FixtureRow],
    runs: Sequence[Run],
    labels: list[str],
    row_anchors: dict[str, str],
    failure_anchors: list[dict[str, str]],
) -> str:
    body = [_fixture_row(row, labels, row_anchors, failure_anchors) for row in rows]
    return (
        _table_filters(rows)
        + '<table class="fixtures" id="fixture-table"><thead><tr><th>fixture</th><th>kind</th><th>rules</th>'
        + "".join(_impl_header(run, label) for run, label in zip(runs, labels, strict=True))
        + "</tr></thead><tbody>"
        + "".join(body)
        + "</tbody></table>"
    )


def _table_filters(rows: list[FixtureRow]) -> str:
    """The fixture table's filters: text, rule (in the spec's order), kind, outcome, and the count shown."""
    rule_order = [rule_id for rule_id in load_rules() if any(rule_id in row.rules for row in rows)]
    rule_order += sorted({r for row in rows for r in row.rules} - set(rule_order))
    kinds = list(dict.fromkeys(row.kind for row in rows))
    present = {r["status"] for row in rows for r in row.results if r is not None}
    outcomes = [s for s in OUTCOME_ORDER if s in present]
    return (
        '<div class="filters" role="search">'
        '<label>text <input type="search" id="filter-text" placeholder="fixture, rule, words, message"></label>'
        f'<label>rule <select id="filter-rule">{_options(rule_order, "every rule")}</select></label>'
        f'<label>kind <select id="filter-kind">{_options(kinds, "every kind")}</select></label>'
        '<label>outcome <select id="filter-outcome">'
        f"{_options(outcomes, 'any outcome', [('disagree', 'implementations disagree')])}</select></label>"
        f'<output id="filter-count" for="filter-text filter-rule filter-kind filter-outcome">{len(rows)} of '
        f"{len(rows)} fixtures</output></div>"
    )


def _outcome_cell(
    row: FixtureRow, n: int, r: dict[str, Any] | None, label: str, failure_anchors: dict[str, str]
) -> str:
    """Implementation ``n``'s outcome of the row's fixture: absent, or its status, a
    failing one opening its expected-against-actual."""
    if r is None:
        return '<td class="cell absent">not in this run</td>'
    if row.id not in failure_anchors:
        title = f' title="{_e(r["message"])}"' if r["message"] else ""
        return f'<td class="cell"><span class="status {_e(r["status"])}"{title}>{_e(r["status"])}</span></td>'
    where = failure_anchors[row.id]
    return (
        f'<td class="cell"><a class="status {_e(r["status"])} open-failure" href="{_e(where)}" '
        f'title="{_e(label)}: expected against actual">{_e(r["status"])}</a></td>'
    )


def _fixture_row(
    row: FixtureRow, labels: list[str], row_anchors: dict[str, str], failure_anchors: list[dict[str, str]]
) -> str:
    """One fixture's row: its ID, description, kind and rules, each implementation's outcome,
    and what the filters read."""
    cells = [_outcome_cell(row, n, r, labels[n], failure_anchors[n]) for n, r in enumerate(row.results)]
    # What the filter reads beyond the row's own text (the script adds that): the messages.
    words = " ".join(dict.fromkeys(r["message"] for r in row.results if r is not None and r["message"])).lower()
    outcome_words = " ".join(dict.fromkeys(r["status"] for r in row.results if r is not None))
    flag = ' <span class="flag">disagree</span>' if row.disagree else ""
    disagree = ' class="disagree"' if row.disagree else ""
    text = f' data-text="{_e(words)}"' if words else ""
    return (
        f'<tr id="{_e(row_anchors[row.id])}"{disagree} '
        f'data-rules="{_e(" ".join(row.rules))}" data-kind="{_e(row.kind)}" data-outcomes="{_e(outcome_words)}" '
        f'data-disagree="{"yes" if row.disagree else "no"}"{text}>'
        f"<td><code>{_e(row.id)}</code>{flag}<br><span class='zero'>{_e(row.description)}</span></td>"
        f"<td>{_e(row.kind)}</td><td>{' '.join(f'<code>{_e(r)}</code>' for r in row.rules)}</td>"
        + "".join(cells)
        + "</tr>"
    )


def _split(row: FixtureRow, labels: list[str]) -> str:
    """Who a disagreement divides: ``(fails: A; passes: B, C)``."""
    sides: dict[str, list[str]] = {"fails": [], "passes": []}
    for r, label in zip(row.results, labels, strict=True):
        if r is not None and r["status"] != Status.SKIP:
            sides["passes" if r["status"] in PASSING else "fails"].append(label)
    said = "; ".join(f"{side}: {', '.join(who)}" for side, who in sides.items())
    return f'<span class="split">({_e(said)})</span>'


def _opened(run: Run) -> list[dict[str, Any]]:
    """The results of a run that a cell opens: every failure, and the expected ones."""
    return [r for r in run.results if r["status"] not in PASSING or r["status"] == Status.XFAIL]


def render_comparison(
    runs: Sequence[Run], folders: Sequence[str | None] | None = None, *, links: Links | None = None
) -> str:
    """The comparison page of ``runs``; ``folders`` (relative to the page) hold each
    run's own reports, linked from the page (``None``: no link); rule references as
    ``links`` says."""
    folders = list(folders) if folders is not None else [None] * len(runs)
    labels = _labels(runs)
    rows = fixture_rows(runs)
    taken: set[str] = set()
    row_anchors = {row.id: anchor(row.id, taken, "row-") for row in rows}
    # Where a failing cell leads: the fixture's section in the run's own report, where it
    # has one (a link to another page), else a section of this page ("#...").
    own = _own_sections(runs, folders)
    inline = [
        {r["id"]: anchor(r["id"], taken, f"i{n + 1}-") for r in _opened(run) if r["id"] not in own[n]}
        for n, run in enumerate(runs)
    ]
    failure_anchors = [{**{i: f"#{place}" for i, place in inline[n].items()}, **own[n]} for n in range(len(runs))]
    split = [row for row in rows if row.disagree]
    suites = ", ".join(dict.fromkeys(str(run.header.get("suite", "?")) for run in runs))
    protocols = ", ".join(dict.fromkeys(str(run.header.get("protocol", "?")) for run in runs))
    title = f"Horse Race conformance: {len(runs)} implementations compared"
    out = [
        *page_start(title, _CSS),
        f"<h1>{_e(title)}</h1>",
        (
            f'<p class="zero">Suite {_e(suites)}, protocol {_e(protocols)}; made by horserace from the result '
            "streams alone.</p>"
        ),
        '<nav><a href="#implementations">implementations</a><a href="#disagreements">disagreements</a>'
        '<a href="#matrix">rules</a>'
        + ('<a href="#trend">versions</a>' if trends(runs) else "")
        + '<a href="#fixtures">fixtures</a><a href="#failures">failures</a></nav>',
        '<h2 id="implementations">Implementations</h2>',
        _implementations(runs, labels, folders),
        '<h2 id="disagreements">Where they disagree</h2>',
    ]
    out.append(_disagreements(split, labels, row_anchors))
    out += [
        '<h2 id="matrix">Rules by implementation</h2>',
        (
            '<p class="zero">Every rule of the specification, in its order: passed / failed / skipped fixtures that '
            "cite it (a fixture counts in the row of every rule it cites). A rule's name filters the fixture table.</p>"
        ),
        _matrix(runs, labels),
        _trends(runs),
        '<h2 id="fixtures">Fixtures</h2>',
        (
            '<p class="zero">One row per fixture, the disagreements first. A failing outcome opens that '
            "implementation's expected-against-actual, with the drawing.</p>"
        ),
        _fixture_table(rows, runs, labels, row_anchors, failure_anchors),
        '<h2 id="failures">Failures, by implementation</h2>',
    ]
    failures = _failures_by_implementation(runs, labels, folders, own, inline, links)
    drawn = "\n".join(failures)
    out += [drawings_legend(drawn) if "hr-layout" in drawn else "", *failures]
    out.append(rules_cited([r for n, run in enumerate(runs) for r in _opened(run) if r["id"] in inline[n]], links))
    out += [
        (
            '<dialog id="viewer" aria-label="expected against actual"><form method="dialog">'
            f'<button type="submit">close</button></form><div id="viewer-body"></div>{legend_html()}</dialog>'
        ),
        f"<script>{_SCRIPT}</script>",
        "</main>",
        "</body>",
        "</html>",
    ]
    return "\n".join(part for part in out if part) + "\n"


def _own_sections(runs: Sequence[Run], folders: Sequence[str | None]) -> list[dict[str, str]]:
    """For each run, the section of each failing fixture in the run's own report (none
    where the run has no folder)."""
    own: list[dict[str, str]] = []
    for run, folder in zip(runs, folders, strict=True):
        failing = [r for r in run.results if r["status"] not in PASSING]
        sections: dict[str, str] = {}
        for r, place in zip(failing, section_anchors(failing), strict=True):
            sections.setdefault(r["id"], f"{folder}/report.html#{place}")
        own.append(sections if folder is not None else {})
    return own


def _disagreements(split: list[FixtureRow], labels: list[str], row_anchors: dict[str, str]) -> str:
    """The fixtures that pass for some implementations and fail for others, or that there are none."""
    if split:
        return (
            f"<p>{len(split)} fixture(s) pass for some implementations and fail for others: that is where a rule "
            "is read two ways. They come first in the fixture table.</p><ul>"
            + "".join(
                f'<li><a href="#{_e(row_anchors[row.id])}"><code>{_e(row.id)}</code></a> '
                f"<code>{_e(row.rule)}</code> {_e(row.description)} {_split(row, labels)}</li>"
                for row in split
            )
            + "</ul>"
        )
    return (
        '<p class="notice">None: every fixture that two or more implementations ran has the same outcome '
        "for each of them (passing or not).</p>"
    )


def _failures_by_implementation(
    runs: Sequence[Run],
    labels: list[str],
    folders: Sequence[str | None],
    own: list[dict[str, str]],
    inline: list[dict[str, str]],
    links: Links | None,
) -> list[str]:
    """Each implementation's failures: a link to its own report's, and the sections of
    those this page shows itself."""
    failures: list[str] = []
    for n, (run, label) in enumerate(zip(runs, labels, strict=True)):
        failures.append(f'<h3 id="failures-{n + 1}">{_e(label)}</h3>')
        failing = _opened(run)
        if run.unusable:
            failures.append(f'<div class="alert"><strong>Unusable:</strong> {_e(run.footer["unusable"])}</div>')
        elif not failing:
            failures.append('<p class="notice">No failures.</p>')
        if own[n]:
            failures.append(
                f"<p>{len(own[n])} failing fixture(s), each with its expected-against-actual and drawing: in "
                f'<a href="{_e(folders[n])}/report.html#failures">its own report</a>.</p>'
            )
        causes = run_causes(run.results)
        failures += [
            fixture_section(r, inline[n][r["id"]], who=label, causes=causes, links=links)
            for r in failing
            if r["id"] in inline[n]
        ]
    return failures
