"""The ``horserace`` command line: build the parser from the command modules, run one, and
turn what it raised into an exit code from the one table (:mod:`horserace.cli.exitcodes`).

No traceback reaches a user unless ``--debug`` asks for it.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from horserace._version import __version__
from horserace.cli._options import unwound_by_signals
from horserace.cli.commands import HELP, load
from horserace.cli.exitcodes import ExitCode, Stopped, exit_code_for
from horserace.errors import (
    EnvironmentFailure,
    HorseRaceError,
    ImplementationUnusable,
    InputError,
    UsageError,
    close_to,
    did_you_mean,
)

__all__ = ["build_parser", "entry_point", "main"]


class _Parser(argparse.ArgumentParser):
    """No abbreviations (``--sel`` is not ``--select``: an option a later version adds
    must not change what an old command line means), and errors that are
    :class:`UsageError` (exit 4) with the close matches of a mistyped option."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs["allow_abbrev"] = False
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse exits 2 by default; our table says 4
        raise UsageError(f"{self.prog}: {message}\n{self.format_usage().rstrip()}")

    def unrecognized(self, words: Sequence[str]) -> NoReturn:
        """The error for words the parser does not know, each option with its close
        matches among this parser's options."""
        hints = []
        known = [o for o in self._option_string_actions if o.startswith("--")]
        for word in words:
            if word.startswith("-"):
                option = word.partition("=")[0]
                prefixed = [o for o in known if o.startswith(option)]  # an abbreviation
                close = list(dict.fromkeys([*prefixed, *close_to(option, known, cutoff=0.75)]))[:3]
                if close:
                    hints.append(f"{word}: {did_you_mean(close)}")
        said = f"unrecognized arguments: {' '.join(words)}"
        self.error(f"{said} ({'; '.join(hints)})" if hints else said)


def _unknown_command(word: str) -> UsageError:
    close = close_to(word, HELP)
    hint = f" ({did_you_mean(close)})" if close else ""
    return UsageError(
        f"horserace: no command is named {word!r}{hint}; the commands: {', '.join(HELP)} (horserace --help)"
    )


def _command_of(argv: Sequence[str]) -> str | None:
    """The command a command line names: its first word that is not an option (the
    top-level options take no values)."""
    return next((word for word in argv if not word.startswith("-")), None)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser with the options of ``command``; the other commands appear in
    ``--help`` with their one-line help only (their modules are not imported)."""
    parser = _Parser(
        prog="horserace",
        description="horserace: the specification suite for Horse Race (Fives family dominoes). "
        "Start with 'horserace conform' to run the scenario corpus against the reference engine, "
        'or against your own implementation with --impl "COMMAND" (see spec/protocol.md).',
        epilog="Exit codes: 0 success; 1 failures or differences found; 2 invalid input data; "
        "3 implementation under test unusable; 4 usage error; 5 internal error; 6 the environment failed "
        "(a full disk, a permission); 129, 130, 143 stopped by SIGHUP, SIGINT, SIGTERM.",
    )
    parser.add_argument("--version", action="version", version=f"horserace {__version__}")
    parser.add_argument("--debug", action="store_true", help="show a traceback on internal errors")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)
    # For an error in the command's own words; and the builder itself, handed down to the
    # command that reads every parser (completion), which cannot import this module.
    parser.set_defaults(command_parsers=sub.choices, build_parser=build_parser)
    for name, help_text in HELP.items():
        if name == command:
            load(name).register(sub)
        else:  # listed in --help; its options are registered when it is the command
            sub.add_parser(name, help=help_text, add_help=False)
    return parser


def _message(exc: BaseException) -> str:
    if isinstance(exc, UsageError):
        text = str(exc)
        return text if text.startswith("horserace") else f"horserace: {text}"
    if isinstance(exc, InputError):
        return f"horserace: {exc.render()}"
    if isinstance(exc, ImplementationUnusable):
        return f"horserace: the implementation is unusable: {exc}"
    if isinstance(exc, EnvironmentFailure):
        return f"horserace: the environment failed: {exc}"
    if isinstance(exc, KeyboardInterrupt):
        return "horserace: interrupted"
    return f"horserace: {exc}"


def main(argv: Sequence[str] | None = None, *, own_process: bool = False) -> int:
    """Run one command; its exit code.  ``own_process``: this process is the ``horserace``
    program (:func:`entry_point`), so every child it has is one horserace started, and a
    child the run did not start is an implementation's orphan; a library caller's
    process may have children of its own (the default)."""
    words = list(sys.argv[1:] if argv is None else argv)
    debug = "--debug" in words
    command = _command_of(words)
    try:
        if command is not None and command not in HELP:
            raise _unknown_command(command)  # noqa: TRY301  (every error of a command, this one too, meets the one handler below)
        parser = build_parser(command)
        args, extra = parser.parse_known_args(words)
        if args.command is None:
            if extra:
                assert isinstance(parser, _Parser)
                parser.unrecognized(extra)
            parser.print_help()
            return ExitCode.USAGE
        if extra:  # said by the command's parser, with its usage, not the top level's
            command_parser: _Parser = args.command_parsers[args.command]
            command_parser.unrecognized(extra)
        args.own_process = own_process
        with unwound_by_signals():  # SIGTERM and SIGHUP end every command as Ctrl-C does
            code: int = load(args.command).run(args)
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        return ExitCode.OK
    except OSError as exc:
        code = exit_code_for(exc)
        if code is ExitCode.INTERNAL:
            if debug:
                raise
            print(
                f"horserace: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)",
                file=sys.stderr,
            )
        else:  # a full disk, a permission refused: the machine's, not a defect of ours
            where = f": {exc.filename}" if exc.filename else ""
            print(f"horserace: the environment failed: {exc.strerror or exc}{where}", file=sys.stderr)
        return code
    except (HorseRaceError, KeyboardInterrupt, Stopped) as exc:
        code = exit_code_for(exc)
        if code is ExitCode.INTERNAL and debug:
            raise
        print(_message(exc), file=sys.stderr)
        return code
    except Exception as exc:  # a defect of ours: one line, not a traceback
        if debug:
            raise
        print(
            f"horserace: internal error: {type(exc).__name__}: {exc} (rerun with --debug for details)", file=sys.stderr
        )
        return ExitCode.INTERNAL
    else:
        return code


def entry_point() -> None:
    try:
        code = main(own_process=True)
    except KeyboardInterrupt:  # Ctrl-C before main's own handling began, or after it ended
        code = ExitCode.INTERRUPTED
    sys.exit(code)
