"""Where the bundled documents are: spec/, scenarios/ and examples/ of the source
checkout, else the copies an installed wheel carries (``horserace/_spec``,
``horserace/_scenarios`` and ``horserace/_examples``, found through
:mod:`importlib.resources`)."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = [
    "default_corpus",
    "display_path",
    "examples_dir",
    "installed_package",
    "perft_tables",
    "perft_tables_dir",
    "rulesets_dir",
    "source_root",
    "spec_dir",
]


def source_root() -> Path:
    """The folder holding the package: the root of a source checkout, where spec/ and
    scenarios/ sit beside ``horserace/``."""
    return Path(__file__).resolve().parents[2]


def installed_package() -> Path:
    """The installed ``horserace`` package's folder, as importlib.resources finds it; a
    wheel carries spec/ and scenarios/ there as ``_spec/`` and ``_scenarios/``."""
    from importlib import resources  # noqa: PLC0415  (start-up: 10-30 ms that a checkout never needs)

    return Path(str(resources.files("horserace")))


def _bundled(name: str) -> Path:
    return installed_package() / name


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


def examples_dir() -> Path:
    """The example implementations (``python/``, ``javascript/``): examples/ of the source
    checkout, else the copy an installed wheel carries (``horserace/_examples``)."""
    checkout = source_root() / "examples"
    return checkout if (checkout / "python" / "horse_race.py").is_file() else _bundled("_examples")


def perft_tables_dir() -> Path:
    """The perft tables (``scenarios/generated/perft/``, written by
    ``tools/perft_tables.py``): in the checkout, else in the installed wheel
    (``horserace/_scenarios/generated/perft``)."""
    return default_corpus() / "generated" / "perft"


def perft_tables() -> dict[str, Path]:
    """Each perft table by name (its file's stem: ``seed-1-players-3``), in name order."""
    folder = perft_tables_dir()
    return {p.stem: p for p in sorted(folder.glob("*.yaml"))} if folder.is_dir() else {}


def rulesets_dir() -> Path:
    return spec_dir() / "rulesets"


def display_path(path: Path) -> str:
    """A path as error messages show it: relative to the working folder where it can be."""
    try:
        return str(path.resolve().relative_to(Path.cwd()))
    except ValueError:
        return str(path)
