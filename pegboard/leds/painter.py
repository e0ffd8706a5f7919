"""The LED painter: draws the game on the strips after every change the front door
announces, and keeps drawing while something blinks (a dialled count, a refused
entry's red flash, the win).

It reads the game only as the front door announces it (the door's snapshot after each
change: the state, the dials and the brightness of one moment), and renders through the
board's :class:`~pegboard.board.render.Renderer`: the painter knows no geometry. It
hands over scores, the target and the game's skunk lines; the renderer places them
in holes and laps.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from pegboard.board.render import WIN_SECONDS, BoardView, Frame, Renderer, TrackView
from pegboard.errors import PegboardError
from pegboard.game import State
from pegboard.keeper import Change, Scorekeeper, skunk_lines
from pegboard.keeper.follower import Follower
from pegboard.leds.base import LedDriver

log = logging.getLogger(__name__)

FLASH_SECONDS = 1.5  # a refused dial entry flashes its track this long
FPS = 25  # frames per second while something moves (blink, flash, win)


class Painter(Follower):
    """Paints ``keeper``'s game on ``leds`` from its own thread until :meth:`close`.

    ``on_frame(frame)`` hears every frame handed to the LEDs (None: the LEDs report
    what they show themselves, as the emulated Pico does). ``shown`` is the door's
    version (:attr:`Change.version`) the last frame handed to the LEDs shows: the voice
    waits for it (:meth:`wait_shown`) before it speaks of a change."""

    def __init__(
        self,
        keeper: Scorekeeper,
        renderer: Renderer,
        leds: LedDriver,
        *,
        on_frame: Callable[[Frame], None] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.renderer, self.leds = renderer, leds
        self.on_frame, self.clock = on_frame, clock
        self._news = 0
        self._refused: dict[int, float] = {}  # side -> when its dial entry was refused
        self._won_at: float | None = None
        self.frames = 0
        self.shown = 0
        super().__init__(keeper, "painter")  # the last frame stays on the LEDs at close

    def heard(self, change: Change) -> None:
        if change.what == "lit":
            return  # our own frames, as the LEDs report them
        with self._cond:
            if change.what == "refused" and change.dial and change.seat is not None:
                state = change.state
                if state is not None and change.seat < len(state.players):
                    self._refused[state.side_of(change.seat)] = self.clock()
            self._news += 1
            self._cond.notify_all()

    def run(self) -> None:
        while True:
            with self._cond:
                if self._closed:
                    return
                news, board = self._news, self.now
            if self.leds.brightness != board.brightness:
                self.leds.brightness = board.brightness
            now = self.clock()
            version = board.version
            view = self.view(board.state, board.dials, now)
            try:
                frame = self.renderer.render(view)
                self.leds.show(frame)
                with self._cond:
                    self.frames += 1
                    self.shown = version
                    self._cond.notify_all()
                if self.on_frame is not None:
                    self.on_frame(frame)
            except PegboardError as error:
                log.warning("LEDs: %s", error)
            with self._cond:
                if _moving(view, now):
                    self._cond.wait(1 / FPS)
                else:
                    while self._news == news and not self._closed:
                        self._cond.wait()

    def wait_shown(self, version: int, timeout: float) -> bool:
        """Wait until a frame that shows the door's change ``version`` has been handed to
        the LEDs; False after ``timeout`` seconds, or once the painter stops."""
        with self._cond:
            self._cond.wait_for(lambda: self.shown >= version or self._closed, timeout)
            return self.shown >= version

    def view(self, state: State | None, dialled: tuple[int, ...], now: float) -> BoardView:
        """The board as the LEDs should show ``state`` at ``now``."""
        if state is None:
            return BoardView((), t=now)
        pending = {  # partners share a track: the one who is dialling shows
            state.side_of(seat): dialled[seat]
            for seat in range(len(state.players))
            if dialled[seat]
        }
        with self._cond:
            refused = {s for s, at in self._refused.items() if now - at < FLASH_SECONDS}
        tracks = tuple(
            TrackView(
                front=pegs.front,
                back=pegs.back,
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
        return BoardView(
            tracks,
            t=now,
            winner=state.winner,
            won_at=self._won_at or 0.0,
            target=state.target,
            skunk_lines=skunk_lines(state.settings),
        )


def _rgb(colour: str) -> tuple[int, int, int]:
    return (int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16))


def _moving(view: BoardView, now: float) -> bool:
    """True while the LEDs change without an entry: a blink, a flash, the win."""
    if any(track.pending or track.refused for track in view.tracks):
        return True
    return view.winner is not None and now - view.won_at < WIN_SECONDS
