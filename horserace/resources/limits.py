"""The limits on every document horserace reads, in one place."""

from __future__ import annotations

__all__ = ["MAX_DEPTH", "MAX_FILE_BYTES"]

#: Files larger than this are refused before parsing (hostile or broken input).
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Deepest nesting a fixture needs is about 8; anything far deeper is refused.
MAX_DEPTH = 64
