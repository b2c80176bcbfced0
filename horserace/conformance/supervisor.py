"""The processes of one run, and what the run knows of them: a :class:`Supervisor`.

Every fact about the implementations a run started is held here once, by the object the
run owns (never in module state, so that two runs in one process, one after the other
or side by side, never share a flag):

- which implementation processes are alive (to stop them all when the run is cut short);
- the spawn lock, held while a process is started and registered and while orphans are
  looked for (a process just forked, before it runs the implementation, carries no mark
  and is in no registry yet: it would look like an orphan);
- whether the process is horserace's own (the ``horserace`` command: every child it did
  not start is an implementation's orphan) or a library's in another program;
- whether the run is stopping (no process is started again);
- whether this process is a child subreaper (orphans are re-parented to it).
"""

from __future__ import annotations

import threading
from collections.abc import Collection
from typing import Protocol

from horserace.conformance import _descendants

__all__ = ["Supervised", "Supervisor"]


class Supervised(Protocol):
    """A process the supervisor can stop: an implementation's, under its reaper or not."""

    def kill(self) -> None: ...


class Supervisor:
    """The implementation processes of one run.  ``own_process``: nothing but horserace
    starts children in this process (the ``horserace`` command), so a child it did not
    start is an implementation's orphan, and is killed once no implementation runs.
    ``subreaper``: make this process a child subreaper, so that an implementation's
    orphans are re-parented to it, and killed and reaped here (a run's default); a
    process that shares itself with other work (the pytest plugin's) may decline, and
    orphans then go to init as they did."""

    def __init__(self, *, own_process: bool = False, subreaper: bool = True) -> None:
        self.own_process = own_process
        #: Held while a process is started and registered, and while orphans are looked for.
        self.spawn_lock = threading.Lock()
        self._live: dict[Supervised, int] = {}
        self._live_lock = threading.Lock()
        self._stopping = threading.Event()
        #: Orphans are re-parented to this process (Linux 3.4 and later): they are its to reap.
        self.subreaper = _descendants.become_subreaper() if subreaper else _descendants.is_subreaper()

    @property
    def stopping(self) -> bool:
        """Whether :meth:`kill_all` was called: no process is started from then on."""
        return self._stopping.is_set()

    def add(self, child: Supervised, leader: int) -> None:
        """A process started (its leader's PID): it is killed with the others on :meth:`kill_all`."""
        with self._live_lock:
            self._live[child] = leader

    def discard(self, child: Supervised) -> None:
        with self._live_lock:
            self._live.pop(child, None)

    def live(self) -> int:
        """How many implementation processes are alive."""
        with self._live_lock:
            return len(self._live)

    def kill_all(self) -> None:
        """Kill every implementation process of this run not stopped yet, and start none
        after (an interrupted run: workers still running get crashes)."""
        self._stopping.set()
        with self._live_lock:
            children = list(self._live)
        for child in children:
            child.kill()

    def kill_marked(self, token: str, leader: int, child: Supervised) -> set[int]:
        """Kill what ``child`` (leader ``leader``, mark ``token``) left, in one scan of
        ``/proc``: its marked processes and their descendants, and, where the process
        is horserace's own and no other implementation is running, the unmarked orphans
        re-parented to this process (never while another one's helper could be taken
        for one).  ``child`` is no longer live after.  The PIDs killed, for :meth:`reap`."""
        with self.spawn_lock:
            with self._live_lock:
                self._live.pop(child, None)
                others = bool(self._live)
            sweep: Collection[int] | None = () if self.own_process and not others else None
            return _descendants.kill_marked(token, leader, orphans_except=sweep)

    def reap(self, pids: set[int]) -> None:
        """Collect the killed processes that were re-parented to this one."""
        _descendants.reap(pids, subreaper=self.subreaper)
