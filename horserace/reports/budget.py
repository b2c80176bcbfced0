"""The size cap of every report: no report of a run is over 2 MiB, whatever the run's
implementation wrote.

``conform`` keeps at most 64 KiB of each free text (:mod:`horserace.conformance.bounds`),
which is not enough on its own: a 15 MiB message on each of 191 fixtures is 12 MiB kept,
and each report would copy it.  So before the reports are made, the long texts of a run
(every string over :data:`LONG_TEXT` bytes: messages, standard error, differences, values
in dispute) share :data:`TEXT_BUDGET` between them: when they hold more, each is cut to
its share (never below :data:`LONG_TEXT`), and says so, as ``conform`` cuts.  The stream
keeps what ``conform`` kept; only the reports made from it are fitted.
"""

from __future__ import annotations

import copy
from typing import Any

from horserace.conformance.bounds import cut

__all__ = ["LONG_TEXT", "REPORT_CAP", "TEXT_BUDGET", "fitted"]

#: The cap that every report (report.json, junit.xml, report.md, report.html) honours.
REPORT_CAP = 2 * 1024 * 1024
#: What the long texts of one run may hold in all, in UTF-8 bytes: a report repeats a
#: message at most twice (JUnit's attribute and body), beside 1.3 MB of a run in which
#: every one of 191 fixtures fails (report.json, the largest).
TEXT_BUDGET = 256 * 1024
#: A text up to this long is never cut by the budget.
LONG_TEXT = 1024


def fitted(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """``results`` themselves when their long texts fit :data:`TEXT_BUDGET`, else a copy
    with each long text cut to its share."""
    long = [len(text.encode("utf-8")) for text in _strings(results) if len(text) * 4 > LONG_TEXT]
    long = [n for n in long if n > LONG_TEXT]
    if sum(long) <= TEXT_BUDGET:
        return results
    share = max(TEXT_BUDGET // len(long), LONG_TEXT)
    out = copy.deepcopy(results)
    todo: list[Any] = [out]
    while todo:
        value = todo.pop()
        items = value.items() if isinstance(value, dict) else enumerate(value)
        for key, item in list(items):
            if isinstance(item, str):
                if len(item) * 4 > share:
                    value[key] = cut(item, share)
            elif isinstance(item, (dict, list)):
                todo.append(item)
    return out


def _strings(value: Any) -> list[str]:
    found: list[str] = []
    todo = [value]
    while todo:
        one = todo.pop()
        for item in one.values() if isinstance(one, dict) else one:
            if isinstance(item, str):
                found.append(item)
            elif isinstance(item, (dict, list)):
                todo.append(item)
    return found
