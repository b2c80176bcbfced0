"""What ``conform`` and ``report`` print about the runs whose reports they wrote, and
the checks both make of a report folder."""

from __future__ import annotations

import json
import os
from collections.abc import Sequence
from pathlib import Path

from horserace.cli._options import write_out
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError
from horserace.reports.badge import badge_for
from horserace.reports.causes import run_causes
from horserace.reports.links import links_for
from horserace.reports.runs import Run
from horserace.reports.summary import per_rule, verdict
from horserace.reports.terminal import SHIELDS_NOTE, badge_lines, badges_lines, run_line, terminal

__all__ = ["print_run", "print_runs", "worst", "writable_folder"]


def writable_folder(folder: Path, option: str) -> None:
    """Refuse, before anything runs, a folder the reports cannot be written to."""
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"horserace: {option} {folder}: a file, not a folder")
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"horserace: {option} {folder}: cannot make it: {exc.strerror}") from None
    if not os.access(folder, os.W_OK | os.X_OK):
        raise UsageError(f"horserace: {option} {folder}: not writable")


def worst(runs: Sequence[Run]) -> int:
    """The exit code of several runs: 3 if any implementation was unusable, else 1 if any
    is not conformant, else 0."""
    codes = [int(run.footer.get("exit_code", ExitCode.FAILURES)) for run in runs]
    if ExitCode.IMPLEMENTATION_UNUSABLE in codes:
        return ExitCode.IMPLEMENTATION_UNUSABLE
    return ExitCode.FAILURES if any(code != ExitCode.OK for code in codes) else ExitCode.OK


def _badge(run: Run, written: dict[str, Path]) -> list[str]:
    return badge_lines(badge_for(run), str(written["badge"]), str(written["endpoint"]))


def _paths(written: dict[str, Path]) -> dict[str, str]:
    return {k: str(v) for k, v in written.items()}


def print_run(run: Run, written: dict[str, Path], out_dir: Path, fmt: str, link_base: str | None = None) -> None:
    """One run: the terminal summary, where the reports and the badge are (or, with
    ``--format json``, the footer, the rows per rule and the reports' paths); its rule
    links are the report folder's, as seen from the working folder."""
    if fmt == "json":
        rows = per_rule(run.results)
        said = {
            "verdict": verdict(run.header, run.results, run.footer).text,
            "footer": run.footer,
            "diagnosis": run_causes(run.results).to_dict(),
            "rules": rows,
            "reports": _paths(written),
        }
        write_out(json.dumps(said, indent=2))
        return
    header = {**run.header}
    header.setdefault("implementation", None)
    links = links_for(out_dir, link_base).seen_from(str(out_dir))
    write_out(terminal(header, run.results, run.footer, links=links))
    where = written.get("html") or written.get("markdown")
    write_out(f"reports in {out_dir}/ (HTML: {where})")
    write_out("\n".join([*_badge(run, written), SHIELDS_NOTE]))


def print_runs(runs: Sequence[Run], written: Sequence[dict[str, Path]], page: Path, fmt: str) -> None:
    """Several runs: a line per implementation, the comparison page, every badge."""
    if fmt == "json":
        out = {
            "implementations": [
                {
                    "implementation": run.hello or None,
                    "verdict": verdict(run.header, run.results, run.footer).text,
                    "footer": run.footer,
                    "diagnosis": run_causes(run.results).to_dict(),
                    "rules": per_rule(run.results),
                    "reports": _paths(files),
                }
                for run, files in zip(runs, written, strict=True)
            ],
            "comparison": str(page),
        }
        write_out(json.dumps(out, indent=2))
        return
    suites = ", ".join(dict.fromkeys(str(run.header.get("suite")) for run in runs))
    protocols = ", ".join(dict.fromkeys(str(run.header.get("protocol")) for run in runs))
    lines = [f"horserace {suites} conformance, protocol {protocols}: {len(runs)} implementations"]
    lines += [
        "  " + run_line(run.header, run.results, run.footer, str(files.get("html", "")))
        for run, files in zip(runs, written, strict=True)
    ]
    lines.append(f"comparison of the {len(runs)} implementations: {page}")
    lines += badges_lines(
        [
            (badge_for(run), str(files["badge"]), str(files["endpoint"]))
            for run, files in zip(runs, written, strict=True)
        ]
    )
    lines.append(SHIELDS_NOTE)
    write_out("\n".join(lines))
