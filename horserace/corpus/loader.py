"""The strict fixture loader: YAML files under scenarios/ into checked :class:`Fixture`
values (spec/fixture-format.md).

Checks, in order, each reported as ``file:line:column: message``:

1. the file (:mod:`horserace.resources.strict_yaml`): a regular file within the size
   limit, checked before it is read; safe YAML through the libyaml-backed loader; no
   anchors, aliases, merge keys or explicit tags (refused from the parser's events,
   before anything is built: alias bombs never expand); no duplicate keys, keys that are
   not strings or dates; nesting measured on the parsed structure;
2. the JSON Schema (spec/schema/fixture.schema.json, draft 2020-12), validated by the
   compiled ``jsonschema_rs``; positions are recovered by a second parse only for a file
   that fails;
3. the meaning: tiles of the double-six set, each tile once across hands, boneyard and
   layout, all 28 for a ``play`` hand, deal sizes for a fresh deal, rule IDs that exist,
   fixture IDs unique across the corpus, the readings in ``variants`` named by the
   register, placements legal where the fixture says they are; for an ``illegal``
   fixture, its legal twin and (rule-text) the lint of its last action
   (:mod:`horserace.corpus.twins`).  Each error names the
   offending value's place (a :class:`~horserace.errors.ScenarioError`'s ``path``, the
   entry of ``rules:`` or ``variants:``, the ``id:``), and :func:`check_fixtures` turns it
   into ``line:column`` by parsing again only the files that have such errors.

Nothing is lost: :func:`load_paths` collects every error of every file.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import cast

import yaml

from horserace.corpus.fixture import Corpus, Fixture
from horserace.corpus.observers import Where, check_scenario
from horserace.corpus.twins import check_illegal
from horserace.engine.ruleset import VARIANT_FIELDS
from horserace.errors import FixtureError, ScenarioError
from horserace.resources.documents import load_rules
from horserace.resources.paths import default_corpus, display_path
from horserace.resources.schemas import schema_errors
from horserace.resources.strict_yaml import compose, node_position, parse_yaml, read_text


# ---------------------------------------------------------------------- loading
def load_text(text: str, file: str) -> tuple[list[Fixture], list[FixtureError]]:
    """Parse and schema-check one file; semantic checks are :func:`check_fixtures`."""
    try:
        data = parse_yaml(text, file)
    except FixtureError as exc:
        return [], [exc]
    if data is None:
        return [], [FixtureError("the file is empty; a fixture file is a list of fixtures", file=file)]
    errors = schema_errors(data, text, file)
    if errors:
        return [], errors
    lines = _fixture_lines(text, len(data))
    return [Fixture.from_document(item, file, lines[i]) for i, item in enumerate(data)], []


_ITEM_START = re.compile(r"^- ", re.MULTILINE)


def _fixture_lines(text: str, count: int) -> list[int]:
    """Line of each top-level list item (block style), without a second parse."""
    starts = [text.count("\n", 0, m.start()) + 1 for m in _ITEM_START.finditer(text)]
    if len(starts) == count:
        return starts
    # The cast: the text parsed (load_text) to a list of ``count`` fixtures, so it has a node.
    node = cast("yaml.Node", yaml.compose(text, Loader=yaml.CSafeLoader))
    return [item.start_mark.line + 1 for item in node.value]


#: Fixture files are YAML; JSON (a subset of YAML) is read too, as ``horserace export`` writes it.
SUFFIXES = (".yaml", ".yml", ".json")


def fixture_files(paths: Iterable[str | Path]) -> list[Path]:
    files: list[Path] = []
    for given in paths:
        p = Path(given)
        if p.is_dir():
            files.extend(sorted(q for q in p.rglob("*") if q.suffix in SUFFIXES and q.is_file()))
        else:
            files.append(p)
    return files


def corpus_files(root: Path) -> list[Path]:
    """The fixture files of a corpus laid out as scenarios/ is: every one under ``root``
    but those in a folder inside its ``generated/``.  Such a folder is a collection of its
    own, loaded by its path (``scenarios/generated/perft/``, the perft tables): a default
    run (conform, replay, coverage, mutants, export) does not send it, and the bundled
    corpus stays the fixtures a wheel carries (``rule-text/*.yaml``, ``generated/*.yaml``)."""
    generated = root / "generated"
    return [p for p in fixture_files([root]) if p.parent == generated or generated not in p.parents]


def load_paths(paths: Iterable[str | Path] | None = None, *, check: bool = True) -> Corpus:
    """Load every fixture file under ``paths`` (default: the bundled corpus, the files of
    :func:`corpus_files`), collecting every error; with ``check``, also run the semantic
    checks."""
    files = corpus_files(default_corpus()) if paths is None else fixture_files(paths)
    fixtures: list[Fixture] = []
    errors: list[FixtureError] = []
    by_name: dict[str, Path] = {}
    for path in files:
        name = display_path(path)
        by_name[name] = path
        try:
            text = read_text(path, name)  # a regular file, its size checked before reading
        except FixtureError as exc:
            errors.append(exc)
            continue
        loaded, errs = load_text(text, name)
        fixtures.extend(loaded)
        errors.extend(errs)
    if check:

        def text_of(name: str) -> str | None:
            try:
                return read_text(by_name[name], name) if name in by_name else None
            except FixtureError:
                return None

        errors.extend(check_fixtures(fixtures, text_of))
    return Corpus(fixtures, errors, len(files))


#: One semantic failure before it has a position: the fixture, the message, the rule and
#: the offending value's place inside the fixture (empty: the fixture as a whole).
_Failure = tuple[Fixture, str, str | None, Where]


def check_fixtures(fixtures: list[Fixture], text_of: Callable[[str], str | None] | None = None) -> list[FixtureError]:
    """The semantic checks across a set of fixtures (see the module docstring).

    ``text_of`` gives the text of a fixture file by its name; with it, each error points
    at the line and column of the offending value (only files that have errors are parsed
    again), without it at the fixture's first line."""
    failures: list[_Failure] = []
    rules = load_rules()
    first_seen: dict[str, Fixture] = {}
    for fx in fixtures:
        if fx.id in first_seen:
            other = first_seen[fx.id]
            failures.append(
                (fx, f"duplicate fixture ID (also {other.file}:{other.line}); IDs are never reused", None, ("id",))
            )
        else:
            first_seen[fx.id] = fx
        for k, rule_id in enumerate(fx.rules):
            if rule_id not in rules:
                failures.append((fx, f"rule {rule_id} does not exist in spec/rules.md", None, ("rules", k)))
        readable = True  # a reading the register does not name has no ruleset to observe under
        for name, reading in fx.variants.items():
            if name not in VARIANT_FIELDS or reading not in VARIANT_FIELDS[name]:
                readable = False
                failures.append(
                    (fx, f"variant {name}={reading} is not a reading the register names", None, ("variants", name))
                )
        if fx.origin == "generated" and "generated" not in Path(fx.file).parts:
            failures.append((fx, "generated fixtures live under scenarios/generated/", None, ("origin",)))
        if fx.origin == "rule-text" and "generated" in Path(fx.file).parts:
            failures.append((fx, "scenarios/generated/ holds only fixtures with origin: generated", None, ("origin",)))
        if not readable:
            continue
        try:
            check_scenario(fx)
            if fx.kind == "illegal":
                check_illegal(fx)
        except ScenarioError as exc:
            failures.append((fx, exc.message, exc.rule, exc.path))
    return _placed(failures, text_of)


def _placed(failures: list[_Failure], text_of: Callable[[str], str | None] | None) -> list[FixtureError]:
    """The failures as errors at ``line:column`` of their values: each file that has one is
    parsed again (once), and its fixtures found by their first line."""
    items: dict[str, dict[int, yaml.Node]] = {}
    errors = []
    for fx, message, rule, where in failures:
        line, column = fx.line, None
        if where and text_of is not None:
            if fx.file not in items:
                text = text_of(fx.file)
                root = compose(text) if text is not None else None
                items[fx.file] = (
                    {item.start_mark.line + 1: item for item in root.value}
                    if isinstance(root, yaml.SequenceNode)
                    else {}
                )
            item = items[fx.file].get(fx.line)
            if item is not None:
                found_line, found_column = node_position(item, where)
                if found_line is not None:
                    line, column = found_line, found_column
        errors.append(FixtureError(message, file=fx.file, line=line, column=column, fixture_id=fx.id, rule=rule))
    return errors


__all__ = ["SUFFIXES", "check_fixtures", "corpus_files", "fixture_files", "load_paths", "load_text"]
