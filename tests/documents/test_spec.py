"""The specification documents agree with the code: every rule ID the code cites exists,
every rule cites all three documents, and the register's variants are the Ruleset's."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.resources.documents import DOCUMENTS, RULE_ID, load_glossary, load_interpretations, load_rules
from horserace.resources.paths import spec_dir

ROOT = Path(__file__).resolve().parents[2]
RULES_DOCS = ROOT.parent / "shared" / "rules"
DOC_FILES = {"id": "horse-race.id.txt", "it": "horse-race.it.txt", "fi": "horse-race.fi.txt"}


def test_rule_ids_are_well_formed_and_unique():
    rules = load_rules()
    assert len(rules) >= 40
    for rule_id, rule in rules.items():
        assert re.fullmatch(r"HR-[A-Z]+-\d+", rule_id)
        assert rule.title and rule.text


def test_every_rule_cites_each_document():
    for rule in load_rules().values():
        assert set(rule.sources) == {"id", "it", "fi"}, rule.id


def test_every_rule_id_cited_in_code_and_tests_exists():
    rules = load_rules()
    cited = {}
    for path in [*ROOT.joinpath("horserace").rglob("*.py"), *ROOT.joinpath("tests").rglob("*.py")]:
        for rule_id in RULE_ID.findall(path.read_text(encoding="utf-8")):
            cited.setdefault(rule_id, path.name)
    unknown = {rule_id: where for rule_id, where in cited.items() if rule_id not in rules}
    assert not unknown, f"rule IDs cited but not in spec/rules.md: {unknown}"


def test_register_variants_match_the_ruleset():
    entries = load_interpretations()
    named = {e.variant for e in entries.values() if e.variant}
    for field, reading in named:
        assert field in VARIANT_FIELDS, f"register names unknown ruleset field {field}"
        assert reading in VARIANT_FIELDS[field][1:], f"{field}={reading} is not a non-canonical reading"
    assert {f for f, _ in named} == set(VARIANT_FIELDS), "every ruleset variant has a register entry"


def test_register_has_the_required_entries():
    entries = load_interpretations()
    assert {f"HRI-{n}" for n in range(1, 18)} <= set(entries)


@pytest.mark.skipif(not RULES_DOCS.is_dir(), reason="../shared/rules/ is not present")
def test_cited_section_headings_exist_in_the_documents():
    texts = {lang: (RULES_DOCS / name).read_text(encoding="utf-8") for lang, name in DOC_FILES.items()}
    for rule in load_rules().values():
        for lang, source in rule.sources.items():
            for heading in re.findall(r"«([^»]+)»", source):
                assert heading in texts[lang], f"{rule.id}: {lang} heading «{heading}» not found"


def test_spec_dir_is_the_repository_spec():
    assert spec_dir() == ROOT / "spec"


def test_every_rule_has_its_group_statement_and_register_entries():
    """What the site shows of a rule (horserace site): the ``## `` heading it stands under,
    its text without the Sources list, and the entries its Interpretations line names,
    all of them in the register."""
    rules, entries = load_rules(), load_interpretations()
    groups = set(re.findall(r"^## (.+)$", (spec_dir() / "rules.md").read_text(encoding="utf-8"), re.MULTILINE))
    for rule in rules.values():
        assert rule.group in groups, rule.id
        assert rule.statement and "Sources:" not in rule.statement, rule.id
        assert set(rule.interpretations) <= set(entries), rule.id
    assert rules["HR-SEAT-3"].group == "Players and seating"
    assert rules["HR-SEAT-3"].interpretations == ("HRI-12", "HRI-22", "HRI-28")
    assert rules["HR-SEAT-3"].cited_sections("it") == ("Iniziare la mano di gioco",)
    assert rules["HR-COUNT-4"].cited_sections("id") == ()  # silent


def test_the_glossary_is_read_as_data():
    text = (spec_dir() / "glossary.md").read_text(encoding="utf-8")
    terms = load_glossary()
    assert len(terms) == text.count("\n| ") - 1  # every row but the header
    assert len({t.slug for t in terms}) == len(terms)
    tile = terms[0]
    assert (tile.english, tile.definition) == ("tile", "One domino `[a|b]` of the set.")  # the escaped pipe, unescaped
    assert tile.words == {"id": "ubin", "it": "tessera", "fi": "laatta"}
    by_name = {t.english: t for t in terms}
    assert by_name["low / high (ports)"].names == ("low", "high")
    assert by_name["set (double-six)"].slug == "term-set-double-six"
    assert all(set(t.words) == set(DOCUMENTS) for t in terms)


def _entry_rules(entry_text: str) -> tuple[str, ...] | None:
    """The rules an entry's ``Where:`` paragraph lists after ``Rules:``, or None."""
    found = re.search(r"Rules: ([^\n]+)$", entry_text, re.MULTILINE)
    return tuple(re.findall(r"HR-[A-Z]+-\d+", found.group(1))) if found else None


def test_rules_and_register_entries_cite_each_other_both_ways():
    """A rule's ``Interpretations:`` line names an entry exactly when that entry's
    ``Rules:`` list names the rule, and every register entry is cited by some rule."""
    rules, entries = load_rules(), load_interpretations()
    missing_lists = sorted(e.id for e in entries.values() if _entry_rules(e.text) is None)
    assert not missing_lists, f"register entries without a Rules: list: {missing_lists}"
    cited = {(r.id, i) for r in rules.values() for i in r.interpretations}
    listed = {(rule, e.id) for e in entries.values() for rule in _entry_rules(e.text) or ()}
    assert {r for r, _ in listed} <= set(rules), sorted({r for r, _ in listed} - set(rules))
    assert not sorted(cited - listed), f"rule cites an entry whose Rules: list lacks it: {sorted(cited - listed)}"
    assert not sorted(listed - cited), f"entry lists a rule that does not cite it: {sorted(listed - cited)}"
    uncited = sorted(set(entries) - {i for _, i in cited}, key=lambda e: int(e.split("-")[1]))
    assert not uncited, f"register entries no rule cites: {uncited}"
