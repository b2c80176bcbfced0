"""The search index of the site: ``search-index.js``, one row for every rule, fixture,
register entry and glossary term, and for every section of every guide, read by the
site's own script (``static/search.js``).

A script, not a JSON file, so that the search works from ``file://`` (a browser does not
let a page fetch a file beside it there).  Each row is ``[kind, id, title, url, text]``:
``url`` relative to the site's top, ``text`` everything the row is found by, in lower
case and without accents (the script folds the query the same way).
"""

from __future__ import annotations

import json
import unicodedata
from dataclasses import dataclass

from horserace.corpus.fixture import Fixture
from horserace.resources.documents import DOCUMENTS, GlossaryTerm
from horserace.site.catalogue import Catalogue, Links
from horserace.site.document_pages import Guide
from horserace.site.markdown import Markdown

__all__ = ["SearchRow", "fold", "guide_rows", "search_rows", "search_script"]


def fold(text: str) -> str:
    """Lower case without accents: ``Pää`` is ``paa`` (as the script's ``fold``)."""
    decomposed = unicodedata.normalize("NFKD", text)
    return "".join(c for c in decomposed if not unicodedata.combining(c)).lower()


@dataclass(frozen=True)
class SearchRow:
    kind: str  #: rule, fixture, entry, term or guide
    id: str
    title: str
    url: str
    text: str

    def as_list(self) -> list[str]:
        return [self.kind, self.id, self.title, self.url, fold(f"{self.id} {self.title} {self.text}")]


def search_rows(cat: Catalogue) -> list[SearchRow]:
    """A row for every rule, register entry, glossary term and fixture, in that order."""
    links = Links()
    rules = [
        SearchRow("rule", r.id, r.title, links.rule(r.id), " ".join([r.group, r.statement, *r.sources.values()]))
        for r in cat.rules.values()
    ]
    entries = [
        SearchRow("entry", i, entry.title, links.entry(i), " ".join([entry.text, *cat.rules_of_entry.get(i, [])]))
        for i, entry in cat.entries.items()
    ]
    terms = [
        SearchRow("term", t.english, _words(t), links.term(t), t.definition)  # found by its words too
        for t in cat.terms
    ]
    fixtures = [
        SearchRow(
            "fixture",
            fx.id,
            fx.description,
            links.fixture(fx.id),
            " ".join([fx.kind, *fx.rules, *_readings(fx), fx.why]),
        )
        for fx in cat.fixtures.values()
    ]
    return rules + entries + terms + fixtures


def guide_rows(guides: list[Guide], md: Markdown) -> list[SearchRow]:
    """A row for every section of every guide this installation carries: its file
    (``docs/perft.md``) as the ID, the guide's title and the section's as the title, the
    section's anchor as the link, its text (code included) as what it is found by."""
    rows = []
    for guide in guides:
        if guide.text is None:
            continue
        for heading, text in md.sections(guide.text, source=guide.source):
            if heading is None or heading.level == 1:
                rows.append(SearchRow("guide", guide.source, guide.title, guide.page, text))
            else:
                title = f"{guide.title}: {heading.text}"
                rows.append(SearchRow("guide", guide.source, title, f"{guide.page}#{heading.anchor}", text))
    return rows


def _words(term: GlossaryTerm) -> str:
    """A term's word in each document: ``Indonesian ubin · Italian tessera · Finnish laatta``."""
    return " · ".join(f"{language} {term.words.get(code, '—')}" for code, language in DOCUMENTS.items())


def _readings(fx: Fixture) -> list[str]:
    return [f"{name}={reading}" for name, reading in fx.variants.items()]


def search_script(rows: list[SearchRow]) -> str:
    """The index as a script that sets ``window.HORSERACE_SEARCH`` (``<`` written ``\\u003c``: no
    text of a fixture can close a script element, even one the index is pasted into)."""
    data = json.dumps([row.as_list() for row in rows], ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
    return f"window.HORSERACE_SEARCH = {data};\n"
