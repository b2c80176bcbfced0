#!/usr/bin/env python3
"""Check that the text of one Markdown document lives on in others: every paragraph,
list item, table row and line of code of OLD must appear, whitespace aside, in one of
the NEW files; what does not is printed, sentence by sentence, so that a paragraph
tidied when it moved shows only the sentences that changed.

    git show main:README.md > /tmp/old-readme.md
    python tools/moved_text.py /tmp/old-readme.md README.md docs/*.md

Exit 0 when nothing is missing, 1 otherwise (the missing text is listed). Headings are
not required: a section becomes a guide with its own title.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

_SENTENCE = re.compile(r"(?<=[.;:)])\s+(?=[A-Z(`*\"])")


def normal(text: str) -> str:
    """Whitespace as single spaces, list markers and emphasis marks aside."""
    text = re.sub(r"^\s*(?:[-*]|\d+\.)\s+", "", text, flags=re.MULTILINE)
    return re.sub(r"\s+", " ", text.replace("**", "")).strip()


def blocks(markdown: str) -> list[str]:
    """The paragraphs, list items, table rows and code lines of a document."""
    found: list[str] = []
    current: list[str] = []
    fenced = False

    def close() -> None:
        if current:
            found.append("\n".join(current))
            current.clear()

    for line in markdown.splitlines():
        stripped = line.strip()
        if stripped.startswith("```"):
            close()
            fenced = not fenced
            continue
        if fenced or stripped.startswith("|"):
            close()
            if stripped and not re.fullmatch(r"[|:\- ]+", stripped):
                found.append(stripped)
            continue
        if not stripped or stripped.startswith("#"):
            close()
            continue
        if re.match(r"\s*(?:[-*]|\d+\.)\s", line):
            close()
        current.append(line)
    close()
    return found


def missing(old: str, new: str) -> list[str]:
    """The sentences of ``old``'s blocks that ``new`` does not hold."""
    haystack = normal(new)
    out = []
    for block in blocks(old):
        text = normal(block)
        if not text or text in haystack:
            continue
        out += [sentence for sentence in _SENTENCE.split(text) if sentence not in haystack]
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("old", type=Path, help="the document as it was")
    parser.add_argument("new", type=Path, nargs="+", help="the documents its text moved to")
    args = parser.parse_args(argv)
    new = "\n\n".join(path.read_text(encoding="utf-8") for path in args.new)
    lost = missing(args.old.read_text(encoding="utf-8"), new)
    for sentence in lost:
        print(f"- {sentence}")
    total = len(blocks(args.old.read_text(encoding="utf-8")))
    print(f"{total} blocks of {args.old}; {len(lost)} sentence(s) not found in {len(args.new)} file(s)")
    return 1 if lost else 0


if __name__ == "__main__":
    sys.exit(main())
