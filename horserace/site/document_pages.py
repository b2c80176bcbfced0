"""The site's other pages: the index, the register (every entry on the anchor of its
ID, with the rules it bears on and, for each reading of its variant, the fixtures that
pin it), the glossary in its four languages (every term on an anchor, with the rules
that use it), the protocol, the fixture format and the changelog as documents with a
table of contents, the guides (the README and docs/, in ``guides/``), and the search
page."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from horserace._version import PROTOCOL_VERSION, __version__
from horserace.corpus.fixture import KINDS
from horserace.resources.documents import DOCUMENTS
from horserace.site.catalogue import DOCUMENT_PAGES, GUIDES, Catalogue, Links
from horserace.site.fixture_pages import KIND_TEXT
from horserace.site.markdown import Heading, Markdown
from horserace.site.pages import NAVIGATION, Page, e, frame, id_links, term_links

__all__ = [
    "Guide",
    "document_page",
    "glossary_page",
    "guide_pages",
    "guides",
    "index_page",
    "register_page",
    "search_page",
    "untitled",
]

_TOP = Links()
_GUIDE = Links("../")
#: The guides' first page, the README (the navigation's "Guides").
GUIDES_PAGE = DOCUMENT_PAGES["README.md"]
_NONE = '<span class="quiet">none</span>'


def untitled(text: str) -> tuple[str, str]:
    """A document's ``# Title`` line and the rest (the page gives the title its own ``<h1>``)."""
    first, _, rest = text.lstrip().partition("\n")
    return (first[2:].strip(), rest) if first.startswith("# ") else ("", text)


def _contents(headings: list[Heading], levels: tuple[int, ...] = (2, 3)) -> str:
    items = "".join(
        f'<li class="level-{h.level}"><a href="#{e(h.anchor)}">{e(h.text)}</a></li>'
        for h in headings
        if h.level in levels
    )
    return f'<nav class="contents" aria-label="contents"><ul>{items}</ul></nav>' if items else ""


def document_page(name: str, text: str | None, title: str, md: Markdown, *, missing: str = "") -> Page:
    """A document of the specification rendered whole, with its table of contents."""
    if text is None:
        return Page(name, frame(title, f'<p class="quiet">{e(missing)}</p>', _TOP, current=name))
    heading, rest = untitled(text)
    html, headings = md.document(rest, _TOP)
    body = _contents(headings) + f'<section class="document">{html}</section>'
    return Page(name, frame(heading or title, body, _TOP, current=name))


# ---------------------------------------------------------------- the guides
@dataclass(frozen=True)
class Guide:
    """A guide of the site: its file in the repository (``docs/perft.md``), its page
    (``guides/perft.html``), its title and its text (``None`` where this installation
    does not carry the file: a wheel has no docs/)."""

    source: str
    page: str
    title: str
    text: str | None


def guides(read: Callable[[str], str | None]) -> list[Guide]:
    """Every guide in the site's order, the README first and CONTRIBUTING.md last;
    ``read`` gives a file of the repository by its path, or ``None``."""
    sources = [("README.md", "Start here"), *((f"docs/{name}.md", title) for name, title in GUIDES)]
    sources.append(("CONTRIBUTING.md", "Contributing in detail"))
    return [Guide(source, DOCUMENT_PAGES[source], title, read(source)) for source, title in sources]


def _guide_list(all_guides: list[Guide], current: str) -> str:
    mark = ' aria-current="page"'
    items = "".join(
        f'<li><a href="{e(_GUIDE.page(g.page))}"{mark if g.page == current else ""}>{e(g.title)}</a></li>'
        for g in all_guides
        if g.text is not None
    )
    return f'<nav class="guides" aria-label="guides"><ul>{items}</ul></nav>'


def guide_pages(all_guides: list[Guide], md: Markdown) -> list[Page]:
    """A page per guide that this installation carries, each with the list of every
    guide and its own table of contents; without the README, one page that says so."""
    pages = []
    for guide in all_guides:
        if guide.text is None:
            continue
        heading, rest = untitled(guide.text)
        html, headings = md.document(rest, _GUIDE, source=guide.source)
        body = (
            _guide_list(all_guides, guide.page)
            + _contents(headings)
            + f'<section class="document guide">{html}</section>'
        )
        title = heading if guide.source != "README.md" else "Guides: start here"
        pages.append(Page(guide.page, frame(title or guide.title, body, _GUIDE, current=GUIDES_PAGE)))
    if not any(page.path == GUIDES_PAGE for page in pages):
        missing = (
            "This installation of horserace carries no guides (a wheel does not); "
            "the project's repository has them, in README.md and docs/."
        )
        pages.insert(
            0, Page(GUIDES_PAGE, frame("Guides", f'<p class="quiet">{e(missing)}</p>', _GUIDE, current=GUIDES_PAGE))
        )
    return pages


# ---------------------------------------------------------------- the register
def _readings(entry_id: str, cat: Catalogue) -> str:
    variant = cat.entries[entry_id].variant
    if not variant:
        return ""
    name = variant[0]
    rows = []
    for i, reading in enumerate(cat.readings_of(entry_id)):
        pinned = cat.pinning.get(entry_id, {}).get(reading, [])
        rulesets = cat.rulesets_selecting(name, reading)
        shown = " ".join(
            f'<a href="{e(_TOP.page(f"export/rulesets/{r}.json"))}"><code>{e(r)}</code></a>' for r in rulesets
        )
        canonical = ' <span class="badge">canonical</span>' if i == 0 else ""
        rows.append(
            f"<tr><td><code>{e(name)}={e(reading)}</code>{canonical}"
            f"</td><td>{shown or _NONE}</td>"
            f'<td class="num">{len(pinned)}</td><td>{id_links((fx.id for fx in pinned), _TOP.fixture)}</td></tr>'
        )
    return (
        "<h3>Readings and the fixtures that pin them</h3>"
        '<div class="wide"><table class="readings"><thead><tr><th>reading</th><th>bundled rulesets</th>'
        '<th class="num">fixtures</th><th>fixtures whose <code>variants</code> name it</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table></div>"
    )


def register_page(cat: Catalogue, md: Markdown, text: str) -> Page:
    heading, rest = untitled(text)
    preamble = rest.split("\n### ", 1)[0]
    summary = "".join(
        f'<tr><td><a href="#{e(entry_id)}"><code>{e(entry_id)}</code></a></td><td>{e(entry.title)}</td>'
        f"<td>{f'<code>{e(entry.variant[0])}</code>' if entry.variant else _NONE}</td>"
        f"<td>{id_links(cat.rules_of_entry.get(entry_id, []), _TOP.rule)}</td></tr>"
        for entry_id, entry in cat.entries.items()
    )
    sections = []
    for entry_id, entry in cat.entries.items():
        mentioned = cat.mentioned.get(entry_id, [])
        sections.append(
            f'<section class="entry" id="{e(entry_id)}"><h2><code>{e(entry_id)}</code> {e(entry.title)}</h2>'
            f"{md.render(entry.text, _TOP)}"
            f"<h3>Rules it bears on</h3><p>{id_links(cat.rules_of_entry.get(entry_id, []), _TOP.rule)}</p>"
            f"<h3>Glossary terms it uses</h3>{term_links(cat.terms_of_entry.get(entry_id, []), _TOP)}"
            f"{_readings(entry_id, cat)}"
            + (
                f"<h3>Fixtures whose why cites it</h3><p>{id_links((fx.id for fx in mentioned), _TOP.fixture)}</p>"
                if mentioned
                else ""
            )
            + "</section>"
        )
    body = (
        f'<section class="document">{md.render(preamble, _TOP)}</section>'
        '<div class="wide"><table class="register"><thead><tr><th>entry</th><th>question</th><th>variant field</th>'
        f"<th>rules</th></tr></thead><tbody>{summary}</tbody></table></div>" + "".join(sections)
    )
    return Page("register.html", frame(heading or "The register", body, _TOP, current="register.html"))


# ---------------------------------------------------------------- the glossary
def glossary_page(cat: Catalogue, md: Markdown, text: str) -> Page:
    heading, rest = untitled(text)
    preamble = rest.split("\n| English term", 1)[0]
    rows = []
    for term in cat.terms:
        rules = cat.rules_of_term.get(term.slug, [])
        entries = cat.entries_of_term.get(term.slug, [])
        words = "".join(f'<td lang="{e(code)}">{md.inline(term.words.get(code, ""), _TOP)}</td>' for code in DOCUMENTS)
        rows.append(
            f'<tr id="{e(term.slug)}"><th>{e(term.english)}</th><td>{md.inline(term.definition, _TOP)}</td>{words}'
            f'<td class="used"><span class="count">{len(rules)}</span> {id_links(rules, _TOP.rule)}</td>'
            f'<td class="used"><span class="count">{len(entries)}</span> {id_links(entries, _TOP.entry)}</td></tr>'
        )
    languages = "".join(f"<th>{e(language)}</th>" for language in DOCUMENTS.values())
    body = (
        f'<section class="document">{md.render(preamble, _TOP)}</section>'
        '<div class="wide"><table class="glossary"><thead><tr><th>English term</th><th>definition</th>'
        f"{languages}<th>rules that use it</th><th>register entries</th></tr></thead><tbody>{''.join(rows)}</tbody></table></div>"
    )
    return Page("glossary.html", frame(heading or "Glossary", body, _TOP, current="glossary.html"))


# ---------------------------------------------------------------- the index and search
def index_page(cat: Catalogue) -> Page:
    kinds = {kind: sum(1 for fx in cat.fixtures.values() if fx.kind == kind) for kind in KINDS}
    variants = sum(1 for entry in cat.entries.values() if entry.variant)
    groups: dict[str, list[str]] = {}
    for rule in cat.rules.values():
        groups.setdefault(rule.group, []).append(rule.id)
    rules = "".join(f"<tr><th>{e(group)}</th><td>{id_links(ids, _TOP.rule)}</td></tr>" for group, ids in groups.items())
    kind_rows = "".join(
        f'<tr><td><a href="fixtures.html#{e(k)}"><code>{e(k)}</code></a></td><td class="num">{n}</td>'
        f"<td>{e(KIND_TEXT[k])}</td></tr>"
        for k, n in kinds.items()
    )
    pages = "".join(f'<li><a href="{e(target)}">{e(label)}</a></li>' for target, label in NAVIGATION)
    body = f"""
<p class="lead">Horse Race is a domino game of the Fives family. Its rules exist as prose in three
languages (Indonesian, Italian, Finnish), and each leaves something out. This site is the specification
the horserace suite checks implementations against: {len(cat.rules)} rules with stable IDs, each citing
the sections of the three documents it comes from; {len(cat.entries)} register entries where the documents
are silent or disagree ({variants} of them with a variant); a glossary of {len(cat.terms)} terms in four
languages; and {len(cat.fixtures)} fixtures, every expected value derived by hand, every layout drawn.</p>
<p>Search with the box above: a rule ID (<code>HR-COUNT-4</code>), a fixture ID, a register entry
(<code>HRI-10</code>) or words in any of the four languages.</p>
<h2>The rules</h2>
<div class="wide"><table class="groups"><tbody>{rules}</tbody></table></div>
<p><a href="rules.html">The whole of spec/rules.md</a>, with the order of checks for illegal actions.</p>
<h2>The fixtures</h2>
<div class="wide"><table class="kinds"><thead><tr><th>kind</th><th class="num">fixtures</th><th>what it checks</th>
</tr></thead><tbody>{kind_rows}</tbody></table></div>
<h2>The guides</h2>
<p>How to use horserace, beside the specification: <a href="guides/index.html">start here</a>, then
checking an implementation, the reports, the tools for rule maintainers, perft, campaigns on a cluster,
robustness, performance, the commands and exit codes, versions, the engine from Python, the
architecture and contributing.</p>
<h2>Everything here</h2>
<ul class="pages">{pages}</ul>
<h2>The machine-readable corpus</h2>
<p>The <a href="export/manifest.json">JSON export</a> (what <code>horserace export --format json</code> writes)
holds every fixture file as JSON, the rulesets, the schemas and the documents of spec/, stamped with the
suite version {e(__version__)} and the protocol version {e(PROTOCOL_VERSION)}: fetch it from here to check
an implementation without running horserace's Python code.</p>
"""
    return Page("index.html", frame("Horse Race: the specification", body, _TOP))


def search_page() -> Page:
    body = (
        "<p>Results for the words in the search box: rules, fixtures, register entries, glossary terms "
        "and the sections of the guides. "
        "Every word must appear; an ID typed whole comes first.</p>"
        '<div id="search-page" class="search-page"><noscript>The search needs JavaScript; the '
        '<a href="rules.html">rules</a> and <a href="fixtures.html">fixtures</a> pages list everything.</noscript></div>'
    )
    return Page("search.html", frame("Search", body, _TOP))
