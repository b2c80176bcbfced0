"""The implementation under test as a child process, never trusted.

Every way it can misbehave ends in :class:`ImplementationFailure` with an outcome (``crash`` or
``timeout``) and a plain message: it hangs, exits, closes its output, writes a line that
is not UTF-8 or not JSON or longer than the protocol allows, floods standard error (only
a bounded tail is kept).  On Linux each process runs under a reaper of its own
(:mod:`horserace.conformance._reaper`), so that everything it starts, however it
detaches, is ended with it and with nothing else; a process is also killed with every
process that carries its mark (:mod:`horserace.conformance._descendants`), and elsewhere
with its whole process group.
"""

from __future__ import annotations

import contextlib
import enum
import io
import os
import select
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from pathlib import Path
from typing import IO, Any, Final

from horserace.conformance import _descendants
from horserace.conformance.messages import StopRequest
from horserace.conformance.protocol import MAX_LINE_BYTES, AnswerDecodeError, decode, encode
from horserace.conformance.supervisor import Supervisor
from horserace.errors import ImplementationFailure

__all__ = ["Implementation", "Supervisor"]

STDERR_TAIL_BYTES = 4096


class _Signal(enum.Enum):
    """What a read of the implementation's output gives instead of a line."""

    EOF = enum.auto()
    TOO_LONG = enum.auto()
    #: The leader exited and no answer line is in its output: a process it started may
    #: hold the pipe open, but the implementation is gone.
    LEADER_EXITED = enum.auto()


_EOF: Final = _Signal.EOF
_TOO_LONG: Final = _Signal.TOO_LONG
_LEADER_EXITED: Final = _Signal.LEADER_EXITED
#: Without a pidfd (not Linux 5.3+), how often a wait for output looks at the leader.
_POLL_SECONDS = 0.1
#: The program that runs each implementation under a reaper of its own.
_REAPER = str(Path(__file__).absolute().with_name("_reaper.py"))
#: How long the reaper may take to start the implementation (an interpreter's start).
_REAPER_START_SECONDS = 30.0


class _Child:
    """One running process with reader threads for its stdout lines and stderr tail."""

    def __init__(self, argv: Sequence[str], supervisor: Supervisor, cwd: str | None = None) -> None:
        if supervisor.stopping:
            raise ImplementationFailure("crash", "the run was interrupted")
        self._supervisor = supervisor
        self._token = _descendants.new_token()
        with supervisor.spawn_lock:
            self._start(argv, cwd)

    def _start(self, argv: Sequence[str], cwd: str | None) -> None:
        env = {**os.environ, _descendants.MARK: self._token}
        #: Where there is a /proc, the implementation runs under a reaper of its own
        #: (:mod:`horserace.conformance._reaper`): its detached helpers stay its reaper's
        #: descendants, and are ended with it and only with it.
        self._control: int | None = None
        self._status: int | None = None
        self._exit_code: int | None = None
        command = list(argv)
        pass_fds: tuple[int, ...] = ()
        if _descendants.has_proc() and Path(_REAPER).is_file():  # not from a zip archive
            control_r, self._control = os.pipe()
            self._status, status_w = os.pipe()
            command = [sys.executable, "-I", "-S", _REAPER, str(control_r), str(status_w), *argv]
            pass_fds = (control_r, status_w)
        try:
            try:
                self.proc = subprocess.Popen(  # noqa: S603  (the implementation's command, given by the user, run without a shell)
                    command,
                    stdin=subprocess.PIPE,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.PIPE,
                    cwd=cwd,
                    env=env,
                    start_new_session=True,
                    pass_fds=pass_fds,
                )
            finally:
                for fd in pass_fds:
                    os.close(fd)
        except OSError as exc:
            self._close_reaper_pipes()
            raise ImplementationFailure("crash", f"cannot start {' '.join(argv)!r}: {exc.strerror or exc}") from None
        self.leader = self.proc.pid
        if self._status is not None:
            said = self._status_line(_REAPER_START_SECONDS)
            word, _, value = (said or "").partition(" ")
            if word != "started":
                self._end_reaper()
                self._close_reaper_pipes()
                for pipe in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
                    if pipe is not None:
                        pipe.close()
                why = os.strerror(int(value)) if word == "failed" and value.isdigit() else "its reaper did not start"
                raise ImplementationFailure("crash", f"cannot start {' '.join(argv)!r}: {why}")
            self.leader = int(value)
        # All three are pipes (PIPE above), so none is None; stderr is buffered (read1).
        stdin, stdout, stderr = self.proc.stdin, self.proc.stdout, self.proc.stderr
        assert stdin is not None
        assert stdout is not None
        assert isinstance(stderr, io.BufferedReader)
        self._stdin: IO[bytes] = stdin
        self._stdin_fd = stdin.fileno()
        os.set_blocking(self._stdin_fd, False)  # writes are bounded in time: see send()
        self._stdout: IO[bytes] = stdout
        self._stderr: io.BufferedReader = stderr
        self._fd = self._stdout.fileno()
        self._buffer = bytearray()
        self._scanned = 0  # no newline in _buffer before this offset
        self._eof = False
        #: The length of the last answer line received.
        self.answer_bytes = 0
        self._tail = bytearray()
        self._tail_lock = threading.Lock()
        # The leader's exit is seen at once, whatever its descendants keep open: its
        # reaper says so on the status pipe, or (no reaper) the leader is this process's
        # child and a pidfd becomes readable.
        self._pidfd: int | None = None
        if self._status is None:
            try:
                self._pidfd = os.pidfd_open(self.proc.pid)
            except (AttributeError, OSError):
                self._pidfd = None
        self._exit_fd = self._status if self._status is not None else self._pidfd
        threading.Thread(target=self._read_stderr, daemon=True).start()
        self._supervisor.add(self, self.proc.pid)

    def _leader_exited(self, readable: list[int]) -> bool:
        if self._exit_fd is not None:
            return self._exit_fd in readable
        return self.proc.poll() is not None

    def _next_line(self, timeout: float | None) -> bytes | _Signal | None:
        """The next line of stdout, read directly with select (no thread hop on the hot
        path): bytes, or _EOF, or _TOO_LONG, or _LEADER_EXITED when the leader has exited
        and what it wrote holds no further line; ``None`` when ``timeout`` runs out first."""
        deadline = None if timeout is None else time.monotonic() + timeout
        watch = [self._fd] if self._exit_fd is None else [self._fd, self._exit_fd]
        while True:
            found = self._buffered_line()
            if found is not None:
                return found
            remaining = None if deadline is None else deadline - time.monotonic()
            if remaining is not None and remaining <= 0:
                return None
            wait = remaining if self._exit_fd is not None else min(_POLL_SECONDS, remaining or _POLL_SECONDS)
            ready, _, _ = select.select(watch, [], [], wait)
            if self._fd in ready:
                self._take_output()
            elif self._leader_exited(ready):
                # What it wrote before it exited is in the pipe already: take it all, and
                # only if no line is complete is its exit the answer.
                while select.select([self._fd], [], [], 0)[0] and not self._eof:
                    self._take_output()
                if self._buffer.find(b"\n", self._scanned) < 0 and not self._eof:
                    return _LEADER_EXITED
            elif self._exit_fd is not None and not ready:
                return None

    def _buffered_line(self) -> bytes | _Signal | None:
        """A line already in the buffer (bytes, or _TOO_LONG), _TOO_LONG for a buffer over
        the limit with no line, _EOF after the end of the output; ``None``: read more."""
        # Only the bytes not yet searched: a long line comes in pipe-sized chunks, and
        # searching the whole buffer each time would cost its square.
        end = self._buffer.find(b"\n", self._scanned)
        if end >= 0:
            self._scanned = 0
            if end + 1 > MAX_LINE_BYTES:
                del self._buffer[: end + 1]
                return _TOO_LONG
            line = bytes(self._buffer[: end + 1])
            del self._buffer[: end + 1]
            return line
        self._scanned = len(self._buffer)
        if len(self._buffer) > MAX_LINE_BYTES:
            return _TOO_LONG
        if self._eof:
            return _EOF
        return None

    def _take_output(self) -> None:
        """Read what stdout holds (it is readable) into the buffer, or note its end."""
        try:
            chunk = os.read(self._fd, 1 << 20)
        except OSError:
            chunk = b""
        if not chunk:
            self._eof = True
        else:
            self._buffer += chunk

    def _read_stderr(self) -> None:
        err = self._stderr
        try:
            while True:
                chunk = err.read1(65536)
                if not chunk:
                    break
                with self._tail_lock:
                    self._tail += chunk
                    if len(self._tail) > STDERR_TAIL_BYTES:
                        del self._tail[: len(self._tail) - STDERR_TAIL_BYTES]
        except (OSError, ValueError):
            pass
        # The reader closes its own pipe: closing it from kill() would block while read1 waits.
        with contextlib.suppress(OSError):
            err.close()

    def stderr_tail(self) -> str:
        with self._tail_lock:
            return bytes(self._tail).decode("utf-8", "replace").strip()

    def send(self, message: dict[str, Any], timeout: float) -> None:
        """Write one message within ``timeout`` seconds: the pipe is non-blocking, so an
        implementation that stops reading its input costs a timeout, never a hang."""
        data = memoryview(encode(message))
        total = len(data)
        deadline = time.monotonic() + timeout
        fd = self._stdin_fd
        try:  # the usual case: the pipe has room, one write and done
            data = data[os.write(fd, data) :]
        except BlockingIOError:
            pass
        except (OSError, ValueError):
            raise self._closed_input() from None
        while data:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise ImplementationFailure(
                    "timeout",
                    f"the implementation stopped reading its input ({len(data):,} of {total:,} bytes "
                    f"of a request unwritten after {timeout:g} s)",
                    self.stderr_tail(),
                )
            # While the request waits for room, take in the answers already written: an
            # implementation blocked on a full output pipe reads no more input, and
            # requests sent ahead (large ones: whole matches) would wait for it forever.
            # At most about one answer line is held beyond those already complete.
            draining = not self._eof and len(self._buffer) <= MAX_LINE_BYTES
            try:
                readable, writable, _ = select.select([self._fd] if draining else [], [fd], [], remaining)
                if readable:
                    self._take_output()
                if not writable:
                    continue
                data = data[os.write(fd, data) :]
            except BlockingIOError:
                continue
            except (OSError, ValueError):
                raise self._closed_input() from None

    def _closed_input(self) -> ImplementationFailure:
        return ImplementationFailure(
            "crash", f"the implementation closed its input{self._exit_note()}", self.stderr_tail()
        )

    def close_input(self) -> None:
        with contextlib.suppress(OSError):
            self._stdin.close()

    def unasked(self) -> str | None:
        """A line written without a request (written since the last answer), if any."""
        item = self._next_line(0)
        if isinstance(item, bytes):
            text = item.decode("utf-8", "replace").strip()
            return text if len(text) <= 120 else text[:117] + "..."
        return None  # nothing, or the end of output or an over-long line: receive reports those

    def receive(self, timeout: float, max_bytes: int = MAX_LINE_BYTES) -> dict[str, Any]:
        """The next answer; a line over ``max_bytes`` is refused before it is decoded."""
        item = self._next_line(timeout)
        if item is None:
            raise ImplementationFailure("timeout", f"no answer within {timeout:g} s", self.stderr_tail())
        self.answer_bytes = len(item) if isinstance(item, bytes) else 0
        if item is _EOF:
            raise ImplementationFailure(
                "crash", f"the implementation closed its output{self._exit_note()}", self.stderr_tail()
            )
        if item is _TOO_LONG:
            raise ImplementationFailure(
                "crash", f"answer line longer than {MAX_LINE_BYTES // (1024 * 1024)} MiB", self.stderr_tail()
            )
        if item is _LEADER_EXITED:
            raise ImplementationFailure(
                "crash",
                f"the implementation exited without answering{self._exit_note()}; a process it started "
                "still holds its output open",
                self.stderr_tail(),
            )
        if len(item) > max_bytes:
            raise ImplementationFailure(
                "crash",
                f"answer line of {len(item):,} bytes (at most {max_bytes:,} for this message)",
                self.stderr_tail(),
            )
        try:
            return decode(item)
        except AnswerDecodeError as exc:
            raise ImplementationFailure("crash", f"answer is {exc}", self.stderr_tail()) from None

    def _status_line(self, timeout: float) -> str | None:
        """The next line the reaper writes on the status pipe, within ``timeout`` seconds
        (``None``: none came, or the pipe has ended)."""
        fd = self._status
        if fd is None or not select.select([fd], [], [], timeout)[0]:
            return None
        line = b""
        while not line.endswith(b"\n") and len(line) < 64:
            try:
                byte = os.read(fd, 1)
            except OSError:
                return None
            if not byte:
                return None
            line += byte
        return line.decode("ascii", "replace").strip()

    def _wait_leader(self, timeout: float) -> int | None:
        """The leader's exit status once it has exited, waiting at most ``timeout`` seconds."""
        if self._status is None:
            try:
                return self.proc.wait(timeout=timeout)
            except subprocess.TimeoutExpired:
                return None
        if self._exit_code is None:
            said = self._status_line(timeout)
            if said is not None and said.startswith("exit "):
                self._exit_code = int(said[5:])
        return self._exit_code

    def _exit_note(self) -> str:
        code = self._wait_leader(0.2)
        return "" if code is None else f" (exit status {code})"

    def _end_reaper(self) -> None:
        """Close the reaper's control pipe: it ends every process of this implementation
        and exits; killed with its group if it does not within seconds."""
        if self._control is not None:
            with contextlib.suppress(OSError):
                os.close(self._control)
            self._control = None
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except OSError:
                self.proc.kill()
            self.proc.wait()

    def _close_reaper_pipes(self) -> None:
        for fd in (self._control, self._status):
            if fd is not None:
                with contextlib.suppress(OSError):
                    os.close(fd)
        self._control = self._status = None

    def kill(self) -> None:
        pid = self.leader
        supervisor = self._supervisor
        if self._status is not None:
            # Under its reaper every process of this implementation is a descendant of
            # the reaper, detached or not: the reaper ends them all, and nothing else.
            self._end_reaper()
            self._close_reaper_pipes()
            if self.proc.returncode != 0:
                # The reaper was killed (by the implementation itself, say): what it held
                # was re-parented to the runner.  Its process group, and every marked
                # process, the leader too (which is then no child of the reaper's).
                with contextlib.suppress(OSError):
                    os.killpg(self.proc.pid, signal.SIGKILL)
                pid = -1
            # A marked process that escaped anyway (it ended its reaper), and the orphans
            # no implementation claims: one scan of /proc.
            doomed = supervisor.kill_marked(self._token, pid, self)
        else:
            # Its descendants first, found while the leader still links them; then the
            # whole process group, even when the leader has exited: a helper it started (a
            # daemon of a JVM or Node adapter) may still hold the pipes; then what was
            # orphaned meanwhile (re-parented to the runner, or found by its mark).
            with supervisor.spawn_lock:
                doomed = _descendants.kill_marked(self._token, pid)
            try:
                os.killpg(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                if self.proc.poll() is None:
                    self.proc.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=5)
            doomed |= supervisor.kill_marked(self._token, pid, self)
        # (An orphan re-parented to the runner that carries no mark is no implementation's
        # in particular: the supervisor ends it only once no implementation is running,
        # so that the helper of another one is never taken for it.)
        supervisor.reap(doomed)
        if self._pidfd is not None:
            with contextlib.suppress(OSError):
                os.close(self._pidfd)
            self._pidfd = None
        for stream in (self._stdin, self._stdout):  # stderr: its reader closes it (see _read_stderr)
            with contextlib.suppress(OSError):
                stream.close()

    def finish(self, grace: float = 2.0) -> None:
        """Let it exit on its own for ``grace`` seconds, then kill it."""
        self._wait_leader(grace)
        self.kill()


class Implementation:
    """Talks to the implementation in persistent or one-shot mode."""

    def __init__(
        self,
        argv: Sequence[str],
        *,
        one_shot: bool = False,
        cwd: str | None = None,
        supervisor: Supervisor | None = None,
    ) -> None:
        self.argv = list(argv)
        #: The run's processes (a supervisor of its own if none is given, which leaves
        #: this process as it is: no subreaper made of it).
        self.supervisor = supervisor if supervisor is not None else Supervisor(subreaper=False)
        self.one_shot = one_shot
        self.cwd = cwd
        self._child: _Child | None = None
        #: A request that could not be written (persistent mode): the next receive reports it.
        self._unsent: ImplementationFailure | None = None
        #: The length in bytes of the last answer line received (see conformance.bounds).
        self.answer_bytes = 0

    def exchange(self, message: dict[str, Any], timeout: float, max_bytes: int = MAX_LINE_BYTES) -> dict[str, Any]:
        """Send one message, return its answer (a line of at most ``max_bytes``); on any
        failure the process is killed."""
        if self.one_shot:
            child = _Child(self.argv, self.supervisor, self.cwd)
            try:
                child.send(message, timeout)
                child.close_input()
                answer = child.receive(timeout, max_bytes)
                self.answer_bytes = child.answer_bytes
                return answer
            finally:
                child.finish(grace=min(1.0, timeout))
        if self._child is None:
            self._child = _Child(self.argv, self.supervisor, self.cwd)
        try:
            self._child.send(message, timeout)
            answer = self._child.receive(timeout, max_bytes)
            self.answer_bytes = self._child.answer_bytes
        except ImplementationFailure:
            self.kill()
            raise
        return answer

    # Persistent mode, pipelined: requests may be sent ahead of their answers.
    def send(self, message: dict[str, Any], timeout: float) -> None:
        """Send a request without waiting for its answer (persistent mode); the process is
        started if needed.  A process that died, or stopped reading for ``timeout``
        seconds, is noticed by the next :meth:`receive`."""
        if self._child is None:
            self._child = _Child(self.argv, self.supervisor, self.cwd)
        if self._unsent is not None:
            return  # the stream is broken mid-request: nothing more goes to this process
        try:
            self._child.send(message, timeout)
        except ImplementationFailure as exc:
            self._unsent = exc

    def receive(self, timeout: float) -> dict[str, Any]:
        """The next answer (persistent mode); on any failure the process is killed."""
        if self._child is None:
            raise ImplementationFailure("crash", "the implementation is not running")
        if self._unsent is not None and self._unsent.outcome == "timeout":
            unsent = self._unsent
            self.kill()
            raise unsent
        try:  # a closed input: the answers written before it still count, then its exit does
            answer = self._child.receive(timeout)
            self.answer_bytes = self._child.answer_bytes
        except ImplementationFailure:
            self.kill()
            raise
        return answer

    def unasked(self) -> str | None:
        """A line the implementation wrote without a request, with nothing outstanding."""
        return None if self._child is None else self._child.unasked()

    def stop(self) -> None:
        if self._child is not None:
            try:
                self._child.send(StopRequest().to_json(), timeout=1.0)
                self._child.close_input()
            except ImplementationFailure:
                pass
            self._child.finish()
            self._child = None

    def kill(self) -> None:
        if self._child is not None:
            self._child.kill()
            self._child = None
        self._unsent = None
