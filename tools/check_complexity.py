"""Fail when a function or method in horserace/ has a cyclomatic complexity over 20.

    .venv/bin/python tools/check_complexity.py [--max N] [--format text|json] [ROOT]

Over 20 is radon's rank D or worse (`radon cc -s -n D horserace` lists the same
functions). CI runs this with the static checks (.ci/run). A function over the limit is
split along what it draws or decides, into helpers named for what they do. Exit 0 when
none is over, 1 when some are (each listed as PATH:LINE NAME COMPLEXITY), 2 when radon
(the dev extra) is missing.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

LIMIT = 20  # radon: A 1-5, B 6-10, C 11-20, D 21-30, E 31-40, F 41 and over
ROOT = Path(__file__).resolve().parent.parent / "horserace"

#: Functions over the limit for now, each with why it is not split yet ("PATH NAME":
#: reason).  The check fails when one of them is no longer over the limit (strike it
#: from here), and on any function over the limit that is not here.
EXCEPTIONS = {
    **dict.fromkeys(
        [
            "horserace/engine/hand.py Hand.broken_conditions",
            "horserace/engine/hand.py Hand._place",
            "horserace/engine/layout.py Layout.normalise",
            "horserace/engine/layout.py Layout.move_violations",
        ],
        "the code-mutation triage (horserace/quality/mutation_triage.yaml) keys each survivor by its function: "
        "split with the triage brought up to the split",
    ),
}


def over_limit(root: Path, limit: int) -> list[tuple[str, int, str, int]]:
    """(path, line, name, complexity) of every block of `root` over `limit`, by path and line."""
    from radon.complexity import cc_visit  # noqa: PLC0415 (the dev extra: only this tool needs it)
    from radon.visitors import Function  # noqa: PLC0415 (as above)

    found = []
    for path in sorted(root.rglob("*.py")):
        for block in cc_visit(path.read_text(encoding="utf-8")):
            if isinstance(block, Function) and block.complexity > limit:  # functions and methods, not classes
                name = f"{block.classname}.{block.name}" if block.classname else block.name
                found.append((path.relative_to(root.parent).as_posix(), block.lineno, name, block.complexity))
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n", 1)[0] if __doc__ else None,
        epilog="Over 20 is radon's rank D or worse; split such a function into helpers named for what they do.",
    )
    parser.add_argument("root", nargs="?", type=Path, default=ROOT, help="the package folder (default: horserace/)")
    parser.add_argument("--max", type=int, default=LIMIT, help=f"the highest complexity allowed (default: {LIMIT})")
    parser.add_argument("--format", choices=("text", "json"), default="text")
    args = parser.parse_args(argv)
    try:
        every = over_limit(args.root, args.max)
    except ImportError:
        print("radon is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    excepted = EXCEPTIONS if args.root.resolve() == ROOT and args.max == LIMIT else {}
    found = [f for f in every if f"{f[0]} {f[2]}" not in excepted]
    held = [f for f in every if f"{f[0]} {f[2]}" in excepted]
    stale = sorted(set(excepted) - {f"{f[0]} {f[2]}" for f in held})
    if args.format == "json":
        rows = [{"path": p, "line": line, "name": n, "complexity": c} for p, line, n, c in found]
        kept = [
            {"path": p, "line": line, "name": n, "complexity": c, "why": excepted[f"{p} {n}"]} for p, line, n, c in held
        ]
        print(json.dumps({"max": args.max, "over": rows, "excepted": kept, "stale": stale}, indent=2))
    else:
        for path, line, name, complexity in found:
            print(f"{path}:{line} {name} {complexity}")
        for name in stale:
            print(f"{name}: no longer over {args.max}; strike it from EXCEPTIONS (tools/check_complexity.py)")
        print(
            f"{len(found)} function(s) over complexity {args.max}"
            if found
            else f"no function over complexity {args.max}"
        )
        if held:
            print(f"{len(held)} more over it for now, each with its reason in tools/check_complexity.py")
    return 1 if found or stale else 0


if __name__ == "__main__":
    sys.exit(main())
