"""A run's badge, for an implementation's README: "Horse Race 184/184".

Two files per run, written with the other reports (:mod:`horserace.reports.write`):

- ``badge.svg``: a self-contained SVG badge in the flat style of shields.io (no font,
  image or script to fetch, no ``id``, so that several can sit in one page);
- ``badge.json``: the same badge as a shields.io *endpoint* (``schemaVersion`` 1,
  ``label``, ``message``, ``color``), for ``https://img.shields.io/endpoint?url=...`` once
  the file is published at a URL.

The colour says what the counts say: green when every fixture ran and passed, yellow
when every fixture that ran passed but some were skipped (or failed as an expectations
file expects), red on any failure, and when the implementation was unusable, the run was
interrupted, or nothing ran.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from urllib.parse import quote
from xml.sax.saxutils import escape, quoteattr

from horserace._version import PROTOCOL_VERSION
from horserace.conformance.scope import SEATING_NAMES, Scope
from horserace.corpus.status import Status
from horserace.errors import ImplementationUnusable
from horserace.reports.escape import for_html, for_markdown, for_xml
from horserace.reports.runs import Run

__all__ = [
    "BADGE_JSON",
    "BADGE_SVG",
    "LABEL",
    "SHIELDS_ENDPOINT",
    "Badge",
    "badge_for",
    "badge_svg",
    "embed_html",
    "embed_markdown",
    "endpoint_json",
]

#: The badge's left side.
LABEL = "Horse Race"
#: The file names in a report folder.
BADGE_SVG = "badge.svg"
BADGE_JSON = "badge.json"
#: shields.io's endpoint badge; the JSON file's URL goes in its ``url`` parameter.
SHIELDS_ENDPOINT = "https://img.shields.io/endpoint?url="

#: shields.io's named colours and the hex value it draws each with.
_COLOURS = {"brightgreen": "#4c1", "yellow": "#dfb317", "red": "#e05d44"}
_LABEL_COLOUR = "#555"
#: Advance widths (pixels) of Verdana at 11 px, the badge's font; others count as 7.
_WIDTHS = {
    **dict.fromkeys("0123456789", 7.0),
    **dict.fromkeys("il.,:;|!'", 3.2),
    **dict.fromkeys("frt/() ", 4.5),
    **dict.fromkeys("HNU", 8.3),
    **dict.fromkeys("acdeghknopqsuvxyz", 6.6),
    "m": 10.7,
    "w": 9.0,
}
_PADDING = 6


@dataclass(frozen=True)
class Badge:
    label: str
    message: str
    #: A shields.io colour name: ``brightgreen``, ``yellow`` or ``red``.
    color: str

    @property
    def text(self) -> str:
        """The badge as words: its alternative text."""
        return f"{self.label} {self.message}"

    @property
    def hex(self) -> str:
        return _COLOURS[self.color]


def badge_for(run: Run) -> Badge:
    """The badge of a run: ``passed/total``, with what kept it from green: skipped
    fixtures, expected failures, a selection of the corpus (never green: it is not the
    whole corpus), expected failures that now pass; and the tables and targets the
    implementation plays, where it declares only some."""
    total = len(run.results)
    if run.unusable:
        return Badge(LABEL, "unusable", "red")
    if run.footer.get("interrupted"):
        return Badge(LABEL, f"interrupted, {run.passed}/{total}", "red")
    if total in (0, run.skipped):
        return Badge(LABEL, f"0/{total}, nothing ran", "red")
    message = f"{run.passed}/{total}"
    selection = run.header.get("selection")
    notes = (
        [f"{selection.get('selected', total)} selected of {selection['of']}"]
        if isinstance(selection, dict) and "of" in selection
        else []
    )
    now_pass = sum(1 for r in run.results if r["status"] == Status.XPASS)
    failed = run.failed - (now_pass if run.footer.get("lenient_expectations") else 0)
    scope = _played(run)
    played = f"; {scope}" if scope else ""
    stopped = run.footer.get("stopped")
    if isinstance(stopped, dict) and isinstance(stopped.get("not_run"), int):
        notes.append(f"stopped, {stopped['not_run']} not run")
    if failed:
        return Badge(LABEL, ", ".join([message, f"{failed} failed", *notes]) + played, "red")
    expected = sum(1 for r in run.results if r["status"] == Status.XFAIL)
    notes += [f"{run.skipped} skipped"] if run.skipped else []
    notes += [f"{expected} expected to fail"] if expected else []
    notes += [f"{now_pass} now pass"] if now_pass else []
    return Badge(LABEL, ", ".join([message, *notes]) + played, "yellow" if notes else "brightgreen")


def _played(run: Run) -> str:
    """The tables and targets the implementation plays, where it declares only some
    (protocol 1.2): ``2-4 players; targets 10-200``; else ``""``."""
    try:
        declared = Scope.from_hello(run.hello, str(run.header.get("protocol") or PROTOCOL_VERSION))
    except (KeyError, TypeError, ValueError, ImplementationUnusable):
        return ""
    parts = []
    if declared.seatings is not None and set(declared.seatings) != set(SEATING_NAMES):
        parts.append(declared.seatings_text())
    if declared.targets is not None:
        parts.append(f"targets {declared.targets}")
    return "; ".join(parts)


def endpoint_json(badge: Badge) -> str:
    """The shields.io endpoint file (https://shields.io/badges/endpoint-badge)."""
    document = {"schemaVersion": 1, "label": badge.label, "message": badge.message, "color": badge.color}
    return json.dumps(document, indent=2, ensure_ascii=False, allow_nan=False) + "\n"


def _width(text: str) -> float:
    return sum(_WIDTHS.get(c, 7.0) for c in text)


def badge_svg(badge: Badge) -> str:
    """The badge as a standalone SVG document (the flat style of shields.io): a grey
    label and a coloured message, rounded at the outer corners only."""
    label, message = for_xml(badge.label), for_xml(badge.message)
    lw, mw = (round(_width(t)) + 2 * _PADDING for t in (label, message))
    width = lw + mw
    words = quoteattr(f"{label}: {message}")
    font = 'font-family="Verdana,Geneva,DejaVu Sans,sans-serif" font-size="11"'
    texts = "".join(
        f'<text x="{x + w / 2:g}" y="{y}" textLength="{w - 2 * _PADDING}" lengthAdjust="spacingAndGlyphs"'
        f"{fill}>{escape(t)}</text>"
        for x, w, t in ((0, lw, label), (lw, mw, message))
        for y, fill in ((15, ' fill="#010101" fill-opacity=".3"'), (14, ""))
    )
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="20" role="img" aria-label={words}>'
        f"<title>{escape(f'{label}: {message}')}</title>"
        f'<rect width="{width}" height="20" rx="3" fill="{badge.hex}"/>'
        f'<rect width="{lw}" height="20" rx="3" fill="{_LABEL_COLOUR}"/>'
        f'<rect x="{lw - 3}" width="3" height="20" fill="{_LABEL_COLOUR}"/>'
        f'<g fill="#fff" text-anchor="middle" {font}>{texts}</g>'
        "</svg>\n"
    )


def embed_markdown(badge: Badge, image: str, link: str | None = None) -> str:
    """Markdown that shows the badge at URL ``image`` (a relative path is fine in a
    README), linked to ``link`` if given."""
    shown = f"![{for_markdown(badge.text, cell=True)}]({quote(image, safe=':/?=&%#@')})"
    return f"[{shown}]({quote(link, safe=':/?=&%#@')})" if link else shown


def embed_html(badge: Badge, image: str, link: str | None = None) -> str:
    """HTML that shows the badge at URL ``image``, linked to ``link`` if given."""
    img = f'<img src="{for_html(quote(image, safe=":/?=&%#@"))}" alt="{for_html(badge.text)}">'
    return f'<a href="{for_html(quote(link, safe=":/?=&%#@"))}">{img}</a>' if link else img
