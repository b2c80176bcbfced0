"""Where a fixture is, as every report, stream and page says it: a path that means the
same on every machine, never one of the machine that made the report.

- a fixture of the bundled corpus is ``scenarios/…`` (``scenarios/rule-text/layout.yaml``),
  from a clone and from a wheel (whose copy is ``horserace/_scenarios``) alike;
- a fixture file inside a git repository is relative to the repository's root (the
  nearest folder above it holding ``.git``): ``tests/horse-race/house.yaml``;
- any other is relative to the folder given on the command line (a file given: its
  folder), and failing that is its file name alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from pathlib import Path, PurePosixPath

from horserace.resources.paths import default_corpus

__all__ = ["BUNDLED_CORPUS", "fixture_location", "is_machine_path", "repository_root"]

#: The bundled corpus's name in its repository (and in every report).
BUNDLED_CORPUS = "scenarios"


def repository_root(path: Path) -> Path | None:
    """The nearest folder at or above ``path`` holding ``.git`` (a folder, or the file of
    a worktree or a submodule); ``None`` outside any repository."""
    for folder in (path, *path.parents):
        if (folder / ".git").exists():
            return folder
    return None


def _under(path: Path, folder: Path) -> str | None:
    try:
        return PurePosixPath(path.relative_to(folder)).as_posix()
    except ValueError:
        return None


def fixture_location(file: str, given: Iterable[str | Path] = ()) -> str:
    """``file`` (as the loader names it: relative to the working folder, or absolute) as
    the reports name it; ``given``: the files and folders given on the command line."""
    path = Path(file)
    try:
        resolved = (path if path.is_absolute() else Path.cwd() / path).resolve()
        bundled = default_corpus().resolve()
    except OSError:
        return path.as_posix() if not path.is_absolute() else path.name
    inside = _under(resolved, bundled)
    if inside is not None:
        return f"{BUNDLED_CORPUS}/{inside}"
    root = repository_root(resolved.parent)
    if root is not None:
        return _under(resolved, root) or path.name
    for one in given:
        base = Path(one).resolve()
        base = base if base.is_dir() else base.parent
        inside = _under(resolved, base)
        if inside is not None:
            return inside
    return path.name


def is_machine_path(text: str) -> bool:
    """Whether ``text`` is an absolute path (of this machine or another): what a report
    never carries."""
    return (
        text.startswith(("/", "\\"))
        or (len(text) > 2 and text[1] == ":" and text[2] in "/\\")
        or Path(text).is_absolute()
    )
