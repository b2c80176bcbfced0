"""The versions: the suite's (fixtures, rulesets, schemas, tools) and the conformance
protocol's, each semantic and each moving on its own (docs/versions.md)."""

__version__ = "0.1.0"
PROTOCOL_VERSION = "1.2"
