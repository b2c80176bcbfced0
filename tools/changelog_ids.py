#!/usr/bin/env python3
"""List the fixture IDs of the corpus that CHANGELOG.md does not mention, and the
deprecated fixtures not listed under a "Deprecated" heading.

    python tools/changelog_ids.py        # exit 1 when something is missing
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from horserace.corpus.loader import load_paths  # noqa: E402


def missing() -> tuple[list[str], list[str]]:
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    mentioned = set(re.findall(r"\b[0-9A-HJKMNP-TV-Z]{6}\b", text))
    deprecated_sections = "\n".join(re.findall(r"### Deprecated\n(.*?)(?=\n## |\n### |\Z)", text, re.DOTALL))
    listed_deprecated = set(re.findall(r"\b[0-9A-HJKMNP-TV-Z]{6}\b", deprecated_sections))
    fixtures = load_paths([ROOT / "scenarios"]).fixtures
    unmentioned = sorted(fx.id for fx in fixtures if fx.id not in mentioned and fx.origin == "rule-text")
    undeclared = sorted(fx.id for fx in fixtures if fx.deprecated and fx.id not in listed_deprecated)
    return unmentioned, undeclared


def main() -> int:
    unmentioned, undeclared = missing()
    for fid in unmentioned:
        print(f"not in CHANGELOG.md: {fid}")
    for fid in undeclared:
        print(f"deprecated but not under a Deprecated heading: {fid}")
    return 1 if unmentioned or undeclared else 0


if __name__ == "__main__":
    sys.exit(main())
