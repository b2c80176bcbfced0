#!/usr/bin/env python3
"""Write the perft tables, scenarios/generated/perft/*.yaml: for a handful of fixed deals
(two, three and four players, a partnership, and the deal of fixture K5N2P7 that
``horserace bench --perft`` counts), one generated ``perft`` fixture per depth from 1 to
the deepest whose count has at most NODE_BUDGET nodes (a few seconds of counting on one
core), under the canonical readings, which each table names in its ``variants`` (every
register field: a count holds under the readings it was counted under, and a table
without ``variants`` would claim every reading; RFF8AX's 22 nodes are 17 under
``opening_continuation=never``).

    python tools/perft_tables.py [--check]

The counts are the reference engine's; tests/corpus/test_perft_tables.py holds them to
a second implementation (examples/python/horse_race.py, through the protocol) to 50,000
nodes a table. With --check, nothing is written: the exit code says whether the files
are what this script writes (1 if not).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import yaml

from horserace.corpus.generate import perft_table
from horserace.corpus.ids import taken_ids
from horserace.corpus.loader import load_paths
from horserace.corpus.positions import Position, SeedName, from_fixture, from_seed
from horserace.engine.ruleset import CANONICAL

#: The largest count a table holds: the deepest depth at or under it is the table's last.
NODE_BUDGET = 500_000
FOLDER = Path(__file__).resolve().parents[1] / "scenarios" / "generated" / "perft"
HEADER = (
    "# A perft table, written by tools/perft_tables.py: origin generated, the counts the\n"
    "# reference engine's, cross-checked against examples/python/horse_race.py to 50,000\n"
    "# nodes (tests/corpus/test_perft_tables.py). Not part of the default corpus: run it\n"
    "# with 'horserace conform scenarios/generated/perft' or 'horserace replay ...'.\n"
)


def tables() -> dict[str, tuple[str, Position]]:
    """Each table's file name: (what it counts from, the position)."""
    seeds = {
        "seed-1-players-2": SeedName(1, 2),
        "seed-1-players-3": SeedName(1, 3),
        "seed-1-players-4": SeedName(1, 4),
        "seed-2-partnership": SeedName(2, 4, partnership=True),
    }
    out: dict[str, tuple[str, Position]] = {}
    for name, seed in seeds.items():
        position = from_seed(seed)
        out[name] = (position.label, position)
    bench_deal = next(fx for fx in load_paths().fixtures if fx.id == "K5N2P7")
    out["k5n2p7-deal"] = ("K5N2P7", from_fixture(bench_deal))
    return out


def text_of(fixtures: list[dict]) -> str:
    """The file's text: every value written out (a fixture may hold no alias, and the
    depths of a table share their input's lists, so they are copied through JSON first)."""
    plain = json.loads(json.dumps(fixtures))
    return HEADER + yaml.safe_dump(plain, sort_keys=False, allow_unicode=True, width=120, default_flow_style=None)


def main(argv: list[str]) -> int:
    check = argv == ["--check"]
    if argv and not check:
        print(__doc__, file=sys.stderr)
        return 4
    rule_text = taken_ids() - {line for path in FOLDER.glob("*.yaml") for line in _ids(path)}
    stale = []
    for name, (source, position) in tables().items():
        fixtures = [_counted_under_canonical(fx) for fx in perft_table(name, position, NODE_BUDGET, source=source)]
        clash = [fx["id"] for fx in fixtures if fx["id"] in rule_text]
        if clash:
            print(f"{name}: generated IDs already taken: {', '.join(clash)}", file=sys.stderr)
            return 1
        path = FOLDER / f"{name}.yaml"
        text = text_of(fixtures)
        if check:
            if not path.is_file() or path.read_text(encoding="utf-8") != text:
                stale.append(str(path))
            continue
        FOLDER.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"{path}: depths 1 to {len(fixtures)}, {fixtures[-1]['expected']['nodes']:,} nodes at the deepest")
    for path in stale:
        print(f"{path} is not what tools/perft_tables.py writes", file=sys.stderr)
    return 1 if stale else 0


def _counted_under_canonical(fixture: dict) -> dict:
    """The fixture with ``variants`` naming every register field's canonical reading,
    written after ``rules``."""
    out: dict = {}
    for key, value in fixture.items():
        out[key] = value
        if key == "rules":
            out["variants"] = dict(CANONICAL.readings)
    return out


def _ids(path: Path) -> list[str]:
    return [item["id"] for item in yaml.safe_load(path.read_text(encoding="utf-8")) or []]


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
