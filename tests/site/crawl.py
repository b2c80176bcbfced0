"""A crawler over a folder of generated HTML: every ``href`` and ``src`` that names a
local file must name one that exists, and every ``#anchor`` an ``id`` in its page.

    found = crawl(site)
    found.broken      # "fixtures/X.html: href rules/NO.html: no such file", ...
    found.external    # links that leave the site (http:, https:, //...)
    fetched(found.external)  # those a browser would fetch (a script, an image): none allowed
    machine_paths(site, ["/home/me/horserace", ...])  # "index.html:12: /home/me/horserace", ...
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

__all__ = ["Crawl", "crawl", "fetched", "ids_of", "links_of", "machine_paths"]


class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[tuple[str, str, str]] = []  # (tag, attribute, value)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if value is None:
                continue
            if name == "id" or (tag == "a" and name == "name"):
                self.ids.add(value)
            elif name in ("href", "src", "action"):
                self.links.append((tag, name, value))


@cache
def _parsed(path: Path) -> _Collector:
    collector = _Collector()
    collector.feed(path.read_text(encoding="utf-8"))
    collector.close()
    return collector


def ids_of(path: Path) -> set[str]:
    return _parsed(path).ids


def links_of(path: Path) -> list[tuple[str, str, str]]:
    return _parsed(path).links


@dataclass
class Crawl:
    pages: int = 0
    links: int = 0
    broken: list[str] = field(default_factory=list)
    external: list[str] = field(default_factory=list)


def crawl(root: Path) -> Crawl:
    """Every HTML page under ``root`` and every local link in it."""
    root = root.resolve()
    found = Crawl()
    for page in sorted(root.rglob("*.html")):
        found.pages += 1
        where = page.relative_to(root)
        for tag, attribute, value in links_of(page):
            found.links += 1
            parts = urlsplit(value)
            if parts.scheme or parts.netloc:
                found.external.append(f"{where}: <{tag} {attribute}={value!r}>")
                continue
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            if not target.is_relative_to(root):
                found.broken.append(f"{where}: {attribute} {value}: outside the site")
            elif not target.is_file():
                found.broken.append(f"{where}: {attribute} {value}: no such file")
            elif parts.fragment and target.suffix == ".html" and unquote(parts.fragment) not in ids_of(target):
                found.broken.append(f"{where}: {attribute} {value}: no id {parts.fragment!r} in {target.name}")
    return found


def fetched(external: list[str]) -> list[str]:
    """The external links a browser would fetch to show a page (a script, a stylesheet,
    an image, a form's target): every one but a link a reader follows, ``<a href>`` (a
    guide's link to no-color.org, say)."""
    return [link for link in external if not link.split(": ", 1)[1].startswith("<a href=")]


def machine_paths(root: Path, needles: list[str]) -> list[str]:
    """Every place in every file under ``root`` (pages, scripts, the stylesheet, the
    export's JSON) that holds one of ``needles`` (paths of the machine that built it):
    ``"fixtures/X.html:21: work/me/scenarios"``."""
    found = []
    for path in sorted(p for p in root.rglob("*") if p.is_file()):
        text = path.read_text(encoding="utf-8", errors="replace")
        for number, line in enumerate(text.splitlines(), 1):
            found += [f"{path.relative_to(root)}:{number}: {needle}" for needle in needles if needle in line]
    return found
