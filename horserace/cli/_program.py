"""Whether horserace is the program or a library in another program's process."""

from __future__ import annotations

__all__ = ["owns_process", "set_owns_process"]

_OWNS_PROCESS = False


def set_owns_process() -> None:
    """Called by the ``horserace`` command: every child process this process has is one
    that horserace started (see ``conform``: an unknown child is an implementation's orphan)."""
    global _OWNS_PROCESS
    _OWNS_PROCESS = True


def owns_process() -> bool:
    """Whether horserace runs as its own program (the ``horserace`` command)."""
    return _OWNS_PROCESS
