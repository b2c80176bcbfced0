"""Where the bundled documents are: spec/ and scenarios/ of the source checkout, else
the copies an installed wheel carries (``horserace/_spec`` and ``horserace/_scenarios``,
found through :mod:`importlib.resources`)."""

from __future__ import annotations

import os
from importlib import resources
from pathlib import Path

__all__ = ["default_corpus", "display_path", "rulesets_dir", "source_root", "spec_dir"]

#: The ``horserace`` package's folder, as importlib.resources finds it: beside spec/ and
#: scenarios/ in a source checkout, holding _spec/ and _scenarios/ when installed.
_PACKAGE = Path(str(resources.files("horserace")))


def source_root() -> Path:
    """The folder holding the package: the root of a source checkout."""
    return _PACKAGE.parent


def _bundled(name: str) -> Path:
    return _PACKAGE / name


def spec_dir() -> Path:
    """The spec/ folder: ``$HORSERACE_SPEC``, else the one of the source checkout beside
    the package, else the copy an installed wheel carries (``horserace/_spec``)."""
    env = os.environ.get("HORSERACE_SPEC")
    if env:
        return Path(env)
    checkout = source_root() / "spec"
    return checkout if (checkout / "rules.md").is_file() else _bundled("_spec")


def default_corpus() -> Path:
    """The bundled corpus: scenarios/ of the source checkout, else the copy an installed
    wheel carries (``horserace/_scenarios``)."""
    checkout = source_root() / "scenarios"
    return checkout if (checkout / "rule-text").is_dir() else _bundled("_scenarios")


def rulesets_dir() -> Path:
    return spec_dir() / "rulesets"


def display_path(path: Path) -> str:
    """A path as error messages show it: relative to the working folder where it can be."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
