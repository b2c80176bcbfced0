"""The site in Debian's Chromium, driven through the DevTools protocol
(tests/reports/devtools.py), from ``file://``: every page loads without a console error,
every layout and play fixture page shows its drawings, the search box finds by rule ID,
fixture ID and word and leads to the page, its results can be read (WCAG AA contrast of
every text in them, on every kind of page, in every colour scheme) and used from the
keyboard alone, the search page lists results, and the index, a rule page and fixture
pages have no horizontal overflow on a phone.  Screenshots of the index, one rule page
and two fixture pages go to ``$HORSERACE_ARTIFACTS`` (``site-*.png``)."""

from __future__ import annotations

import json
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
    "guide-implementers": "guides/implementers.html",
}


#: The contrast of every text of the elements that match a selector against what is
#: behind it: the first opaque background of it or an ancestor, the translucent ones
#: between composited over it (and the page's canvas under all), the text's own alpha and
#: its ancestors' opacity applied.  [[text, colour, background, ratio], ...] of each visible
#: element holding text, or of an element the test cannot judge (a background image) with
#: ratio 0.
CONTRAST = """(selector => {
  const rgba = text => {
    const m = /^rgba?\\(([^)]*)\\)$/.exec(text.trim());
    if (!m) { throw new Error('a colour the test cannot read: ' + text); }
    const p = m[1].split(/[\\s,\\/]+/).filter(Boolean).map(Number);
    return [p[0], p[1], p[2], p.length > 3 ? p[3] : 1];
  };
  const over = (top, under) => [0, 1, 2].map(i => top[i] * top[3] + under[i] * (1 - top[3])).concat([1]);
  const luminance = c => {
    const l = c.slice(0, 3).map(v => { v /= 255; return v <= 0.04045 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4); });
    return 0.2126 * l[0] + 0.7152 * l[1] + 0.0722 * l[2];
  };
  const scheme = getComputedStyle(document.documentElement).colorScheme;
  const dark = scheme.includes('dark') && (!scheme.includes('light') || matchMedia('(prefers-color-scheme: dark)').matches);
  const canvas = dark ? [18, 18, 18, 1] : [255, 255, 255, 1];
  const out = [];
  const judge = element => {
    const style = getComputedStyle(element);
    if (!element.getClientRects().length || style.visibility !== 'visible') { return; }
    const layers = [];
    let opacity = 1;
    let image = false;
    for (let e = element; e; e = e.parentElement) {
      const s = getComputedStyle(e);
      opacity *= Number(s.opacity);
      if (s.backgroundImage !== 'none') { image = true; }
      const bg = rgba(s.backgroundColor);
      if (bg[3] > 0 && layers.every(l => l[3] < 1)) { layers.push(bg); }
    }
    let behind = canvas;
    layers.reverse().forEach(l => { behind = over(l, behind); });
    const ink = rgba(style.color);
    const seen = over([ink[0], ink[1], ink[2], ink[3] * opacity], behind);
    const [a, b] = [luminance(seen), luminance(behind)];
    const ratio = (Math.max(a, b) + 0.05) / (Math.min(a, b) + 0.05);
    const own = [...element.childNodes].filter(n => n.nodeType === 3).map(n => n.textContent).join('').trim();
    out.push([own, style.color, 'rgb(' + behind.slice(0, 3).map(Math.round).join(', ') + ')', image ? 0 : ratio]);
  };
  document.querySelectorAll(selector).forEach(root => {
    [root, ...root.querySelectorAll('*')].forEach(e => {
      if ([...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim())) { judge(e); }
    });
  });
  return out;
})"""
#: What the search box shows, and the search page lists.
BOX = "form.search .search-results > *"
LISTED = "#search-page .search-results > *"
#: One page of each kind: the index, a rule, a fixture, a document, a guide, the search page.
KINDS_OF_PAGE = (
    "index.html",
    "rules/HR-COUNT-4.html",
    "fixtures/8A5JZE.html",
    "protocol.html",
    "guides/perft.html",
    "search.html",
)
#: The key codes of the keys the tests press.
_KEY_CODES = {"ArrowDown": 40, "ArrowUp": 38, "Home": 36, "End": 35, "Enter": 13, "Escape": 27, "/": 191}


def contrast(page: Page, selector: str) -> list[Any]:
    return list(page.evaluate(f"{CONTRAST}({json.dumps(selector)})"))


def color_scheme(page: Page, scheme: str) -> None:
    """Make the page's ``prefers-color-scheme`` ``scheme`` (``light`` or ``dark``)."""
    page.browser.send(
        "Emulation.setEmulatedMedia",
        {"features": [{"name": "prefers-color-scheme", "value": scheme}]},
        session=page.session,
    )


def press(page: Page, key: str) -> None:
    """One key pressed and released, as a keyboard sends it (a printable key with its
    text, which the focused field receives)."""
    code = _KEY_CODES[key] if key in _KEY_CODES else ord(key.upper())
    text = {"Enter": "\r"}.get(key, key if len(key) == 1 else "")
    down: dict[str, Any] = {"type": "keyDown" if text else "rawKeyDown", "key": key, "windowsVirtualKeyCode": code}
    if text:
        down["text"] = text
    page.browser.send("Input.dispatchKeyEvent", down, session=page.session)
    page.browser.send(
        "Input.dispatchKeyEvent", {"type": "keyUp", "key": key, "windowsVirtualKeyCode": code}, session=page.session
    )


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
        for hand, outcome in zip(fx.input["hands"], fx.expected["hands"], strict=True)
    )


def _pages_to_open(site: Path, fixtures: dict) -> list[Path]:
    """Every page at the top, every layout and play fixture page (the drawings), and a
    few of each other kind: the rest share their script and stylesheet with these, and
    the crawler of test_site.py has checked every link of every page."""
    drawn = [site / "fixtures" / f"{i}.html" for i, fx in fixtures.items() if fx.kind in ("layout", "play")]
    others: dict[str, list[Path]] = {}
    for i, fx in fixtures.items():
        others.setdefault(fx.kind, []).append(site / "fixtures" / f"{i}.html")
    rules = sorted((site / "rules").glob("*.html"))
    return [
        *sorted(site.glob("*.html")),
        *sorted(site.glob("guides/*.html")),
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

        # A guide's section is found by its words, from a guide's page too (one folder down).
        navigate(page, (site / "guides" / "cluster.html").as_uri())
        tables = type_into_search(page, "perft tables")
        guide = next(found for found in tables if found[0] == "result guide")
        assert guide[1] == (site / "guides" / "perft.html").as_uri() + "#perft-tables"
        assert "Perft: Perft tables" in guide[2]

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


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_search_results_can_be_read_on_every_kind_of_page(site, tmp_path, scheme):
    """Every text in the search box's results (and in the search page's list) stands out
    from what is behind it by WCAG AA's 4.5:1, the active result's too, on one page of
    each kind, whether the reader's system prefers a light or a dark scheme (the site
    has one scheme, ``color-scheme: light``; under a preferred dark one it must stay
    legible, and a dark scheme added later is checked here as it comes)."""
    failures: list[str] = []
    judged = 0
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open("about:blank", width=1400, height=900)
        color_scheme(page, scheme)
        for path in KINDS_OF_PAGE:
            navigate(page, (site / path).as_uri() + ("?q=boneyard" if path == "search.html" else ""))
            states = {}
            type_into_search(page, "boneyard")  # rules, register entries, terms, fixtures and "All results"
            states["results"] = contrast(page, BOX)
            press(page, "ArrowDown")
            press(page, "ArrowDown")
            highlighted = "form.search .search-results a.active, form.search .search-results a:focus"
            assert page.evaluate(f"document.querySelectorAll({json.dumps(highlighted)}).length") == 1, path
            states["the second active"] = contrast(page, BOX)
            type_into_search(page, "qqxqqxqq")
            states["no result"] = contrast(page, BOX)
            if path == "search.html":
                states["the page's list"] = contrast(page, LISTED)
            for state, found in states.items():
                assert found, f"{path}, {state}: no text shown"
                judged += len(found)
                failures += [
                    f"{path} ({scheme}), {state}: {text!r} {color} on {behind}: {ratio:.2f}:1"
                    for text, color, behind, ratio in found
                    if ratio < 4.5
                ]
            assert page.errors == [], path
    assert failures == []
    assert judged > len(KINDS_OF_PAGE) * 3 * 20


def test_the_contrast_check_catches_white_on_white(tmp_path):
    """The check above, on a page made to fail it: white text on a white box, grey on a
    translucent grey over white, text faded by its parent's opacity."""
    (tmp_path / "page.html").write_text(
        '<body style="background: #fff"><div class="r"><a style="color: #fff">white</a>'
        '<span style="color: #777; background: rgba(0,0,0,0.1)">grey</span>'
        '<span style="opacity: 0.3"><b style="color: #000">faded</b></span>'
        '<i style="color: #000">black</i></div></body>',
        encoding="utf-8",
    )
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((tmp_path / "page.html").as_uri(), width=800, height=600)
        found = {text: round(ratio, 2) for text, _, _, ratio in contrast(page, "div.r")}
    assert found == {"white": 1.0, "grey": 3.57, "faded": 2.11, "black": 21.0}


def test_the_search_works_from_the_keyboard_alone(site, tmp_path):
    """No click: "/" focuses the search box, keys type the words, ArrowDown and ArrowUp
    (Home, End) move the active result (the box keeps the focus, so typing goes on; the result is
    named by aria-activedescendant and highlighted), Escape closes the results, Enter
    opens the active one."""
    with Browser(chromium_path(), tmp_path / "profile") as browser:
        page = browser.open((site / "fixtures" / "8A5JZE.html").as_uri(), width=1400, height=900)
        box = "document.querySelector('form.search .search-results')"
        state = (
            "(() => { const i = document.getElementById('search-box'); const a = i.getAttribute('aria-activedescendant');"
            f" return {{focus: document.activeElement.id, value: i.value, open: !{box}.hidden,"
            " expanded: i.getAttribute('aria-expanded'), active: a,"
            " selected: [...document.querySelectorAll('form.search [aria-selected=true]')].map(e => e.id),"
            f" ids: [...{box}.querySelectorAll('a')].map(e => e.id), hrefs: [...{box}.querySelectorAll('a')].map(e => e.href),"
            " background: a ? getComputedStyle(document.getElementById(a)).backgroundColor : null}; })()"
        )
        assert page.evaluate("document.activeElement === document.body")
        press(page, "/")
        now = page.evaluate(state)
        assert (now["focus"], now["value"], now["open"]) == ("search-box", "", False)
        for key in "spinner":
            press(page, key)
        now = page.evaluate(state)
        assert now["value"] == "spinner" and now["open"] and now["expanded"] == "true"
        assert now["active"] is None and len(now["ids"]) > 3 and all(now["ids"])
        plain = page.evaluate(f"getComputedStyle({box}.querySelector('a')).backgroundColor")

        for key in ("ArrowDown", "ArrowDown", "ArrowDown", "ArrowUp"):
            press(page, key)
        now = page.evaluate(state)
        assert now["focus"] == "search-box"  # the focus stays in the box: typing goes on
        assert now["active"] == now["ids"][1] and now["selected"] == [now["ids"][1]]
        assert now["background"] != plain  # the active result is highlighted

        press(page, "End")
        assert page.evaluate(state)["active"] == now["ids"][-1]
        press(page, "Home")
        assert page.evaluate(state)["active"] == now["ids"][0]
        press(page, "ArrowUp")  # above the first: back to the words typed, no result active
        now = page.evaluate(state)
        assert (now["open"], now["active"], now["selected"]) == (True, None, [])

        press(page, "Escape")
        now = page.evaluate(state)
        assert (now["open"], now["expanded"], now["active"], now["focus"]) == (False, "false", None, "search-box")
        press(page, "ArrowDown")  # opens the results again, the first active
        now = page.evaluate(state)
        assert now["open"] and now["active"] == now["ids"][0]
        press(page, "ArrowDown")
        chosen = page.evaluate(state)["hrefs"][1]
        assert chosen.startswith(site.as_uri()) and chosen != page.evaluate("location.href")
        press(page, "Enter")
        browser.wait_for("Page.loadEventFired", page.session)
        assert page.evaluate("location.href") == chosen

        press(page, "/")
        press(page, "/")  # in the box, "/" is typed, not taken as the shortcut
        assert page.evaluate(state)["value"] == "/"
        assert page.errors == []
