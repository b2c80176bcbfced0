"""``--select`` and ``--deselect``: which fixtures of a corpus a command runs.

A pattern is a fixture ID, a rule ID (any rule the fixture cites), a kind, or one of them
made explicit (``id:2DNZSQ``, ``rule:HR-COUNT-1``, ``kind:layout``); IDs and kinds may be
glob patterns (``HR-COUNT-*``, ``id:2D*``, ``*-SETTLE-?``: ``*``, ``?`` and ``[...]`` as in
a shell) and are matched without regard to case.  ``reading:FIELD=VALUE`` selects the
fixtures played under that reading of a register field: those that name it, and, for the
canonical reading, those that name no reading of that field (they are played under the
canonical rules).

A pattern that matches no fixture of the corpus is a mistake, not an empty wish: it is an
error (:class:`SelectionError`) that names it with the close matches among the corpus's
IDs, rule IDs and kinds ("did you mean HR-SETTLE-1?").
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from horserace.corpus.fixture import Fixture
from horserace.engine.ruleset import CANONICAL, VARIANT_FIELDS
from horserace.errors import UsageError, close_to, did_you_mean

__all__ = ["SCOPES", "Pattern", "SelectionError", "close_matches", "matches", "parse_pattern", "select"]

#: The prefixes a pattern may carry, and what each matches.
SCOPES = ("id", "rule", "kind", "reading")


class SelectionError(UsageError):
    """A ``--select`` or ``--deselect`` pattern that cannot be used: malformed, or one that
    matches no fixture of the corpus."""


@dataclass(frozen=True)
class Pattern:
    """One ``--select``/``--deselect`` word, parsed."""

    text: str
    #: ``""`` (an ID, a rule ID or a kind), or one of :data:`SCOPES`.
    scope: str
    #: The glob (upper case for IDs), or for ``reading:`` the register field.
    value: str
    #: For ``reading:``: the reading.
    reading: str = ""

    def matches(self, fx: Fixture) -> bool:
        if self.scope == "reading":
            return fx.variants.get(self.value, CANONICAL.readings[self.value]) == self.reading
        if self.scope in ("", "id") and _glob(fx.id, self.value):
            return True
        if self.scope in ("", "rule") and any(_glob(rule, self.value) for rule in fx.rules):
            return True
        return self.scope in ("", "kind") and _glob(fx.kind, self.value)


def _glob(name: str, pattern: str) -> bool:
    return fnmatch.fnmatchcase(name.upper(), pattern)


def parse_pattern(text: str) -> Pattern:
    """A pattern from its text; :class:`SelectionError` for an unknown prefix or an unknown
    register field or reading."""
    scope, sep, value = text.partition(":")
    if not sep:
        scope, value = "", text
    elif scope not in SCOPES:
        hint = _did_you_mean(scope, SCOPES)
        raise SelectionError(f"{text!r}: no selection is named {scope!r}{hint}; use one of {', '.join(SCOPES)}")
    if not value:
        raise SelectionError(f"{text!r}: nothing after {scope + ':'!r}")
    if scope != "reading":
        return Pattern(text, scope, value.upper())
    field, eq, reading = value.partition("=")
    field = field.strip().replace("-", "_")
    if field not in VARIANT_FIELDS:
        hint = _did_you_mean(field, VARIANT_FIELDS)
        raise SelectionError(
            f"{text!r}: no register field is named {field!r}{hint}; known: {', '.join(VARIANT_FIELDS)}"
        )
    readings = VARIANT_FIELDS[field]
    if not eq or reading not in readings:
        hint = _did_you_mean(reading, readings) if eq else ""
        raise SelectionError(f"{text!r}: give reading:{field}=READING, READING one of {', '.join(readings)}{hint}")
    return Pattern(text, scope, field, reading)


def matches(fx: Fixture, patterns: Iterable[str | Pattern]) -> bool:
    """Whether ``fx`` matches any of ``patterns``."""
    return any((p if isinstance(p, Pattern) else parse_pattern(p)).matches(fx) for p in patterns)


def close_matches(word: str, fixtures: Sequence[Fixture], n: int = 3) -> list[str]:
    """The IDs, rule IDs and kinds of ``fixtures`` closest to ``word`` (a mistyped ID)."""
    scope, sep, value = word.partition(":")
    target = value if sep and scope in SCOPES else word
    names = sorted({fx.id for fx in fixtures} | {r for fx in fixtures for r in fx.rules} | {fx.kind for fx in fixtures})
    return close_to(target, names, cutoff=0.8, fold_case=True)[:n]


def _did_you_mean(word: str, known: Iterable[str]) -> str:
    hint = did_you_mean(close_to(word, known))
    return f" ({hint})" if hint else ""


def select(
    fixtures: list[Fixture],
    include: Sequence[str] | None,
    exclude: Sequence[str] | None,
    *,
    only: Iterable[str] | None = None,
) -> list[Fixture]:
    """The fixtures that match an ``include`` pattern (all when there is none) and no
    ``exclude`` pattern, in corpus order; ``only``: among these fixture IDs too (the last
    run's failures).  Each pattern must match some fixture of ``fixtures``: one that
    matches none raises :class:`SelectionError` with the close matches."""
    parsed_in = [parse_pattern(p) for p in include or ()]
    parsed_out = [parse_pattern(p) for p in exclude or ()]
    for option, patterns in (("--select", parsed_in), ("--deselect", parsed_out)):
        for p in patterns:
            if fixtures and not any(p.matches(fx) for fx in fixtures):
                close = close_matches(p.text, fixtures)
                hint = f"; {did_you_mean(close)}" if close else ""
                raise SelectionError(
                    f"{option} {p.text}: no fixture matches (a fixture ID, a rule ID or a kind, each may be a glob "
                    f"such as HR-COUNT-*, or reading:FIELD=VALUE){hint}"
                )
    wanted = set(only) if only is not None else None
    return [
        fx
        for fx in fixtures
        if (not parsed_in or any(p.matches(fx) for p in parsed_in))
        and not any(p.matches(fx) for p in parsed_out)
        and (wanted is None or fx.id in wanted)
    ]
