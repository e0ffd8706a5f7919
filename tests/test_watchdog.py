"""systemd's watchdog means something: it is pinged, over a real datagram socket, only while
the LED painter lives, the LED link works and the panel answers; a part that dies or hangs
stops the pings (and systemd restarts the board)."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading

import pytest
from waiting import eventually

from pegboard import service
from pegboard.leds import pico as pico_driver
from pegboard.panel.server import PanelServer

INTERVAL = 0.2  # seconds between pings (systemd's WatchdogSec would be twice that)


@pytest.fixture
def systemd_socket(tmp_path, monkeypatch):
    """A fake systemd: the datagram socket of NOTIFY_SOCKET."""
    path = tmp_path / "notify"
    with socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM) as sock:
        sock.bind(str(path))
        monkeypatch.setenv("NOTIFY_SOCKET", str(path))
        yield sock


def said(sock, timeout: float) -> list[str]:
    """What systemd heard within ``timeout`` seconds (at least one message, or none)."""
    sock.settimeout(timeout)
    heard = []
    try:
        heard.append(sock.recv(256).decode())
        sock.settimeout(0)
        while True:
            heard.append(sock.recv(256).decode())
    except (TimeoutError, BlockingIOError):
        return heard


def pinged(sock) -> bool:
    return "WATCHDOG=1" in said(sock, timeout=30)


def not_pinged_once_stuck(sock, dog, part) -> bool:
    """Once the watchdog finds ``part`` stuck, systemd hears no more pings."""
    eventually(lambda: part in dog.stuck, timeout=30)
    said(sock, timeout=0.01)  # what was sent before
    return "WATCHDOG=1" not in said(sock, timeout=10 * INTERVAL)


@pytest.fixture
def panel(app):
    """The board's panel on its real server; stopped at the end (or by the test)."""
    server = PanelServer(app, "127.0.0.1", 0)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield server
    server.stop()
    thread.join(5)


@pytest.fixture
def dog(board, panel):
    dog = service.watchdog(board, panel.port, INTERVAL)
    dog.start()
    yield dog
    dog.stop()


@pytest.mark.slow
@pytest.mark.filterwarnings("ignore::pytest.PytestUnhandledThreadExceptionWarning")
def test_a_dead_painter_stops_the_pings(systemd_socket, board, dog, monkeypatch):
    assert pinged(systemd_socket)

    def broken(view):
        raise RuntimeError("a bug in drawing")

    monkeypatch.setattr(board.painter.renderer, "render", broken)
    board.keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)  # the painter draws: and dies
    assert not_pinged_once_stuck(systemd_socket, dog, "the LED painter")
    assert not board.painter.alive


@pytest.mark.slow
def test_a_hung_led_link_stops_the_pings(systemd_socket, board, panel, monkeypatch):
    monkeypatch.setattr(service, "LINK_QUIET", 1.0)
    dog = service.watchdog(board, panel.port, INTERVAL)
    dog.start()
    never = threading.Event()
    opened = pico_driver.open_port

    def hangs(url=None):  # a USB port whose opening never returns
        never.wait()
        return opened(url)

    try:
        assert pinged(systemd_socket)
        monkeypatch.setattr(pico_driver, "open_port", hangs)
        board.leds.pico.unplug()  # the link is lost, and opening the port again hangs
        assert not_pinged_once_stuck(systemd_socket, dog, "the LED link")
        assert "the LED painter" not in dog.stuck
    finally:
        dog.stop()
        never.set()


@pytest.mark.slow
def test_an_unplugged_pico_is_no_reason_to_restart(systemd_socket, board, panel, monkeypatch):
    """The link keeps trying the port: a restart would not bring the Pico back."""
    monkeypatch.setattr(service, "LINK_QUIET", 1.0)
    dog = service.watchdog(board, panel.port, INTERVAL)
    dog.start()
    try:
        board.leds.pico.unplug()
        tries = board.leds.stats.tries
        eventually(lambda: board.leds.stats.tries > tries + 20, timeout=30)
        assert "the LED link" not in dog.stuck and pinged(systemd_socket)
    finally:
        dog.stop()


@pytest.mark.slow
def test_a_panel_that_stops_answering_stops_the_pings(systemd_socket, panel, dog):
    assert pinged(systemd_socket)
    panel.stop()  # the panel no longer answers
    assert not_pinged_once_stuck(systemd_socket, dog, "the panel")
    assert "the LED painter" not in dog.stuck and "the LED link" not in dog.stuck


def started(data, env) -> subprocess.Popen:
    """`pegboard serve --sim` on ``data``, once it says where it answers."""
    argv = ["serve", "--sim", "--host", "127.0.0.1", "--port", "0", "--data", str(data)]
    board = subprocess.Popen(
        [sys.executable, "-m", "pegboard.cli", *argv],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    if "panel at http://" not in board.stdout.readline():
        board.kill()
        board.communicate()
        pytest.fail("the board did not start")
    return board


@pytest.mark.slow
@pytest.mark.subprocess
def test_serve_tells_systemd_it_is_ready_alive_and_stopping(tmp_path, systemd_socket):
    board = started(tmp_path, {**os.environ, "WATCHDOG_USEC": "400000"})
    try:
        heard = said(systemd_socket, timeout=60)
        while "WATCHDOG=1" not in heard:
            heard += said(systemd_socket, timeout=60)
        assert "READY=1" in heard and heard.index("READY=1") < heard.index("WATCHDOG=1")
        board.send_signal(signal.SIGTERM)
        assert board.wait(60) == 0
        assert "STOPPING=1" in said(systemd_socket, timeout=5)
    finally:
        if board.poll() is None:
            board.kill()
        board.communicate()


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_killed_sim_board_leaves_no_pico_folder_behind(tmp_path):
    """The emulated Pico names its temporary folder for its process; the next start
    removes those of processes that are gone, so SIGKILLs do not pile them up."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    env = {**os.environ, "TMPDIR": str(tmp)}
    env.pop("NOTIFY_SOCKET", None)

    def pico_folders():
        return {p.name for p in tmp.iterdir() if p.name.startswith("pegboard-pico-")}

    first = started(tmp_path / "data", env)
    killed = pico_folders()
    first.kill()
    first.communicate()
    assert len(killed) == 1 and pico_folders() == killed  # a kill leaves it behind
    second = started(tmp_path / "data", env)
    try:
        assert pico_folders().isdisjoint(killed) and len(pico_folders()) == 1
    finally:
        second.send_signal(signal.SIGTERM)
        second.communicate(timeout=60)
    assert pico_folders() == set()  # a clean stop removes its own
