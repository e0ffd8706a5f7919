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
        .venv/bin/python -m pip install --quiet --upgrade pip
        .venv/bin/python -m pip install --quiet -e ".${extra:+[$extra]}"
        touch "$stamp"
    fi
}
