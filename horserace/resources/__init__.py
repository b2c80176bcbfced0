"""The bundled resources: where spec/ and scenarios/ are (a source checkout or an
installed wheel), the specification documents read as data (rules, register), the strict
YAML layer and the JSON Schemas every document is checked against, and the rulesets of
spec/rulesets/.

The strict YAML layer and the schema checks sit here, below the corpus, because rulesets
are documents of spec/ read exactly as fixtures are.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from horserace._lazy import lazy_attributes

if TYPE_CHECKING:
    from horserace.resources.documents import Interpretation, Rule, load_interpretations, load_rules
    from horserace.resources.paths import default_corpus, rulesets_dir, spec_dir
    from horserace.resources.rulesets import NamedRuleset, bundled, load_ruleset, resolve

#: Where each name of this room lives; imported on first use (PEP 562), so that importing one
#: module of the room (``horserace serve`` needs a few) does not import the others, YAML and
#: the schema validator with them.
_EXPORTS = {
    "Interpretation": "horserace.resources.documents",
    "Rule": "horserace.resources.documents",
    "load_interpretations": "horserace.resources.documents",
    "load_rules": "horserace.resources.documents",
    "default_corpus": "horserace.resources.paths",
    "rulesets_dir": "horserace.resources.paths",
    "spec_dir": "horserace.resources.paths",
    "NamedRuleset": "horserace.resources.rulesets",
    "bundled": "horserace.resources.rulesets",
    "load_ruleset": "horserace.resources.rulesets",
    "resolve": "horserace.resources.rulesets",
}

__all__ = [
    "Interpretation",
    "NamedRuleset",
    "Rule",
    "bundled",
    "default_corpus",
    "load_interpretations",
    "load_rules",
    "load_ruleset",
    "resolve",
    "rulesets_dir",
    "spec_dir",
]

__getattr__ = lazy_attributes(__name__, _EXPORTS)
