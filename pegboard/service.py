"""The running board: the one place that knows the game, the LEDs, the dials and the panel.

:class:`Board` turns dial intents and panel actions (:mod:`pegboard.actions`) into
game entries, keeps the
dialled (pending) values and the red flash of a refused entry, paints the LEDs
from the game, and tells the panel of every change. :func:`serve` runs it all
behind waitress until SIGTERM or Ctrl-C.
"""

from __future__ import annotations

import logging
import secrets
import signal
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pegboard.board.layout import load_layout
from pegboard.board.render import (
    WIN_SECONDS,
    BoardView,
    Frame,
    Power,
    Renderer,
    TrackView,
    lit_holes,
)
from pegboard.board.svg import board_svg
from pegboard.config import Config
from pegboard.errors import ConfigError, PegboardError, RuleError
from pegboard.game import Settings, Table
from pegboard.game.skunk import skunk_lines
from pegboard.game.state import Count, Phase, State
from pegboard.i18n import N_, Phrase
from pegboard.inputs import Advance, Controls, Entry, Peg, Turn, Undo, load_pins, make_factory
from pegboard.leds import open_driver
from pegboard.paths import games_path
from pegboard.rules.play import max_play_points
from pegboard.rules.scoring import possible_totals

log = logging.getLogger(__name__)

FLASH_SECONDS = 1.5  # a refused entry flashes its track this long
FPS = 25  # LED frames per second while something moves (blink, flash, win)
HEELS = 2


class Board:
    """The game, its LEDs and dials, as one object the panel can read and drive."""

    def __init__(self, config: Config, data_dir: Path, *, sim: bool = False) -> None:
        self.config, self.sim = config, sim or config.board["driver"] == "sim"
        self.layout = load_layout(config.board["layout"])
        self.house = house_settings(config)
        self.renderer = Renderer(
            self.layout, Power(brightness=1.0, supply_ma=config.board["supply_ma"])
        )
        self.entry = Entry()
        self._cond = threading.Condition()
        self._version = 0
        self._refused: dict[int, float] = {}  # side -> when its entry was refused
        self._won_at: float | None = None
        self._message: Phrase | None = None  # said to every phone, each in its language
        self._frame_holes: dict[str, str] = {}
        self._frame_version = 0
        self._warmed: set[int] = set()
        self._closing = False
        self._opened: list[Callable[[], None]] = []
        try:
            self.table = Table(games_path(data_dir))
            self._opened.append(self.table.close)
            self.leds = self._open_leds()
            self.leds.brightness = config.board["brightness"]
            self._opened.append(self.leds.close)
            pins = load_pins(override=config.pins or None)
            self.controls = Controls(pins, make_factory(sim=self.sim), self._on_intent)
            self._opened.append(self.controls.close)
            self.table.subscribe(self._game_changed)
            self._warm(self._state())
            self._painter = threading.Thread(target=self._paint, name="leds", daemon=True)
            self._painter.start()
        except BaseException:
            self.close()
            raise

    def _open_leds(self):
        if not self.sim:
            kind = self.config.board["driver"]
            options = {"port": self.config.board["serial_port"] or None} if kind == "serial" else {}
            return open_driver(kind, self.layout.strips, **options)
        # The simulated Pico is the real firmware at the far end of a pty.
        from pegboard.leds.emulator import EmulatedPico

        self.pico = EmulatedPico()
        self._opened.append(self.pico.close)
        self.pico.on_show = self._shown
        return open_driver("serial", self.layout.strips, port=self.pico.path)

    def stop(self) -> None:
        """Begin closing: the painter and every live stream end."""
        with self._cond:
            self._closing = True
            self._cond.notify_all()

    @property
    def closing(self) -> bool:
        return self._closing

    def close(self) -> None:
        """Stop painting, release the dials, flush the LEDs, close the game file. Safe twice."""
        self.stop()
        painter = getattr(self, "_painter", None)
        if painter is not None and painter is not threading.current_thread():
            painter.join(timeout=2)
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
        return f"<Board layout={self.layout.name} sim={self.sim} version={self._version}>"

    # --- changes and the live view --------------------------------------------------------

    def _game_changed(self, state: State) -> None:
        self._warm(state)
        self._changed()

    def _warm(self, state: State | None) -> None:
        """Work out the totals this game's hands can score before its first count
        (a second or more on a Pi for the 6-card shotgun hand), off the entry path."""
        if state is not None and state.hand_size not in self._warmed:
            self._warmed.add(state.hand_size)
            threading.Thread(
                target=possible_totals, args=(state.hand_size,), name="totals", daemon=True
            ).start()

    def _changed(self, message: Phrase | None = None) -> None:
        with self._cond:
            if message is not None:
                self._message = message
            self._version += 1
            self._cond.notify_all()

    def _shown(self, strips: tuple[bytes, ...]) -> None:
        """The strips changed: the panel's board shows the same frame."""
        holes = lit_holes(self.layout, Frame(tuple(strips)))
        with self._cond:
            if holes != self._frame_holes:
                self._frame_holes = holes
                self._frame_version += 1
                self._cond.notify_all()

    def frame_holes(self) -> dict[str, str]:
        """Hole id -> colour of every lit hole, as the strips show it now."""
        with self._cond:
            return dict(self._frame_holes)

    def wait(self, seen: tuple[int, int], timeout: float) -> tuple[int, int]:
        """Wait until the state or the frame is newer than ``seen`` (state, frame versions)."""
        with self._cond:
            self._cond.wait_for(lambda: self.versions() != seen or self._closing, timeout)
            return self.versions()

    def versions(self) -> tuple[int, int]:
        return self._version, self._frame_version

    def snapshot(self, lang: str = "en") -> dict[str, Any]:
        """The board as the panel shows it, its words in ``lang`` (each phone its own)."""
        with self._cond:
            version, message = self._version, self._message
        state = self._state()
        return {
            "version": version,
            "sim": self.sim,
            "layout": self.layout.name,
            "tracks": len(self.layout.tracks),
            "game_id": self.table.game_id,
            "game_hole": self.layout.game,
            "brightness": self.leds.brightness,
            "message": "" if message is None else message.say(lang),
            "pending": [self.entry.value(seat) or None for seat in range(4)],
            "game": None if state is None else self._game_view(state, lang),
        }

    @property
    def counting(self) -> bool:
        """True during the show of a deal, when discard advice would help a count."""
        state = self._state()
        return state is not None and state.phase is Phase.SHOW

    def _state(self) -> State | None:
        try:
            return self.table.state
        except RuleError:
            return None

    def _game_view(self, state: State, lang: str) -> dict[str, Any]:
        view = state.as_dict()
        known = state.known_cards()
        for said, claim in zip(view["claims"], state.claims, strict=True):
            if said["show"] is not None:
                said["show"]["call"] = claim.show.call(lang)
        view.update(
            target=state.target,
            seats=[
                {"name": name, "side": state.side_of(s)} for s, name in enumerate(state.players)
            ],
            summary=summary(state).say(lang),
            due_name=None if state.due is None else state.count_name(state.due).say(lang),
            used=[str(card) for card in known],
            known={str(card): _whose(count) for card, count in known.items()},
            skunk_lines=list(skunk_lines(state.settings)),
            muggins_open=_muggins_open(state, lang),
            history=[entry.as_dict(lang) for entry in state.history],
        )
        return view

    # --- the LEDs --------------------------------------------------------------------------

    def _view(self, state: State | None, now: float) -> BoardView:
        if state is None:
            return BoardView((), t=now)
        pending: dict[int, int] = {}
        for seat in range(len(state.players)):
            if self.entry.value(seat):
                pending[state.side_of(seat)] = self.entry.value(seat)
        with self._cond:
            refused = {s for s, at in self._refused.items() if now - at < FLASH_SECONDS}
        tracks = tuple(
            TrackView(
                front=min(pegs.front, self.layout.game),
                back=min(pegs.back, self.layout.game),
                colour=_rgb(colour),
                pending=pending.get(side),
                refused=side in refused,
            )
            for side, (pegs, colour) in enumerate(
                zip(state.pegs, state.settings.colours, strict=False)
            )
        )
        if state.winner is not None and self._won_at is None:
            self._won_at = now
        elif state.winner is None:
            self._won_at = None
        return BoardView(tracks, t=now, winner=state.winner, won_at=self._won_at or 0.0)

    def _paint(self) -> None:
        """Render on every change, and at FPS while something blinks or moves."""
        while True:
            with self._cond:
                if self._closing:
                    return
                version = self._version
            now = time.monotonic()
            view = self._view(self._state(), now)
            try:
                frame = self.renderer.render(view)
                self.leds.show(frame)
            except PegboardError as error:
                log.warning("LEDs: %s", error)
                frame = None
            if frame is not None and not self.sim:  # the simulated Pico reports its own
                self._shown(frame.strips)
            with self._cond:
                if _moving(view, now):
                    self._cond.wait(1 / FPS)
                else:
                    self._cond.wait_for(lambda v=version: self._version != v or self._closing)

    # --- the dials ------------------------------------------------------------------------

    def _on_intent(self, intent: Turn | Peg | Undo | Advance) -> None:
        try:
            match intent:
                case Turn(seat=seat, steps=steps):
                    self.entry.turn(seat, steps, self._cap())
                    self._changed()
                case Peg(seat=seat):
                    self._peg_dialled(seat, self.entry.peg(seat))
                case Undo(seat=seat):
                    self._undo_own(seat)
                case Advance():
                    self._advance()
        except PegboardError as error:
            self._refuse(getattr(intent, "seat", None), error.phrase)

    def _cap(self) -> int:
        """The most the entry due now can be worth."""
        state = self._state()
        if state is None or state.over:
            return 0
        if state.due and state.due.kind == "starter":
            return HEELS
        if state.due and state.due.kind in ("hand", "crib"):
            size = state.hand_size if state.due.kind == "hand" else 4
            return max(possible_totals(size, crib=state.due.kind == "crib"))
        return max_play_points()

    def _peg_dialled(self, seat: int, points: int) -> None:
        state = self.table.state
        if state.due and state.due.kind == "starter":
            if points not in (0, HEELS):
                raise RuleError(
                    Phrase(N_("the starter gives the dealer two for his heels, or nothing"))
                )
            self.table.turn_starter(None, heels=points == HEELS)
        elif state.due and state.due.kind == "play":
            if points == 0:
                raise RuleError(Phrase(N_("dial the points scored in the play, then press")))
            self.table.claim(seat, points, kind="play")
        else:
            self.table.claim(seat, points)

    def _undo_own(self, seat: int) -> None:
        state = self.table.state
        if not state.history or state.history[-1].seat != seat:
            message = N_("the last entry is not {name}'s")
            raise RuleError(Phrase.of(message, name=state.players[seat]))
        self.table.undo()

    def _advance(self) -> None:
        state = self._state()
        if state is None:  # no game yet: the advance button starts one with the house rules
            self.table.new_game(self.house, dealer=secrets.randbelow(len(self.house.players)))
        elif not state.over:
            self.table.advance()
        elif state.match.winner is None:
            self.table.next_game()
        else:
            self.table.new_game(state.settings, dealer=state.seat_after(state.first_dealer))

    def _refuse(self, seat: int | None, message: Phrase) -> None:
        state = self._state()
        if state is not None and seat is not None and seat < len(state.players):
            with self._cond:
                self._refused[state.side_of(seat)] = time.monotonic()
        self._changed(message)

    # --- the panel's actions --------------------------------------------------------------

    @property
    def actions(self) -> tuple[str, ...]:
        from pegboard.actions import ACTIONS

        return tuple(ACTIONS)

    def board_svg(self) -> str:
        return board_svg(self.layout)

    def act(self, action: str, args: dict[str, Any], lang: str = "en") -> dict[str, Any]:
        """One change from the panel; a refusal raises and changes nothing. What the
        board says of it is said to every phone (here in ``lang``)."""
        from pegboard.actions import ACTIONS, Args

        handler = ACTIONS.get(action)
        if handler is None:
            raise RuleError(f"no action called {action!r}")
        said = handler(self, Args(action, args)) or Phrase("")
        self._changed(said)
        return {"said": said.say(lang), "state": self.snapshot(lang)}


def _muggins_open(state: State, lang: str) -> dict[str, Any] | None:
    """The count open to Muggins: whose, what was claimed, and the points it missed
    (None when its cards were not given, so the game cannot tell)."""
    if state.window is None or not state.settings.muggins:
        return None
    claim = state.claims[state.window]
    return {
        "side": claim.side,
        "seat": claim.seat,
        "kind": claim.kind,
        "name": state.count_name(Count(claim.seat, claim.kind)).say(lang),
        "claimed": claim.claimed,
        "cards": None if claim.cards is None else [str(card) for card in claim.cards],
        "verdict": claim.verdict,
        "missed": -claim.difference if claim.verdict == "under" else None,
    }


def _whose(count: Count | None) -> dict[str, Any] | None:
    """A seen card's hand or crib; None for the starter."""
    return None if count is None else {"seat": count.seat, "kind": count.kind}


_WON = (
    N_("{winner} won."),
    N_("{winner} won, with a skunk."),
    N_("{winner} won, with a double skunk."),
    N_("{winner} won, with a triple skunk."),
)


def house_settings(config: Config) -> Settings:
    """The config's [game] table: the settings of a game started from the board's button."""
    data = dict(config.game)
    if isinstance(data.get("players"), list):
        data["players"] = tuple(data["players"])
    try:
        return Settings.from_dict(data)
    except (ConfigError, TypeError) as error:
        raise ConfigError(f"{config.source}: [game] {error}") from None


def summary(state: State) -> Phrase:
    """One line for the panel: the deal, the dealer, what is due."""
    if state.over:
        return Phrase.of(_WON[state.skunk], winner=state.settings.side_names[state.winner])
    head = {"deal": state.deal, "dealer": state.players[state.dealer]}
    due = state.due
    if due is None:
        message = N_("Deal {deal}, {dealer} deals. The show is done: move on to the next deal.")
        return Phrase.of(message, **head)
    if due.kind == "starter":
        return Phrase.of(N_("Deal {deal}, {dealer} deals. Turn the starter."), **head)
    if due.kind == "play" and due.seat is None:
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}.")
        return Phrase.of(message, **head, count=state.play.count)
    if due.kind == "play":
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}. {name} to play.")
        return Phrase.of(message, **head, count=state.play.count, name=state.players[due.seat])
    message = N_("Deal {deal}, {dealer} deals. Next count: {due}.")
    return Phrase.of(message, **head, due=state.count_name(due))


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _moving(view: BoardView, now: float) -> bool:
    """True while the LEDs change without an entry: a blink, a flash, the win."""
    if any(track.pending or track.refused for track in view.tracks):
        return True
    return view.winner is not None and now - view.won_at < WIN_SECONDS


# --- serving ---------------------------------------------------------------------------------


def board_pin(config: Config, data_dir: Path) -> tuple[str, bool]:
    """The board's PIN: the config's, else one made at first start and kept. (pin, new?)"""
    if config.board["pin"]:
        return config.board["pin"], False
    path = data_dir / "pin"
    if path.exists():
        pin = path.read_text(encoding="ascii").strip()
        if pin.isdigit() and 4 <= len(pin) <= 8:
            return pin, False
    pin = f"{secrets.randbelow(10_000):04d}"
    _write_private(path, pin)
    return pin, True


def secret_key(data_dir: Path) -> str:
    """The key that signs session cookies; kept so phones stay signed in across restarts."""
    path = data_dir / "secret"
    if path.exists():
        key = path.read_text(encoding="ascii").strip()
        if len(key) >= 32:
            return key
    key = secrets.token_hex(32)
    _write_private(path, key)
    return key


def _write_private(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.touch(mode=0o600)
    path.write_text(text + "\n", encoding="ascii")


def serve(
    config: Config,
    data_dir: Path,
    *,
    sim: bool = False,
    ready: Callable[[str], None] | None = None,
) -> int:
    """Run the board until SIGTERM or Ctrl-C. ``ready(url)`` is called once it answers."""
    from waitress import create_server

    from pegboard import systemd
    from pegboard.panel import create_app

    # A wrong layout or pin map stops start-up before anything is written.
    load_layout(config.board["layout"])
    load_pins(override=config.pins or None)
    house_settings(config)
    data_dir.mkdir(parents=True, exist_ok=True)
    pin, new = board_pin(config, data_dir)
    board = Board(config, data_dir, sim=sim)
    stop = threading.Event()
    try:
        app = create_app(
            {
                "PIN": pin,
                "SECRET_KEY": secret_key(data_dir),
                "TABLE": board,
                "LANGUAGE": config.board["language"],
            }
        )
        panel = config.panel
        server = create_server(
            app,
            host=panel["host"],
            port=panel["port"],
            threads=panel["threads"],
            ident="pegboard",
            channel_timeout=30,
        )
        url = f"http://{_shown_host(panel['host'])}:{server.effective_port}/"
        print(f"pegboard: panel at {url}", flush=True)
        print(
            f"pegboard: board PIN {pin}" + (" (new: change it in the config)" if new else ""),
            flush=True,
        )

        def shutdown(signum: int, frame: object) -> None:
            stop.set()
            board.stop()  # live streams end, so waitress's threads can finish
            raise SystemExit  # waitress's run() stops its loop and joins its threads

        previous = {s: signal.signal(s, shutdown) for s in (signal.SIGTERM, signal.SIGINT)}
        _watchdog(stop)
        systemd.notify("READY=1")
        if ready is not None:
            ready(url)
        try:
            server.run()
        finally:
            for number, handler in previous.items():
                signal.signal(number, handler)
            server.close()
    finally:
        systemd.notify("STOPPING=1")
        stop.set()
        board.close()
    return 0


def _shown_host(host: str) -> str:
    return "localhost" if host in ("127.0.0.1", "0.0.0.0", "::", "") else host


def _watchdog(stop: threading.Event) -> None:
    """Ping systemd's watchdog while the service lives."""
    from pegboard import systemd

    interval = systemd.watchdog_interval()
    if interval is None:
        return

    def ping() -> None:
        while not stop.wait(interval):
            systemd.notify("WATCHDOG=1")

    threading.Thread(target=ping, name="watchdog", daemon=True).start()
