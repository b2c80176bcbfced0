"""The worked layout snapshots of the rule documents, read from the documents themselves.

The Italian ("Posata: [x|y]") and Finnish ("Pelattu [x|y]") documents print the same
worked snapshots: after each placement, the tiles, the spinners, the connections (which
port of which tile touches which port of which tile), the available attachment points
with their values, the counted contributions, their sum and the placement's credit in raw
and displayed points (shared/rules/README.md).  These tests parse both documents into
structured snapshots, with the documents' port names translated to the spec's
(HR-MOVE-1), and check that

- each document's blocks are complete and consistent in themselves (the summary line
  repeats the detail line; the printed sum is the sum of the listed contributions);
- the two documents agree, snapshot for snapshot;
- the bundled corpus holds every snapshot as a step of a ``layout`` fixture, with the same
  tiles, connections, attachment points, contributions (as a multiset of tile -> value,
  since the documents list "[1|4]: 4; [1|4]: 1" without ports), sum and credit.

Nothing here runs the engine: the figures come from the documents, and the corpus is
compared with them.  The documents are outside the repository (``../shared/rules/``);
without them the module is skipped.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

import pytest

from horserace.engine.ruleset import CANONICAL

RULES_DOCS = Path(__file__).resolve().parents[2].parent / "shared" / "rules"

pytestmark = pytest.mark.skipif(not RULES_DOCS.is_dir(), reason=f"rule documents not found at {RULES_DOCS}")

TILE = r"\[\d\|\d\]"


@dataclass(frozen=True)
class Language:
    """How one document writes a snapshot block."""

    file: str
    header: str  # the line that opens a block, with the placed tile as group 1
    counted: str  # the label of the counted contributions (it opens the block's lines)
    credit: str  # the credit, raw as group 1 and displayed as group 2
    tiles: str
    spinners: str
    connections: str
    points: str
    none: str  # the word for an empty list
    ports: dict  # the document's port names -> the spec's


ITALIAN = Language(
    file="horse-race.it.txt",
    header=rf"Posata: ({TILE})",
    counted="Contributi conteggiati",
    credit=r"Accredito della posa: (\d+) punti grezzi \((\d+) punt[oi] visualizzat[oi]\)",
    tiles="Tessere",
    spinners="Spinner",
    connections="Collegamenti",
    points="Punti di collegamento disponibili",
    none="nessuno",
    ports={
        "estremità di valore minore": "low",
        "estremità di valore maggiore": "high",
        "lato lineare A": "linear-a",
        "lato lineare B": "linear-b",
        "ramo A": "branch-a",
        "ramo B": "branch-b",
    },
)

FINNISH = Language(
    file="horse-race.fi.txt",
    header=rf"Pelattu ({TILE})",
    counted="Pisteytykseen lasketut arvot",
    credit=r"Siirtopisteet: (\d+) raakapistettä \((\d+) näyttöpiste(?:ttä)?\)",
    tiles="Laatat",
    spinners="Spinnerit",
    connections="Liitokset",
    points="Vapaat liitospisteet",
    none="ei yhtään",
    ports={
        "pienempi pää": "low",
        "suurempi pää": "high",
        "linja A": "linear-a",
        "linja B": "linear-b",
        "haara A": "branch-a",
        "haara B": "branch-b",
    },
)

#: The number of snapshot blocks each document prints (counted by hand: [4|4], [3|4],
#: [2|2], [1|2], [1|5], [0|5], [1|3], [1|4], [1|1], [6|6], [0|0]).  A parser that
#: silently finds nothing, or skips a block, fails on this.
BLOCKS_PER_DOCUMENT = 11


@dataclass(frozen=True)
class Snapshot:
    """One worked snapshot, in the spec's vocabulary; collections sorted."""

    placed: str
    tiles: tuple[str, ...]
    spinners: tuple[str, ...]
    connections: tuple[tuple[tuple[str, str], tuple[str, str]], ...]  # target's end first
    points: tuple[tuple[str, str, int], ...]  # (tile, port, value)
    contributions: tuple[tuple[str, int], ...]  # (tile, value), a sorted multiset
    sum: int
    credit_raw: int
    credit: int

    def describe(self) -> str:
        return f"placed {self.placed}, tiles {' '.join(self.tiles)}, sum {self.sum}, credit {self.credit_raw}/{self.credit}"


def canonical_tile(text: str) -> str:
    """'[5|2]' -> '[2|5]' (low half first, HR-MOVE-2)."""
    found = re.fullmatch(r"\[(\d)\|(\d)\]", text)
    assert found is not None, text
    a, b = sorted(int(x) for x in found.groups())
    return f"[{a}|{b}]"


def _items(text: str, lang: Language, sep: str) -> list[str]:
    return [] if text == lang.none else text.split(sep)


def _port(name: str, lang: Language, where: str) -> str:
    assert name in lang.ports, f"{where}: unknown port name {name!r}"
    return lang.ports[name]


def _end(text: str, lang: Language, where: str) -> tuple[str, str]:
    m = re.fullmatch(rf"({TILE}) \(([^)]*)\)", text)
    assert m, f"{where}: cannot read connection end {text!r}"
    return canonical_tile(m[1]), _port(m[2], lang, where)


def _summary(line: str, lang: Language, where: str) -> tuple[list[int], int, int, int]:
    """'<counted>: 2 + 8 = 10. <credit 10 raw (2 displayed)>.' -> terms, sum, raw, displayed."""
    m = re.match(rf"{lang.counted}: ([\d +]+) = (\d+)\. {lang.credit}\.", line)
    assert m, f"{where}: cannot read the count and credit in {line!r}"
    return [int(t) for t in m[1].split(" + ")], int(m[2]), int(m[3]), int(m[4])


def parse_snapshot(placed: str, summary: str, detail: str, lang: Language, where: str) -> Snapshot:
    terms, total, raw, shown = _summary(summary, lang, where)
    assert detail.startswith(summary), f"{where}: the detail line does not repeat the summary line"
    m = re.fullmatch(
        rf"{lang.tiles}: (?P<tiles>.*?)\. {lang.spinners}: (?P<spinners>.*?)\. "
        rf"{lang.connections}: (?P<connections>.*?)\. {lang.points}: (?P<points>.*?)\. "
        rf"{lang.counted}: (?P<contributions>.*?)\.",
        detail[len(summary) :].strip(),
    )
    assert m, f"{where}: cannot read the snapshot details in {detail!r}"
    tiles = [canonical_tile(t) for t in _items(m["tiles"], lang, ", ")]
    spinners = [canonical_tile(t) for t in _items(m["spinners"], lang, ", ")]
    connections = []
    for item in _items(m["connections"], lang, "; "):
        ends = item.split(" \N{EN DASH} ")  # the documents join the ends with an en dash
        assert len(ends) == 2, f"{where}: a connection joins two ends: {item!r}"
        connections.append((_end(ends[0], lang, where), _end(ends[1], lang, where)))
    points = []
    for item in _items(m["points"], lang, "; "):
        p = re.fullmatch(rf"({TILE}) \(([^,]*), (\d)\)", item)
        assert p, f"{where}: cannot read attachment point {item!r}"
        points.append((canonical_tile(p[1]), _port(p[2], lang, where), int(p[3])))
    contributions = []
    for item in _items(m["contributions"], lang, "; "):
        c = re.fullmatch(rf"({TILE}): (\d+)", item)
        assert c, f"{where}: cannot read contribution {item!r}"
        contributions.append((canonical_tile(c[1]), int(c[2])))
    # The block is consistent in itself: the printed terms are the listed contributions
    # and add up to the printed sum.
    assert sorted(terms) == sorted(v for _, v in contributions), (
        f"{where}: terms {terms} vs contributions {contributions}"
    )
    assert sum(terms) == total, f"{where}: {' + '.join(map(str, terms))} is not {total}"
    assert canonical_tile(placed) in tiles, f"{where}: the placed tile is not among the tiles"
    return Snapshot(
        placed=canonical_tile(placed),
        tiles=tuple(sorted(tiles)),
        spinners=tuple(sorted(spinners)),
        connections=tuple(sorted(connections)),
        points=tuple(sorted(points)),
        contributions=tuple(sorted(contributions)),
        sum=total,
        credit_raw=raw,
        credit=shown,
    )


def parse_document(lang: Language) -> list[Snapshot]:
    """Every snapshot block of one document, in the document's order: the header line,
    then the summary line, then the detail line (both opening with the counted label)."""
    lines = [line.strip() for line in (RULES_DOCS / lang.file).read_text(encoding="utf-8").splitlines()]
    snapshots = []
    for i, line in enumerate(lines):
        header = re.fullmatch(lang.header, line)
        if not header:
            continue
        where = f"{lang.file}:{i + 1} ({line})"
        body = []
        for following in lines[i + 1 :]:
            if not following.startswith(f"{lang.counted}:"):
                break
            body.append(following)
        assert len(body) == 2, f"{where}: expected a summary line and a detail line, found {len(body)} lines"
        snapshots.append(parse_snapshot(header[1], body[0], body[1], lang, where))
    return snapshots


ITALIAN_SNAPSHOTS = parse_document(ITALIAN) if RULES_DOCS.is_dir() else []
FINNISH_SNAPSHOTS = parse_document(FINNISH) if RULES_DOCS.is_dir() else []


def test_italian_document_has_every_snapshot_block():
    """it: every "Posata: [x|y]" block is read, with its tiles, spinners, connections,
    attachment points, contributions, sum and credit."""
    assert len(ITALIAN_SNAPSHOTS) == BLOCKS_PER_DOCUMENT
    assert [s.placed for s in ITALIAN_SNAPSHOTS] == [
        "[4|4]",
        "[3|4]",
        "[2|2]",
        "[1|2]",
        "[1|5]",
        "[0|5]",
        "[1|3]",
        "[1|4]",
        "[1|1]",
        "[6|6]",
        "[0|0]",
    ]


def test_finnish_document_has_every_snapshot_block():
    """fi: every "Pelattu [x|y]" block is read, as for the Italian."""
    assert len(FINNISH_SNAPSHOTS) == BLOCKS_PER_DOCUMENT


def test_a_snapshot_is_read_in_full():
    """it «Doppie terminali e interne allo schema», "Posata: [3|4]": every field of one
    block, port names translated (HR-MOVE-1)."""
    snap = ITALIAN_SNAPSHOTS[1]
    assert snap == Snapshot(
        placed="[3|4]",
        tiles=("[1|1]", "[1|4]", "[3|4]", "[4|4]"),
        spinners=("[1|1]", "[4|4]"),
        connections=(
            (("[1|4]", "high"), ("[4|4]", "linear-a")),
            (("[1|4]", "low"), ("[1|1]", "linear-a")),
            (("[4|4]", "linear-b"), ("[3|4]", "high")),
        ),
        points=(("[1|1]", "linear-b", 1), ("[3|4]", "low", 3), ("[4|4]", "branch-a", 4), ("[4|4]", "branch-b", 4)),
        contributions=(("[1|1]", 2), ("[3|4]", 3)),
        sum=5,
        credit_raw=5,
        credit=1,
    )


def test_italian_and_finnish_snapshots_agree():
    """it "Posata" / fi "Pelattu": the two documents print the same snapshots, one for
    one and in the same order."""
    assert len(ITALIAN_SNAPSHOTS) == len(FINNISH_SNAPSHOTS)
    for n, (it, fi) in enumerate(zip(ITALIAN_SNAPSHOTS, FINNISH_SNAPSHOTS, strict=True)):
        assert it == fi, f"snapshot {n + 1}: Posata {it.placed} and Pelattu {fi.placed} differ:\n  it {it}\n  fi {fi}"


# ---------------------------------------------------------------------- the corpus
def corpus_steps(corpus):
    """(fixture, step index, placed tile, expected snapshot) for every step of every
    layout fixture of the bundled corpus that holds under the canonical readings (the
    documents' snapshots are canonical: both branches of [1|1] are used, HRI-10)."""
    for fx in corpus.fixtures:
        if fx.kind != "layout" or not fx.applies_under(CANONICAL):
            continue
        for i, (placement, expected) in enumerate(zip(fx.input["steps"], fx.expected["steps"], strict=True)):
            yield fx, i, canonical_tile(placement["tile"]), expected


def corpus_view(expected: dict) -> dict:
    """A fixture step's expected snapshot in the shape of :class:`Snapshot` (tiles low half
    first; contributions as a multiset of tile -> value).  A field the fixture leaves out
    is None, and then matches nothing: the corpus must state every field a document
    prints."""

    def get(key, convert):
        return None if key not in expected else convert(expected[key])

    return {
        "tiles": get("tiles", lambda ts: tuple(sorted(canonical_tile(t) for t in ts))),
        "connections": get(
            "connections",
            lambda cs: tuple(sorted(tuple((canonical_tile(end["tile"]), end["port"]) for end in pair) for pair in cs)),
        ),
        "points": get(
            "attachment_points",
            lambda ps: tuple(sorted((canonical_tile(p["tile"]), p["port"], p["value"]) for p in ps)),
        ),
        "contributions": get("contributions", lambda cs: Counter((canonical_tile(c["tile"]), c["value"]) for c in cs)),
        "sum": expected.get("sum"),
        "credit_raw": expected.get("credit_raw"),
        "credit": expected.get("credit"),
    }


def document_view(snap: Snapshot) -> dict:
    return {
        "tiles": snap.tiles,
        "connections": snap.connections,
        "points": snap.points,
        "contributions": Counter(snap.contributions),
        "sum": snap.sum,
        "credit_raw": snap.credit_raw,
        "credit": snap.credit,
    }


@pytest.mark.parametrize(
    "snap", ITALIAN_SNAPSHOTS, ids=[f"{n + 1:02d}-{s.placed}" for n, s in enumerate(ITALIAN_SNAPSHOTS)]
)
def test_corpus_holds_every_document_snapshot(snap, corpus):
    """it "Posata" / fi "Pelattu" (the same snapshots, checked above): for each, the corpus
    has a layout fixture step that places that tile and expects the same tiles,
    connections, attachment points, contributions (tile -> value), sum and credit."""
    want = document_view(snap)
    near = []
    for fx, i, placed, expected in corpus_steps(corpus):
        if placed != snap.placed:
            continue
        got = corpus_view(expected)
        differing = [key for key in want if got[key] != want[key]]
        if not differing:
            return
        near.append(f"  {fx.id} ({fx.file}:{fx.line}) step {i}: differs in {', '.join(differing)}")
    n = ITALIAN_SNAPSHOTS.index(snap) + 1
    pytest.fail(
        f"document snapshot {n} (it 'Posata: {snap.placed}' / fi 'Pelattu {snap.placed}': {snap.describe()}) "
        "has no layout fixture step in the corpus"
        + ("; steps placing that tile:\n" + "\n".join(near) if near else "; no layout fixture step places that tile")
    )
