#!/usr/bin/env python3
"""Print new fixture IDs: short random codes, never derived from a file name or a
description, checked against every ID already in scenarios/ (IDs are never reused).
The generator is :mod:`horserace.corpus.ids`, which synthesis and generated fixtures use too.

    python tools/new_fixture_id.py [COUNT]
"""

from __future__ import annotations

import sys

from horserace.corpus.ids import new_id, taken_ids


def main(argv: list[str]) -> int:
    try:
        count = int(argv[0]) if argv else 1
    except ValueError:
        print("usage: new_fixture_id.py [COUNT]", file=sys.stderr)
        return 4
    taken = taken_ids()
    for _ in range(count):
        print(new_id(taken))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
