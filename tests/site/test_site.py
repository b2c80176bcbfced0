"""The site of the specification (``horserace site``), read as files: every internal link
resolves, every rule, fixture, register entry and glossary term has its place, the
cross-links go both ways, every layout and play fixture has a drawing per step whose
count is the fixture's, every text is escaped, the export is carried, and a rebuild
leaves nothing stale.  ``test_site_browser.py`` opens it in Chromium."""

from __future__ import annotations

import json
import re
import shutil
from dataclasses import replace
from pathlib import Path

import pytest

from horserace.corpus.loader import corpus_files, load_paths
from horserace.errors import UsageError
from horserace.resources.documents import load_glossary, load_interpretations, load_rules
from horserace.resources.paths import default_corpus, source_root, spec_dir
from horserace.site.build import MARKER, build_site
from horserace.site.catalogue import GUIDES, Links, make_catalogue
from horserace.site.markdown import Markdown
from horserace.site.search import fold
from tests.site.crawl import crawl, fetched, ids_of, links_of, machine_paths

#: The pages at the top of the site.
TOP_PAGES = (
    "index.html",
    "rules.html",
    "fixtures.html",
    "register.html",
    "glossary.html",
    "protocol.html",
    "fixture-format.html",
    "changelog.html",
    "search.html",
)
#: An ID of a rule's shape that spec/rules.md does not have (written in two parts, so that
#: tests/documents does not take it for a citation of a rule).
UNKNOWN = "HR-" + "NONE-1"
_SUMS = re.compile(r'<svg [^>]*class="hr-layout"[^>]*data-sum="(\d+)"')


def _hrefs(page: Path) -> set[str]:
    return {value.split("#")[0] for _, attribute, value in links_of(page) if attribute == "href"}


def test_every_internal_link_resolves(site, corpus):
    found = crawl(site)
    assert found.broken == []
    assert fetched(found.external) == []  # no CDN, no web font, nothing fetched from elsewhere
    guide_pages = len(GUIDES) + 2  # the README and CONTRIBUTING.md beside docs/
    assert found.pages == len(TOP_PAGES) + len(load_rules()) + len(corpus.fixtures) + guide_pages
    assert found.links > 10_000


def test_the_crawler_finds_what_is_broken(tmp_path):
    (tmp_path / "there.html").write_text('<p id="here">x</p>', encoding="utf-8")
    (tmp_path / "page.html").write_text(
        '<a href="there.html#here">fine</a><a href="there.html#gone">anchor</a><a href="missing.html">file</a>'
        '<img src="../outside.png"><a href="#top">own anchor</a><script src="https://cdn.example/x.js"></script>'
        '<a href="https://no-color.org">followed, not fetched</a>',
        encoding="utf-8",
    )
    found = crawl(tmp_path)
    assert len(found.broken) == 4, found.broken
    assert [b.split(": ", 2)[-1] for b in found.broken] == [
        "no id 'gone' in there.html",
        "no such file",
        "outside the site",
        "no id 'top' in page.html",
    ]
    assert found.external == [
        "page.html: <script src='https://cdn.example/x.js'>",
        "page.html: <a href='https://no-color.org'>",
    ]
    assert fetched(found.external) == ["page.html: <script src='https://cdn.example/x.js'>"]
    (tmp_path / "data.json").write_text('{\n"file": "home/me/x.yaml"\n}', encoding="utf-8")
    assert machine_paths(tmp_path, ["home/me", "/nowhere/"]) == ["data.json:2: home/me"]


def _machine_paths(*folders: Path) -> list[str]:
    """What a site must not name: each folder (absolute, and relative to ``/``, as a path
    made relative to a working folder of ``/`` reads), the user's home, any temporary
    folder and any installed package's (so a document the site renders, the changelog
    among them, does not quote these words either)."""
    needles = ["site-packages", "/tmp/", f"{Path.home()}/", "_scenarios", "_spec"]  # noqa: S108  (a needle: no page may name /tmp/)
    for folder in folders:
        resolved = str(folder.resolve())
        needles += [resolved, resolved.lstrip("/")]
    return needles


@pytest.mark.parametrize("working", ["/", "elsewhere", "wheel"])
def test_a_copied_site_names_no_path_of_the_machine_and_has_no_dead_link(tmp_path, monkeypatch, working):
    """Built with the corpus loaded from another working folder (``/``, where the paths
    of the checkout read ``work/...``, or a folder outside it, where they are absolute),
    or from where a wheel puts spec/ and scenarios/ (``site-packages/horserace/_spec``),
    then copied elsewhere and the build removed: no page, script or export file names a
    path of the machine, every link is relative and resolves in the copy, and each
    fixture's file is given from the top of the repository (``scenarios/...:LINE``)."""
    cwd = Path("/") if working == "/" else tmp_path / "elsewhere"
    cwd.mkdir(exist_ok=True)
    monkeypatch.chdir(cwd)
    corpus = default_corpus().resolve()
    if working == "wheel":
        package = tmp_path / "lib" / "site-packages" / "horserace"
        shutil.copytree(corpus, package / "_scenarios")
        shutil.copytree(spec_dir(), package / "_spec")
        monkeypatch.setenv("HORSERACE_SPEC", str(package / "_spec"))
        corpus = package / "_scenarios"
    fixtures = load_paths(corpus_files(corpus), check=False).fixtures
    built = tmp_path / "build" / "site"
    build_site(built, fixtures, corpus=corpus)
    copy = tmp_path / "published" / "spec"
    shutil.copytree(built, copy)
    shutil.rmtree(tmp_path / "build")
    monkeypatch.chdir(tmp_path)

    found = crawl(copy)
    assert found.broken == [] and fetched(found.external) == []
    assert found.pages > 200
    assert machine_paths(copy, _machine_paths(built, source_root(), cwd if working != "/" else tmp_path)) == []
    for fx in fixtures[:: len(fixtures) // 12]:
        shown = f"scenarios/{(cwd / fx.file).resolve().relative_to(corpus).as_posix()}:{fx.line}"
        page = (copy / "fixtures" / f"{fx.id}.html").read_text(encoding="utf-8")
        assert f"<th>file</th><td><code>{shown}</code>" in page, fx.id


def test_every_rule_fixture_entry_and_term_has_its_place(site, corpus):
    rules = load_rules()
    for rule_id in rules:
        assert rule_id in ids_of(site / "rules" / f"{rule_id}.html")
        assert rule_id in ids_of(site / "rules.html")  # its heading in the whole document
    for fx in corpus.fixtures:
        assert fx.id in ids_of(site / "fixtures" / f"{fx.id}.html")
    assert set(load_interpretations()) <= ids_of(site / "register.html")
    assert {t.slug for t in load_glossary()} <= ids_of(site / "glossary.html")
    index = _hrefs(site / "index.html")
    assert {f"rules/{rule_id}.html" for rule_id in rules} <= index
    assert set(TOP_PAGES[1:-1]) | {"export/manifest.json"} <= index


def test_cross_links_go_both_ways(site, corpus):
    """rule <-> fixture, rule <-> register entry, rule <-> glossary term, register entry
    <-> glossary term, register entry <-> the fixtures that pin its readings."""
    cat = make_catalogue(corpus.fixtures)
    register = _hrefs(site / "register.html")
    glossary = _hrefs(site / "glossary.html")
    for rule_id, rule in cat.rules.items():
        page = _hrefs(site / "rules" / f"{rule_id}.html")
        citing = {f"../fixtures/{fx.id}.html" for fx in cat.citing[rule_id]}
        assert citing and citing <= page, rule_id
        assert {"../register.html"} <= page if cat.entries_of_rule[rule_id] else True
        assert all(f"rules/{rule_id}.html" in register for _ in cat.entries_of_rule[rule_id]), rule_id
        assert all(f"rules/{rule_id}.html" in glossary for _ in cat.terms_of_rule[rule_id]), rule_id
        for entry_id in rule.interpretations:
            assert entry_id in cat.entries_of_rule[rule_id]
    for fx in corpus.fixtures:
        page = _hrefs(site / "fixtures" / f"{fx.id}.html")
        assert {f"../rules/{rule_id}.html" for rule_id in fx.rules} <= page, fx.id
        if fx.variants:
            assert "../register.html" in page, fx.id  # each reading links to its register entry
            assert f"fixtures/{fx.id}.html" in register, fx.id  # and the entry lists it under that reading
    from_glossary = {value for _, _, value in links_of(site / "glossary.html")}
    from_register = {value for _, _, value in links_of(site / "register.html")}
    for entry_id, terms in cat.terms_of_entry.items():  # register entry <-> glossary term
        for term in terms:
            assert f"glossary.html#{term.slug}" in from_register, (entry_id, term.english)
            assert f"register.html#{entry_id}" in from_glossary, (entry_id, term.english)
    assert "spinner" in {t.english for t in cat.terms_of_entry["HRI-10"]}
    pinned = {fx.id for entry in cat.pinning.values() for fixtures in entry.values() for fx in fixtures}
    assert pinned == {fx.id for fx in corpus.fixtures if fx.variants}
    anchors = [value for _, _, value in links_of(site / "rules" / "HR-SPIN-3.html") if "register.html#" in value]
    assert "../register.html#HRI-10" in anchors


def test_every_layout_and_play_fixture_is_drawn_after_every_step(site, corpus):
    """One drawing per step of a layout fixture (and one of its setup), one per placement
    of a play fixture (and one of a hand's dealt layout); the count each drawing sums (the
    reference engine's) is the count the fixture expects there."""
    drawn = 0
    for fx in corpus.fixtures:
        if fx.kind not in ("layout", "play"):
            continue
        sums = [int(s) for s in _SUMS.findall((site / "fixtures" / f"{fx.id}.html").read_text(encoding="utf-8"))]
        if fx.kind == "layout":
            expected = [step["sum"] for step in fx.expected["steps"]]
            setup = 1 if fx.input.get("setup") else 0
            assert len(sums) == setup + len(expected), fx.id
            assert sums[setup:] == expected, fx.id
        else:
            expected = []
            for hand, outcome in zip(fx.input["hands"], fx.expected["hands"], strict=True):
                counts = [ev["count"] for ev in outcome["events"] if ev["event"] == "place"]
                expected += ([None] if hand.get("layout") else []) + counts
            assert len(sums) == len(expected), fx.id
            assert [s for s, x in zip(sums, expected, strict=True) if x is not None] == [
                x for x in expected if x is not None
            ], fx.id
        drawn += len(sums)
    assert drawn > 200


def test_every_text_is_escaped_and_ids_are_linked(tmp_path, corpus):
    """A fixture's text is not trusted: markup and control characters are shown, never
    obeyed; the IDs in it become links."""
    base = next(fx for fx in corpus.fixtures if fx.kind == "layout")
    hostile = replace(
        base,
        id="ZZZZZZ",
        description="<script>alert('description')</script> & \x1b[2J",
        why="<img src=x onerror=alert(1)> see HR-COUNT-4 and HRI-10 and " + base.id,
        sources=[{"doc": "it", "section": "<b>bold</b>"}],
    )
    build_site(tmp_path / "site", [base, hostile])
    page = (tmp_path / "site" / "fixtures" / "ZZZZZZ.html").read_text(encoding="utf-8")
    assert "<script>alert" not in page and "<img src=x" not in page and "<b>bold" not in page
    assert "&lt;script&gt;alert(&#x27;description&#x27;)&lt;/script&gt; &amp; \\x1b[2J" in page
    assert "\x1b" not in page
    assert '<a class="ref" href="../rules/HR-COUNT-4.html">HR-COUNT-4</a>' in page
    assert '<a class="ref" href="../register.html#HRI-10">HRI-10</a>' in page
    assert f'<a class="ref" href="../fixtures/{base.id}.html">{base.id}</a>' in page
    index = (tmp_path / "site" / "search-index.js").read_text(encoding="utf-8")
    assert "<script>" not in index  # ensure_ascii JSON: the markup is in it only as \\u escapes or text
    assert crawl(tmp_path / "site").broken == []


def test_markdown_is_rendered_by_markdown_it_with_raw_html_shown_as_text(corpus):
    md = Markdown(make_catalogue(corpus.fixtures))
    html, headings = md.document(
        "# Title\n\n## Changes\n\n## Changes\n\n### HR-COUNT-4: A zero end\n\n<b>raw</b> `spec/protocol.md` "
        f"HR-SEAT-1 and `HRI-3`, not {UNKNOWN}\n\n| a | b |\n|---|---|\n| `[1\\|2]` | x |\n",
        Links("../"),
    )
    assert [h.anchor for h in headings] == ["title", "changes", "changes-1", "HR-COUNT-4"]
    assert "&lt;b&gt;raw&lt;/b&gt;" in html and "<b>" not in html
    assert '<a href="../protocol.html" class="ref"><code>spec/protocol.md</code></a>' in html
    assert '<a href="../rules/HR-SEAT-1.html" class="ref">HR-SEAT-1</a>' in html
    assert '<a href="../register.html#HRI-3" class="ref"><code>HRI-3</code></a>' in html
    assert f"not {UNKNOWN}</p>" in html  # no such rule: no link
    assert "<td><code>[1|2]</code></td>" in html  # GitHub's tables, the escaped pipe inside a cell


def test_a_documents_own_links_go_to_the_pages_of_the_site(corpus):
    """A link of spec/protocol.md to another document (written relative to spec/) goes to
    that document's page, a rule's heading to the rule's page; a link to a file the site
    does not have is dropped, its text kept; a web address stays."""
    md = Markdown(make_catalogue(corpus.fixtures))
    html = md.render(
        "[order](rules.md#order-of-checks-for-illegal-actions), [`spec/fixture-format.md`](fixture-format.md), "
        "[zero](../spec/rules.md#hr-count-4-a-zero-end-is-a-counted-end), [notes](../shared/rules/README.md), "
        "[pagat](https://www.pagat.com/), [here](#top)",
        Links("../"),
    )
    assert '<a href="../rules.html#order-of-checks-for-illegal-actions">order</a>' in html
    assert '<a href="../fixture-format.html"><code>spec/fixture-format.md</code></a>' in html
    assert '<a href="../rules/HR-COUNT-4.html">zero</a>' in html
    assert ", notes, " in html  # dropped: the site has no such file
    assert '<a href="https://www.pagat.com/">pagat</a>' in html and '<a href="#top">here</a>' in html


def test_the_export_is_carried_and_linked(site, corpus):
    manifest = json.loads((site / "export" / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["fixtures"] == len(corpus.fixtures)
    for name in [*manifest["files"], *manifest["rulesets"], *manifest["schemas"], *manifest["spec"]]:
        assert (site / "export" / name).is_file(), name
    page = _hrefs(site / "fixtures" / f"{corpus.fixtures[0].id}.html")
    assert any(href.startswith("../export/scenarios/") and href.endswith(".json") for href in page)
    assert "export/manifest.json" in _hrefs(site / "index.html")


def test_the_search_index_holds_every_rule_fixture_entry_and_term(site, corpus):
    text = (site / "search-index.js").read_text(encoding="utf-8")
    prefix = "window.HORSERACE_SEARCH = "
    assert text.startswith(prefix) and text.endswith(";\n")
    rows = json.loads(text[len(prefix) : -2])
    kinds = [row[0] for row in rows]
    assert kinds.count("rule") == len(load_rules())
    assert kinds.count("entry") == len(load_interpretations())
    assert kinds.count("term") == len(load_glossary())
    assert kinds.count("fixture") == len(corpus.fixtures)
    for _kind, row_id, _title, url, haystack in rows:
        path, _, anchor = url.partition("#")
        assert (site / path).is_file() and (not anchor or anchor in ids_of(site / path)), url
        assert fold(row_id) in haystack and haystack == fold(haystack)
    assert fold("Pää ÄÖ") == "paa ao"


def test_a_rebuild_replaces_the_site_and_a_foreign_folder_is_refused(tmp_path, corpus):
    fixtures = corpus.fixtures[:3]
    out = tmp_path / "site"
    first = build_site(out, fixtures)
    stale = out / "fixtures" / "STALE0.html"
    stale.write_text("left from an earlier corpus", encoding="utf-8")
    (out / "notes.txt").write_text("the publisher's own", encoding="utf-8")
    second = build_site(out, fixtures)
    assert not stale.exists()  # rules/, fixtures/, export/ are the site's own: written whole
    assert (out / "notes.txt").exists()  # anything else is left alone
    assert (first.pages, first.files) == (second.pages, second.files)
    stamp = json.loads((out / MARKER).read_text(encoding="utf-8"))
    assert stamp["fixtures"] == 3 and all((out / name).is_file() for name in stamp["files"])
    assert second.files == len(stamp["files"]) + 1

    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "index.html").write_text("someone's page", encoding="utf-8")
    with pytest.raises(UsageError, match=re.escape("holds other files (index.html) and no site.json")):
        build_site(foreign, fixtures)
    assert (foreign / "index.html").read_text(encoding="utf-8") == "someone's page"
    build_site(foreign, fixtures, force=True)
    assert (foreign / MARKER).is_file()
