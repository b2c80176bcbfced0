"""Finding every process an implementation started, including those that left its
process group, so that none outlives the runner.

Killing the process group catches most helpers (a JVM, Gradle or Node daemon), but a
helper that calls ``setsid()`` has a group of its own and, once the leader has exited,
a parent that is no longer the implementation.  Two mechanisms find it:

- every implementation is started with a **mark** in its environment
  (``HORSERACE_IMPLEMENTATION=<token>``), which every descendant inherits unless it
  builds a fresh environment; ``/proc/PID/environ`` shows the environment a process
  started with, so a scan of ``/proc`` finds the marked processes wherever they went;
- the runner becomes a **child subreaper** (``prctl(PR_SET_CHILD_SUBREAPER)``, Linux
  3.4 and later): an orphaned descendant is re-parented to the runner instead of init,
  so the descendants of a living leader and the orphans of a dead one are both found by
  walking parent links in ``/proc``, even without the mark; and where the runner owns
  its process (the command line), a child of the runner that it did not start itself is
  such an orphan.

Both read ``/proc``; where there is none (not Linux) only the process group is killed.

Where there is a ``/proc``, each implementation also runs under a reaper of its own
(:mod:`horserace.conformance._reaper`), which holds every process it starts, marked or
not: the runner's own orphans (an unmarked child it did not start) are then only those
of a reaper that was itself killed, and are swept only once no implementation is
running, never while another one's daemon could be taken for them.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import secrets
import signal
import sys
import time
from collections.abc import Collection, Iterable

__all__ = ["MARK", "become_subreaper", "has_proc", "is_subreaper", "kill_marked", "new_token", "reap"]

#: The environment variable that marks an implementation's processes.
MARK = "HORSERACE_IMPLEMENTATION"
_MARK_PREFIX = f"{MARK}=".encode()
_PR_SET_CHILD_SUBREAPER = 36
_PR_GET_CHILD_SUBREAPER = 37
_PROC = "/proc"


def become_subreaper() -> bool:
    """Make this process a child subreaper (asking again changes nothing); whether it is
    one.  The answer is the run's to keep (:class:`~horserace.conformance.supervisor.Supervisor`)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return bool(libc.prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) == 0)
    except (OSError, AttributeError):
        return False


def is_subreaper() -> bool:
    """Whether this process is a child subreaper already (an earlier run made it one)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        flag = ctypes.c_int(0)
        return bool(libc.prctl(_PR_GET_CHILD_SUBREAPER, ctypes.byref(flag), 0, 0, 0) == 0 and flag.value)
    except (OSError, AttributeError):
        return False


def has_proc() -> bool:
    """Whether processes can be followed through ``/proc`` (Linux): then each
    implementation runs under a reaper of its own (:mod:`horserace.conformance._reaper`)."""
    return sys.platform.startswith("linux") and os.path.isdir(f"{_PROC}/self")


def new_token() -> str:
    """A mark for one implementation process and everything it starts."""
    return f"{os.getpid()}-{secrets.token_hex(8)}"


def _pids() -> list[int]:
    """Every process, from one scan of ``/proc``."""
    try:
        return [int(name) for name in os.listdir(_PROC) if name.isdigit()]
    except OSError:
        return []


def _parent(pid: int) -> int | None:
    try:
        with open(f"{_PROC}/{pid}/stat", "rb") as f:
            stat = f.read()
    except OSError:
        return None
    # "pid (comm) state ppid ...": comm may hold spaces and parentheses, so split after the last ")".
    fields = stat[stat.rfind(b")") + 2 :].split()
    return int(fields[1]) if len(fields) > 1 else None


def _mark_of(pid: int) -> bytes | None:
    """The mark in the environment ``pid`` started with (``b""``: none), or ``None``
    when it cannot be read (gone, or another user's)."""
    try:
        with open(f"{_PROC}/{pid}/environ", "rb") as f:
            environ = f.read()
    except OSError:
        return None
    prefix = _MARK_PREFIX
    for entry in environ.split(b"\0"):
        if entry.startswith(prefix):
            return entry[len(prefix) :]
    return b""


def _descendants(roots: Iterable[int], parents: dict[int, int]) -> set[int]:
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: set[int] = set()
    stack = list(roots)
    while stack:
        for child in children.get(stack.pop(), ()):
            if child not in found:
                found.add(child)
                stack.append(child)
    return found


def kill_marked(token: str, leader: int, *, orphans_except: Collection[int] | None = None) -> set[int]:
    """SIGKILL every process that carries ``token`` in its environment, and every
    descendant of ``leader`` or of those (the leader itself is left to its caller):
    the processes an implementation started, wherever they went.  With
    ``orphans_except`` (the runner owns its process: the command line), every unmarked
    child of this process but those PIDs is killed too, with its descendants: an orphan
    that was re-parented here and had cleared its environment.  Returns the PIDs, for :func:`reap`."""
    mine = token.encode()
    me = os.getpid()
    parents = {pid: parent for pid in _pids() if pid != me and (parent := _parent(pid)) is not None}
    marks = {pid: _mark_of(pid) for pid in parents}
    roots = {pid for pid, mark in marks.items() if mark == mine}
    if orphans_except is not None:  # unmarked: a marked one belongs to its own implementation's kill
        roots |= {
            pid for pid, parent in parents.items() if parent == me and pid not in orphans_except and not marks[pid]
        }
    doomed = (roots | _descendants([leader, *roots], parents)) - {leader, me}
    for pid in doomed:
        with contextlib.suppress(OSError):
            os.kill(pid, signal.SIGKILL)
    return doomed


def reap(pids: Iterable[int], timeout: float = 0.5, *, subreaper: bool) -> None:
    """Collect the exit status of killed processes that were re-parented to this one
    (``subreaper``: it is a child subreaper), so that no zombie is left; a process that
    has another parent is that parent's to collect, and is skipped."""
    me = os.getpid()
    deadline = time.monotonic() + timeout
    for pid in pids:
        while True:
            try:
                if os.waitpid(pid, os.WNOHANG)[0] == pid:
                    break
            except ChildProcessError:
                parent = _parent(pid)
                if parent is None or not subreaper:
                    break  # gone, or nothing is re-parented here
                if parent not in (me, 1) and time.monotonic() < deadline:
                    time.sleep(0.005)  # its parent is dying: it will be ours in a moment
                    continue
                break
            except OSError:
                break
            if time.monotonic() >= deadline:
                break
            time.sleep(0.005)
