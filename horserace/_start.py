"""Where the ``horserace`` command starts (the console script of pyproject.toml and
``python -m horserace``): it imports the command line itself, so that a Ctrl-C while that
import runs ends the command as one later would, exit 130 and no traceback (nothing has
begun).  SIGTERM and SIGHUP meanwhile end it the same way, 143 and 129, where their default
action would kill it with no exit status at all; once a command runs, its own handling takes
over (every report of what ran is written).  It imports nothing else at its top."""

import signal
import sys

__all__ = ["main"]


def _exit(signum: int, frame: object) -> None:
    raise SystemExit(128 + signum)


def main() -> None:
    for signum in (signal.SIGTERM, signal.SIGHUP):
        if signal.getsignal(signum) is signal.SIG_DFL:  # left alone where ignored (nohup)
            signal.signal(signum, _exit)
    try:
        from horserace.cli import entry_point  # noqa: PLC0415  (the import is what is guarded)
    except KeyboardInterrupt:
        sys.exit(130)
    entry_point()
