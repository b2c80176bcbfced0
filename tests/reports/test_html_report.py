"""The HTML conformance report and its layout drawings (horserace/html_report.py,
horserace/svg.py), and the page in a real browser (headless Chromium)."""

from __future__ import annotations

import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from horserace.corpus.compare import Difference
from horserace.engine.layout import PORT_NAMES, Layout
from horserace.engine.tiles import FULL_SET_MASK, NAMES
from horserace.reports.html import failing_layout, render_html
from horserace.reports.stream import ResultStream
from horserace.reports.svg import SPINNER_COLOUR, layout_svg
from horserace.reports.write import write_all
from horserace.resources.documents import load_rules
from tests.reports.devtools import BASE_FLAGS

SVG = "{http://www.w3.org/2000/svg}"

# The documents' long worked sequence (it "Doppie terminali e interne allo schema", fi
# "Tupla päässä ja sisäisenä laattana"), the [5|5] step included (HRI-11).
SEQUENCE = [
    {"tile": "[1|4]"},
    {"tile": "[1|1]", "target": "[1|4]", "port": "low"},
    {"tile": "[4|4]", "target": "[1|4]", "port": "high"},
    {"tile": "[3|4]", "target": "[4|4]", "port": "linear-b"},
    {"tile": "[1|2]", "target": "[1|1]", "port": "linear-b"},
    {"tile": "[1|5]", "target": "[1|1]", "port": "branch-a"},
    {"tile": "[5|5]", "target": "[1|5]", "port": "high"},
    {"tile": "[0|5]", "target": "[5|5]", "port": "linear-b"},
    {"tile": "[1|3]", "target": "[1|1]", "port": "branch-b"},
]
HOSTILE = '<script>alert("x")</script> & <img src=x onerror=alert(1)>'


# ---------------------------------------------------------------------- SVG helpers
def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)  # also proves the drawing is well-formed XML


def groups(root: ET.Element, cls: str) -> list[ET.Element]:
    return [g for g in root.iter(f"{SVG}g") if cls in (g.get("class") or "").split()]


def _find(element: ET.Element, path: str) -> ET.Element:
    found = element.find(path)
    assert found is not None, f"no {path} in {element.tag}"
    return found


def _get(element: ET.Element, key: str) -> str:
    value = element.get(key)
    assert value is not None, f"no {key} on {element.tag}"
    return value


def filled(root) -> list[tuple[str, int]]:
    """(tile, value) of every filled number: a circle with a fill and the value as text."""
    out = []
    for g in groups(root, "contribution"):
        circle = g.find(f"{SVG}circle")
        assert circle is not None and circle.get("fill") not in (None, "none")
        assert _find(g, f"{SVG}text").text == g.get("data-value")
        out.append((_get(g, "data-tile"), int(_get(g, "data-value"))))
    return sorted(out)


def hollow(root) -> list[tuple[str, str]]:
    """(tile, port) of every hollow dot: a circle with no fill and no text."""
    out = []
    for g in groups(root, "attachment"):
        circle = _find(g, f"{SVG}circle")
        assert circle.get("fill") == "none" and circle.get("stroke") not in (None, "none")
        assert g.find(f"{SVG}text") is None
        out.append((_get(g, "data-tile"), _get(g, "data-port")))
    return sorted(out)


def spinners(root) -> list[str]:
    out = []
    for g in groups(root, "spinner"):
        assert _find(g, f"{SVG}rect").get("stroke") == SPINNER_COLOUR
        out.append(_get(g, "data-tile"))
    return sorted(out)


def tile_rects(root) -> dict[str, tuple[float, float, float, float]]:
    out = {}
    for g in groups(root, "tile"):
        r = _find(g, f"{SVG}rect")
        x, y, w, h = (float(_get(r, k)) for k in ("x", "y", "width", "height"))
        out[_get(g, "data-tile")] = (x, y, x + w, y + h)
    return out


def text_of(root) -> str:
    return " ".join(t.text or "" for t in root.iter(f"{SVG}text"))


# ---------------------------------------------------------------------- the drawings
def test_first_snapshot_filled_numbers_for_both_terminal_doubles():
    # Printed snapshot after [4|4]: contributions [1|1]: 2; [4|4]: 8; sum 10; the free
    # linear sides are the counted ends, so there is no hollow dot.
    root = parse(layout_svg(SEQUENCE[:3], title="[1|4], [1|1], [4|4]"))
    assert filled(root) == [("[1|1]", 2), ("[4|4]", 8)]
    assert hollow(root) == []
    assert spinners(root) == ["[1|1]", "[4|4]"]
    assert "2 + 8 = 10" in text_of(root)
    assert root.get("data-sum") == "10"
    # The legend names the three marks.
    legend = text_of(root)
    assert "filled number = counted contribution" in legend
    assert "hollow dot = attachment point, not counted" in legend
    assert "orange outline = spinner" in legend


def test_doubles_lie_crosswise_and_the_opening_tile_in_the_middle():
    root = parse(layout_svg(SEQUENCE[:3]))
    rects = tile_rects(root)
    x0, y0, x1, y1 = rects["[1|4]"]
    assert x1 - x0 > y1 - y0  # the line runs left-right
    for double in ("[1|1]", "[4|4]"):
        dx0, dy0, dx1, dy1 = rects[double]
        assert dy1 - dy0 > dx1 - dx0  # across the line
    assert rects["[1|1]"][2] <= x0 and rects["[4|4]"][0] >= x1  # low end left, high end right
    # Each half shows its value.
    values = sorted(t.text for g in groups(root, "tile") for t in g.iter(f"{SVG}text"))
    assert values == ["1", "1", "1", "4", "4", "4"]


def test_open_branches_are_hollow_dots():
    # Snapshot after [3|4] on [4|4] linear-b: [4|4] interior (0) with both branches open;
    # counted [1|1]: 2, [3|4] low: 3 = 5.
    root = parse(layout_svg(SEQUENCE[:4]))
    assert filled(root) == [("[1|1]", 2), ("[3|4]", 3)]
    assert hollow(root) == [("[4|4]", "branch-a"), ("[4|4]", "branch-b")]
    assert "2 + 3 = 5" in text_of(root)


def test_last_snapshot_of_the_long_sequence():
    # Printed: counted [0|5]: 0; [1|2]: 2; [1|3]: 3; [3|4]: 3 = 8; free branches of
    # [4|4] and [5|5] (the branches of [1|1] are both used).
    root = parse(layout_svg(SEQUENCE))
    assert filled(root) == [("[0|5]", 0), ("[1|2]", 2), ("[1|3]", 3), ("[3|4]", 3)]
    assert hollow(root) == [("[4|4]", "branch-a"), ("[4|4]", "branch-b"), ("[5|5]", "branch-a"), ("[5|5]", "branch-b")]
    assert spinners(root) == ["[1|1]", "[4|4]", "[5|5]"]
    assert root.get("data-tiles") == "9"
    assert_no_overlaps(tile_rects(root))


def test_lone_opening_double_counts_once():
    root = parse(layout_svg([{"tile": "[2|2]"}]))
    assert filled(root) == [("[2|2]", 4)]  # 2 x 2 once, not 8
    assert hollow(root) == [] and spinners(root) == ["[2|2]"]
    assert "4 = 4" in text_of(root)


def test_opening_non_double_counts_both_ends():
    root = parse(layout_svg([{"tile": "[4|1]"}]))  # either half first on input
    assert filled(root) == [("[1|4]", 1), ("[1|4]", 4)]
    assert spinners(root) == [] and hollow(root) == []
    assert re.search(r"(1 \+ 4|4 \+ 1) = 5", text_of(root))


def test_branch_use_one_leaves_no_second_branch():
    placements = SEQUENCE[:6]  # [1|5] on [1|1] branch-a
    both = parse(layout_svg(placements))
    one = parse(layout_svg(placements, branch_use_one=True))
    assert ("[1|1]", "branch-b") in hollow(both)
    assert ("[1|1]", "branch-b") not in hollow(one)
    assert filled(both) == filled(one)


@pytest.mark.parametrize(
    ("bad", "drawn"),
    [
        ({"tile": "<script>", "target": "[4|4]", "port": "branch-a"}, 4),  # not tile notation
        ({"tile": "[2|5]", "target": "[3|4]", "port": "low"}, 4),  # no half 3 (HR-PLACE-1)
        ({"tile": "[4|6]", "target": "[3|4]", "port": "linear-a"}, 4),  # no such port on a non-double
        ({"tile": "[2|4]", "target": "[6|6]", "port": "high"}, 4),  # target not on the layout
        ({"tile": "[1|4]", "target": "[4|4]", "port": "branch-a"}, 4),  # already on the layout
        ({"tile": "[4|6]", "port": "sideways"}, 4),  # unknown port
        ({"tile": "[4|6]"}, 4),  # no target on a non-empty layout
        ({"target": "[4|4]"}, 4),  # no tile
        ("[4|6] on [4|4]", 4),  # not a mapping
        ({"tile": 46, "target": "[4|4]", "port": "branch-a"}, 4),  # not a string
    ],
)
def test_illegal_placements_do_not_crash(bad, drawn):
    svg = layout_svg([*SEQUENCE[:4], bad, *SEQUENCE[4:]], title=HOSTILE)
    root = parse(svg)
    assert root.get("data-tiles") == str(drawn)
    notes = [t.text for t in root.iter(f"{SVG}text") if t.get("class") == "note"]
    assert notes and notes[0].startswith("Note: placement 4")
    assert "later placement(s) not drawn" in " ".join(notes)
    assert "<script>" not in svg and "&lt;script&gt;" in svg


def test_odd_inputs_draw_an_empty_layout():
    for odd in ([], None, "nonsense", [{"tile": "[1|4]", "target": "[1|1]", "port": "low"}]):
        root = parse(layout_svg(odd))
        assert root.get("data-tiles") == "0"


def assert_no_overlaps(rects: dict) -> None:
    items = list(rects.items())
    for i, (a, ra) in enumerate(items):
        for b, rb in items[i + 1 :]:
            overlap = min(ra[2], rb[2]) - max(ra[0], rb[0]) > 0.5 and min(ra[3], rb[3]) - max(ra[1], rb[1]) > 0.5
            assert not overlap, (a, ra, b, rb)


def random_placements(seed: int) -> list[dict]:
    rng = random.Random(seed)
    layout, hand, out = Layout(), FULL_SET_MASK, []
    for _ in range(rng.randint(1, 28)):
        moves = layout.moves_for_mask(hand)
        if not moves:
            break
        t, target, port = rng.choice(moves)
        layout.place(t, target, port)
        hand &= ~(1 << t)
        out.append(
            {"tile": NAMES[t]}
            if target is None or port is None
            else {"tile": NAMES[t], "target": NAMES[target], "port": PORT_NAMES[port]}
        )
    return out


@pytest.mark.parametrize("seed", range(0, 300, 7))
def test_random_layouts_are_drawn_without_overlaps_and_deterministically(seed):
    placements = random_placements(seed)
    svg = layout_svg(placements)
    assert svg == layout_svg(placements)
    root = parse(svg)
    assert root.get("data-tiles") == str(len(placements))
    assert_no_overlaps(tile_rects(root))
    assert not [t for t in root.iter(f"{SVG}text") if t.get("class") == "note"]


# ---------------------------------------------------------------------- records
def layout_record(**extra) -> dict:
    steps = SEQUENCE
    record = {
        "record": "result",
        "id": "7SWR67",
        "kind": "layout",
        "file": "scenarios/rule-text/worked-examples.yaml",
        "line": 5,
        "rule": "HR-COUNT-1",
        "rules": ["HR-COUNT-1", "HR-SPIN-2"],
        "description": "The long worked sequence " + HOSTILE,
        "status": "fail",
        "message": "",
        "seconds": 0.01,
        "differences": [
            Difference(("steps", 3, "sum"), 5, 13).to_record(),
            Difference(("steps", 3, "contributions", 1, "value"), 3, "</td><script>x</script>").to_record(),
            Difference(("steps", 5, "sum"), 10, "<missing>").to_record(),
        ],
        "input": {"steps": steps},
        "expected": {"steps": [{"sum": 0}] * len(steps)},
        "variants": {},
        "observations": {"steps": [{"sum": 13, "note": HOSTILE}]},
    }
    record.update(extra)
    return record


def play_record(at: tuple, **extra) -> dict:
    events = [
        {"event": "place", "seat": 1, "tile": "[4|4]", "target": "[2|4]", "port": "high", "count": 9},
        {"event": "place", "seat": 1, "tile": "[1|1]", "target": "[1|2]", "port": "low", "count": 10},
        {"event": "draw", "seat": 2, "tile": "[0|0]"},
        {"event": "place", "seat": 2, "tile": "[3|4]", "target": "[4|4]", "port": "linear-b", "count": 5},
    ]
    record = {
        "record": "result",
        "id": "53RZXW",
        "kind": "play",
        "file": "p.yaml",
        "line": 1,
        "rule": "HR-TURN-1",
        "rules": ["HR-TURN-1"],
        "description": "play",
        "status": "fail",
        "message": "",
        "seconds": 0.0,
        "differences": [Difference(at, 1, 2).to_record()],
        "input": {
            "hands": [
                {
                    "layout": [{"tile": "[1|2]"}, {"tile": "[2|4]", "target": "[1|2]", "port": "high"}],
                    "placements": [
                        {"tile": "[4|4]", "target": "[2|4]", "port": "high"},
                        {"end_turn": True},
                        {"tile": "[1|1]", "target": "[1|2]", "port": "low"},
                        {"tile": "[3|4]", "target": "[4|4]", "port": "linear-b"},
                    ],
                }
            ]
        },
        "expected": {"hands": [{"events": events}]},
        "variants": {"continuation": "optional"},
    }
    record.update(extra)
    return record


HEADER: dict[str, Any] = {
    "record": "header",
    "suite": "0.1.0",
    "protocol": "1.0",
    "started": "2026-01-02T03:04:05Z",
    "command": "my-engine --serve",
    "mode": "persistent",
    "implementation": {
        "type": "hello",
        "protocol": "1.0",
        "name": "my<engine>",
        "version": "2.3.1",
        "language": "Rust & C",
        "kinds": ["layout", "play"],
        "readings": {"branch_use": "both"},
    },
}


def footer_for(results: list[dict], **extra) -> dict:
    counts: dict[str, int] = {}
    for r in results:
        counts[r["status"]] = counts.get(r["status"], 0) + 1
    return {
        "record": "footer",
        "finished": "2026-01-02T03:04:06Z",
        "counts": counts,
        "conformant": not any(r["status"] not in ("pass", "xfail", "skip") for r in results),
        **extra,
    }


def passing(fixture_id: str, rule: str, status: str = "pass") -> dict:
    return {
        "record": "result",
        "id": fixture_id,
        "kind": "settlement",
        "file": "s.yaml",
        "line": 3,
        "rule": rule,
        "rules": [rule],
        "description": "fine",
        "status": status,
        "message": "",
        "differences": [],
        "seconds": 0,
    }


# ---------------------------------------------------------------------- the failing step
def test_layout_fixture_is_drawn_at_its_first_differing_step():
    placements, caption = failing_layout(layout_record())
    assert placements == SEQUENCE[:4] and "step 3" in caption
    with_setup = layout_record(input={"setup": SEQUENCE[:2], "steps": SEQUENCE[2:]})
    placements, _ = failing_layout(with_setup)
    assert placements == SEQUENCE[:6]  # setup + steps[0..3]


def test_refused_layout_step_and_crash_are_drawn_too():
    refused = layout_record(
        status="rejected",
        differences=[],
        message="refused action 8 (HR-SPIN-3): input.steps[8][0]: placing [1|3] is illegal",
        refused_at=8,
    )
    placements, caption = failing_layout(refused)
    assert placements == SEQUENCE and "refused" in caption
    crashed = layout_record(status="crash", differences=[], message="the implementation died")
    assert failing_layout(crashed)[0] == SEQUENCE


def test_play_fixture_is_drawn_at_the_first_differing_event():
    # Event 3 is the third placement: the layout after it (two before, then it).
    placements, caption = failing_layout(play_record(("hands", 0, "events", 3, "count")))
    assert [p["tile"] for p in placements] == ["[1|2]", "[2|4]", "[4|4]", "[1|1]", "[3|4]"]
    assert "event 3" in caption
    # Event 2 is a draw: the layout at that moment, after the two placements before it.
    placements, _ = failing_layout(play_record(("hands", 0, "events", 2, "tile")))
    assert [p["tile"] for p in placements] == ["[1|2]", "[2|4]", "[4|4]", "[1|1]"]
    # The earliest difference wins, whatever the order of the list.
    record = play_record(("hands", 0, "events", 3, "count"))
    record["differences"].append(Difference(("hands", 0, "events", 0, "count"), 9, 8).to_record())
    assert [p["tile"] for p in failing_layout(record)[0]] == ["[1|2]", "[2|4]", "[4|4]"]


def test_illegal_fixture_draws_its_position():
    record = {
        "kind": "illegal",
        "status": "not-rejected",
        "input": {"layout": SEQUENCE[:2], "actions": []},
        "differences": [Difference(("rejected_at",), 0, None).to_record()],
    }
    assert failing_layout(record)[0] == SEQUENCE[:2]
    assert failing_layout({"kind": "settlement", "input": {"hands": []}}) is None
    assert failing_layout({"kind": "perft", "input": {"hands": []}}) is None


# ---------------------------------------------------------------------- the page
class _Collector(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def tags(html: str) -> list[tuple[str, dict]]:
    parser = _Collector()
    parser.feed(html)
    return parser.tags


def report_page() -> str:
    results = [
        passing("AAAAAA", "HR-COUNT-1"),
        layout_record(),
        play_record(("hands", 0, "events", 3, "count")),
        passing("BBBBBB", "HR-SETTLE-1", "skip"),
        passing("CCCCCC", "HR-TURN-1", "xfail"),
    ]
    return render_html(HEADER, results, footer_for(results))


def test_page_escapes_every_hostile_string():
    html = report_page()
    found = tags(html)
    assert not [t for t, _ in found if t in ("script", "img", "iframe", "object", "embed", "link")]
    assert not [a for _, attrs in found for a in attrs if a.startswith("on")]
    # In an attribute both quotes are escaped; in an element's content they need not be.
    assert (
        "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in html or '&lt;script&gt;alert("x")&lt;/script&gt;' in html
    )
    assert "<script" not in html
    assert "&lt;/td&gt;&lt;script&gt;" in html
    assert "my&lt;engine&gt; 2.3.1 (Rust &amp; C)" in html


def test_page_shows_header_counts_rules_and_failures():
    html = report_page()
    assert html.startswith("<!DOCTYPE html>")
    for text in (
        "2.3.1",
        "Rust &amp; C",
        "suite version",
        "0.1.0",
        "protocol version",
        "2026-01-02T03:04:05Z",
        "NOT CONFORMANT",
        "HR-COUNT-1",
        "HR-TURN-1",
        "HR-SETTLE-1",
        "worked-examples.yaml:5",
        "missing from the answer",
    ):
        assert text in html, text
    found = tags(html)
    ids = {attrs.get("id") for _, attrs in found}
    links = [attrs["href"] for t, attrs in found if t == "a" and attrs.get("href", "").startswith("#")]
    assert links and all(link[1:] in ids for link in links)
    assert {"#fx-7SWR67", "#fx-53RZXW"} <= set(links)
    # Passing, skipped and expected failures get no section; both failures get one, with a drawing.
    sections = [attrs["id"] for t, attrs in found if t == "section"]
    assert sections == ["fx-7SWR67", "fx-53RZXW"]
    assert html.count('<svg class="hr-layout"') == 2  # on the page: its style sheet styles them
    # The fixtures' input and expected values are not copied: each section names its file.
    assert "<summary>Input</summary>" not in html and "<summary>Expected</summary>" not in html
    assert html.count('<table class="meta"><tr><td>file</td>') == 2
    # The per-rule row of HR-COUNT-1: one passed, one failed; its failure leads the diagnosis.
    ranking, per_rule = html.split("<h2>Per rule</h2>")
    assert "<code>HR-COUNT-1</code>" in ranking.split("<h2>Diagnosis: the causes, most failures first</h2>")[1]
    row = re.search(r"<code>HR-COUNT-1</code></td>(.*?)</tr>", per_rule).group(1)
    assert "The count after every placement" in row
    assert re.findall(r'class="num">(\d+)<', row) == ["1", "1", "0"]
    # Every rule of the specification has a row, in its order.
    listed = re.findall(r"<tr[^>]*><td><code>(HR-[A-Z]+-\d+)</code></td><td>", per_rule)
    assert listed == list(load_rules())
    # The expected/actual table shows the differing field.
    assert '<code>steps[3].sum</code></td><td class="value">5</td><td class="value">13</td>' in html


def test_page_without_failures_says_so():
    results = [passing("AAAAAA", "HR-COUNT-1"), passing("BBBBBB", "HR-COUNT-2", "skip")]
    html = render_html(HEADER, results, footer_for(results))
    assert "No failures" in html and "CONFORMANT" in html and "NOT CONFORMANT" not in html
    assert "<svg" not in html and "<section" not in html


def test_unusable_implementation_is_shown_prominently():
    header = {"record": "header", "suite": "0.1.0", "protocol": "1.0", "command": "/bin/echo nope", "started": "x"}
    footer = {"record": "footer", "unusable": "handshake failed (crash): <exit 0>", "counts": {}, "conformant": False}
    html = render_html(header, [], footer)
    assert re.search(
        r'<div class="alert"><strong>The implementation could not be used:</strong> '
        r"handshake failed \(crash\): &lt;exit 0&gt;</div>",
        html,
    )
    assert "IMPLEMENTATION UNUSABLE" in html and "No fixture was run" in html


def test_interrupted_run_and_broken_records_still_render():
    record = layout_record(input={"steps": [{"tile": "[9|9]"}]}, differences=[{"path": "steps[0].sum"}])
    odd = {
        "record": "result",
        "id": 'Q"<x>',
        "kind": "play",
        "rule": "HR-TURN-3",
        "status": "crash",
        "input": {"hands": "nonsense"},
        "differences": None,
    }
    html = render_html({}, [record, odd], {"interrupted": True, "error": "KeyboardInterrupt: <ctrl-c>"})
    assert "INTERRUPTED" in html and "KeyboardInterrupt: &lt;ctrl-c&gt;" in html
    assert "cannot be drawn" in html  # [9|9] is no tile: the drawing says so
    assert 'id="fx-Q__x_"' in html


def test_write_all_writes_the_html_report(tmp_path):
    results = [layout_record(), passing("AAAAAA", "HR-COUNT-2")]
    stream_path = tmp_path / "results.jsonl"
    with ResultStream(stream_path, {k: v for k, v in HEADER.items() if k != "record"}) as stream:
        for r in results:
            stream.add(r)
        stream.finish(footer_for(results))
    written = write_all(stream_path, tmp_path)
    html = written["html"].read_text(encoding="utf-8")
    assert written["html"].name == "report.html"
    assert 'id="fx-7SWR67"' in html and "<svg" in html


# ---------------------------------------------------------------------- the browser
CHROMIUM_FLAGS = BASE_FLAGS
BROWSER_TIMEOUT = 60  # seconds per Chromium run


def chromium_path() -> str:
    for candidate in ("/usr/bin/chromium", shutil.which("chromium")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    if "CI" in os.environ:
        pytest.fail(
            "Chromium is not installed (/usr/bin/chromium): .ci/run should install it "
            "(apt-get install -y chromium) so that the browser test of the HTML report runs in CI"
        )
    pytest.skip("Chromium is not installed (/usr/bin/chromium); install it with apt-get install -y chromium")


def run_chromium(chromium: str, profile: Path, *args: str) -> tuple[int, str, str]:
    """Run Chromium in its own process group, killed as a whole after the time budget."""
    profile.mkdir(parents=True, exist_ok=True)
    command = [chromium, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args]
    with subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True
    ) as proc:
        try:
            out, err = proc.communicate(timeout=BROWSER_TIMEOUT)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            pytest.fail(f"Chromium took more than {BROWSER_TIMEOUT} s: {' '.join(command)}\n{err[-2000:]}")
    return proc.returncode, out, err


def page_errors(stderr: str) -> list[str]:
    """Console messages and uncaught errors of the page (Chromium logs them to stderr as
    ``INFO:CONSOLE`` lines with --enable-logging=stderr)."""
    return [line for line in stderr.splitlines() if re.search(r"CONSOLE[(:]|Uncaught", line)]


@pytest.mark.browser
def test_report_page_in_headless_chromium(tmp_path):
    chromium = chromium_path()

    # The check must be able to see an error: a page that logs one and throws.
    canary = tmp_path / "canary.html"
    canary.write_text(
        "<!DOCTYPE html><html><body><script>console.error('canary-error'); "
        "undefinedCanaryFunction();</script></body></html>",
        encoding="utf-8",
    )
    _, _, err = run_chromium(
        chromium, tmp_path / "profile-canary", "--enable-logging=stderr", "--v=0", "--dump-dom", canary.as_uri()
    )
    seen = page_errors(err)
    assert any("canary-error" in line for line in seen) and any("Uncaught" in line for line in seen), (
        f"this Chromium does not report page errors as expected; stderr:\n{err[-3000:]}"
    )

    page = tmp_path / "report.html"
    page.write_text(report_page(), encoding="utf-8")
    code, dom, err = run_chromium(
        chromium, tmp_path / "profile-dom", "--enable-logging=stderr", "--v=0", "--dump-dom", page.as_uri()
    )
    assert code == 0, err[-3000:]
    assert page_errors(err) == [], err[-3000:]
    assert "<svg" in dom and 'class="hr-layout"' in dom
    assert 'id="fx-7SWR67"' in dom and "NOT CONFORMANT" in dom
    # The spinner [1|1] drawn with its face, which the page defines once.
    face = re.search(r'<use href="#(hr-t11[hv])"', dom)
    assert face and f'<g id="{face.group(1)}">' in dom
    assert "<script" not in dom

    shot = tmp_path / "report-screenshot.png"
    code, _, err = run_chromium(
        chromium,
        tmp_path / "profile-shot",
        f"--screenshot={shot}",
        "--window-size=1200,2000",
        "--hide-scrollbars",
        page.as_uri(),
    )
    assert code == 0 and shot.exists(), err[-3000:]
    data = shot.read_bytes()
    assert data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) > 20_000  # a real rendering, not a blank page
    artifacts = os.environ.get("HORSERACE_ARTIFACTS")
    if artifacts:
        Path(artifacts).mkdir(parents=True, exist_ok=True)
        shutil.copyfile(shot, Path(artifacts) / "horserace-report-screenshot.png")


def test_the_drawing_marks_the_last_tile_and_the_answers_claims():
    """What the implementation left out is ringed, what it claimed that is not there is
    crossed out where the port is, both are listed under the drawing, and the tile placed
    last is outlined."""
    from horserace.reports.svg import layout_svg

    at = ["steps", 1, "contributions"]
    claims = [
        {"at": at, "item": "missing", "expected": {"tile": "[0|5]", "port": "low", "value": 0}, "actual": None},
        {
            "at": ["steps", 1, "attachment_points"],
            "item": "extra",
            "expected": None,
            "actual": {"tile": "[5|5]", "port": "branch-a", "value": 5},
        },
    ]
    svg = layout_svg(
        [{"tile": "[5|5]"}, {"tile": "[0|5]", "target": "[5|5]", "port": "linear-a"}], mark_last=True, claims=claims
    )
    assert svg.count('class="claim-missing"') == 1 and svg.count('class="claim-extra"') == 1
    assert svg.count('class="last-placed"') == 1
    assert "expected, not in the answer: contributions [0|5] low = 0" in svg
    assert "in the answer, not expected: attachment_points [5|5] branch-a = 5" in svg
    plain = layout_svg([{"tile": "[5|5]"}])
    assert "claim-" not in plain and "last-placed" not in plain and "red ring" not in plain


def test_a_settlement_failure_shows_each_seats_tiles_and_pips():
    record = {
        "id": "P4RYQF",
        "kind": "settlement",
        "rule": "HR-SETTLE-1",
        "rules": ["HR-SETTLE-1"],
        "status": "fail",
        "message": "",
        "file": "s.yaml",
        "line": 9,
        "input": {
            "mode": "individual",
            "seats": 2,
            "scores": [20, 35],
            "target": 61,
            "hands": [[], ["[3|5]", "[3|6]"]],
        },
        "differences": [{"path": "credits[0]", "at": ["credits", 0], "length": False, "expected": 3, "actual": 4}],
    }
    html = render_html(HEADER, [record], footer_for([record]))
    assert '<table class="seats">' in html
    assert '<code>[3|5] (8) [3|6] (9)</code></td><td class="num">17</td>' in html
    assert "Scores before the hand: [20, 35]; target 61." in html


def test_an_illegal_fixture_is_drawn_with_the_refused_action_marked():
    record = {
        "id": "NCZ0MC",
        "kind": "illegal",
        "rule": "HR-SPIN-2",
        "rules": ["HR-SPIN-2"],
        "status": "not-rejected",
        "message": "accepted every action",
        "file": "i.yaml",
        "line": 3,
        "input": {
            "layout": [{"tile": "[1|4]"}, {"tile": "[4|4]", "target": "[1|4]", "port": "high"}],
            "actions": [{"seat": 0, "action": "place", "tile": "[2|4]", "target": "[4|4]", "port": "branch-a"}],
        },
        "expected": {"rejected_at": 0, "rule": "HR-SPIN-2"},
        "differences": [],
    }
    html = render_html(HEADER, [record], footer_for([record]))
    assert html.count('<g class="refused">') == 1
    assert "refused here: [2|4] on [4|4] branch-a" in html
    assert "The layout just before the illegal action" in html


def test_a_long_chain_turns_instead_of_growing_wide():
    from horserace.reports.svg import layout_svg

    names = ["[0|1]", "[1|2]", "[2|3]", "[3|4]", "[4|5]", "[5|6]", "[0|6]", "[0|2]", "[2|4]", "[4|6]", "[6|6]"]
    chain = [{"tile": names[0]}] + [
        {"tile": tile, "target": before, "port": "low" if i == 6 else "high"}
        for i, (before, tile) in enumerate(itertools.pairwise(names))
    ]
    svg = layout_svg(chain)
    width = int(re.search(r'width="(\d+)"', svg).group(1))
    assert svg.count('<g class="tile') == len(names) and width <= 1000


def test_a_section_lists_twelve_differences_then_says_how_many_more():
    from horserace.reports.html import SHOWN_DIFFERENCES, fixture_section

    many = [Difference(("steps", i, "sum"), i, i + 1).to_record() for i in range(15)]
    section = fixture_section(layout_record(differences=many), "fx-x")
    rows = section.split('<table class="differences">', 1)[1].split("</table>", 1)[0].count("<tr>")
    assert SHOWN_DIFFERENCES == 12 and rows == 1 + 12  # the header and twelve
    assert "3 more difference(s): every one is in this fixture's record in results.jsonl." in section
    # Not every difference is listed: the observations are shown whole.
    assert "<summary>The implementation's observations</summary>" in section


def test_the_observations_are_left_out_only_where_the_differences_give_them():
    from horserace.reports.html import fixture_section

    listed = fixture_section(layout_record(), "fx-x")  # three differences, every one listed
    assert "<summary>The implementation's observations</summary>" not in listed
    assert "Observations:" not in listed  # said once, above the failures (FAILURES_NOTE)
    assert "<summary>Expected</summary>" not in listed and "<summary>Input</summary>" not in listed
    # No differences to give them (an error, a refusal): the observations are shown.
    refused = fixture_section(layout_record(differences=[], status="rejected"), "fx-x")
    assert "<summary>The implementation's observations</summary>" in refused


def test_a_play_failure_of_whose_turn_it_is_draws_no_layout_and_one_of_its_count_does():
    """The layout does not decide whose turn it is: an event answered as another seat's,
    the same in every other field, gets a line instead of a drawing; an event whose count
    differs is drawn."""
    from horserace.reports.html import fixture_section

    event = {"event": "place", "seat": 1, "tile": "[4|4]", "target": "[2|4]", "port": "high", "count": 9}
    at = ("hands", 0, "events", 0)
    seat = play_record(at, differences=[Difference(at, event, {**event, "seat": 2}).to_record()])
    count = play_record(at, differences=[Difference(at, event, {**event, "count": 10}).to_record()])
    both = play_record(at, differences=[Difference(at, event, {**event, "seat": 2, "count": 10}).to_record()])
    assert '<figure class="layout">' not in (turn := fixture_section(seat, "fx-a"))
    assert "No drawing: the first difference is only whose turn it is" in turn
    for record in (count, both):
        section = fixture_section(record, "fx-b")
        assert '<figure class="layout">' in section and "No drawing" not in section


def test_a_section_names_its_fixture_file_and_links_it_where_a_link_can_be_made():
    from horserace.reports.html import fixture_section
    from horserace.reports.links import Links

    record = layout_record()  # scenarios/rule-text/worked-examples.yaml, line 5
    relative = fixture_section(record, "fx-x", links=Links("../spec/"))
    assert (
        '<a href="../scenarios/rule-text/worked-examples.yaml"><code>scenarios/rule-text/worked-examples.yaml:5'
        in relative
    )
    remote = fixture_section(record, "fx-x", links=Links("https://example.org/o/horserace/blob/v1/spec/"))
    assert 'href="https://example.org/o/horserace/blob/v1/scenarios/rule-text/worked-examples.yaml#L5"' in remote
    for links in (Links(copy=True), Links("https://example.org/rules/{rule}.html")):
        alone = fixture_section(record, "fx-x", links=links)
        assert (
            "<code>scenarios/rule-text/worked-examples.yaml:5</code>" in alone and 'worked-examples.yaml"' not in alone
        )
    other = fixture_section({**record, "file": "tests/house.yaml"}, "fx-x", links=Links("../spec/"))
    assert "<code>tests/house.yaml:5</code>" in other and 'href="../tests' not in other
