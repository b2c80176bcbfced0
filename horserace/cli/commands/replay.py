"""``horserace replay``: load fixtures strictly and replay them in process."""

from __future__ import annotations

import argparse
import json
import time

from horserace.cli._options import (
    format_option,
    load_corpus,
    paths_option,
    print_load_errors,
    ruleset_from,
    selected_fixtures,
    selection_options,
    variant_options,
    write_out,
)
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "replay"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Load fixtures strictly (YAML, schema, meaning) and replay each against the "
        "reference engine, comparing expected and actual observations field by field.",
    )
    paths_option(p)
    selection_options(p)
    variant_options(
        p,
        "replay under a ruleset with this reading of the register; fixtures for other "
        "readings are skipped (repeatable; default: each fixture under its own readings)",
    )
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.corpus.replay import replay_fixture
    from horserace.corpus.status import Status
    from horserace.reports.command_text import replay_text

    start = time.perf_counter()
    corpus = load_corpus(args.paths)
    if corpus.errors:
        return print_load_errors(corpus, args.format)
    ruleset = ruleset_from(args) if (args.variant or args.rules) else None
    fixtures = selected_fixtures(corpus.fixtures, args)
    results = [replay_fixture(fx, ruleset) for fx in fixtures]
    elapsed = time.perf_counter() - start
    counts = {
        str(s): sum(1 for r in results if r.status is s) for s in (Status.PASS, Status.FAIL, Status.ERROR, Status.SKIP)
    }
    bad = counts["fail"] + counts["error"]
    if args.format == "json":
        write_out(
            json.dumps(
                {
                    "summary": {
                        "fixtures": len(results),
                        **counts,
                        "seconds": round(elapsed, 3),
                        "variants": ruleset.variants if ruleset else "each fixture's own",
                    },
                    "results": [r.to_dict() for r in results],
                },
                indent=2,
            )
        )
    else:
        write_out(replay_text(results, counts, corpus.files, elapsed))
    return ExitCode.FAILURES if bad else ExitCode.OK
