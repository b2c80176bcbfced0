"""One module per command: ``NAME``, ``register(subparsers)`` that adds its parser and
options, and ``run(args)`` that returns an exit code.

:data:`HELP` names every command with its one-line help, so that ``horserace --help``
lists them all without importing any; the main imports only the module of the command
it runs (:func:`load`).  A command module imports at its top only what its parser needs;
what it needs to run is imported inside ``run``.  So ``horserace serve``, started once per
fixture in one-shot mode, pays only for the parser and itself.
"""

from __future__ import annotations

import importlib
from types import ModuleType

__all__ = ["HELP", "load"]

#: Every command and its one-line help, in the order ``horserace --help`` lists them:
#: the order a newcomer meets them, conform first.
HELP: dict[str, str] = {
    "conform": "run the corpus against an implementation through the conformance protocol",
    "replay": "validate and replay scenario fixtures against the reference engine",
    "coverage": "the fixtures that tell each reading and rule apart; fails under three",
    "serve": "speak the conformance protocol with the reference engine on stdin/stdout",
    "report": "write every report again from stored result streams; several make a comparison page",
    "play": "play and print a seeded sample hand (or match) with random legal placements",
    "perft": "count the move sequences of a given depth from a position (perft), with --divide per first move",
    "diff": "which outcomes change between two rulesets",
    "impact": "what a rule change does to the game: paired random matches, metrics with confidence intervals",
    "fuzz": "differential fuzzing: random scenarios of every kind against an implementation and the reference",
    "mutants": "run the corpus against every named deviation of the engine (mutants and house rules); report killed and surviving ones",
    "export": "write the corpus, rulesets and schemas as plain JSON, with the spec and a version stamp",
    "site": "write the specification as a static site: every rule, fixture and reading cross-linked, every layout drawn",
    "examples": "write the example implementations (Python, JavaScript) into a folder, to start your own from",
    "synthesize": "construct corner-case fixtures with Z3, for review (needs the [verify] extra)",
    "bench": "measure random hands per second and memory",
    "completion": "print a shell completion script (bash, zsh, fish) for commands, options and fixture and rule IDs",
}


def load(name: str) -> ModuleType:
    """The module of command ``name``."""
    return importlib.import_module(f"horserace.cli.commands.{name}")
