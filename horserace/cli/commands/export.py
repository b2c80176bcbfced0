"""``horserace export``: the corpus, rulesets and schemas as plain JSON, with the spec."""

from __future__ import annotations

import argparse
from pathlib import Path

from horserace.cli._options import load_corpus, print_load_errors
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "export"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Write DIR/manifest.json (suite and protocol versions, date, file list), "
        "DIR/scenarios/**.json (each fixture file as a JSON list, paths kept), DIR/rulesets/*.json "
        "DIR/schema/**.json and the spec's documents as DIR/spec/*.md, for users who never run "
        "horserace's Python code.",
    )
    p.add_argument("out", metavar="DIR", help="the folder to write into")
    p.add_argument("--format", choices=("json",), default="json", help="export format (only json)")


def run(args: argparse.Namespace) -> int:
    from horserace.corpus.export import export_json

    corpus = load_corpus([])
    if corpus.errors:
        return print_load_errors(corpus, "text")
    manifest = export_json(Path(args.out))
    print(
        f"exported {manifest['fixtures']} fixtures in {len(manifest['files'])} files, "
        f"{len(manifest['rulesets'])} rulesets, {len(manifest['schemas'])} schemas "
        f"and {len(manifest['spec'])} spec documents "
        f"(suite {manifest['suite']}, protocol {manifest['protocol']}) to {args.out}"
    )
    return ExitCode.OK
