"""The one small interface every LED back-end offers.

A back-end *must* override :meth:`LedDriver._show`; it *may* override
``_close`` (release hardware) and ``_set_brightness`` (the default keeps the
level for ``_show`` to apply). The public methods check their input and the
driver's state, so back-ends need not.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import TracebackType

from pegboard.board.layout import Strip
from pegboard.board.render import Frame
from pegboard.errors import ConfigError, LayoutError, LinkError


class LedDriver:
    """Shows frames on the board's LED strips.

    >>> from pegboard.leds.sim import EmulatedPicoDriver
    >>> with EmulatedPicoDriver([Strip(0, 2, 3)]) as leds:
    ...     leds.show(Frame((bytes(9),)))
    ...     leds.brightness = 0.5
    ...     leds  # doctest: +ELLIPSIS
    <EmulatedPicoDriver strips=(3,) brightness=0.5 port=...>
    """

    def __init__(self, strips: Sequence[Strip]):
        self.strips = tuple(strips)
        if not self.strips:
            raise ConfigError("an LED driver needs at least one strip")
        self.frame: Frame | None = None  # the last frame shown
        self._brightness = 1.0
        self._closed = False

    def show(self, frame: Frame) -> None:
        """Put ``frame`` on the LEDs (never blocks on hardware for long)."""
        if self._closed:
            raise LinkError(f"{type(self).__name__} is closed")
        lengths = tuple(len(rgb) // 3 for rgb in frame.strips)
        if lengths != tuple(s.leds for s in self.strips) or any(len(b) % 3 for b in frame.strips):
            raise LayoutError(
                f"a frame for strips of {lengths} LEDs does not fit strips of "
                f"{tuple(s.leds for s in self.strips)} LEDs"
            )
        self._show(frame)
        self.frame = frame

    @property
    def brightness(self) -> float:
        """A dimmer after rendering, 0..1 (the renderer's cap and budget still hold)."""
        return self._brightness

    @brightness.setter
    def brightness(self, level: float) -> None:
        if not 0 <= level <= 1:
            raise ConfigError(f"brightness {level} is not between 0 and 1")
        self._brightness = level
        self._set_brightness(level)

    def close(self) -> None:
        """Release the hardware; safe to call twice."""
        if not self._closed:
            self._closed = True
            self._close()

    @property
    def closed(self) -> bool:
        return self._closed

    def __enter__(self) -> LedDriver:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        state = "closed" if self._closed else f"brightness={self._brightness:g}"
        if self._detail():
            state += " " + self._detail()
        return f"<{type(self).__name__} strips={tuple(s.leds for s in self.strips)} {state}>"

    # -- hooks for back-ends -----------------------------------------------------

    def _show(self, frame: Frame) -> None:
        raise NotImplementedError

    def _set_brightness(self, level: float) -> None:
        """Called after the level changed; ``_show`` may also read ``self.brightness``."""

    def _close(self) -> None:
        """Release what the back-end holds."""

    def _detail(self) -> str:
        """Extra state for ``repr``."""
        return ""
