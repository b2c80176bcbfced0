"""Colour in the terminal for outcomes: a passing fixture green, a failing one (every
outcome that fails) red, a skipped one dim, an expected failure yellow; a verdict in the
colour of its tone.

Whether to colour is decided once per command line (``--color auto|always|never``,
:func:`choose`): ``always`` colours, ``never`` does not, and ``auto`` (the default)
colours only when standard output is a terminal and ``NO_COLOR`` is unset or empty
(https://no-color.org: any non-empty value turns colour off; ``--color always`` on
the command line overrides it).  Only the text output is coloured: JSON, the reports and
the stream never are.
"""

from __future__ import annotations

import os
import sys

__all__ = ["CHOICES", "choose", "enabled", "outcome", "paint", "tone"]

#: The values of ``--color``.
CHOICES = ("auto", "always", "never")

_RESET = "\x1b[0m"
_CODES = {"green": "\x1b[32m", "red": "\x1b[31m", "yellow": "\x1b[33m", "dim": "\x1b[2m", "bold": "\x1b[1m"}
#: The colour of each outcome (spec/protocol.md, "Outcomes"); any other is a failure.
_OUTCOMES = {"pass": "green", "xfail": "yellow", "skip": "dim"}
#: The colour of each tone of a verdict (:class:`horserace.reports.summary.Verdict`).
_TONES = {"ok": "green", "bad": "red", "warn": "yellow"}

_choice = "auto"


def choose(choice: str) -> str:
    """Set the colour choice of this command line: one of :data:`CHOICES`."""
    global _choice  # noqa: PLW0603  (the command line's one colour choice)
    if choice not in CHOICES:
        raise ValueError(f"{choice!r}: give one of {', '.join(CHOICES)}")
    _choice = choice
    return choice


def enabled() -> bool:
    """Whether output is coloured now: the choice, ``NO_COLOR`` and whether standard
    output is a terminal."""
    if _choice != "auto":
        return _choice == "always"
    if os.environ.get("NO_COLOR"):
        return False
    isatty = getattr(sys.stdout, "isatty", None)
    try:
        return bool(isatty and isatty())
    except ValueError:  # a closed stream
        return False


def paint(text: str, colour: str | None) -> str:
    """``text`` in ``colour`` when output is coloured, else ``text`` itself."""
    if not colour or not text or not enabled():
        return text
    return f"{_CODES[colour]}{text}{_RESET}"


def outcome(text: str, status: str) -> str:
    """``text`` in the colour of the outcome ``status``."""
    return paint(text, _OUTCOMES.get(str(status).lower(), "red"))


def tone(text: str, of: str) -> str:
    """``text`` in the colour of a verdict's tone (``ok``, ``bad``, ``warn``)."""
    return paint(text, _TONES.get(of))
