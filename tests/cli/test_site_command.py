"""``horserace site DIR`` from the command line: it writes the site and says where; a DIR
it cannot use is a usage error (4) with a message that says why and writes nothing; a
disk that fails while writing is the environment's (6); without markdown-it-py it says
which extra to install.  Never a traceback."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import pytest

from horserace.cli import main
from horserace.cli.exitcodes import ExitCode

ROOT = Path(__file__).resolve().parents[2]


def _horserace(*args: str, code: str | None = None, limit: int | None = None) -> subprocess.CompletedProcess:
    def cap() -> None:
        if limit is not None:
            resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    argv = [sys.executable, "-c", code, *args] if code else [sys.executable, "-m", "horserace", *args]
    return subprocess.run(argv, capture_output=True, text=True, cwd=ROOT, timeout=120, preexec_fn=cap)


def _refuses_writes(folder: Path) -> bool:
    try:
        (folder / ".horserace-probe").touch()
    except OSError:
        return folder.is_dir()
    (folder / ".horserace-probe").unlink()
    return False


def test_site_writes_the_site_and_says_where(tmp_path, capsys):
    out = tmp_path / "public"
    assert main(["site", str(out)]) == ExitCode.OK
    said = capsys.readouterr().out
    assert said.startswith("wrote the site of ") and f"open {out / 'index.html'}" in said
    assert (out / "index.html").is_file() and (out / "export" / "manifest.json").is_file()


def test_help_teaches_what_the_site_holds():
    done = _horserace("site", "--help")
    assert done.returncode == 0, done.stderr
    for words in ("rules/HR-XXX-N.html", "fixtures/ID.html", "export/", "--force", "search box", "horserace[site]"):
        assert words in done.stdout, words


def test_a_dir_that_cannot_be_used_is_a_usage_error_and_nothing_is_written(tmp_path, capsys):
    a_file = tmp_path / "a-file"
    a_file.write_text("x", encoding="utf-8")
    assert main(["site", str(a_file)]) == ExitCode.USAGE
    assert f"horserace: site {a_file}: a file, not a folder" in capsys.readouterr().err
    assert main(["site", str(a_file / "below")]) == ExitCode.USAGE
    assert "cannot make it: Not a directory" in capsys.readouterr().err
    theirs = tmp_path / "theirs"
    theirs.mkdir()
    (theirs / "index.html").write_text("their page", encoding="utf-8")
    assert main(["site", str(theirs)]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert "holds other files (index.html) and no site.json" in err and "--force" in err
    assert sorted(p.name for p in theirs.iterdir()) == ["index.html"]
    assert "Traceback" not in err


def test_an_unwritable_dir_is_a_usage_error(tmp_path, capsys):
    """Found by writing in it, not by its permission bits (root passes those): a folder
    of mode 0500 for a user, a read-only file system (/sys) for root."""
    if os.geteuid() != 0:
        folder = tmp_path / "read-only"
        folder.mkdir(mode=0o500)
    elif _refuses_writes(Path("/sys")):
        folder = Path("/sys")
    else:
        pytest.skip("running as root, and /sys takes writes here")
    assert main(["site", str(folder)]) == ExitCode.USAGE
    err = capsys.readouterr().err
    assert f"horserace: site {folder}: cannot write in it:" in err and "Traceback" not in err


@pytest.mark.slow  # a subprocess
def test_a_full_disk_while_writing_is_the_environments_exit_6(tmp_path):
    """RLIMIT_FSIZE makes the first file over 64 KiB fail as a full disk would."""
    done = _horserace("site", str(tmp_path / "site"), limit=64 * 1024)
    assert done.returncode == ExitCode.ENVIRONMENT, done.stderr
    assert "horserace: the environment failed: cannot write " in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.slow  # a subprocess
def test_without_markdown_it_the_command_names_the_extra(tmp_path):
    code = "import sys; sys.modules['markdown_it'] = None\nfrom horserace.cli import main\nsys.exit(main(sys.argv[1:]))"
    done = _horserace("site", str(tmp_path / "site"), code=code)
    assert done.returncode == ExitCode.USAGE, done.stderr
    assert "horserace: site needs markdown-it-py: pip install 'horserace[site]'" in done.stderr
    assert not (tmp_path / "site").exists()
