"""Debian's Chromium driven through the DevTools protocol directly, over a pipe
(``--remote-debugging-pipe``: commands on file descriptor 3, answers and events on 4,
each a JSON message ended by NUL), so that the browser tests work offline with the
system browser and no driver to download.

    with Browser(chromium, profile) as browser:
        page = browser.open(url, width=480, height=900)
        page.evaluate("document.documentElement.scrollWidth")
        page.click("a.open-failure")            # a real mouse click, at the element's middle
        page.type("#filter-text", "HR-COUNT")   # focus, then text typed as a keyboard would
        png = page.screenshot()                 # the whole page; screenshot("#matrix"): one element
        page.errors  # console errors and uncaught exceptions of the page
"""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import signal
import subprocess
import time
from pathlib import Path
from typing import Any, Self

__all__ = ["BASE_FLAGS", "Browser", "BrowserError", "Page"]

#: Headless, offline, quiet: every Chromium the tests start.
BASE_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
FLAGS = [*BASE_FLAGS, "--hide-scrollbars", "--remote-debugging-pipe"]


class BrowserError(RuntimeError):
    pass


def _as_fds_3_and_4(commands: int, answers: int) -> None:
    """In the child: the pipe ends as fds 3 and 4 (through copies first, in case either
    already is 3 or 4)."""
    a, b = os.dup(commands), os.dup(answers)
    os.dup2(a, 3)
    os.dup2(b, 4)


class Browser:
    """One headless Chromium in its own process group, killed as a whole at the end."""

    def __init__(self, chromium: str, profile: Path, timeout: float = 60.0) -> None:
        profile.mkdir(parents=True, exist_ok=True)
        commands_r, self._commands = os.pipe()
        self._answers, answers_w = os.pipe()
        # Chromium reads commands on its fd 3 and writes on its fd 4.
        self.proc = subprocess.Popen(
            [chromium, *FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.PIPE,
            pass_fds=(3, 4),
            preexec_fn=lambda: _as_fds_3_and_4(commands_r, answers_w),
            start_new_session=True,
        )
        os.close(commands_r)
        os.close(answers_w)
        self.timeout = timeout
        self._buffer = b""
        self._next_id = 0
        self.events: list[dict[str, Any]] = []

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        with contextlib.suppress(OSError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait()
        for fd in (self._commands, self._answers):
            with contextlib.suppress(OSError):
                os.close(fd)
        if self.proc.stderr:
            self.proc.stderr.close()

    def _read_message(self, deadline: float) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise BrowserError("no answer from Chromium in time")
            ready, _, _ = select.select([self._answers], [], [], remaining)
            if ready:
                chunk = os.read(self._answers, 1 << 20)
                if not chunk:
                    raise BrowserError("Chromium closed its DevTools pipe")
                self._buffer += chunk
        raw, self._buffer = self._buffer.split(b"\0", 1)
        message: dict[str, Any] = json.loads(raw)
        return message

    def send(self, method: str, params: dict[str, Any] | None = None, session: str | None = None) -> dict[str, Any]:
        """One command; its result (events that come first are kept in :attr:`events`)."""
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params or {}}
        if session:
            message["sessionId"] = session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            answer = self._read_message(deadline)
            if answer.get("id") == self._next_id:
                if "error" in answer:
                    raise BrowserError(f"{method}: {answer['error']}")
                result: dict[str, Any] = answer.get("result", {})
                return result
            self.events.append(answer)

    def wait_for(self, method: str, session: str) -> dict[str, Any]:
        deadline = time.monotonic() + self.timeout
        for i, event in enumerate(self.events):
            if event.get("method") == method and event.get("sessionId") == session:
                return self.events.pop(i)
        while True:
            event = self._read_message(deadline)
            if event.get("method") == method and event.get("sessionId") == session:
                return event
            self.events.append(event)

    def open(self, url: str, *, width: int, height: int) -> Page:
        target = self.send("Target.createTarget", {"url": "about:blank"})["targetId"]
        session = self.send("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page.enable", "Runtime.enable", "Log.enable"):
            self.send(domain, session=session)
        self.send(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": False},
            session=session,
        )
        self.send("Page.navigate", {"url": url}, session=session)
        self.wait_for("Page.loadEventFired", session)
        return Page(self, session)


class Page:
    def __init__(self, browser: Browser, session: str) -> None:
        self.browser = browser
        self.session = session

    def evaluate(self, expression: str) -> Any:
        result = self.browser.send(
            "Runtime.evaluate", {"expression": expression, "returnByValue": True}, session=self.session
        )
        if "exceptionDetails" in result:
            raise BrowserError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def _box(self, selector: str) -> dict[str, float]:
        """The element's box in page coordinates, scrolled into view first."""
        box = self.evaluate(
            f"(() => {{ const e = document.querySelector({json.dumps(selector)}); if (!e) return null;"
            " e.scrollIntoView({block: 'center'}); const r = e.getBoundingClientRect();"
            " return {x: r.left + window.scrollX, y: r.top + window.scrollY, width: r.width, height: r.height,"
            " viewX: r.left + r.width / 2, viewY: r.top + r.height / 2}; })()"
        )
        if box is None:
            raise BrowserError(f"no element matches {selector}")
        return dict(box)

    def click(self, selector: str) -> None:
        """Click the first element that matches, with the mouse, at its middle."""
        box = self._box(selector)
        for kind in ("mouseMoved", "mousePressed", "mouseReleased"):
            self.browser.send(
                "Input.dispatchMouseEvent",
                {"type": kind, "x": box["viewX"], "y": box["viewY"], "button": "left", "clickCount": 1},
                session=self.session,
            )

    def type(self, selector: str, text: str) -> None:
        """Focus the first element that matches and type ``text`` at the end of what it
        holds (input events fire as for a keyboard)."""
        self.click(selector)
        self.evaluate(
            "(() => { const e = document.activeElement; e.setSelectionRange?.(e.value.length, e.value.length); })()"
        )
        self.browser.send("Input.insertText", {"text": text}, session=self.session)

    def screenshot(self, selector: str | None = None, *, full: bool = True) -> bytes:
        """The whole page (``full=False``: what the window shows), or only the first
        element that matches ``selector``."""
        params: dict[str, Any] = {"format": "png", "captureBeyondViewport": full}
        if selector is not None:
            box = self._box(selector)
            params["clip"] = {k: box[k] for k in ("x", "y", "width", "height")} | {"scale": 1}
        data = self.browser.send("Page.captureScreenshot", params, session=self.session)["data"]
        return base64.b64decode(data)

    @property
    def errors(self) -> list[str]:
        """Console errors and uncaught exceptions the page has produced so far."""
        self.evaluate("0")  # let pending events arrive
        out = []
        for event in self.browser.events:
            if event.get("sessionId") != self.session:
                continue
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                out.append(f"uncaught: {params.get('exceptionDetails', {}).get('text', '')}")
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                out.append(f"console.{params['type']}: {[a.get('value') for a in params.get('args', [])]}")
            elif method == "Log.entryAdded" and params.get("entry", {}).get("level") == "error":
                out.append(f"log: {params['entry'].get('text')}")
        return out
