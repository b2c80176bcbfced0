"""Writing the files a command leaves (reports, the site, the export, a fuzz finding):
atomically (a temporary file renamed into place), readable as ordinary files are; a write
the machine refuses (a full disk, a permission) is an
:class:`~horserace.errors.EnvironmentFailure`, and leaves no temporary file behind.  It
sits beside :mod:`horserace._signals`, below every room, so that each room writes this way."""

from __future__ import annotations

import contextlib
import os
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

from horserace._signals import deferred_signals
from horserace.errors import EnvironmentFailure

__all__ = ["atomic_copy", "atomic_write", "discard", "readable"]


@contextlib.contextmanager
def _replacing(path: Path) -> Iterator[int]:
    """A temporary file beside ``path`` (its descriptor) that is renamed onto ``path``
    once the block has written it; signals held back meanwhile, and no temporary file left
    whatever happens (a write the machine refuses is an :class:`EnvironmentFailure`)."""
    with deferred_signals():
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{path.name}-", suffix=".tmp", dir=path.parent)
        except OSError as exc:
            raise EnvironmentFailure.from_os_error(exc, path) from None
        try:
            yield fd
            readable(Path(tmp))
            Path(tmp).replace(path)
        except OSError as exc:
            discard(Path(tmp))
            raise EnvironmentFailure.from_os_error(exc, path) from None
        except BaseException:  # an interruption from another thread's doing: no temporary file either
            discard(Path(tmp))
            raise


def atomic_copy(source: Path, path: Path) -> Path:
    """Copy ``source`` to ``path`` byte for byte, atomically as :func:`atomic_write`
    writes, without holding it in memory (a stored stream may be hundreds of MB)."""
    with _replacing(path) as fd, os.fdopen(fd, "wb") as out, source.open("rb") as f:
        shutil.copyfileobj(f, out, 1 << 20)
    return path


def atomic_write(path: Path, text: str) -> Path:
    """Write ``text`` to ``path`` through a temporary file renamed into place; a signal
    that arrives meanwhile is acted on once the file is in place (so no temporary file is
    ever left, and no half file seen)."""
    with _replacing(path) as fd, os.fdopen(fd, "w", encoding="utf-8") as f:
        f.write(text)
    return path


def discard(path: Path) -> None:
    """Remove a temporary file, if it is there."""
    with contextlib.suppress(OSError):
        path.unlink()


def _current_umask() -> int:
    umask = os.umask(0)
    os.umask(umask)
    return umask


_UMASK = _current_umask()  # read once, at import: os.umask is process-wide


def readable(path: Path) -> None:
    """mkstemp makes files 0600; reports are ordinary files (0666 less the umask)."""
    path.chmod(0o666 & ~_UMASK)
