"""The ``horserace`` command line: a small dispatcher (:mod:`~horserace.cli.main`) and one
module per command under :mod:`horserace.cli.commands`, each registering its options and
returning an exit code from the one table (:mod:`~horserace.cli.exitcodes`)."""

from horserace.cli.main import entry_point, main

__all__ = ["entry_point", "main"]
