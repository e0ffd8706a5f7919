"""The code keeps its shape: the layers hold (import contracts in pyproject.toml), the
types check (mypy, [tool.mypy]), no module grows past what one reader can hold, and ruff
is content."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MOST_LINES = 450  # a module longer than this does more than one job


def run(*command: str) -> subprocess.CompletedProcess:
    return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=300)


def tool(name: str) -> str:
    found = Path(sys.executable).with_name(name)
    return str(found) if found.exists() else shutil.which(name) or name


@pytest.mark.subprocess
def test_the_layers_hold():
    result = run(tool("lint-imports"), "--no-cache")
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "0 broken" in result.stdout


@pytest.mark.subprocess
@pytest.mark.slow
def test_the_types_check():
    """mypy, as configured in pyproject.toml: pegboard as --strict would, the tests and
    the tools with the bodies of untyped functions checked."""
    result = run(tool("mypy"))
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "Success: no issues found" in result.stdout


def test_pegboard_is_checked_as_mypy_strict_would():
    """Each flag mypy's --strict turns on is set for pegboard in pyproject.toml, so the
    configured run (test_the_types_check) is the --strict run of pegboard."""
    import tomllib

    from mypy.main import define_options

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["mypy"]
    ours = [o for o in config["overrides"] if "pegboard.*" in o["module"]]
    settings = {**config, **{k: v for o in ours for k, v in o.items()}}
    _, strict, _ = define_options()
    unset = [flag for flag in strict if settings.get(flag[2:].replace("-", "_")) is not True]
    assert not unset, unset


def test_every_module_is_in_a_layer():
    """Each module and package of pegboard has its place in the layers contract."""
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    layers = config["tool"]["importlinter"]["contracts"][0]["layers"]
    placed = {name.strip() for layer in layers for name in layer.split("|")}
    found = {
        f"pegboard.{path.stem if path.is_file() else path.name}"
        for path in (ROOT / "pegboard").iterdir()
        if (path.suffix == ".py" and path.stem != "__init__")
        or (path.is_dir() and (path / "__init__.py").exists() and path.name != "locale")
    }
    assert found <= placed, sorted(found - placed)


def test_no_module_is_too_long():
    long = {
        str(path.relative_to(ROOT)): lines
        for path in (ROOT / "pegboard").rglob("*.py")
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert not long, f"over {MOST_LINES} lines: {long}"


@pytest.mark.subprocess
def test_the_project_scripts_pass_shellcheck():
    scripts = [ROOT / "scripts" / name for name in ("_setup.sh", "board", "test")]
    result = run(tool("shellcheck"), "-x", *map(str, scripts), str(ROOT / ".ci" / "run"))
    assert result.returncode == 0, result.stdout


@pytest.mark.subprocess
@pytest.mark.parametrize("check", [("check",), ("format", "--check")])
def test_ruff_is_content(check):
    result = run(tool("ruff"), *check, ".")
    assert result.returncode == 0, result.stdout[-3000:]
