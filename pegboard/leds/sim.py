"""The simulated board: frames kept in memory and handed to observers.

For ``--sim`` and the panel's virtual board: subscribe a callback and it gets
every frame as the LEDs would show it (after the driver's brightness).

>>> from pegboard.board.layout import Strip
>>> from pegboard.board.render import Frame
>>> seen = []
>>> sim = SimDriver([Strip(0, 2, 1)])
>>> unsubscribe = sim.subscribe(seen.append)
>>> sim.brightness = 0.5
>>> sim.show(Frame((b"\\xff\\x80\\x00",)))
>>> seen[-1].strips
(b'\\x80@\\x00',)
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Sequence

from pegboard._firmware import pegproto
from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.leds.base import LedDriver

Observer = Callable[[Frame], None]


class SimDriver(LedDriver):
    """LEDs in memory; ``shown`` is what they show now."""

    def __init__(self, strips: Sequence[Strip], on_show: Observer | None = None):
        super().__init__(strips)
        self.shown = Frame.dark(tuple(s.leds for s in self.strips))
        self.shows = 0
        self._observers: list[Observer] = [on_show] if on_show else []
        self._lock = threading.Lock()

    def subscribe(self, observer: Observer) -> Callable[[], None]:
        """Call ``observer(frame)`` after every change; returns the unsubscribe function."""
        with self._lock:
            self._observers.append(observer)

        def unsubscribe() -> None:
            with self._lock:
                if observer in self._observers:
                    self._observers.remove(observer)

        return unsubscribe

    def _show(self, frame: Frame) -> None:
        self._light(frame)

    def _set_brightness(self, level: float) -> None:
        if self.frame is not None:
            self._light(self.frame)

    def _light(self, frame: Frame) -> None:
        level = round(self.brightness * 255)
        shown = Frame(tuple(bytes(pegproto.scale(rgb, level)) for rgb in frame.strips))
        with self._lock:
            self.shown = shown
            self.shows += 1
            observers = list(self._observers)
        for observer in observers:
            observer(shown)

    def _detail(self) -> str:
        return f"shows={self.shows}" if self.shows else ""
