"""``horserace completion SHELL``: a completion script for bash, zsh or fish."""

from __future__ import annotations

import argparse

from horserace.cli._completion import SHELLS
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode

__all__ = ["NAME", "register", "run"]

NAME = "completion"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Print a completion script for SHELL: the commands, each command's options, the "
        "choices of an option, and for --select/--deselect the bundled corpus's fixture IDs, rule IDs, "
        "kinds and reading:FIELD=VALUE words. Load it now with 'source <(horserace completion bash)' "
        "(zsh: the same with zsh; fish: 'horserace completion fish | source'), or write it where your "
        "shell reads completions (the script's first lines say where). Made again after an upgrade.",
    )
    p.add_argument("shell", choices=SHELLS, metavar="SHELL", help=f"one of {', '.join(SHELLS)}")


def run(args: argparse.Namespace) -> int:
    from horserace.cli._completion import script, words
    from horserace.cli._options import write_out
    from horserace.corpus.loader import load_paths
    from horserace.engine.ruleset import VARIANT_FIELDS

    fixtures = load_paths(None).fixtures
    patterns = [
        *sorted({fx.id for fx in fixtures}),
        *sorted({rule for fx in fixtures for rule in fx.rules}),
        *sorted({fx.kind for fx in fixtures}),
        *(f"reading:{field}={reading}" for field, readings in VARIANT_FIELDS.items() for reading in readings),
    ]
    write_out(script(args.shell, words(args.build_parser, HELP, patterns)), end="")
    return ExitCode.OK
