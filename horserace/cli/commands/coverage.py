"""``horserace coverage``: what the fixtures distinguish, per reading and per rule; fails on gaps."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from horserace.cli._options import (
    format_option,
    load_corpus,
    paths_option,
    print_load_errors,
    selected_fixtures,
    selection_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "coverage"

_DESCRIPTION = """\
Count what the fixtures distinguish, not only what they name.

  a reading   of a register field (spec/interpretations.md): the fixtures that name it
              and fail when the reference engine is fixed to the field's other reading
              (their other readings kept);
  a rule      of spec/rules.md: the fixtures that fail under a deviation of that rule
              (the registry of 'horserace mutants --list'), replayed in process.

Rules that no deviation names are listed apart: they are not counted as covered (each
still needs three fixtures citing it). Fails (exit 1) when a reading or a rule is
distinguished by fewer than three fixtures, a rule is cited by fewer than three, or an
illegal fixture of the rule-text corpus has no legal twin, naming each with its count.
The bundled corpus takes a few seconds; the generated perft tables
(scenarios/generated/perft, given as a path) take minutes under the deviations."""


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description=_DESCRIPTION,
        epilog="examples:\n  horserace coverage\n  horserace coverage --format json\n"
        "  horserace coverage scenarios/rule-text/play-individual.yaml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    paths_option(p)
    selection_options(p)
    p.add_argument(
        "--cache",
        metavar="FILE",
        type=Path,
        help="keep each judgement (this fixture under that deviation or that other reading) in FILE, "
        "by the fixture's content and the package's code: a later run judges only what changed "
        "(the generated perft tables take minutes the first time)",
    )
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.quality.distinguishing import JudgementCache, distinguishing_coverage
    from horserace.reports.coverage_text import format_text

    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    fixtures = selected_fixtures(corpus.fixtures, args)
    cache = JudgementCache(args.cache) if args.cache is not None else None
    report = distinguishing_coverage(fixtures, cache=cache)
    if cache is not None:
        problem = cache.save()
        report["cache"] = {"file": str(args.cache), "judged": cache.judged, "written": not problem}
        if problem:
            print(f"horserace coverage: the cache {args.cache} could not be written: {problem}", file=sys.stderr)
    write_out(json.dumps(report, indent=2) if args.format == "json" else format_text(report))
    return ExitCode.FAILURES if report["gaps"] else ExitCode.OK
