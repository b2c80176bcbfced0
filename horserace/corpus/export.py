"""``horserace export --format json DIR``: the corpus, the rulesets and the schemas as
plain JSON with a version stamp, and the prose spec they are read by, for users who
never run our Python code.

The exported fixture files keep their paths under ``scenarios/`` (a file per source
file, a JSON list of fixtures, as the loader reads them), so the export loads back
through :func:`horserace.corpus.loader.load_paths` unchanged.  The spec's documents
(``rules.md``, ``glossary.md``, ``interpretations.md``, ``fixture-format.md``,
``protocol.md``) are copied as they are into ``spec/``: the manifest's ``format`` names
``spec/fixture-format.md``, and the fixtures cite the rule IDs of ``spec/rules.md``.
Every path the manifest names is in the export.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import yaml

from horserace._files import atomic_write
from horserace._version import PROTOCOL_VERSION, __version__
from horserace.corpus.loader import corpus_files
from horserace.resources.paths import default_corpus, spec_dir
from horserace.resources.rulesets import bundled
from horserace.resources.strict_yaml import StrictLoader as _StrictLoader

__all__ = ["export_json"]


def _dump(path: Path, data: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write(path, json.dumps(data, indent=2, ensure_ascii=False) + "\n")


def _copy(source: Path, target: Path) -> None:
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open(encoding="utf-8", newline="") as f:
        atomic_write(target, f.read())


def export_json(out: Path, corpus: Path | None = None) -> dict[str, Any]:
    """Write the export into ``out``; returns the manifest."""
    corpus = Path(corpus or default_corpus())
    out = Path(out)
    files = []
    count = 0
    for source in corpus_files(corpus):
        data = yaml.load(source.read_text(encoding="utf-8"), Loader=_StrictLoader)  # noqa: S506  (the strict loader: PyYAML's safe loader, refusing more)
        relative = source.relative_to(corpus).with_suffix(".json")
        _dump(out / "scenarios" / relative, data)
        files.append(str(Path("scenarios") / relative))
        count += len(data)
    rulesets = []
    for name, named in bundled().items():
        _dump(out / "rulesets" / f"{name}.json", named.to_dict())
        rulesets.append(f"rulesets/{name}.json")
    schemas = []
    for schema in sorted((spec_dir() / "schema").rglob("*.json")):
        relative = schema.relative_to(spec_dir())
        _copy(schema, out / relative)
        schemas.append(str(relative))
    documents = []
    for document in sorted(spec_dir().glob("*.md")):
        relative = Path("spec") / document.name
        _copy(document, out / relative)
        documents.append(str(relative))
    manifest = {
        "suite": __version__,
        "protocol": PROTOCOL_VERSION,
        "exported": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
        "fixtures": count,
        "files": files,
        "rulesets": rulesets,
        "schemas": schemas,
        "spec": documents,
        "format": "spec/fixture-format.md of horserace " + __version__,
    }
    _dump(out / "manifest.json", manifest)
    return manifest
