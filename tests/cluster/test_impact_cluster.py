"""An impact study on a ``LocalCluster`` (tests/cluster/conftest.py): its shards, merged by
task, give exactly the study of one process, and the output says where it ran, with each
worker's rate in matches."""

from __future__ import annotations

import json

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.cluster.impact import impact_on, shard_matches
from horserace.engine.seating import Seating
from horserace.quality.impact import study
from horserace.resources.rulesets import resolve

pytest.importorskip("scipy", reason="the impact extra (NumPy, SciPy) is not installed")


def test_the_study_on_the_cluster_is_the_study_of_one_process(client):
    a, b = resolve("canonical"), resolve("one-branch")
    seatings = (Seating(2), Seating(4, partnership=True))
    local = study(a, b, matches=40, seed=6, seatings=seatings)
    remote, ran = impact_on(client, "local:2", a, b, matches=40, seed=6, seatings=seatings, shard_size=9)
    assert ran.tasks == 2 * 5 and sum(s.units for s in ran.shares.values()) == 2 * 2 * 40
    for seating in seatings:
        assert remote.tallies[seating].same_as(local.tallies[seating])
    assert remote.stopped_by is None and remote.shards_run == remote.shards == 10


def test_impact_cluster_says_where_it_ran(client, capsys):
    address = client.scheduler.address
    code = main(
        [
            "impact",
            "--rules",
            "canonical",
            "--rules",
            "canonical",
            "--matches",
            "10",
            "--players",
            "3",
            "--cluster",
            address,
            "--format",
            "json",
        ]
    )
    assert code == ExitCode.OK
    data = json.loads(capsys.readouterr().out)
    assert data["cluster"]["unit"] == "matches" and data["cluster"]["tasks"] == 1
    assert sum(w["units"] for w in data["cluster"]["per_worker"].values()) == 20
    assert all(r["difference"] == 0 for r in data["rows"])


def test_shards_on_a_cluster_give_each_worker_four():
    """Matches per shard: enough for 4 shards a worker, from 50 (a local run's) to 2,000
    (some 4 s of play a task); given, as given."""
    assert shard_matches(1000, 4, 2) == 500  # 4,000 matches a side / (2 workers x 4)
    assert shard_matches(40, 2, 2) == 50
    assert shard_matches(25_000_000, 4, 32) == 2000  # 10^8 matches a side on 32 workers: 50,000 tasks
    assert shard_matches(1000, 4, 2, 7) == 7
