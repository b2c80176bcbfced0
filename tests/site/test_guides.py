"""The guides (README.md and docs/*.md): every link of each resolves in the repository,
a relative file and a ``#anchor`` (parsed with markdown-it-py, as GitHub renders them),
and ``horserace site`` renders each one into the site of the specification: a page per
guide, under the one navigation, its links to other guides and to the specification
kept, and every section in the one search."""

from __future__ import annotations

import json
import posixpath
import subprocess
import sys
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt

from horserace.site.catalogue import DOCUMENT_PAGES, GUIDES, make_catalogue
from horserace.site.document_pages import guide_pages, guides
from horserace.site.markdown import Markdown, slug
from tests.helpers import markdown_links
from tests.site.crawl import ids_of, links_of

ROOT = Path(__file__).resolve().parents[2]
#: The README and every guide, as the repository holds them.
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")), ROOT / "CONTRIBUTING.md"]


def _parse(markdown: str):
    return MarkdownIt("commonmark").enable("table").parse(markdown)


def anchors(markdown: str) -> set[str]:
    """The anchors GitHub gives a document's headings (a second "Changes" is changes-1)."""
    tokens = _parse(markdown)
    found: set[str] = set()
    for i, token in enumerate(tokens):
        if token.type == "heading_open":
            text = "".join(child.content for child in tokens[i + 1].children or [])
            base = anchor = slug(text)
            n = 1
            while anchor in found:
                anchor, n = f"{base}-{n}", n + 1
            found.add(anchor)
    return found


def dead_links(document: Path, root: Path = ROOT) -> list[str]:
    """Every relative link of ``document`` whose file does not exist under ``root``, or
    whose ``#anchor`` is no heading of the Markdown file it names."""
    dead = []
    for href in markdown_links(document.read_text(encoding="utf-8")):
        parts = urlsplit(href)
        if parts.scheme or parts.netloc:
            continue
        target = (document.parent / unquote(parts.path)).resolve() if parts.path else document
        where = f"{document.relative_to(root)}: {href}"
        if not target.is_relative_to(root) or not target.exists():
            dead.append(f"{where}: no such file")
        elif (
            parts.fragment
            and target.suffix == ".md"
            and unquote(parts.fragment) not in anchors(target.read_text(encoding="utf-8"))
        ):
            dead.append(f"{where}: no heading {parts.fragment!r} in {target.name}")
    return dead


def test_every_link_of_the_readme_and_the_guides_resolves():
    relative = [
        href
        for document in DOCUMENTS
        for href in markdown_links(document.read_text(encoding="utf-8"))
        if not urlsplit(href).scheme
    ]
    assert len(relative) > 50  # the README's table of guides, the guides' links to each other
    assert [dead for document in DOCUMENTS for dead in dead_links(document)] == []


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "other.md").write_text("# Other\n\n## Perft tables\n\n## Perft tables\n", encoding="utf-8")
    guide = tmp_path / "docs" / "guide.md"
    guide.write_text(
        "# Guide\n\n## Here\n\n[fine](other.md#perft-tables) [second](other.md#perft-tables-1) [self](#here) "
        "[web](https://example.org/x.md#nowhere)\n\n[file](missing.md) [anchor](other.md#perft) [own](#gone) "
        "[up](../../outside.md)\n",
        encoding="utf-8",
    )
    assert dead_links(guide, tmp_path) == [
        "docs/guide.md: missing.md: no such file",
        "docs/guide.md: other.md#perft: no heading 'perft' in other.md",
        "docs/guide.md: #gone: no heading 'gone' in guide.md",
        "docs/guide.md: ../../outside.md: no such file",
    ]


def test_every_guide_of_docs_is_listed_and_has_its_page(site):
    assert {path.stem for path in (ROOT / "docs").glob("*.md")} == {name for name, _ in GUIDES}
    for source, page in DOCUMENT_PAGES.items():
        if source == "README.md" or source.startswith("docs/") or source == "CONTRIBUTING.md":
            assert (site / page).is_file(), page
            text = (site / page).read_text(encoding="utf-8")
            assert 'aria-label="guides"' in text and 'href="../guides/index.html" aria-current="page">Guides' in text
    # The one navigation: every page of the site leads to the guides.
    for page in ("index.html", "rules/HR-COUNT-4.html", "search.html"):
        hrefs = {value for _, attribute, value in links_of(site / page) if attribute == "href"}
        assert {"guides/index.html", "../guides/index.html"} & hrefs, page


def test_a_guides_links_to_guides_and_to_the_spec_are_kept_on_its_page(site):
    """Each link of a guide to another guide or a document of the specification is a
    link of its page on the site, to that document's page and anchor (a rule's heading
    goes to the rule's page); a link to a file the site has no page for (an example's
    folder) keeps its text."""
    kept = 0
    for document in DOCUMENTS:
        source = document.relative_to(ROOT).as_posix()
        page = site / DOCUMENT_PAGES[source]
        shown = {value for _, attribute, value in links_of(page) if attribute == "href"}
        for href in markdown_links(document.read_text(encoding="utf-8")):
            path, _, anchor = href.partition("#")
            if urlsplit(href).scheme or not path:
                continue
            target = posixpath.normpath(posixpath.join(posixpath.dirname(source), path))
            if target not in DOCUMENT_PAGES or (target == "spec/rules.md" and anchor.startswith("hr-")):
                continue
            expected = "../" + DOCUMENT_PAGES[target] + (f"#{anchor}" if anchor else "")
            assert expected in shown, (source, href)
            kept += 1
    assert kept > 40


def test_every_section_of_every_guide_is_in_the_search(site):
    text = (site / "search-index.js").read_text(encoding="utf-8")
    rows = json.loads(text[len("window.HORSERACE_SEARCH = ") : -2])
    found = [row for row in rows if row[0] == "guide"]
    assert {row[1] for row in found} == {document.relative_to(ROOT).as_posix() for document in DOCUMENTS}
    for _kind, _source, _title, url, _haystack in found:
        path, _, anchor = url.partition("#")
        assert (site / path).is_file() and (not anchor or anchor in ids_of(site / path)), url
    tables = next(row for row in found if row[3] == "guides/perft.html#perft-tables")
    assert tables[2] == "Perft: Perft tables" and "seed-1-players-3" in tables[4]
    assert any("no-color.org" in row[4] for row in found)  # a section's words, not only its title


def test_an_installation_without_the_guides_says_so_on_one_page(corpus):
    """A wheel carries no docs/: the navigation's Guides page says where they are."""
    pages = guide_pages(guides(lambda _name: None), Markdown(make_catalogue(corpus.fixtures[:1])))
    assert [page.path for page in pages] == ["guides/index.html"]
    assert "carries no guides" in pages[0].text


def test_the_moved_text_check_names_a_lost_sentence_and_not_a_reflowed_one(tmp_path):
    """tools/moved_text.py, which checked that the README's text lived on in the guides:
    a paragraph reflowed, a list item moved and a table row kept are found; a sentence
    dropped from a paragraph is named, alone."""
    old = tmp_path / "old.md"
    old.write_text(
        "# Old\n\nA first sentence that moves. A second that is lost.\n\n- an item\n  on two lines\n\n"
        "| a | b |\n|---|---|\n| `x` | y |\n\n```sh\nhorserace conform\n```\n",
        encoding="utf-8",
    )
    new = tmp_path / "new.md"
    new.write_text(
        "# New\n\n## Heading\n\nA first sentence\nthat moves.\n\n* an item on two lines\n\n| a | b |\n| --- | --- |\n| `x` | y |\n\n"
        "    horserace conform\n",
        encoding="utf-8",
    )
    tool = ROOT / "tools" / "moved_text.py"
    result = subprocess.run([sys.executable, str(tool), str(old), str(new)], capture_output=True, text=True)
    assert result.returncode == 1, result.stderr
    assert result.stdout.splitlines()[0] == "- A second that is lost."
    new.write_text(new.read_text(encoding="utf-8") + "\nA second that is lost.\n", encoding="utf-8")
    result = subprocess.run([sys.executable, str(tool), str(old), str(new)], capture_output=True, text=True)
    assert result.returncode == 0 and "0 sentence(s) not found" in result.stdout
