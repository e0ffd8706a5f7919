"""Choosing gpiozero's pin factory, once, at start-up (never at import).

In order: ``sim`` -> ``MockFactory`` (the simulation never touches real pins,
whatever the environment says); otherwise gpiozero's own choice: the one
``$GPIOZERO_PIN_FACTORY`` names if set, else lgpio, then RPi.GPIO, pigpio, native.
lgpio works on every Pi under Raspberry Pi OS Bookworm, the Pi 5 included, and
RPi.GPIO (or the rpi-lgpio shim) is the fallback on Pi 1-4, so the Pi model is not
sniffed to choose: it only words the error when no factory works. gpiozero warns at
each fallback.
"""

from __future__ import annotations

from pathlib import Path

from gpiozero import Device, Factory
from gpiozero.pins.mock import MockFactory

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase

MODEL = Path("/proc/device-tree/model")


def make_factory(*, sim: bool = False) -> Factory:
    """The pin factory for this run.

    >>> make_factory(sim=True)  # doctest: +ELLIPSIS
    <gpiozero.pins.mock.MockFactory object at ...>
    """
    if sim:
        return MockFactory()
    try:
        Device.ensure_pin_factory()
    except Exception as exc:
        raise ConfigError(_no_factory(exc)) from exc
    return Device.pin_factory


def _no_factory(exc: Exception) -> Phrase:
    """Why no pin factory works here, with the cure."""
    try:
        model = MODEL.read_text(encoding="ascii", errors="replace").rstrip("\x00").strip()
    except OSError:
        model = ""
    if "Raspberry Pi" not in model:
        not_a_pi = N_(
            "no GPIO pins here (not a Raspberry Pi: {reason}); start with {option} to play on "
            "screen"
        )
        return Phrase.of(not_a_pi, reason=str(exc), option="--sim")
    no_library = N_(
        "no GPIO library works on this {model} ({reason}); install {library} ({command}, in a "
        "virtual environment made with {option})"
    )
    return Phrase.of(
        no_library,
        model=model,
        reason=str(exc),
        library="lgpio",
        command="sudo apt install python3-lgpio",
        option="--system-site-packages",
    )
