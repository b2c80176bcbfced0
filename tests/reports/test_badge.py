"""The badge of a run (horserace/reports/badge.py): its colour and words from the counts,
the SVG read by real XML parsers (expat through ElementTree, and minidom), and the
endpoint file held to the schema shields.io documents for its endpoint badge
(https://shields.io/badges/endpoint-badge)."""

from __future__ import annotations

import json
import xml.etree.ElementTree as ET
from xml.dom import minidom

import pytest

from horserace.reports.badge import badge_for, badge_svg, embed_html, embed_markdown, endpoint_json
from horserace.reports.runs import Run

SVG = "{http://www.w3.org/2000/svg}"
#: shields.io's endpoint schema: every property it documents, and the required ones.
SHIELDS_PROPERTIES = {
    "schemaVersion",
    "label",
    "message",
    "color",
    "labelColor",
    "isError",
    "namedLogo",
    "logoSvg",
    "logoColor",
    "logoWidth",
    "style",
    "cacheSeconds",
}
SHIELDS_REQUIRED = {"schemaVersion", "label", "message"}
#: shields.io's named colours (a colour may also be hex or a CSS name; we use these).
SHIELDS_NAMED = {"brightgreen", "green", "yellowgreen", "yellow", "orange", "red", "blue", "lightgrey"}


def _run(*statuses: str, **footer: object) -> Run:
    results = [{"id": f"F{n}", "status": s, "rule": "HR-SET-1", "kind": "layout"} for n, s in enumerate(statuses)]
    return Run({"implementation": {"name": "x", "version": "1"}}, results, {"conformant": True, **footer})


@pytest.mark.parametrize(
    ("run", "message", "color"),
    [
        (_run("pass", "pass", "pass"), "3/3", "brightgreen"),
        (_run("pass", "pass", "skip"), "2/3, 1 skipped", "yellow"),
        (_run("pass", "xfail", "pass"), "2/3, 1 expected to fail", "yellow"),
        (_run("pass", "fail", "skip", "crash"), "1/4, 2 failed", "red"),
        (_run("pass", "xpass"), "1/2, 1 failed", "red"),
        (_run("skip", "skip"), "0/2, nothing ran", "red"),
        (_run(), "0/0, nothing ran", "red"),
        (_run(unusable="no hello"), "unusable", "red"),
        (_run("pass", interrupted=True), "interrupted, 1/1", "red"),
    ],
)
def test_the_colour_and_the_words_follow_the_counts(run, message, color):
    badge = badge_for(run)
    assert (badge.label, badge.message, badge.color) == ("Horse Race", message, color)


@pytest.mark.parametrize("statuses", [("pass",) * 184, ("pass", "skip", "fail"), ("skip",)])
def test_the_svg_is_well_formed_and_self_contained(statuses):
    badge = badge_for(_run(*statuses))
    text = badge_svg(badge)
    root = ET.fromstring(text)
    dom = minidom.parseString(text)  # a second parser: the same document
    assert dom.documentElement.tagName == "svg"
    assert root.tag == f"{SVG}svg" and root.get("role") == "img"
    assert root.get("aria-label") == f"Horse Race: {badge.message}"
    assert root.find(f"{SVG}title").text == f"Horse Race: {badge.message}"
    texts = [t.text for t in root.iter(f"{SVG}text")]
    assert texts.count("Horse Race") == 2 and texts.count(badge.message) == 2  # the text and its shadow
    assert badge.hex in {r.get("fill") for r in root.iter(f"{SVG}rect")}
    width = int(root.get("width"))
    assert int(root.get("height")) == 20 and 60 < width < 400
    for element in root.iter():
        attributes = set(element.attrib)
        assert not attributes & {"id", "href", "{http://www.w3.org/1999/xlink}href"}, element.tag
        assert element.tag not in (f"{SVG}image", f"{SVG}script", f"{SVG}style", f"{SVG}foreignObject")


def test_the_endpoint_file_keeps_to_the_shields_schema():
    for run in (_run("pass"), _run("pass", "skip"), _run("fail"), _run(unusable="x")):
        badge = badge_for(run)
        document = json.loads(endpoint_json(badge))
        assert set(document) <= SHIELDS_PROPERTIES
        assert set(document) >= SHIELDS_REQUIRED
        assert document["schemaVersion"] == 1 and type(document["schemaVersion"]) is int
        assert isinstance(document["label"], str) and document["label"] == "Horse Race"
        assert isinstance(document["message"], str) and document["message"]  # "Can't be empty"
        assert document["color"] in SHIELDS_NAMED
        assert document["message"] == badge.message


def test_the_embedding_snippets_point_at_the_file_and_escape_it():
    badge = badge_for(_run("pass"))
    assert embed_markdown(badge, "horserace-report/badge.svg") == "![Horse Race 1/1](horserace-report/badge.svg)"
    assert embed_markdown(badge, "my report/badge.svg", "my report/report.html") == (
        "[![Horse Race 1/1](my%20report/badge.svg)](my%20report/report.html)"
    )
    html = embed_html(badge, 'a"<b>/badge.svg')
    assert html == '<img src="a%22%3Cb%3E/badge.svg" alt="Horse Race 1/1">'
    ET.fromstring(html.replace(">", "/>", 1))  # one well-formed element


def test_the_badge_states_the_tables_and_targets_an_implementation_plays():
    from horserace.reports.badge import badge_for
    from horserace.reports.runs import Run

    hello = {
        "protocol": "1.2",
        "name": "x",
        "kinds": ["settlement"],
        "seatings": ["2-players", "3-players", "4-players"],
        "targets": [{"min": 10, "max": 200}],
    }
    results = [{"id": "A", "status": "pass", "rule": "HR-SETTLE-1", "kind": "settlement"}]
    run = Run({"protocol": "1.2", "implementation": hello}, results, {"conformant": True})
    assert badge_for(run).message == "1/1; 2-4 players; targets 10-200"
    hello_all = {**hello, "seatings": ["2-players", "3-players", "4-players", "partnership"]}
    hello_all.pop("targets")
    assert badge_for(Run({"protocol": "1.2", "implementation": hello_all}, results, {})).message == "1/1"
