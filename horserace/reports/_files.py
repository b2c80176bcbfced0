"""Writing report files: atomically (a temporary file renamed into place), readable as
ordinary files are."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

__all__ = ["atomic_write", "readable"]


def atomic_write(path: Path, text: str) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", dir=path.parent)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    readable(Path(tmp))
    os.replace(tmp, path)
    return path


def _current_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _current_umask()  # read once, at import: os.umask is process-wide


def readable(path: Path) -> None:
    """mkstemp makes files 0600; reports are ordinary files (0666 less the umask)."""
    os.chmod(path, 0o666 & ~_UMASK)
