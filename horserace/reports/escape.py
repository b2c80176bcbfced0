"""Text that came from an implementation (or a fixture), made safe for where it goes:
the one place that decides how, used by every report.

- :func:`for_terminal`: control characters (an ESC sequence could clear the screen or
  print a fake verdict line) are written as visible escapes, ``\\x1b``; newlines and tabs
  stay only where the caller allows them.
- :func:`for_xml`: the characters XML 1.0 does not allow (most C0 controls, lone
  surrogates, U+FFFE and U+FFFF) are written as visible escapes, so that ``junit.xml``
  is well-formed whatever an implementation wrote; then XML's own escaping is done by the
  writer.
"""

from __future__ import annotations

import re

__all__ = ["for_terminal", "for_xml"]

# C0 controls but tab and newline, DEL, and the C1 controls (U+0080-U+009F, which some
# terminals obey as ESC sequences).
_TERMINAL = re.compile("[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f]")
_TERMINAL_ONE_LINE = re.compile("[\\x00-\\x1f\\x7f-\\x9f]")
# Everything outside XML 1.0's Char production.
_NOT_XML = re.compile("[^\\x09\\x0a\\x0d\\x20-\\ud7ff\\ue000-\\ufffd\\U00010000-\\U0010ffff]")


def _visible(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def for_terminal(text: str, *, one_line: bool = False) -> str:
    """``text`` with control characters made visible (``one_line``: newlines too)."""
    return (_TERMINAL_ONE_LINE if one_line else _TERMINAL).sub(_visible, text)


def for_xml(text: str) -> str:
    """``text`` with every character XML 1.0 forbids made visible."""
    return _NOT_XML.sub(_visible, text)
