"""``horserace impact`` as text, as JSON and as an HTML page whose plots are inline SVG:
per seating, each metric's difference B - A with its 95% interval against zero (one row
per metric, on its own scale), and the distributions of continuation chains and of hands
per match under A and B."""

from __future__ import annotations

from typing import Any

from horserace.engine.seating import Seating
from horserace.quality.impact import CHAIN_CAP, METRICS, ImpactStudy, Tally
from horserace.quality.impact_stats import Analysis, Row, chain_shares
from horserace.reports.escape import for_html

__all__ = ["study_dict", "study_html", "study_text"]

_ABOUT = {m.key: m.about for m in METRICS}


def _num(x: float) -> str:
    """A figure in at most four significant digits (and no ``-0``)."""
    if x == 0:
        return "0"
    return f"{x:.4g}" if abs(x) >= 1e-3 else f"{x:.2e}"


def _p(p: float) -> str:
    return "<0.001" if p < 0.001 else f"{p:.3f}"


def _design(study: ImpactStudy) -> str:
    return (
        "common random streams: the same deals and choices where the rules allow, differences paired by match"
        if study.paired
        else "independent random streams: the two sides unpaired (Welch)"
    )


def _ruleset(named: Any) -> dict[str, Any]:
    d: dict[str, Any] = named.to_dict()
    return d


def study_dict(study: ImpactStudy, analysis: Analysis) -> dict[str, Any]:
    """The study as JSON: its design, every row, and the distributions per seating."""
    seatings = []
    for seating in study.seatings:
        t = study.tallies.get(seating)
        if t is None:
            continue
        seatings.append(
            {
                "seating": seating.label,
                "matches": t.matches,
                "chain_lengths": {
                    "lengths": [*map(str, range(1, CHAIN_CAP)), f"{CHAIN_CAP}+"],
                    "a": [t.chains[0][k] for k in range(1, CHAIN_CAP + 1)],
                    "b": [t.chains[1][k] for k in range(1, CHAIN_CAP + 1)],
                },
                "hands_per_match": {
                    "a": {str(k): v for k, v in sorted(t.hands[0].items())},
                    "b": {str(k): v for k, v in sorted(t.hands[1].items())},
                },
            }
        )
    return {
        "a": _ruleset(study.a),
        "b": _ruleset(study.b),
        "matches_per_seating": study.matches,
        "seed": study.seed,
        "streams": study.streams,
        "paired": study.paired,
        "level": study.level,
        "tests": analysis.tests,
        "correction": "holm",
        "power_of_smallest_detectable": 0.8,
        "complete": study.stopped_by is None,
        "shards": study.shards,
        "shards_run": study.shards_run,
        "metrics": [{"metric": m.key, "name": m.name, "about": m.about} for m in METRICS],
        "rows": [r.to_dict() for r in analysis.rows],
        "significant": [f"{r.seating}: {r.name}" for r in analysis.significant],
        "seatings": seatings,
    }


def _header(study: ImpactStudy, analysis: Analysis) -> list[str]:
    return [
        (
            f"impact study: {study.a.name} (A) against {study.b.name} (B), {study.matches:,} matches a side per "
            f"seating, seed {study.seed}"
        ),
        f"  {_design(study)}",
        (
            f"  {analysis.tests} tests (metrics x seatings), Holm-corrected at {study.level:.0%}; "
            "'detectable': the smallest difference found with 80% power at this many matches"
        ),
    ]


def study_text(study: ImpactStudy, analysis: Analysis) -> str:
    """The study as a terminal reads it: per seating, a table of the metrics."""
    lines = _header(study, analysis)
    if study.stopped_by is not None:
        lines.append(f"  stopped: {study.shards_run} of {study.shards} shards ran; the figures are theirs")
    width = max(len(m.name) for m in METRICS)
    for seating, rows in analysis.by_seating().items():
        lines += ["", f"{seating} ({rows[0].n:,} matches a side)"]
        lines.append(
            f"  {'metric':<{width}}  {'A':>9}  {'B':>9}  {'B - A':>9}  {'95% interval':<21}  {'p (Holm)':>9}  "
            f"{'detectable':>10}"
        )
        for r in rows:
            mark = " *" if r.significant else "  "
            ci = f"[{_num(r.low)}, {_num(r.high)}]"
            lines.append(
                f"  {r.name:<{width}}  {_num(r.a):>9}  {_num(r.b):>9}  {_num(r.diff):>9}  {ci:<21}  "
                f"{_p(r.p_holm):>9}{mark}  {_num(r.detectable):>10}"
            )
        tally = study.tallies[next(s for s in study.seatings if s.label == seating)]
        a, b = chain_shares(tally)
        lines.append(
            "  chain lengths (share of turns that place), A: " + ", ".join(f"{k}: {x:.1%}" for k, x in _chain_labels(a))
        )
        lines.append(
            "                                           B: " + ", ".join(f"{k}: {x:.1%}" for k, x in _chain_labels(b))
        )
    significant = analysis.significant
    lines.append("")
    if significant:
        lines.append(f"{len(significant)} of {analysis.tests} differ significantly (marked *)")
    else:
        lines.append(
            f"no metric differs significantly at {study.level:.0%}; a difference smaller than its "
            "'detectable' may still exist"
        )
    return "\n".join(lines)


def _chain_labels(shares: list[float]) -> list[tuple[str, float]]:
    return [
        (f"{k}" if k < CHAIN_CAP else f"{k}+", x)
        for k, x in zip(range(1, CHAIN_CAP + 1), shares, strict=True)
        if x or k < 4
    ]


# ------------------------------------------------------------------------------ HTML

_WIDTH = 620
_ROW = 26
_LABEL = 200


def _forest(rows: list[Row]) -> str:
    """Each metric's B - A and its interval, on its own scale around zero (the scale's
    reach is written at the right)."""
    height = _ROW * len(rows) + 30
    plot = _WIDTH - _LABEL - 90
    mid = _LABEL + plot / 2
    parts = [
        (
            f'<svg class="forest" role="img" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" height="{height}" '
            f'aria-label="B minus A with 95% intervals, one row per metric">'
        ),
        f'<line x1="{mid:.1f}" y1="4" x2="{mid:.1f}" y2="{height - 20}" class="zero"/>',
        f'<text x="{mid:.1f}" y="{height - 6}" class="axis">0 (no difference)</text>',
    ]
    for i, r in enumerate(rows):
        y = 16 + i * _ROW
        reach = max(abs(r.low), abs(r.high), abs(r.detectable), 1e-12)
        scale = (plot / 2 - 6) / reach

        def x(v: float, scale: float = scale) -> float:
            return mid + v * scale

        cls = "sig" if r.significant else "ns"
        title = (
            f"{r.name}: B - A = {_num(r.diff)}, 95% interval [{_num(r.low)}, {_num(r.high)}], "
            f"p (Holm) {_p(r.p_holm)}, detectable {_num(r.detectable)}"
        )
        parts += [
            f'<g class="row {cls}" data-metric="{r.metric}"><title>{for_html(title)}</title>',
            f'<text x="{_LABEL - 8}" y="{y + 4}" class="label">{for_html(r.name)}</text>',
            (
                f'<rect x="{x(-r.detectable):.1f}" y="{y - 7}" width="{max(0.0, 2 * r.detectable * scale):.1f}" '
                'height="14" class="detectable"/>'
            ),
            f'<line x1="{x(r.low):.1f}" y1="{y}" x2="{x(r.high):.1f}" y2="{y}" class="ci"/>',
            f'<line x1="{x(r.low):.1f}" y1="{y - 5}" x2="{x(r.low):.1f}" y2="{y + 5}" class="ci"/>',
            f'<line x1="{x(r.high):.1f}" y1="{y - 5}" x2="{x(r.high):.1f}" y2="{y + 5}" class="ci"/>',
            f'<circle cx="{x(r.diff):.1f}" cy="{y}" r="4" class="point"/>',
            f'<text x="{_WIDTH - 84}" y="{y + 4}" class="reach">&#177;{for_html(_num(reach))}</text>',
            "</g>",
        ]
    parts.append("</svg>")
    return "".join(parts)


def _bars(title: str, labels: list[str], a: list[float], b: list[float]) -> str:
    """Two distributions side by side, A and B, as shares."""
    height = 170
    n = max(1, len(labels))
    step = (_WIDTH - 60) / n
    top = max([*a, *b, 1e-12])
    parts = [
        (
            f'<svg class="bars" role="img" viewBox="0 0 {_WIDTH} {height}" width="{_WIDTH}" height="{height}" '
            f'aria-label="{for_html(title)}">'
        ),
        f'<line x1="40" y1="{height - 30}" x2="{_WIDTH - 10}" y2="{height - 30}" class="axisline"/>',
    ]
    for i, label in enumerate(labels):
        x0 = 44 + i * step
        w = max(1.0, step / 2 - 2)
        for j, (side, v) in enumerate((("a", a[i]), ("b", b[i]))):
            h = (height - 50) * v / top
            parts.append(
                f'<rect x="{x0 + j * (w + 1):.1f}" y="{height - 30 - h:.1f}" width="{w:.1f}" height="{h:.1f}" '
                f'class="bar-{side}"><title>{side.upper()} {for_html(label)}: {v:.1%}</title></rect>'
            )
        if n <= 20 or i % max(1, n // 20) == 0:
            parts.append(f'<text x="{x0 + step / 4:.1f}" y="{height - 14}" class="tick">{for_html(label)}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _hands(t: Tally) -> tuple[list[str], list[float], list[float]]:
    keys = sorted(set(t.hands[0]) | set(t.hands[1]))
    if not keys:
        return [], [], []
    span = list(range(keys[0], keys[-1] + 1))
    total = max(1, t.matches)
    return [str(k) for k in span], [t.hands[0][k] / total for k in span], [t.hands[1][k] / total for k in span]


_STYLE = """
body{font-family:system-ui,sans-serif;margin:1.5rem;max-width:70rem;color:#1b1b1b}
table{border-collapse:collapse;margin:.5rem 0;font-variant-numeric:tabular-nums}
th,td{padding:.2rem .5rem;border-bottom:1px solid #ddd;text-align:right}
th:first-child,td:first-child{text-align:left}
tr.sig td{font-weight:600}
.wrap{overflow-x:auto;max-width:100%}
svg{max-width:100%;height:auto;font-size:12px}
.zero{stroke:#888;stroke-dasharray:3 3}
.axis,.tick{fill:#555;text-anchor:middle}
.label{fill:#1b1b1b;text-anchor:end}
.reach{fill:#777}
.ci{stroke:#1f4e9c;stroke-width:2}
.sig .point{fill:#b3261e}.ns .point{fill:#1f4e9c}
.detectable{fill:#e8e8e8}
.bar-a{fill:#1f4e9c}.bar-b{fill:#e08a00}
.axisline{stroke:#888}
.key span{display:inline-block;width:.8em;height:.8em;margin:0 .3em 0 1em}
"""


def study_html(study: ImpactStudy, analysis: Analysis) -> str:
    """A page of its own: the design, and per seating the table, the differences with
    their intervals, and the two distributions."""
    head = "".join(f"<p>{for_html(line.strip())}</p>" for line in _header(study, analysis))
    if study.stopped_by is not None:
        head += (
            f"<p><strong>Stopped: {study.shards_run} of {study.shards} shards ran; the figures are theirs.</strong></p>"
        )
    sections = []
    for label, rows in analysis.by_seating().items():
        seating: Seating = next(s for s in study.seatings if s.label == label)
        t = study.tallies[seating]
        ident = label.replace(" ", "-")
        body = "".join(
            f'<tr class="{"sig" if r.significant else "ns"}" title="{for_html(_ABOUT[r.metric])}">'
            f"<td>{for_html(r.name)}</td><td>{_num(r.a)}</td><td>{_num(r.b)}</td><td>{_num(r.diff)}</td>"
            f"<td>[{_num(r.low)}, {_num(r.high)}]</td><td>{_p(r.p_holm)}{' *' if r.significant else ''}</td>"
            f"<td>{_num(r.detectable)}</td></tr>"
            for r in rows
        )
        a, b = chain_shares(t)
        chain_labels = [*map(str, range(1, CHAIN_CAP)), f"{CHAIN_CAP}+"]
        hl, ha, hb = _hands(t)
        sections.append(
            f'<section id="{ident}"><h2>{for_html(label)} ({t.matches:,} matches a side)</h2>'
            '<div class="wrap"><table><thead><tr><th>metric</th><th>A</th><th>B</th><th>B - A</th>'
            "<th>95% interval</th><th>p (Holm)</th><th>detectable</th></tr></thead>"
            f"<tbody>{body}</tbody></table></div>"
            "<h3>B - A with its 95% interval</h3><p>Each row on its own scale (its reach at the right); "
            "the grey band is the smallest difference detectable at this many matches; red: significant "
            "after Holm's correction.</p>"
            f'<div class="wrap">{_forest(rows)}</div>'
            '<h3>Continuation chains: placements per turn that places</h3><p class="key"><span class="bar-a" '
            'style="background:#1f4e9c"></span>A<span style="background:#e08a00"></span>B</p>'
            f'<div class="wrap">{_bars("share of chains by length, A and B", chain_labels, a, b)}</div>'
            "<h3>Hands per match</h3>"
            f'<div class="wrap">{_bars("share of matches by hands, A and B", hl, ha, hb)}</div></section>'
        )
    title = f"Impact of {study.b.name} against {study.a.name}"
    return (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>{for_html(title)}</title><style>{_STYLE}</style></head><body>"
        f"<h1>{for_html(title)}</h1>{head}{''.join(sections)}</body></html>\n"
    )
