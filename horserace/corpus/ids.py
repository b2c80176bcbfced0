"""Fixture IDs: six characters of Crockford's base32 (no I, L, O, U: no look-alikes, no
accidental words), never derived from a file name or a description, never reused or
renumbered.  The one generator of every ID: ``tools/new_fixture_id.py`` for hand-written
fixtures, ``horserace synthesize`` for Z3's, and :func:`generated_id` for the stable IDs of
seeded generated fixtures (fuzz findings, benchmarks)."""

from __future__ import annotations

import hashlib
import re
import secrets
from collections.abc import Iterable
from pathlib import Path

from horserace.resources.paths import default_corpus

__all__ = ["ALPHABET", "LENGTH", "generated_id", "new_id", "taken_ids"]

ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
LENGTH = 6
#: An ``id:`` line of a fixture file, read without parsing the YAML.
_ID_LINE = re.compile(rf"^\s*-?\s*id:\s*['\"]?([0-9A-Z]{{{LENGTH}}})['\"]?\s*$", re.MULTILINE)


def taken_ids(folders: Iterable[Path] = ()) -> set[str]:
    """Every ID in the bundled corpus (and ``folders``), and the retired ones of
    ``scenarios/retired-ids.txt``."""
    corpus = default_corpus()
    ids: set[str] = set()
    for folder in [corpus, *folders]:
        if folder.is_dir():
            for path in folder.rglob("*.yaml"):
                ids.update(_ID_LINE.findall(path.read_text(encoding="utf-8")))
    retired = corpus / "retired-ids.txt"
    if retired.exists():
        ids.update(line.strip() for line in retired.read_text(encoding="utf-8").splitlines() if line.strip())
    return ids


def new_id(taken: set[str]) -> str:
    """A fresh random ID not in ``taken`` (and added to it)."""
    while True:
        code = "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))
        if code not in taken and not code.isdigit():
            taken.add(code)
            return code


def generated_id(seed: int, salt: str = "") -> str:
    """A stable ID for generated fixture ``seed``: the same seed and salt, the same ID."""
    digest = int.from_bytes(hashlib.sha256(f"{salt}{seed}".encode()).digest()[:8], "big")
    return "".join(ALPHABET[(digest >> (5 * i)) & 31] for i in range(LENGTH))
