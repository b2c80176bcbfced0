"""CHANGELOG.md in Keep a Changelog form (https://keepachangelog.com/en/1.1.0/): each
version a ``## `` heading, newest first, its entries under the headings Added, Changed,
Deprecated, Removed, Fixed and Security, in that order; and "Unreleased" opens with its
first heading, so that a line added under ``## Unreleased`` lands above ``### Added``
and is moved into its section when it is merged."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
KINDS = ("Added", "Changed", "Deprecated", "Removed", "Fixed", "Security")
_VERSION = re.compile(r"^## (Unreleased|\d+\.\d+\.\d+ \(\d{4}-\d{2}-\d{2}\))$")


def versions(text: str) -> dict[str, list[str]]:
    """Each version's heading and the lines under it, in the file's order."""
    found: dict[str, list[str]] = {}
    current: list[str] | None = None
    for line in text.splitlines():
        if line.startswith("## "):
            current = found.setdefault(line, [])
        elif current is not None:
            current.append(line)
    return found


def problems(text: str) -> list[str]:
    """What keeps ``text`` from Keep a Changelog's form, one line per problem."""
    out = []
    sections = versions(text)
    if not sections or next(iter(sections)) != "## Unreleased":
        out.append("the first version is not ## Unreleased")
    for heading, lines in sections.items():
        if not _VERSION.match(heading):
            out.append(f"{heading}: not '## Unreleased' or '## X.Y.Z (YYYY-MM-DD)'")
        kinds = [line[4:] for line in lines if line.startswith("### ")]
        unknown = [k for k in kinds if k not in KINDS]
        if unknown:
            out.append(f"{heading}: headings {unknown} are none of {', '.join(KINDS)}")
        known = [k for k in kinds if k in KINDS]
        if known != sorted(set(known), key=KINDS.index):
            out.append(f"{heading}: headings {known} out of order or twice")
        if any(line.startswith("#### ") for line in lines):
            out.append(f"{heading}: a heading below ###")
        if heading == "## Unreleased":
            first = next((line for line in lines if line.strip()), "")
            if first != "### Added":
                out.append(f"{heading}: its first line is {first!r}, not '### Added'")
            if set(KINDS[:2]) - set(kinds) or "Fixed" not in kinds:
                out.append(f"{heading}: no Added, Changed or Fixed")
    return out


def test_the_changelog_is_in_keep_a_changelog_form():
    assert problems((ROOT / "CHANGELOG.md").read_text(encoding="utf-8")) == []


def test_the_form_check_finds_what_is_out_of_form():
    old = "# Changelog\n\n## Unreleased\n\nProse first.\n\n- **A thing** (issue 21)\n\n#### By issue\n\n### Fixed\n\n### Added\n"
    assert problems(old) == [
        "## Unreleased: headings ['Fixed', 'Added'] out of order or twice",
        "## Unreleased: a heading below ###",
        "## Unreleased: its first line is 'Prose first.', not '### Added'",
        "## Unreleased: no Added, Changed or Fixed",
    ]
    assert problems("# Changelog\n\n## 0.1\n\n### Notes\n") == [
        "the first version is not ## Unreleased",
        "## 0.1: not '## Unreleased' or '## X.Y.Z (YYYY-MM-DD)'",
        "## 0.1: headings ['Notes'] are none of Added, Changed, Deprecated, Removed, Fixed, Security",
    ]
