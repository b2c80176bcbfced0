"""The size cap of every report: no report of a run is over 2 MiB, whatever the run's
implementation wrote.

``conform`` keeps at most 64 KiB of each free text (:mod:`horserace.conformance.bounds`),
which is not enough on its own: a 15 MiB message on each of 191 fixtures is 12 MiB kept,
and each report would copy it.  So before the reports are made, the long texts of a run
(every string over :data:`LONG_TEXT` bytes: messages, standard error, differences, values
in dispute) share :data:`TEXT_BUDGET` between them: when they hold more, each is cut to
its share (never below :data:`LONG_TEXT`), and says so, as ``conform`` cuts.  The result
stream is fitted as it is written: each record to its share of
:data:`STREAM_TEXT_BUDGET`.
"""

from __future__ import annotations

import copy
from typing import Any, TypeVar

from horserace.conformance.bounds import cut

__all__ = ["LONG_TEXT", "REPORT_CAP", "STREAM_TEXT_BUDGET", "TEXT_BUDGET", "fitted", "fitted_record", "record_share"]

#: The cap that every report (report.json, junit.xml, report.md, report.html) honours.
REPORT_CAP = 2 * 1024 * 1024
#: What the long texts of one run may hold in all, in UTF-8 bytes: a report repeats a
#: message at most twice (JUnit's attribute and body), beside 1.3 MB of a run in which
#: every one of 191 fixtures fails (report.json, the largest).
TEXT_BUDGET = 256 * 1024
#: A text up to this long is never cut by the budget.
LONG_TEXT = 1024
#: What the long texts of a run's result stream may hold in all: each record gets its
#: share of it (by the header's count of fixtures), so that the stream, written as the
#: run goes, stays under :data:`REPORT_CAP` too (a run in which all 191 fixtures fail
#: writes 0.6 MB besides).
STREAM_TEXT_BUDGET = 1024 * 1024


def fitted(results: list[dict[str, Any]], budget: int = TEXT_BUDGET) -> list[dict[str, Any]]:
    """``results`` themselves when their long texts fit ``budget`` bytes, else a copy
    with each long text cut to its share (the comparison page of N runs gives each
    ``TEXT_BUDGET / N``)."""
    long = [len(text.encode("utf-8", "surrogatepass")) for text in _strings(results) if len(text) * 4 > LONG_TEXT]
    long = [n for n in long if n > LONG_TEXT]
    if sum(long) <= budget:
        return results
    return _cut_all(results, max(budget // len(long), LONG_TEXT))


#: A JSON document cut to size: a stream record, or a report's list of them.
_Doc = TypeVar("_Doc", dict[str, Any], list[dict[str, Any]])


def record_share(fixtures: object) -> int:
    """The bytes of long text one record of a stream of ``fixtures`` results may hold."""
    count = fixtures if isinstance(fixtures, int) and fixtures > 0 else 1
    return max(STREAM_TEXT_BUDGET // count, LONG_TEXT)


def fitted_record(record: dict[str, Any], share: int) -> dict[str, Any]:
    """``record`` itself when its long texts fit ``share`` bytes, else a copy with each
    cut to its part of it (never below :data:`LONG_TEXT`)."""
    long = [len(text.encode("utf-8", "surrogatepass")) for text in _strings(record) if len(text) * 4 > LONG_TEXT]
    long = [n for n in long if n > LONG_TEXT]
    if sum(long) <= share:
        return record
    return _cut_all(record, max(share // len(long), LONG_TEXT))


def _cut_all(value: _Doc, limit: int) -> _Doc:
    out = copy.deepcopy(value)
    todo: list[Any] = [out]
    while todo:
        one = todo.pop()
        items = one.items() if isinstance(one, dict) else enumerate(one)
        for key, item in list(items):
            if isinstance(item, str):
                if len(item) * 4 > limit:
                    one[key] = cut(item, limit)
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
