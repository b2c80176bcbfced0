"""``horserace examples DIR`` writes the example implementations (examples/python,
examples/javascript) for an implementer to start from: every file of them, and nothing
over a file that exists already unless ``--force`` says so (usage error 4 otherwise,
with nothing written)."""

from __future__ import annotations

from pathlib import Path

from horserace.cli import main
from horserace.cli.commands.examples import example_files
from horserace.cli.exitcodes import ExitCode

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def _written(folder: Path) -> list[Path]:
    return sorted(p.relative_to(folder) for p in folder.rglob("*") if p.is_file())


def test_every_file_of_the_examples_is_written(tmp_path, capsys):
    # Every file of every example (a folder per language, its files directly inside):
    # none is left out by the kinds of file the wheel carries.
    on_disk = sorted(p.relative_to(EXAMPLES) for p in EXAMPLES.glob("*/*") if p.is_file() and p.suffix != ".pyc")
    assert example_files(EXAMPLES) == on_disk
    out = tmp_path / "my-examples"
    assert main(["examples", str(out)]) == ExitCode.OK
    assert _written(out) == on_disk
    for relative in on_disk:
        assert (out / relative).read_bytes() == (EXAMPLES / relative).read_bytes()
    said = capsys.readouterr().out
    assert f"wrote {len(on_disk)} files to {out}" in said
    assert f"horserace conform --impl 'python3 {out}/python/horse_race.py'" in said
    assert f"horserace conform --impl 'node {out}/javascript/horse-race.js'" in said


def test_an_existing_file_is_not_overwritten_without_force(tmp_path, capsys):
    out = tmp_path / "out"
    mine = out / "python" / "horse_race.py"
    mine.parent.mkdir(parents=True)
    mine.write_text("# my own adapter\n")
    assert main(["examples", str(out)]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert f"{mine} exists already" in err and "--force" in err and "Traceback" not in err
    assert mine.read_text() == "# my own adapter\n"
    assert _written(out) == [Path("python/horse_race.py")]  # nothing else was written either

    assert main(["examples", "--force", str(out)]) == ExitCode.OK
    assert mine.read_bytes() == (EXAMPLES / "python" / "horse_race.py").read_bytes()
    assert _written(out) == example_files(EXAMPLES)
    capsys.readouterr()


def test_other_files_in_the_folder_are_left_alone(tmp_path, capsys):
    (tmp_path / "notes.txt").write_text("mine")
    assert main(["examples", str(tmp_path)]) == ExitCode.OK
    assert (tmp_path / "notes.txt").read_text() == "mine"
    capsys.readouterr()


def test_a_file_where_a_folder_must_be_is_a_usage_error(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("x")
    assert main(["examples", str(a_file)]) == ExitCode.USAGE
    assert "a file, not a folder" in capsys.readouterr().err
    out = tmp_path / "out"
    out.mkdir()
    (out / "python").write_text("x")
    assert main(["examples", "--force", str(out)]) == ExitCode.USAGE  # --force overwrites files, not this
    assert "a file, not a folder" in capsys.readouterr().err
    assert _written(out) == [Path("python")]


def test_the_folder_is_required(capsys):
    assert main(["examples"]) == ExitCode.USAGE
    assert "usage: horserace examples" in capsys.readouterr().err


def test_force_replaces_a_link_not_the_file_it_points_to(tmp_path, capsys):
    elsewhere = tmp_path / "elsewhere.md"
    elsewhere.write_text("not an example")
    out = tmp_path / "out"
    (out / "python").mkdir(parents=True)
    (out / "python" / "README.md").symlink_to(elsewhere)
    assert main(["examples", str(out)]) == ExitCode.USAGE  # a link is a file that exists
    assert main(["examples", "--force", str(out)]) == ExitCode.OK
    assert elsewhere.read_text() == "not an example"
    assert not (out / "python" / "README.md").is_symlink()
    capsys.readouterr()
