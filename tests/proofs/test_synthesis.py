"""Scenario synthesis with Z3 (horserace.verify.synthesis): the generated fixtures load
without errors (schema and semantic checks, horserace.corpus.loader) and replay green against
the reference engine; each shows what the solver was asked for."""

from __future__ import annotations

import pytest
import yaml

from horserace.corpus.loader import load_paths
from horserace.corpus.replay import replay_fixture
from horserace.engine.settlement import hand_credit
from horserace.verify import synthesis

pytestmark = pytest.mark.proof


@pytest.fixture(scope="module")
def generated(tmp_path_factory):
    root = tmp_path_factory.mktemp("synth")
    paths = synthesis.synthesize_all(root)
    corpus = load_paths(paths)
    return paths, corpus


def test_written_under_a_folder_named_generated(generated):
    paths, corpus = generated
    assert [p.parent.name for p in paths] == ["generated"]
    text = paths[0].read_text(encoding="utf-8")
    assert "&" not in text.replace("&&", "") and "*id" not in text  # no anchors, no aliases
    assert len(yaml.safe_load(text)) == 3


def test_they_load_without_errors(generated):
    _, corpus = generated
    assert corpus.errors == [], "\n".join(e.render() for e in corpus.errors)
    assert sorted(fx.kind for fx in corpus.fixtures) == ["layout", "play", "settlement"]
    assert all(fx.origin == "generated" and "solver was asked" in fx.why for fx in corpus.fixtures)


def test_they_replay_green(generated):
    _, corpus = generated
    for fx in corpus.fixtures:
        result = replay_fixture(fx)
        assert result.status == "pass", (fx.id, fx.kind, result.message, [d.to_dict() for d in result.differences])


def _by_kind(corpus, kind):
    return next(fx for fx in corpus.fixtures if fx.kind == kind)


def test_settlement_three_way_tie_two_cross(generated):
    fx = _by_kind(generated[1], "settlement")
    exp, inp = fx.expected, fx.input
    assert inp["ended_by"] == "blocked" and inp["seats"] == 4
    assert len(exp["winners"]) == 3 and len(exp["match_winners"]) == 2
    assert set(exp["match_winners"]) < set(exp["winners"])
    left_short = (set(exp["winners"]) - set(exp["match_winners"])).pop()
    assert exp["scores"][left_short] == 60
    credits = {exp["credits"][s] for s in exp["winners"]}
    assert len(credits) == 1 and credits.pop() == hand_credit(
        sum(sum(int(t[1]) + int(t[3]) for t in h) for h in inp["hands"])
        - sum(int(t[1]) + int(t[3]) for t in inp["hands"][exp["winners"][0]])
    )


def test_layout_three_interior_spinners_each_with_an_unstarted_branch(generated):
    fx = _by_kind(generated[1], "layout")
    final = fx.expected["steps"][-1]
    assert len(final["spinners"]) == 3
    counted_doubles = [c for c in final["contributions"] if "port" not in c]
    assert counted_doubles == []  # all three interior (HR-COUNT-3)
    for spinner in final["spinners"]:
        branches = [p["port"] for p in final["attachment_points"] if p["tile"] == spinner]
        assert branches == ["branch-b"]  # branch A started, branch B unstarted
    assert final["sum"] > 0 and final["sum"] % 5 == 0 and final["credit_raw"] == final["sum"]


def test_play_reaches_61_exactly(generated):
    fx = _by_kind(generated[1], "play")
    events = fx.expected["hands"][0]["events"]
    place = events[0]
    before = fx.input["scores"][0]
    assert place["credit"] == 61 - before and place["continues"] is False
    assert [e["event"] for e in events] == ["place", "hand-end", "match-end"]
    assert events[1]["reason"] == "match" and fx.expected["scores"][0] == 61


def test_synthesize_command(tmp_path, capsys):
    from horserace.cli import main
    from horserace.corpus.loader import load_paths

    assert main(["synthesize", "--out", str(tmp_path)]) == 0
    corpus = load_paths([tmp_path])
    assert corpus.errors == [] and len(corpus.fixtures) == 3
    assert all(fx.origin == "generated" for fx in corpus.fixtures)
    assert "review it" in capsys.readouterr().out
