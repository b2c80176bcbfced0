"""The rules: ``rules.html`` (spec/rules.md whole, every rule heading on the anchor of
its ID) and one page per rule, ``rules/HR-XXX-N.html``: its text, its sources in the
three documents with the section headings they cite, the register entries that bear on
it, the glossary terms it uses, and every fixture that cites it."""

from __future__ import annotations

from horserace.resources.documents import DOCUMENTS, Rule
from horserace.site.catalogue import Catalogue, Links
from horserace.site.markdown import Markdown
from horserace.site.pages import Page, e, fixture_table, frame, linked, term_links

__all__ = ["rule_page", "rule_pages", "rules_document"]

_LINKS = Links("../")


def _sources(rule: Rule, cat: Catalogue, md: Markdown) -> str:
    rows = []
    for code, language in DOCUMENTS.items():
        line = rule.sources.get(code)
        sections = rule.cited_sections(code)
        named = (
            "<br>".join(f"«{e(s)}»{_from_section(cat, code, s)}" for s in sections)
            if sections
            else '<span class="quiet">no section: silent</span>'
        )
        as_written = md.inline(line, _LINKS) if line else '<span class="quiet">not given</span>'
        rows.append(f"<tr><th>{e(language)} <code>{e(code)}</code></th><td>{named}</td><td>{as_written}</td></tr>")
    return (
        '<div class="wide"><table class="sources"><thead><tr><th>document</th><th>sections cited</th>'
        "<th>as the rule cites it</th></tr></thead><tbody>" + "".join(rows) + "</tbody></table></div>"
    )


def _from_section(cat: Catalogue, code: str, section: str) -> str:
    """The fixtures whose ``sources`` cite the same section, as a short list of links."""
    fixtures = cat.by_section.get((code, section), [])
    if not fixtures:
        return ""
    shown = " ".join(f'<a class="ref" href="{e(_LINKS.fixture(fx.id))}">{e(fx.id)}</a>' for fx in fixtures[:8])
    more = f" and {len(fixtures) - 8} more" if len(fixtures) > 8 else ""
    return f' <span class="quiet">(fixtures from it: {shown}{more})</span>'


def _entries(rule: Rule, cat: Catalogue) -> str:
    items = []
    for entry_id in cat.entries_of_rule.get(rule.id, []):
        entry = cat.entries[entry_id]
        variant = f' <span class="badge">variant <code>{e(entry.variant[0])}</code></span>' if entry.variant else ""
        items.append(
            f'<li><a class="ref" href="{e(_LINKS.entry(entry_id))}"><code>{e(entry_id)}</code></a> '
            f"{e(entry.title)}{variant}</li>"
        )
    return f"<ul>{''.join(items)}</ul>" if items else '<p class="quiet">None: the documents agree on it.</p>'


def rule_page(rule: Rule, cat: Catalogue, md: Markdown, neighbours: tuple[str | None, str | None]) -> Page:
    citing = cat.citing.get(rule.id, [])
    primary = sum(1 for fx in citing if fx.primary_rule == rule.id)
    before, after = neighbours
    steps = " · ".join(
        part
        for part in (
            f'<a href="{e(_LINKS.rule(before))}">← {e(before)}</a>' if before else "",
            f'<a href="{e(_LINKS.page("rules.html"))}#{e(rule.id)}">in spec/rules.md</a>',
            f'<a href="{e(_LINKS.rule(after))}">{e(after)} →</a>' if after else "",
        )
        if part
    )
    body = "\n".join(
        [
            f'<article class="rule" id="{e(rule.id)}">',
            f'<p class="crumbs">{e(rule.group)} · {steps}</p>',
            f'<section class="statement">{md.render(rule.statement, _LINKS)}</section>',
            "<h2>Sources in the three documents</h2>",
            _sources(rule, cat, md),
            "<h2>Register entries that bear on it</h2>",
            _entries(rule, cat),
            "<h2>Glossary terms it uses</h2>",
            term_links(cat.terms_of_rule.get(rule.id, []), _LINKS),
            f'<h2 id="fixtures">Fixtures that cite it <span class="count">{len(citing)}</span></h2>',
            (
                f'<p class="quiet">{primary} with {e(rule.id)} as their primary rule (marked), '
                f"{len(citing) - primary} citing it beside another.</p>"
            ),
            fixture_table(citing, cat, _LINKS, rule=rule.id),
            "</article>",
        ]
    )
    heading = f"<code>{e(rule.id)}</code> {e(rule.title)}"
    return Page(f"rules/{rule.id}.html", frame(f"{rule.id}: {rule.title}", body, _LINKS, heading=heading))


def rule_pages(cat: Catalogue, md: Markdown) -> list[Page]:
    ids = list(cat.rules)
    return [
        rule_page(
            cat.rules[rule_id],
            cat,
            md,
            (ids[i - 1] if i > 0 else None, ids[i + 1] if i + 1 < len(ids) else None),
        )
        for i, rule_id in enumerate(ids)
    ]


def rules_document(cat: Catalogue, md: Markdown, text: str) -> Page:
    """spec/rules.md as one page, with a table of the rules by group first."""
    links = Links()
    groups: dict[str, list[Rule]] = {}
    for rule in cat.rules.values():
        groups.setdefault(rule.group, []).append(rule)
    contents = "".join(
        f"<tr><th colspan=3>{e(group)}</th></tr>"
        + "".join(
            f'<tr><td><a href="{e(links.rule(r.id))}"><code>{e(r.id)}</code></a></td>'
            f"<td>{linked(r.title, cat, links)}</td>"
            f'<td class="num"><a href="{e(links.rule(r.id))}#fixtures">{len(cat.citing.get(r.id, []))}</a></td></tr>'
            for r in rules
        )
        for group, rules in groups.items()
    )
    html, _ = md.document(text, links)
    body = (
        f"<p>{len(cat.rules)} rules, each with a page of its own: its sources, the register entries "
        "that bear on it and every fixture that cites it. The whole document follows the table.</p>"
        '<div class="wide"><table class="rules"><thead><tr><th>rule</th><th>title</th>'
        f'<th class="num">fixtures</th></tr></thead><tbody>{contents}</tbody></table></div>'
        f'<section class="document">{html}</section>'
    )
    return Page("rules.html", frame("The rules", body, links, current="rules.html"))
