"""``pegboard doctor``: check a built board part by part, with a person watching.

1. The serial link: the Pico acks everything, in this pegboard's firmware version.
2. The LEDs: each LED of each strip lights alone, in strip order, and the Pico
   acks each one (a person watches the light run along the holes).
3. The controls: it asks for each dial turn and press, each button, the advance
   button, and waits for that very intent, with a timeout per control.
4. The panel: its URL on the LAN, with a QR code for a phone.

With ``--sim`` the board is the simulated one (the real firmware behind a pty,
gpiozero's mock pins), and the doctor works the controls itself. Stop the
pegboard service first: the Pico's port and the GPIO pins serve one program.

>>> print(Result("link", PASS, "synced").line())
PASS  link: synced
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
from pegboard.board.render import Frame
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

if TYPE_CHECKING:
    from pegboard.leds.emulator import EmulatedPico

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"
LINK_SECONDS = 5.0  # the Pico must ack everything within this
CONTROL_SECONDS = 20.0  # a person gets this long for each control
STEP_SECONDS = 0.03  # each LED stays lit this long on a real board, for the eye
WRONG_WAY_SECONDS = 3.0  # after a turn the wrong way, a right one must come this soon
QUIET_SECONDS = 0.4  # a person's extra clicks die down within this
WHITE = b"\xff\xff\xff"
SKIPPED = object()  # Enter on the terminal: skip the control asked for


@dataclass(frozen=True)
class Result:
    """One line of the report."""

    name: str
    status: str
    detail: str

    def line(self) -> str:
        return f"{self.status}  {self.name}: {self.detail}"


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
    """The Pico acks everything sent, and runs this pegboard's firmware version."""
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
    problem = version_problem(stats.firmware)
    if problem:
        return Result("link", FAIL, problem)
    version = ".".join(map(str, stats.firmware))
    return Result(
        "link", PASS, f"firmware {version} on {stats.port}, synced in {took * 1000:.0f} ms"
    )


def check_leds(leds: LedDriver, layout: Layout, timeout: float, step: float) -> list[Result]:
    """Light each LED alone, strip by strip; a Pico must ack each before the next."""
    synced = getattr(leds, "wait_synced", None)
    lengths = layout.strip_lengths
    results = []

    def shown(frame: Frame) -> bool:
        leds.show(frame)
        return synced is None or synced(timeout)

    for strip in layout.strips:
        name = f"strip {strip.id} (Pico GP{strip.pin})"
        for led in range(strip.leds):
            if not shown(_one_lit(lengths, strip.id, led)):
                results.append(Result(name, FAIL, f"LED {led} was not acked within {timeout:g} s"))
                break
            if step:
                time.sleep(step)  # for the eye of the person watching
        else:
            results.append(Result(name, PASS, f"{strip.leds} LEDs lit in turn"))
    shown(Frame.dark(lengths))
    return results


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
    pico: EmulatedPico | None = None,
) -> int:
    """Check everything; print one line per part; 0 if nothing failed, else 1.

    ``finger`` works the controls (default with ``sim``: :func:`sim_finger`; else a
    person does); ``pico``: an EmulatedPico to use instead of making one.
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
        try:
            leds = stack.enter_context(_leds(config, layout, sim, pico))
        except PegboardError as error:
            report(Result("LEDs", FAIL, str(error)))
        else:
            report(link := check_link(leds, link_timeout))
            if link.status == FAIL:
                report(Result("LEDs", SKIP, "not lit: no link"))
            else:
                print("      watch each strip: the light runs along the holes in order", file=out)
                report(*check_leds(leds, layout, link_timeout, 0 if sim else STEP_SECONDS))
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
            if finger is None and sys.stdin.isatty():
                _skip_on_enter(intents, out)
            results += check_controls(controls, out, timeout, finger, intents)
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


def _skip_on_enter(intents: queue.Queue, out: TextIO) -> None:
    print("      (press Enter to skip a control you cannot find)", file=out, flush=True)

    def read() -> None:
        while sys.stdin.readline():
            intents.put(SKIPPED)

    threading.Thread(target=read, name="doctor-stdin", daemon=True).start()


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


def _one_lit(lengths: tuple[int, ...], strip: int, led: int) -> Frame:
    """A dark board but for one white LED."""
    strips = [bytearray(3 * n) for n in lengths]
    strips[strip][3 * led : 3 * led + 3] = WHITE
    return Frame(tuple(bytes(s) for s in strips))
