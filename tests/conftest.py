"""Shared fixtures: a running simulated board over a temporary game file."""

from __future__ import annotations

import pytest

from pegboard.config import load_config

FAST_PINS = """
[pins.settings]
bounce_time = 0.002
hold_time = 0.15
"""
# The voice keeps quiet in tests that are not about it (a developer's laptop has audio).
QUIET = """
[voice]
out = "silent"
"""


def pytest_collection_modifyitems(items):
    """A test that drives chromium is slow (seconds each): the fast loop leaves it out."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.slow)


@pytest.fixture(autouse=True)
def english_by_default(monkeypatch):
    """Tests read English unless they choose a language: the machine's locale must not leak in."""
    for name in ("PEGBOARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG", "LANGUAGE"):
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def board(request, tmp_path):
    """A whole simulated board: real game file, real firmware behind a pty, mock GPIO.
    Parametrize indirectly with a layout name for another board."""
    from pegboard.service import Board

    layout = getattr(request, "param", "two-track-121")
    config = load_config(text=f'[board]\nlayout = "{layout}"\n{FAST_PINS}{QUIET}')
    with Board(config, tmp_path, sim=True) as running:
        yield running


@pytest.fixture
def keeper(tmp_path):
    """A front door over a fresh game file, no LEDs or dials: what adapters see."""
    from pegboard.board.layout import load_layout
    from pegboard.game import Table
    from pegboard.keeper import Scorekeeper

    table = Table(tmp_path / "games.db")
    yield Scorekeeper(table, load_layout("two-track-121"))
    table.close()


PANEL_PIN = "2468"


@pytest.fixture
def app(board):
    """The panel over the simulated board (PIN ``PANEL_PIN``)."""
    from pegboard.panel import create_app

    config = {"PIN": PANEL_PIN, "SIM": True, "SECRET_KEY": "x" * 64}
    return create_app(config, board.keeper)


@pytest.fixture
def client(app):
    return app.test_client()
