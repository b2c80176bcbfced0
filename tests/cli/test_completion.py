"""``horserace completion SHELL``: each script, loaded into the real shell, completes the
commands, each command's options (exactly those its parser has), an option's choices, and
for ``--select`` the corpus's fixture IDs, rule IDs, kinds and ``reading:FIELD=VALUE``
words.  bash is driven through its completion function with ``COMP_LINE``; zsh through
``_horserace`` with ``words``/``CURRENT`` and ``compadd`` recording what it is given;
fish through its own ``complete -C``.  zsh and fish are Debian packages that `.ci/run`
installs; without them their tests are skipped, and say so."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys

import pytest

from horserace.cli.commands import HELP
from horserace.cli.exitcodes import ExitCode
from horserace.cli.main import build_parser, main
from horserace.engine.ruleset import VARIANT_FIELDS
from tests.helpers import bundled_corpus


def _script(shell: str, tmp_path) -> str:
    path = tmp_path / f"completion.{shell}"
    done = subprocess.run([sys.executable, "-m", "horserace", "completion", shell], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    path.write_text(done.stdout, encoding="utf-8")
    return str(path)


def _options(command: str) -> set[str]:
    parser = build_parser(command)
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction)).choices[command]
    return {o for a in sub._actions for o in a.option_strings}


def _bash(script: str, *lines: str) -> list[list[str]]:
    calls = "".join(
        f'COMP_LINE={_quote(line)}; COMP_POINT=${{#COMP_LINE}}; COMPREPLY=(); _horserace; echo "${{COMPREPLY[*]}}"\n'
        for line in lines
    )
    done = subprocess.run(["bash", "-c", f"source {script}\n{calls}"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr, done.stderr
    return [line.split() for line in done.stdout.splitlines()]


def _quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def test_bash_completes_commands_options_choices_and_ids(tmp_path):
    script = _script("bash", tmp_path)
    commands, select, settle, reading, fmt, after_impl, abbreviated = _bash(
        script,
        "horserace co",
        "horserace conform --select ",
        "horserace conform --select HR-SETT",
        "horserace conform --select reading:continuation=",
        "horserace conform --format j",
        'horserace conform --impl "python3 my adapter.py" --max',
        "horserace --debug replay --sel",
    )
    assert commands == ["conform", "coverage", "completion"]
    corpus = bundled_corpus().fixtures
    assert set(select) == (
        {fx.id for fx in corpus}
        | {r for fx in corpus for r in fx.rules}
        | {fx.kind for fx in corpus}
        | {f"reading:{f}={r}" for f, rs in VARIANT_FIELDS.items() for r in rs}
    )
    assert settle == ["HR-SETTLE-1", "HR-SETTLE-2", "HR-SETTLE-3"]
    assert reading == ["compulsory", "optional"]  # bash puts back what comes before the last '='
    assert fmt == ["json"] and after_impl == ["--max-fail"] and abbreviated == ["--select"]


def test_bash_offers_each_command_exactly_the_options_of_its_parser(tmp_path):
    script = _script("bash", tmp_path)
    answers = _bash(script, *(f"horserace {name} -" for name in HELP))
    for name, offered in zip(HELP, answers, strict=True):
        assert set(offered) == _options(name), name


@pytest.mark.skipif(shutil.which("zsh") is None, reason="zsh is not installed (.ci/run installs it)")
def test_zsh_completes_commands_options_choices_and_ids(tmp_path):
    script = _script("zsh", tmp_path)
    harness = f"""source {script}
compadd() {{ [[ $1 == -- ]] && shift; print -r -- "$*"; }}
_describe() {{ local -a described; described=("${{(@P)2}}"); print -r -- "${{described[@]%%:*}}"; }}
_files() {{ print -r -- FILES; }}
t() {{ words=(${{(z)1}}); [[ $1 == *" " ]] && words+=(""); CURRENT=${{#words}}; _horserace; }}
t "horserace "
t "horserace conform --select "
t "horserace conform --format "
t "horserace conform --"
t "horserace conform some/path"
"""
    done = subprocess.run(["zsh", "-c", harness], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0 and not done.stderr, done.stderr
    commands, select, fmt, options, path = (line.split() for line in done.stdout.splitlines())
    assert commands == list(HELP)
    assert {"2DNZSQ", "HR-SETTLE-3", "settlement", "reading:continuation=optional"} <= set(select)
    assert fmt == ["text", "json"] and set(options) == _options("conform") and path == ["FILES"]


@pytest.mark.skipif(shutil.which("fish") is None, reason="fish is not installed (.ci/run installs it)")
def test_fish_completes_commands_options_choices_and_ids(tmp_path):
    script = _script("fish", tmp_path)
    lines = [
        "horserace conf",
        "horserace conform --select HR-SETT",
        "horserace conform --format ",
        "horserace conform --max",
    ]
    calls = "; ".join(f"complete -C {_quote(line)}; echo ---" for line in lines)
    done = subprocess.run(["fish", "-c", f"source {script}; {calls}"], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    answers = [
        [row.split("\t")[0] for row in block.strip().splitlines()] for block in done.stdout.split("---\n")[: len(lines)]
    ]
    assert answers == [["conform"], ["HR-SETTLE-1", "HR-SETTLE-2", "HR-SETTLE-3"], ["json", "text"], ["--max-fail"]]


def test_an_unknown_shell_is_a_usage_error(capsys):
    assert main(["completion", "tcsh"]) == ExitCode.USAGE
    assert "invalid choice: 'tcsh'" in capsys.readouterr().err
