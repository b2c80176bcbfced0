"""The HTML report for people, in Debian's Chromium (tests/reports/devtools.py), on the
report of a run in which every fixture fails (tests/reports/test_report_size.py), copied
to another folder and opened by its ``file://`` URL, with no server:

- it renders: its title, every drawing, no console error, every ``<use>`` and every
  ``#fragment`` resolves on the page;
- at 1,400 and at 360 pixels (a phone): no rule ID wraps (each ID's code is one line
  box), no table header breaks inside a word, and a table wider than the window scrolls
  in its own box instead of widening the page;
- the legend's entries never overlap (no two of their boxes intersect), on the page and
  in a drawing that carries its own legend (as the site's do);
- the ring and the cross drawn on a mark never hide its value: the element at the
  middle of each value is that value's text.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from horserace.reports.svg import layout_svg
from tests.helpers import bundled_corpus
from tests.reports.devtools import Browser
from tests.reports.test_html_report import chromium_path
from tests.reports.test_report_size import failing_run, five_implementations

pytestmark = pytest.mark.browser

WIDTHS = (1400, 360)

#: Pairs of boxes of the elements ``selector`` matches that intersect (by more than half
#: a pixel), but for one inside the other (the "5" written in the legend's filled number).
INTERSECTING = """((selector) => {
  const boxes = [...document.querySelectorAll(selector)].map((e) => [e, e.getBoundingClientRect()]);
  const inside = (p, q) => p.left >= q.left && p.right <= q.right && p.top >= q.top && p.bottom <= q.bottom;
  const out = [];
  for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
    const [a, p] = boxes[i], [b, q] = boxes[j];
    const w = Math.min(p.right, q.right) - Math.max(p.left, q.left);
    const h = Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top);
    if (w > 0.5 && h > 0.5 && !inside(p, q) && !inside(q, p))
      out.push(`${a.tagName} ${a.textContent.trim()} / ${b.tagName} ${b.textContent.trim()}`);
  }
  return out;
})"""
#: Everything the legend of a drawing draws: its texts and its marks.
LEGEND_PARTS = "g.legend text, g.legend circle, g.legend rect, g.legend path"

#: Values whose middle shows another element: each scrolled into view, then hit-tested.
COVERED = """((selector) => {
  const out = [];
  for (const value of document.querySelectorAll(selector)) {
    value.scrollIntoView({block: "center", inline: "center"});
    const r = value.getBoundingClientRect();
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    if (hit !== value) out.push(`${value.textContent} under ${hit && hit.tagName}.${hit && hit.getAttribute("class")}`);
  }
  return out;
})"""

#: Rule IDs shown on more than one line.
WRAPPED_IDS = """[...document.querySelectorAll('td code, h3 code')]
  .filter((c) => /^HR-[A-Z]+-[0-9]+$/.test(c.textContent) && c.getClientRects().length > 1)
  .map((c) => c.textContent)"""

#: Texts of table headers broken over lines (each text of a header is on one line; a
#: header may put two texts on two lines, as the comparison's name and language).
BROKEN_HEADERS = """[...document.querySelectorAll('th')].flatMap((th) => {
  const walker = document.createTreeWalker(th, NodeFilter.SHOW_TEXT);
  const broken = [];
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (!node.data.trim()) continue;
    const range = document.createRange(); range.selectNodeContents(node);
    const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
    if (lines.size > 1) broken.push(node.data);
  }
  return broken;
})"""


@pytest.fixture(scope="module")
def copied(tmp_path_factory) -> Path:
    """The report folder of a run in which every fixture fails, copied elsewhere."""
    made = failing_run(tmp_path_factory.mktemp("made") / "report")
    copy = tmp_path_factory.mktemp("copied") / "somewhere-else"
    shutil.copytree(made, copy)
    shutil.rmtree(made)
    return copy


def test_the_copied_report_renders_from_file_urls(copied, tmp_path):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((copied / "report.html").as_uri(), width=1400, height=1000)
        assert page.errors == []
        assert page.evaluate("document.querySelector('h1').textContent").startswith("Horse Race conformance")
        assert page.evaluate("document.querySelectorAll('section.fixture').length") == len(bundled_corpus().fixtures)
        drawings = page.evaluate("document.querySelectorAll('svg.hr-layout').length")
        # Every section whose first difference the layout bears on draws it (not the 71 play
        # fixtures answered with the wrong seat: whose turn it is, not the layout).
        assert drawings == page.evaluate("document.querySelectorAll('figure.layout').length") >= 80
        unresolved = page.evaluate(
            "[...document.querySelectorAll('use')].map((u) => u.getAttribute('href'))"
            ".filter((h) => !document.getElementById(h.slice(1)))"
        )
        assert unresolved == []
        dead = page.evaluate(
            "[...document.querySelectorAll('a[href^=\"#\"]')].map((a) => a.getAttribute('href'))"
            ".filter((h) => !document.getElementById(decodeURIComponent(h.slice(1))))"
        )
        assert dead == []
        # A drawn tile is drawn: the face it uses has its box on the page.
        width = page.evaluate("document.querySelector('svg.hr-layout use').getBoundingClientRect().width")
        assert width > 20


@pytest.mark.parametrize("width", WIDTHS)
def test_tables_are_readable(copied, tmp_path, width):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((copied / "report.html").as_uri(), width=width, height=1000)
        assert page.evaluate("document.querySelectorAll('table.rules tbody tr').length") > 40
        assert page.evaluate(WRAPPED_IDS) == []
        assert page.evaluate(BROKEN_HEADERS) == []
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        if width == 360:  # the per-rule table is wider than a phone: it scrolls in its own box
            box = page.evaluate(
                "(() => { const t = [...document.querySelectorAll('table.rules')].pop();"
                " return [t.scrollWidth, t.clientWidth, getComputedStyle(t).overflowX]; })()"
            )
            assert box[0] > box[1] and box[2] == "auto"


@pytest.mark.parametrize("width", WIDTHS)
def test_the_legend_never_overlaps(copied, tmp_path, width):
    own = tmp_path / "own-legend.html"
    claims = [
        {"at": ["steps", 1, "contributions"], "item": "missing", "expected": {"tile": "[4|4]", "value": 8}},
        {"at": ["steps", 1, "attachment_points"], "item": "extra", "actual": {"tile": "[1|4]", "port": "low"}},
    ]
    svg = layout_svg(
        [{"tile": "[1|4]"}, {"tile": "[4|4]", "target": "[1|4]", "port": "high"}], mark_last=True, claims=claims
    )
    own.write_text(f"<!DOCTYPE html><html><body>{svg}</body></html>", encoding="utf-8")
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((copied / "report.html").as_uri(), width=width, height=1000)
        assert page.evaluate("document.querySelectorAll('#drawings-legend li').length") == 6
        assert page.evaluate(f"{INTERSECTING}('#drawings-legend li')") == []
        drawing = browser.open(own.as_uri(), width=width, height=1000)
        assert drawing.evaluate("document.querySelectorAll('g.legend text').length") >= 7
        assert drawing.evaluate(f"{INTERSECTING}({LEGEND_PARTS!r})") == []


def test_rings_and_crosses_never_hide_a_value(copied, tmp_path):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((copied / "report.html").as_uri(), width=1400, height=1000)
        marked = "svg.hr-layout:has(.claim-missing, .claim-extra)"
        assert page.evaluate(f"document.querySelectorAll('{marked} .claim-extra').length") > 5
        assert page.evaluate(f"document.querySelectorAll('{marked} .claim-missing').length") > 5
        values = f"{marked} g.contribution text"
        assert page.evaluate(f"document.querySelectorAll('{values}').length") > 10
        assert page.evaluate(f"{COVERED}('{values}')") == []


@pytest.fixture(scope="module")
def compared(tmp_path_factory) -> Path:
    """The comparison page of five implementations and their reports, copied elsewhere."""
    made = five_implementations(tmp_path_factory.mktemp("made") / "five")
    copy = tmp_path_factory.mktemp("copied") / "five-elsewhere"
    shutil.copytree(made, copy)
    shutil.rmtree(made)
    return copy


@pytest.mark.parametrize("width", WIDTHS)
def test_the_comparison_is_readable_from_a_copied_folder(compared, tmp_path, width):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((compared / "index.html").as_uri(), width=width, height=1000)
        assert page.errors == []
        assert page.evaluate("document.querySelectorAll('#matrix-table tbody tr').length") > 40
        assert page.evaluate(WRAPPED_IDS) == []
        assert page.evaluate(BROKEN_HEADERS) == []
        assert page.evaluate("document.documentElement.scrollWidth - window.innerWidth") <= 0
        page.click("a.open-failure")  # the first failure, in its implementation's own report
        assert page.evaluate("document.getElementById('viewer').open") is True
        src = page.evaluate("document.querySelector('#viewer iframe').src")
        assert src.startswith(compared.as_uri() + "/") and "/report.html#fx-" in src
        section = browser.open(src, width=width, height=1000)
        assert section.errors == []
        assert section.evaluate(f"document.getElementById({src.rsplit('#', 1)[1]!r}) !== null") is True
