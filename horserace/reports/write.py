"""Every report of a run, written next to its result stream."""

from __future__ import annotations

import json
from pathlib import Path

from horserace.reports._files import atomic_write
from horserace.reports.html import render_html
from horserace.reports.json_report import json_report
from horserace.reports.junit import junit_xml
from horserace.reports.markdown import markdown
from horserace.reports.stream import read_stream

__all__ = ["write_all"]


def write_all(stream_path: Path, out_dir: Path) -> dict[str, Path]:
    """Write every report next to the stream; returns their paths by format."""
    header, results, footer = read_stream(stream_path)
    out_dir.mkdir(parents=True, exist_ok=True)
    written = {"jsonl": stream_path}
    for name, text in (
        ("json", json.dumps(json_report(header, results, footer), indent=2, ensure_ascii=False) + "\n"),
        ("junit", junit_xml(header, results, footer)),
        ("markdown", markdown(header, results, footer)),
    ):
        filename = {"json": "report.json", "junit": "junit.xml", "markdown": "report.md"}[name]
        written[name] = atomic_write(out_dir / filename, text)
    written["html"] = atomic_write(out_dir / "report.html", render_html(header, results, footer))
    return written
