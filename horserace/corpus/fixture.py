"""The corpus's values: a :class:`Fixture` (one scenario of spec/fixture-format.md, read
and checked) and a :class:`Corpus` (the fixtures of some files with every error found).

An ``illegal`` fixture may carry its legal twin (spec/fixture-format.md, "illegal"): the
same position with its one broken condition repaired, written as a few values of the
input replaced (``replace``, paths as :func:`~horserace.corpus.compare.format_path` writes
them) or as a whole ``input``; :attr:`Fixture.twin_input` is the twin's input, built once.
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any

from horserace.corpus.compare import PathStep, format_path
from horserace.corpus.encoding import canonical
from horserace.engine.ruleset import Ruleset
from horserace.errors import FixtureError, ScenarioError

__all__ = ["KINDS", "Corpus", "Fixture", "build_twin_input", "parse_input_path"]

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
    #: An ``illegal`` fixture's legal twin as written: ``why``, and ``replace`` or ``input``.
    twin: dict[str, Any] | None = None

    _canonical: dict[str, Any] | None = field(default=None, repr=False, compare=False)
    _twin_input: dict[str, Any] | None = field(default=None, repr=False, compare=False)

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
            twin=item.get("twin"),
        )

    @classmethod
    def observed(cls, item: dict[str, Any], file: str, line: int) -> Fixture:
        """A fixture whose ``expected`` is the reference engine's observations (a
        generated one): already in the canonical encoding, so :attr:`canonical_expected`
        is ``expected`` itself, not encoded again."""
        fx = cls.from_document(item, file, line)
        fx._canonical = fx.expected  # noqa: SLF001  (the fixture's own cache, set by its room)
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
    def twin_input(self) -> dict[str, Any] | None:
        """The legal twin's input (``None`` without a twin), built once from ``replace``
        (:func:`build_twin_input`) or taken as written; the loader has checked that the
        reference engine accepts every action of it.  Treat it as read-only."""
        if self.twin is None:
            return None
        if self._twin_input is None:
            self._twin_input = build_twin_input(self.input, self.twin)
        return self._twin_input

    @property
    def ruleset(self) -> Ruleset:
        # The cast: mypy checks **variants against from_readings' target (an int) too;
        # variants hold register readings only.
        return Ruleset.from_readings(self.variants)

    def applies_under(self, ruleset: Ruleset) -> bool:
        """A fixture holds under every reading it does not name, and only under the
        readings it names."""
        return all(getattr(ruleset, name).value == reading for name, reading in self.variants.items())


_STEP = re.compile(r"\[(\d+)\]|\.?([a-z_]+)")


def parse_input_path(text: str) -> tuple[PathStep, ...] | None:
    """A path inside a fixture's input as :func:`~horserace.corpus.compare.format_path`
    writes it (``actions[0].port`` is ``("actions", 0, "port")``), or ``None`` if ``text``
    is not one."""
    steps: list[PathStep] = []
    at = 0
    while at < len(text):
        m = _STEP.match(text, at)
        if m is None or m.end() == at:
            return None
        steps.append(int(m[1]) if m[1] is not None else m[2])
        at = m.end()
    if not steps or not isinstance(steps[0], str) or format_path(tuple(steps)) != text:
        return None
    return tuple(steps)


def build_twin_input(inp: dict[str, Any], twin: dict[str, Any]) -> dict[str, Any]:
    """The input of an illegal fixture's legal twin: ``twin["input"]`` as written, or
    ``inp`` with each path of ``twin["replace"]`` given its new value.  A path must name a
    value that exists in ``inp`` (a key of a mapping, an index of a list) and no path may
    lie inside another; else :class:`ScenarioError` at ``("twin", "replace", path)``."""
    if "replace" not in twin:
        written: dict[str, Any] = twin["input"]
        return written
    built = copy.deepcopy(inp)
    seen: list[tuple[str, tuple[PathStep, ...]]] = []
    for text, value in twin["replace"].items():
        where = ("twin", "replace", text)
        steps = parse_input_path(text)
        if steps is None:
            raise ScenarioError(
                f"twin.replace: {text!r} is not a path of the input (write it as actions[0].port, hands[1], boneyard)",
                path=where,
            )
        for other, other_steps in seen:
            shorter = min(len(steps), len(other_steps))
            if steps[:shorter] == other_steps[:shorter]:
                raise ScenarioError(f"twin.replace: {text} and {other} overlap; replace each value once", path=where)
        seen.append((text, steps))
        container: Any = built
        for i, step in enumerate(steps):
            present = (isinstance(container, dict) and isinstance(step, str) and step in container) or (
                isinstance(container, list) and isinstance(step, int) and step < len(container)
            )
            if not present:
                missing = format_path(steps[: i + 1])
                raise ScenarioError(
                    f"twin.replace: {text}: the input has no {missing}; a twin replaces values that exist "
                    "(replace the whole action or list to add or remove one)",
                    path=where,
                )
            if i == len(steps) - 1:
                container[step] = copy.deepcopy(value)
            else:
                container = container[step]
    return built


@dataclass
class Corpus:
    fixtures: list[Fixture]
    errors: list[FixtureError]
    files: int
