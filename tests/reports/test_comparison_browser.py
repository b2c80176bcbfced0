"""The comparison page of docs/reports.md, in Debian's Chromium: the reference
engine and the two bundled examples with their deliberate errors on, run by one
``horserace conform`` with three ``--impl``.

- every link of every page the run wrote resolves (a crawler over the files: each
  ``href`` to a file that exists, each ``#fragment`` to an ``id`` of its page) and none
  leaves the folder;
- in the browser (tests/reports/devtools.py), at 1,400 and 480 pixels: no console error,
  no horizontal overflow at 480; a failing cell of each implementation, clicked with the
  mouse, opens that implementation's expected-against-actual with its drawing; text typed
  into the filter, a rule and an outcome chosen, leave the rows they should (counted as
  the rows the browser shows); a rule's name in the matrix filters the table;
- the screenshots (the top of the page at both widths, the matrix, an opened failure)
  go to ``$HORSERACE_ARTIFACTS`` as ``comparison-*.png``.
"""

from __future__ import annotations

import os
import shutil
import sys
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.reports.comparison import disagreements
from horserace.reports.runs import load_run
from horserace.resources.documents import load_rules
from tests.reports.devtools import Browser
from tests.reports.test_html_report import chromium_path

ROOT = Path(__file__).parents[2]
WIDTHS = (1400, 480)
OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
SHOWN_ROWS = "[...document.querySelectorAll('#fixture-table tbody tr')].filter(r => r.getClientRects().length).length"
COUNT = "document.getElementById('filter-count').value"


@pytest.fixture(scope="module")
def three(tmp_path_factory) -> Path:
    """The closing note's run: ``horserace serve``, the Python and the JavaScript example."""
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("node is not installed; .ci/run must provide it")
        pytest.skip("node is not installed")
    out = tmp_path_factory.mktemp("three")
    impls = [
        "horserace serve",
        f"{sys.executable} {ROOT / 'examples' / 'python' / 'horse_race.py'}",
        f"{node} {ROOT / 'examples' / 'javascript' / 'horse-race.js'}",
    ]
    with pytest.MonkeyPatch.context() as patch:
        patch.delenv("HORSERACE_EXAMPLE_CORRECT", raising=False)  # the deliberate errors on
        code = main(["conform", *(w for impl in impls for w in ("--impl", impl)), "--report-dir", str(out)])
    assert code == ExitCode.FAILURES
    return out


class _Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.ids: set[str] = set()
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        found = dict(attrs)
        if found.get("id"):
            self.ids.add(found["id"])
        for name in ("href", "src"):
            if found.get(name):
                self.links.append(found[name])


def _page(path: Path) -> _Links:
    parser = _Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


@pytest.mark.slow
def test_every_link_of_every_page_resolves(three):
    pages = sorted(three.rglob("*.html"))
    assert [p.relative_to(three).as_posix() for p in pages if p.parent == three] == ["index.html"]
    assert len(pages) == 4  # the page and the three reports
    parsed = {page: _page(page) for page in pages}
    checked = 0
    for page, found in parsed.items():
        for link in found.links:
            parts = urlsplit(link)
            assert not parts.scheme and not parts.netloc, f"{page.name}: {link} leaves the folder"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(three)}: {link} resolves to nothing"
            assert three.resolve() in target.parents or target == page, f"{link} leaves the report folder"
            if parts.fragment:
                ids = parsed[target].ids if target in parsed else _page(target).ids
                assert parts.fragment in ids, f"{page.relative_to(three)}: {link} has no such anchor"
            checked += 1
    assert checked > 100


def _keep(png: bytes, name: str, tmp_path: Path) -> None:
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 10_000  # a real rendering
    (tmp_path / name).write_bytes(png)
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(tmp_path / name, Path(artifacts) / name)


@pytest.mark.browser
def test_the_page_renders_without_errors_or_overflow(three, tmp_path):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        for width in WIDTHS:
            page = browser.open((three / "index.html").as_uri(), width=width, height=1000)
            assert page.errors == [], f"{width} px: {page.errors}"
            if width == 480:
                assert page.evaluate(OVERFLOW) <= 0, f"{width} px: horizontal overflow"
            rows = page.evaluate("document.querySelectorAll('#matrix-table tbody tr').length")
            assert rows == 1 + len(load_rules())  # the scope, then every rule
            assert page.evaluate("document.querySelectorAll('table.implementations svg').length") == 3  # badges
            _keep(page.screenshot(full=False), f"comparison-{width}px.png", tmp_path)
            if width == 1400:
                _keep(page.screenshot("#matrix-table"), "comparison-matrix.png", tmp_path)


@pytest.mark.browser
def test_a_failing_cell_opens_its_implementations_differences_and_drawing(three, tmp_path):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((three / "index.html").as_uri(), width=1400, height=1000)
        columns = page.evaluate("[...document.querySelectorAll('#fixture-table thead th.impl')].length")
        assert columns == 3
        opened = 0
        for column in range(columns):
            # The first failing cell of this implementation whose fixture has a drawing.
            cell = ", ".join(
                f"#fixture-table tbody tr[data-kind={kind}] td:nth-child({4 + column}) a.open-failure"
                for kind in ("layout", "play")
            )
            if page.evaluate(f"document.querySelector({cell!r}) === null"):
                continue  # the reference engine has no failure
            label = page.evaluate(
                f"document.querySelectorAll('#fixture-table thead th.impl')[{column}].firstChild.data"
            )
            page.click(cell)
            assert page.evaluate("document.getElementById('viewer').open") is True
            # The viewer shows the fixture's section of the implementation's own report.
            frame = page.evaluate(
                "(() => { const f = document.querySelector('#viewer iframe'); const r = f.getBoundingClientRect();"
                " return {src: f.src, title: f.title, width: r.width, height: r.height}; })()"
            )
            assert frame["title"].startswith(f"{label}: ") and frame["width"] > 300 and frame["height"] > 300
            target = urlsplit(frame["src"])
            report = Path(unquote(target.path))
            assert report.name == "report.html" and report.parent.parent == three.resolve()
            assert load_run(report.parent).hello["name"] in label
            if not opened:
                page.evaluate("new Promise(done => setTimeout(done, 500))")  # the frame drawn
                _keep(page.screenshot(full=False), "comparison-failure.png", tmp_path)
            section = browser.open(frame["src"], width=1100, height=900)
            here = f"document.getElementById({target.fragment!r})"
            assert section.evaluate(f"{here}.querySelectorAll('svg.hr-layout').length") == 1
            assert section.evaluate(f"{here}.querySelectorAll('table.differences tbody tr').length") >= 1
            assert section.errors == []
            page.click("#viewer button")
            assert page.evaluate("document.getElementById('viewer').open") is False
            opened += 1
        assert opened == 2  # both examples
        assert page.errors == []


def _choose(page, which: str, value: str) -> None:
    """Choose ``value`` in the filter's ``which`` list, as a user's choice does (a change event)."""
    page.evaluate(
        f"(() => {{ const s = document.getElementById('filter-{which}'); s.value = {value!r};"
        " s.dispatchEvent(new Event('change')); })()"
    )


@pytest.mark.browser
def test_the_filter_leaves_the_rows_it_should(three, tmp_path):
    runs = [load_run(folder) for folder in sorted(p for p in three.iterdir() if p.is_dir())]
    every: dict[str, list[str]] = {}
    for run in runs:
        for r in run.results:
            every.setdefault(r["id"], []).append(r["status"])
    rules = {r["id"]: r["rules"] for run in runs for r in run.results}
    citing = {fid for fid in every if "HR-COUNT-4" in rules[fid]}
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((three / "index.html").as_uri(), width=1400, height=1000)
        assert page.evaluate(SHOWN_ROWS) == len(every)
        assert page.evaluate(COUNT) == f"{len(every)} of {len(every)} fixtures"

        page.type("#filter-text", "7swr67")  # a fixture ID, typed (the filter ignores case)
        assert page.evaluate(SHOWN_ROWS) == 1
        shown = "[...document.querySelectorAll('#fixture-table tbody tr')].find(r => r.getClientRects().length)"
        assert page.evaluate(f"{shown}.querySelector('code').textContent") == "7SWR67"
        page.type("#filter-text", " and nothing else")
        assert page.evaluate(SHOWN_ROWS) == 0 and page.evaluate(COUNT) == f"0 of {len(every)} fixtures"
        page.evaluate(
            "(() => { const t = document.getElementById('filter-text'); t.value = '';"
            " t.dispatchEvent(new Event('input')); })()"
        )
        assert page.evaluate(SHOWN_ROWS) == len(every)

        page.click("a.filter-rule[data-rule='HR-COUNT-4']")  # a rule's name in the matrix
        assert page.evaluate("document.getElementById('filter-rule').value") == "HR-COUNT-4"
        assert page.evaluate(SHOWN_ROWS) == len(citing) > 0
        _choose(page, "outcome", "fail")
        assert page.evaluate(SHOWN_ROWS) == len({fid for fid in citing if "fail" in every[fid]}) > 0

        _choose(page, "rule", "")
        _choose(page, "outcome", "disagree")
        split = disagreements(runs)
        assert page.evaluate(SHOWN_ROWS) == len(split) > 0
        first = page.evaluate(  # the disagreements are the first rows of the table
            f"[...document.querySelectorAll('#fixture-table tbody tr')].slice(0, {len(split)})"
            ".every(r => r.dataset.disagree === 'yes')"
        )
        assert first is True
        assert page.errors == []
