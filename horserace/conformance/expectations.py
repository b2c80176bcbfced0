"""Expectations files: the fixtures an implementation is known to fail
(``horserace conform --expectations FILE``; ``--write-expectations FILE`` writes one).

The format is YAML (or JSON), one mapping::

    expected_failures:
      FIXTURE_ID: reason

Strict: a listed fixture that passes is reported (``xpass``), and a listed ID that is
not in the corpus is an error of the file.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path
from typing import Any

import yaml

from horserace.corpus.status import Status
from horserace.errors import ExpectationsError
from horserace.resources.strict_yaml import read_document

__all__ = ["prune_expectations", "read_expectations", "unknown_ids", "write_expectations"]

_HEADER = (
    "# Fixtures this implementation is expected to fail (horserace conform --expectations).\n"
    "# A listed fixture that passes is reported (xpass): remove it then.\n"
)


def read_expectations(path: str | Path) -> dict[str, str]:
    """``{fixture ID: reason}`` from an expectations file; raises
    :class:`~horserace.errors.ExpectationsError` with the file's place."""
    name = str(path)
    _, data = read_document(Path(path), name, ExpectationsError)
    failures = data.get("expected_failures") if isinstance(data, dict) else None
    if not isinstance(failures, dict) or not all(
        isinstance(k, str) and isinstance(v, str) for k, v in failures.items()
    ):
        raise ExpectationsError("expected a mapping 'expected_failures: {FIXTURE_ID: reason}'", file=name)
    return failures


def unknown_ids(expected: dict[str, str], known: Iterable[str], path: str | Path) -> None:
    """Raise :class:`~horserace.errors.ExpectationsError` if the file lists IDs the corpus
    does not hold."""
    unknown = sorted(set(expected) - set(known))
    if unknown:
        raise ExpectationsError(f"unknown fixture IDs {', '.join(unknown)}", file=str(path))


def write_expectations(path: str | Path, results: list[dict[str, Any]], previous: dict[str, str] | None = None) -> None:
    """Write the failures of a run (its result records) as an expectations file; a
    fixture still failing keeps its reason from ``previous`` (the file the run read)."""
    previous = previous or {}
    # What fails now: a listed fixture that passes (xpass) is dropped, one still failing
    # (xfail) kept, so that writing the file after a run converges on the truth.
    failing = {
        r["id"]: previous.get(r["id"]) or f"{r['status']} ({r['rule']})"
        for r in results
        if r["status"] not in (Status.PASS, Status.SKIP, Status.XPASS)
    }
    text = _HEADER + yaml.safe_dump({"expected_failures": failing}, sort_keys=True, allow_unicode=True)
    with Path(path).open("w", encoding="utf-8") as f:
        f.write(text)


def prune_expectations(path: str | Path, results: list[dict[str, Any]], previous: dict[str, str]) -> list[str]:
    """Rewrite the expectations file ``path`` without the fixtures that now pass
    (``xpass`` in ``results``), every other entry kept with its reason (those that did
    not run included); the IDs removed, in the file's order."""
    now_pass = {r["id"] for r in results if r["status"] == Status.XPASS}
    removed = [fid for fid in previous if fid in now_pass]
    kept = {fid: reason for fid, reason in previous.items() if fid not in now_pass}
    text = _HEADER + yaml.safe_dump({"expected_failures": kept}, sort_keys=True, allow_unicode=True)
    with Path(path).open("w", encoding="utf-8") as f:
        f.write(text)
    return removed
