"""``horserace site DIR``: the specification and the corpus as a static site."""

from __future__ import annotations

import argparse
import sys

from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "site"

_DESCRIPTION = """\
Write the specification and the guides as a static site into DIR, from spec/, the
bundled corpus (scenarios/), and a checkout's README.md and docs/:

  index.html            where to start; the search box on every page finds rules,
                        fixtures, register entries, glossary terms (in all four
                        languages) and the sections of the guides by ID or by words
  rules.html            spec/rules.md whole; rules/HR-XXX-N.html, one page per rule:
                        its text, its sources in the three documents (the sections they
                        cite), the register entries that bear on it, the glossary terms
                        it uses and every fixture that cites it
  fixtures.html         every fixture by kind; fixtures/ID.html, one page per fixture:
                        its description, why, input and expected values, and for layout
                        and play fixtures the layout drawn after every step (drawn by
                        the reference engine; the values beside it are the fixture's)
  register.html         every entry of the register with its readings and the fixtures
                        that pin each reading
  glossary.html         the terms in English, Indonesian, Italian and Finnish
  protocol.html, fixture-format.html, changelog.html
  guides/               the README (guides/index.html) and every guide of docs/, their
                        links to each other and to the specification kept (a wheel
                        carries no docs/: its Guides page says where they are)
  export/               the JSON export (as 'horserace export' writes it), linked from
                        every page

Every link is relative: open DIR/index.html from disk, or publish DIR on any static web
host. DIR may be new, empty, or a site written before (rebuilt in place); a folder of
other files is refused unless --force is given. Needs markdown-it-py:
pip install 'horserace[site]'.

examples:
  horserace site public/            then open public/index.html
  horserace site /tmp/site --force  write into a folder that holds other files"""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description=_DESCRIPTION,
        epilog="Exit codes: 0 written; 2 the corpus does not load (each error with its place); "
        "4 DIR cannot be used (a file, not writable, a folder of other files) or markdown-it-py is "
        "missing; 6 the disk failed while writing.",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    p.add_argument("out", metavar="DIR", help="the folder to write the site into (made if missing)")
    p.add_argument("--force", action="store_true", help="write into DIR even if it holds files of something else")


def run(args: argparse.Namespace) -> int:
    from pathlib import Path

    from horserace.cli._options import load_corpus, print_load_errors

    try:
        from horserace.site.build import build_site  # markdown-it-py is the [site] extra
    except ImportError as exc:
        if not (exc.name or "").startswith(("markdown_it", "mdurl")):
            raise
        print(f"horserace: site needs markdown-it-py: pip install 'horserace[site]' ({exc})", file=sys.stderr)
        return ExitCode.USAGE
    corpus = load_corpus([])
    if corpus.errors:
        return print_load_errors(corpus, "text")
    out = Path(args.out)
    summary = build_site(out, corpus.fixtures, force=args.force)
    print(
        f"wrote the site of {summary.fixtures} fixtures to {out} in {summary.seconds:.1f} s: {summary.pages} pages, "
        f"{summary.drawings} layout drawings, {summary.files} files with the JSON export, {summary.size / 1e6:.1f} MB"
    )
    print(f"open {out / 'index.html'}")
    return ExitCode.OK
