"""Conformance: an implementation under test, checked through the protocol
(spec/protocol.md).

:mod:`~horserace.conformance.protocol` (version, limits, checks),
:mod:`~horserace.conformance.messages` (one frozen class per message),
:mod:`~horserace.conformance.process` (the implementation's process, which nothing it does
can hang), :mod:`~horserace.conformance.supervisor` (the processes of one run, stopped
together), :mod:`~horserace.conformance.runner` (fixtures in, outcomes out),
:mod:`~horserace.conformance.session` (a whole run as a library: ``conform``, the pytest
plugin and ``bench`` use it),
:mod:`~horserace.conformance.expectations` (known failures),
:mod:`~horserace.conformance.server` (the reference engine behind the protocol) and the
pytest plugin.  Reports are made from the runner's outcomes by :mod:`horserace.reports`.

Import the submodules; this package's namespace stays empty so that importing the pytest
plugin (which pytest does in every session of an environment with horserace installed)
costs nothing else.
"""

__all__: list[str] = []
