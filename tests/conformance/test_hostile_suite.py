"""The hostile suite: one deliberately broken implementation per way an implementation can
misbehave (tests/conformance/fake_impl.py), each run through the real ``horserace
conform`` command in persistent mode, in one-shot mode and with ``--jobs 2``.

Every run is checked for the runner's whole promise, not only the outcome in question:

- the exit code, and exactly one outcome for every fixture selected (the verdict never
  counts fewer fixtures than were run), with the expected outcome and reason;
- all five reports exist and parse with strict parsers: the stream and report.json
  without NaN or Infinity, junit.xml as XML, report.html with no script, no event
  attribute and no raw control character, report.md with no raw control character;
  none is larger than a bound (what is kept of an answer is bounded);
- the runner's own peak memory is bounded: it runs under ``RLIMIT_AS`` of 1 GiB, and its
  peak resident memory must stay under 600 MiB;
- the wall time is bounded, and no process of the implementation is left running.

Fast by design: five fixtures (one of each kind), ``--timeout 1`` where a case is about a
timeout (10 s where many MiB must arrive in time on a busy machine); the three modes of
a case run side by side.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from tests.helpers import alive

pytestmark = pytest.mark.slow  # subprocesses

HERE = Path(__file__).parent
FAKE = HERE / "fake_impl.py"
LIMITED = HERE / "limited_conform.py"
ROOT = HERE.parent.parent
LAYOUT, SETTLEMENT, ILLEGAL, PLAY, PERFT = "7SWR67", "P4RYQF", "NCZ0MC", "CZ2EBQ", "CSBZVK"
FIXTURES = (LAYOUT, SETTLEMENT, ILLEGAL, PLAY, PERFT)
MEMORY_LIMIT = 1 << 30  # RLIMIT_AS: the address space, not the resident memory
PEAK_LIMIT_MIB = 600
REPORT_LIMIT = 2 * 1024 * 1024
WALL_LIMIT = 60.0
MODES = {"persistent": [], "one-shot": ["--one-shot"], "jobs-2": ["--jobs", "2"]}
REPORTS = ("results.jsonl", "report.json", "junit.xml", "report.md", "report.html")
CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


@dataclass
class Case:
    """A broken implementation (``mode`` and ``arg`` of fake_impl.py) and what the user
    gets: the exit code, and the outcome (with words of its reason) of the fixtures it
    breaks; every other fixture passes, but for at most one fixture with ``any_one``
    (which one depends on the order the mode runs them in; the exit code then too)."""

    mode: str
    arg: str = ""
    exit: int | tuple[int, ...] = 1
    broken: dict[str, tuple[str, str]] = field(default_factory=dict)
    any_one: tuple[str, str] | None = None
    #: Words the implementation's name must hold in the stream's header (from its hello).
    name_has: str = ""
    #: Words the terminal output must hold.
    terminal_has: str = ""
    #: The test's ID, where one mode has two cases.
    label: str = ""
    #: Only in these modes (the one-shot mode has no process that outlives a request).
    modes: tuple[str, ...] = tuple(MODES)
    #: ``--timeout``: 1 s where the case is about a timeout; more where an answer of many
    #: MiB, or a flood of stderr, must arrive in time on a busy machine (three runs at
    #: once on two cores, and whatever else runs there).
    timeout: str = "1"


def _each(status: str, words: str, ids: tuple[str, ...] = FIXTURES) -> dict[str, tuple[str, str]]:
    return dict.fromkeys(ids, (status, words))


CASES = [
    Case("good", exit=0),
    # Answers that a lenient parser would take but are no protocol message.
    Case("deep", LAYOUT, broken={LAYOUT: ("crash", "nested too deep")}),
    Case("nan", LAYOUT, broken={LAYOUT: ("crash", "not strict JSON: NaN")}),
    Case("huge-number", LAYOUT, broken={LAYOUT: ("crash", "-1e400 is beyond a 64-bit float")}),
    Case("long-integer", LAYOUT, broken={LAYOUT: ("crash", "an integer of 5,000 digits (at most 4,000)")}),
    Case("surrogate-observations", LAYOUT, broken={LAYOUT: ("crash", "lone surrogate")}),
    Case("non-utf8", LAYOUT, broken={LAYOUT: ("crash", "not UTF-8")}),
    Case("non-json", LAYOUT, broken={LAYOUT: ("crash", "not JSON")}),
    Case("wrong-seq", LAYOUT, broken={LAYOUT: ("crash", "seq")}),
    Case("huge-line", LAYOUT, broken={LAYOUT: ("crash", "longer than 16 MiB")}, timeout="10"),
    # Free text that must be kept as text.
    Case("surrogate-message", LAYOUT, broken={LAYOUT: ("error", "bad \ufffd input")}),
    Case(
        "control-message",
        LAYOUT,
        broken={LAYOUT: ("error", "CONFORMANT")},
        terminal_has="\\x1b[2J\\x0dCONFORMANT\\x07\\x0asecond line",  # visible, not obeyed
    ),
    # Unbounded growth: every fixture answered with 12-15 MiB.
    Case("huge-containers", "*", broken=_each("crash", "too large to decode"), timeout="10"),
    Case("huge-strings", "*", broken=_each("fail", "not kept", (LAYOUT, SETTLEMENT, PLAY)), timeout="10"),
    Case("huge-message", "*", broken=_each("error", "bytes cut"), timeout="10"),
    Case("huge-name", exit=0, name_has="bytes cut)", timeout="10"),
    Case("flood-stderr", exit=0, timeout="10"),
    # Sizes refused where they arrive, each with the bound it breaks.
    Case("many-fields", LAYOUT, broken={LAYOUT: ("crash", "40,003 fields (at most 100)")}, timeout="10"),
    # Processes that hang, die, or leave helpers behind.
    Case("hang-fixture", LAYOUT, broken={LAYOUT: ("timeout", "no answer within 1 s")}),
    Case("close-stdout", LAYOUT, broken={LAYOUT: ("crash", "closed its output")}),
    Case("daemon-exit", LAYOUT, broken={LAYOUT: ("", "")}),
    Case("setsid-exit", LAYOUT, broken={LAYOUT: ("", "")}),
    Case("setsid-clean-env", LAYOUT, broken={LAYOUT: ("", "")}),
    Case("extra-lines", LAYOUT, exit=(0, 1), any_one=("crash", "nobody asked for")),
    # No answer to one request, answers to the later ones: in persistent mode the next
    # answer arrives in its place (elsewhere the process exits or the time runs out).
    Case("skip-one", SETTLEMENT, broken={SETTLEMENT: ("crash", f"no answer for {SETTLEMENT}")}, modes=("persistent",)),
    Case(
        "skip-one", SETTLEMENT, broken={SETTLEMENT: ("", "")}, modes=("one-shot", "jobs-2"), label="skip-one-elsewhere"
    ),
    # Handshakes that make the implementation unusable (exit 3, reports still written).
    Case("deep-hello", exit=3),
    Case("nan-hello", exit=3),
    Case("huge-number-hello", exit=3, terminal_has="beyond a 64-bit float"),
    Case("other-protocol", exit=3),
    # A hello line over 1 MiB is refused before it is decoded, whatever it holds.
    Case("many-targets", exit=3, terminal_has="bytes (at most 1,048,576 for this message)", timeout="10"),
    Case("many-hello-keys", exit=3, terminal_has="bytes (at most 1,048,576 for this message)", timeout="10"),
    Case("huge-hello", exit=3, terminal_has="answer line of 15,729,001 bytes", timeout="10"),
    Case("long-protocol", exit=3, terminal_has="protocol: 5,002 characters (at most 16)"),
    Case("hang-handshake", exit=3),
    Case("surrogate-hello", exit=0, name_has="fake \ufffd engine [lone surrogates replaced by U+FFFD]"),
]


class _Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _strict_json(text: str):
    def refuse(constant: str):
        raise ValueError(f"bare {constant}: strict parsers refuse it")

    return json.loads(text, parse_constant=refuse)


def _processes_with(tag: str) -> list[str]:
    found = subprocess.run(["pgrep", "-f", tag], capture_output=True, text=True).stdout.split()
    return [pid for pid in found if int(pid) != os.getpid()]


@pytest.fixture(scope="module")
def five(tmp_path_factory) -> Path:
    """The five fixtures in one file (JSON, which the loader reads as it reads YAML), so
    that each run loads five fixtures, not the corpus."""
    import yaml

    chosen = {}
    for path in sorted((ROOT / "scenarios" / "rule-text").glob("*.yaml")):
        for item in yaml.safe_load(path.read_text(encoding="utf-8")):
            if item["id"] in FIXTURES:
                chosen[item["id"]] = item
    assert sorted(chosen) == sorted(FIXTURES)
    target = tmp_path_factory.mktemp("hostile") / "five.json"
    target.write_text(json.dumps([chosen[fid] for fid in FIXTURES], indent=1), encoding="utf-8")
    return target


def _run(case: Case, mode: str, folder: Path, fixtures: Path) -> list[str]:
    """One conform run of ``case`` in ``mode``; the broken promises, as text."""
    folder.mkdir()
    tag = f"hostile-{folder.parent.name}-{mode}"  # in the command line of every fake process
    report, out, pids = folder / "report", folder / "out.json", folder / "pids"
    env = {**os.environ, "FAKE_PID_FILE": str(pids), "FAKE_COUNT_FILE": str(folder / "count")}
    argv = [
        sys.executable,
        str(LIMITED),
        str(MEMORY_LIMIT),
        str(out),
        str(fixtures),
        "--impl",
        f"{sys.executable} {FAKE} {case.mode} {case.arg or '-'} {tag}",
        "--report-dir",
        str(report),
        "--timeout",
        case.timeout,
        "--handshake-timeout",
        "2" if case.timeout == "1" else case.timeout,
        *MODES[mode],
    ]
    start = time.monotonic()
    try:
        done = subprocess.run(argv, capture_output=True, env=env, timeout=WALL_LIMIT * 2, cwd=ROOT)
    except subprocess.TimeoutExpired:
        return [f"no end within {WALL_LIMIT * 2:g} s"]
    wall = time.monotonic() - start
    broken: list[str] = []
    terminal = done.stdout.decode("utf-8", "replace") + done.stderr.decode("utf-8", "replace")
    if done.returncode not in (case.exit if isinstance(case.exit, tuple) else (case.exit,)):
        broken.append(f"exit {done.returncode}, expected {case.exit}: {terminal[-600:]}")
    if "Traceback" in terminal:
        broken.append(f"a traceback reached the user: {terminal[-600:]}")
    if CONTROL.search(terminal.replace("\r", "")):
        broken.append("a raw control character reached the terminal")
    if case.terminal_has not in terminal:
        broken.append(f"the terminal output lacks {case.terminal_has!r}")
    if wall > WALL_LIMIT:
        broken.append(f"took {wall:.1f} s (bound {WALL_LIMIT:g} s)")
    if out.exists():
        peak = json.loads(out.read_text())["peak_kib"] / 1024
        if peak > PEAK_LIMIT_MIB:
            broken.append(f"peak memory {peak:.0f} MiB (bound {PEAK_LIMIT_MIB} MiB)")
    else:
        broken.append("the runner did not finish (no peak memory written)")
    # Every report, strictly.
    texts = {}
    for name in REPORTS:
        path = report / name
        if not path.exists():
            broken.append(f"{name} was not written")
            continue
        if path.stat().st_size > REPORT_LIMIT:
            broken.append(f"{name} is {path.stat().st_size:,} bytes (bound {REPORT_LIMIT:,})")
        texts[name] = path.read_text(encoding="utf-8")
    if len(texts) < len(REPORTS):
        return broken
    try:
        records = [_strict_json(line) for line in texts["results.jsonl"].splitlines()]
        _strict_json(texts["report.json"])
    except ValueError as exc:
        return [*broken, f"a JSON report is not strict JSON: {exc}"]
    try:
        ET.fromstring(texts["junit.xml"])
    except ET.ParseError as exc:
        broken.append(f"junit.xml is not well-formed: {exc}")
    parser = _Tags()
    parser.feed(texts["report.html"])
    if [t for t, _ in parser.tags if t in ("script", "iframe", "object", "embed")]:
        broken.append("report.html holds a script or an embedded object")
    if [a for _, attrs in parser.tags for a in attrs if a.startswith("on")]:
        broken.append("report.html holds an event attribute")
    broken.extend(
        f"{name} holds a raw control character"
        for name in ("report.html", "report.md", "junit.xml")
        if CONTROL.search(texts[name])
    )
    # Exactly one outcome for every fixture, the expected ones.
    results = [r for r in records if r.get("record") == "result"]
    if case.name_has:
        header: dict[str, Any] = next((r for r in records if r.get("record") == "header"), {})
        name = (header.get("implementation") or {}).get("name", "")
        if case.name_has not in name or len(name) > 70_000:
            broken.append(f"the implementation's name in the stream: {name[:80]!r}... ({len(name):,} characters)")
    footer: dict[str, Any] = next((r for r in records if r.get("record") == "footer"), {})
    if case.exit == 3:
        if results or not footer.get("unusable"):
            broken.append(f"an unusable implementation: {len(results)} results, footer {footer}")
    else:
        ids = [r["id"] for r in results]
        if sorted(ids) != sorted(FIXTURES):
            broken.append(f"outcomes for {sorted(ids)}, expected one for each of {sorted(FIXTURES)}")
        spare = case.any_one
        for r in results:
            status, words = case.broken.get(r["id"], ("pass", ""))
            if status == "" and r["status"] in ("timeout", "crash"):
                continue  # a daemon holding the pipes: a timeout or a crash, either is true
            if spare and r["id"] not in case.broken and r["status"] == spare[0] and spare[1] in r["message"]:
                spare = None
                continue
            if r["status"] != status or words not in r["message"]:
                broken.append(f"{r['id']}: {r['status']} {r['message'][:200]!r}, expected {status} {words!r}")
    # No process left: the fakes carry the tag, the daemons wrote their PIDs.
    deadline = time.monotonic() + 3
    daemons = [int(line) for line in pids.read_text().split()] if pids.exists() else []
    while time.monotonic() < deadline and (_processes_with(tag) or any(alive(p) for p in daemons)):
        time.sleep(0.05)
    left = _processes_with(tag) + [str(p) for p in daemons if alive(p)]
    if left:
        broken.append(f"processes left running: {left}")
        for pid in left:
            with contextlib.suppress(OSError):
                os.kill(int(pid), 9)
    return broken


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="RLIMIT_AS, /proc and pgrep: Linux")
@pytest.mark.parametrize("case", CASES, ids=[c.label or c.mode for c in CASES])
def test_a_hostile_implementation_cannot_break_the_runner(case, tmp_path, five):
    with ThreadPoolExecutor(len(case.modes)) as pool:
        found = dict(zip(case.modes, pool.map(lambda m: _run(case, m, tmp_path / m, five), case.modes), strict=True))
    broken = [f"{mode}: {problem}" for mode, problems in found.items() for problem in problems]
    assert broken == []
