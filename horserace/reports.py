"""Reports, all derived from one JSON Lines result stream.

The stream is a header (suite and protocol versions, the implementation's hello, the
options), one line per fixture, and a footer (counts, verdict).  It is written to a
temporary file and renamed into place, so a reader never sees half a stream, and it is
finished (with ``"interrupted": true``) even when the run is cut short.  The terminal
summary, JSON, JUnit XML, Markdown and HTML reports are made from the stream alone.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from horserace import __version__
from horserace.protocol import PROTOCOL_VERSION

PASSING = ("pass", "xfail", "skip")


class ResultStream:
    """Writes the JSON Lines stream atomically: ``with ResultStream(path, header) as s``."""

    def __init__(self, path: Path, header: dict) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".results-", suffix=".jsonl.tmp", dir=self.path.parent)
        self._tmp = Path(tmp)
        self._file = os.fdopen(fd, "w", encoding="utf-8")
        #: Written with the first result (so that the implementation's hello can join it).
        self.header = {"record": "header", "suite": __version__, "protocol": PROTOCOL_VERSION,
                       "started": _now(), **header}
        self._header_written = False
        self.results: list[dict] = []
        self.footer: dict | None = None

    def _write(self, record: dict) -> None:
        if not self._header_written:
            self._header_written = True
            self._write(self.header)
        self._file.write(json.dumps(record, ensure_ascii=False) + "\n")

    def add(self, record: dict) -> None:
        self.results.append(record)
        self._write(record)

    def finish(self, footer: dict) -> None:
        self.footer = {"record": "footer", "finished": _now(), **footer}
        self._write(self.footer)
        self._file.flush()
        os.fsync(self._file.fileno())
        self._file.close()
        _readable(self._tmp)
        os.replace(self._tmp, self.path)

    def __enter__(self) -> "ResultStream":
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if self.footer is None:
            self.finish({"interrupted": True, "counts": tally(self.results), "conformant": False,
                         "error": f"{exc_type.__name__}: {exc}" if exc_type else "the run did not finish"})


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime())


def tally(results: list[dict]) -> dict[str, int]:
    out: dict[str, int] = {}
    for r in results:
        out[r["status"]] = out.get(r["status"], 0) + 1
    return out


def read_stream(path: Path) -> tuple[dict, list[dict], dict]:
    header: dict = {}
    footer: dict = {}
    results = []
    with open(path, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            kind = record.get("record")
            if kind == "header":
                header = record
            elif kind == "footer":
                footer = record
            else:
                results.append(record)
    return header, results, footer


def per_rule(results: list[dict]) -> list[dict]:
    """Rows of passed / failed / skipped per primary rule, in rule order."""
    rows: dict[str, dict[str, Any]] = {}
    for r in results:
        row = rows.setdefault(r["rule"], {"rule": r["rule"], "passed": 0, "failed": 0, "skipped": 0, "failing": []})
        if r["status"] == "skip":
            row["skipped"] += 1
        elif r["status"] in PASSING:
            row["passed"] += 1
        else:
            row["failed"] += 1
            row["failing"].append(r["id"])
    return sorted(rows.values(), key=lambda row: _rule_key(row["rule"]))


def _rule_key(rule: str) -> tuple:
    parts = rule.split("-")
    return (parts[1] if len(parts) > 2 else rule, int(parts[-1]) if parts[-1].isdigit() else 0)


def implementation_name(header: dict) -> str:
    hello = header.get("implementation") or {}
    if not hello:
        return header.get("command", "implementation")
    return f"{hello.get('name', '?')} {hello.get('version', '')} ({hello.get('language', '?')})".strip()


# ---------------------------------------------------------------------- renderers
def terminal(header: dict, results: list[dict], footer: dict, *, verbose_limit: int = 20) -> str:
    lines = [f"horserace {header.get('suite')} conformance, protocol {header.get('protocol')}: "
             f"{implementation_name(header)}"]
    if footer.get("unusable"):
        lines.append(f"implementation unusable: {footer['unusable']}")
        return "\n".join(lines)
    shown = 0
    for r in results:
        if r["status"] in PASSING:
            continue
        if shown == verbose_limit:
            lines.append("  ... (see the reports for the rest)")
            break
        shown += 1
        lines.append(f"{r['status'].upper()} {r['id']} [{r['kind']}] ({r['rule']}) {r['file']}:{r['line']}: {r['message']}".rstrip(": "))
        for d in r.get("differences", [])[:5]:
            lines.append(f"    {d['path']}: expected {json.dumps(d['expected'])}, got {json.dumps(d['actual'])}")
    rows = per_rule(results)
    if rows:
        lines.append("")
        lines.append(f"{'rule':<14} {'passed':>7} {'failed':>7} {'skipped':>8}")
        for row in rows:
            lines.append(f"{row['rule']:<14} {row['passed']:>7} {row['failed']:>7} {row['skipped']:>8}")
    counts = footer.get("counts", tally(results))
    lines.append("")
    lines.append(", ".join(f"{n} {k}" for k, n in counts.items() if n) or "no fixtures")
    verdict = "CONFORMANT" if footer.get("conformant") else "NOT CONFORMANT"
    if footer.get("interrupted"):
        verdict = "INTERRUPTED"
    lines.append(verdict)
    return "\n".join(lines)


def json_report(header: dict, results: list[dict], footer: dict) -> dict:
    return {"header": header, "footer": footer, "rules": per_rule(results), "results": results}


def junit_xml(header: dict, results: list[dict], footer: dict) -> str:
    """One test case per fixture, named by ID and grouped by primary rule."""
    failures = sum(1 for r in results if r["status"] not in PASSING and r["status"] not in ("error", "crash", "timeout"))
    errors = sum(1 for r in results if r["status"] in ("error", "crash", "timeout"))
    skipped = sum(1 for r in results if r["status"] == "skip")
    total_time = sum(r.get("seconds", 0) for r in results)
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           f'<testsuites name={quoteattr("horserace " + str(header.get("suite")))} tests="{len(results)}" '
           f'failures="{failures}" errors="{errors}" skipped="{skipped}" time="{total_time:.3f}">',
           f'  <testsuite name={quoteattr(implementation_name(header))} tests="{len(results)}" failures="{failures}" '
           f'errors="{errors}" skipped="{skipped}" time="{total_time:.3f}">']
    for r in results:
        attrs = f'classname={quoteattr(r["rule"])} name={quoteattr(r["id"] + " " + r.get("description", ""))} time="{r.get("seconds", 0):.4f}" file={quoteattr(r["file"])} line="{r["line"]}"'
        status = r["status"]
        body = "\n".join(f"{d['path']}: expected {json.dumps(d['expected'])}, got {json.dumps(d['actual'])}" for d in r.get("differences", []))
        if status in ("pass", "xfail"):
            out.append(f"    <testcase {attrs}/>")
        elif status == "skip":
            out.append(f"    <testcase {attrs}><skipped message={quoteattr(r['message'])}/></testcase>")
        elif status in ("error", "crash", "timeout"):
            out.append(f"    <testcase {attrs}><error type={quoteattr(status)} message={quoteattr(r['message'])}>{escape(r.get('stderr', ''))}</error></testcase>")
        else:
            out.append(f"    <testcase {attrs}><failure type={quoteattr(status)} message={quoteattr(r['message'] or status)}>{escape(body)}</failure></testcase>")
    out.append("  </testsuite>")
    out.append("</testsuites>")
    return "\n".join(out) + "\n"


def markdown(header: dict, results: list[dict], footer: dict) -> str:
    counts = footer.get("counts", tally(results))
    verdict = "conformant" if footer.get("conformant") else "not conformant"
    lines = [f"# Horse Race conformance: {implementation_name(header)}", "",
             f"Suite {header.get('suite')}, protocol {header.get('protocol')}, {header.get('started')}: **{verdict}**.", "",
             "| outcome | fixtures |", "|---|---:|"]
    lines += [f"| {k} | {n} |" for k, n in counts.items() if n]
    if footer.get("unusable"):
        lines += ["", f"The implementation could not be used: {footer['unusable']}"]
    lines += ["", "## Per rule", "", "| rule | passed | failed | skipped | failing fixtures |", "|---|---:|---:|---:|---|"]
    for row in per_rule(results):
        lines.append(f"| {row['rule']} | {row['passed']} | {row['failed']} | {row['skipped']} | {' '.join(row['failing'])} |")
    failing = [r for r in results if r["status"] not in PASSING]
    if failing:
        lines += ["", "## Failures", ""]
        for r in failing:
            lines.append(f"### {r['id']} ({r['rule']}): {r['status']}")
            lines.append("")
            lines.append(f"{r.get('description', '')} — `{r['file']}:{r['line']}`")
            if r["message"]:
                lines += ["", r["message"].replace("|", "\\|")]
            if r.get("differences"):
                lines += ["", "| field | expected | actual |", "|---|---|---|"]
                for d in r["differences"]:
                    lines.append(f"| `{d['path']}` | `{json.dumps(d['expected'])}` | `{json.dumps(d['actual'])}` |")
            lines.append("")
    return "\n".join(lines) + "\n"


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
        written[name] = _atomic_write(out_dir / filename, text)
    from horserace.html_report import render_html

    written["html"] = _atomic_write(out_dir / "report.html", render_html(header, results, footer))
    return written


def _atomic_write(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    _readable(Path(tmp))
    os.replace(tmp, path)
    return path


def _current_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _current_umask()  # read once, at import: os.umask is process-wide


def _readable(path: Path) -> None:
    """mkstemp makes files 0600; reports are ordinary files (0666 less the umask)."""
    os.chmod(path, 0o666 & ~_UMASK)
