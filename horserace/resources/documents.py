"""Read the specification documents: rule IDs from spec/rules.md and register entries
from spec/interpretations.md.

This is the one place that knows their Markdown shapes (``### HR-XXX-N: Title`` with a
``Sources:`` list; ``### HRI-N: Title`` with a ``Variant:`` line).  Not part of the
engine core: it reads files.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from horserace.resources.paths import spec_dir

__all__ = [
    "RULE_ID",
    "Interpretation",
    "Rule",
    "load_interpretations",
    "load_rules",
    "parse_interpretations",
    "parse_rules",
]

RULE_ID = re.compile(r"\bHR-[A-Z]+-\d+\b")
_RULE_HEADING = re.compile(r"^### (HR-[A-Z]+-\d+): (.+)$", re.M)
_ENTRY_HEADING = re.compile(r"^### (HRI-\d+): (.+)$", re.M)
_SOURCE_LINE = re.compile(r"^- (id|it|fi): (.+)$", re.M)
_VARIANT_LINE = re.compile(r"^Variant: (.+)$", re.M)
_VARIANT_VALUE = re.compile(r"^`([a-z_]+)=([a-z-]+)`")


@dataclass(frozen=True)
class Rule:
    id: str
    title: str
    text: str
    sources: dict[str, str] = field(default_factory=dict)
    line: int = 0

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


def _sections(text: str, heading: re.Pattern[str]) -> list[tuple[re.Match[str], str, int]]:
    matches = list(heading.finditer(text))
    out = []
    for i, m in enumerate(matches):
        end = matches[i + 1].start() if i + 1 < len(matches) else len(text)
        body = text[m.end() : end]
        # a section ends at the next level-2 heading too
        cut = re.search(r"^## ", body, re.M)
        if cut:
            body = body[: cut.start()]
        out.append((m, body, text.count("\n", 0, m.start()) + 1))
    return out


def parse_rules(text: str) -> dict[str, Rule]:
    rules: dict[str, Rule] = {}
    for m, body, line in _sections(text, _RULE_HEADING):
        rule_id = m.group(1)
        if rule_id in rules:
            raise ValueError(f"rules.md:{line}: rule {rule_id} is defined twice")
        sources = {}
        if "Sources:" in body:
            sources = dict(_SOURCE_LINE.findall(body.split("Sources:", 1)[1]))
        rules[rule_id] = Rule(rule_id, m.group(2).strip(), body.strip(), sources, line)
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


@cache
def load_rules(folder: str | None = None) -> dict[str, Rule]:
    path = Path(folder) if folder else spec_dir()
    return parse_rules((path / "rules.md").read_text(encoding="utf-8"))


@cache
def load_interpretations(folder: str | None = None) -> dict[str, Interpretation]:
    path = Path(folder) if folder else spec_dir()
    return parse_interpretations((path / "interpretations.md").read_text(encoding="utf-8"))
