"""``horserace perft`` for bisecting a disagreement, as chess perft tools do: ``--moves``
descends named moves before counting, ``--impl`` asks an implementation for its own count
and divide through the protocol and tables both, the first differing move marked; the
perft tables by name (``--tables``, ``--table NAME``, ``table:NAME``)."""

from __future__ import annotations

import json
import os
import random
import shlex
import sys
import textwrap
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode
from horserace.corpus import positions
from horserace.corpus.observers import decision_name, perft_position
from horserace.engine.perft import decisions, make_decision
from horserace.engine.ruleset import CANONICAL
from horserace.quality.mutants import MUTANTS
from horserace.resources.paths import perft_tables
from tests.quality.served import served_argv

REFERENCE = "horserace serve"
ROOT = Path(__file__).resolve().parents[2]


def perft_json(capsys, *argv: str, code: ExitCode = ExitCode.OK) -> dict:
    assert main(["perft", *argv, "--format", "json"]) == code
    return json.loads(capsys.readouterr().out)


def served(*deviations: str) -> str:
    """The --impl command of the reference engine with named deviations, served through
    the protocol (tests/quality/served.py)."""
    return shlex.join(served_argv(*deviations))


# ---------------------------------------------------------------------- --moves
def test_each_first_move_descended_counts_its_share_of_the_divide(capsys):
    top = perft_json(capsys, "K5N2P7", "--depth", "5", "--divide")
    for move, share in top["divide"].items():
        below = perft_json(capsys, "K5N2P7", "--moves", move, "--depth", "4", "--divide")
        assert below["nodes"] == share and below["moves"] == [move]
        assert below["position"] == top["position"]
        first = next(iter(below["divide"]))
        deeper = perft_json(capsys, "K5N2P7", "--moves", f"{move},{first}", "--depth", "3")
        assert deeper["nodes"] == below["divide"][first]


def test_the_depth_defaults_to_the_fixtures_less_the_moves_made(capsys):
    own = perft_json(capsys, "CSBZVK", "--divide")  # its own depth, 2
    move = next(iter(own["divide"]))
    assert perft_json(capsys, "CSBZVK", "--moves", move)["depth"] == own["depth"] - 1 == 1


def test_a_move_is_read_as_a_divide_writes_it_halves_and_spaces_aside(capsys):
    share = perft_json(capsys, "seed:1", "--depth", "3", "--divide")["divide"]["[0|6]"]
    assert perft_json(capsys, "seed:1", "--depth", "2", "--moves", " [6|0] ")["nodes"] == share


def test_the_text_names_the_moves_descended(capsys):
    assert main(["perft", "seed:1", "--depth", "2", "--moves", "[0|6]", "--divide"]) == ExitCode.OK
    assert capsys.readouterr().out.startswith("perft seed:1:players=2 after [0|6], depth 2, canonical readings\n")


def test_an_illegal_move_is_named_with_its_place_and_the_legal_moves_closest_first(capsys):
    assert main(["perft", "seed:1", "--depth", "2", "--moves", "[0|6],[0|5] [0|6] high"]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "move 2 of 2, '[0|5] [0|6] high', is not a legal move after [0|6] (seat 1 to act)" in err
    listed = err.split("closest first: ", 1)[1].strip()
    assert listed.startswith("'[0|5] [0|6] low'")  # the port mistyped: its move first
    assert {m.strip("'") for m in listed.split(", ")} == {
        "[0|0] [0|6] low",
        "[0|3] [0|6] low",
        "[0|5] [0|6] low",
        "[2|6] [0|6] high",
    }
    assert "Traceback" not in err
    assert main(["perft", "seed:1", "--depth", "2", "--moves", "[1|1]"]) == ExitCode.USAGE
    assert "move 1 of 1, '[1|1]', is not a legal move at the position (seat 0 to act)" in capsys.readouterr().err
    assert main(["perft", "seed:1", "--depth", "2", "--moves", "[0|6],,[0|5]"]) == ExitCode.USAGE
    assert "an empty move" in capsys.readouterr().err


def test_a_fixture_depth_used_up_by_the_moves_needs_a_depth(capsys):
    assert main(["perft", "WVVQ6S", "--moves", "[1|3] [3|3] linear-a,[3|5] [3|3] linear-a"]) == ExitCode.USAGE
    assert "leaves nothing to count below 2 move(s); give --depth N" in capsys.readouterr().err


def _random_descents(seed: int):
    """(position, moves, ruleset) from random walks of one to four moves, on seeded deals
    of every table and under readings where a turn can stop in its middle."""
    rng = random.Random(seed)
    readings = [
        CANONICAL,
        CANONICAL.with_variant("continuation", "optional"),
        CANONICAL.with_variant("drawn_tile_scope", "whole-hand"),
        CANONICAL.with_variant("continuation_without_tile", "end-turn"),
        CANONICAL.with_variant("block_detection", "round-of-passes"),
    ]
    for ruleset in readings:
        for players, partnership in ((2, False), (3, False), (4, False), (4, True)):
            for deal in range(3):
                position = positions.from_seed(positions.SeedName(deal, players, partnership), ruleset)
                for _ in range(4):
                    hand = perft_position(position.input, ruleset)
                    moves: list[str] = []
                    for _ in range(rng.randint(1, 6)):
                        hand.play_forced()
                        options = [] if hand.over else decisions(hand)
                        if not options:
                            break
                        move = rng.choice(options)
                        make_decision(hand, move)
                        moves.append(decision_name(move))
                    yield position, moves, ruleset


def test_a_descended_position_written_out_counts_what_the_descent_counts():
    """The position sent through the protocol after the moves (a perft input with the
    layout so far, opener the seat to act) has the tree the descended hand has, at every
    depth tried; where a turn is left in its middle in a way such an input cannot say
    (a continuation that may be given up, a tile drawn earlier under whole-hand), it is
    not written, and the reason says so."""
    written = unwritten = 0
    for position, moves, ruleset in _random_descents(7):
        descent = positions.descend(position, moves, ruleset)
        if descent.written is None:
            unwritten += 1
            assert descent.unwritten
            continue
        written += 1
        assert "depth" not in descent.written.input
        for depth in (1, 2, 3):
            here = positions.count(position, depth, ruleset, moves=moves)
            sent = positions.count(descent.written, depth, ruleset)
            assert (sent.nodes, sent.divide) == (here.nodes, here.divide), (position.label, moves, depth)
    assert written > 200 and unwritten > 10, (written, unwritten)


# ---------------------------------------------------------------------- --impl
def test_the_reference_served_agrees_with_itself(capsys):
    doc = perft_json(capsys, "K5N2P7", "--depth", "5", "--impl", REFERENCE)
    assert doc["agree"] is True and doc["first_difference"] is None and doc["next"] is None
    assert doc["implementation"]["name"] == "horserace-reference"
    assert doc["nodes"] == {"reference": 252, "implementation": 252}
    assert all(not row["differs"] and row["reference"] == row["implementation"] for row in doc["divide"])
    assert doc["sent"]["depth"] == 5 and "layout" not in doc["sent"]
    assert main(["perft", "K5N2P7", "--depth", "5", "--impl", REFERENCE]) == ExitCode.OK
    out = capsys.readouterr().out
    assert "*" not in out and "the counts agree (horserace-reference 0.1.0, 252 nodes)" in out


def test_a_descended_position_is_sent_with_its_layout(capsys):
    doc = perft_json(capsys, "K5N2P7", "--depth", "3", "--moves", "[0|3]", "--impl", REFERENCE)
    assert doc["agree"] is True and doc["moves"] == ["[0|3]"]
    assert doc["sent"]["layout"] == [{"tile": "[0|3]"}] and doc["sent"]["depth"] == 3


#: A deviation that miscounts perft: a spinner's branches open as soon as it is placed.
MISCOUNTS = "branches-before-linear"


def test_a_deviation_that_miscounts_is_tabled_with_its_first_difference_marked(capsys):
    engine = MUTANTS[MISCOUNTS].engine
    position = positions.from_fixture(next(fx for fx in _perft_fixtures() if fx.id == "K5N2P7"))
    theirs = positions.count(position, 4, engine=engine).divide  # what the deviation counts, in this process
    ours = positions.count(position, 4).divide
    first = next(m for m in sorted({*ours, *theirs}, key=list(ours).index) if ours.get(m) != theirs.get(m))

    doc = perft_json(capsys, "K5N2P7", "--depth", "4", "--impl", served(MISCOUNTS), code=ExitCode.FAILURES)
    assert doc["agree"] is False and doc["first_difference"] == first
    assert {row["move"]: row["implementation"] for row in doc["divide"]} == theirs
    assert {row["move"]: row["reference"] for row in doc["divide"]} == ours
    assert [row["move"] for row in doc["divide"] if row["differs"]] == [m for m in ours if ours[m] != theirs[m]]

    assert main(["perft", "K5N2P7", "--depth", "4", "--impl", served(MISCOUNTS)]) == ExitCode.FAILURES
    out = capsys.readouterr().out
    (marked,) = [line for line in out.splitlines() if "first difference" in line]
    assert marked.startswith(f"* {first} ") and marked.split()[-3:-2] != []
    assert f"the counts differ: {sum(ours[m] != theirs[m] for m in ours)} of {len(ours)} first move(s)" in out
    assert all(
        line.startswith("* ") == ("differs" in line or "first difference" in line) for line in out.splitlines()[2:-3]
    )

    # The command it gives descends the first difference: there, the implementation's
    # nodes are its share of that move one move up.
    (descend,) = [line.removeprefix("descend it: ") for line in out.splitlines() if line.startswith("descend it: ")]
    assert descend == doc["next"]
    argv = shlex.split(descend)
    assert argv[:2] == ["horserace", "perft"] and "--moves" in argv and argv[argv.index("--depth") + 1] == "3"
    below = perft_json(capsys, *argv[2:], code=ExitCode.FAILURES)
    assert below["moves"] == [first]
    assert below["nodes"] == {"reference": ours[first], "implementation": theirs[first]}


def test_moves_one_side_lacks_are_rows_of_their_own(capsys):
    """Under a house rule that counts a mirror-image port as a move of its own, the
    implementation has moves the reference does not (HR-MOVE-2)."""
    doc = perft_json(capsys, "WVVQ6S", "--impl", served("mirror-moves-distinct"), code=ExitCode.FAILURES)
    only_theirs = [row for row in doc["divide"] if row["reference"] is None]
    assert only_theirs and all(row["move"].endswith("linear-b") and row["differs"] for row in only_theirs)
    assert doc["first_difference"] == only_theirs[0]["move"] and doc["next"] is None
    assert main(["perft", "WVVQ6S", "--impl", served("mirror-moves-distinct")]) == ExitCode.FAILURES
    out = capsys.readouterr().out
    assert "first difference: only the implementation has this move" in out
    assert "counts a move the reference engine does not have there" in out


def test_a_position_left_in_the_middle_of_a_turn_is_not_sent(capsys):
    argv = ["perft", "seed:1", "--depth", "3", "--moves", "[6|6]", "--variant", "continuation=optional"]
    assert main([*argv, "--impl", REFERENCE]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "after [6|6] seat 0 is in the middle of its turn (in a continuation it may give up, HRI-2)" in err
    assert main(argv) == ExitCode.OK  # the reference alone counts there
    capsys.readouterr()


def _script(tmp_path, body: str) -> str:
    path = tmp_path / "impl.py"
    path.write_text(textwrap.dedent(body), encoding="utf-8")
    return shlex.join([sys.executable, str(path)])


HELLO = '{"type": "hello", "protocol": "1.2", "name": "broken", "version": "1", "language": "Python", "kinds": KINDS}'


def test_a_broken_implementation_is_a_clear_error_and_its_process_is_stopped(tmp_path, capsys):
    pid_file = tmp_path / "pid"
    impl = _script(
        tmp_path,
        f"""
        import os, sys, time
        open({str(pid_file)!r}, "w").write(str(os.getpid()))
        sys.stdin.readline()
        print({HELLO.replace("KINDS", '["perft"]')!r}, flush=True)
        sys.stdin.readline()
        time.sleep(60)
        """,
    )
    assert (
        main(["perft", "K5N2P7", "--depth", "2", "--impl", impl, "--timeout", "1"]) == ExitCode.IMPLEMENTATION_UNUSABLE
    )
    err = capsys.readouterr().err
    assert "the implementation is unusable: perft of K5N2P7" in err and "timeout: no answer within 1 s" in err
    assert "Traceback" not in err
    pid = int(pid_file.read_text())
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)


@pytest.mark.parametrize(
    ("answer", "said"),
    [
        ('{"type": "error", "seq": SEQ, "message": "not implemented: perft"}', "error: not implemented: perft"),
        ("not json", "crash: answer is not JSON"),
    ],
)
def test_an_error_or_a_crash_on_the_request_is_unusable(tmp_path, capsys, answer, said):
    impl = _script(
        tmp_path,
        f"""
        import json, sys
        sys.stdin.readline()
        print({HELLO.replace("KINDS", '["perft"]')!r}, flush=True)
        seq = json.loads(sys.stdin.readline())["seq"]
        print({answer!r}.replace("SEQ", json.dumps(seq)), flush=True)
        sys.stdin.readline()
        """,
    )
    assert main(["perft", "K5N2P7", "--depth", "2", "--impl", impl]) == ExitCode.IMPLEMENTATION_UNUSABLE
    err = capsys.readouterr().err
    assert said in err and "Traceback" not in err


def test_an_implementation_without_perft_or_the_reading_says_so(tmp_path, capsys):
    impl = _script(
        tmp_path,
        f"""
        import sys
        sys.stdin.readline()
        print({HELLO.replace("KINDS", '["layout"]')!r}, flush=True)
        sys.stdin.readline()
        """,
    )
    assert main(["perft", "K5N2P7", "--depth", "2", "--impl", impl]) == ExitCode.IMPLEMENTATION_UNUSABLE
    assert "it does not count this position: kind perft not supported" in capsys.readouterr().err
    argv = ["perft", "seed:1", "--depth", "2", "--variant", "continuation=optional"]
    assert main([*argv, "--impl", "horserace serve --variant continuation=compulsory"]) == 3
    assert "holds only under continuation=optional" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["K5N2P7", "--depth", "21", "--impl", REFERENCE], "depth is 1 to 20, not 21"),
        (["K5N2P7", "--impl", REFERENCE, "--divide", "--cluster", "local:1"], "give no --cluster with it"),
        (["K5N2P7", "--impl", ""], "--impl is empty"),
        ([], "give a POSITION"),
        (["K5N2P7", "--tables"], "give no POSITION"),
        (["--table", "seed-1-player-3"], "did you mean seed-1-players-3"),
        (["table:nope"], "no perft table 'nope'"),
    ],
)
def test_mistakes_with_the_new_options_are_usage_errors(argv, message, capsys):
    assert main(["perft", *argv]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert message in err and "Traceback" not in err


# ---------------------------------------------------------------------- the tables by name
def _perft_fixtures():
    from tests.helpers import bundled_corpus

    return [fx for fx in bundled_corpus().fixtures if fx.kind == "perft"]


def test_the_tables_are_listed_and_shown_by_name(capsys):
    names = ["k5n2p7-deal", "seed-1-players-2", "seed-1-players-3", "seed-1-players-4", "seed-2-partnership"]
    assert list(perft_tables()) == names
    listed = perft_json(capsys, "--tables")
    assert [t["name"] for t in listed["tables"]] == names
    assert listed["folder"] == str(Path("scenarios", "generated", "perft"))
    three = perft_json(capsys, "--table", "seed-1-players-3")
    assert three["position"] == "seed:1:players=3" and three["depths"] == [1, 11]
    assert three["nodes"]["11"] == 245_764 and three["nodes"]["1"] == 6
    assert main(["perft", "--tables"]) == ExitCode.OK
    out = capsys.readouterr().out
    assert all(name in out for name in names) and "447,800 nodes at the deepest" in out
    assert main(["perft", "--table", "seed-1-players-3"]) == ExitCode.OK
    assert "depth 11       245,764  2N6W9H" in capsys.readouterr().out


def test_a_table_is_a_position_counted_at_any_depth(capsys):
    table = perft_json(capsys, "--table", "seed-2-partnership")
    doc = perft_json(capsys, "table:seed-2-partnership", "--depth", "6")
    assert doc["nodes"] == table["nodes"]["6"]
    assert perft_json(capsys, "table:seed-2-partnership", "--depth", "3", "--impl", REFERENCE)["agree"] is True


def test_ctrl_c_while_the_implementation_counts_stops_it(tmp_path):
    """SIGINT to the command while the implementation holds the request: exit 130, and
    the implementation's process is gone (the runner's supervision kills it)."""
    import signal
    import subprocess
    import time

    pid_file = tmp_path / "pid"
    impl = _script(
        tmp_path,
        f"""
        import os, sys, time
        sys.stdin.readline()
        print({HELLO.replace("KINDS", '["perft"]')!r}, flush=True)
        sys.stdin.readline()
        open({str(pid_file)!r} + ".tmp", "w").write(str(os.getpid()))
        os.rename({str(pid_file)!r} + ".tmp", {str(pid_file)!r})
        time.sleep(120)
        """,
    )
    command = subprocess.Popen(
        [sys.executable, "-m", "horserace", "perft", "K5N2P7", "--depth", "2", "--impl", impl],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not pid_file.exists():  # the request has reached the implementation
            assert command.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        command.send_signal(signal.SIGINT)
        _, err = command.communicate(timeout=60)
    finally:
        command.kill()
    assert command.returncode == ExitCode.INTERRUPTED and "interrupted" in err and "Traceback" not in err
    with pytest.raises(ProcessLookupError):
        os.kill(int(pid_file.read_text()), 0)


def test_an_independent_implementation_counts_the_written_positions_as_the_reference(monkeypatch):
    """The claim behind writing a position after --moves: a continuation that cannot be
    given up is played on as a fresh turn of the same seat.  The Python example, written
    from the spec alone (its deliberate error off), counts every written position of the
    random walks under the canonical readings, continuations among them, as the reference
    engine does, through the protocol."""
    from horserace.conformance.perft import one_off_fixture
    from horserace.conformance.runner import Options, run
    from horserace.corpus.status import Status

    monkeypatch.setenv("HORSERACE_EXAMPLE_CORRECT", "1")
    fixtures, continuing = [], 0
    for position, moves, ruleset in _random_descents(3):
        descent = positions.descend(position, moves, ruleset)
        if ruleset.variants or descent.written is None:  # the example plays the canonical readings
            continue
        continuing += descent.hand.continuing
        counted = positions.count(descent.written, 3, ruleset)
        fixtures.append(
            one_off_fixture(descent.written, 3, ruleset, {"nodes": counted.nodes, "divide": counted.divide})
        )
    assert len(fixtures) >= 40 and continuing >= 5, (len(fixtures), continuing)
    example = [sys.executable, str(ROOT / "examples" / "python" / "horse_race.py")]
    outcomes = run(example, fixtures, Options(timeout=60))
    assert [o.status for o in outcomes] == [Status.PASS] * len(fixtures), [
        (o.fixture.input.get("layout"), o.message, o.differences[:2]) for o in outcomes if o.status is not Status.PASS
    ][:3]
