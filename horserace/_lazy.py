"""Names of a room's package that are imported on first use (PEP 562): importing one
module of the room does not import the others (and YAML and the schema validator with
them), which ``horserace serve``'s start-up and the benchmarks depend on."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_attributes"]


def lazy_attributes(package: str, exports: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package`` that imports ``exports[name]`` (a module
    path) on first use of ``name`` and keeps it in the package's namespace."""
    namespace = importlib.import_module(package).__dict__

    def __getattr__(name: str) -> Any:  # noqa: N807  (the package's module __getattr__, made here)
        module = exports.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return __getattr__
