"""``horserace report``: every report again from stored result streams, nothing run."""

from __future__ import annotations

import argparse
from pathlib import Path

from horserace.cli._options import REPORT_DIR, format_option, link_base_option
from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "register", "run"]

NAME = "report"


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Write every report (JSON, JUnit XML, Markdown, HTML, the badge) again from "
        "result streams that conform wrote (results.jsonl; a report folder means the stream in it), "
        "without running anything. One stream: its reports in --out (default: the stream's own "
        "folder). Several: each one's reports in OUT/NAME-VERSION/ (from its hello) and the "
        f"comparison page OUT/index.html (default OUT: ./{REPORT_DIR}). Exit 0 when the reports "
        "are written (the verdicts are in them), 2 for a stream that cannot be read (file:line), "
        "4 for one that does not exist.",
    )
    p.add_argument("streams", nargs="+", metavar="RESULTS.jsonl", help="result streams (or report folders)")
    p.add_argument(
        "--out",
        metavar="DIR",
        help=f"where the reports go (default: the stream's folder; for several, ./{REPORT_DIR})",
    )
    link_base_option(p)
    format_option(p)


def run(args: argparse.Namespace) -> int:
    from horserace.cli._results import print_run, print_runs, writable_folder
    from horserace.reports.runs import folder_name, load_run, unique_folders
    from horserace.reports.write import write_comparison, write_run

    runs = [load_run(Path(path)) for path in args.streams]
    seen: dict[Path, str] = {}
    for path, one in zip(args.streams, runs, strict=True):
        assert one.source is not None
        where = one.source.resolve()
        if where in seen:
            raise UsageError(f"horserace: {path} is the stream of {seen[where]} again: give each stream once")
        seen[where] = path
    if len(runs) == 1:
        run_one = runs[0]
        assert run_one.source is not None
        out_dir = Path(args.out) if args.out else run_one.source.parent
        writable_folder(out_dir, "--out")
        print_run(run_one, write_run(run_one, out_dir, args.link_base), out_dir, args.format, args.link_base)
        return ExitCode.OK
    out_dir = Path(args.out or REPORT_DIR)
    writable_folder(out_dir, "--out")
    folders = unique_folders(folder_name(one.hello, f"impl-{n}") for n, one in enumerate(runs, 1))
    written = [write_run(one, out_dir / folder, args.link_base) for one, folder in zip(runs, folders, strict=True)]
    print_runs(runs, written, write_comparison(runs, out_dir, folders, args.link_base), args.format)
    return ExitCode.OK
