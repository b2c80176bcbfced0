#!/usr/bin/env bash
# Run horserace conform against an implementation, as a CI job does, and exit with its code.
#
#   HORSERACE_IMPL        the implementation's command line (required), as conform --impl takes it
#   HORSERACE_PACKAGE     what pip installs (default: horserace; a version or a path); empty:
#                         use the horserace that $HORSERACE_PYTHON already has, install nothing
#   HORSERACE_PYTHON      the Python to install it with and run it by (default: python3)
#   HORSERACE_ARGS        more options for conform, split on spaces (e.g. --one-shot)
#   HORSERACE_REPORT_DIR  where the reports go (default: horserace-report)
#
# The reports stay in the report folder whatever the outcome (the action uploads it). In
# GitHub Actions the exit code is also the step's output `exit-code`, and report.md is added
# to the job's summary. Exit codes are conform's (0 conformant, 1 failures, 3 the
# implementation unusable, ...); 4 when HORSERACE_IMPL is missing, 6 when pip cannot install.
set -u

impl="${HORSERACE_IMPL:-}"
python="${HORSERACE_PYTHON:-python3}"
package="${HORSERACE_PACKAGE-horserace}"
report_dir="${HORSERACE_REPORT_DIR:-horserace-report}"

if [ -z "$impl" ]; then
    echo "conform-ci.sh: set HORSERACE_IMPL to the implementation's command line" >&2
    exit 4
fi

if [ -n "$package" ]; then
    venv="${RUNNER_TEMP:-${TMPDIR:-/tmp}}/horserace-venv"
    if ! "$python" -m venv "$venv" || ! "$venv/bin/python" -m pip install --quiet "$package"; then
        echo "conform-ci.sh: could not install $package with $python" >&2
        exit 6
    fi
    python="$venv/bin/python"
fi

"$python" -m horserace --version
# shellcheck disable=SC2086  # HORSERACE_ARGS is a list of options, split on purpose
"$python" -m horserace conform --impl "$impl" --report-dir "$report_dir" ${HORSERACE_ARGS:-}
code=$?

if [ -n "${GITHUB_OUTPUT:-}" ]; then
    echo "exit-code=$code" >> "$GITHUB_OUTPUT"
fi
if [ -n "${GITHUB_STEP_SUMMARY:-}" ] && [ -f "$report_dir/report.md" ]; then
    cat "$report_dir/report.md" >> "$GITHUB_STEP_SUMMARY"
fi
echo "conform-ci.sh: horserace conform exited $code; the reports are in $report_dir/"
exit "$code"
