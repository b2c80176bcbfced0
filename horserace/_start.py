"""Where the ``horserace`` command starts (the console script of pyproject.toml and
``python -m horserace``): it imports the command line itself, so that a Ctrl-C while that
import runs ends the command as one later would, exit 130 and no traceback (nothing has
begun).  It imports nothing else at its top."""

import sys

__all__ = ["main"]


def main() -> None:
    try:
        from horserace.cli import entry_point  # noqa: PLC0415  (the import is what is guarded)
    except KeyboardInterrupt:
        sys.exit(130)
    entry_point()
