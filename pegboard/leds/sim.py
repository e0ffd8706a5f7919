"""The ``sim`` LED back-end: the real firmware on an emulated Pico, over a real pty.

What ``--sim`` and ``driver = "sim"`` light: a :class:`~pegboard.leds.pico.PicoDriver`
talks the real protocol through a pty to the firmware logic on a fake chip
(:class:`~pegboard.leds.emulator.EmulatedPico`), so a board with no hardware goes
through everything a real one does but the USB cable and the WS2812s.
``on_show`` gets every board the firmware lights, one RGB ``bytes`` per strip.

>>> from pegboard.board.layout import Strip
>>> from pegboard.board.render import Frame
>>> with EmulatedPicoDriver([Strip(0, 2, 1)]) as leds:
...     leds.show(Frame((b"\\xff\\x80\\x00",)))
...     leds.brightness = 0.5
...     leds.pico.wait_for((b"\\x80\\x40\\x00",), timeout=5)
True
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from pegboard.board.layout import Strip
from pegboard.leds.emulator import EmulatedPico
from pegboard.leds.pico import PicoDriver


class EmulatedPicoDriver(PicoDriver):
    """A PicoDriver with its own emulated Pico (``pico``), unplugged when the driver closes.

    Options other than ``on_show`` go to :class:`PicoDriver`.
    """

    def __init__(
        self,
        strips: Sequence[Strip],
        on_show: Callable[[tuple[bytes, ...]], None] | None = None,
        **options: Any,
    ):
        pico = EmulatedPico()
        pico.on_show = on_show
        try:
            super().__init__(strips, pico.path, **options)
        except BaseException:
            pico.close()
            raise
        self.pico = pico

    def _close(self) -> None:
        super()._close()
        self.pico.close()
