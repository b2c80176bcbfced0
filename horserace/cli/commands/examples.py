"""``horserace examples DIR``: the example implementations of the protocol, written out."""

from __future__ import annotations

import argparse
from pathlib import Path

from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.errors import UsageError

__all__ = ["NAME", "example_files", "register", "run"]

NAME = "examples"

#: What an example is made of, as the wheel carries it (pyproject.toml, package-data of
#: ``horserace._examples``): one folder per language, its files directly inside.
_SUFFIXES = (".py", ".js", ".md", ".json")


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    p = sub.add_parser(
        NAME,
        help=HELP[NAME],
        description="Write the example implementations into DIR/python/ and DIR/javascript/: each a "
        "small engine and protocol adapter in one file, written from the spec alone, with one "
        "deliberate rule error that its README.md names (HORSERACE_EXAMPLE_CORRECT=1 switches it off). "
        "Nothing is written when a file exists already, unless --force is given.",
    )
    p.add_argument("out", metavar="DIR", help="the folder to write into (made if missing)")
    p.add_argument("--force", action="store_true", help="overwrite files that exist already")


def example_files(source: Path) -> list[Path]:
    """The files of the examples under ``source``, relative to it, in order: no caches,
    nor anything else a run may have left beside them in a checkout."""
    return sorted(
        path.relative_to(source)
        for path in source.glob("*/*")
        if path.is_file() and path.suffix in _SUFFIXES and not path.name.startswith(".")
    )


def _refuse_a_file_for_a_folder(out: Path, relative: list[Path]) -> None:
    for folder in [out, *sorted({out / r.parent for r in relative})]:
        if folder.exists() and not folder.is_dir():
            raise UsageError(f"horserace: examples {folder}: a file, not a folder")


def run(args: argparse.Namespace) -> int:
    import shlex
    import shutil

    from horserace.resources.paths import examples_dir

    source = examples_dir()
    relative = example_files(source)
    if not relative:  # a package without its examples is a defect of ours: exit 5
        raise RuntimeError(f"no examples found in {source}")
    out = Path(args.out)
    _refuse_a_file_for_a_folder(out, relative)
    existing = [out / r for r in relative if (out / r).exists() or (out / r).is_symlink()]
    if existing and not args.force:
        more = f" (and {len(existing) - 1} more)" if len(existing) > 1 else ""
        raise UsageError(
            f"horserace: examples: {existing[0]} exists already{more}; nothing was written "
            "(--force overwrites the examples' files)"
        )
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"horserace: examples {out}: cannot make it: {exc.strerror}") from None
    for r in relative:
        target = out / r
        target.parent.mkdir(exist_ok=True)
        if target.is_symlink():  # --force replaces the link, not the file it points to
            target.unlink()
        shutil.copyfile(source / r, target)
    languages = sorted({r.parts[0] for r in relative})
    print(f"wrote {len(relative)} files to {out} ({', '.join(f'{lang}/' for lang in languages)}); run them with")
    runners = {"python": ("python3", "horse_race.py"), "javascript": ("node", "horse-race.js")}
    for lang in languages:
        if lang in runners:
            interpreter, script = runners[lang]
            impl = shlex.join([interpreter, str(out / lang / script)])
            print(f"  horserace conform --impl {shlex.quote(impl)}")
    print("Each README.md says which rule the example breaks on purpose; HORSERACE_EXAMPLE_CORRECT=1 mends it.")
    return ExitCode.OK
