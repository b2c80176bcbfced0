"""What a report folder must be to travel (a CI artefact, a pasted comment, a published
page): no path of the machine that made it, and every link it holds alive where it is.

    problems = travel_problems(folder, forbidden=[str(tmp_path), str(REPO)], link_base=None)

Each problem names the file and what is wrong: an absolute path of the machine, a
relative link to a file that is not there, an ``#anchor`` that is not in its page (an
``id`` of an HTML page, a heading of a Markdown file as GitHub makes its anchor), or a
link that leaves the folder for somewhere other than the ``link_base`` chosen.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import unquote, urlsplit

from markdown_it import MarkdownIt

from tests.site.crawl import ids_of, links_of

__all__ = ["MACHINE_PATH", "markdown_anchors", "markdown_links", "travel_problems"]

#: The start of an absolute path of a Unix machine in text: ``/tmp/``, ``/home/``,
#: ``/work/``... (a slash that no word character, ``.``, ``:`` or ``/`` precedes, then a
#: folder name and a slash), or a ``site-packages`` folder.
MACHINE_PATH = re.compile(r"(?<![\w.:/\]>)-])/(?:tmp|home|work|root|usr|opt|var|private|Users|srv|mnt)/|site-packages")

_TEXTS = ("report.md", "report.html", "junit.xml", "report.json", "results.jsonl", "badge.svg", "badge.json")


def markdown_links(text: str) -> list[str]:
    """Every link and image target of a Markdown text, as CommonMark (with GitHub's
    tables) reads it."""
    found: list[str] = []
    for token in MarkdownIt("commonmark").enable("table").parse(text):
        for child in token.children or []:
            if child.type == "link_open":
                found.append(str(child.attrs.get("href", "")))
            elif child.type == "image":
                found.append(str(child.attrs.get("src", "")))
    return found


def markdown_anchors(text: str) -> set[str]:
    """The anchors of a Markdown file's headings, as GitHub makes them."""
    anchors = set()
    for line in text.splitlines():
        heading = re.match(r"^#{1,6} (.+?)\s*#*\s*$", line)
        if heading:
            anchors.add(re.sub(r"[^\w\- ]", "", heading.group(1).lower()).replace(" ", "-"))
    return anchors


def _repository(link_base: str) -> str:
    """Where links may go under ``link_base``: the base, and for a base that is a
    ``spec/`` folder the folder above it, where the bundled fixtures' files are
    (``Links.fixture``)."""
    trimmed = link_base.rstrip("/")
    return trimmed[: -len("spec")] if trimmed.endswith("/spec") else link_base


def _target_problem(page: Path, link: str, root: Path, link_base: str | None) -> str | None:
    parts = urlsplit(link)
    if parts.scheme or link.startswith("//"):
        if parts.scheme == "data" or (link_base and link.startswith(_repository(link_base))):
            return None
        if parts.scheme == "https" and parts.netloc == "img.shields.io":
            return None
        return f"{link}: leaves the folder for somewhere other than the link base"
    if link_base and link.startswith(link_base):
        return None
    target = page if not parts.path else (page.parent / unquote(parts.path)).resolve()
    if not target.is_relative_to(root.resolve()):
        return f"{link}: outside the report folder"
    if not target.is_file():
        return f"{link}: no such file"
    if parts.fragment:
        fragment = unquote(parts.fragment)
        if target.suffix == ".html" and fragment not in ids_of(target):
            return f"{link}: no id {fragment!r} in {target.name}"
        if target.suffix == ".md" and fragment not in markdown_anchors(target.read_text(encoding="utf-8")):
            return f"{link}: no heading {fragment!r} in {target.name}"
    return None


def travel_problems(folder: Path, forbidden: list[str], link_base: str | None = None) -> list[str]:
    """What keeps the report folder ``folder`` (and every folder in it) from travelling;
    ``forbidden``: strings that must appear nowhere (the folders of this machine)."""
    problems: list[str] = []
    for path in sorted(folder.rglob("*")):
        if not path.is_file() or path.name == "spec-rules.md":
            continue
        name = path.relative_to(folder).as_posix()
        text = path.read_text(encoding="utf-8")
        if path.name in _TEXTS or path.suffix == ".html":
            problems += [f"{name}: holds {word!r}" for word in forbidden if word in text]
            problems += [f"{name}: holds a path of the machine: {m.group(0)!r}" for m in MACHINE_PATH.finditer(text)]
        if path.suffix == ".md":
            links = markdown_links(text)
        elif path.suffix == ".html":
            links = [value for _tag, _attr, value in links_of(path)]
        else:
            continue
        for link in links:
            problem = _target_problem(path, link, folder, link_base)
            if problem:
                problems.append(f"{name}: {problem}")
    return problems
