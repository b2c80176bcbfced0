"""The site in Debian's Chromium, driven through the DevTools protocol
(tests/reports/devtools.py), from ``file://``: every page loads without a console error,
every layout and play fixture page shows its drawings, the search box finds by rule ID,
fixture ID and word and leads to the page, the search page lists results, and the index,
a rule page and fixture pages have no horizontal overflow on a phone.  Screenshots of the
index, one rule page and two fixture pages go to ``$HORSERACE_ARTIFACTS``
(``site-*.png``)."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import bundled_corpus
from tests.reports.devtools import Browser, Page
from tests.reports.test_html_report import chromium_path

pytestmark = pytest.mark.browser

OVERFLOW = "document.documentElement.scrollWidth - window.innerWidth"
DRAWINGS = (
    "[...document.querySelectorAll('svg.hr-layout')]"
    ".filter(s => s.getBoundingClientRect().width > 100 && s.querySelector('g.tile')).length"
)
RESULTS = "[...document.querySelectorAll('form.search .search-results a.result')].map(a => [a.className, a.href, a.textContent])"
#: The pages kept as screenshots: the index, one rule page, a layout and a play fixture.
SHOWN = {
    "index": "index.html",
    "rule-HR-COUNT-2": "rules/HR-COUNT-2.html",
    "fixture-8A5JZE": "fixtures/8A5JZE.html",
    "fixture-R2VH0H": "fixtures/R2VH0H.html",
}


def navigate(page: Page, url: str) -> None:
    """Load ``url`` in the page's tab and wait for its load event (scripts run by then)."""
    page.browser.send("Page.navigate", {"url": url}, session=page.session)
    page.browser.wait_for("Page.loadEventFired", page.session)


def type_into_search(page: Page, text: str) -> list[Any]:
    """Type ``text`` into the search box as a user would (focus, then keystrokes'
    text), and return the results shown: [class, href, text] of each."""
    page.evaluate("(b => { b.value = ''; b.focus(); })(document.getElementById('search-box'))")
    page.browser.send("Input.insertText", {"text": text}, session=page.session)
    return list(page.evaluate(RESULTS))


def _expected_drawings(fx) -> int:
    if fx.kind == "layout":
        return len(fx.input["steps"]) + (1 if fx.input.get("setup") else 0)
    return sum(
        (1 if hand.get("layout") else 0) + sum(1 for ev in outcome["events"] if ev["event"] == "place")
        for hand, outcome in zip(fx.input["hands"], fx.expected["hands"])
    )


def _pages_to_open(site: Path, fixtures: dict) -> list[Path]:
    """Every page at the top, every layout and play fixture page (the drawings), and a
    few of each other kind: the rest share their script and stylesheet with these, and
    the crawler of test_site.py has checked every link of every page."""
    drawn = [site / "fixtures" / f"{i}.html" for i, fx in fixtures.items() if fx.kind in ("layout", "play")]
    others = {}
    for i, fx in fixtures.items():
        others.setdefault(fx.kind, []).append(site / "fixtures" / f"{i}.html")
    rules = sorted((site / "rules").glob("*.html"))
    return [
        *sorted(site.glob("*.html")),
        *rules[::8],
        *drawn,
        *(path for kind in ("settlement", "illegal", "perft") for path in others.get(kind, [])[:3]),
    ]


def test_pages_load_without_errors_and_every_layout_and_play_fixture_shows_its_drawings(site, tmp_path):
    fixtures = {fx.id: fx for fx in bundled_corpus().fixtures}
    pages = _pages_to_open(site, fixtures)
    failures: list[str] = []
    drawn = 0
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((site / "index.html").as_uri(), width=1400, height=900)
        seen = 0
        for path in pages:
            navigate(page, path.as_uri())
            errors = page.errors
            failures += [f"{path.relative_to(site)}: {error}" for error in errors[seen:]]
            seen = len(errors)
            fx = fixtures.get(path.stem) if path.parent.name == "fixtures" else None
            if fx is not None and fx.kind in ("layout", "play"):
                shown = page.evaluate(DRAWINGS)
                drawn += 1
                if shown != _expected_drawings(fx):
                    failures.append(f"{fx.id}: {shown} drawings shown, {_expected_drawings(fx)} expected")
    assert failures == []
    assert drawn == sum(1 for fx in fixtures.values() if fx.kind in ("layout", "play"))


def test_the_search_box_finds_by_id_and_by_word_and_leads_there(site, tmp_path):
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((site / "index.html").as_uri(), width=1400, height=900)
        assert page.evaluate("window.HORSERACE_SEARCH.length") > 250

        results = type_into_search(page, "HR-COUNT-4")
        assert results[0][1] == (site / "rules" / "HR-COUNT-4.html").as_uri()
        assert "A zero end is a counted end" in results[0][2]
        assert any("fixture" in cls for cls, _, _ in results)  # fixtures that cite it follow
        assert page.evaluate("document.querySelector('form.search .search-results').hidden") is False

        assert type_into_search(page, "8a5jze")[0][1] == (site / "fixtures" / "8A5JZE.html").as_uri()
        assert type_into_search(page, "HRI-10")[0][1] == (site / "register.html").as_uri() + "#HRI-10"
        words = type_into_search(page, "zero end")
        assert (site / "rules" / "HR-COUNT-4.html").as_uri() in [href for _, href, _ in words]
        finnish = type_into_search(page, "spinneri")  # a glossary term, in Finnish
        assert finnish[0][0] == "result term" and finnish[0][1].endswith("glossary.html#term-spinner")
        assert type_into_search(page, "Nostokäsa")[0][1].endswith("#term-boneyard")  # case and accents folded
        assert type_into_search(page, "qqxqqxqq") == []
        assert "No rule, fixture" in page.evaluate("document.querySelector('form.search .search-results').textContent")

        # From a page one folder down, the results still lead to the right place.
        navigate(page, (site / "fixtures" / "8A5JZE.html").as_uri())
        first = type_into_search(page, "HR-SEAT-1")[0]
        assert first[1] == (site / "rules" / "HR-SEAT-1.html").as_uri()
        page.evaluate("document.querySelector('form.search .search-results a.result').click()")
        browser.wait_for("Page.loadEventFired", page.session)
        assert page.evaluate("location.href") == first[1]

        # Enter sends the words to the search page, which lists every result.
        type_into_search(page, "boneyard")
        for kind in ("keyDown", "keyUp"):
            browser.send(
                "Input.dispatchKeyEvent",
                {"type": kind, "key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"},
                session=page.session,
            )
        browser.wait_for("Page.loadEventFired", page.session)
        assert page.evaluate("location.pathname").endswith("/search.html")
        assert page.evaluate("new URLSearchParams(location.search).get('q')") == "boneyard"
        listed = page.evaluate("document.querySelectorAll('#search-page a.result').length")
        assert listed > 12  # more than the box shows
        assert f"{listed} result(s) for" in page.evaluate("document.querySelector('#search-page .count').textContent")
        assert page.errors == []


def test_the_index_a_rule_and_fixtures_fit_a_phone_and_are_kept_as_screenshots(site, tmp_path):
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        for name, path in SHOWN.items():
            for width in (1400, 480):
                page = browser.open((site / path).as_uri(), width=width, height=1000)
                assert page.errors == [], (path, width)
                overflow = page.evaluate(OVERFLOW)
                assert overflow <= 0, f"{path} at {width} px: {overflow} px of horizontal overflow"
                png = page.screenshot()
                assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) > 20_000
                shot = tmp_path / f"site-{name}-{width}px.png"
                shot.write_bytes(png)
                if artifacts:
                    Path(artifacts).mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(shot, Path(artifacts) / shot.name)
