"""A deliberately broken implementation for the runner's robustness tests.

    python fake_impl.py MODE [ARG [hello=NAME@VERSION] [WORDS...]]

It answers like the reference engine (``horserace serve``) except in the way MODE names;
the runner must survive every one of them with a clear outcome.  ``hello=NAME@VERSION``
is the name and version its hello gives (the comparison of several implementations);
other words after ARG are tags that tests find the process by.
"""

from __future__ import annotations

import json
import os
import sys
import tempfile
import time
from typing import Any

from horserace.conformance.server import answer

MODE = sys.argv[1] if len(sys.argv) > 1 else "good"
ARG = sys.argv[2] if len(sys.argv) > 2 else ""
NAME, _, VERSION = next((w[len("hello=") :] for w in sys.argv[3:] if w.startswith("hello=")), "").partition("@")
COUNT_FILE = os.environ.get("FAKE_COUNT_FILE")  # shared across restarts
PID_FILE = os.environ.get("FAKE_PID_FILE")  # where a daemon writes its PID


def bump() -> int:
    """How many run requests all incarnations have seen (for exit-midway)."""
    if not COUNT_FILE:
        return 0
    try:
        n = int(open(COUNT_FILE).read() or 0)
    except (OSError, ValueError):
        n = 0
    n += 1
    with open(COUNT_FILE, "w") as f:
        f.write(str(n))
    return n


#: The payload of the huge-* modes, made once (a request must not wait for it).
def _huge() -> bytes:
    """Made once per machine and kept in a file: in one-shot mode every request starts a
    process, and its time limit must not go on making 15 MiB."""
    make = {
        "huge-containers": lambda: b",".join([b"{}"] * ((15 * 1024 * 1024) // 3)),
        "huge-strings": lambda: json.dumps([f"{i:x}" for i in range(1_500_000)]).encode(),
        "huge-message": lambda: b'"' + b"m" * (15 * 1024 * 1024) + b'"',
    }.get(MODE)
    if make is None:
        return b""
    cache = os.path.join(tempfile.gettempdir(), f"horserace-fake-{MODE}.json")
    try:
        with open(cache, "rb") as f:
            return f.read()
    except OSError:
        data = make()
        with tempfile.NamedTemporaryFile(dir=os.path.dirname(cache), delete=False) as tmp:
            tmp.write(data)
        os.replace(tmp.name, cache)
        return data


HUGE = _huge()


def out(data: bytes) -> None:
    sys.stdout.buffer.write(data)
    sys.stdout.buffer.flush()


def _plus_one(value: object, every: bool, done: list[bool]) -> object:
    """``value`` with its first integer one more (``every``: each one; booleans kept)."""
    if isinstance(value, bool) or (done and not every):
        return value
    if isinstance(value, int):
        done.append(True)
        return value + 1
    if isinstance(value, list):
        return [_plus_one(v, every, done) for v in value]
    if isinstance(value, dict):
        return {k: _plus_one(v, every, done) for k, v in value.items()}
    return value


class Daemon:
    """The "keeps-daemon" mode: a correct implementation that starts a detached daemon
    at its hello (fork, setsid, fork, an empty environment: a build tool's daemon) and
    relies on it for every answer; a daemon gone is an error answer.  ARG is a folder
    the processes of one run share: the first process started waits, before its first
    answer, until the second has been stopped and cleaned up (``--jobs 2``); ARG ``-``:
    no folder, each process on its own; ``hang``: on its own, and it never answers a
    request (the runner is to be ended while it waits)."""

    def __init__(self) -> None:
        self.alive, holder = os.pipe()  # the daemon holds ``holder``: its end is the daemon's
        if os.fork() == 0:
            os.setsid()
            if os.fork() == 0:
                if PID_FILE:
                    with open(PID_FILE, "a") as f:
                        f.write(f"{os.getpid()}\n")
                os.set_inheritable(holder, True)
                os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)"], {})
            os._exit(0)
        os.close(holder)
        os.wait()
        self.first = self.waited = True
        if ARG in ("-", "hang"):
            return
        try:
            os.close(os.open(os.path.join(ARG, "first"), os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            self.first = True
        except FileExistsError:
            self.first = False
            with open(os.path.join(ARG, "second.pid"), "w") as f:
                f.write(str(os.getpid()))
        self.waited = not self.first

    def wait_for_second(self) -> None:
        """Until the second process has exited and been cleaned up after."""
        self.waited = True
        path = os.path.join(ARG, "second.pid")
        for _ in range(2000):
            try:
                pid = int(open(path).read() or 0)
                os.kill(pid, 0)
            except ProcessLookupError:
                time.sleep(0.5)  # its cleanup is done
                return
            except (OSError, ValueError):
                pass
            time.sleep(0.01)

    def gone(self) -> bool:
        import select

        if ARG == "hang":
            time.sleep(3600)
        if not self.waited:
            self.wait_for_second()
        return bool(select.select([self.alive], [], [], 0)[0])


def _answer(msg: dict[str, Any]) -> dict[str, Any]:
    """The reference engine's reply to ``msg`` (never a ``stop``: the loop returns on it)."""
    reply = answer(msg, every_reading=MODE in ("all-wrong", "all-numbers-wrong"))
    assert reply is not None, "only a stop has no reply"
    return reply


def main() -> None:
    daemon: Daemon | None = None
    if MODE == "stop-reading":  # never reads a byte of its input, and never exits
        time.sleep(3600)
    for raw in sys.stdin.buffer:
        msg = json.loads(raw)
        kind = msg.get("type")
        if kind == "stop":
            return
        if kind == "hello":
            if MODE == "keeps-daemon" and daemon is None:
                daemon = Daemon()
            if MODE == "hang-handshake":
                time.sleep(3600)
            reply = _answer(msg)
            if MODE == "other-protocol":
                reply["protocol"] = "2.0"
            if MODE == "deep-hello":
                out(b'{"type": "hello", "x": ' + b"[" * 100_000 + b"]" * 100_000 + b"}\n")
                continue
            if MODE == "surrogate-hello":
                reply["name"] = "fake \ud800 engine"
            if MODE == "nan-hello":
                reply["score"] = float("nan")
            if MODE == "huge-number-hello":  # 1e400: a float beyond a double, infinity to a lenient parser
                out((json.dumps(reply)[:-1] + ', "score": 1e400}\n').encode())
                continue
            if MODE == "hello-changes" and COUNT_FILE:
                # Started again (after exiting at fixture ARG), it declares fewer kinds.
                marker = COUNT_FILE + ".started"
                if os.path.exists(marker):
                    reply["kinds"] = ["settlement"]
                open(marker, "a").close()
            if MODE == "no-kinds":
                reply["kinds"] = []
            if MODE == "settlement-only":
                reply["kinds"] = ["settlement"]
            if NAME:
                reply["name"], reply["version"] = NAME, VERSION
            if MODE == "many-targets":  # 1.2 million targets, 9 MiB
                reply["targets"] = list(range(1, 1_200_001))
            if MODE == "many-hello-keys":  # 300,000 fields the protocol does not have, 4 MiB
                reply.update(dict.fromkeys((f"k{i}" for i in range(300_000)), 0))
            if MODE == "long-protocol":  # a minor version of 5,000 digits
                reply["protocol"] = "1." + "2" * 5000
            if MODE == "huge-name":  # 900 KiB of free text in the hello: taken, and cut
                reply["name"] = "fake " + "n" * (900 * 1024)
            if MODE == "huge-hello":  # 15 MiB of free text in the hello: refused before it is decoded
                reply["name"] = "fake " + "n" * (15 * 1024 * 1024)
            out((json.dumps(reply) + "\n").encode())
            if MODE == "stops-reading":
                if PID_FILE:
                    with open(PID_FILE, "a") as f:
                        f.write(f"{os.getpid()}\n")  # answers its hello, then reads no more and never exits
                time.sleep(3600)
            continue
        seq_fixture = msg["seq"].split("/")[0]
        n = bump()
        reply = _answer(msg)
        if MODE == "kills-reaper" and n == 1:  # ends its parent, then answers on as if nothing happened
            import signal

            os.kill(os.getppid(), signal.SIGKILL)
            signal.signal(signal.SIGPIPE, signal.SIG_IGN)  # its output closed: it lives on
        if daemon is not None and daemon.gone():
            reply = {"type": "error", "seq": msg["seq"], "message": "my daemon is gone"}
        if MODE == "daemon-exit" and seq_fixture == ARG:
            # A helper in the same process group keeps stdout and stderr open while the
            # leader exits, as a JVM or Node adapter's daemon does.
            if os.fork() == 0:
                time.sleep(3600)
                os._exit(0)
            os._exit(3)
        if MODE in ("setsid-exit", "setsid-clean-env") and seq_fixture == ARG:
            # A daemon that leaves the process group: fork, setsid, fork again (the
            # classic double fork), and hold stdout and stderr while the leader exits.
            # "setsid-clean-env" also starts the daemon with an empty environment.
            if os.fork() == 0:
                os.setsid()
                if os.fork() == 0:
                    if PID_FILE:
                        with open(PID_FILE, "a") as f:
                            f.write(f"{os.getpid()}\n")
                    if MODE == "setsid-clean-env":
                        os.execve(sys.executable, [sys.executable, "-c", "import time; time.sleep(3600)"], {})
                    time.sleep(3600)
                os._exit(0)
            time.sleep(0.2)  # the daemon is up
            os._exit(3)
        if MODE == "leader-exits-every" and n % int(ARG) == 0:
            # A helper that leaves the session keeps stdout and stderr open, then the
            # leader exits without answering: every ARG-th request of the run (n counts
            # across restarts, with FAKE_COUNT_FILE).
            helper = os.fork()
            if helper == 0:
                os.setsid()
                time.sleep(3600)
                os._exit(0)
            if PID_FILE:  # written by the leader, so that it is there before any kill
                with open(PID_FILE, "a") as f:
                    f.write(f"{helper}\n")
            time.sleep(0.1)  # the helper is up
            os._exit(3)
        if MODE == "skip-one" and seq_fixture == ARG:  # no answer to this request; later ones are answered
            continue
        if MODE == "hang-fixture" and seq_fixture == ARG:
            time.sleep(3600)
        if MODE == "hello-changes" and seq_fixture == ARG:
            os._exit(7)
        if MODE == "exit-midway" and n == int(ARG):
            os._exit(7)
        if MODE == "non-json" and seq_fixture == ARG:
            out(b"this is not json\n")
            continue
        if MODE == "non-utf8" and seq_fixture == ARG:
            out(b'{"type": "result", "seq": "\xff\xfe"}\n')
            continue
        hit = ARG in ("*", seq_fixture)  # "*": every fixture
        if MODE == "huge-containers" and hit:  # 15 MiB of empty objects: 370 MiB to decode
            out(b'{"type": "result", "seq": "' + msg["seq"].encode() + b'", "observations": {"x": [' + HUGE + b"]}}\n")
            continue
        if MODE == "huge-strings" and hit and reply["type"] == "result":  # 12 MiB of distinct short strings
            key = next((k for k, v in reply["observations"].items() if isinstance(v, list)), None)
            if key is not None:
                reply["observations"][key] = "@HUGE@"
                line = json.dumps(reply).encode().replace(b'"@HUGE@"', HUGE)
                out(line + b"\n")
                continue
        if MODE == "huge-message" and hit:  # 15 MiB of free text
            reply = {"type": "error", "seq": msg["seq"], "message": "@HUGE@"}
            out(json.dumps(reply).encode().replace(b'"@HUGE@"', HUGE) + b"\n")
            continue
        if MODE == "huge-line" and seq_fixture == ARG:
            out(b'{"type": "result", "seq": "' + b"x" * (17 * 1024 * 1024) + b'"}\n')
            continue
        if MODE == "deep" and seq_fixture == ARG:  # valid JSON, 100,000 levels deep
            out(
                b'{"type": "result", "seq": "'
                + msg["seq"].encode()
                + b'", "observations": {"x": '
                + b"[" * 100_000
                + b"]" * 100_000
                + b"}}\n"
            )
            continue
        if MODE == "nan" and seq_fixture == ARG and reply["type"] == "result":
            reply["observations"]["x"] = float("nan")  # json.dumps writes a bare NaN
        if MODE in ("huge-number", "long-integer") and seq_fixture == ARG and reply["type"] == "result":
            number = b"-1e400" if MODE == "huge-number" else b"9" * 5000
            out(json.dumps(reply)[:-1].encode() + b', "x": ' + number + b"}\n")
            continue
        if MODE == "many-fields" and seq_fixture == ARG:  # 40,000 fields the answer does not have
            reply.update(dict.fromkeys((f"f{i}" for i in range(40_000)), 0))
        if MODE == "control-message" and seq_fixture == ARG:  # a screen clear and a fake verdict
            sys.stderr.write("\x00\x1b[31mred\x1b[0m\n")
            sys.stderr.flush()
            reply = {"type": "error", "seq": msg["seq"], "message": "\x1b[2J\rCONFORMANT\x07\nsecond line"}
        if MODE == "surrogate-message" and seq_fixture == ARG:
            reply = {"type": "error", "seq": msg["seq"], "message": "bad \ud800 input"}
        if MODE == "surrogate-observations" and seq_fixture == ARG and reply["type"] == "result":
            reply["observations"]["x"] = "\udc00"
        if MODE == "wrong-seq" and seq_fixture == ARG:
            reply["seq"] = "not-" + reply["seq"]
        if MODE == "extra-lines" and seq_fixture == ARG:
            out((json.dumps(reply) + "\n").encode())
            out(b'{"type": "error", "seq": "unasked", "message": "extra"}\n')
            continue
        if MODE == "flood-stderr":
            sys.stderr.buffer.write(b"noise " * 200_000)
            sys.stderr.buffer.flush()
        if MODE == "close-stdout" and seq_fixture == ARG:
            os.close(1)  # sys.stdout.close() would leave file descriptor 1 open
            time.sleep(3600)
        if MODE == "error" and seq_fixture == ARG:
            reply = {"type": "error", "seq": msg["seq"], "message": "not implemented"}
        if MODE == "reject" and seq_fixture == ARG:
            reply = {"type": "rejected", "seq": msg["seq"], "at": 0, "rule": "HR-PLACE-1", "message": "no"}
        if MODE == "accept-all" and msg["kind"] == "illegal":
            reply = {"type": "result", "seq": msg["seq"], "observations": {"rejected_at": None}}
        if MODE == "wrong-rule" and msg["kind"] == "illegal" and reply["type"] == "rejected":
            reply["rule"] = "HR-SEAT-3"
        if MODE == "no-rule" and reply["type"] == "rejected":  # an engine that does not know our rule IDs
            reply = {"type": "rejected", "seq": msg["seq"], "at": reply["at"], "message": "not allowed"}
        if MODE == "refuse-last" and msg["kind"] == "illegal":  # refuses the last action, legal or not
            last = len(msg["input"]["actions"]) - 1
            reply = {"type": "rejected", "seq": msg["seq"], "at": last, "message": "you must draw first"}
        if MODE in ("all-wrong", "all-numbers-wrong"):  # every answer wrong, every illegal action accepted
            if msg["kind"] == "illegal" or reply["type"] != "result":
                reply = {"type": "result", "seq": msg["seq"], "observations": {"rejected_at": None}}
            else:  # the first number of the answer one too many (all-numbers-wrong: every number)
                reply["observations"] = _plus_one(reply["observations"], MODE == "all-numbers-wrong", [])
        if MODE == "settle-wrong" and msg["kind"] == "settlement":
            reply["observations"]["credits"] = [c + 1 for c in reply["observations"]["credits"]]
        out((json.dumps(reply) + "\n").encode())


if __name__ == "__main__":
    try:
        main()
    except (BrokenPipeError, ValueError):
        if MODE != "kills-reaper":
            raise
    if MODE == "kills-reaper":  # nor does it exit when its input ends: it has to be killed
        time.sleep(3600)
