"""The parent of one implementation process, and the subreaper of everything it starts.

    python -I -S _reaper.py CONTROL_FD STATUS_FD PROGRAM [ARGS...]

Run by :mod:`horserace.conformance.process` (standard library only: it runs with ``-S``),
it becomes a child subreaper (``prctl(PR_SET_CHILD_SUBREAPER)``), starts PROGRAM with
its own standard input, output and error, and keeps none of them open itself.  A
process PROGRAM starts that detaches (``setsid``, a double fork, an empty environment)
is re-parented here when its parent exits, never to the runner: the processes of one
implementation are exactly the descendants of its reaper, whatever another
implementation of the same run does.

On STATUS_FD it writes ``started PID`` (or ``failed ERRNO``, PROGRAM could not be
started), then ``exit CODE`` when PROGRAM exits (CODE as ``Popen.returncode``: a signal
is its negated number).  When CONTROL_FD reaches its end (the runner closed it, or the
runner is gone, however it ended), every descendant is killed and reaped, and the
reaper exits.
"""

from __future__ import annotations

import ctypes
import os
import select
import signal
import sys
import time

_PR_SET_CHILD_SUBREAPER = 36


def _descendants(me: int) -> list[int]:
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()
        if len(fields) > 1:
            parents[int(name)] = int(fields[1])
    children: dict[int, list[int]] = {}
    for pid, parent in parents.items():
        children.setdefault(parent, []).append(pid)
    found: list[int] = []
    stack = [me]
    while stack:
        for child in children.get(stack.pop(), ()):
            found.append(child)
            stack.append(child)
    return found


def _reap() -> tuple[list[tuple[int, int]], bool]:
    """Collect every child that has exited: (pid, status) pairs, and whether any remain."""
    done: list[tuple[int, int]] = []
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return done, False
        if pid == 0:
            return done, True
        done.append((pid, status))


def _end_all(me: int) -> None:
    for _ in range(1000):  # a fork bomb cannot keep it here forever
        doomed = _descendants(me)
        for pid in doomed:
            try:  # noqa: SIM105  (under -S the reaper imports no contextlib: it loads no more than it needs)
                os.kill(pid, signal.SIGKILL)
            except OSError:
                pass
        _, remain = _reap()
        if not doomed and not remain:
            return
        time.sleep(0.002)


def main() -> int:
    control, status = int(sys.argv[1]), int(sys.argv[2])
    argv = sys.argv[3:]
    os.set_inheritable(control, False)
    os.set_inheritable(status, False)
    try:  # noqa: SIM105  (under -S the reaper imports no contextlib: it loads no more than it needs)
        ctypes.CDLL(None, use_errno=True).prctl(_PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0)
    except (OSError, AttributeError):
        pass
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)
    signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    errors_r, errors_w = os.pipe()  # close-on-exec: its end says the program started
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGCHLD])
    leader = os.fork()
    if leader == 0:
        try:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGCHLD])
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)
            for name in ("SIGPIPE", "SIGXFSZ"):  # as subprocess leaves them for a program it starts
                if hasattr(signal, name):
                    signal.signal(getattr(signal, name), signal.SIG_DFL)
            os.execvp(argv[0], argv)  # noqa: S606  (the reaper becomes the program it was given, as subprocess would start it)
        except OSError as exc:
            os.write(errors_w, str(exc.errno or 0).encode())
        finally:
            os._exit(127)
    os.close(errors_w)
    # The program's pipes are its own: the runner sees their end when it closes them.
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    os.close(null)
    chunks: list[bytes] = []
    while chunk := os.read(errors_r, 64):
        chunks.append(chunk)
    os.close(errors_r)

    def say(line: str) -> None:
        try:  # noqa: SIM105  (under -S the reaper imports no contextlib: it loads no more than it needs)
            os.write(status, line.encode() + b"\n")
        except OSError:
            pass

    say(f"failed {b''.join(chunks).decode()}" if chunks else f"started {leader}")
    signal.pthread_sigmask(signal.SIG_UNBLOCK, [signal.SIGCHLD])
    me = os.getpid()
    while True:
        for pid, code in _reap()[0]:
            if pid == leader:
                say(f"exit {-os.WTERMSIG(code) if os.WIFSIGNALED(code) else os.WEXITSTATUS(code)}")
        try:
            ready = select.select([control, wake_r], [], [])[0]
        except InterruptedError:
            continue
        if wake_r in ready:
            try:  # noqa: SIM105  (under -S the reaper imports no contextlib: it loads no more than it needs)
                os.read(wake_r, 4096)
            except BlockingIOError:
                pass
        if control in ready and not os.read(control, 4096):
            break
    _end_all(me)
    return 0


if __name__ == "__main__":
    sys.exit(main())
