"""Small builders so tests read like the rule documents: tiles as "[a|b]", ports by name;
and the bundled corpus, parsed once per test session (:func:`bundled_corpus`)."""

from __future__ import annotations

import functools
import shutil
import time
from pathlib import Path
from typing import TYPE_CHECKING

from horserace.engine.events import Draw, EndTurn, HandEnd, MatchEnd, Pass, Place
from horserace.engine.hand import Hand
from horserace.engine.layout import PORT_NAMES, Layout, parse_port
from horserace.engine.ruleset import CANONICAL, Ruleset
from horserace.engine.tiles import NAMES, parse_tile

if TYPE_CHECKING:
    from horserace.corpus.fixture import Corpus


@functools.cache
def bundled_corpus() -> Corpus:
    """The bundled corpus (scenarios/), loaded and checked once per process and shared.

    The ``corpus`` fixture of tests/conftest.py returns this, and a module that
    parametrises over the fixtures (which needs the list at collection time, before any
    fixture runs) calls it directly: either way the corpus is parsed once per session.
    Treat the result as read-only: every test that asks for it sees the same objects.
    """
    from horserace.corpus.loader import load_paths  # here, so the engine tests need not import the loader

    return load_paths()


def T(text: str) -> int:  # noqa: N802  (T for a tile, as the documents write [a|b])
    return parse_tile(text)


def tiles(text: str) -> list[int]:
    """ "[1|2] [3|4]" -> tile indices."""
    return [parse_tile(part + "]") for part in text.replace(" ", "").split("]") if part]


def place(layout: Layout, tile: str, target: str | None = None, port: str | None = None) -> int:
    t = T(tile)
    tg = None if target is None else T(target)
    p = None if port is None else parse_port(port)
    tg, p = layout.normalise(t, tg, p)
    return layout.place(t, tg, p)


def build(*steps) -> Layout:
    layout = Layout()
    for step in steps:
        place(layout, *step)
    return layout


def hand(
    seats: list[str],
    boneyard: str = "",
    opener: int = 0,
    *,
    partnership: bool = False,
    scores=None,
    ruleset: Ruleset = CANONICAL,
    target: int | None = None,
) -> Hand:
    return Hand(
        [tiles(s) for s in seats],
        tiles(boneyard),
        opener,
        partnership=partnership,
        scores=scores,
        ruleset=ruleset,
        target=target,
        fresh_deal=False,
    )


def act(h: Hand, seat: int, tile: str, target: str | None = None, port: str | None = None):
    return h.place(seat, T(tile), None if target is None else T(target), None if port is None else parse_port(port))


def trace(h: Hand) -> list[str]:
    """Events as short strings, for readable assertions."""
    out = []
    for e in h.events:
        if isinstance(e, Place):
            where = "" if e.target is None or e.port is None else f" {NAMES[e.target]} {PORT_NAMES[e.port]}"
            flags = ("+" if e.continues else "") + ("d" if e.drawn else "")
            out.append(f"{e.seat} place {NAMES[e.tile]}{where} ={e.count}/{e.credit}{flags}")
        elif isinstance(e, Draw):
            out.append(f"{e.seat} draw {NAMES[e.tile]}")
        elif isinstance(e, Pass):
            out.append(f"{e.seat} pass")
        elif isinstance(e, EndTurn):
            out.append(f"{e.seat} end-turn")
        elif isinstance(e, HandEnd):
            out.append(
                f"end {e.reason.value} winners={list(e.winners)} credits={list(e.credits)} scores={list(e.scores)} next={e.next_opener}"
            )
        elif isinstance(e, MatchEnd):
            out.append(f"match winners={list(e.winners)} scores={list(e.scores)}")
    return out


def late_position(
    seed: int,
    players: int = 2,
    partnership: bool = False,
    ruleset: Ruleset = CANONICAL,
    left: int = 6,
    engine: type[Hand] = Hand,
):
    """A perft fixture's input (without ``depth``) from a random hand some ``left``
    placements before its end, at the start of a turn: the layout so far, the hands and the
    boneyard left, the scores.  Perft from it reaches the hand's end (a domino, a block, the
    target), where the settlement and the end-of-hand rules decide the counts.  The hand is
    played by ``engine`` (the reference engine, or a deviation of it, whose own layouts
    the reference engine may not be able to build)."""
    import random

    from horserace.engine.match import deal

    def play(stop: int | None) -> tuple[Hand, list[tuple[int, int | None, int | None]], list[int]]:
        rng = random.Random(seed)
        dealt, boneyard = deal(rng, players)
        h = engine(dealt, boneyard, seed % players, partnership=partnership, ruleset=ruleset, record=False)
        placed: list[tuple[int, int | None, int | None]] = []
        starts: list[int] = []  # placements made when a turn began
        while not h.over and (stop is None or len(placed) < stop):
            h.play_forced()
            if h.over:
                break
            if not h.continuing and h.pending_drawn is None:
                starts.append(len(placed))
            moves = h.legal_placements()
            move = moves[rng.randrange(len(moves))]
            h.place(h.to_act, *move)
            placed.append(move)
        return h, placed, starts

    _, placed, starts = play(None)
    stop = max([s for s in starts if s <= len(placed) - left] or [0])
    h, placed, _ = play(stop)
    return {
        "mode": "partnership" if partnership else "individual",
        "seats": players,
        "scores": list(h.scores),
        "target": ruleset.target,
        "hands": [[NAMES[t] for t in h.hand_tiles(s)] for s in range(players)],
        # The tiles not drawn: those left to draw and those an engine never draws (HR-DEAL-2).
        "boneyard": [NAMES[t] for t in h.boneyard[len(h.boneyard) - h.boneyard_left - h.undrawable :]],
        "opener": h.to_act,
        "layout": [
            {"tile": NAMES[t]}
            if target is None or port is None
            else {"tile": NAMES[t], "target": NAMES[target], "port": PORT_NAMES[port]}
            for t, target, port in placed
        ],
    }


#: What a build leaves in the checkout, and what a developer's or CI's checkout holds
#: beside the sources (for a copy of the checkout as a fresh clone has it, to build
#: from). setuptools reads a stale ``horserace.egg-info/SOURCES.txt`` into the sdist and
#: a stale ``build/lib`` into the wheel, so a build from the checkout itself can carry
#: files that the configuration no longer names.
NOT_SOURCES = shutil.ignore_patterns(
    ".git",
    ".venv",
    "build",
    "dist",
    "*.egg-info",
    "__pycache__",
    "*.pyc",
    ".*_cache",
    ".hypothesis",
    "horserace-report",
    "node_modules",
)


def alive(pid: int) -> bool:
    """Whether process ``pid`` runs (a zombie does not), read from ``/proc`` (Linux)."""
    try:
        with Path(f"/proc/{pid}/stat").open("rb") as f:
            state = f.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in (b"Z", b"X")


def left_running(pids: list[int], wait: float = 2) -> list[int]:
    """Those of ``pids`` still running after ``wait`` seconds at most (a kill is seen in
    the process table a moment later)."""
    deadline = time.monotonic() + wait
    while any(alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [pid for pid in pids if alive(pid)]


def markdown_links(markdown: str) -> list[str]:
    """Every link and image target of a CommonMark document with GitHub's tables, as
    markdown-it-py parses it (inline links, reference links, autolinks, images)."""
    from markdown_it import MarkdownIt

    found: list[str] = []

    def walk(tokens) -> None:
        for token in tokens:
            if token.type == "link_open":
                found.append(str(token.attrGet("href")))
            elif token.type == "image":
                found.append(str(token.attrGet("src")))
            if token.children:
                walk(token.children)

    walk(MarkdownIt("commonmark").enable("table").parse(markdown))
    return found
