#!/usr/bin/env python3
"""Bring horserace/quality/mutation_triage.yaml up to a whole campaign of code mutants.

    python tools/mutation_triage.py [--jobs N] [--check]

Runs ``horserace mutants --code`` over the whole engine (in this process's workers) and
writes the triage file again: every survivor keeps the verdict it has; a new survivor is
added as ``open`` ("not triaged yet"), for a person to judge; an entry whose mutant is no
longer a survivor (killed, or gone from the code) is dropped unless it is ``killed-by``
and the campaign confirms its fixture. The entries are written in the campaign's order
(module, operator, occurrence). ``--check`` writes nothing and exits 1 if the file would
change. Verdicts are a person's judgement: this tool never gives one.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import yaml

from horserace.corpus.loader import load_paths
from horserace.quality import code_mutants as cm

FIELDS = ("module", "line", "scope", "operator", "nth", "code", "verdict", "check", "fixture", "why")


def main(argv: list[str]) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--jobs", type=int, default=2)
    p.add_argument("--check", action="store_true")
    args = p.parse_args(argv)
    triage = cm.load_triage()
    mutants, enumerated = cm.select(None, None, 0)
    corpus = load_paths(None)
    full = frozenset(k for k, e in triage.items() if e["verdict"] == "killed-by")
    campaign = cm.run_campaign(mutants, corpus.fixtures, enumerated=enumerated, jobs=args.jobs, full=full)
    entries: list[dict[str, Any]] = []
    for o in campaign.outcomes:
        old = triage.get(o.mutant.key)
        confirmed = old is not None and old["verdict"] == "killed-by" and str(old.get("fixture")) in o.killers
        if o.status != "survived" and not confirmed:
            continue
        entry = dict(old or {"verdict": "open", "why": "not triaged yet"})
        entry |= {k: getattr(o.mutant, k) for k in ("module", "line", "scope", "operator", "nth", "code")}
        entries.append({k: entry[k] for k in FIELDS if k in entry})
    text = cm.TRIAGE_FILE.read_text(encoding="utf-8")
    header = text[: text.index("survivors:")]
    body = yaml.safe_dump({"survivors": entries}, sort_keys=False, allow_unicode=True, width=100)
    new = header + body
    if args.check:
        return 0 if new == text else 1
    Path(cm.TRIAGE_FILE).write_text(new, encoding="utf-8")
    counts: dict[str, int] = {}
    for e in entries:
        counts[e["verdict"]] = counts.get(e["verdict"], 0) + 1
    print(f"{len(entries)} entries: " + ", ".join(f"{n} {v}" for v, n in sorted(counts.items())))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
