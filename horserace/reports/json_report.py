"""``report.json``: the header, the footer, the verdict, the diagnosis (the causes of the
failures, most first), the rows per rule and every result."""

from __future__ import annotations

from typing import Any

from horserace.reports.causes import run_causes
from horserace.reports.links import record_file
from horserace.reports.stream import STREAM_SCHEMA
from horserace.reports.summary import per_rule, verdict
from horserace.resources.locations import is_machine_path

__all__ = ["json_report"]


def json_report(header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any]) -> dict[str, Any]:
    """The report of schema :data:`STREAM_SCHEMA`: a result of an older stream that gave
    its fixture's file as a path of the machine gets its repository's location."""
    judged = verdict(header, results, footer)
    results = [{**r, "file": record_file(r)} if is_machine_path(str(r.get("file", ""))) else r for r in results]
    return {
        "schema": STREAM_SCHEMA,
        "header": header,
        "footer": footer,
        "verdict": {"text": judged.text, "tone": judged.tone},
        "diagnosis": run_causes(results).to_dict(),
        "rules": per_rule(results),
        "results": results,
    }
