"""What the documents and the corpus say of each other, gathered once for every page:
which fixtures cite a rule, which register entries bear on it, which fixtures pin a
reading, which rules use a glossary term; and where each of them is on the site
(:class:`Links`).

Every cross-link of the site is made from here, so that a rule page and a fixture page
can never disagree on what cites what.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from horserace.corpus.fixture import Fixture
from horserace.corpus.ids import ALPHABET, LENGTH
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.resources.documents import (
    ENTRY_ID,
    RULE_ID,
    GlossaryTerm,
    Interpretation,
    Rule,
    load_glossary,
    load_interpretations,
    load_rules,
)
from horserace.resources.rulesets import NamedRuleset

__all__ = ["DOCUMENT_PAGES", "GUIDES", "Catalogue", "Links", "Reference", "make_catalogue"]

#: The guides of ``docs/``, in the order the site lists them: (file name without ``.md``,
#: title).  The README is their first page, ``guides/index.html``; CONTRIBUTING.md their
#: last.  tests/site/test_guides.py holds this list to the folder: a guide added to docs/
#: and not here fails it.
GUIDES = (
    ("implementers", "Checking your implementation"),
    ("reports", "Reading the reports"),
    ("rule-maintainers", "For rule maintainers"),
    ("impact-studies", "Rule-impact studies"),
    ("perft", "Perft"),
    ("cluster", "Campaigns on a cluster"),
    ("robustness", "Robustness"),
    ("performance", "Performance"),
    ("performance-history", "Performance: the history"),
    ("commands", "Commands and exit codes"),
    ("versions", "Versions and stability"),
    ("python", "Using the engine from Python"),
    ("architecture", "Architecture"),
    ("contributing", "Contributing"),
)

#: The site's page for each document of the specification, by the path the documents
#: write it with (a code span such as ``spec/protocol.md`` links to its page).
DOCUMENT_PAGES = {
    "spec/rules.md": "rules.html",
    "spec/interpretations.md": "register.html",
    "spec/glossary.md": "glossary.html",
    "spec/protocol.md": "protocol.html",
    "spec/fixture-format.md": "fixture-format.html",
    "CHANGELOG.md": "changelog.html",
    "README.md": "guides/index.html",
    **{f"docs/{name}.md": f"guides/{name}.html" for name, _ in GUIDES},
    "CONTRIBUTING.md": "guides/CONTRIBUTING.html",
}

_FIXTURE_ID = rf"\b[{ALPHABET}]{{{LENGTH}}}\b"
#: Anything in prose that may name a rule, a register entry or a fixture.
_REFERENCE = re.compile(rf"{RULE_ID.pattern}|{ENTRY_ID.pattern}|{_FIXTURE_ID}")


@dataclass(frozen=True)
class Links:
    """Where things are, relative to one page: ``root`` is ``""`` for a page at the top
    of the site and ``"../"`` for one in ``rules/``, ``fixtures/`` or ``guides/``."""

    root: str = ""

    def page(self, name: str) -> str:
        return f"{self.root}{name}"

    def rule(self, rule_id: str) -> str:
        return f"{self.root}rules/{rule_id}.html"

    def fixture(self, fixture_id: str) -> str:
        return f"{self.root}fixtures/{fixture_id}.html"

    def entry(self, entry_id: str) -> str:
        return f"{self.root}register.html#{entry_id}"

    def term(self, term: GlossaryTerm) -> str:
        return f"{self.root}glossary.html#{term.slug}"


@dataclass(frozen=True)
class Reference:
    """An ID found in prose: where it is, and the page (or anchor) it names."""

    start: int
    end: int
    text: str
    href: str


@dataclass
class Catalogue:
    rules: dict[str, Rule]
    entries: dict[str, Interpretation]
    terms: tuple[GlossaryTerm, ...]
    #: Every fixture of the corpus by ID, in the corpus's order.
    fixtures: dict[str, Fixture]
    #: The bundled rulesets, by name.
    rulesets: dict[str, NamedRuleset] = field(default_factory=dict)
    #: Rule ID -> the fixtures that cite it, those whose primary rule it is first.
    citing: dict[str, list[Fixture]] = field(default_factory=dict)
    #: Rule ID -> the register entries that bear on it (named by the rule or naming it).
    entries_of_rule: dict[str, list[str]] = field(default_factory=dict)
    #: Register entry ID -> the rules it bears on.
    rules_of_entry: dict[str, list[str]] = field(default_factory=dict)
    #: Register entry ID -> reading -> the fixtures whose ``variants`` name that reading.
    pinning: dict[str, dict[str, list[Fixture]]] = field(default_factory=dict)
    #: Register entry ID -> the fixtures whose ``why`` cites it.
    mentioned: dict[str, list[Fixture]] = field(default_factory=dict)
    #: Register field -> the entry whose variant it is.
    entry_of_field: dict[str, str] = field(default_factory=dict)
    #: Rule ID -> the glossary terms its text uses; a term's slug -> the rules using it.
    terms_of_rule: dict[str, list[GlossaryTerm]] = field(default_factory=dict)
    rules_of_term: dict[str, list[str]] = field(default_factory=dict)
    #: The same for register entries.
    terms_of_entry: dict[str, list[GlossaryTerm]] = field(default_factory=dict)
    entries_of_term: dict[str, list[str]] = field(default_factory=dict)
    #: (document, section heading) -> the fixtures whose ``sources`` cite it.
    by_section: dict[tuple[str, str], list[Fixture]] = field(default_factory=dict)
    #: The files of the site's JSON export (``export/schema/fixture.schema.json``), once written.
    exported: set[str] = field(default_factory=set)

    def references(self, text: str, links: Links) -> Iterator[Reference]:
        """Every rule ID, register entry ID and fixture ID of ``text`` that the site has
        a page or an anchor for (a six-letter word that is no fixture's ID is left)."""
        for m in _REFERENCE.finditer(text):
            href = self.href(m.group(), links)
            if href:
                yield Reference(m.start(), m.end(), m.group(), href)

    def href(self, name: str, links: Links) -> str | None:
        """The link of an ID or a document path (``spec/rules.md``, with or without an
        anchor), or ``None`` when the site has nothing of that name."""
        if name in self.rules:
            return links.rule(name)
        if name in self.entries:
            return links.entry(name)
        if name in self.fixtures:
            return links.fixture(name)
        path, _, anchor = name.partition("#")
        rule = next((r for r in self.rules.values() if r.anchor == anchor), None) if path == "spec/rules.md" else None
        if rule:  # a rule's heading: its page
            return links.rule(rule.id)
        if path in DOCUMENT_PAGES:
            return links.page(DOCUMENT_PAGES[path]) + (f"#{anchor}" if anchor else "")
        exported = _exported_name(path)
        if exported in self.exported:
            return links.page(exported)
        return None

    def readings_of(self, entry_id: str) -> tuple[str, ...]:
        """The readings of an entry's register field, canonical first; none for an entry
        without a variant."""
        variant = self.entries[entry_id].variant
        return VARIANT_FIELDS.get(variant[0], ()) if variant else ()

    def rulesets_selecting(self, field_name: str, reading: str) -> list[str]:
        """The bundled rulesets that select a reading explicitly."""
        return [name for name, named in self.rulesets.items() if named.ruleset.variants.get(field_name) == reading]


def _exported_name(path: str) -> str:
    """Where the export keeps a file of spec/ (``spec/schema/X.json`` is
    ``export/schema/X.json``, ``spec/rulesets/X.yaml`` is ``export/rulesets/X.json``)."""
    if path.startswith("spec/schema/"):
        return "export/" + path.removeprefix("spec/")
    if path.startswith("spec/rulesets/") and path.endswith(".yaml"):
        return "export/" + path.removeprefix("spec/").removesuffix(".yaml") + ".json"
    return ""


def _uses(text: str, term: GlossaryTerm) -> bool:
    return any(re.search(rf"\b{re.escape(name)}(?:s|es)?\b", text, re.IGNORECASE) for name in term.names)


def make_catalogue(
    fixtures: list[Fixture], rulesets: dict[str, NamedRuleset] | None = None, spec: Path | None = None
) -> Catalogue:
    """The cross-references of the documents of ``spec`` (default: the bundled spec/)
    and ``fixtures``."""
    folder = str(spec) if spec else None
    rules = load_rules(folder)
    entries = load_interpretations(folder)
    cat = Catalogue(rules, entries, load_glossary(folder), {fx.id: fx for fx in fixtures}, dict(rulesets or {}))

    _cite_fixtures(cat, rules, fixtures)
    _bear_entries(cat, rules, entries)
    _pin_readings(cat, entries, fixtures)
    _use_terms(cat, rules, entries)
    return cat


def _cite_fixtures(cat: Catalogue, rules: dict[str, Rule], fixtures: list[Fixture]) -> None:
    """Each rule's citing fixtures (its primary fixtures first, each part in corpus order)
    and each document section's."""
    for rule_id in rules:
        cat.citing[rule_id] = []
    for fx in fixtures:
        for rule_id in dict.fromkeys(fx.rules):
            cat.citing.setdefault(rule_id, []).append(fx)
        for source in fx.sources:
            cat.by_section.setdefault((str(source.get("doc")), str(source.get("section"))), []).append(fx)
    for rule_id, citing in cat.citing.items():  # its primary fixtures first, each part in corpus order
        primary = [fx for fx in citing if fx.primary_rule == rule_id]
        cat.citing[rule_id] = primary + [fx for fx in citing if fx.primary_rule != rule_id]


def _bear_entries(cat: Catalogue, rules: dict[str, Rule], entries: dict[str, Interpretation]) -> None:
    """The register entries that bear on each rule (named by the rule or naming it), both ways."""
    bears: dict[str, set[str]] = {rule_id: set(rule.interpretations) for rule_id, rule in rules.items()}
    for entry_id, entry in entries.items():
        for rule_id in RULE_ID.findall(entry.text):
            if rule_id in bears:
                bears[rule_id].add(entry_id)
    entry_order = list(entries)
    for rule_id, found in bears.items():
        cat.entries_of_rule[rule_id] = sorted((e for e in found if e in entries), key=entry_order.index)
        for entry_id in cat.entries_of_rule[rule_id]:
            cat.rules_of_entry.setdefault(entry_id, []).append(rule_id)


def _pin_readings(cat: Catalogue, entries: dict[str, Interpretation], fixtures: list[Fixture]) -> None:
    """The fixtures each register entry is mentioned by, and those that pin each reading of
    its variant's field."""
    for entry_id, entry in entries.items():
        cat.rules_of_entry.setdefault(entry_id, [])
        mentioned = [fx for fx in fixtures if entry_id in ENTRY_ID.findall(fx.why)]
        cat.mentioned[entry_id] = mentioned
        if entry.variant and entry.variant[0] in VARIANT_FIELDS:
            name = entry.variant[0]
            cat.entry_of_field.setdefault(name, entry_id)
            cat.pinning[entry_id] = {
                reading: [fx for fx in fixtures if fx.variants.get(name) == reading] for reading in VARIANT_FIELDS[name]
            }


def _use_terms(cat: Catalogue, rules: dict[str, Rule], entries: dict[str, Interpretation]) -> None:
    """The glossary terms each rule and register entry uses, both ways."""
    for rule_id, rule in rules.items():
        cat.terms_of_rule[rule_id] = [term for term in cat.terms if _uses(f"{rule.title}\n{rule.statement}", term)]
        for term in cat.terms_of_rule[rule_id]:
            cat.rules_of_term.setdefault(term.slug, []).append(rule_id)
    for entry_id, entry in entries.items():
        cat.terms_of_entry[entry_id] = [term for term in cat.terms if _uses(f"{entry.title}\n{entry.text}", term)]
        for term in cat.terms_of_entry[entry_id]:
            cat.entries_of_term.setdefault(term.slug, []).append(entry_id)
