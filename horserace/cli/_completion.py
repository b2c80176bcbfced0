"""Shell completion scripts for bash, zsh and fish, made from the parsers themselves:
the commands, each command's options, the choices of an option that has them, and for
``--select``/``--deselect`` the bundled corpus's fixture IDs, rule IDs, kinds and
``reading:FIELD=VALUE`` words.  What completes is what the parser accepts, so a script
made by this version never offers an option it lacks.

The scripts are static (made once, by ``horserace completion SHELL``): a completion costs
the shell no Python start-up.  A new horserace wants the script made again.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["SHELLS", "Words", "script", "words"]

#: The shells a script is made for.
SHELLS = ("bash", "zsh", "fish")
#: The options whose values are selection patterns.
_PATTERN_OPTIONS = ("--select", "--deselect")
#: What a word of a script may hold unquoted (IDs, option names, readings, commands).
_SAFE = re.compile(r"^[A-Za-z0-9_.:=+,/@-]+$")


@dataclass(frozen=True)
class Words:
    """What completes: the commands with their help, each command's options, the
    choices of the options that have them (per command), and the selection patterns."""

    commands: dict[str, str]
    top_options: tuple[str, ...]
    options: dict[str, tuple[str, ...]]
    choices: dict[str, dict[str, tuple[str, ...]]]
    patterns: tuple[str, ...]
    #: Per command, the options that take a value.
    valued: dict[str, frozenset[str]]


def words(
    build_parser: Callable[[str | None], argparse.ArgumentParser], commands: dict[str, str], patterns: list[str]
) -> Words:
    """The words of every command's parser (``build_parser(name)`` registers that
    command's options) and the selection ``patterns``."""
    top = build_parser(None)
    top_options = tuple(o for a in top._actions for o in a.option_strings)
    options: dict[str, tuple[str, ...]] = {}
    choices: dict[str, dict[str, tuple[str, ...]]] = {}
    valued: dict[str, frozenset[str]] = {}
    for name in commands:
        sub = _subparser(build_parser(name), name)
        options[name] = tuple(o for a in sub._actions for o in a.option_strings if o.startswith("--") or len(o) == 2)
        choices[name] = {
            o: tuple(str(c) for c in a.choices)
            for a in sub._actions
            if a.choices and a.option_strings
            for o in a.option_strings
        }
        valued[name] = frozenset(o for a in sub._actions if a.nargs != 0 for o in a.option_strings)
    for word in [*commands, *top_options, *(o for opts in options.values() for o in opts), *patterns]:
        if not _SAFE.match(word):
            raise ValueError(f"{word!r} cannot be written into a completion script unquoted")
    return Words(dict(commands), top_options, options, choices, tuple(patterns), valued)


def _subparser(parser: argparse.ArgumentParser, name: str) -> argparse.ArgumentParser:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            sub: argparse.ArgumentParser = action.choices[name]
            return sub
    raise ValueError(f"the parser has no command {name!r}")


def script(shell: str, w: Words) -> str:
    """The completion script for ``shell`` (one of :data:`SHELLS`)."""
    return {"bash": _bash, "zsh": _zsh, "fish": _fish}[shell](w)


def _bash(w: Words) -> str:
    cases = []
    for name, opts in w.options.items():
        values = "".join(
            f'            {option}) COMPREPLY=($(compgen -W "{" ".join(ch)}" -- "$cur")); return ;;\n'
            for option, ch in w.choices[name].items()
        )
        cases.append(
            f"        {name})\n"
            f'            case "$prev" in\n{values}            esac\n'
            f'            opts="{" ".join(opts)}" ;;\n'
        )
    return f"""# bash completion for horserace (made by: horserace completion bash)
# Load it now:  source <(horserace completion bash)
# For good:     horserace completion bash > ~/.local/share/bash-completion/completions/horserace
_horserace_patterns="{" ".join(w.patterns)}"
_horserace() {{
    # The words are read from the line itself, not COMP_WORDS: bash splits a word at ':'
    # and '=' (reading:continuation=optional), which would hide the option before it.
    local line="${{COMP_LINE:0:COMP_POINT}}" cur prev cmd="" opts="" word
    local -a before
    cur="${{line##*[[:space:]]}}"
    read -ra before <<< "${{line%"$cur"}}"
    prev="${{before[${{#before[@]}}-1]}}"
    for word in "${{before[@]:1}}"; do
        case "$word" in -*) ;; *) cmd="$word"; break ;; esac
    done
    if [[ -z "$cmd" ]]; then
        COMPREPLY=($(compgen -W "{" ".join(w.commands)} {" ".join(w.top_options)}" -- "$cur"))
        return
    fi
    case "$prev" in
        {"|".join(_PATTERN_OPTIONS)})
            COMPREPLY=($(compgen -W "$_horserace_patterns" -- "$cur"))
            # bash replaces only the part of the word after its last ':' or '=' (when they
            # break words, as by default): give it that part.
            local keep="${{cur%"${{cur##*[:=]}}"}}"
            if [[ -n "$keep" && "$COMP_WORDBREAKS" == *"${{keep: -1}}"* ]]; then
                COMPREPLY=("${{COMPREPLY[@]#"$keep"}}")
            fi
            return ;;
    esac
    case "$cmd" in
{"".join(cases)}        *) return ;;
    esac
    if [[ "$cur" == -* ]]; then
        COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    else
        COMPREPLY=($(compgen -f -- "$cur"))
    fi
}}
complete -o default -F _horserace horserace
"""


def _zsh(w: Words) -> str:
    cases = []
    for name, opts in w.options.items():
        values = "".join(
            f"                {option}) compadd -- {' '.join(ch)}; return ;;\n"
            for option, ch in w.choices[name].items()
        )
        cases.append(
            f"        {name})\n"
            f"            case ${{words[CURRENT-1]}} in\n{values}            esac\n"
            f"            opts=({' '.join(opts)}) ;;\n"
        )
    commands = " ".join(f"'{name}:{_zsh_quote(text)}'" for name, text in w.commands.items())
    return f"""#compdef horserace
# zsh completion for horserace (made by: horserace completion zsh)
# Load it now:  source <(horserace completion zsh)
# For good:     horserace completion zsh > "${{fpath[1]}}/_horserace"
_horserace() {{
    local cmd="" i
    local -a opts commands
    commands=({commands})
    for ((i = 2; i < CURRENT; i++)); do
        case ${{words[i]}} in -*) ;; *) cmd=${{words[i]}}; break ;; esac
    done
    if [[ -z $cmd ]]; then
        if [[ ${{words[CURRENT]}} == -* ]]; then compadd -- {" ".join(w.top_options)}; else _describe command commands; fi
        return
    fi
    case ${{words[CURRENT-1]}} in
        {"|".join(_PATTERN_OPTIONS)}) compadd -- {" ".join(w.patterns)}; return ;;
    esac
    case $cmd in
{"".join(cases)}        *) return ;;
    esac
    if [[ ${{words[CURRENT]}} == -* ]]; then compadd -- $opts; else _files; fi
}}
if (( $+functions[compdef] )); then compdef _horserace horserace; fi
"""


def _zsh_quote(text: str) -> str:
    return text.replace("'", "'\\''").replace(":", "\\:")


def _fish(w: Words) -> str:
    lines = [
        "# fish completion for horserace (made by: horserace completion fish)",
        "# Load it now:  horserace completion fish | source",
        "# For good:     horserace completion fish > ~/.config/fish/completions/horserace.fish",
        "complete -c horserace -e",
        "complete -c horserace -f -n __fish_use_subcommand -l help -s h -d 'show the help'",
    ]
    for name, text in w.commands.items():
        lines.append(f"complete -c horserace -f -n __fish_use_subcommand -a {name} -d {_fish_quote(text)}")
    patterns = " ".join(w.patterns)
    for name, opts in w.options.items():
        when = f"'__fish_seen_subcommand_from {name}'"
        for option in opts:
            flag = f"-l {option[2:]}" if option.startswith("--") else f"-s {option[1:]}"
            if option in w.choices[name]:
                values = f" -x -a '{' '.join(w.choices[name][option])}'"
            elif option in _PATTERN_OPTIONS:
                values = f" -x -a '{patterns}'"
            else:
                values = " -r" if option in w.valued[name] else ""
            lines.append(f"complete -c horserace -n {when} {flag}{values}")
    return "\n".join(lines) + "\n"


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
