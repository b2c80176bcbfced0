"""The one exit-code table of every ``horserace`` command (the table of docs/commands.md), and the
map from each branch of the error hierarchy (:mod:`horserace.errors`) to it."""

from __future__ import annotations

import errno
import signal
from enum import IntEnum

from horserace._signals import Stopped
from horserace.errors import EnvironmentFailure, ImplementationError, InputError, RuleError, UsageError

__all__ = ["ENVIRONMENT_ERRNOS", "ExitCode", "Stopped", "exit_code_for"]


class ExitCode(IntEnum):
    OK = 0  #: success (a conformant implementation, a green replay)
    FAILURES = 1  #: failures or differences found
    INVALID_INPUT = 2  #: invalid input data: fixtures, rulesets, expectation files
    IMPLEMENTATION_UNUSABLE = 3  #: the implementation under test cannot be used
    USAGE = 4  #: the command line is wrong, or names something that does not exist
    INTERNAL = 5  #: a defect in horserace itself (please report it)
    ENVIRONMENT = 6  #: the environment failed: a full disk, a permission refused while writing
    HANGUP = 129  #: stopped by SIGHUP (128 + 1), as shells report it
    INTERRUPTED = 130  #: stopped by Ctrl-C (SIGINT, 128 + 2)
    TERMINATED = 143  #: stopped by SIGTERM (128 + 15)


#: Each branch of the hierarchy, most specific first.
_TABLE: tuple[tuple[type[BaseException], ExitCode], ...] = (
    (UsageError, ExitCode.USAGE),
    (InputError, ExitCode.INVALID_INPUT),
    (RuleError, ExitCode.INVALID_INPUT),  # a tile, deal or action in given data that the rules forbid
    (ImplementationError, ExitCode.IMPLEMENTATION_UNUSABLE),
    (EnvironmentFailure, ExitCode.ENVIRONMENT),
    (KeyboardInterrupt, ExitCode.INTERRUPTED),
)


#: The errors of the machine, not of horserace: an OSError with one of these is an
#: :class:`EnvironmentFailure` wherever it is raised.
ENVIRONMENT_ERRNOS = frozenset(
    {errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EROFS, errno.EACCES, errno.EPERM, errno.EIO}
)


def exit_code_for(exc: BaseException) -> ExitCode:
    """The exit code of a command that stopped on ``exc``: its branch's, else internal."""
    if isinstance(exc, Stopped):
        return ExitCode.HANGUP if exc.signum == signal.SIGHUP else ExitCode.TERMINATED
    if isinstance(exc, OSError) and exc.errno in ENVIRONMENT_ERRNOS:
        return ExitCode.ENVIRONMENT
    for kind, code in _TABLE:
        if isinstance(exc, kind):
            return code
    return ExitCode.INTERNAL
