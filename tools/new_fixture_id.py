#!/usr/bin/env python3
"""Print new fixture IDs: short random codes, never derived from a file name or a
description, checked against every ID already in scenarios/ (IDs are never reused).

    python tools/new_fixture_id.py [COUNT]
"""

from __future__ import annotations

import re
import secrets
import sys
from pathlib import Path

# Crockford's base32 without I, L, O, U: no look-alikes, no accidental words.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6
ROOT = Path(__file__).resolve().parent.parent


def existing_ids() -> set[str]:
    ids: set[str] = set()
    pattern = re.compile(r"^\s*-?\s*id:\s*['\"]?([0-9A-Z]{%d})['\"]?\s*$" % LENGTH, re.M)
    for path in (ROOT / "scenarios").rglob("*.yaml"):
        ids.update(pattern.findall(path.read_text(encoding="utf-8")))
    retired = ROOT / "scenarios" / "retired-ids.txt"
    if retired.exists():
        ids.update(line.strip() for line in retired.read_text().splitlines() if line.strip())
    return ids


def new_id(taken: set[str]) -> str:
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if code not in taken and not code.isdigit():
            taken.add(code)
            return code


def main(argv: list[str]) -> int:
    try:
        count = int(argv[0]) if argv else 1
    except ValueError:
        print("usage: new_fixture_id.py [COUNT]", file=sys.stderr)
        return 4
    taken = existing_ids()
    for _ in range(count):
        print(new_id(taken))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
