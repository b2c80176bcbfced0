"""``horserace site DIR``: write the whole site into a folder.

What it writes (every link between these files is relative, so the site works from
``file://`` and from any web server, at any path):

* ``index.html``, ``rules.html``, ``fixtures.html``, ``register.html``, ``glossary.html``,
  ``protocol.html``, ``fixture-format.html``, ``changelog.html``, ``search.html``;
* ``rules/HR-XXX-N.html`` for every rule and ``fixtures/ID.html`` for every fixture;
* ``guides/index.html`` (the README) and ``guides/NAME.html`` for every guide of docs/
  and CONTRIBUTING.md, from a checkout (a wheel carries none: one page says so);
* ``style.css``, ``search.js`` (the site's own script) and ``search-index.js``;
* ``export/``: the JSON export (:func:`horserace.corpus.export.export_json`);
* ``site.json``: the versions, the counts and every file written; it also marks the
  folder as a site, so that a later build may replace it (written first, with
  ``"complete": false``, and last in full: a build cut short is still a site's folder).

A folder that holds anything else is refused (unless forced), so that a mistyped DIR does
not mix a site into someone's files; a previous site's ``rules/``, ``fixtures/`` and
``guides/`` and ``export/`` are emptied first, so that nothing stale stays.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
import time
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from horserace._files import atomic_write
from horserace._version import PROTOCOL_VERSION, __version__
from horserace.corpus.export import export_json
from horserace.corpus.fixture import Fixture
from horserace.errors import EnvironmentFailure, UsageError
from horserace.resources.paths import default_corpus, source_root, spec_dir
from horserace.resources.rulesets import bundled
from horserace.site.catalogue import make_catalogue
from horserace.site.document_pages import (
    document_page,
    glossary_page,
    guide_pages,
    guides,
    index_page,
    register_page,
    search_page,
)
from horserace.site.fixture_pages import fixture_pages, fixtures_index
from horserace.site.markdown import Markdown
from horserace.site.pages import Page
from horserace.site.rule_pages import rule_pages, rules_document
from horserace.site.search import guide_rows, search_rows, search_script

__all__ = ["MARKER", "SiteSummary", "build_site", "prepare_folder"]

#: The file that makes a folder a site of ``horserace site``.
MARKER = "site.json"
#: The folders a build writes whole, emptied before a rebuild.
_OWN_FOLDERS = ("rules", "fixtures", "guides", "export")
_STATIC = ("style.css", "search.js")


@dataclass(frozen=True)
class SiteSummary:
    out: Path
    pages: int  #: HTML pages
    files: int  #: every file, the export's included
    size: int  #: bytes, every file
    fixtures: int
    drawings: int  #: layout drawings on the fixture pages
    seconds: float


def prepare_folder(out: Path, *, force: bool = False) -> None:
    """Make ``out`` ready for a site, or refuse it with a :class:`UsageError` that says
    why: a file, a folder that cannot be made or written, or a folder of other files."""
    try:
        out.mkdir(parents=True, exist_ok=True)  # exist_ok is for a folder only: a file raises
        # Writable is found by writing, not by the permission bits: root passes those, a
        # read-only file system does not.
        fd, probe = tempfile.mkstemp(prefix=".horserace-site-", dir=out)
        os.close(fd)
        Path(probe).unlink()
    except FileExistsError:
        raise UsageError(f"horserace: site {out}: a file, not a folder") from None
    except OSError as exc:
        doing = "write in it" if out.is_dir() else "make it"
        raise UsageError(f"horserace: site {out}: cannot {doing}: {exc.strerror or exc}") from None
    if not (out / MARKER).is_file():
        foreign = sorted(p.name for p in out.iterdir())
        if foreign and not force:
            more = f" and {len(foreign) - 1} more" if len(foreign) > 1 else ""
            raise UsageError(
                f"horserace: site {out}: the folder holds other files ({foreign[0]}{more}) and no {MARKER} "
                "of an earlier site; nothing was written (give an empty or new folder, or --force to write into it)"
            )
        return
    for name in _OWN_FOLDERS:
        if (out / name).is_dir() and not (out / name).is_symlink():
            shutil.rmtree(out / name)


def _write(path: Path, text: str) -> int:
    """Write one file of the site whole (a signal meanwhile is acted on once it is in
    place: an interrupted build leaves whole files and no temporary one)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise EnvironmentFailure.from_os_error(exc, path) from None
    atomic_write(path, text)
    return len(text.encode("utf-8"))


def _static(name: str) -> str:
    return resources.files("horserace.site").joinpath("static", name).read_text(encoding="utf-8")


def build_site(out: Path, fixtures: list[Fixture], *, corpus: Path | None = None, force: bool = False) -> SiteSummary:
    """Write the site of ``fixtures`` (the corpus under ``corpus``, default the bundled
    one) and of the bundled spec/ into ``out``."""
    started = time.perf_counter()
    out = Path(out)
    corpus = Path(corpus or default_corpus())
    prepare_folder(out, force=force)
    # The folder is marked first, so that a build cut short (a signal, a full disk) is still
    # known as a site's, and the next build replaces it without --force; the marker's full
    # text, written last, is what says the site is whole ("complete").
    _write(out / MARKER, json.dumps({"suite": __version__, "complete": False}, indent=2) + "\n")
    try:
        manifest = export_json(out / "export", corpus)
    except OSError as exc:
        raise EnvironmentFailure.from_os_error(exc, out / "export") from None
    spec = spec_dir()
    cat = make_catalogue(fixtures, bundled())
    cat.exported = {f"export/{name}" for key in ("files", "rulesets", "schemas", "spec") for name in manifest[key]}
    cat.exported.add("export/manifest.json")
    md = Markdown(cat)

    def read(name: str) -> str:
        return (spec / name).read_text(encoding="utf-8")

    checkout = source_root()  # the changelog and the guides are a checkout's (beside its spec/); a wheel has neither
    in_checkout = (checkout / "spec" / "rules.md").is_file()
    changelog = checkout / "CHANGELOG.md" if in_checkout else None

    def repository_file(name: str) -> str | None:
        path = checkout / name
        return path.read_text(encoding="utf-8") if in_checkout and path.is_file() else None

    all_guides = guides(repository_file)
    pages: list[Page] = [
        index_page(cat),
        rules_document(cat, md, read("rules.md")),
        *rule_pages(cat, md),
        fixtures_index(cat),
        *fixture_pages(cat, corpus),
        register_page(cat, md, read("interpretations.md")),
        glossary_page(cat, md, read("glossary.md")),
        document_page("protocol.html", read("protocol.md"), "The conformance protocol", md),
        document_page("fixture-format.html", read("fixture-format.md"), "The fixture format", md),
        document_page(
            "changelog.html",
            changelog.read_text(encoding="utf-8") if changelog and changelog.is_file() else None,
            "Changelog",
            md,
            missing="This installation of horserace carries no CHANGELOG.md (a wheel does not); "
            "the project's repository has it.",
        ),
        *guide_pages(all_guides, md),
        search_page(),
    ]
    size = 0
    written: list[str] = []
    for page in pages:
        size += _write(out / page.path, page.text)
        written.append(page.path)
    for name in _STATIC:
        size += _write(out / name, _static(name))
        written.append(name)
    size += _write(out / "search-index.js", search_script(search_rows(cat) + guide_rows(all_guides, md)))
    written.append("search-index.js")
    export_files = [p for p in (out / "export").rglob("*") if p.is_file()]
    size += sum(p.stat().st_size for p in export_files)
    drawings = sum(page.text.count('class="hr-layout"') for page in pages if page.path.startswith("fixtures/"))
    seconds = time.perf_counter() - started
    files = [*written, *sorted(str(p.relative_to(out)) for p in export_files)]
    stamp = {
        "suite": __version__,
        "protocol": PROTOCOL_VERSION,
        "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "fixtures": len(fixtures),
        "rules": len(cat.rules),
        "pages": len(pages),
        "drawings": drawings,
        "files": files,
        "complete": True,
    }
    size += _write(out / MARKER, json.dumps(stamp, indent=2) + "\n")
    return SiteSummary(out, len(pages), len(files) + 1, size, len(fixtures), drawings, seconds)
