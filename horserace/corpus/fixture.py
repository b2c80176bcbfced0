"""The corpus's values: a :class:`Fixture` (one scenario of spec/fixture-format.md, read
and checked) and a :class:`Corpus` (the fixtures of some files with every error found)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.encoding import canonical
from horserace.engine.ruleset import Ruleset
from horserace.errors import FixtureError

__all__ = ["KINDS", "Corpus", "Fixture"]

#: The fixture kinds (spec/fixture-format.md): the one list the schema, the observers, the
#: protocol and the reports agree on (a test checks the schema's enum against it).
KINDS = ("layout", "play", "settlement", "illegal", "perft")


@dataclass
class Fixture:
    id: str
    description: str
    kind: str
    rules: list[str]
    origin: str
    why: str
    input: dict[str, Any]
    expected: dict[str, Any]
    sources: list[dict[str, Any]] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)
    file: str = ""
    line: int = 0
    #: Why the fixture is withdrawn (it keeps its ID; replay, conform and coverage skip it).
    deprecated: str | None = None

    _canonical: dict[str, Any] | None = field(default=None, repr=False, compare=False)

    @classmethod
    def from_document(cls, item: dict[str, Any], file: str, line: int) -> Fixture:
        """A fixture from one item of a fixture file, as the schema has checked it."""
        return cls(
            id=item["id"],
            description=item["description"],
            kind=item["kind"],
            rules=item["rules"],
            origin=item["origin"],
            why=item["why"],
            input=item["input"],
            expected=item["expected"],
            sources=item.get("sources", []),
            variants=item.get("variants", {}),
            file=file,
            line=line,
            deprecated=item.get("deprecated"),
        )

    @classmethod
    def observed(cls, item: dict[str, Any], file: str, line: int) -> Fixture:
        """A fixture whose ``expected`` is the reference engine's observations (a
        generated one): already in the canonical encoding, so :attr:`canonical_expected`
        is ``expected`` itself, not encoded again."""
        fx = cls.from_document(item, file, line)
        fx._canonical = fx.expected
        return fx

    @property
    def primary_rule(self) -> str:
        return self.rules[0]

    @property
    def canonical_expected(self) -> dict[str, Any]:
        """``expected`` in the canonical encoding, computed once."""
        if self._canonical is None:
            self._canonical = canonical(self.expected)
        return self._canonical

    @property
    def ruleset(self) -> Ruleset:
        # The cast: mypy checks **variants against from_readings' target (an int) too;
        # variants hold register readings only.
        return Ruleset.from_readings(self.variants)

    def applies_under(self, ruleset: Ruleset) -> bool:
        """A fixture holds under every reading it does not name, and only under the
        readings it names."""
        for name, reading in self.variants.items():
            if getattr(ruleset, name).value != reading:
                return False
        return True


@dataclass
class Corpus:
    fixtures: list[Fixture]
    errors: list[FixtureError]
    files: int
