"""Every report of a run, written next to its result stream, and the comparison page of
several runs."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

from horserace._files import atomic_copy, atomic_write
from horserace.reports.badge import BADGE_JSON, BADGE_SVG, badge_for, badge_svg, endpoint_json
from horserace.reports.budget import TEXT_BUDGET, fitted
from horserace.reports.comparison import render_comparison
from horserace.reports.html import render_html
from horserace.reports.json_report import json_report
from horserace.reports.junit import junit_xml
from horserace.reports.links import RULES_COPY, links_for
from horserace.reports.markdown import markdown
from horserace.reports.runs import STREAM_NAME, Run
from horserace.reports.stream import read_stream
from horserace.resources.paths import spec_dir

__all__ = ["COMPARISON_PAGE", "REPORT_FILES", "write_all", "write_comparison", "write_run"]

#: What :func:`write_all` writes into a run's folder, by format (the stream first).
REPORT_FILES = {
    "jsonl": STREAM_NAME,
    "json": "report.json",
    "junit": "junit.xml",
    "markdown": "report.md",
    "html": "report.html",
    "badge": BADGE_SVG,
    "endpoint": BADGE_JSON,
    "rules": RULES_COPY,
}
#: The comparison page of several runs, in the folder that holds theirs.
COMPARISON_PAGE = "index.html"


def write_all(stream_path: Path, out_dir: Path, link_base: str | None = None) -> dict[str, Path]:
    """Write every report next to the stream; returns their paths by format."""
    return write_run(Run(*read_stream(stream_path), stream_path), out_dir, link_base)


def write_run(run: Run, out_dir: Path, link_base: str | None = None) -> dict[str, Path]:
    """Write every report of ``run`` into ``out_dir``, with a copy of its stream unless
    the stream is already there; returns their paths by format.  Rule links go to
    ``link_base`` (:func:`horserace.reports.links.links_for`: by default the spec beside
    the folder, else the copy of the rules written into it)."""
    header, results, footer = run.header, run.results, run.footer
    out_dir.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    target = out_dir / REPORT_FILES["jsonl"]
    if run.source is not None and _same_file(run.source, target):
        written["jsonl"] = run.source
    elif run.source is not None:  # the stream as it was stored, byte for byte
        written["jsonl"] = atomic_copy(run.source, target)
    else:
        lines = [header, *results, footer]
        written["jsonl"] = atomic_write(
            target, "".join(json.dumps(r, ensure_ascii=False, allow_nan=False) + "\n" for r in lines)
        )
    badge = badge_for(run)
    links = links_for(out_dir, link_base)
    results = fitted(results)  # every report under its cap (the stream above as it was)
    for name, text in (
        (
            "json",
            json.dumps(json_report(header, results, footer), indent=2, ensure_ascii=False, allow_nan=False) + "\n",
        ),
        ("junit", junit_xml(header, results, footer, links=links)),
        ("markdown", markdown(header, results, footer, links=links)),
        ("html", render_html(header, results, footer, rule_links=links)),
        ("badge", badge_svg(badge)),
        ("endpoint", endpoint_json(badge)),
    ):
        written[name] = atomic_write(out_dir / REPORT_FILES[name], text)
    if links.copy:  # last: the reports first, should the disk fill
        written["rules"] = _copy_rules(out_dir)
    return written


def write_comparison(
    runs: Sequence[Run], out_dir: Path, folders: Sequence[str | None], link_base: str | None = None
) -> Path:
    """The comparison page of ``runs`` in ``out_dir``, linking each run's reports in its
    folder (relative to ``out_dir``); rule references as :func:`write_run` makes them."""
    out_dir.mkdir(parents=True, exist_ok=True)
    links = links_for(out_dir, link_base)
    if links.copy:
        _copy_rules(out_dir)
    share = TEXT_BUDGET // max(len(runs), 1)
    shown = [replace(one, results=fitted(one.results, share)) for one in runs]  # the page under its cap
    return atomic_write(out_dir / COMPARISON_PAGE, render_comparison(shown, folders, links=links))


def _copy_rules(out_dir: Path) -> Path:
    """The rules beside the reports (:data:`~horserace.reports.links.RULES_COPY`), for a
    folder that has no spec beside it: its links work wherever it is copied."""
    return atomic_write(out_dir / RULES_COPY, (spec_dir() / "rules.md").read_text(encoding="utf-8"))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.resolve() == b.resolve() or (b.exists() and a.samefile(b))
    except OSError:
        return False
