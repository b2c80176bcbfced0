"""Read the specification documents: rule IDs from spec/rules.md, register entries
from spec/interpretations.md and the terms of spec/glossary.md.

This is the one place that knows their Markdown shapes (``### HR-XXX-N: Title`` under a
``## Group`` heading, with a ``Sources:`` list and an ``Interpretations:`` line;
``### HRI-N: Title`` with a ``Variant:`` line; the glossary's table of five columns).
Not part of the engine core: it reads files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from horserace.resources.paths import spec_dir

__all__ = [
    "DOCUMENTS",
    "ENTRY_ID",
    "RULE_ID",
    "GlossaryTerm",
    "Interpretation",
    "Rule",
    "load_glossary",
    "load_interpretations",
    "load_rules",
    "parse_glossary",
    "parse_interpretations",
    "parse_rules",
]

#: The three rule documents, by the code the sources cite them with.
DOCUMENTS = {"id": "Indonesian", "it": "Italian", "fi": "Finnish"}

RULE_ID = re.compile(r"\bHR-[A-Z]+-\d+\b")
ENTRY_ID = re.compile(r"\bHRI-\d+\b")
_GROUP_HEADING = re.compile(r"^## (.+)$", re.MULTILINE)
_SECTION_NAME = re.compile(r"«([^»]+)»")
_GLOSSARY_ROW = re.compile(r"^\|(.+)\|\s*$", re.MULTILINE)
_CELL_BORDER = re.compile(r"(?<!\\)\|")
_RULE_HEADING = re.compile(r"^### (HR-[A-Z]+-\d+): (.+)$", re.MULTILINE)
_ENTRY_HEADING = re.compile(r"^### (HRI-\d+): (.+)$", re.MULTILINE)
_SOURCE_LINE = re.compile(r"^- (id|it|fi): (.+)$", re.MULTILINE)
_VARIANT_LINE = re.compile(r"^Variant: (.+)$", re.MULTILINE)
_VARIANT_VALUE = re.compile(r"^`([a-z_]+)=([a-z-]+)`")


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    sources: dict[str, str] = field(default_factory=dict)
    line: int = 0
    #: The ``## `` heading the rule stands under (``Counting the ends``).
    group: str = ""

    @property
    def statement(self) -> str:
        """The rule's text without its ``Sources:`` list and ``Interpretations:`` line."""
        return self.text.split("\nSources:", 1)[0].strip() if "\nSources:" in self.text else self.text

    @property
    def interpretations(self) -> tuple[str, ...]:
        """The register entries its ``Interpretations:`` line names."""
        found = re.search(r"^Interpretations: (.+)$", self.text, re.MULTILINE)
        return tuple(ENTRY_ID.findall(found.group(1))) if found else ()

    def cited_sections(self, document: str) -> tuple[str, ...]:
        """The section headings («») of a rule document (``id``, ``it``, ``fi``) its
        sources cite; none when that document is silent."""
        return tuple(_SECTION_NAME.findall(self.sources.get(document, "")))

    @property
    def anchor(self) -> str:
        """The rule's heading as a link target (``spec/rules.md#hr-seat-1-modes-of-play-and-scores``),
        made as GitHub and markdown renderers make heading IDs."""
        heading = f"{self.id}: {self.title}".lower()
        return re.sub(r"[^\w\- ]", "", heading).replace(" ", "-")


@dataclass(frozen=True)
class Interpretation:
    id: str
    title: str
    text: str
    variant: tuple[str, str] | None  #: (ruleset field, reading), or None
    line: int = 0


@dataclass(frozen=True)
class GlossaryTerm:
    """One row of the glossary: the English term, its definition, and the word of each
    rule document (Markdown, as the table writes it; ``—`` where a document has none)."""

    english: str
    definition: str
    words: dict[str, str]  #: by document code: id, it, fi
    line: int = 0

    @property
    def slug(self) -> str:
        """The term as a link target: ``term-set-double-six``."""
        return "term-" + "-".join(re.findall(r"[a-z0-9]+", self.english.lower()))

    @property
    def names(self) -> tuple[str, ...]:
        """The English words it is found by in prose: ``low / high (ports)`` is ``low``
        and ``high``; ``hand (round)`` is ``hand``."""
        bare = re.sub(r"\s*\([^)]*\)", "", self.english)
        return tuple(name.strip() for name in bare.split(" / ") if name.strip())


def _sections(text: str, heading: re.Pattern[str]) -> list[tuple[re.Match[str], str, int]]:
    matches = list(heading.finditer(text))
    out = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end() : end]
        # a section ends at the next level-2 heading too
        cut = re.search(r"^## ", body, re.MULTILINE)
        if cut:
            body = body[: cut.start()]
        out.append((m, body, text.count("\n", 0, m.start()) + 1))
    return out


def parse_rules(text: str) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    groups = [(m.start(), m.group(1).strip()) for m in _GROUP_HEADING.finditer(text)]
    for m, body, line in _sections(text, _RULE_HEADING):
        rule_id = m.group(1)
        if rule_id in rules:
            raise ValueError(f"rules.md:{line}: rule {rule_id} is defined twice")
        sources = {}
        if "Sources:" in body:
            sources = dict(_SOURCE_LINE.findall(body.split("Sources:", 1)[1]))
        group = next((name for start, name in reversed(groups) if start < m.start()), "")
        rules[rule_id] = Rule(rule_id, m.group(2).strip(), body.strip(), sources, line, group)
    return rules


def parse_interpretations(text: str) -> dict[str, Interpretation]:
    entries: dict[str, Interpretation] = {}
    for m, body, line in _sections(text, _ENTRY_HEADING):
        entry_id = m.group(1)
        if entry_id in entries:
            raise ValueError(f"interpretations.md:{line}: entry {entry_id} is defined twice")
        variant = None
        vm = _VARIANT_LINE.search(body)
        if vm:
            value = _VARIANT_VALUE.match(vm.group(1))
            if value:
                variant = (value.group(1), value.group(2))
        entries[entry_id] = Interpretation(entry_id, m.group(2).strip(), body.strip(), variant, line)
    return entries


def parse_glossary(text: str) -> list[GlossaryTerm]:
    """The rows of the glossary's table, in its order (the header and the rule under it
    left out); a ``|`` escaped as ``\\|`` stays in its cell, unescaped (``[a|b]``)."""
    terms = []
    for m in _GLOSSARY_ROW.finditer(text):
        cells = [cell.strip().replace("\\|", "|") for cell in _CELL_BORDER.split(m.group(1))]
        if len(cells) != 5 or cells[0] == "English term" or set(cells[0]) <= set("-: "):
            continue
        english, definition, *words = cells
        terms.append(
            GlossaryTerm(
                english, definition, dict(zip(DOCUMENTS, words, strict=True)), text.count("\n", 0, m.start()) + 1
            )
        )
    return terms


@cache
def load_rules(folder: str | None = None) -> dict[str, Rule]:
    path = Path(folder) if folder else spec_dir()
    return parse_rules((path / "rules.md").read_text(encoding="utf-8"))


@cache
def load_interpretations(folder: str | None = None) -> dict[str, Interpretation]:
    path = Path(folder) if folder else spec_dir()
    return parse_interpretations((path / "interpretations.md").read_text(encoding="utf-8"))


@cache
def load_glossary(folder: str | None = None) -> tuple[GlossaryTerm, ...]:
    path = Path(folder) if folder else spec_dir()
    return tuple(parse_glossary((path / "glossary.md").read_text(encoding="utf-8")))
