"""``--select`` and ``--deselect``: which fixtures of a corpus a command runs."""

from __future__ import annotations

from collections.abc import Iterable

from horserace.corpus.fixture import Fixture

__all__ = ["matches", "select"]


def matches(fx: Fixture, patterns: Iterable[str]) -> bool:
    """``--select``/``--deselect``: a fixture ID, a rule ID (any rule the fixture cites),
    a kind, or ``kind:NAME`` / ``rule:ID`` / ``id:ID``."""
    for p in patterns:
        scope, _, value = p.partition(":") if ":" in p else ("", "", p)
        if scope in ("", "id") and fx.id == value:
            return True
        if scope in ("", "rule") and value in fx.rules:
            return True
        if scope in ("", "kind") and fx.kind == value:
            return True
    return False


def select(fixtures: list[Fixture], include: list[str] | None, exclude: list[str] | None) -> list[Fixture]:
    chosen = [fx for fx in fixtures if not include or matches(fx, include)]
    return [fx for fx in chosen if not exclude or not matches(fx, exclude)]
