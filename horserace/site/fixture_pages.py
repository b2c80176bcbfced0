"""The fixtures: ``fixtures.html`` (every fixture, by kind) and one page per fixture,
``fixtures/ID.html``, shown as a reader wants it: the description, the rules it cites,
the readings it holds under, its sources, the ``why``, and its input and expected values
laid out by kind, then the raw input and expected as JSON.

For a ``layout`` fixture the layout is drawn after every step, for a ``play`` fixture
after every placement of every hand, beside the fixture's expected count and credit of
that step; for an ``illegal`` or ``perft`` fixture the position's layout is drawn, with
the refused placement marked.  The drawings are the reports' (:mod:`horserace.reports.svg`),
made by replaying the fixture's placements on the reference engine's layout; the values
written beside them are the fixture's own expected values, never the engine's.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from horserace.corpus.fixture import KINDS, Fixture
from horserace.engine.tiles import PIPS, parse_tile
from horserace.errors import RuleError
from horserace.reports.html import failing_layout, refused_action
from horserace.reports.svg import layout_svg
from horserace.resources.documents import DOCUMENTS
from horserace.site.catalogue import Catalogue, Links
from horserace.site.pages import Page, e, fixture_table, frame, json_block, linked, readings_text, tile_list

__all__ = ["KIND_TEXT", "exported_file", "fixture_location", "fixture_page", "fixture_pages", "fixtures_index"]

_LINKS = Links("../")

#: What each kind of fixture checks, as the index and each page say it.
KIND_TEXT = {
    "layout": "placements from an empty layout (or a setup), with the expected snapshot after each step",
    "play": "whole turns and hands: every placement listed, the draws and passes following from the boneyard",
    "settlement": "the end of a hand: the winners' credit from the opponents' remaining pips",
    "illegal": "actions in order, the last of which must be refused under the rule it breaks",
    "perft": "the number of move sequences of a given depth from a position",
}


# ---------------------------------------------------------------- small pieces
def _pips(tile: object) -> int | None:
    try:
        return PIPS[parse_tile(str(tile))]
    except RuleError:
        return None


def _placement(p: dict[str, Any]) -> str:
    if "tile" not in p:
        return "the continuation given up (end of turn)"
    if p.get("target") is None:
        return f"{p['tile']} (opening)"
    if p.get("port") is None:  # an illegal fixture's placement may name no port (HR-MOVE-1)
        return f"{p['tile']} on {p['target']}, no port named"
    return f"{p['tile']} on {p['target']} {p['port']}"


def _contribution(c: dict[str, Any]) -> str:
    return f"{c['tile']} {c['port']} {c['value']}" if "port" in c else f"{c['tile']} {c['value']} (whole)"


def _definitions(rows: list[tuple[str, str]], cls: str = "meta") -> str:
    return f'<table class="{cls}">' + "".join(f"<tr><th>{e(k)}</th><td>{v}</td></tr>" for k, v in rows) + "</table>"


def _figure(fx: Fixture, placements: list[dict[str, Any]], title: str, caption: str) -> str:
    """A drawing of the layout ``placements`` build, under the fixture's reading of
    HRI-10.  Without the reports' marks of an implementation's answer (the last tile
    outlined, rings and crosses): their legend speaks of an answer, and here there is none."""
    svg = layout_svg(placements, title=f"{fx.id}: {title}", branch_use_one=fx.variants.get("branch_use") == "one")
    return f'<figure class="layout">{svg}<figcaption>{e(caption)}</figcaption></figure>'


def _side(seat: int, partnership: bool) -> str:
    return f"side {seat % 2}" if partnership else f"side {seat}"


def _seats(hands: list[Any], partnership: bool, what: str) -> str:
    rows = []
    for seat, tiles in enumerate(hands):
        pips = [_pips(t) for t in tiles]
        rows.append(
            f'<tr><td class="num">{seat}</td><td>{e(_side(seat, partnership))}</td><td>{tile_list(tiles)}</td>'
            f'<td class="num">{sum(p for p in pips if p is not None)}</td></tr>'
        )
    return (
        f'<table class="seats"><thead><tr><th class="num">seat</th><th>side</th><th>{e(what)}</th>'
        '<th class="num">pips</th></tr></thead><tbody>' + "".join(rows) + "</tbody></table>"
    )


def _table(inp: dict[str, Any]) -> list[tuple[str, str]]:
    return [
        ("mode", e(inp.get("mode", ""))),
        ("seats", e(inp.get("seats", ""))),
        ("scores before", e(inp.get("scores", ""))),
        ("target", e(inp.get("target", ""))),
    ]


def _deal(deal: dict[str, Any], partnership: bool) -> str:
    rows = [
        ("opener", f"seat {e(deal.get('opener', '?'))}"),
        ("boneyard (drawn from the front)", tile_list(deal.get("boneyard", []))),
    ]
    return _seats(deal.get("hands", []), partnership, "tiles in hand") + _definitions(rows)


# ---------------------------------------------------------------- kinds
def _layout(fx: Fixture) -> str:
    setup = list(fx.input.get("setup", []))
    steps = list(fx.input.get("steps", []))
    expected = fx.expected.get("steps", [])
    out = []
    if setup:
        out.append(
            "<h3>Setup</h3><p>"
            + ", ".join(e(_placement(p)) for p in setup)
            + " (no expectations)</p>"
            + _figure(fx, setup, "the setup", f"The layout the {len(setup)} setup placement(s) build.")
        )
    for i, step in enumerate(steps):
        snap = expected[i] if i < len(expected) else {}
        contributions = snap.get("contributions", [])
        total = " + ".join(e(_contribution(c)) for c in contributions) or "nothing counts"
        rows = [
            ("count", f"{total} = <strong>{e(snap.get('sum', '?'))}</strong>"),
            (
                "credit",
                f"<strong>{e(snap.get('credit_raw', '?'))}</strong> raw = <strong>{e(snap.get('credit', '?'))}</strong> displayed",
            ),
            (
                "attachment points",
                e(", ".join(f"{a['tile']} {a['port']} ({a['value']})" for a in snap.get("attachment_points", [])))
                or "none",
            ),
        ]
        if "spinners" in snap:
            rows.append(("spinners", tile_list(snap["spinners"])))
        if "connections" in snap:
            pairs = [f"{a['tile']} {a['port']} to {b['tile']} {b['port']}" for a, b in snap["connections"]]
            rows.append(("connections", e("; ".join(pairs)) or "none"))
        out.append(
            f'<section class="step" id="step-{i}"><h3>Step {i}: {e(_placement(step))}</h3><div class="step-body">'
            + _figure(
                fx,
                setup + steps[: i + 1],
                f"after step {i}",
                f"The layout after step {i} ({_placement(step)}), drawn by the reference engine.",
            )
            + _definitions(rows, "expected")
            + "</div></section>"
        )
    return "<h2>The steps, each with its expected snapshot</h2>" + "".join(out)


def _event(ev: dict[str, Any]) -> str:
    kind = ev.get("event")
    seat = f"seat {e(ev.get('seat'))}"
    if kind == "place":
        where = f" on <code>{e(ev['target'])}</code> {e(ev['port'])}" if ev.get("target") is not None else " (opening)"
        flags = [f for f, on in (("continues", ev.get("continues")), ("the drawn tile", ev.get("drawn"))) if on]
        return (
            f"{seat} places <code>{e(ev.get('tile'))}</code>{where}: count <strong>{e(ev.get('count'))}</strong>, "
            f"credit <strong>{e(ev.get('credit_raw'))}</strong> raw = <strong>{e(ev.get('credit'))}</strong>"
            + (f" · {e(', '.join(flags))}" if flags else "")
        )
    if kind == "draw":
        return f"{seat} draws <code>{e(ev.get('tile'))}</code>"
    if kind in ("pass", "end-turn"):
        return f"{seat} {'passes' if kind == 'pass' else 'ends the turn'}"
    rest = ", ".join(f"{k} {v}" for k, v in ev.items() if k != "event")
    return f"<strong>{e(kind)}</strong>: {e(rest)}"


def _play(fx: Fixture) -> str:
    partnership = fx.input.get("mode") == "partnership"
    expected_hands = fx.expected.get("hands", [])
    out = ["<h2>The table</h2>", _definitions(_table(fx.input))]
    for h, hand in enumerate(fx.input.get("hands", [])):
        prefix = list(hand.get("layout", []))
        placements = [p for p in hand.get("placements", []) if "tile" in p]
        events = expected_hands[h].get("events", []) if h < len(expected_hands) else []
        out.append(f'<h2 id="hand-{h}">Hand {h}</h2>')
        out.append(_deal(hand, partnership))
        if prefix:
            out.append(_figure(fx, prefix, f"hand {h}, the layout dealt", "The layout already on the table."))
        items = []
        placed = 0
        for n, ev in enumerate(events):
            drawing = ""
            if ev.get("event") == "place" and placed < len(placements):
                placed += 1
                drawing = _figure(
                    fx,
                    prefix + placements[:placed],
                    f"hand {h}, after event {n}",
                    f"Hand {h}: the layout after event {n} ({_placement(placements[placed - 1])}), "
                    "drawn by the reference engine.",
                )
            items.append(
                f'<li id="hand-{h}-event-{n}" class="event {e(ev.get("event", ""))}"><p>{_event(ev)}</p>{drawing}</li>'
            )
        out.append(f'<h3>The expected events</h3><ol class="events" start="0">{"".join(items)}</ol>')
    out.append(
        "<h2>At the end</h2>"
        + _definitions(
            [
                ("scores", e(fx.expected.get("scores", "?"))),
                (
                    "match winners",
                    e(fx.expected.get("match_winners", []))
                    if fx.expected.get("match_winners")
                    else "none: the match goes on",
                ),
            ],
            "expected",
        )
    )
    return "".join(out)


def _settlement(fx: Fixture) -> str:
    inp, exp = fx.input, fx.expected
    partnership = inp.get("mode") == "partnership"
    ended = inp.get("ended_by")
    how = "blocked: nobody can place" if ended == "blocked" else f"seat {e(ended)} placed its last tile"
    return (
        "<h2>The table at the end of the hand</h2>"
        + _definitions([*_table(inp), ("the hand ended", how)])
        + _seats(inp.get("hands", []), partnership, "tiles left in hand")
        + "<h2>Expected</h2>"
        + _definitions(
            [
                ("winners (sides)", e(exp.get("winners"))),
                ("credits (per side)", e(exp.get("credits"))),
                ("scores after", e(exp.get("scores"))),
                ("match winners", e(exp.get("match_winners")) if exp.get("match_winners") else "none"),
            ],
            "expected",
        )
    )


def _record(fx: Fixture) -> dict[str, Any]:
    """The fixture as the reports' drawing helpers read a result record."""
    return {"id": fx.id, "kind": fx.kind, "input": fx.input, "expected": fx.expected, "variants": fx.variants}


def _position_drawing(fx: Fixture, caption: str) -> str:
    found = failing_layout(_record(fx))
    if not found:
        return '<p class="quiet">A fresh deal: the layout is empty.</p>'
    placements, _ = found
    refused = refused_action(_record(fx))
    if refused:
        caption += f" The refused action aims at {refused.get('target')} {refused.get('port')}."
    return _figure(fx, placements, "the position", caption)


_ACTS = {"draw": "draws", "pass": "passes", "end-turn": "ends the turn"}


def _action(a: dict[str, Any]) -> str:
    if a.get("action") == "place":
        return f"seat {a.get('seat')} places " + _placement(a)
    return f"seat {a.get('seat')} {_ACTS.get(str(a.get('action')), str(a.get('action')))}"


def _illegal(fx: Fixture, cat: Catalogue) -> str:
    partnership = fx.input.get("mode") == "partnership"
    refused_at, rule = fx.expected.get("rejected_at"), str(fx.expected.get("rule", ""))
    items = []
    for i, action in enumerate(fx.input.get("actions", [])):
        if i == refused_at:
            title = cat.rules[rule].title if rule in cat.rules else ""
            verdict = (
                f' <span class="refused">must be refused: <a class="ref" href="{e(_LINKS.rule(rule))}">'
                f"<code>{e(rule)}</code></a> {e(title)}</span>"
            )
        else:
            verdict = ' <span class="quiet">accepted</span>'
        items.append(f"<li>{e(_action(action))}{verdict}</li>")
    return (
        "<h2>The position</h2>"
        + _definitions(_table(fx.input))
        + _deal(fx.input, partnership)
        + _position_drawing(fx, "The layout just before the refused action, drawn by the reference engine.")
        + f'<h2>The actions, in order</h2><ol class="actions" start="0">{"".join(items)}</ol>'
    )


def _perft(fx: Fixture) -> str:
    partnership = fx.input.get("mode") == "partnership"
    divide = fx.expected.get("divide", {})
    rows = "".join(f'<tr><td><code>{e(m)}</code></td><td class="num">{e(n)}</td></tr>' for m, n in divide.items())
    return (
        "<h2>The position</h2>"
        + _definitions([*_table(fx.input), ("depth", e(fx.input.get("depth")))])
        + _deal(fx.input, partnership)
        + _position_drawing(fx, "The position's layout, drawn by the reference engine.")
        + "<h2>Expected</h2>"
        + _definitions([("nodes", f"<strong>{e(fx.expected.get('nodes'))}</strong>")], "expected")
        + '<table class="divide"><thead><tr><th>first move</th><th class="num">sequences</th></tr></thead>'
        + f"<tbody>{rows}</tbody></table>"
    )


def _by_kind(fx: Fixture, cat: Catalogue) -> str:
    if fx.kind == "layout":
        return _layout(fx)
    if fx.kind == "play":
        return _play(fx)
    if fx.kind == "settlement":
        return _settlement(fx)
    if fx.kind == "illegal":
        return _illegal(fx, cat)
    return _perft(fx)


# ---------------------------------------------------------------- pages
def _rules(fx: Fixture, cat: Catalogue) -> str:
    items = []
    for i, rule_id in enumerate(fx.rules):
        title = cat.rules[rule_id].title if rule_id in cat.rules else ""
        items.append(
            f'<li><a class="ref" href="{e(_LINKS.rule(rule_id))}"><code>{e(rule_id)}</code></a> {e(title)}'
            + (' <span class="badge">primary</span>' if i == 0 else "")
            + "</li>"
        )
    return f'<ul class="rules">{"".join(items)}</ul>'


def fixture_page(fx: Fixture, cat: Catalogue, exported: str | None = None, location: str | None = None) -> Page:
    """The page of one fixture; ``exported`` is its file in the site's JSON export,
    ``location`` where it is written (:func:`fixture_location`; by default the file's
    name and line, without its folders)."""
    sources = "<br>".join(
        f"{e(DOCUMENTS.get(str(s.get('doc')), s.get('doc')))} «{e(s.get('section'))}»" for s in fx.sources
    )
    meta = [
        ("kind", f"<code>{e(fx.kind)}</code>: {e(KIND_TEXT.get(fx.kind, ''))}"),
        ("rules", _rules(fx, cat)),
        ("readings", readings_text(fx.variants, cat, _LINKS)),
        ("sources", sources or '<span class="quiet">none named</span>'),
        ("origin", e(fx.origin)),
        (
            "file",
            f"<code>{e(location or f'{Path(fx.file).name}:{fx.line}')}</code>"
            + (f' · <a href="{e(_LINKS.page(exported))}">as JSON, in the export</a>' if exported else ""),
        ),
    ]
    if fx.deprecated:
        meta.append(("deprecated", e(fx.deprecated)))
    body = "\n".join(
        [
            f'<article class="fixture {e(fx.kind)}" id="{e(fx.id)}">',
            f'<p class="description">{linked(fx.description, cat, _LINKS)}</p>',
            _definitions(meta),
            "<h2>Why these are the expected values</h2>",
            f'<pre class="why">{linked(fx.why, cat, _LINKS)}</pre>',
            _by_kind(fx, cat),
            "<h2>Input and expected, as the fixture writes them</h2>",
            "<details><summary>input</summary>" + json_block(fx.input) + "</details>",
            "<details><summary>expected</summary>" + json_block(fx.expected) + "</details>",
            "</article>",
        ]
    )
    heading = f'<code>{e(fx.id)}</code> <span class="kind">{e(fx.kind)}</span>'
    return Page(f"fixtures/{fx.id}.html", frame(f"{fx.id}: {fx.description}", body, _LINKS, heading=heading))


def fixture_location(fx: Fixture, corpus: Path) -> str:
    """Where the fixture is written, from the top of the repository, whatever folder the
    corpus was loaded from and wherever it is installed: ``scenarios/rule-text/layout.yaml:43``
    for a file of the corpus (a wheel's ``horserace/_scenarios`` is the repository's
    ``scenarios/``); a file elsewhere by its name alone (``mine.yaml:3``), so that no page
    names a folder of the machine that built the site."""
    try:
        relative = Path(fx.file).resolve().relative_to(corpus.resolve()).as_posix()
    except ValueError:
        return f"{Path(fx.file).name}:{fx.line}"
    return f"scenarios/{relative}:{fx.line}"


def exported_file(fx: Fixture, corpus: Path) -> str | None:
    """The fixture's file in the export (``export/scenarios/rule-text/layout.json``)."""
    try:
        relative = Path(fx.file).resolve().relative_to(corpus.resolve())
    except ValueError:
        return None
    return str(Path("export") / "scenarios" / relative.with_suffix(".json"))


def fixture_pages(cat: Catalogue, corpus: Path) -> list[Page]:
    return [
        fixture_page(fx, cat, exported_file(fx, corpus), fixture_location(fx, corpus)) for fx in cat.fixtures.values()
    ]


def fixtures_index(cat: Catalogue) -> Page:
    links = Links()
    by_kind: dict[str, list[Fixture]] = {kind: [] for kind in KINDS}
    for fx in cat.fixtures.values():
        by_kind.setdefault(fx.kind, []).append(fx)
    counts = " · ".join(f'<a href="#{e(k)}">{e(k)} {len(v)}</a>' for k, v in by_kind.items())
    sections = "".join(
        f'<h2 id="{e(kind)}">{e(kind)} <span class="count">{len(fixtures)}</span></h2>'
        f'<p class="quiet">{e(KIND_TEXT.get(kind, ""))}</p>' + fixture_table(fixtures, cat, links)
        for kind, fixtures in by_kind.items()
    )
    body = (
        f"<p>{len(cat.fixtures)} fixtures: {counts}. Each has a page with its why, its input and "
        "expected values, and for layout and play fixtures the layout drawn after every step.</p>" + sections
    )
    return Page("fixtures.html", frame("The fixtures", body, links, current="fixtures.html"))
