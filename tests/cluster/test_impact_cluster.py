"""An impact study on a ``LocalCluster`` (tests/cluster/conftest.py): its shards, merged by
task, give exactly the study of one process, and the output says where it ran, with each
worker's rate in matches."""

from __future__ import annotations

import json

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.cluster.impact import impact_on
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
        ["impact", "--rules", "canonical", "--rules", "canonical", "--matches", "10", "--players", "3"]
        + ["--cluster", address, "--format", "json"]
    )
    assert code == ExitCode.OK
    data = json.loads(capsys.readouterr().out)
    assert data["cluster"]["unit"] == "matches" and data["cluster"]["tasks"] == 1
    assert sum(w["units"] for w in data["cluster"]["per_worker"].values()) == 20
    assert all(r["difference"] == 0 for r in data["rows"])
