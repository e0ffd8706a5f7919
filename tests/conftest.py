"""Shared fixtures, at two floors: a front door over a temporary game file (``keeper``:
the game, its changes, what the panel and the voice see), and a whole simulated board
around one (``board``: the LEDs lit by the real firmware on an emulated Pico behind a pty,
the painter, mock GPIO dials). A test asks for the floor it needs; the panel (``app``,
``client``) stands on the door, or on the board's when the test asks for the board too.

The markers say what a test does (registered in pyproject.toml): ``browser`` (it drives
chromium: given by its fixture), ``subprocess`` (it runs another program: one that does
so unmarked is named at the end of the run), ``slow`` (it takes over 1.5 s on a quiet machine).
"""

from __future__ import annotations

import sys

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
    """A test that drives chromium is a browser test, by its fixture."""
    for item in items:
        if "browser" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.browser)


class _Programs:
    """The programs started while a test unmarked ``subprocess`` (or ``browser``) ran
    (noted by an audit hook: it cannot be removed, so it only notes while asked)."""

    def __init__(self) -> None:
        self.watching: list[str] | None = None
        self.unmarked: dict[str, str] = {}  # test -> the first program it started

    def hook(self, event: str, args: tuple) -> None:
        if self.watching is not None and event in SPAWNING:
            self.watching.append(str(args[0]))


SPAWNING = ("subprocess.Popen", "os.posix_spawn", "os.exec", "os.system", "os.fork")
_programs = _Programs()
sys.addaudithook(_programs.hook)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item):
    return (yield from _watched(item))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item):
    return (yield from _watched(item))


def _watched(item):
    """Run a phase of a test, noting whether it starts a program while not marked so."""
    if item.get_closest_marker("subprocess") or item.get_closest_marker("browser"):
        return (yield)
    _programs.watching = []
    try:
        return (yield)
    finally:
        started, _programs.watching = _programs.watching, None
        if started:
            _programs.unmarked.setdefault(item.nodeid, started[0])


def pytest_terminal_summary(terminalreporter):
    """Name the tests that ran a program without saying so: mark them."""
    if _programs.unmarked:
        terminalreporter.section("tests to mark @pytest.mark.subprocess")
        for test, program in sorted(_programs.unmarked.items()):
            terminalreporter.write_line(f"{test} runs {program}")


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
    door = Scorekeeper(table, load_layout("two-track-121"))
    yield door
    door.settle(10)
    door.close()  # its followers (the panel's broadcaster) stop
    table.close()


@pytest.fixture
def door(request):
    """The door a test plays through: the whole board's if the test asks for ``board``,
    else a door alone (``keeper``)."""
    if "board" in request.fixturenames:
        return request.getfixturevalue("board").keeper
    return request.getfixturevalue("keeper")


PANEL_PIN = "2468"


@pytest.fixture
def app(door):
    """The panel (PIN ``PANEL_PIN``) over the test's door (its simulated board's, when it
    asks for one: the on-screen dials work either way)."""
    from pegboard.panel import create_app

    config = {"PIN": PANEL_PIN, "SIM": True, "SECRET_KEY": "x" * 64}
    return create_app(config, door)


@pytest.fixture
def client(app):
    return app.test_client()
