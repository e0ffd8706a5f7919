"""The running board: builds the parts and connects them, then serves the panel.

:class:`Board` opens the game file behind the front door (:mod:`pegboard.keeper`),
the LEDs and their painter, and the dials, and wires each to the door; it holds no
rule and no view of its own. :func:`serve` runs it behind the panel's server
(:mod:`pegboard.panel.server`) until SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import logging
import secrets
import signal
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pegboard import lan, startup, systemd
from pegboard.board.layout import load_layout
from pegboard.board.render import Frame, Power, Renderer, lit_holes
from pegboard.camera import Shots, open_camera
from pegboard.config import Config
from pegboard.errors import CameraError, ConfigError
from pegboard.files import write_private
from pegboard.game import Settings, Table
from pegboard.game.store import Store
from pegboard.i18n import N_, SOURCE, Phrase, phrase_of
from pegboard.identity import Identity
from pegboard.inputs import Controls, load_pins, make_factory
from pegboard.keeper import Scorekeeper
from pegboard.leds import open_driver
from pegboard.leds.painter import Painter
from pegboard.paths import games_path
from pegboard.voice import open_voice

if TYPE_CHECKING:
    from flask import Flask
    from gpiozero import Factory

    from pegboard.camera import Camera
    from pegboard.leds.base import LedDriver
    from pegboard.panel.server import PanelServer

log = logging.getLogger(__name__)

SETTLING = 10.0  # seconds a closing board waits for the changes asked for to be made


class Board:
    """The game, its LEDs, its voice and its dials, wired to one front door (``board.keeper``)."""

    def __init__(self, config: Config, data_dir: Path, *, sim: bool = False) -> None:
        self.config, self.sim = config, sim or config.board["driver"] == "sim"
        self.layout = load_layout(config.board["layout"])
        house = house_settings(config)  # a wrong [game] stops start-up before anything is written
        pins = load_pins(override=config.pins or None)
        # A supply too weak for the board's LEDs stops it too.
        renderer = Renderer(self.layout, Power(brightness=1.0, supply_ma=config.board["supply_ma"]))
        factory = _pin_factory(self.sim)  # no GPIO stops it before the game file is made
        self._opened: list[Callable[[], object]] = []
        try:
            startup.make_data_folder(data_dir)
            store = Store(games_path(data_dir))  # checked before anything is written
            self._opened.append(store.close)
            store.signer = Identity.made(data_dir / startup.IDENTITY_FILE).sign  # each end
            table = Table(store)
            self._opened.append(table.close)
            self.keeper = Scorekeeper(table, self.layout, house=house)
            # At close, after the dials: a press on its way is stored before the file closes.
            self._opened.append(lambda: self.keeper.settle(SETTLING))
            self._opened.append(self.keeper.close)
            self.keeper.set_brightness(config.board["brightness"])
            self.leds = self._open_leds()
            self._opened.append(self.leds.close)
            # Phones draw what the LEDs show: the simulated Pico reports it; real LEDs are
            # taken at their word.
            on_frame = None if self.sim else self._shown
            self.painter = Painter(self.keeper, renderer, self.leds, on_frame=on_frame)
            self._opened.append(self.painter.close)
            language, voice = config.board["language"], config.voice
            # The voice speaks of a change once the painter has handed it to the LEDs.
            self.voice = open_voice(
                self.keeper, voice, language, data_dir / "voice", shown=self.painter.wait_shown
            )
            if self.voice is not None:
                self._opened.append(self.voice.close)
            # The camera is optional: one that cannot be opened is said, and the board
            # runs on without it.
            self.camera: Camera | None = None
            self.camera_problem: Phrase | None = None
            try:
                self.camera = open_camera(config.camera, sim=self.sim)
            except CameraError as error:
                self.camera_problem = phrase_of(error)
            if self.camera is not None:
                self._opened.append(self.camera.close)
                # The advance button held while a count of the show is due: a photo of it.
                self._opened.append(Shots(self.keeper, self.camera).close)
            # A dial or button: the same door as every other change; on gpiozero's
            # thread a turn is made at once and a press queued for the door's writer.
            self.controls = Controls(pins, factory, self.keeper.post)
            self._opened.append(self.controls.close)
        except BaseException:
            self.close()
            raise

    def _open_leds(self) -> LedDriver:
        kind = "sim" if self.sim else self.config.board["driver"]
        order = self.config.board["colour_order"]
        if kind == "sim":  # the real firmware on an emulated Pico, reporting what it lights
            return open_driver(kind, self.layout.strips, on_show=self._lit, colour_order=order)
        options = {"port": self.config.board["serial_port"] or None} if kind == "serial" else {}
        return open_driver(kind, self.layout.strips, colour_order=order, **options)

    def _lit(self, strips: tuple[bytes, ...]) -> None:
        self._shown(Frame(tuple(strips)))

    def _shown(self, frame: Frame) -> None:
        self.keeper.show_lit(lit_holes(self.layout, frame))

    def stop(self) -> None:
        """Begin closing: every live stream ends."""
        self.keeper.close()

    def close(self) -> None:
        """Release the dials, stop painting, close the LEDs and the game file. Safe twice."""
        while self._opened:
            try:
                self._opened.pop()()
            except Exception:  # closing must go on for the rest
                log.exception("closing the board")

    def __enter__(self) -> Board:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<Board layout={self.layout.name} sim={self.sim} {self.keeper!r}>"


def _pin_factory(sim: bool) -> Factory:
    """gpiozero's pin factory; its warnings at each fallback are shown only if one works
    (when none does, the error says it all in one line)."""
    with warnings.catch_warnings(record=True) as said:
        warnings.simplefilter("always")
        factory = make_factory(sim=sim)
    for warning in said:
        warnings.warn_explicit(warning.message, warning.category, warning.filename, warning.lineno)
    return factory


def house_settings(config: Config) -> Settings:
    """The config's [game] table: the settings of a game started from the board's button."""
    data = dict(config.game)
    if isinstance(data.get("players"), list):
        data["players"] = tuple(data["players"])
    try:
        return Settings.from_dict(data)
    except (ConfigError, TypeError) as error:
        problem = phrase_of(error)
        raise ConfigError(
            Phrase.of(
                N_("{source}: {table} {problem}"),
                source=config.source,
                table="[game]",
                problem=problem,
            )
        ) from None


# --- serving ---------------------------------------------------------------------------------


def board_pin(config: Config, data_dir: Path) -> tuple[str, bool]:
    """The board's PIN: the config's, else one made at first start and kept. (pin, new?)
    A damaged PIN file is refused (startup), never written over."""
    return startup.pin_of(data_dir, config.board["pin"] or None)


def secret_key(data_dir: Path) -> str:
    """The key that signs session cookies; kept so phones stay signed in across restarts."""
    key = startup.kept_key(data_dir)
    if key is None:
        key = secrets.token_hex(32)
        write_private(data_dir / startup.KEY_FILE, key)
    return key


def serve(
    config: Config,
    data_dir: Path,
    *,
    sim: bool = False,
    lang: str = SOURCE,
    ready: Callable[[str], None] | None = None,
) -> int:
    """Run the board until SIGTERM or Ctrl-C, saying where and how in ``lang`` (the
    voice speaks the board's language). ``ready(url)`` is called once it answers."""
    from pegboard.panel import create_app

    # Everything that can be checked is, before anything is written: the layout, the pins,
    # the house rules, the panel's address and port, the data folder; then the Board
    # checks the GPIO and the game file before it makes the folder and opens the file;
    # then the PIN and the key are written.
    load_layout(config.board["layout"])
    load_pins(override=config.pins or None)
    house_settings(config)
    host, port = config.panel["host"], config.panel["port"]
    startup.check_listen(host, port)
    startup.check_data_folder(data_dir)
    startup.check_kept(data_dir, pin_kept=not config.board["pin"])
    board = Board(config, data_dir, sim=sim)
    dog, announced = None, None
    try:
        pin, new = board_pin(config, data_dir)
        app = create_app(
            {
                "PIN": pin,
                "SECRET_KEY": secret_key(data_dir),
                "SIM": board.sim,
                "LANGUAGE": config.board["language"],
                "HOSTS": sorted(lan.own_hosts(config.panel["host"])),
                "SESSIONS_FILE": str(data_dir / startup.SESSIONS_FILE),
                "TRIES_FILE": str(data_dir / startup.TRIES_FILE),
                "PAIRINGS_FILE": str(data_dir / startup.PAIRINGS_FILE),
                "IDENTITY_FILE": str(data_dir / startup.IDENTITY_FILE),
            },
            board.keeper,
            camera=None if board.camera is None else board.camera.shoot,
        )
        try:
            server = panel_server(app, config)
        except OSError as error:  # the port was taken since it was checked
            raise startup.cannot_listen(error, host, port) from None

        def shutdown(signum: int, frame: object) -> None:
            board.stop()  # live streams end
            server.stop()

        # Before the address is said: a stop from then on is a clean one.
        previous = {s: signal.signal(s, shutdown) for s in (signal.SIGTERM, signal.SIGINT)}
        try:
            url = say_where(config.panel["host"], server.port, lang=lang)
            if board.sim:  # found by a club as a Pi board is (its avahi announces that one)
                from pegboard.panel.announce import Announced

                announced = Announced(config.panel["host"], server.port, sim=True)
            said = (
                N_("board PIN {pin} (new: change it in the config)")
                if new
                else N_("board PIN {pin}")
            )
            _say(Phrase.of(said, pin=pin), lang)
            if board.voice is not None:
                _say(Phrase.of(N_("the board speaks {where}"), where=board.voice.out.where), lang)
            if board.camera is not None:
                _say(Phrase.of(N_("the board's camera: {where}"), where=board.camera.where), lang)
            elif board.camera_problem is not None:
                _say(board.camera_problem, lang)
            interval = systemd.watchdog_interval()
            if interval is not None:
                dog = watchdog(board, server.port, interval)
                dog.start()
            systemd.notify("READY=1")
            if ready is not None:
                ready(url)
            server.run()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
            server.close()
    finally:
        systemd.notify("STOPPING=1")
        if dog is not None:
            dog.stop()
        if announced is not None:
            announced.close()
        board.close()
    return 0


def say_where(host: str, port: int, out: TextIO | None = None, lang: str = SOURCE) -> str:
    """Print every address a phone can open the panel at, the first as a QR code on a
    terminal; return the first."""
    out = out or sys.stdout
    urls, warning = lan.panel_urls(host, port)
    _say(Phrase.of(N_("panel at {url}"), url=urls[0]), lang, out)
    for url in urls[1:]:
        _say(Phrase.of(N_("also at {url}"), url=url), lang, out)
    if warning:
        _say(warning, lang, out)
    if out.isatty():  # a person reads it; a log does not need the picture
        import segno

        segno.make(urls[0]).terminal(out=out, compact=True)
    out.flush()
    return urls[0]


def _say(said: Phrase, lang: str, out: TextIO | None = None) -> None:
    """One line of the service's own, after the program's name."""
    print(f"pegboard: {said.say(lang)}", file=out or sys.stdout, flush=True)


def panel_server(app: Flask, config: Config) -> PanelServer:
    """The panel's server (bound now): evented, the app's calls on a pool of
    ``[panel] threads`` (see :mod:`pegboard.panel.server` for its limits and why)."""
    from pegboard.panel.server import Limits, PanelServer

    panel = config.panel
    return PanelServer(app, panel["host"], panel["port"], Limits(threads=panel["threads"]))


LINK_QUIET = 5.0  # seconds: the Pico link writes (a heartbeat) or retries the port far sooner


def watchdog(board: Board, port: int, interval: float) -> systemd.Watchdog:
    """systemd's watchdog, pinged while the LED painter lives, the LED link works (it writes
    to the Pico, or tries its port again) and the panel answers on ``port``."""
    from pegboard.leds.pico import PicoDriver

    checks = {"the LED painter": lambda: board.painter.alive}
    leds = board.leds
    if isinstance(leds, PicoDriver):  # a back-end with a thread of its own
        checks["the LED link"] = systemd.moving(
            lambda: leds.stats.sent + leds.stats.tries, within=LINK_QUIET
        )
    # The panel may take as long as a ping's interval to answer (a busy Pi; 2 s at least).
    checks["the panel"] = lambda: _answers(board.config.panel["host"], port, max(interval, 2.0))
    return systemd.Watchdog(checks, interval)


def _answers(host: str, port: int, timeout: float) -> bool:
    """True if the panel's health check answers within ``timeout`` seconds."""
    import http.client

    here = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "::1"}.get(host, host)
    connection = http.client.HTTPConnection(here, port, timeout=timeout)
    try:
        connection.request("GET", "/healthz")
        return connection.getresponse().status == 200
    except OSError:
        return False
    finally:
        connection.close()
