"""``horserace conform`` as the ``horserace`` command runs it, under a memory limit.

    python limited_conform.py LIMIT_BYTES OUT.json CONFORM-ARGS...

The address-space limit (``RLIMIT_AS``) is set on this process before horserace is
imported (the implementations it starts inherit it too); at the end the exit code and
this process's own peak resident memory (VmHWM) are written to OUT.json for the hostile suite.
"""

from __future__ import annotations

import json
import resource
import sys
from pathlib import Path

limit, out, argv = int(sys.argv[1]), sys.argv[2], sys.argv[3:]
resource.setrlimit(resource.RLIMIT_AS, (limit, limit))

from horserace.cli.main import main  # noqa: E402  (after the limit)

code = main(["conform", *argv], own_process=True)
# VmHWM, the peak of this process's own memory: ru_maxrss would count the parent's
# resident memory at the fork that started it (Linux keeps it across exec).
with Path("/proc/self/status").open(encoding="ascii") as status:
    peak_kib = next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))
with Path(out).open("w", encoding="utf-8") as f:
    json.dump({"exit": code, "peak_kib": peak_kib}, f)
sys.exit(code)
