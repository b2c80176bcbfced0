"""The strict fixture loader: YAML files under scenarios/ into checked :class:`Fixture`
values (spec/fixture-format.md).

Checks, in order, each reported as ``file:line:column: message``:

1. the file: size limit, safe YAML through the libyaml-backed loader, no duplicate keys,
   no anchors or aliases (alias bombs), bounded nesting;
2. the JSON Schema (spec/schema/fixture.schema.json, draft 2020-12), validated by the
   compiled ``jsonschema_rs``; positions are recovered by a second parse only for a file
   that fails;
3. the meaning: tiles of the double-six set, each tile once across hands, boneyard and
   layout, all 28 for a ``play`` hand, deal sizes for a fresh deal, rule IDs that exist,
   fixture IDs unique across the corpus, the readings in ``variants`` named by the
   register, placements legal where the fixture says they are.

Nothing is lost: :func:`load_paths` collects every error of every file.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterable

import yaml

from horserace.ruleset import VARIANT_FIELDS, Ruleset
from horserace.specdoc import load_rules, spec_dir

#: Files larger than this are refused before parsing (hostile or broken input).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Deepest nesting a fixture needs is about 8; anything far deeper is refused.
MAX_DEPTH = 64


def package_root() -> Path:
    return Path(__file__).resolve().parent.parent


def default_corpus() -> Path:
    """The bundled corpus: scenarios/ of the source checkout, else the copy an installed
    wheel carries (``horserace/_scenarios``)."""
    checkout = package_root() / "scenarios"
    return checkout if (checkout / "rule-text").is_dir() else Path(__file__).resolve().parent / "_scenarios"


class FixtureError(ValueError):
    """A fixture file or fixture that cannot be used, with its place."""

    def __init__(self, message: str, *, file: str, line: int | None = None, column: int | None = None,
                 fixture_id: str | None = None, rule: str | None = None) -> None:
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.fixture_id = fixture_id
        self.rule = rule
        super().__init__(self.render())

    def render(self) -> str:
        where = self.file
        if self.line is not None:
            where += f":{self.line}"
            if self.column is not None:
                where += f":{self.column}"
        who = f"fixture {self.fixture_id}: " if self.fixture_id else ""
        rule = f" ({self.rule})" if self.rule else ""
        return f"{where}: {who}{self.message}{rule}"

    def to_dict(self) -> dict:
        return {"file": self.file, "line": self.line, "column": self.column, "fixture": self.fixture_id,
                "message": self.message, "rule": self.rule}


@dataclass
class Fixture:
    id: str
    description: str
    kind: str
    rules: list[str]
    origin: str
    why: str
    input: dict
    expected: dict
    sources: list[dict] = field(default_factory=list)
    variants: dict[str, str] = field(default_factory=dict)
    file: str = ""
    line: int = 0
    #: Why the fixture is withdrawn (it keeps its ID; replay, conform and coverage skip it).
    deprecated: str | None = None

    _canonical: dict | None = field(default=None, repr=False, compare=False)

    @property
    def primary_rule(self) -> str:
        return self.rules[0]

    @property
    def canonical_expected(self) -> dict:
        """``expected`` in the canonical encoding, computed once (horserace.replay)."""
        if self._canonical is None:
            from horserace.replay import canonical

            self._canonical = canonical(self.expected)
        return self._canonical

    @property
    def ruleset(self) -> Ruleset:
        return Ruleset(**self.variants)

    def applies_under(self, ruleset: Ruleset) -> bool:
        """A fixture holds under every reading it does not name, and only under the
        readings it names."""
        for name, reading in self.variants.items():
            if getattr(ruleset, name).value != reading:
                return False
        return True


# ---------------------------------------------------------------------- YAML layer
class _StrictLoader(yaml.CSafeLoader):
    """Safe, libyaml-backed, and strict about duplicate keys."""

    def construct_mapping(self, node, deep=False):
        mapping = super().construct_mapping(node, deep=deep)
        if len(mapping) != len(node.value):
            seen: dict = {}
            for key_node, _ in node.value:
                key = key_node.value
                if key == "<<":
                    raise yaml.constructor.ConstructorError(
                        None, None, "merge keys ('<<') are not allowed in fixtures", key_node.start_mark)
                if key in seen:
                    raise yaml.constructor.ConstructorError(
                        None, None, f"duplicate key {key!r} (first at line {seen[key] + 1})", key_node.start_mark)
                seen[key] = key_node.start_mark.line
        return mapping


def _has_alias(data: Any) -> bool:
    """Whether any container is reachable twice (an anchor reused through an alias)."""
    seen: set[int] = set()
    stack = [data]
    while stack:
        item = stack.pop()
        if isinstance(item, (dict, list)):
            if id(item) in seen:
                return True
            seen.add(id(item))
            stack.extend(item.values() if isinstance(item, dict) else item)
    return False


def _depth_ok(text: str) -> bool:
    """A cheap upper bound of flow nesting ([ and {) and indentation depth."""
    depth = deepest = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            if depth > deepest:
                deepest = depth
        elif ch in "]}":
            depth -= 1
    return deepest <= MAX_DEPTH + 2  # a tile "[a|b]" inside a flow list adds one


def parse_yaml(text: str, file: str) -> Any:
    """Parse one fixture file's text (safe YAML only)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_FILE_BYTES:
        raise FixtureError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; fixture files are small", file=file)
    if ("[" in text or "{" in text) and not _depth_ok(text):
        raise FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file)
    try:
        data = yaml.load(text, Loader=_StrictLoader)
    except yaml.MarkedYAMLError as exc:
        mark = exc.problem_mark or exc.context_mark
        problem = exc.problem or exc.context or "invalid YAML"
        raise FixtureError(f"YAML: {problem}", file=file,
                           line=mark.line + 1 if mark else None, column=mark.column + 1 if mark else None) from None
    except yaml.YAMLError as exc:
        raise FixtureError(f"YAML: {exc}", file=file) from None
    except RecursionError:
        raise FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file) from None
    if ("&" in text or "*" in text) and _has_alias(data):
        raise FixtureError("anchors and aliases are not allowed in fixtures (write every value out)", file=file)
    return data


def _node_at(text: str, path: Iterable) -> tuple[int | None, int | None]:
    """Line and column (1-based) of the YAML node at a JSON instance path: the slow,
    second parse made only for a file that failed."""
    try:
        node = yaml.compose(text, Loader=yaml.CSafeLoader)
    except yaml.YAMLError:
        return None, None
    for step in path:
        if isinstance(node, yaml.MappingNode):
            for key_node, value_node in node.value:
                if key_node.value == step:
                    node = value_node
                    break
            else:
                break
        elif isinstance(node, yaml.SequenceNode) and isinstance(step, int) and step < len(node.value):
            node = node.value[step]
        else:
            break
    if node is None:
        return None, None
    return node.start_mark.line + 1, node.start_mark.column + 1


# ---------------------------------------------------------------------- schema layer
@lru_cache(maxsize=None)
def schema() -> dict:
    return json.loads((spec_dir() / "schema" / "fixture.schema.json").read_text(encoding="utf-8"))


@lru_cache(maxsize=None)
def _validator():
    import jsonschema_rs

    return jsonschema_rs.Draft202012Validator(schema())


def _schema_errors(data: Any, text: str, file: str, validator=None) -> list[FixtureError]:
    """Schema errors with their positions (``validator``: the fixture schema's unless
    another is given, e.g. the ruleset schema's, whose documents are not lists)."""
    fixture_list = validator is None
    validator = validator or _validator()
    try:
        if validator.is_valid(data):
            return []
        found = sorted(validator.iter_errors(data), key=lambda e: [str(p) for p in e.instance_path])
    except ValueError:  # jsonschema_rs: "Recursion limit reached"
        return [FixtureError(f"nesting deeper than {MAX_DEPTH} levels; fixtures are shallow", file=file)]
    errors = []
    for err in found:
        path = list(err.instance_path)
        line, column = _node_at(text, path)
        fixture_id = None
        if fixture_list and path and isinstance(path[0], int) and isinstance(data, list) and isinstance(data[path[0]], dict):
            fixture_id = data[path[0]].get("id") if isinstance(data[path[0]].get("id"), str) else None
        shown = path[1:] if fixture_list else path
        where = "/".join(str(p) for p in shown) or ("(fixture)" if fixture_list else "(document)")
        message = err.message
        if len(message) > 240:  # the validator quotes the whole offending value
            message = message[:160] + " ... " + message[-60:]
        value = _get(data, path)
        if isinstance(value, list) and len(value) == 1 and isinstance(value[0], str) and "|" in value[0]:
            message += f"; quote tiles in YAML: '[{value[0]}]'"
        errors.append(FixtureError(f"{where}: {message}", file=file, line=line, column=column, fixture_id=fixture_id))
    return errors


def _get(data: Any, path: list) -> Any:
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


# ---------------------------------------------------------------------- loading
def load_text(text: str, file: str) -> tuple[list[Fixture], list[FixtureError]]:
    """Parse and schema-check one file; semantic checks are :func:`check_fixtures`."""
    try:
        data = parse_yaml(text, file)
    except FixtureError as exc:
        return [], [exc]
    if data is None:
        return [], [FixtureError("the file is empty; a fixture file is a list of fixtures", file=file)]
    errors = _schema_errors(data, text, file)
    if errors:
        return [], errors
    lines = _fixture_lines(text, len(data))
    fixtures = [
        Fixture(
            id=item["id"], description=item["description"], kind=item["kind"], rules=item["rules"],
            origin=item["origin"], why=item["why"], input=item["input"], expected=item["expected"],
            sources=item.get("sources", []), variants=item.get("variants", {}), file=file, line=lines[i],
            deprecated=item.get("deprecated"),
        )
        for i, item in enumerate(data)
    ]
    return fixtures, []


_ITEM_START = re.compile(r"^- ", re.M)


def _fixture_lines(text: str, count: int) -> list[int]:
    """Line of each top-level list item (block style), without a second parse."""
    starts = [text.count("\n", 0, m.start()) + 1 for m in _ITEM_START.finditer(text)]
    if len(starts) == count:
        return starts
    line_of = []
    node = yaml.compose(text, Loader=yaml.CSafeLoader)
    for item in node.value:
        line_of.append(item.start_mark.line + 1)
    return line_of


#: Fixture files are YAML; JSON (a subset of YAML) is read too, as ``horserace export`` writes it.
SUFFIXES = (".yaml", ".yml", ".json")


def fixture_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for p in paths:
        p = Path(p)
        if p.is_dir():
            files.extend(sorted(q for q in p.rglob("*") if q.suffix in SUFFIXES and q.is_file()))
        else:
            files.append(p)
    return files


def display_path(path: Path) -> str:
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)


@dataclass
class Corpus:
    fixtures: list[Fixture]
    errors: list[FixtureError]
    files: int


def load_paths(paths: Iterable[str | Path] | None = None, *, check: bool = True) -> Corpus:
    """Load every fixture file under ``paths`` (default: the bundled corpus), collecting
    every error; with ``check``, also run the semantic checks."""
    files = fixture_files([default_corpus()] if paths is None else paths)
    fixtures: list[Fixture] = []
    errors: list[FixtureError] = []
    for path in files:
        name = display_path(path)
        try:
            raw = path.read_bytes()
        except OSError as exc:
            errors.append(FixtureError(f"cannot read: {exc.strerror}", file=name))
            continue
        if len(raw) > MAX_FILE_BYTES:
            errors.append(FixtureError(f"file is larger than {MAX_FILE_BYTES // (1024 * 1024)} MiB; fixture files are small", file=name))
            continue
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError as exc:
            errors.append(FixtureError(f"not UTF-8 (byte {exc.start})", file=name))
            continue
        loaded, errs = load_text(text, name)
        fixtures.extend(loaded)
        errors.extend(errs)
    if check:
        errors.extend(check_fixtures(fixtures))
    return Corpus(fixtures, errors, len(files))


def check_fixtures(fixtures: list[Fixture]) -> list[FixtureError]:
    """The semantic checks across a set of fixtures (see the module docstring)."""
    from horserace.scenario import ScenarioError, check_scenario

    errors: list[FixtureError] = []
    rules = load_rules()
    first_seen: dict[str, Fixture] = {}

    def fail(fx: Fixture, message: str, rule: str | None = None) -> None:
        errors.append(FixtureError(message, file=fx.file, line=fx.line, fixture_id=fx.id, rule=rule))

    for fx in fixtures:
        if fx.id in first_seen:
            other = first_seen[fx.id]
            fail(fx, f"duplicate fixture ID (also {other.file}:{other.line}); IDs are never reused")
        else:
            first_seen[fx.id] = fx
        for rule_id in fx.rules:
            if rule_id not in rules:
                fail(fx, f"rule {rule_id} does not exist in spec/rules.md")
        for name, reading in fx.variants.items():
            if name not in VARIANT_FIELDS or reading not in VARIANT_FIELDS[name]:
                fail(fx, f"variant {name}={reading} is not a reading the register names")
        if fx.origin == "generated" and "generated" not in Path(fx.file).parts:
            fail(fx, "generated fixtures live under scenarios/generated/")
        if fx.origin == "rule-text" and "generated" in Path(fx.file).parts:
            fail(fx, "scenarios/generated/ holds only fixtures with origin: generated")
        try:
            check_scenario(fx)
        except ScenarioError as exc:
            fail(fx, exc.message, exc.rule)
    return errors


__all__ = ["Corpus", "Fixture", "FixtureError", "load_paths", "load_text", "check_fixtures"]
