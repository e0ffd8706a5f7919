"""``pegboard doctor``: check a built board part by part, with a person watching.

1. The serial link: the Pico acks everything, in this pegboard's firmware version,
   on a MicroPython new enough.
2. The LEDs: each strip's first, middle and last LED lights alone and the person
   watching says whether they see it (:mod:`pegboard.maker.sight`); a dark one
   names the strip, its Pico pin and the likely fault.
3. The controls: it asks for each dial turn and press, each button, the advance
   button, and waits for that very intent, with a timeout per control.
4. The voice: it says a test phrase in the board's language, and a person listens.
5. The panel: its URL on the LAN, with a QR code for a phone.

With ``--sim`` the board is the simulated one (the real firmware behind a pty,
gpiozero's mock pins), and the doctor looks at the LEDs and works the controls
itself. Stop the pegboard service first: the Pico's port and the GPIO pins serve
one program.
"""

from __future__ import annotations

import contextlib
import queue
import sys
import threading
import time
import warnings
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from pegboard.board.layout import Layout, load_layout
from pegboard.config import Config
from pegboard.errors import ConfigError, PegboardError
from pegboard.inputs import (
    Advance,
    Controls,
    DialPins,
    Intent,
    Peg,
    PinMap,
    Turn,
    load_pins,
    make_factory,
)
from pegboard.inputs.pins import HEADER
from pegboard.lan import panel_urls
from pegboard.leds import LedDriver, open_driver
from pegboard.maker.report import FAIL, PASS, SKIP, Result
from pegboard.maker.sight import ANSWER_SECONDS, Eye, Keyboard, check_leds, no_eye, sim_eye
from pegboard.maker.voice_check import check_voice

if TYPE_CHECKING:
    from pegboard.leds.emulator import EmulatedPico

LINK_SECONDS = 5.0  # the Pico must ack everything within this
CONTROL_SECONDS = 20.0  # a person gets this long for each control
WRONG_WAY_SECONDS = 3.0  # after a turn the wrong way, a right one must come this soon
QUIET_SECONDS = 0.4  # a person's extra clicks die down within this
SKIPPED = object()  # Enter on the terminal: skip the control asked for


@dataclass(frozen=True)
class Ask:
    """One thing a person does with a control, and the intent it must give."""

    name: str
    prompt: str
    expect: Intent
    pins: str


Finger = Callable[[Controls, Ask], None]

# What to ask of each seat: name, prompt, the turn's steps (None: a press), its pins.
DIAL = (
    ("dial clockwise", "turn {who}'s dial one click clockwise", 1, ("a", "b")),
    ("dial back", "turn {who}'s dial one click back", -1, ("a", "b")),
    ("dial push switch", "press {who}'s dial", None, ("switch",)),
)
BUTTONS = (
    ("plus button", "press {who}'s plus button", 1, ("plus",)),
    ("minus button", "press {who}'s minus button", -1, ("minus",)),
    ("peg button", "press {who}'s peg button", None, ("peg",)),
)


def asks(pin_map: PinMap) -> list[Ask]:
    """What to ask for, control by control, in pin map order.

    >>> from pegboard.inputs import ButtonPins
    >>> [a.name for a in asks(PinMap((ButtonPins(4, 18, 19),), advance=26))]
    ['seat 1 plus button', 'seat 1 minus button', 'seat 1 peg button', 'advance button']
    """
    out = []
    for seat, wiring in enumerate(pin_map.seats):
        who = f"seat {seat + 1}"
        for name, prompt, steps, fields in DIAL if isinstance(wiring, DialPins) else BUTTONS:
            out.append(
                Ask(
                    f"{who} {name}",
                    prompt.format(who=who),
                    Peg(seat) if steps is None else Turn(seat, steps),
                    _pins(*(getattr(wiring, field) for field in fields)),
                )
            )
    out.append(Ask("advance button", "press the advance button", Advance(), _pins(pin_map.advance)))
    return out


def sim_finger(controls: Controls, ask: Ask) -> None:
    """Work the simulated control that ``ask`` wants, as a person would."""
    match ask.expect:
        case Turn(seat=seat, steps=steps):
            controls.sim_turn(seat, steps)
        case Peg(seat=seat):
            controls.sim_press(seat)
        case Advance():
            controls.sim_advance()


# --- the checks ---------------------------------------------------------------------------


def check_link(leds: LedDriver, timeout: float) -> Result:
    """The Pico acks everything sent, and runs this pegboard's firmware version on a
    MicroPython new enough."""
    from pegboard.leds.pico import PicoDriver
    from pegboard.maker.firmware_tool import version_problem

    if not isinstance(leds, PicoDriver):
        return Result("link", SKIP, f"no Pico: the LEDs use the {type(leds).__name__}")
    start = time.monotonic()
    synced = leds.wait_synced(timeout)
    took = time.monotonic() - start
    stats = leds.stats
    if not synced:
        if not stats.connects:
            return Result("link", FAIL, _unopened(leds.port))
        if stats.bad_frames and stats.firmware is None:
            why = "the Pico answers in another protocol: run pegboard firmware install"
        else:
            why = f"the Pico on {stats.port} did not ack everything within {timeout:g} s"
        return Result("link", FAIL, f"{why}; {stats.summary()}")
    problem = version_problem(stats.firmware, stats.micropython)
    if problem:
        return Result("link", FAIL, problem)
    version = ".".join(map(str, stats.firmware))
    return Result(
        "link", PASS, f"firmware {version} on {stats.port}, synced in {took * 1000:.0f} ms"
    )


def check_controls(
    controls: Controls,
    out: TextIO,
    timeout: float,
    finger: Finger | None,
    intents: queue.Queue,
) -> list[Result]:
    """Ask for each control in turn and wait for its intent."""
    results = []
    for ask in asks(controls.pin_map):
        _drain(intents, 0 if finger else QUIET_SECONDS)
        print(f"      {ask.prompt} ...", file=out, flush=True)
        hand = None
        if finger is not None:
            hand = threading.Thread(target=finger, args=(controls, ask), daemon=True)
            hand.start()
        results.append(_await(intents, ask, timeout))
        if hand is not None:
            hand.join(timeout)
        print(results[-1].line(), file=out, flush=True)
    return results


def _await(intents: queue.Queue, ask: Ask, timeout: float) -> Result:
    """Wait for ``ask.expect``; a turn the wrong way fails soon, other intents are noted."""
    deadline = time.monotonic() + timeout
    seen: list[object] = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            got = intents.get(timeout=left)
        except queue.Empty:
            break
        if got is SKIPPED:
            return Result(ask.name, FAIL, f"skipped ({ask.pins})")
        if got == ask.expect:
            return Result(ask.name, PASS, ask.pins)
        seen.append(got)
        if _wrong_way(got, ask.expect):
            deadline = min(deadline, time.monotonic() + WRONG_WAY_SECONDS)
    if any(_wrong_way(got, ask.expect) for got in seen):
        fix = "swap a and b" if "dial" in ask.name else "swap minus and plus"
        return Result(ask.name, FAIL, f"counts the wrong way: {fix} in the pin map ({ask.pins})")
    others = f"; heard {', '.join(sorted({_said(g) for g in seen}))} instead" if seen else ""
    return Result(ask.name, FAIL, f"nothing in {timeout:g} s ({ask.pins}){others}")


# --- the panel -------------------------------------------------------------------------------


def print_panel(config: Config, out: TextIO) -> None:
    import segno

    urls, warning = panel_urls(config.panel["host"], config.panel["port"])
    print(f"panel: {urls[0]}" + (f"  ({warning})" if warning else ""), file=out)
    segno.make(urls[0]).terminal(out=out, compact=True)


# --- the whole run ------------------------------------------------------------------------------


def run(
    config: Config,
    *,
    sim: bool = False,
    out: TextIO = sys.stdout,
    timeout: float = CONTROL_SECONDS,
    link_timeout: float = LINK_SECONDS,
    finger: Finger | None = None,
    eye: Eye | None = None,
    pico: EmulatedPico | None = None,
    answer_seconds: float = ANSWER_SECONDS,
) -> int:
    """Check everything; print one line per part; 0 if nothing failed, else 1.

    ``finger`` works the controls and ``eye`` says whether an LED is lit (defaults with
    ``sim``: :func:`sim_finger` and the simulated board's eye; else the person at the
    terminal, who has ``answer_seconds`` for each LED); ``pico``: an EmulatedPico to use
    instead of making one.
    """
    sim = sim or config.board["driver"] == "sim"
    layout = load_layout(config.board["layout"])
    pin_map = load_pins(override=config.pins or None)
    kind = "the simulated Pico" if sim else f"the {config.board['driver']} driver"
    print(
        f"pegboard doctor: layout {layout.name}, LEDs through {kind}, "
        f"{len(pin_map.seats)} seats" + (" (simulated)" if sim else ""),
        file=out,
        flush=True,
    )
    results: list[Result] = []

    def report(*new: Result) -> None:
        for result in new:
            results.append(result)
            print(result.line(), file=out, flush=True)

    with contextlib.ExitStack() as stack:
        keyboard = Keyboard(sys.stdin, out, answer_seconds) if sys.stdin.isatty() else None
        try:
            leds = stack.enter_context(_leds(config, layout, sim, pico))
        except PegboardError as error:
            report(Result("LEDs", FAIL, str(error)))
        else:
            if eye is None:
                eye = sim_eye(pico or leds.pico) if sim else keyboard or no_eye
            report(link := check_link(leds, link_timeout))
            if link.status == FAIL:
                report(Result("LEDs", SKIP, "not lit: no link"))
            else:
                if eye is no_eye:
                    print("      no terminal to ask whether an LED is lit", file=out)
                results += check_leds(leds, layout, eye, link_timeout, out)
        intents: queue.Queue = queue.Queue()
        try:
            with warnings.catch_warnings():  # gpiozero's fallbacks: the error says it all
                warnings.simplefilter("ignore")
                factory = make_factory(sim=sim)
            controls = stack.enter_context(Controls(pin_map, factory, intents.put))
        except ConfigError as error:
            report(Result("controls", FAIL, str(error)))
        else:
            if finger is None and sim:
                finger = sim_finger
            if finger is None and keyboard is not None:
                _skip_on_enter(intents, out, keyboard)
            results += check_controls(controls, out, timeout, finger, intents)
    report(check_voice(config, sim))
    print_panel(config, out)
    failed = [r.name for r in results if r.status == FAIL]
    if failed:
        print(f"doctor: {len(failed)} failed: {', '.join(failed)}", file=out)
        return 1
    print("doctor: all good", file=out)
    return 0


@contextlib.contextmanager
def _leds(
    config: Config, layout: Layout, sim: bool, pico: EmulatedPico | None
) -> Iterator[LedDriver]:
    """The configured LED driver (``sim``: the emulated Pico), or a Pico's at ``pico.path``."""
    if pico is not None:
        leds = open_driver("serial", layout.strips, port=pico.path)
    else:
        kind = "sim" if sim else config.board["driver"]
        options = {"port": config.board["serial_port"] or None} if kind == "serial" else {}
        leds = open_driver(kind, layout.strips, **options)
    with leds:
        leds.brightness = config.board["brightness"]
        yield leds


def _unopened(port: str | None) -> str:
    """Why the Pico's port cannot be opened, in the words of the error."""
    import serial

    from pegboard.leds.link import open_port

    try:
        open_port(port).close()
    except PegboardError as error:
        return str(error)
    except serial.SerialException as error:  # busy, most likely
        return f"{error}; is the service running? (sudo systemctl stop pegboard)"
    return f"{port or 'the Pico'} opened only now: try again"


def _skip_on_enter(intents: queue.Queue, out: TextIO, keyboard: Keyboard) -> None:
    print("      (press Enter to skip a control you cannot find)", file=out, flush=True)

    def forward() -> None:
        while True:
            keyboard.lines.get()
            intents.put(SKIPPED)

    threading.Thread(target=forward, name="doctor-skips", daemon=True).start()


def _drain(intents: queue.Queue, quiet: float) -> None:
    """Forget what came before: extra clicks, until the controls are quiet for ``quiet`` s."""
    while True:
        try:
            intents.get(timeout=quiet) if quiet else intents.get_nowait()
        except queue.Empty:
            return


def _wrong_way(got: object, expect: Intent) -> bool:
    return (
        isinstance(got, Turn)
        and isinstance(expect, Turn)
        and got.seat == expect.seat
        and got.steps == -expect.steps
    )


def _said(intent: object) -> str:
    match intent:
        case Turn(seat=seat, steps=steps):
            return f"seat {seat + 1} turning {'forward' if steps > 0 else 'back'}"
        case Peg(seat=seat):
            return f"seat {seat + 1} pressing"
        case Advance():
            return "the advance button"
    return type(intent).__name__.lower()


def _pins(*gpios: int) -> str:
    """GPIO numbers and their header pins, for a person with a multimeter.

    >>> _pins(17, 27)
    'GPIO 17, 27 (header pins 11, 13)'
    """
    word = "pins" if len(gpios) > 1 else "pin"
    headers = ", ".join(str(HEADER[g][0]) for g in gpios)
    return f"GPIO {', '.join(map(str, gpios))} (header {word} {headers})"
