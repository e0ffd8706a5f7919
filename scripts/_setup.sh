# shellcheck shell=bash
# Shared by scripts/board and scripts/test: make .venv and install the project into it.
# Usage: source scripts/_setup.sh; setup_venv [extra]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

setup_venv() {
    local extra=${1:-}
    if [ ! -x .venv/bin/python ]; then
        python3 -m venv .venv
    fi
    # Reinstall only when the project's requirements changed since the last install.
    local stamp=.venv/.pegboard-installed-$extra
    if [ ! -f "$stamp" ] || [ pyproject.toml -nt "$stamp" ]; then
        # pip and setuptools talk at length about an editable install: their words go to a
        # log, shown only if the install fails.
        local log=.venv/install.log
        echo "pegboard: installing into .venv (once; the log is $log)" >&2
        if ! { .venv/bin/python -m pip install --quiet --upgrade pip &&
            .venv/bin/python -m pip install --quiet -e ".${extra:+[$extra]}"; } >"$log" 2>&1; then
            cat "$log" >&2
            echo "pegboard: the install failed (above, and in $log)" >&2
            return 1
        fi
        touch "$stamp"
    fi
}
