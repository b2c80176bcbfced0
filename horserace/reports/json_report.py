"""``report.json``: the header, the footer, the rows per rule and every result."""

from __future__ import annotations

from horserace.reports.summary import per_rule

__all__ = ["json_report"]


def json_report(header: dict, results: list[dict], footer: dict) -> dict:
    return {"header": header, "footer": footer, "rules": per_rule(results), "results": results}
