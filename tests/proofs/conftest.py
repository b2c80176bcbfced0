"""The Z3 proofs need the optional dependency z3-solver (``pip install horserace[verify]``);
without it this folder is not collected."""

from importlib.util import find_spec

collect_ignore_glob = [] if find_spec("z3") is not None else ["test_*.py"]
