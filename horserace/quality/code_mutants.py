"""Code mutants of the engine: cosmic-ray's operators, judged in process by the corpus.

The named deviations of :mod:`horserace.quality.mutants` are misreadings a person makes;
these are the slips a tool makes, everywhere it can: every operator of cosmic-ray's core
set (``pip install 'horserace[mutation]'``) at every place it applies in
``horserace/engine/``, as cosmic-ray's own ``init`` finds them (:func:`enumerate_mutants`)
and as its :class:`~cosmic_ray.mutating.MutationVisitor` writes them.  cosmic-ray, not
mutmut: its operators are plain classes a program can call on a parse tree, one mutant
named by (module, operator, occurrence), so the runner can be our own; mutmut 3 rewrites
every function into a trampoline and runs pytest, which cannot judge by the corpus.

A mutant is judged **in process** (no start-up per mutant): the mutated module is
compiled and run in a namespace of its own, compared with the module as it is, and what
differs is put into the live engine for the one mutant and taken out after
(:func:`applied`): a function's ``__code__`` and defaults, a class's attributes (a
dataclass's field defaults too), a module's constants (and the same names that other
modules of horserace imported from it).  What cannot be put in that way (an enum member's
value) is reported as *not applied*, never judged.  Values that other modules of
horserace built at import from what the mutant changes (the replay's table of written
tiles, ``observers._WRITTEN``, built by :func:`horserace.engine.tiles.tile`) are built
again under it, as a fresh import would build them (:func:`_rebuild`: each top-level
assignment that reads a changed name or any function or class of the mutated module,
in import order); if one raises, the mutant is killed as a module that fails on import,
and if one differs, the mutant is judged by every fixture.  What is left as it was: a
value a class body builds, or one built through a function of a third module; and the
corpus, loaded once, before any mutant.  Memo caches of horserace's modules (the rulesets
of each target, filled as the corpus loads) are emptied for each mutant and after it
(:func:`_clear_caches`), and before each fixture's coverage trace.

It is judged **by coverage**: each fixture's replay is traced once (:func:`trace_corpus`,
well under a second for the corpus, so the campaign measures it afresh rather than keep a
file that could go stale), and a mutant inside a function is replayed only on the
fixtures that run its line; a mutant at module or class level (constants, defaults) on
every fixture.  A mutant on a line no fixture runs is *not run*, reported apart.  A
mutant is killed when one fixture it is replayed on fails, errs or crashes, or when it
runs past its time bound (:data:`TIME_BOUND`, the watchdog of :func:`_bounded`).
Mutants only of annotations (strings under ``from __future__ import annotations``) are
left out.
"""

from __future__ import annotations

import ast
import builtins
import ctypes
import difflib
import functools
import importlib
import multiprocessing.connection
import os
import random
import resource
import signal
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field, fields, is_dataclass
from enum import Enum
from pathlib import Path
from types import FunctionType, ModuleType
from typing import Any

import yaml

from horserace.corpus.fixture import Fixture
from horserace.corpus.replay import replay_fixture
from horserace.corpus.status import Status
from horserace.errors import InputError, UsageError

__all__ = [
    "ENGINE_MODULES",
    "OPERATORS",
    "TIME_BOUND",
    "Campaign",
    "CodeMutant",
    "Outcome",
    "applied",
    "engine_fingerprint",
    "enumerate_mutants",
    "judge",
    "judge_all",
    "mutated_source",
    "run_campaign",
    "trace_corpus",
]

_ENGINE = Path(__file__).resolve().parent.parent / "engine"
#: The engine's modules, by the short name ``--module`` takes.
ENGINE_MODULES: tuple[str, ...] = tuple(
    sorted(p.stem for p in _ENGINE.glob("*.py") if p.stem not in ("__init__", "types"))
)
#: Seconds one mutant may take on its fixtures (the whole corpus replays in some 15 ms).
TIME_BOUND = 3.0


def _operators() -> dict[str, Any]:
    try:
        from cosmic_ray.operators.provider import OperatorProvider  # noqa: PLC0415  (the optional [mutation] extra)
    except ImportError:
        raise UsageError("horserace: code mutants need cosmic-ray: pip install 'horserace[mutation]'") from None
    provider = OperatorProvider()
    # The two variable operators take arguments (which variable) and are not part of a
    # default campaign, in cosmic-ray either.
    return {f"core/{n}": provider[n] for n in provider if n not in ("VariableReplacer", "VariableInserter")}


#: The operator names (cosmic-ray's), filled on first use.
OPERATORS: dict[str, Any] = {}


def _ops() -> dict[str, Any]:
    if not OPERATORS:
        OPERATORS.update(_operators())
    return OPERATORS


# ---------------------------------------------------------------------- enumerating
@dataclass(frozen=True)
class CodeMutant:
    """One mutant: the ``occurrence``-th place in ``module`` where ``operator`` applies.

    Its identity (:attr:`key`) is kept apart from line numbers, so that a triage entry
    survives edits elsewhere in the file: the module, the function (or ``<module>``),
    the operator, the text of the line, and ``nth``, its rank among the mutants sharing
    all four."""

    module: str  #: short name: hand, layout, ...
    operator: str
    occurrence: int  #: cosmic-ray's occurrence in the module (what applies it)
    line: int
    column: int
    scope: str  #: the enclosing function's qualified name, or a class's, or <module>
    code: str  #: the line's text, stripped
    nth: int
    in_body: bool  #: inside a function's body (so judged by the fixtures that run its line)
    def_line: int  #: the first line of the enclosing function (its call), for a default

    @property
    def key(self) -> str:
        return f"{self.module}|{self.scope}|{self.operator}|{self.nth}|{self.code}"

    @property
    def path(self) -> str:
        return f"horserace/engine/{self.module}.py"

    def to_dict(self) -> dict[str, Any]:
        return {
            "module": self.module,
            "line": self.line,
            "column": self.column,
            "operator": self.operator,
            "occurrence": self.occurrence,
            "scope": self.scope,
            "code": self.code,
            "nth": self.nth,
        }


def _source(module: str) -> str:
    return (_ENGINE / f"{module}.py").read_text(encoding="utf-8")


def _in_annotation(node: Any) -> bool:
    child, parent = node, node.parent
    while parent is not None:
        if parent.type == "param" and getattr(parent, "annotation", None) is child:
            return True
        if parent.type == "tfpdef" and len(parent.children) > 2 and parent.children[2] is child:
            return True
        if parent.type == "funcdef" and parent.annotation is child:
            return True
        if parent.type == "annassign" and len(parent.children) > 1 and parent.children[1] is child:
            return True
        child, parent = parent, parent.parent
    return False


def _signature_marker(node: Any) -> bool:
    """The bare ``*`` (or ``/``) of a parameter list: a marker, not an operator (cosmic-ray
    leaves out ``*args`` by the node's parent, and misses this one)."""
    return node.type == "operator" and node.parent is not None and node.parent.type in ("parameters", "lambdef")


def _scope(node: Any) -> tuple[str, bool, int]:
    """The enclosing scope's qualified name, whether the node is in a function's body,
    and that function's first line (its decorator's, if any)."""
    names: list[str] = []
    in_body, def_line = False, 0
    child, parent = node, node.parent
    first = True
    while parent is not None:
        if parent.type in ("funcdef", "classdef"):
            if parent.type == "funcdef":
                if names:
                    names.append("<locals>")
                if first:
                    in_body = child is parent.children[-1]
                    top = parent.parent if parent.parent is not None and parent.parent.type == "decorated" else parent
                    def_line = top.start_pos[0]
            names.append(parent.name.value)
            first = first and parent.type != "funcdef"
        child, parent = parent, parent.parent
    return (".".join(reversed(names)) or "<module>"), in_body, def_line


@functools.cache
def _tree(module: str) -> tuple[Any, list[Any]]:
    """The module's parse tree (parso's, as cosmic-ray parses it) and its nodes in
    cosmic-ray's walk order: parsed once, every mutant written from it."""
    import parso  # noqa: PLC0415  (the optional [mutation] extra)
    from cosmic_ray.ast import ast_nodes  # noqa: PLC0415

    tree = parso.parse(_source(module))
    return tree, list(ast_nodes(tree))


#: Where each mutant is in its module's tree: (module, operator, occurrence) to the
#: node's index in :func:`_tree`'s nodes and the operator's position index on it.
_PLACES: dict[tuple[str, str, int], tuple[int, int]] = {}


@functools.cache
def enumerate_mutants(module: str) -> tuple[CodeMutant, ...]:
    """Every mutant of one engine module, in cosmic-ray's order (operator, then
    occurrence), annotation-only ones and the bare ``*`` of a parameter list left out."""
    lines = _source(module).splitlines()
    _, nodes = _tree(module)
    found: list[CodeMutant] = []
    seen: dict[tuple[str, str, str, str], int] = {}
    for name, cls in _ops().items():
        op = cls()
        occurrence = 0
        for i, node in enumerate(nodes):
            for index, _ in enumerate(op.mutation_positions(node)):
                if not _in_annotation(node) and not _signature_marker(node):
                    line, column = node.start_pos
                    scope, in_body, def_line = _scope(node)
                    code = lines[line - 1].strip()
                    ident = (module, scope, name, code)
                    nth = seen.get(ident, 0)
                    seen[ident] = nth + 1
                    _PLACES[(module, name, occurrence)] = (i, index)
                    found.append(
                        CodeMutant(module, name, occurrence, line, column, scope, code, nth, in_body, def_line)
                    )
                occurrence += 1
    return tuple(found)


def mutated_source(m: CodeMutant) -> str:
    """The module's source with the mutant in it: cosmic-ray's operator applied to the
    module's one parse tree, the tree's code taken, and the tree put back as it was
    (what cosmic-ray's MutationVisitor writes from a fresh parse, at a thousandth of the
    cost for hand.py: tests/quality/test_code_mutants.py holds the two equal)."""
    from cosmic_ray.ast import ast_nodes  # noqa: PLC0415  (the optional [mutation] extra)

    enumerate_mutants(m.module)
    place = _PLACES.get((m.module, m.operator, m.occurrence))
    if place is None:
        raise UsageError(f"horserace: no mutant {m.operator} #{m.occurrence} in {m.path}")
    tree, nodes = _tree(m.module)
    node = nodes[place[0]]
    parent = node.parent
    siblings = list(parent.children)
    saved = [
        (
            n,
            n.parent,
            list(n.children) if hasattr(n, "children") else None,
            getattr(n, "value", None),
            getattr(n, "prefix", None),
        )
        for n in ast_nodes(node)
    ]
    try:
        new = _ops()[m.operator]().mutate(node, place[1])
        if new is not node:
            parent.children = [new if c is node else c for c in siblings if new is not None or c is not node]
        return str(tree.get_code())
    finally:
        parent.children = siblings
        for n, up, children, value, prefix in saved:
            n.parent = up
            if children is not None:
                n.children = children
            else:
                n.value, n.prefix = value, prefix


def mutated_by_cosmic_ray(m: CodeMutant) -> str | None:
    """The same mutant as cosmic-ray's own MutationVisitor writes it (a fresh parse)."""
    from cosmic_ray.mutating import MutationVisitor  # noqa: PLC0415  (the optional [mutation] extra)

    out = MutationVisitor.mutate_code(_source(m.module), _ops()[m.operator](), m.occurrence)
    return None if out is None else str(out)


def diff_of(m: CodeMutant) -> str:
    """The mutant as a unified diff of its line (with a line of context each side)."""
    a, b = _source(m.module).splitlines(), mutated_source(m).splitlines()
    return "\n".join(difflib.unified_diff(a, b, f"a/{m.path}", f"b/{m.path}", n=1, lineterm=""))


# ---------------------------------------------------------------------- applying
class NotApplied(Exception):
    """The mutant changes something the runner cannot put into the live engine."""


class _Equivalent(Exception):
    """The mutated module defines what the module defines (a constant computed to the same
    value, ``_LA | _LB`` as ``_LA + _LB`` on disjoint bits): equivalent by construction."""


class _FailsAtImport(Exception):
    """The mutated module raises as it is imported: killed by every fixture."""


class _TestingException(Exception):
    """What cosmic-ray's exception operator catches instead (never raised)."""


_TESTING_NAME = "CosmicRayTestingException"


def _namespace(module: str, source: str) -> dict[str, Any]:
    with warnings.catch_warnings():  # a mutant's `x is 0` warns as it compiles: not the user's concern
        warnings.simplefilter("ignore")
        code = compile(source, str(_ENGINE / f"{module}.py"), "exec")
    ns: dict[str, Any] = {
        "__name__": f"horserace.engine.{module}",
        "__builtins__": builtins,
        _TESTING_NAME: _TestingException,
    }
    exec(code, ns)  # noqa: S102  (the mutant's module, compiled from the engine's own source)
    return ns


@functools.cache
def _pristine(module: str) -> dict[str, Any]:
    return _namespace(module, _source(module))


def _key(v: Any, home: str) -> Any:
    """A structural key of a value made by a module run afresh, comparable between two
    runs (identity would tell every class and instance apart)."""
    if v is None or (isinstance(v, (bool, int, float, complex, str, bytes)) and not isinstance(v, Enum)):
        return (type(v).__name__, v)
    if isinstance(v, Enum):
        return ("enum", type(v).__qualname__, v.name, _key(v.value, home))
    if isinstance(v, (tuple, list)):
        return (type(v).__name__, tuple(_key(x, home) for x in v))
    if isinstance(v, (set, frozenset)):
        return (type(v).__name__, frozenset(_key(x, home) for x in v))
    if isinstance(v, dict):
        return ("dict", tuple((_key(k, home), _key(x, home)) for k, x in v.items()))
    if isinstance(v, FunctionType):
        return ("function", v.__qualname__, v.__code__, _key(v.__defaults__, home), _key(v.__kwdefaults__, home))
    if isinstance(v, (staticmethod, classmethod)):
        return (type(v).__name__, _key(v.__func__, home))
    if isinstance(v, property):
        return ("property", _key(v.fget, home), _key(v.fset, home), _key(v.fdel, home))
    if isinstance(v, type):
        return ("type", v.__module__, v.__qualname__)
    if is_dataclass(v):
        return ("dataclass", type(v).__qualname__, tuple(_key(getattr(v, f.name), home) for f in fields(v)))
    if hasattr(v, "pattern") and hasattr(v, "flags"):
        return ("re", v.pattern, v.flags)
    return ("object", type(v).__module__, type(v).__qualname__, repr(v))  # a slice, a range, a union of types


class _Patches:
    """The changes one mutant makes to live objects, undone in reverse order."""

    def __init__(self) -> None:
        self._undo: list[Callable[[], None]] = []
        #: The ids of the objects the mutant changed or put in: a value built at import
        #: from one of them is built again (:func:`_rebuild`).
        self.touched: set[int] = set()

    def changes(self) -> int:
        """How many changes there are to undo."""
        return len(self._undo)

    def set(self, obj: Any, name: str, value: Any) -> None:
        if isinstance(obj, (type, ModuleType)):
            had, old = name in obj.__dict__, obj.__dict__.get(name)
            if isinstance(obj, type):
                self.touched.add(id(obj))
            self.touched.update((id(old), id(value)))
        else:  # a function's __code__ or defaults, a dataclass field's default
            had, old = True, getattr(obj, name)
            self.touched.add(id(obj))
        setattr(obj, name, value)

        def undo() -> None:
            if had:
                setattr(obj, name, old)
            else:
                delattr(obj, name)

        self._undo.append(undo)

    def delete(self, obj: Any, name: str) -> None:
        old = vars(obj)[name]
        delattr(obj, name)
        self._undo.append(lambda: setattr(obj, name, old))

    def undo(self) -> None:
        while self._undo:
            self._undo.pop()()


def _live_module(module: str) -> ModuleType:
    return importlib.import_module(f"horserace.engine.{module}")


def _translate(v: Any, home: str, live: ModuleType, fresh_fns: dict[str, Any]) -> Any:
    """A value made by the mutated module, in terms of the live engine's classes."""
    if v is None or (isinstance(v, (bool, int, float, complex, str, bytes)) and not isinstance(v, Enum)):
        return v
    if isinstance(v, Enum):
        return getattr(_live_attr(live, type(v).__qualname__), v.name) if type(v).__module__ == home else v
    if isinstance(v, (tuple, list, set, frozenset, dict)):
        return _translate_container(v, home, live, fresh_fns)
    if isinstance(v, (type, FunctionType, staticmethod, classmethod, property)):
        return _translate_definition(v, home, live, fresh_fns)
    if is_dataclass(v) and type(v).__module__ == home:
        cls = _live_attr(live, type(v).__qualname__)
        obj = object.__new__(cls)
        for f in fields(v):
            object.__setattr__(obj, f.name, _translate(getattr(v, f.name), home, live, fresh_fns))
        return obj
    if type(v).__module__ == home:
        raise NotApplied(f"a value of {type(v).__qualname__}")
    return v


def _translate_container(v: Any, home: str, live: ModuleType, fresh_fns: dict[str, Any]) -> Any:
    """A tuple (a named one too), list, set, frozenset or dict, its items translated."""
    if isinstance(v, dict):
        return {_translate(k, home, live, fresh_fns): _translate(x, home, live, fresh_fns) for k, x in v.items()}
    items = [_translate(x, home, live, fresh_fns) for x in v]
    if isinstance(v, tuple) and hasattr(v, "_fields"):
        return _live_attr(live, type(v).__qualname__)(*items) if type(v).__module__ == home else type(v)(*items)
    return type(v)(items)


def _translate_definition(v: Any, home: str, live: ModuleType, fresh_fns: dict[str, Any]) -> Any:
    """A class, function, static or class method or property: the live one of that name."""
    if isinstance(v, type):
        return _live_attr(live, v.__qualname__) if v.__module__ == home else v
    if isinstance(v, FunctionType):
        if v.__module__ != home:
            return v
        target = _live_function(live, v.__qualname__)
        if target is None:
            raise NotApplied(f"a new function {v.__qualname__}")
        return target
    if isinstance(v, (staticmethod, classmethod)):
        return type(v)(_translate(v.__func__, home, live, fresh_fns))
    t = [None if f is None else _translate(f, home, live, fresh_fns) for f in (v.fget, v.fset, v.fdel)]
    return property(t[0], t[1], t[2], v.__doc__)


def _live_attr(live: ModuleType, qualname: str) -> Any:
    obj: Any = live
    for part in qualname.split("."):
        obj = getattr(obj, part)
    return obj


def _functions_of(obj: Any, prefix: str, home: str, out: dict[str, FunctionType]) -> None:
    for name, v in list(vars(obj).items()):
        for f in (
            [v]
            if isinstance(v, FunctionType)
            else [v.__func__]
            if isinstance(v, (staticmethod, classmethod))
            else [v.fget, v.fset, v.fdel]
            if isinstance(v, property)
            else []
        ):
            if isinstance(f, FunctionType) and f.__module__ == home:
                out.setdefault(f.__qualname__, f)
        if isinstance(v, type) and v.__module__ == home and v.__qualname__ == f"{prefix}{name}":
            _functions_of(v, f"{prefix}{name}.", home, out)


def _all_functions(ns: Any, home: str) -> dict[str, FunctionType]:
    out: dict[str, FunctionType] = {}
    _functions_of(ns, "", home, out)
    return out


def _live_function(live: ModuleType, qualname: str) -> FunctionType | None:
    return _all_functions(live, live.__name__).get(qualname)


class _NS:
    """A namespace dict seen as an object, for :func:`_functions_of`."""

    def __init__(self, d: dict[str, Any]) -> None:
        self.__dict__.update(d)


_SKIP = frozenset({"__builtins__", "__doc__", "__annotations__", "__dict__", "__weakref__", _TESTING_NAME})


_CLASS_BOOKKEEPING = frozenset({"__slots__", "__module__", "__qualname__", "__parameters__", "__orig_bases__"})


def _patch_class(
    patches: _Patches, live_cls: type, o: type, m: type, home: str, live: ModuleType, fresh: dict[str, Any]
) -> None:
    if issubclass(o, Enum) and issubclass(m, Enum):
        if [(k, _key(v.value, home)) for k, v in o.__members__.items()] != [
            (k, _key(v.value, home)) for k, v in m.__members__.items()
        ]:
            raise NotApplied(f"the members of the enum {o.__qualname__}")
        return
    od, md = vars(o), vars(m)
    for name in dict.fromkeys([*od, *md]):
        if name in _SKIP or name in _CLASS_BOOKKEEPING:
            continue
        ov, mv = od.get(name, _MISSING), md.get(name, _MISSING)
        if name == "__dataclass_fields__" and ov is not _MISSING and mv is not _MISSING:
            _patch_field_defaults(patches, vars(live_cls)[name], o, ov, mv, home, live, fresh)
        elif isinstance(ov, type) and isinstance(mv, type) and ov.__qualname__ == mv.__qualname__:
            _patch_class(patches, getattr(live_cls, name), ov, mv, home, live, fresh)
        elif not _unchanged(ov, mv, home):
            # a method whose code or defaults differ is patched in the function itself
            if mv is _MISSING:
                patches.delete(live_cls, name)
            else:
                patches.set(live_cls, name, _translate(mv, home, live, fresh))


def _patch_field_defaults(
    patches: _Patches,
    live_fields: dict[str, Any],
    o: type,
    ov: dict[str, Any],
    mv: dict[str, Any],
    home: str,
    live: ModuleType,
    fresh: dict[str, Any],
) -> None:
    """A dataclass's changed field defaults, put on the live class's fields."""
    for fname, of in ov.items():
        mf = mv.get(fname)
        if mf is None:
            raise NotApplied(f"the fields of {o.__qualname__}")
        if _key(of.default, home) != _key(mf.default, home):
            patches.set(live_fields[fname], "default", _translate(mf.default, home, live, fresh))


def _unchanged(ov: Any, mv: Any, home: str) -> bool:
    """A class attribute the same in both (or the same binding of a function whose code may differ)."""
    if _key(ov, home) == _key(mv, home) if ov is not _MISSING and mv is not _MISSING else ov is mv:
        return True
    return _same_binding(ov, mv, home)


def _same_binding(ov: Any, mv: Any, home: str) -> bool:
    """The same kind of binding of the same function (its code may differ)."""
    if isinstance(ov, FunctionType) and isinstance(mv, FunctionType):
        return ov.__qualname__ == mv.__qualname__
    if type(ov) is type(mv) and isinstance(ov, (staticmethod, classmethod)):
        return bool(ov.__func__.__qualname__ == mv.__func__.__qualname__)
    if isinstance(ov, property) and isinstance(mv, property):
        return all(
            (a is None) == (b is None) and (a is None or b is None or a.__qualname__ == b.__qualname__)
            for a, b in ((ov.fget, mv.fget), (ov.fset, mv.fset), (ov.fdel, mv.fdel))
        )
    return False


_MISSING: Any = object()


def _patch(patches: _Patches, module: str, mns: dict[str, Any]) -> bool:
    """Put what differs between the module as it is and ``mns`` into the live engine;
    whether anything did."""
    home = f"horserace.engine.{module}"
    ons, live = _pristine(module), _live_module(module)
    before = patches.changes()
    _patch_functions(patches, home, ons, mns, live)
    # Classes and module-level values.
    for name in dict.fromkeys([*ons, *mns]):
        if name in _SKIP:
            continue
        ov, mv = ons.get(name, _MISSING), mns.get(name, _MISSING)
        if isinstance(ov, type) and isinstance(mv, type) and ov.__module__ == home and ov.__qualname__ == name:
            count = patches.changes()
            _patch_class(patches, getattr(live, name), ov, mv, home, live, mns)
            if patches.changes() > count:  # a field's default, say: an instance built from it differs
                patches.touched.add(id(getattr(live, name)))
            continue
        if ov is not _MISSING and mv is not _MISSING and _key(ov, home) == _key(mv, home):
            continue
        if _same_binding(ov, mv, home):
            continue
        if mv is _MISSING:
            raise NotApplied(f"{name} removed")
        _replace(patches, live, name, _translate(mv, home, live, mns))
    return patches.changes() > before


def _patch_functions(patches: _Patches, home: str, ons: dict[str, Any], mns: dict[str, Any], live: ModuleType) -> None:
    """Functions: code and defaults, by qualified name."""
    ofns, mfns = _all_functions(_NS(ons), home), _all_functions(_NS(mns), home)
    lfns = _all_functions(live, home)
    for qn in dict.fromkeys([*ofns, *mfns]):
        of, mf, lf = ofns.get(qn), mfns.get(qn), lfns.get(qn)
        if of is None or mf is None or lf is None:
            continue  # a function bound otherwise (a decorator removed): the binding is patched below
        owner = live.__dict__.get(qn.split(".")[0])
        if owner is not None and (of.__code__ != mf.__code__ or of.__defaults__ != mf.__defaults__):
            patches.touched.add(id(owner))  # a method's class: a value built from the class
        if of.__code__ != mf.__code__:
            if len(mf.__code__.co_freevars) != len(lf.__code__.co_freevars):
                raise NotApplied(f"the closure of {qn}")
            patches.set(lf, "__code__", mf.__code__)
        for attr in ("__defaults__", "__kwdefaults__"):
            if _key(getattr(of, attr), home) != _key(getattr(mf, attr), home):
                patches.set(lf, attr, _translate(getattr(mf, attr), home, live, mns))


def _replace(patches: _Patches, live: ModuleType, name: str, new: Any) -> None:
    """``live.name`` made ``new``, and the same name where other modules imported it
    from ``live`` (``from live import name``): holding the same object is not enough, as
    a module that computes its own ``_BOTH_LINEAR = 12`` holds the one ``12`` CPython keeps."""
    old = live.__dict__.get(name, _MISSING)
    patches.set(live, name, new)
    if old is not _MISSING:  # the same name imported from it by other modules
        for other in list(sys.modules.values()):
            if (
                other is not live
                and other is not None
                and other.__name__.startswith("horserace.")
                and other.__dict__.get(name) is old
                and (live.__name__, name) in _imported_names(getattr(other, "__file__", None) or "", other.__name__)
            ):
                patches.set(other, name, new)


@functools.cache
def _imported_names(path: str, module: str) -> frozenset[tuple[str, str]]:
    """The (module, name) pairs a module's source imports by ``from module import name``
    (relative imports resolved), under the name itself."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return frozenset()
    package = module if path.endswith("__init__.py") else module.rpartition(".")[0]
    out: set[tuple[str, str]] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.ImportFrom):
            continue
        if node.level:
            base = package.split(".")[: len(package.split(".")) - (node.level - 1)]
            source = ".".join([*base, node.module] if node.module else base)
        else:
            source = node.module or ""
        out.update((source, a.name) for a in node.names if a.asname in (None, a.name))
    return frozenset(out)


@functools.cache
def _built_at_import(path: str) -> tuple[tuple[Any, frozenset[str], tuple[str, ...], int], ...]:
    """A module's top-level assignments, as (code, the names its value reads, the names
    it binds, line): what it builds at import, to build again under a mutant."""
    try:
        tree = ast.parse(Path(path).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return ()
    out = []
    for stmt in tree.body:
        targets: list[ast.expr]
        if isinstance(stmt, ast.AnnAssign) and stmt.value is not None:
            targets, value = [stmt.target], stmt.value
        elif isinstance(stmt, ast.Assign):
            targets, value = list(stmt.targets), stmt.value
        else:
            continue
        bound: list[str] = []
        for t in targets:
            parts = t.elts if isinstance(t, ast.Tuple) else [t]
            if not all(isinstance(x, ast.Name) for x in parts):
                break
            bound.extend(x.id for x in parts if isinstance(x, ast.Name))
        else:
            reads = frozenset(n.id for n in ast.walk(value) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load))
            if reads:
                assign = ast.copy_location(ast.Assign(targets=targets, value=value), stmt)
                code = compile(ast.fix_missing_locations(ast.Module([assign], [])), path, "exec")
                out.append((code, reads, tuple(bound), stmt.lineno))
    return tuple(out)


class _BuildFails(Exception):
    """A value another module builds at import raises under the mutant."""


def _rebuild(patches: _Patches, module: str) -> list[str]:
    """Build again, under the mutant, every value that other modules of horserace built at
    import from what it changed (``observers._WRITTEN``, the table of written tiles built
    by :func:`horserace.engine.tiles.tile`), in the order the modules were imported (so a
    table built from a rebuilt table is rebuilt too), and put the ones that differ in, as
    a fresh import of the engine with the mutant would have them.  The module's own values
    come from its mutated namespace (:func:`_patch`).  The values built again that
    differ, by qualified name."""
    home = f"horserace.engine.{module}"
    rebuilt: list[str] = []
    live = _live_module(module)
    # Every function and class of the mutated module: one whose code is as it was may read
    # a constant that is not (``tile`` reads ``_INDEX``).
    patches.touched.update(id(v) for v in vars(live).values() if isinstance(v, (FunctionType, type)))
    for other in list(sys.modules.values()):
        name = getattr(other, "__name__", "")
        if other is None or name in (home, __name__) or not name.startswith("horserace."):
            continue
        path = getattr(other, "__file__", None)
        if not path or not path.endswith(".py"):
            continue
        namespace = vars(other)
        for code, reads, bound, line in _built_at_import(path):
            if not any(id(namespace.get(r, _MISSING)) in patches.touched for r in reads if r in namespace):
                continue
            scratch = dict(namespace)
            try:
                exec(code, scratch)  # noqa: S102  (a top-level assignment of our own module, built again under the mutant)
            except Exception as exc:  # noqa: BLE001  (mutated code may raise anything)
                raise _BuildFails(
                    f"{name} (line {line}) raises as it is imported: {type(exc).__name__}: {exc}"
                ) from None
            for b in bound:
                if b in namespace and _key(scratch[b], name) == _key(namespace[b], name):
                    continue
                _replace(patches, other, b, scratch[b])
                rebuilt.append(f"{name}.{b}")
    return rebuilt


@contextmanager
def applied(m: CodeMutant) -> Iterator[list[str]]:
    """The live engine with the mutant in it for the block, as it was after
    (whatever the block raises); the block is given the values other modules built at
    import that differ under the mutant (built again, :func:`_rebuild`)."""
    source = mutated_source(m)
    try:
        mns = _namespace(m.module, source)
    except SyntaxError as exc:
        raise NotApplied(f"does not compile: {exc.msg}") from None
    except Exception as exc:  # noqa: BLE001  (mutated code may raise anything: the module cannot be imported, every fixture fails)
        raise _FailsAtImport(f"the module raises on import: {type(exc).__name__}: {exc}") from None
    patches = _Patches()
    live = _live_module(m.module)
    try:
        if not _patch(patches, m.module, mns):
            raise _Equivalent("the module defines the same code and values with it: equivalent")
        try:
            rebuilt = _rebuild(patches, m.module)
        except _BuildFails as exc:  # a fresh import of the engine with the mutant fails
            raise _FailsAtImport(str(exc)) from None
        patches.set(live, _TESTING_NAME, _TestingException)
        _clear_caches()
        yield rebuilt
    finally:
        patches.undo()
        _clear_caches()


def _clear_caches() -> None:
    """Empty the memo caches of horserace's modules (``observers._with_target``, the
    rulesets of each target, filled as the corpus was loaded): made again under the
    mutant, and nothing made under it kept for the next.  Not the runner's own, nor the
    rule documents and schemas read from files."""
    for name, module in list(sys.modules.items()):
        if (
            module is None
            or not name.startswith("horserace.")
            or name == __name__
            or name.startswith("horserace.resources.")
        ):
            continue
        for v in list(vars(module).values()):
            if callable(v) and getattr(v, "__module__", None) == name and callable(getattr(v, "cache_clear", None)):
                v.cache_clear()


def engine_fingerprint() -> tuple[Any, ...]:
    """Every function's code and defaults, every class's attributes and every module
    value of the engine, by identity: equal before and after a mutant, or it leaked."""
    out: list[Any] = []
    for module in ENGINE_MODULES:
        live = _live_module(module)
        home = live.__name__
        for qn, f in sorted(_all_functions(live, home).items()):
            out.append((qn, f.__code__, f.__defaults__, f.__kwdefaults__))
        for name, v in sorted(vars(live).items()):
            out.append((module, name, id(v)))
            if isinstance(v, type) and v.__module__ == home:
                out.extend((module, name, k, id(x)) for k, x in sorted(vars(v).items()))
                for fname, fl in sorted(getattr(v, "__dataclass_fields__", {}).items()):
                    out.append((module, name, fname, id(fl.default)))
    for other in sorted(sys.modules):
        if other.startswith("horserace.") and sys.modules[other] is not None:
            out.extend((other, k, id(x)) for k, x in sorted(vars(sys.modules[other]).items()) if not k.startswith("__"))
    return tuple(out)


# ---------------------------------------------------------------------- coverage
def trace_corpus(fixtures: Sequence[Fixture]) -> dict[str, frozenset[tuple[str, int]]]:
    """For each fixture, the (module, line) of the engine its replay runs, and the first
    line of every engine function it calls, each replay from empty memo caches."""
    root = str(_ENGINE) + "/"
    by_file: dict[str, str] = {}
    out: dict[str, frozenset[tuple[str, int]]] = {}
    for fx in fixtures:
        hits: set[tuple[str, int]] = set()

        def tracer(frame: Any, event: str, arg: Any, hits: set[tuple[str, int]] = hits) -> Any:
            filename = frame.f_code.co_filename
            if not filename.startswith(root):
                return None
            module = by_file.get(filename) or by_file.setdefault(filename, Path(filename).stem)
            hits.add((module, frame.f_code.co_firstlineno))

            def lines(fr: Any, ev: str, a: Any, hits: set[tuple[str, int]] = hits) -> Any:
                if ev == "line":
                    hits.add((module, fr.f_lineno))
                return lines

            return lines

        _clear_caches()  # from cold, as a mutant's replay runs (a memo would hide lines)
        previous = sys.gettrace()
        sys.settrace(tracer)
        try:
            replay_fixture(fx)
        finally:
            sys.settrace(previous)
        out[fx.id] = frozenset(hits)
    return out


def covering(
    m: CodeMutant, fixtures: Sequence[Fixture], coverage: dict[str, frozenset[tuple[str, int]]]
) -> list[Fixture]:
    """The fixtures a mutant is judged by."""
    if m.scope == "<module>" or not m.def_line:
        return list(fixtures)  # module level: run at import, by every fixture
    where = (m.module, m.line if m.in_body else m.def_line)
    return [fx for fx in fixtures if where in coverage.get(fx.id, frozenset())]


# ---------------------------------------------------------------------- judging
class MutantTimeout(BaseException):
    """A mutant ran past its time bound (a BaseException: no ``except Exception`` in the
    engine or the replay swallows it)."""


@contextmanager
def _bounded(seconds: float) -> Iterator[None]:
    """Raise :class:`MutantTimeout` in this thread if the block runs longer than
    ``seconds`` (a loop that never ends included: an asynchronous exception, delivered
    between two bytecodes, in any thread)."""
    tid = threading.get_ident()
    lock = threading.Lock()
    state = {"done": False, "fired": False}
    stop = threading.Event()

    def watch() -> None:
        if not stop.wait(seconds):
            with lock:
                if not state["done"]:
                    state["fired"] = True
                    ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), ctypes.py_object(MutantTimeout))

    dog = threading.Thread(target=watch, name="horserace-mutant-bound", daemon=True)
    dog.start()
    raised = False
    try:
        yield
    except MutantTimeout:
        raised = True
        raise
    finally:
        stop.set()
        with lock:
            state["done"] = True
            fired = state["fired"]
        dog.join()
        if fired and not raised:
            ctypes.pythonapi.PyThreadState_SetAsyncExc(ctypes.c_ulong(tid), None)  # not delivered: cleared
            raise MutantTimeout


@dataclass(frozen=True)
class Outcome:
    """What the corpus did to one mutant.  ``status``: killed, survived, not-run (no
    fixture runs its line), not-applied (the runner cannot put it in: ``note`` says why),
    equivalent (the mutated module defines the same code and values: nothing to judge)."""

    mutant: CodeMutant
    status: str
    killers: tuple[str, ...] = ()
    judged_by: int = 0
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        out = self.mutant.to_dict() | {"status": self.status, "judged_by": self.judged_by}
        if self.killers:
            out["killers"] = list(self.killers)
        if self.note:
            out["note"] = self.note
        return out


def judge(
    m: CodeMutant,
    fixtures: Sequence[Fixture],
    *,
    all_killers: bool = False,
    bound: float = TIME_BOUND,
    every: Sequence[Fixture] = (),
) -> Outcome:
    """Replay ``fixtures`` (the ones that run the mutant's line) with the mutant in the
    engine: killed at the first fixture that does not pass (every one with
    ``all_killers``).  A mutant that changes a value another module built at import
    (:func:`_rebuild`), or makes it fail, is judged by ``every`` fixture: the value is
    read whatever lines a replay runs."""
    if not fixtures and not every:
        return Outcome(m, "not-run")
    with _ONE_AT_A_TIME:
        _settle(fixtures, every)
        return _judge(m, fixtures, all_killers, bound, every)


def _settle(*groups: Sequence[Fixture]) -> None:
    """Make, with the engine as it is, what each fixture computes once and keeps: its
    expected values in the canonical encoding and its twin's input (both read tiles
    through the engine). Made first under a mutant, they would be the mutant's, and the
    next mutants' too."""
    for group in groups:
        for fx in group:
            if isinstance(fx, Fixture):  # a test may judge by stand-ins
                fx.canonical_expected  # noqa: B018  (computed and kept by the property)
                fx.twin_input  # noqa: B018


#: One mutant in the live engine at a time, whatever the threads (a Dask worker's).
_ONE_AT_A_TIME = threading.Lock()


def _judge(
    m: CodeMutant, fixtures: Sequence[Fixture], all_killers: bool, bound: float, every: Sequence[Fixture]
) -> Outcome:
    killers: list[str] = []
    try:
        with applied(m) as rebuilt:
            if rebuilt and every:
                fixtures = every
            if not fixtures:
                return Outcome(m, "not-run")
            try:
                with _bounded(bound):
                    for fx in fixtures:
                        try:
                            status = replay_fixture(fx).status
                        except Exception:  # noqa: BLE001  (mutated code may raise anything: a mutant that crashes is told apart by the fixture)
                            status = Status.CRASH
                        if status not in (Status.PASS, Status.SKIP):
                            killers.append(fx.id)
                            if not all_killers:
                                break
            except MutantTimeout:
                return Outcome(m, "killed", (*killers, "timeout"), len(fixtures), note=f"ran past {bound:g} s")
    except NotApplied as exc:
        return Outcome(m, "not-applied", note=str(exc))
    except _FailsAtImport as exc:
        return Outcome(m, "killed", ("import",), len(every or fixtures), note=str(exc))
    except _Equivalent as exc:
        return Outcome(m, "equivalent", note=str(exc))
    return Outcome(m, "killed" if killers else "survived", tuple(killers), len(fixtures))


def judge_all(
    mutants: Sequence[CodeMutant],
    fixtures: Sequence[Fixture],
    coverage: dict[str, frozenset[tuple[str, int]]],
    *,
    full: frozenset[str] = frozenset(),
    done: Callable[[Outcome], None] | None = None,
) -> list[Outcome]:
    """Judge each mutant by the fixtures that run its line (every killer of the mutants
    whose key is in ``full``, to check a triage's ``killed-by``)."""
    out = []
    for m in mutants:
        o = judge(m, covering(m, fixtures, coverage), all_killers=m.key in full, every=fixtures)
        out.append(o)
        if done is not None:
            done(o)
    return out


# ---------------------------------------------------------------------- a campaign
@dataclass
class Campaign:
    outcomes: list[Outcome]
    enumerated: int  #: mutants of the modules asked for, before sampling
    fixtures: int
    seconds: float = 0.0
    triage: dict[str, dict[str, Any]] = field(default_factory=dict)

    def by(self, status: str) -> list[Outcome]:
        return [o for o in self.outcomes if o.status == status]


def select(modules: Sequence[str] | None, sample: int | None, seed: int) -> tuple[list[CodeMutant], int]:
    """The mutants of ``modules`` (default: the whole engine), and a sample of ``sample``
    of them drawn with ``seed`` (in the order of the modules, then the mutants)."""
    chosen = list(modules or ENGINE_MODULES)
    unknown = [m for m in chosen if m not in ENGINE_MODULES]
    if unknown:
        raise UsageError(f"horserace: no engine module {', '.join(unknown)}; choose from {', '.join(ENGINE_MODULES)}")
    every = [m for module in chosen for m in enumerate_mutants(module)]
    if sample is None or sample >= len(every):
        return every, len(every)
    picked = sorted(random.Random(seed).sample(range(len(every)), sample))
    return [every[i] for i in picked], len(every)


def run_campaign(
    mutants: Sequence[CodeMutant],
    fixtures: Sequence[Fixture],
    *,
    enumerated: int,
    jobs: int = 1,
    full: frozenset[str] = frozenset(),
    done: Callable[[Outcome], None] | None = None,
    coverage: dict[str, frozenset[tuple[str, int]]] | None = None,
    bound: float = TIME_BOUND,
) -> Campaign:
    """Judge ``mutants`` on this machine in ``jobs`` worker processes
    (:func:`supervised`)."""
    start = time.perf_counter()
    if coverage is None:
        coverage = trace_corpus(fixtures)
    outcomes = supervised(mutants, fixtures, coverage, jobs=jobs, full=full, done=done, bound=bound)
    return Campaign(outcomes, enumerated, len(fixtures), time.perf_counter() - start)


#: Seconds past a mutant's bound before its worker is killed (the bound inside the
#: worker stops a loop of Python; this, one in C: a mutant that makes ``a & b`` into
#: ``a ** b`` on masks of 28 bits).
_GRACE = 2.0
#: Address space a worker may add to what it has when it starts: a mutant that builds an
#: enormous number or list fails with a MemoryError (killed) rather than fill the machine.
_MEMORY = 1 << 30


class _Worker:
    """A process forked from this one (so the corpus and the engine are loaded, no
    start-up paid) that judges one mutant at a time, in its own process, as it is sent
    them."""

    def __init__(
        self,
        fixtures: Sequence[Fixture],
        coverage: dict[str, frozenset[tuple[str, int]]],
        full: frozenset[str],
        bound: float,
    ) -> None:
        mine, theirs = multiprocessing.Pipe()
        pid = os.fork()
        if pid == 0:  # the worker
            mine.close()
            signal.signal(signal.SIGINT, signal.SIG_IGN)  # the campaign's process stops it
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGHUP, signal.SIG_DFL)
            try:
                _limit_memory()
                while (m := theirs.recv()) is not None:
                    theirs.send(
                        judge(
                            m,
                            covering(m, fixtures, coverage),
                            all_killers=m.key in full,
                            bound=bound,
                            every=fixtures,
                        )
                    )
            except BaseException:  # noqa: BLE001, S110  (the forked judge must reach os._exit whatever happens; its outcomes went through the pipe)
                pass
            finally:
                os._exit(0)
        theirs.close()
        self.pid, self.conn = pid, mine
        self.busy: tuple[int, float] | None = None  # the mutant's index and the deadline

    def send(self, index: int, m: CodeMutant, deadline: float) -> None:
        self.busy = (index, deadline)
        self.conn.send(m)

    def end(self) -> None:
        with suppress(ProcessLookupError):
            os.kill(self.pid, signal.SIGKILL)
        with suppress(ChildProcessError):
            os.waitpid(self.pid, 0)
        self.conn.close()


def _limit_memory() -> None:
    with Path("/proc/self/statm").open(encoding="ascii") as f:
        size = int(f.read().split()[0]) * resource.getpagesize()
    resource.setrlimit(resource.RLIMIT_AS, (size + _MEMORY, resource.RLIM_INFINITY))


def supervised(
    mutants: Sequence[CodeMutant],
    fixtures: Sequence[Fixture],
    coverage: dict[str, frozenset[tuple[str, int]]],
    *,
    jobs: int = 1,
    full: frozenset[str] = frozenset(),
    done: Callable[[Outcome], None] | None = None,
    bound: float = TIME_BOUND,
) -> list[Outcome]:
    """Each mutant's outcome, judged in ``jobs`` forked workers (:class:`_Worker`), one
    mutant at a time each; a worker that passes a mutant's bound by :data:`_GRACE`, or
    dies, is killed and replaced, and the mutant is killed (``timeout``, ``crash``).
    Every worker is ended on the way out, whatever ends the campaign."""
    results: list[Outcome | None] = [None] * len(mutants)
    todo = list(range(len(mutants)))[::-1]
    workers: list[_Worker] = []

    def finish(i: int, o: Outcome) -> None:
        results[i] = o
        if done is not None:
            done(o)

    try:
        workers = [_Worker(fixtures, coverage, full, bound) for _ in range(max(1, min(jobs, len(mutants))))]
        while todo or any(w.busy for w in workers):
            busy = _dispatch(workers, todo, mutants, bound)
            wait_for = max(0.0, min(w.busy[1] for w in busy if w.busy) - time.monotonic())
            ready = multiprocessing.connection.wait([w.conn for w in busy], timeout=wait_for)
            for k, w in enumerate(workers):
                if w.busy is None:
                    continue
                i = w.busy[0]
                heard = _heard(w, ready, bound)
                if isinstance(heard, Outcome):
                    w.busy = None
                    finish(i, heard)
                elif heard is not None:
                    w.end()
                    workers[k] = _Worker(fixtures, coverage, full, bound)
                    finish(
                        i, Outcome(mutants[i], "killed", ("timeout" if "ran past" in heard else "crash",), note=heard)
                    )
    finally:
        for w in workers:
            w.end()
    return [o for o in results if o is not None]


def _dispatch(workers: list[_Worker], todo: list[int], mutants: Sequence[CodeMutant], bound: float) -> list[_Worker]:
    """The next mutants of ``todo`` (taken from its end) sent to the idle workers; the busy workers."""
    for w in workers:
        if w.busy is None and todo:
            i = todo.pop()
            w.send(i, mutants[i], time.monotonic() + bound + _GRACE)
    return [w for w in workers if w.busy]


def _heard(w: _Worker, ready: Sequence[Any], bound: float) -> Outcome | str | None:
    """What a busy worker has to say: its mutant's outcome; why it must be killed and
    replaced (it died, or ran past its deadline); or nothing yet (None)."""
    assert w.busy is not None
    deadline = w.busy[1]
    if w.conn in ready:
        try:
            outcome: Outcome | None = w.conn.recv()
        except (EOFError, OSError):
            outcome = None
        return outcome if outcome is not None else "its worker died (killed)"
    if time.monotonic() >= deadline:
        return f"ran past {bound:g} s in C code: its worker was killed"
    return None


# ---------------------------------------------------------------------- the triage
#: The committed verdicts on the survivors of the whole engine's campaign.
TRIAGE_FILE = Path(__file__).resolve().parent / "mutation_triage.yaml"
#: The verdicts a survivor may have.
VERDICTS = ("equivalent", "out-of-reach", "killed-by", "open")
_IDENTITY = ("module", "scope", "operator", "nth", "code")


def entry_key(entry: dict[str, Any]) -> str:
    return "|".join(str(entry[k]) for k in _IDENTITY)


def load_triage(path: Path | None = None) -> dict[str, dict[str, Any]]:
    """The triage file's entries by mutant key (an :class:`~horserace.errors.InputError`
    for one that is malformed)."""
    where = path or TRIAGE_FILE
    try:
        data = yaml.safe_load(where.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError) as exc:
        raise InputError(f"cannot read the triage file: {exc}", file=str(where)) from None
    out: dict[str, dict[str, Any]] = {}
    for i, entry in enumerate(data.get("survivors") or []):
        missing = [k for k in (*_IDENTITY, "verdict") if k not in entry]
        if missing or entry["verdict"] not in VERDICTS:
            raise InputError(
                f"survivors[{i}]: needs {', '.join(missing) or 'a verdict'} (verdicts: {', '.join(VERDICTS)})",
                file=str(where),
            )
        need = {"equivalent": "check", "out-of-reach": "why", "killed-by": "fixture", "open": "why"}[entry["verdict"]]
        if not entry.get(need):
            raise InputError(f"survivors[{i}]: a verdict {entry['verdict']} says its {need}", file=str(where))
        out[entry_key(entry)] = entry
    return out


def summary(campaign: Campaign, triage: dict[str, dict[str, Any]], *, whole: bool) -> dict[str, Any]:
    """The score on the lines the corpus runs, the rest apart, each survivor with its
    verdict and diff, and the triage entries this campaign shows stale (every entry for
    the modules asked, when ``whole``: the campaign was not a sample)."""
    o = campaign.outcomes
    survived = [x for x in o if x.status == "survived"]
    verdict = {x.mutant.key: triage.get(x.mutant.key, {}).get("verdict") for x in survived}
    reach = [x for x in survived if verdict[x.mutant.key] == "out-of-reach"]
    not_applied = [x for x in o if x.status == "not-applied"]
    return {
        "operators": "cosmic-ray core operators",
        "mutants": len(o),
        "enumerated": campaign.enumerated,
        "fixtures": campaign.fixtures,
        "seconds": round(campaign.seconds, 1),
        "covered": _covered(o, verdict),
        "not_run": len([x for x in o if x.status == "not-run"]),
        "same_definitions": len([x for x in o if x.status == "equivalent"]),
        "not_applied": len(not_applied),
        "out_of_reach_share": round(len(reach) / len(o), 4) if o else 0.0,
        "survivors": [_survivor(x, verdict[x.mutant.key], triage) for x in survived],
        "not_run_mutants": [x.to_dict() for x in o if x.status == "not-run"],
        "not_applied_mutants": [x.to_dict() for x in not_applied],
        "stale": _stale(o, triage, whole=whole),
    }


def _survivor(x: Outcome, verdict: str | None, triage: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """A survivor as the report shows it: its outcome, verdict, diff and the triage's words."""
    words = {k: v for k, v in triage.get(x.mutant.key, {}).items() if k in ("check", "why", "fixture")}
    return x.to_dict() | {"verdict": verdict or "untriaged", "diff": diff_of(x.mutant)} | words


def _covered(o: Sequence[Outcome], verdict: dict[str, str | None]) -> dict[str, Any]:
    """The score on the lines the corpus runs: killed of the judged, less the equivalent
    (``score``); and the goal's figure, ``score_within_reach``: killed of those, less the
    out of reach too (counted and listed beside it, never as killed)."""
    killed = [x for x in o if x.status == "killed"]
    survived = [x for x in o if x.status == "survived"]
    equivalent = [x for x in survived if verdict[x.mutant.key] == "equivalent"]
    out_of_reach = [x for x in survived if verdict[x.mutant.key] == "out-of-reach"]
    judged = len(killed) + len(survived)
    non_equivalent = judged - len(equivalent)
    within_reach = non_equivalent - len(out_of_reach)
    return {
        "judged": judged,
        "killed": len(killed),
        "survived": len(survived),
        "equivalent": len(equivalent),
        "out_of_reach": len(out_of_reach),
        "untriaged": len([x for x in survived if verdict[x.mutant.key] in (None, "open", "killed-by")]),
        "score": round(len(killed) / non_equivalent, 4) if non_equivalent else None,
        "within_reach": within_reach,
        "score_within_reach": round(len(killed) / within_reach, 4) if within_reach else None,
    }


def _stale(o: Sequence[Outcome], triage: dict[str, dict[str, Any]], *, whole: bool) -> list[dict[str, Any]]:
    """The triage entries this campaign shows stale (every entry for the modules asked,
    when ``whole``), each with why."""
    stale: list[dict[str, Any]] = []
    by_key = {x.mutant.key: x for x in o}
    modules = {y.mutant.module for y in o}
    for key, entry in triage.items():
        x = by_key.get(key)
        why = (
            _stale_why(x, entry)
            if x is not None
            else "no such mutant in the campaign"
            if whole and entry["module"] in modules
            else None
        )
        if why is not None:
            stale.append({"entry": key, "why": why})
    return stale


def _stale_why(x: Outcome, entry: dict[str, Any]) -> str | None:
    """Why a triage entry disagrees with its mutant's outcome, or None."""
    if x.status == "killed" and entry["verdict"] != "killed-by":
        return f"now killed by {', '.join(x.killers[:3])}: say killed-by"
    if x.status == "killed" and str(entry.get("fixture")) not in x.killers:
        return f"killed, but not by {entry.get('fixture')} ({', '.join(x.killers[:3])})"
    if x.status == "survived" and entry["verdict"] == "killed-by":
        return f"survives: {entry.get('fixture')} does not kill it"
    return None
