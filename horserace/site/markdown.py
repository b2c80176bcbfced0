"""The documents' Markdown as HTML: CommonMark with GitHub's tables, by markdown-it-py,
with two additions of the site's own, made on the token stream (never on the HTML):

* every heading gets an ``id``: a rule's heading its rule ID (``HR-COUNT-4``), a register
  entry's its entry ID (``HRI-10``), any other heading the slug GitHub would give it;
* every rule ID, register entry ID and fixture ID in the text, and every code span that
  is one or that names a document of the specification (``spec/protocol.md``) or a guide
  (``docs/perft.md``), becomes a link to its page
  (:meth:`horserace.site.catalogue.Catalogue.href`); a document's own links to another
  (``[...](rules.md#order-of-checks-for-illegal-actions)``, a guide's
  ``[...](../spec/rules.md)`` or ``[...](perft.md#perft-tables)``) go to that document's
  page, and a link to a file the site does not have is dropped, its text kept.

Raw HTML in a document is shown as text (``html: False``), and control characters are
made visible first (:func:`horserace.reports.escape.for_markdown`): nothing in a
document can add markup to a page.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore
from markdown_it.token import Token

from horserace.reports.escape import for_markdown
from horserace.site.catalogue import Catalogue, Links

__all__ = ["Heading", "Markdown", "slug"]

_ID_HEADING = re.compile(r"^(HRI?-(?:[A-Z]+-)?\d+):")


def slug(text: str) -> str:
    """A heading's link target as GitHub makes it (lower case, punctuation dropped,
    spaces as hyphens), as :attr:`horserace.resources.documents.Rule.anchor` does."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


@dataclass(frozen=True)
class Heading:
    level: int
    anchor: str
    text: str


@dataclass
class Markdown:
    """The renderer of one site: the catalogue says what an ID links to."""

    catalogue: Catalogue

    def __post_init__(self) -> None:
        self.md = MarkdownIt("commonmark", {"html": False}).enable("table")
        self.md.core.ruler.push("horserace_heading_ids", self._heading_ids)
        self.md.core.ruler.push("horserace_references", self._references)

    def render(self, text: str, links: Links) -> str:
        return self.document(text, links)[0]

    def document(self, text: str, links: Links, *, source: str | None = None) -> tuple[str, list[Heading]]:
        """The HTML of a document and its headings (for a table of contents).  ``source``
        is the document's path in the repository (``docs/perft.md``): its relative links
        are read from its folder.  Without it, as spec/'s documents write them: relative
        to spec/ or to the top."""
        env: dict[str, Any] = {"links": links, "ids": set(), "headings": [], "source": source}
        tokens = self.md.parse(for_markdown(text), env)
        return self.md.renderer.render(tokens, self.md.options, env), env["headings"]

    def sections(self, text: str, *, source: str | None = None) -> list[tuple[Heading | None, str]]:
        """A document cut at its headings: each heading (``None`` for the text before the
        first) with the plain text under it, code included (what the search finds it by)."""
        env: dict[str, Any] = {"links": Links(), "ids": set(), "headings": [], "source": source}
        tokens = self.md.parse(for_markdown(text), env)
        headings = iter(env["headings"])
        found: list[tuple[Heading | None, list[str]]] = [(None, [])]
        inside_heading = False
        for token in tokens:
            if token.type == "heading_open":
                found.append((next(headings), []))
                inside_heading = True
            elif token.type == "heading_close":
                inside_heading = False
            elif not inside_heading and (token.type == "inline" or token.type in ("fence", "code_block")):
                found[-1][1].append(token.content)
        return [(heading, " ".join(" ".join(parts).split())) for heading, parts in found if heading or parts]

    def inline(self, text: str, links: Links) -> str:
        """One line of Markdown (a table cell, a source line) without its paragraph."""
        env: dict[str, Any] = {"links": links, "ids": set(), "headings": []}
        return str(self.md.renderInline(for_markdown(text), env))

    # ------------------------------------------------------------ the core rules
    @staticmethod
    def _heading_ids(state: StateCore) -> None:
        taken: set[str] = state.env.setdefault("ids", set())
        tokens = state.tokens
        for i, token in enumerate(tokens):
            if token.type != "heading_open" or i + 1 >= len(tokens):
                continue
            text = tokens[i + 1].content
            named = _ID_HEADING.match(text)
            anchor = base = named.group(1) if named else slug(text)
            n = 1
            while anchor in taken:  # as GitHub: the second "Changes" is changes-1
                anchor, n = f"{base}-{n}", n + 1
            taken.add(anchor)
            token.attrSet("id", anchor)
            plain = "".join(child.content for child in tokens[i + 1].children or [] if child.type != "softbreak")
            state.env.setdefault("headings", []).append(Heading(int(token.tag[1:]), anchor, plain))

    def _references(self, state: StateCore) -> None:
        links: Links = state.env.get("links") or Links()
        source: str | None = state.env.get("source")
        for token in state.tokens:
            if token.type == "inline" and token.children:
                token.children = self._linked(token.children, links, source)

    def _linked(self, children: list[Token], links: Links, source: str | None = None) -> list[Token]:
        out: list[Token] = []
        inside_link = 0
        kept: list[bool] = []  # for each open link: whether its link survives
        for child in children:
            if child.type == "link_open":
                inside_link += 1
                target = self._target(str(child.attrGet("href") or ""), links, source)
                kept.append(target is not None)
                if target is not None:
                    child.attrSet("href", target)
                    out.append(child)
                continue
            if child.type == "link_close":
                inside_link -= 1
                if kept.pop():
                    out.append(child)
                continue
            if inside_link:
                out.append(child)
            elif child.type == "code_inline":
                href = self.catalogue.href(child.content, links)
                out += _wrapped([child], href) if href else [child]
            elif child.type == "text":
                out += self._split(child, links)
            else:
                out.append(child)
        return out

    def _target(self, href: str, links: Links, source: str | None = None) -> str | None:
        """Where a link of a document goes on the site: a web address or an anchor of the
        same page as it is, a document of the specification or a guide (relative to the
        folder of ``source``; without it relative to spec/, or to the top for the
        changelog) to its page, anything else nowhere (the link is dropped and its text
        stays: the site has no such file)."""
        if urlsplit(href).scheme or href.startswith("#"):
            return href
        path, _, anchor = href.partition("#")
        if source is not None:
            candidates: tuple[str, ...] = (posixpath.normpath(posixpath.join(posixpath.dirname(source), path)),)
        else:
            candidates = (path, posixpath.normpath(posixpath.join("spec", path)))
        for candidate in candidates:
            target = self.catalogue.href(candidate + (f"#{anchor}" if anchor else ""), links)
            if target:
                return target
        return None

    def _split(self, token: Token, links: Links) -> list[Token]:
        text = token.content
        out: list[Token] = []
        at = 0
        for ref in self.catalogue.references(text, links):
            if ref.start > at:
                out.append(_text(text[at : ref.start]))
            out += _wrapped([_text(ref.text)], ref.href)
            at = ref.end
        if at == 0:
            return [token]
        if at < len(text):
            out.append(_text(text[at:]))
        return out


def _text(content: str) -> Token:
    return Token("text", "", 0, content=content)


def _wrapped(inner: list[Token], href: str) -> list[Token]:
    return [Token("link_open", "a", 1, attrs={"href": href, "class": "ref"}), *inner, Token("link_close", "a", -1)]
