"""The entries are typed end to end: a script that makes them through the Table and the
front door (a method per entry, ``enter(command, ...)``, an ``Act`` taken) passes
``mypy --strict``, each mistake in calling one is found, and the script plays."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from pegboard.game.acts import entry_methods
from pegboard.game.entries import ENTRIES

TYPED = Path(__file__).parent / "typed"
ROOT = TYPED.parent.parent


@pytest.fixture(scope="module")
def mypy(tmp_path_factory):
    """mypy --strict on one script, the pegboard it imports checked once for the file's
    tests (a cache of their own: the tree's is the configured run's, other settings)."""
    cache = tmp_path_factory.mktemp("mypy-cache")

    def check(script: Path) -> subprocess.CompletedProcess[str]:
        strict = ["--strict", "--no-error-summary", "--cache-dir", str(cache)]
        command = [sys.executable, "-m", "mypy", *strict, str(script)]
        return subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=600)

    return check


@pytest.mark.subprocess
@pytest.mark.slow
def test_a_script_through_the_entries_interface_passes_mypy_strict(mypy):
    result = mypy(TYPED / "entries_typed.py")
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.subprocess
@pytest.mark.slow
def test_every_mistake_in_calling_an_entry_is_found(mypy):
    result = mypy(TYPED / "entries_mistyped.py")
    found = {int(n) for n in re.findall(r"entries_mistyped\.py:(\d+): error", result.stdout)}
    lines = (TYPED / "entries_mistyped.py").read_text().splitlines()
    wrong = {n for n, line in enumerate(lines, 1) if line.startswith("    ") and "#" in line}
    assert found == wrong, result.stdout


def test_the_typed_script_plays(tmp_path):
    sys.path.insert(0, str(TYPED))
    try:
        from entries_typed import play
    finally:
        sys.path.remove(str(TYPED))
    after, told = play(tmp_path / "games.db")
    assert after.play.count == 10  # the table's entries made
    assert told.what == "game" and told.state is not None  # the door's
    assert told.state.scores == (2, 0) and told.state.play.count == 15  # fifteen two, again


def test_the_table_and_the_door_have_a_method_for_every_entry_declared():
    assert set(entry_methods()) == set(ENTRIES)
