"""The bundled resources: where spec/ and scenarios/ are (a source checkout or an
installed wheel), the specification documents read as data (rules, register), the strict
YAML layer and the JSON Schemas every document is checked against, and the rulesets of
spec/rulesets/.

The strict YAML layer and the schema checks sit here, below the corpus, because rulesets
are documents of spec/ read exactly as fixtures are.
"""

from horserace.resources.documents import Interpretation, Rule, load_interpretations, load_rules
from horserace.resources.paths import default_corpus, rulesets_dir, spec_dir
from horserace.resources.rulesets import NamedRuleset, bundled, load_ruleset, resolve

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
