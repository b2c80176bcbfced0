"""What every page of the site shares: the frame (navigation, the search box, the
footer with the versions), and the small pieces of HTML the pages are made of.

Every text that comes from a document or a fixture goes through
:func:`horserace.reports.escape.for_html` (or the Markdown renderer, which escapes);
:func:`linked` also turns the IDs in it into links.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from horserace._version import PROTOCOL_VERSION, __version__
from horserace.corpus.fixture import Fixture
from horserace.reports.escape import for_html
from horserace.resources.documents import GlossaryTerm
from horserace.site.catalogue import Catalogue, Links

__all__ = [
    "NAVIGATION",
    "Page",
    "e",
    "fixture_table",
    "frame",
    "id_links",
    "json_block",
    "linked",
    "readings_text",
    "term_links",
    "tile_list",
]

#: The site's main pages, in the order the navigation lists them: (file, label).
NAVIGATION = (
    ("rules.html", "Rules"),
    ("fixtures.html", "Fixtures"),
    ("register.html", "Register"),
    ("glossary.html", "Glossary"),
    ("protocol.html", "Protocol"),
    ("fixture-format.html", "Fixture format"),
    ("changelog.html", "Changelog"),
    ("guides/index.html", "Guides"),
    ("export/manifest.json", "JSON export"),
)


_CURRENT = ' aria-current="page"'


@dataclass(frozen=True)
class Page:
    """One file of the site: its path under the site's folder and its text."""

    path: str
    text: str


def e(value: object) -> str:
    """Any value as HTML text or a quoted attribute value."""
    return for_html(str(value))


def linked(text: str, catalogue: Catalogue, links: Links) -> str:
    """Plain text (a fixture's ``why``, a description) as HTML, every rule, register
    entry and fixture ID in it a link."""
    out: list[str] = []
    at = 0
    for ref in catalogue.references(text, links):
        out.append(e(text[at : ref.start]))
        out.append(f'<a class="ref" href="{e(ref.href)}">{e(ref.text)}</a>')
        at = ref.end
    out.append(e(text[at:]))
    return "".join(out)


def tile_list(tiles: Iterable[object]) -> str:
    shown = " ".join(f"<code>{e(t)}</code>" for t in tiles)
    return shown or '<span class="quiet">none</span>'


def json_block(value: Any) -> str:
    return f"<pre>{e(json.dumps(value, indent=2, ensure_ascii=False))}</pre>"


def frame(title: str, body: str, links: Links, *, current: str = "", heading: str | None = None) -> str:
    """A whole page: ``body`` inside the site's frame.  ``current`` is the navigation
    entry to mark; ``heading`` the page's ``<h1>`` (HTML), by default its title."""
    nav = "".join(
        f'<a href="{e(links.page(target))}"{_CURRENT if target == current else ""}>{e(label)}</a>'
        for target, label in NAVIGATION
    )
    return "\n".join(
        [
            "<!DOCTYPE html>",
            f'<html lang="en" data-root="{e(links.root)}">',
            "<head>",
            '<meta charset="utf-8">',
            '<meta name="viewport" content="width=device-width, initial-scale=1">',
            f"<title>{e(title)} · Horse Race specification</title>",
            f'<link rel="stylesheet" href="{e(links.page("style.css"))}">',
            f'<script src="{e(links.page("search-index.js"))}" defer></script>',
            f'<script src="{e(links.page("search.js"))}" defer></script>',
            "</head>",
            "<body>",
            '<header class="site">',
            f'<a class="home" href="{e(links.page("index.html"))}">Horse Race <span>specification</span></a>',
            f'<nav aria-label="site">{nav}</nav>',
            (
                f'<form class="search" role="search" action="{e(links.page("search.html"))}" method="get">'
                '<label for="search-box">Search rules, fixtures and guides</label>'
                '<input id="search-box" name="q" type="search" autocomplete="off" aria-keyshortcuts="/" '
                'placeholder="a rule ID, a fixture ID, a word (press /)">'
                '<div class="search-results" role="listbox" hidden></div></form>'
            ),
            "</header>",
            "<main>",
            f"<h1>{heading if heading is not None else e(title)}</h1>",
            body,
            "</main>",
            (
                '<footer class="site">'
                f"Horse Race specification suite {e(__version__)}, protocol {e(PROTOCOL_VERSION)}. "
                f"Made by <code>horserace site</code> from spec/ and scenarios/; the machine-readable corpus is in "
                f'<a href="{e(links.page("export/manifest.json"))}">the JSON export</a>.'
                "</footer>"
            ),
            "</body>",
            "</html>",
            "",
        ]
    )


def readings_text(variants: dict[str, str], catalogue: Catalogue, links: Links) -> str:
    """A fixture's ``variants`` as links to the register entries they are readings of."""
    parts = []
    for name, reading in variants.items():
        entry = catalogue.entry_of_field.get(name)
        text = f"<code>{e(name)}={e(reading)}</code>"
        parts.append(f'<a class="ref" href="{e(links.entry(entry))}">{text}</a>' if entry else text)
    return ", ".join(parts) or '<span class="quiet">every reading</span>'


def fixture_table(fixtures: Iterable[Fixture], catalogue: Catalogue, links: Links, *, rule: str | None = None) -> str:
    """A table of fixtures: ID, kind, description, primary rule, readings.  With
    ``rule``, the fixtures whose primary rule it is are marked."""
    rows = []
    for fx in fixtures:
        primary = fx.primary_rule
        mark = ' class="primary"' if rule and primary == rule else ""
        deprecated = ' <span class="badge">deprecated</span>' if fx.deprecated else ""
        rows.append(
            f'<tr{mark}><td><a href="{e(links.fixture(fx.id))}"><code>{e(fx.id)}</code></a></td>'
            f"<td>{e(fx.kind)}</td><td>{linked(fx.description, catalogue, links)}{deprecated}</td>"
            f'<td><a class="ref" href="{e(links.rule(primary))}"><code>{e(primary)}</code></a></td>'
            f"<td>{readings_text(fx.variants, catalogue, links)}</td></tr>"
        )
    if not rows:
        return '<p class="quiet">None.</p>'
    return (
        '<div class="wide"><table class="fixtures"><thead><tr><th>fixture</th><th>kind</th><th>description</th>'
        "<th>primary rule</th><th>readings</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )


def id_links(ids: Iterable[str], href: Callable[[str], str]) -> str:
    """IDs as a row of links (``href`` makes each one's link)."""
    shown = " ".join(f'<a class="ref" href="{e(href(i))}"><code>{e(i)}</code></a>' for i in ids)
    return shown or '<span class="quiet">none</span>'


def term_links(terms: Iterable[GlossaryTerm], links: Links) -> str:
    """Glossary terms as a row of links to their anchors in the glossary."""
    shown = " · ".join(f'<a class="ref" href="{e(links.term(t))}">{e(t.english)}</a>' for t in terms)
    return f'<p class="terms">{shown}</p>' if shown else '<p class="quiet">None.</p>'
