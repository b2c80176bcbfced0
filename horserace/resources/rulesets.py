"""Rulesets as data: spec/rulesets/*.yaml, checked by spec/schema/ruleset.schema.json.

A ruleset names the readings of the interpretations register it selects (fields left
out are canonical) and the match target.  It is loaded with the same strict YAML layer
as the fixtures, and its errors carry ``file:line:column`` in the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from horserace.engine.ruleset import Ruleset
from horserace.errors import RulesetError, UsageError
from horserace.resources.paths import display_path, rulesets_dir
from horserace.resources.schemas import schema_errors
from horserace.resources.strict_yaml import read_document

__all__ = ["NamedRuleset", "bundled", "load_ruleset", "resolve"]


@dataclass(frozen=True)
class NamedRuleset:
    name: str
    description: str
    ruleset: Ruleset
    file: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "description": self.description,
            "target": self.ruleset.target,
            "readings": self.ruleset.variants,
        }


def load_ruleset(path: str | Path) -> NamedRuleset:
    """Load one ruleset file; raises :class:`~horserace.errors.RulesetError` with its
    place when it is not a valid ruleset."""
    path = Path(path)
    name = display_path(path)
    text, data = read_document(path, name, RulesetError)
    errors = schema_errors(data, text, name, "ruleset.schema")
    if errors:
        first = errors[0]
        raise RulesetError(first.message, file=name, line=first.line, column=first.column)
    ruleset = Ruleset.from_readings(data["readings"], target=data["target"])
    return NamedRuleset(data["name"], data["description"], ruleset, name)


def bundled() -> dict[str, NamedRuleset]:
    """The rulesets in spec/rulesets/, by name."""
    out = {}
    for path in sorted(rulesets_dir().glob("*.yaml")):
        named = load_ruleset(path)
        out[named.name] = named
    return out


def resolve(spec: str) -> NamedRuleset:
    """A ruleset file path, or the name of a bundled ruleset (``canonical``, ``long-match``...)."""
    path = Path(spec)
    if path.exists():
        return load_ruleset(path)
    found = rulesets_dir() / f"{spec}.yaml"
    if found.exists():
        return load_ruleset(found)
    known = ", ".join(sorted(p.stem for p in rulesets_dir().glob("*.yaml")))
    raise UsageError(f"{spec}: no such ruleset file, and no bundled ruleset of that name (bundled: {known})")
