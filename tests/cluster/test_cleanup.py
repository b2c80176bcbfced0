"""A cluster worker ends what each implementation process started when its shard is
done: a correct implementation's detached daemon (setsid, an empty environment) serves
its shard, and nothing is left running after the campaign."""

from __future__ import annotations

import sys
import time
from pathlib import Path

import pytest

from horserace.cluster.fuzz import fuzz_on
from horserace.quality.fuzz import Plan
from tests.cluster.conftest import WAIT
from tests.helpers import alive

pytestmark = [
    pytest.mark.slow,  # a cluster of two worker processes
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]

FAKE = Path(__file__).resolve().parents[1] / "conformance" / "fake_impl.py"


def test_the_daemons_of_the_implementation_end_with_their_shards(client, tmp_path):
    pids = tmp_path / "pids"
    argv = ["env", f"FAKE_PID_FILE={pids}", sys.executable, str(FAKE), "keeps-daemon", "-"]
    plan = Plan(kinds=("settlement",))
    result, ran = fuzz_on(client, "test", argv, 0, 8, plan=plan, shard_size=4, out_dir=tmp_path, timeout=WAIT)
    assert result.findings == [] and ran.tasks == 2  # every answer through its daemon
    daemons = [int(line) for line in pids.read_text().split()]
    assert len(daemons) == 2  # one implementation process a shard
    deadline = time.monotonic() + 2  # a kill is seen in the process table a moment later
    while any(alive(pid) for pid in daemons) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert [pid for pid in daemons if alive(pid)] == []
