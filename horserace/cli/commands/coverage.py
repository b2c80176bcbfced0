"""``horserace coverage``: rule IDs against fixtures; fails on gaps."""

from __future__ import annotations

import argparse
import json

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


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Print the matrix of rule IDs against the fixtures that cite them. Fails (exit 1) "
        "when a rule has fewer than three fixtures or a register reading is named by fewer than three.",
    )
    paths_option(p)
    selection_options(p)
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.corpus.rule_coverage import coverage_report
    from horserace.reports.coverage_text import format_text

    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    report = coverage_report(selected_fixtures(corpus.fixtures, args))
    write_out(json.dumps(report, indent=2) if args.format == "json" else format_text(report))
    return ExitCode.FAILURES if report["gaps"] else ExitCode.OK
