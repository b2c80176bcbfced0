"""``report.json``: the header, the footer, the rows per rule and every result."""

from __future__ import annotations

from horserace.reports.summary import per_rule, verdict

__all__ = ["json_report"]


def json_report(header: dict, results: list[dict], footer: dict) -> dict:
    judged = verdict(header, results, footer)
    return {
        "header": header,
        "footer": footer,
        "verdict": {"text": judged.text, "tone": judged.tone},
        "rules": per_rule(results),
        "results": results,
    }
