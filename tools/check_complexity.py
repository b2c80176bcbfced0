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
        found = over_limit(args.root, args.max)
    except ImportError:
        print("radon is not installed: pip install -e '.[dev]'", file=sys.stderr)
        return 2
    if args.format == "json":
        rows = [{"path": p, "line": line, "name": n, "complexity": c} for p, line, n, c in found]
        print(json.dumps({"max": args.max, "over": rows}, indent=2))
    else:
        for path, line, name, complexity in found:
            print(f"{path}:{line} {name} {complexity}")
        print(
            f"{len(found)} function(s) over complexity {args.max}"
            if found
            else f"no function over complexity {args.max}"
        )
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
