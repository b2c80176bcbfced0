"""Signals held back for the length of a step that must not be cut in two.

A file renamed into place, a stream closed and renamed, a report folder written: a
SIGINT, SIGTERM or SIGHUP that arrives in the middle would leave a temporary file, or a
stream the reports then cannot find by its final name.  :func:`deferred_signals` keeps
such a signal for the end of the step, and then acts on it as the process would have
(the handler in place before: Ctrl-C's KeyboardInterrupt, ``conform``'s ``Stopped``, or the
default action), or hands it to the caller.  Signals belong to the main thread: in another
thread the block does nothing.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

__all__ = ["HELD", "Held", "Stopped", "deferred_signals", "stop_for"]

#: The signals held back.
HELD = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class Stopped(BaseException):
    """SIGTERM or SIGHUP arrived: like Ctrl-C's KeyboardInterrupt, it unwinds the run so
    that the stream is finished and the reports written."""

    def __init__(self, signum: int) -> None:
        super().__init__(f"stopped by {signal.Signals(signum).name} (signal {signum})")
        self.signum = signum


def stop_for(signum: int) -> BaseException:
    """What a signal held back until now stops a run with: Ctrl-C's KeyboardInterrupt, or :class:`Stopped`."""
    return KeyboardInterrupt() if signum == signal.SIGINT else Stopped(signum)


@dataclass
class Held:
    """The first signal that arrived while held (``None``: none did)."""

    signum: int | None = None


@contextlib.contextmanager
def deferred_signals(*, reraise: bool = True) -> Iterator[Held]:
    """Hold back :data:`HELD` inside the block.  After it, the handlers are as before,
    and a signal that came is sent again to this process (so that the handler in place
    acts on it), unless ``reraise`` is false: then the caller reads it from the
    :class:`Held` it was given.  Nested blocks hand a signal outwards, the outermost acts."""
    held = Held()
    if threading.current_thread() is not threading.main_thread():
        yield held
        return

    def keep(signum: int, frame: Any) -> None:
        if held.signum is None:
            held.signum = signum

    previous: dict[int, Any] = {}
    try:
        for signum in HELD:
            handler = signal.getsignal(signum)
            if handler in (signal.SIG_IGN, None):  # ignored (started in the background): left so
                continue
            previous[signum] = signal.signal(signum, keep)
        yield held
    finally:
        for held_signum, handler in previous.items():
            signal.signal(held_signum, handler)
        if held.signum is not None and reraise:  # even after an error in the block: a stop is never lost
            signal.raise_signal(held.signum)
