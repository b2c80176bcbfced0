"""The HTML conformance report: one self-contained page made from the result stream.

Inline CSS, no script, no external resource; it works from ``file://``.  What every
failure shares is on the page once: the drawings' legend and the tile faces they use
(:mod:`horserace.reports.svg`, ``shared=True``), and the text of each rule the failures
cite.  Every text from the stream is escaped by
:func:`horserace.reports.escape.for_html` (fixture descriptions, messages and the
implementation's answers are not trusted: markup and control characters alike).  For a
failing fixture that involves a layout, the page draws the layout at the failing step
(:func:`failing_layout`) with :func:`horserace.reports.svg.layout_svg`.
"""

from __future__ import annotations

import json
import re
from typing import Any, TypeAlias

from horserace.corpus.status import Status
from horserace.engine.tiles import PIPS, parse_tile
from horserace.quality.diagnosis import Causes
from horserace.reports.causes import FixtureCause, failure_text, fixture_cause, run_causes
from horserace.reports.escape import for_html
from horserace.reports.links import Links, location, record_file
from horserace.reports.summary import (
    PASSING,
    implementation_name,
    per_rule,
    refusal_text,
    rule_title,
    rule_where,
    tally,
)
from horserace.reports.summary import verdict as run_verdict
from horserace.reports.svg import SHARED_CSS, layout_svg, legend_html, page_defs
from horserace.resources.documents import load_rules

__all__ = [
    "CSS",
    "OUTCOME_ORDER",
    "SHOWN_DIFFERENCES",
    "anchor",
    "drawings_legend",
    "failing_layout",
    "fixture_section",
    "page_start",
    "refused_action",
    "render_html",
    "rules_cited",
    "section_anchors",
]

#: Outcomes in the order the page lists them (spec/protocol.md, "Outcomes").
OUTCOME_ORDER = tuple(str(s) for s in Status)


#: A list as a record's JSON holds it (a difference's path, a fixture's placements or
#: hands): its entries are checked where they are read.
_JSONList: TypeAlias = list[Any]


def _index(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _places(record: dict[str, Any]) -> list[tuple[_JSONList, bool]]:
    """Where a record's differences are: the structured path (``at``) and whether a
    list's length differs, as the runner writes them in the stream."""
    return [
        (d["at"], bool(d.get("length")))
        for d in record.get("differences") or []
        if isinstance(d, dict) and isinstance(d.get("at"), list)
    ]


#: The report's style sheet (the comparison page starts from it too).
CSS = """
:root { color-scheme: light; }
body { font-family: "DejaVu Sans", Verdana, Arial, sans-serif; margin: 0; color: #1c1c1c; background: #f4f3ef; }
main { max-width: 1180px; margin: 0 auto; padding: 1.2em 1.5em 3em; background: #fff; min-height: 100vh; }
h1 { font-size: 1.5em; margin: 0.2em 0 0.4em; }
h2 { font-size: 1.2em; margin-top: 1.8em; border-bottom: 2px solid #ddd; padding-bottom: 0.2em; }
h3 { font-size: 1.05em; margin: 0 0 0.5em; }
table { border-collapse: collapse; margin: 0.5em 0 1em; display: block; max-width: 100%; overflow-x: auto; }
th, td { border: 1px solid #d6d6d6; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
th { background: #f0efe9; }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
code, pre { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
pre { background: #f7f7f4; border: 1px solid #e2e2dc; padding: 0.6em; overflow-x: auto; white-space: pre-wrap; word-break: break-word; }
.meta td:first-child { font-weight: bold; background: #fafaf7; }
.verdict { display: inline-block; padding: 0.35em 0.9em; border-radius: 4px; font-weight: bold; font-size: 1.1em; color: #fff; }
.verdict.ok { background: #1f7a33; }
.verdict.bad { background: #b3261e; }
.verdict.warn { background: #a15c00; }
.alert { border: 3px solid #b3261e; background: #fdecea; padding: 0.8em 1em; margin: 1em 0; font-size: 1.1em; }
.alert strong { color: #8c1d18; }
.notice { border-left: 5px solid #1f7a33; background: #eef7f0; padding: 0.6em 1em; }
.status { display: inline-block; padding: 0.05em 0.5em; border-radius: 3px; font-size: 0.9em; font-weight: bold; color: #fff; background: #b3261e; }
.status.pass, .status.xfail { background: #1f7a33; }
.status.skip { background: #777; }
.zero { color: #999; }
.failing-ids a { margin-right: 0.5em; font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; }
section.fixture { border: 1px solid #ddd; border-left: 6px solid #b3261e; border-radius: 4px; padding: 0.8em 1em; margin: 1.2em 0; }
section.fixture .message { white-space: pre-wrap; background: #fff6f5; border: 1px solid #f0c8c4; padding: 0.5em; }
td.value { font-family: "DejaVu Sans Mono", Menlo, Consolas, monospace; font-size: 0.9em; white-space: pre-wrap; word-break: break-word; max-width: 30em; }
td.missing { color: #b3261e; font-style: italic; }
figure { margin: 0.8em 0; }
figcaption { font-size: 0.92em; color: #444; margin-bottom: 0.3em; }
details { margin: 0.4em 0; }
svg.hr-layout { max-width: 100%; height: auto; background: #fbfaf6; font-family: "DejaVu Sans", Verdana, Arial, sans-serif; }
td, code { overflow-wrap: anywhere; }
th { overflow-wrap: normal; word-break: keep-all; hyphens: manual; white-space: nowrap; }
td code, h3 code, table.counts td, .failing-ids a, table.meta td:first-child { white-space: nowrap; overflow-wrap: normal; }
table.differences td code, table.seats td code, table.meta tr:first-child code { white-space: normal; overflow-wrap: anywhere; }
.failing-ids { min-width: 8em; }
table.rules td:nth-child(2) { min-width: 10em; }
.hr-legend { list-style: none; display: flex; flex-wrap: wrap; gap: 0.2em 1.4em; padding: 0; margin: 0.3em 0 1em; font-size: 0.92em; }
.hr-legend li { display: flex; align-items: center; gap: 0.3em; }
.hr-legend svg { flex: none; }
.drawings-legend { border: 1px solid #e2e2dc; background: #fbfaf6; padding: 0.3em 0.8em; }
a.key { font-size: 0.9em; }
.wide { max-width: 100%; overflow-x: auto; }
tr.failed td:first-child { border-left: 4px solid #b3261e; }
@media (max-width: 640px) {
  main { padding: 0.8em 0.6em 2em; }
  th, td { padding: 0.2em 0.35em; }
  td.value { max-width: none; }
  section.fixture { padding: 0.6em 0.5em; }
  .failing-ids { min-width: 15em; }
}
summary { cursor: pointer; font-weight: bold; }
pre.why { white-space: pre-wrap; }
"""


def _e(value: Any) -> str:
    return for_html(str(value))


def _t(value: Any) -> str:
    """``value`` for an element's content (never an attribute): quotes kept as they are."""
    return for_html(str(value), quote=False)


def _json(value: Any, indent: int | None = 2) -> str:
    try:
        return json.dumps(value, indent=indent, ensure_ascii=False, sort_keys=False)
    except (TypeError, ValueError):
        return repr(value)


def anchor(fixture_id: Any, taken: set[str], prefix: str = "fx-") -> str:
    """An ``id`` for a fixture's section, unique among ``taken`` (and added to it)."""
    base = prefix + (re.sub(r"[^A-Za-z0-9_-]", "_", str(fixture_id)) or "_")
    anchor, n = base, 2
    while anchor in taken:
        anchor, n = f"{base}-{n}", n + 1
    taken.add(anchor)
    return anchor


# ---------------------------------------------------------------- the failing step
def _placements_only(entries: Any) -> _JSONList:
    """A play hand's ``placements`` without the ``{end_turn: true}`` entries."""
    if not isinstance(entries, list):
        return []
    return [e for e in entries if not (isinstance(e, dict) and "tile" not in e and "end_turn" in e)]


def _describe_placement(entry: Any) -> str:
    if not isinstance(entry, dict):
        return "?"
    text = str(entry.get("tile", "?"))
    if "target" in entry or "port" in entry:
        text += f" on {entry.get('target', '?')} {entry.get('port', '?')}"
    return text


def failing_layout(record: dict[str, Any]) -> tuple[_JSONList, str] | None:
    """The placements that build the layout at a failing fixture's failing step, and a
    caption; ``None`` when the fixture involves no layout.

    * ``layout``: the setup and the steps up to and including the first step with a
      difference (``steps[i]...``); for a refused step, up to and including that step;
      without either (an error, a crash), every step.
    * ``play``: the hand's ``layout`` and its placements up to the first differing event
      ``hands[h].events[e]``: as many as the expected events before ``e`` place, plus
      event ``e`` itself when it is a placement (the layout whose count is in dispute);
      a refused placement is drawn as the fixture lists it.
    * ``illegal`` and ``perft``: the position's ``layout``, if it has one.
    """
    kind = record.get("kind")
    inp = record.get("input")
    if not isinstance(inp, dict):
        return None
    places = _places(record)
    refused = record.get("refused_at") if record.get("status") == Status.REJECTED else None
    refused = refused if _index(refused) else None

    if kind == "layout":
        return _layout_steps_drawn(record, inp, places, refused)
    if kind == "play":
        return _play_hand_drawn(record, inp, places, refused)
    if kind in ("illegal", "perft"):
        return _position_drawn(record, inp, kind)
    return None


def _first_differing_step(record: dict[str, Any], places: list[tuple[_JSONList, bool]]) -> int | None:
    """A layout fixture's first step with a difference (a missing step counts from the
    first the answer lacks); ``None`` when no difference is at a step."""
    step = None
    for where, length in places:
        if len(where) >= 2 and where[0] == "steps" and _index(where[1]):
            step = where[1] if step is None else min(step, where[1])
        elif where == ["steps"] and length:
            observed = (
                (record.get("observations") or {}).get("steps")
                if isinstance(record.get("observations"), dict)
                else None
            )
            first_missing = len(observed) if isinstance(observed, list) else 0
            step = first_missing if step is None else min(step, first_missing)
    return step


def _layout_steps_drawn(
    record: dict[str, Any], inp: dict[str, Any], places: list[tuple[_JSONList, bool]], refused: Any
) -> tuple[_JSONList, str] | None:
    """A layout fixture: its setup and steps up to the first that differs, or that was refused."""
    setup = inp.get("setup") or []
    steps = inp.get("steps") or []
    if not isinstance(setup, list) or not isinstance(steps, list) or not (setup or steps):
        return None
    step = _first_differing_step(record, places)
    how = "the first step that differs"
    if step is None and refused is not None:
        step, how = refused, "the step the implementation refused"
    if step is None or step >= len(steps):
        caption = f"The layout all {len(steps)} step(s) build" + (" after the setup" if setup else "")
        return list(setup) + list(steps), caption + "."
    caption = (
        f"The layout after step {step} ({_describe_placement(steps[step])}), {how}"
        + (f", after {len(setup)} setup placement(s)" if setup else "")
        + "."
    )
    return list(setup) + list(steps[: step + 1]), caption


def _first_differing_event(
    places: list[tuple[_JSONList, bool]], expected_hands: Any, observed_hands: Any
) -> tuple[int, int] | None:
    """A play fixture's first differing event as (hand, event); a hand whose events differ
    in number counts from the first event one of the two lacks."""
    first: tuple[int, int] | None = None
    for path, length in places:
        if len(path) >= 4 and path[0] == "hands" and _index(path[1]) and path[2] == "events" and _index(path[3]):
            at = (path[1], path[3])
        elif len(path) == 3 and path[0] == "hands" and _index(path[1]) and path[2] == "events" and length:
            h = path[1]
            try:
                at = (h, min(len(expected_hands[h]["events"]), len(observed_hands[h]["events"])))
            except (TypeError, KeyError, IndexError):
                at = (h, 0)
        else:
            continue
        first = at if first is None else min(first, at)
    return first


def _hand_at_event(hands: _JSONList, expected_hands: Any, h: int, e: int) -> tuple[_JSONList, str] | None:
    """Hand ``h``'s layout and its placements before event ``e``, with ``e`` itself when it
    is a placement."""
    if h >= len(hands) or not isinstance(hands[h], dict):
        return None
    try:
        events = expected_hands[h]["events"]
    except (TypeError, KeyError, IndexError):
        events = []
    events = events if isinstance(events, list) else []
    placed = sum(1 for ev in events[:e] if isinstance(ev, dict) and ev.get("event") == "place")
    at_place = e < len(events) and isinstance(events[e], dict) and events[e].get("event") == "place"
    count = placed + (1 if at_place else 0)
    own = _placements_only(hands[h].get("placements"))[:count]
    prefix = hands[h].get("layout") or []
    what = (
        f"after the placement of event {e} ({_describe_placement(events[e])}), the first event that differs"
        if at_place
        else f"before event {e}, the first event that differs ({count} placement(s) of the hand made)"
    )
    return list(prefix) + own, f"Hand {h}: the layout {what}."


def _hand_at_refused(hands: _JSONList, refused: int) -> tuple[_JSONList, str] | None:
    """The layout up to the refused placement (counted across the hands' listed
    placements), as the fixture lists it; ``None`` when the hands list fewer."""
    action = refused
    for h, hand in enumerate(hands):
        entries = hand.get("placements") if isinstance(hand, dict) else None
        entries = entries if isinstance(entries, list) else []
        if action < len(entries):
            own = _placements_only(entries[: action + 1])
            prefix = hand.get("layout") or []
            return (
                list(prefix) + own,
                (
                    f"Hand {h}: the layout after placement {action} ({_describe_placement(entries[action])}), "
                    "the placement the implementation refused, as the fixture lists it."
                ),
            )
        action -= len(entries)
    return None


def _play_hand_drawn(
    record: dict[str, Any], inp: dict[str, Any], places: list[tuple[_JSONList, bool]], refused: Any
) -> tuple[_JSONList, str] | None:
    """A play fixture: the hand's layout at its first differing event, else at the refused
    placement, else after the last hand's listed placements."""
    hands = inp.get("hands") or []
    if not isinstance(hands, list) or not hands:
        return None
    # No hands is an empty list; hands of the wrong shape fail where they are indexed (caught there).
    expected_hands = (record.get("expected") or {}).get("hands", []) if isinstance(record.get("expected"), dict) else []
    observed_hands = (
        (record.get("observations") or {}).get("hands", []) if isinstance(record.get("observations"), dict) else []
    )
    first = _first_differing_event(places, expected_hands, observed_hands)
    if first is not None:
        return _hand_at_event(hands, expected_hands, *first)
    if refused is not None:
        found = _hand_at_refused(hands, refused)
        if found is not None:
            return found
    h = len(hands) - 1
    hand = hands[h] if isinstance(hands[h], dict) else {}
    return (
        list(hand.get("layout") or []) + _placements_only(hand.get("placements")),
        f"Hand {h}: the layout after all its listed placements.",
    )


def _position_drawn(record: dict[str, Any], inp: dict[str, Any], kind: str) -> tuple[_JSONList, str] | None:
    """An illegal or perft fixture: the position's layout; for an illegal one, with the
    placements among the legal actions before the refused one."""
    layout = inp.get("layout")
    if not isinstance(layout, list) or not layout:
        return None
    if kind == "perft":
        return list(layout), "The position's layout."
    # The layout just before the action the fixture says is illegal: the position,
    # then the placements among the legal actions before it.
    actions, rejected_at = _illegal_action(record)
    before = actions[:rejected_at] if rejected_at is not None else []
    earlier = [
        {k: a[k] for k in ("tile", "target", "port") if k in a}
        for a in before
        if isinstance(a, dict) and a.get("action") == "place"
    ]
    return list(layout) + earlier, "The layout just before the illegal action (marked where it was aimed)."


def _illegal_action(record: dict[str, Any]) -> tuple[list[Any], int | None]:
    """An illegal fixture's actions and the index of the one it says is refused."""
    inp = record.get("input")
    expected = record.get("expected")
    actions = inp.get("actions") if isinstance(inp, dict) else None
    index = expected.get("rejected_at") if isinstance(expected, dict) else None
    return (actions if isinstance(actions, list) else []), (index if _index(index) else None)


def refused_action(record: dict[str, Any]) -> dict[str, Any] | None:
    """The placement an ``illegal`` fixture says must be refused ({tile, target, port}),
    if it is a placement onto a port."""
    actions, rejected_at = _illegal_action(record)
    if record.get("kind") != "illegal" or rejected_at is None or rejected_at >= len(actions):
        return None
    action = actions[rejected_at]
    if isinstance(action, dict) and action.get("action") == "place" and action.get("target") and action.get("port"):
        return {k: action[k] for k in ("seat", "tile", "target", "port") if k in action}
    return None
    return None


def _turn_only(record: dict[str, Any]) -> bool:
    """Whether a play fixture's first difference is only whose turn it is: an event
    expected of one seat and answered as another's, the same in every other field.  The
    layout does not decide whose turn it is (the turn order does, HR-SEAT-3), so its
    section draws no layout."""
    if record.get("kind") != "play":
        return False
    diffs = _differences(record)
    first = diffs[0] if diffs else None
    if first is None or not isinstance(first.get("expected"), dict) or not isinstance(first.get("actual"), dict):
        return False
    expected, actual = first["expected"], first["actual"]
    return {key for key in expected.keys() | actual.keys() if expected.get(key) != actual.get(key)} == {"seat"}


def _drawing(record: dict[str, Any]) -> str:
    try:
        found = failing_layout(record)
        if found is None:
            return ""
        if _turn_only(record):
            return (
                '<p class="zero">No drawing: the first difference is only whose turn it is, '
                "which the layout does not decide.</p>"
            )
        placements, caption = found
        variants = record.get("variants")
        if not isinstance(variants, dict):
            variants = {}
        what = (
            "the position's layout" if record.get("kind") in ("illegal", "perft") else "the layout at the failing step"
        )
        step = len(placements) - len((record.get("input") or {}).get("setup") or []) - 1
        claims = [
            d
            for d in record.get("differences") or []
            if isinstance(d, dict)
            and d.get("item") in ("missing", "extra")
            and isinstance(d.get("at"), list)
            and d["at"][:2] == ["steps", step]
        ]
        svg = layout_svg(
            placements,
            title=f"{record.get('id', '')}: {what}",
            branch_use_one=variants.get("branch_use") == "one",
            mark_last=record.get("kind") in ("layout", "play"),
            claims=claims if record.get("kind") == "layout" else None,
            refused=refused_action(record),
            shared=True,
        )
    except Exception as exc:  # noqa: BLE001  (a report must never fail for one drawing)
        return f'<p class="zero">The layout could not be drawn: {_e(type(exc).__name__)}: {_e(exc)}</p>'
    return f'<figure class="layout"><figcaption>{_e(caption)}</figcaption>\n{svg}\n</figure>'


def _drawn(record: dict[str, Any]) -> bool:
    """Whether a failing fixture's section has a drawing."""
    try:
        return failing_layout(record) is not None and not _turn_only(record)
    except Exception:  # noqa: BLE001  (as in _drawing: one odd record never stops a report)
        return False


def drawings_legend(sections: str) -> str:
    """The legend of every drawing of a page, once (the drawings leave theirs out), with
    the tile faces and marks the drawings in ``sections`` use."""
    return (
        '<div class="drawings-legend" id="drawings-legend"><p><strong>How to read the drawings</strong> '
        "(the layout as the fixture expects it, at the failing step):</p>"
        f"{legend_html()}{page_defs(sections)}</div>"
    )


# ---------------------------------------------------------------- the page
#: The differences a fixture's section lists; the rest are counted (the stream has them all).
SHOWN_DIFFERENCES = 12


def _differences(record: dict[str, Any]) -> list[dict[str, Any]]:
    return [d for d in record.get("differences") or [] if isinstance(d, dict)]


def _differences_table(record: dict[str, Any]) -> str:
    diffs = _differences(record)
    if not diffs:
        return ""
    rows = []
    for d in diffs[:SHOWN_DIFFERENCES]:
        actual, expected = d.get("actual"), d.get("expected")
        count = d.get("count", 1) if isinstance(d.get("count"), int) else 1
        times = f" (x{count})" if count > 1 else ""
        if d.get("item") == "missing":
            expected_cell = f'<td class="value">{_t(_json(expected, None))}{_e(times)}</td>'
            actual_cell = '<td class="value missing">missing from the answer</td>'
        elif d.get("item") == "extra":
            expected_cell = '<td class="value missing">not expected</td>'
            actual_cell = f'<td class="value">{_t(_json(actual, None))}{_e(times)}</td>'
        else:
            expected_cell = f'<td class="value">{_t(_json(expected, None))}</td>'
            actual_cell = (
                '<td class="value missing">missing from the answer</td>'
                if actual == "<missing>"
                else f'<td class="value">{_t(_json(actual, None))}</td>'
            )
        rows.append(f"<tr><td><code>{_e(d.get('path', ''))}</code></td>{expected_cell}{actual_cell}</tr>")
    more = len(diffs) - SHOWN_DIFFERENCES
    return (
        '<table class="differences"><thead><tr><th>field</th><th>expected</th><th>actual</th></tr></thead>'
        f"<tbody>{''.join(rows)}</tbody></table>"
        + (
            f'<p class="zero">{more} more difference(s): every one is in this fixture\'s record in results.jsonl.</p>'
            if more > 0
            else ""
        )
    )


#: Said once above the failing fixtures, for each of them.
FAILURES_NOTE = (
    '<p class="zero">Each failing fixture: its file and line (its input and expected values are there, and '
    "in its record in results.jsonl, with the whole answer); its rule, the why of its expected values, the "
    "differences (where every one is listed, the answer is the expected values but for them), the layout "
    "at the failing step as the fixture expects it.</p>"
)


def _fixture_file(record: dict[str, Any], links: Links | None) -> str:
    """The fixture's file and line, a link to it where one can be made: the page does not
    copy the fixture's input and expected values (results.jsonl has them with the record);
    its file does, and the line is where it starts."""
    where = f"<code>{_e(location(record))}</code>"
    href = (links or Links()).fixture(record_file(record), record.get("line"))
    return f'<a href="{_e(href)}">{where}</a>' if href else where


def fixture_section(
    record: dict[str, Any], anchor: str, *, who: str = "", causes: Causes | None = None, links: Links | None = None
) -> str:
    """One failing fixture: the rule's text, the why, expected against actual, the
    drawing, the seats, the input; ``who`` names the implementation (the comparison page)."""
    status = str(record.get("status", ""))
    parts = _fixture_heading(record, anchor, status, who=who, links=links)
    if record.get("message"):
        parts.append(f'<div class="message">{_t(record["message"])}</div>')
    found = fixture_cause(record, causes) if causes is not None else None
    if found is not None:
        parts.append(_cause_paragraph(found))

    if record.get("kind") == "illegal":
        parts.append(f'<p class="refusal">{_e(refusal_text(record))}</p>')
    if record.get("why"):
        parts.append(
            "<details open><summary>Why these are the expected values</summary>"
            f'<pre class="why">{_t(record["why"])}</pre></details>'
        )
    table = _differences_table(record)
    if table:
        parts.append("<h4>Expected against actual</h4>" + table)
    elif status in (Status.FAIL, Status.NOT_REJECTED):
        parts.append("<p>No field-by-field differences were recorded.</p>")
    parts.append(_drawing(record))
    parts.append(_seats(record))
    parts.append(_observations(record, listed=bool(table)))
    if record.get("stderr"):
        parts.append(f"<details><summary>Standard error (tail)</summary><pre>{_t(record['stderr'])}</pre></details>")
    parts.append("</section>")
    return "\n".join(p for p in parts if p)


def _fixture_heading(record: dict[str, Any], anchor: str, status: str, *, who: str, links: Links | None) -> list[str]:
    """A failing fixture's heading, description and table of its file, rules and readings."""
    rules = record.get("rules") or [record.get("rule", "")]
    rules = rules if isinstance(rules, list) else [rules]
    parts = [
        f'<section class="fixture" id="{_e(anchor)}">',
        f'<h3><code>{_e(record.get("id", "?"))}</code> <span class="status {_e(status)}">{_e(status)}</span> '
        f'<span class="zero">[{_e(record.get("kind", "?"))}]</span>'
        + (f' <span class="who">{_e(who)}</span>' if who else "")
        + "</h3>",
        f'<p class="description">{_t(record.get("description", ""))}</p>',
        (
            '<table class="meta">'
            f"<tr><td>file</td><td>{_fixture_file(record, links)}</td></tr>"
            f"<tr><td>rules</td><td><code>{_e(' '.join(str(r) for r in rules))}</code> "
            f"(primary: {_primary(str(record.get('rule', '')))})</td></tr>"
        ),
    ]
    variants = record.get("variants")
    if variants:
        parts.append(
            f"<tr><td>readings</td><td>{_e(', '.join(f'{k}={v}' for k, v in variants.items()) if isinstance(variants, dict) else variants)}</td></tr>"
        )
    parts.append("</table>")
    return parts


def _cause_paragraph(found: FixtureCause) -> str:
    """The rule the diagnosis names as a fixture's cause, with the deviation that names it
    and the ones that reproduce it exactly."""
    by = f" Named by the deviation <code>{_e(found.deviation)}</code>." if found.deviation else ""
    also = (
        " Reproduced exactly by " + ", ".join(f"<code>{_e(n)}</code>" for n in found.exact) + "."
        if found.exact and found.exact != (found.deviation,)
        else ""
    )
    return (
        f'<p class="cause"><strong>Cause: <code>{_e(found.rule)}</code> '
        f"{_e(rule_title(found.rule))}</strong>: {_e(found.basis)}.{by}{also}</p>"
    )


def _observations(record: dict[str, Any], *, listed: bool) -> str:
    """The implementation's observations, unless every difference is listed above them
    (``listed``): then they are the expected values but for those, said once."""
    if "observations" in record and "expected" in record and listed and len(_differences(record)) <= SHOWN_DIFFERENCES:
        return ""
    if "observations" in record:
        return (
            f"<details><summary>The implementation's observations</summary>"
            f"<pre>{_t(_json(record['observations'], None))}</pre></details>"
        )
    return ""


def _pips(tile: object) -> int | None:
    """The pips of a tile written in the stream (HR-SET-2), ``None`` for what is no tile."""
    try:
        return PIPS[parse_tile(str(tile))]
    except ValueError:
        return None


def _seats(record: dict[str, Any]) -> str:
    """For a settlement: each seat's remaining tiles and their pips, the numbers the
    credit is made from."""
    inp = record.get("input")
    if record.get("kind") != "settlement" or not isinstance(inp, dict) or not isinstance(inp.get("hands"), list):
        return ""
    rows = []
    for seat, hand in enumerate(inp["hands"]):
        tiles = hand if isinstance(hand, list) else []
        pips = [_pips(t) for t in tiles]
        total = sum(p for p in pips if p is not None)
        shown = " ".join(f"{t} ({p})" for t, p in zip(tiles, pips, strict=True)) or "none"
        rows.append(
            f'<tr><td class="num">{seat}</td><td><code>{_e(shown)}</code></td><td class="num">{total}</td></tr>'
        )
    scores = inp.get("scores")
    return (
        "<h4>The seats at the end of the hand</h4>"
        '<table class="seats"><thead><tr><th class="num">seat</th><th>remaining tiles (pips)</th>'
        '<th class="num">pips</th></tr></thead><tbody>'
        + "".join(rows)
        + "</tbody></table>"
        + (
            f'<p class="zero">Scores before the hand: {_e(_json(scores, None))}; target {_e(inp.get("target"))}.</p>'
            if scores is not None
            else ""
        )
    )


def _diagnosis_section(causes: Causes, anchors: dict[str, str]) -> str:
    """The causes of the failures, most first (spec/protocol.md, "How a failure is
    diagnosed"), then the implementation's failures to answer, never against a rule."""
    if not causes.lines and not causes.failures:
        return ""
    rows = []
    for n, line in enumerate(causes.lines, 1):
        how = [
            f"deviation <code>{_e(name)}</code> on {count} ({exactly} exactly)"
            for name, count, exactly in line.deviations
        ]
        if line.by_difference:
            how.append(f"{line.by_difference} by their first difference")
        links = " ".join(f'<a href="#{_e(anchors.get(str(i), ""))}">{_e(i)}</a>' for i in line.fixtures[:30]) + (
            f" (+{line.count - 30})" if line.count > 30 else ""
        )
        rows.append(
            f'<tr class="failed"><td class="num">{n}</td><td><code>{_e(line.rule)}</code> {_e(rule_title(line.rule))}</td>'
            f'<td class="num">{line.count}</td><td>{"; ".join(how)}<br><span class="zero">e.g. {_e(line.example)}</span></td>'
            f'<td class="failing-ids">{links}</td></tr>'
        )
    parts = ["<h2>Diagnosis: the causes, most failures first</h2>"]
    if rows:
        parts.append(
            '<p class="zero">Each failing fixture is attributed to the rule its first difference concerns, or to '
            "the named deviation of the reference engine that reproduces its answer.</p>"
            '<table class="rules causes"><thead><tr><th class="num">#</th><th>rule</th>'
            '<th class="num">failing</th><th>how</th><th>fixtures</th></tr></thead><tbody>'
            + "".join(rows)
            + "</tbody></table>"
        )
    if causes.failures:
        parts.append(
            "<p>Not counted against any rule:</p><ul>"
            + "".join(f"<li>{_e(failure_text(f.status, len(f.fixtures), f.example))}</li>" for f in causes.failures)
            + "</ul>"
        )
    return "\n".join(parts)


def _refusals_section(results: list[dict[str, Any]], anchors: dict[str, str]) -> str:
    """Every illegal fixture that ran, passing ones included: the rule its action
    breaks beside what the implementation said, and its answer to the legal twin."""
    illegal = [
        r for r in results if isinstance(r, dict) and r.get("kind") == "illegal" and r.get("status") != Status.SKIP
    ]
    if not illegal:
        return ""
    rows = []
    for r in illegal:
        refusal: dict[str, Any] = r["refusal"] if isinstance(r.get("refusal"), dict) else {}
        twin: dict[str, Any] = r["twin"] if isinstance(r.get("twin"), dict) else {}
        twin_text = (
            f"refused action {twin.get('at')}" if twin.get("status") == "refused" else str(twin.get("status", ""))
        )
        fid = str(r.get("id", "?"))
        place = anchors.get(fid)
        shown = f'<a href="#{_e(place)}"><code>{_e(fid)}</code></a>' if place else f"<code>{_e(fid)}</code>"
        status = str(r.get("status", ""))
        rows.append(
            f'<tr><td>{shown}</td><td><span class="status {_e(status)}">{_e(status)}</span></td>'
            f"<td><code>{_e(r.get('breaks') or '')}</code></td>"
            f"<td>{_e(_refused_at(refusal))}</td>"
            f"<td><code>{_e(refusal.get('rule') or '')}</code></td><td>{_e(str(refusal.get('message') or '')[:300])}</td>"
            f"<td>{_e(twin_text)}</td></tr>"
        )
    return (
        "<h2>Refusals of illegal actions</h2>"
        '<p class="zero">Every illegal fixture that ran, passing ones included: the rule its action breaks, '
        "what the implementation said, and its answer to the legal twin.</p>"
        '<table class="refusals"><thead><tr><th>fixture</th><th>outcome</th><th>breaks</th><th>refused</th>'
        "<th>rule given</th><th>message</th><th>legal twin</th></tr></thead><tbody>"
        + "".join(rows)
        + "</tbody></table>"
    )


def _rule_text(rule_id: str, links: Links | None = None) -> str:
    """The primary rule's text, folded, with where it is in the specification."""
    rule = load_rules().get(rule_id)
    if rule is None:
        return ""
    return (
        f"<details><summary>{_e(rule.id)}: {_e(rule.title)}</summary>"
        f'<p class="zero">{_e(rule_where(rule.id, links=links))}</p><pre class="why">{_t(rule.text)}</pre></details>'
    )


def _rule_anchor(rule_id: str) -> str:
    return "rule-" + (re.sub(r"[^A-Za-z0-9_-]", "_", rule_id) or "_")


def _primary(rule_id: str) -> str:
    """A failing fixture's primary rule, linked to where its text is written out: once per
    page, under "The rules of the failures" (:func:`rules_cited`)."""
    rule = load_rules().get(rule_id)
    if rule is None:
        return f"<code>{_e(rule_id)}</code>"
    return f'<a href="#{_rule_anchor(rule.id)}"><code>{_e(rule.id)}</code></a> {_e(rule.title)}'


def rules_cited(records: list[dict[str, Any]], links: Links | None = None) -> str:
    """The text of every rule that is the primary rule of one of ``records`` (failing
    fixtures), once each, in the specification's order: what each fixture section points to."""
    rules = load_rules()
    wanted = {str(r.get("rule", "")) for r in records if isinstance(r, dict)}
    shown = [rule_id for rule_id in rules if rule_id in wanted]
    if not shown:
        return ""
    return '<h2 id="rules-cited">The rules of the failures</h2>' + "".join(
        f'<div id="{_rule_anchor(rule_id)}">{_rule_text(rule_id, links)}</div>' for rule_id in shown
    )


def page_start(title: str, css: str = "") -> list[str]:
    """The lines that open a report page, up to ``<main>``: the title (escaped here) and
    the report's style sheet, then ``css``."""
    return [
        "<!DOCTYPE html>",
        '<html lang="en">',
        "<head>",
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{_e(title)}</title>",
        f"<style>{CSS}{SHARED_CSS}{css}</style>",
        "</head>",
        "<body>",
        "<main>",
    ]


def section_anchors(failing: list[dict[str, Any]]) -> list[str]:
    """The ``id`` of each failing fixture's section in the report, in order (the
    comparison page links to them)."""
    taken: set[str] = set()
    return [anchor(r.get("id", ""), taken) for r in failing]


def render_html(
    header: dict[str, Any], results: list[dict[str, Any]], footer: dict[str, Any], *, rule_links: Links | None = None
) -> str:
    """The whole report page; its rule references as ``rule_links`` says."""
    header = header or {}
    footer = footer or {}
    results = [r for r in results or [] if isinstance(r, dict)]
    name = implementation_name(header)
    judged = run_verdict(header, results, footer)
    verdict, verdict_class = judged.text, judged.tone
    failing = [r for r in results if r.get("status") not in PASSING]
    failing_anchors = section_anchors(failing)
    anchors: dict[str, str] = {}
    for r, place in zip(failing, failing_anchors, strict=True):
        anchors.setdefault(str(r.get("id", "")), place)

    out = page_start(f"Horse Race conformance: {name} — {verdict}")
    out.append(f"<h1>Horse Race conformance: {_e(name)}</h1>")
    out.append(f'<p><span class="verdict {verdict_class}">{_e(verdict)}</span></p>')
    out += _run_alerts(footer)
    out.append(_run_meta_table(header, footer))
    out += _outcomes_section(footer, results)

    rows = per_rule([r for r in results if "rule" in r and "status" in r and "id" in r])
    causes = run_causes([r for r in results if isinstance(r, dict) and "status" in r and "id" in r])
    out.append(_diagnosis_section(causes, anchors))
    out += _per_rule_section(rows, anchors, ran=bool(results))
    out += _failures_section(footer, results, failing, failing_anchors, causes, rule_links)
    out.append(_refusals_section(results, anchors))
    out += _skipped_section(results)

    out.append(
        f'<p class="zero">Made by horserace from the result stream; suite {_e(header.get("suite", "?"))}, '
        f"protocol {_e(header.get('protocol', '?'))}.</p>"
    )
    out += ["</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _run_alerts(footer: dict[str, Any]) -> list[str]:
    """The alerts of a run whose implementation could not be used, or that was interrupted."""
    out = []
    if footer.get("unusable"):
        out.append(
            f'<div class="alert"><strong>The implementation could not be used:</strong> {_e(footer["unusable"])}</div>'
        )
    if footer.get("interrupted"):
        out.append(
            f'<div class="alert"><strong>The run was interrupted:</strong> '
            f"{_e(footer.get('error') or 'the run did not finish')}. The counts below are partial.</div>"
        )
    return out


def _run_meta_table(header: dict[str, Any], footer: dict[str, Any]) -> str:
    """The implementation (from its hello), the command, the versions and the times, each
    row only where it has a value."""
    hello = header.get("implementation") if isinstance(header.get("implementation"), dict) else {}
    meta = [
        ("implementation", hello.get("name") if hello else header.get("command", "")),
        ("version", hello.get("version", "") if hello else ""),
        ("language", hello.get("language", "") if hello else ""),
        ("command", header.get("command", "")),
        ("mode", header.get("mode", "")),
        ("suite version", header.get("suite", "")),
        ("protocol version", header.get("protocol", "")),
        ("implementation's protocol", hello.get("protocol", "") if hello else ""),
        ("started", header.get("started", "")),
        ("finished", footer.get("finished", "")),
    ]
    readings = hello.get("readings") if hello else None
    if isinstance(readings, dict) and readings:
        meta.append(("readings", ", ".join(f"{k}={v}" for k, v in readings.items())))
    kinds = hello.get("kinds") if hello else None
    if kinds:
        meta.append(("kinds", ", ".join(map(str, kinds))))
    return (
        '<table class="meta">'
        + "".join(f"<tr><td>{_e(k)}</td><td>{_e(v)}</td></tr>" for k, v in meta if v not in (None, ""))
        + "</table>"
    )


def _outcomes_section(footer: dict[str, Any], results: list[dict[str, Any]]) -> list[str]:
    """The fixtures of each outcome (the footer's counts, else the results' own) and the total."""
    counts = footer.get("counts")
    if not isinstance(counts, dict):
        counts = tally(results)
    names = [k for k in OUTCOME_ORDER if k in counts] + [k for k in counts if k not in OUTCOME_ORDER]
    return [
        "<h2>Outcomes</h2>",
        '<table class="counts"><thead><tr><th>outcome</th><th class="num">fixtures</th></tr></thead><tbody>'
        + "".join(
            f'<tr class="{"zero" if not counts[k] else ""}"><td>{_e(k)}</td><td class="num">{_e(counts[k])}</td></tr>'
            for k in names
        )
        + f'<tr><th>total</th><th class="num">{sum(v for v in counts.values() if isinstance(v, int))}</th></tr>'
        + "</tbody></table>",
    ]


def _per_rule_section(rows: list[dict[str, Any]], anchors: dict[str, str], *, ran: bool) -> list[str]:
    """Every rule in the specification's order with its counts and links to its failing fixtures."""
    out = [
        "<h2>Per rule</h2>",
        (
            '<p class="zero">Every rule of the specification, in its order; a fixture counts in the row of '
            "every rule it cites.</p>"
        ),
    ]
    if not ran:
        out.append("<p>No fixture was run.</p>")
        return out
    body = []
    for row in rows:
        links = " ".join(f'<a href="#{_e(anchors.get(str(i), ""))}">{_e(i)}</a>' for i in row["failing"])
        cls = ' class="failed"' if row["failed"] else ""
        body.append(
            f"<tr{cls}><td><code>{_e(row['rule'])}</code></td><td>{_e(row['title'])}</td>"
            f'<td class="num">{row["passed"]}</td>'
            f'<td class="num">{row["failed"]}</td><td class="num">{row["skipped"]}</td>'
            f'<td class="failing-ids">{links}</td></tr>'
        )
    out.append(
        '<table class="rules"><thead><tr><th>rule</th><th>title</th><th class="num">passed</th>'
        '<th class="num">failed</th><th class="num">skipped</th><th>failing fixtures</th></tr></thead><tbody>'
        + "".join(body)
        + "</tbody></table>"
    )
    return out


def _failures_section(
    footer: dict[str, Any],
    results: list[dict[str, Any]],
    failing: list[dict[str, Any]],
    failing_anchors: list[str],
    causes: Causes,
    rule_links: Links | None,
) -> list[str]:
    """One section per failing fixture, with the drawings' legend once above them and the
    text of the rules they cite after them."""
    out = ['<h2 id="failures">Failures</h2>']
    if footer.get("unusable") and not results:
        out.append("<p>No fixture was run: the implementation could not be used (see above).</p>")
    elif not failing:
        out.append(
            '<p class="notice">No failures: every fixture that ran passed '
            "(or failed as the expectations file expects).</p>"
        )
    sections = [
        fixture_section(record, place, causes=causes, links=rule_links)
        for record, place in zip(failing, failing_anchors, strict=True)
    ]
    if failing:
        out.append(FAILURES_NOTE)
    if any(_drawn(record) for record in failing):
        out.append(drawings_legend("".join(sections)))
    out += sections
    out.append(rules_cited(failing, rule_links))
    return out


def _skipped_section(results: list[dict[str, Any]]) -> list[str]:
    """The fixtures that did not run, each with its reason."""
    skipped = [r for r in results if r.get("status") == Status.SKIP]
    if not skipped:
        return ["<h2>Skipped</h2>", "<p>None: every fixture ran.</p>"]
    return [
        "<h2>Skipped</h2>",
        f"<p>{len(skipped)} fixture(s) did not run, each with the reason (a kind the implementation "
        "does not declare, a reading it does not follow, a withdrawn fixture).</p>"
        '<table class="skipped"><thead><tr><th>fixture</th><th>kind</th><th>rule</th><th>reason</th>'
        "</tr></thead><tbody>"
        + "".join(
            f"<tr><td><code>{_e(r.get('id', '?'))}</code></td><td>{_e(r.get('kind', '?'))}</td>"
            f"<td><code>{_e(r.get('rule', '?'))}</code></td><td>{_e(r.get('message', ''))}</td></tr>"
            for r in skipped
        )
        + "</tbody></table>",
    ]


def _refused_at(refusal: dict[str, Any]) -> str:
    return f"action {refusal.get('at')}" if refusal else ""
