"""The outcome of checking one fixture, one enum for every room that reports one: replay
(pass, fail, error, skip), the conformance runner (all of them), the reports, the pytest
plugin and the fuzzer.  A :class:`Status` is a ``str`` (``Status.PASS == "pass"``), so the
result stream and its readers keep plain strings."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["FAILING", "IMPLEMENTATION_ERRORS", "PASSING", "Status"]


class Status(StrEnum):
    """In the order the reports list them (spec/protocol.md, "Outcomes")."""

    PASS = "pass"  #: the observations are the expected ones
    XFAIL = "xfail"  #: failed, as the expectations file says it would
    SKIP = "skip"  #: not run: another kind or reading, or deprecated
    FAIL = "fail"  #: observations differ from the expected ones
    REJECTED = "rejected"  #: the implementation refused a legal action
    NOT_REJECTED = "not-rejected"  #: the implementation accepted an illegal action
    #: an illegal action refused at the right index, but not shown to be refused for its
    #: rule: no rule named, and the legal twin refused too (or no twin to show it)
    UNCONFIRMED = "unconfirmed"
    ERROR = "error"  #: the implementation answered with an error
    CRASH = "crash"  #: the implementation died or broke the protocol
    TIMEOUT = "timeout"  #: no answer in time
    XPASS = "xpass"  #: passed, though the expectations file says it fails

    @property
    def passing(self) -> bool:
        return self in PASSING


#: Outcomes that keep an implementation conformant.
PASSING = frozenset({Status.PASS, Status.XFAIL, Status.SKIP})
#: Outcomes that make it non-conformant.
FAILING = frozenset(set(Status) - PASSING)
#: Outcomes where the implementation failed to answer (JUnit ``<error>``, not ``<failure>``).
IMPLEMENTATION_ERRORS = frozenset({Status.ERROR, Status.CRASH, Status.TIMEOUT})
