"""Text that came from an implementation (or a fixture), made safe for where it goes:
the one place that decides how, used by every report.

- :func:`for_terminal`: control characters (an ESC sequence could clear the screen or
  print a fake verdict line) are written as visible escapes, ``\\x1b``; newlines and tabs
  stay only where the caller allows them.
- :func:`for_xml`: the characters XML 1.0 does not allow (most C0 controls, lone
  surrogates, U+FFFE and U+FFFF) are written as visible escapes, so that ``junit.xml``
  is well-formed whatever an implementation wrote; then XML's own escaping is done by the
  writer.
- :func:`for_html`: control characters made visible as on the terminal (HTML calls them
  parse errors, and a NUL is dropped), then HTML's own escaping (``<``, ``&``, quotes;
  in an element's content, where no quote can end anything, the quotes may stay).
- :func:`for_markdown`: control characters made visible, ``&``, ``<`` and ``>`` as
  HTML's entities (GitHub renders raw HTML in Markdown); in a table cell (``cell``) every
  ``|`` is escaped, inside code spans too (GitHub-flavoured Markdown splits a row at any
  unescaped pipe: a tile ``[3|4]`` would break the table), and a newline becomes a space.
- :func:`code_span`: a value as a Markdown code span that its own backticks cannot end.

JSON needs no function here: the result stream holds strict JSON only (the protocol
decoder refuses NaN, Infinity and lone surrogates in values, and replaces them in free
text), and what is kept of an answer is bounded (:mod:`horserace.conformance.bounds`).
"""

from __future__ import annotations

import html
import re

__all__ = ["code_span", "for_code", "for_html", "for_markdown", "for_terminal", "for_xml"]

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


def for_html(text: str, *, quote: bool = True) -> str:
    """``text`` for HTML text or a quoted attribute: control characters visible (newlines
    and tabs kept), then ``<``, ``>``, ``&`` and both quotes escaped; ``quote=False``
    for the content of an element only (never an attribute), which quotes cannot end:
    the quotes stay as they are (a JSON text is half quotes)."""
    return html.escape(_TERMINAL.sub(_visible, text), quote=quote)


def for_markdown(text: str, *, cell: bool = False) -> str:
    """``text`` for Markdown: control characters visible, and ``&``, ``<`` and ``>``
    written as HTML's entities, as in the HTML report (GitHub-flavoured Markdown passes
    raw HTML through: ``<svg onload=...>`` in a name would be live markup where the
    report is pasted); ``cell``: fit for one table cell (pipes escaped, newlines as
    spaces)."""
    return _html_entities(_markdown(text, cell=cell))


def for_code(text: str) -> str:
    """``text`` for a fenced code block, where no markup is read: control characters
    visible (newlines and tabs kept), nothing else changed."""
    return _TERMINAL.sub(_visible, text)


def _html_entities(text: str) -> str:
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _markdown(text: str, *, cell: bool) -> str:
    if cell:
        return _TERMINAL_ONE_LINE.sub(lambda m: " " if m.group() in "\r\n" else _visible(m), text).replace("|", "\\|")
    return _TERMINAL.sub(_visible, text)


def code_span(text: str, *, cell: bool = False) -> str:
    """``text`` as a Markdown code span: fenced by one backtick more than the longest
    run of backticks inside it (CommonMark), padded where it starts or ends with one."""
    longest = max((len(run) for run in re.findall("`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") else ""
    return f"{fence}{pad}{_markdown(text, cell=cell)}{pad}{fence}"  # no markup is read in a code span
