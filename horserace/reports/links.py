"""Where a report's links go and what its locations say: one place for every writer
(Markdown, JUnit XML, HTML, the terminal), so that a report folder copied elsewhere, sent
as a CI artefact or published, carries no path of the machine that made it.

A rule's link is made from a **base**, which the user chooses (``conform --link-base
URL``, ``report --link-base URL``):

- a base without braces is the folder (or URL) that holds ``rules.md``: the rule's link is
  ``BASE/rules.md#anchor``, the anchor of its heading as GitHub makes it
  (``https://github.com/ORG/horserace/blob/v0.1.0/spec/`` gives
  ``…/spec/rules.md#hr-settle-1-the-hand-winners-credit``);
- a base with ``{rule}`` or ``{anchor}`` is a template (``https://example.org/rules/{rule}.html``
  for the pages ``horserace site`` writes, ``rules/HR-SETTLE-1.html``).

Without ``--link-base``, a report folder inside the repository whose spec/ is in use
links to it relatively (``../spec/rules.md#…``); any other (a folder outside the clone,
or a run from a wheel) gets a copy of the rules beside its reports, :data:`RULES_COPY`,
and links to it: the folder stands alone wherever it is opened.
"""

from __future__ import annotations

import os
import posixpath
from collections.abc import Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import Any

from horserace.resources.documents import Rule, load_rules
from horserace.resources.locations import fixture_location, is_machine_path
from horserace.resources.paths import spec_dir

__all__ = ["RULES_COPY", "Links", "links_for", "location", "record_file"]

#: The copy of spec/rules.md a report folder gets when the spec is not beside it.
RULES_COPY = "spec-rules.md"


@dataclass(frozen=True)
class Links:
    """Where a report's rule links go: ``base`` (see the module).  ``Links()`` is the
    repository's own name, ``spec/rules.md#anchor``; :func:`links_for` chooses for a
    report folder.  ``copy``: the links go to :data:`RULES_COPY`, beside the reports.
    ``prefix``: the report folder as seen from where the text is read (the terminal)."""

    base: str = "spec/"
    copy: bool = False
    prefix: str = ""

    def rule(self, rule_id: str, rules: Mapping[str, Rule] | None = None) -> str:
        """The link to a rule's text (to the rules document where the rule is unknown)."""
        rules = load_rules() if rules is None else rules
        found = rules.get(rule_id)
        anchor = found.anchor if found else ""
        if "{rule}" in self.base or "{anchor}" in self.base:
            return self.base.replace("{rule}", rule_id).replace("{anchor}", anchor)
        if self.copy:
            target = RULES_COPY
        else:
            target = (self.base if self.base.endswith("/") or not self.base else self.base + "/") + "rules.md"
        if self.prefix and "://" not in target and not target.startswith("/"):
            target = PurePosixPath(posixpath.normpath(posixpath.join(self.prefix, target))).as_posix()
        return f"{target}#{anchor}" if anchor else target

    def fixture(self, file: str, line: object = None) -> str | None:
        """The link to a fixture of the bundled corpus (``scenarios/…``), made from the
        same base as the rules' (the folder beside ``spec/``; a URL's line anchor,
        ``#L42``, as GitHub and GitLab give one); ``None`` where there is none to make: a
        template base, a report folder with the rules' copy (the corpus is not beside
        it), a fixture file of another repository."""
        if "{rule}" in self.base or "{anchor}" in self.base or self.copy or not file.startswith("scenarios/"):
            return None
        base = self.base if self.base.endswith("/") else self.base + "/"
        if not base.rstrip("/").endswith("spec"):
            return None
        target = base.rstrip("/")[: -len("spec")] + file
        if self.prefix and "://" not in target and not target.startswith("/"):
            target = PurePosixPath(posixpath.normpath(posixpath.join(self.prefix, target))).as_posix()
        remote = "://" in target
        return f"{target}#L{line}" if remote and isinstance(line, int) else target

    def seen_from(self, folder: str) -> Links:
        """These links read from outside the report folder, ``folder`` being its path from
        there: ``horserace-report/spec-rules.md#…`` on the terminal."""
        return replace(self, prefix=folder)


def links_for(folder: Path, link_base: str | None = None) -> Links:
    """The links of the reports written into ``folder``: to ``link_base`` if given; else
    relatively to the spec when the folder is inside the repository whose spec/ is in use;
    else to the copy of the rules the folder gets (:data:`RULES_COPY`)."""
    if link_base:
        return Links(link_base)
    try:
        spec = spec_dir().resolve()
        here = folder.resolve()
    except OSError:
        return Links(copy=True)
    if (spec / "rules.md").is_file() and spec.name == "spec" and here.is_relative_to(spec.parent):
        return Links(PurePosixPath(Path(os.path.relpath(spec, here))).as_posix() + "/")
    return Links(copy=True)


def record_file(record: Mapping[str, Any]) -> str:
    """A result's fixture file as the reports say it: the stream's own (repository-relative
    since schema 3); an older stream's absolute path made relative where it can be."""
    file = str(record.get("file") or "?")
    return fixture_location(file) if is_machine_path(file) else file


def location(record: Mapping[str, Any]) -> str:
    """``scenarios/rule-text/layout.yaml:43``."""
    return f"{record_file(record)}:{record.get('line', '?')}"
