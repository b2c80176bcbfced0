"""``report.json``: the header, the footer, the verdict, the diagnosis (the causes of the
failures, most first), the rows per rule and every result."""

from __future__ import annotations

from horserace.reports.causes import run_causes
from horserace.reports.stream import STREAM_SCHEMA
from horserace.reports.summary import per_rule, verdict

__all__ = ["json_report"]


def json_report(header: dict, results: list[dict], footer: dict) -> dict:
    judged = verdict(header, results, footer)
    return {
        "schema": STREAM_SCHEMA,
        "header": header,
        "footer": footer,
        "verdict": {"text": judged.text, "tone": judged.tone},
        "diagnosis": run_causes(results).to_dict(),
        "rules": per_rule(results),
        "results": results,
    }
