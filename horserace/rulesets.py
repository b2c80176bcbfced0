"""Rulesets as data: spec/rulesets/*.yaml, checked by spec/schema/ruleset.schema.json.

A ruleset names the readings of the interpretations register it selects (fields left
out are canonical) and the match target.  It is loaded with the same strict YAML layer
as the fixtures, and its errors carry ``file:line:column`` in the same way.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from pathlib import Path

from horserace.fixtures import FixtureError, _schema_errors, display_path, parse_yaml
from horserace.ruleset import Ruleset
from horserace.specdoc import spec_dir


@dataclass(frozen=True)
class NamedRuleset:
    name: str
    description: str
    ruleset: Ruleset
    file: str = ""

    def to_dict(self) -> dict:
        return {"name": self.name, "description": self.description, "target": self.ruleset.target,
                "readings": self.ruleset.variants}


def rulesets_dir() -> Path:
    return spec_dir() / "rulesets"


@lru_cache(maxsize=None)
def _validator():
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(
        json.loads((spec_dir() / "schema" / "ruleset.schema.json").read_text(encoding="utf-8")))


def load_ruleset(path: str | Path) -> NamedRuleset:
    """Load one ruleset file; raises :class:`FixtureError` with its place when it is
    not a valid ruleset."""
    path = Path(path)
    name = display_path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise FixtureError(f"cannot read: {exc.strerror}", file=name) from None
    except UnicodeDecodeError as exc:
        raise FixtureError(f"not UTF-8 (byte {exc.start})", file=name) from None
    data = parse_yaml(text, name)
    errors = _schema_errors(data, text, name, _validator())
    if errors:
        raise errors[0]
    ruleset = replace(Ruleset(**data["readings"]), target=data["target"])
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
    raise FixtureError(f"no such ruleset file, and no bundled ruleset of that name (bundled: {known})", file=spec)
