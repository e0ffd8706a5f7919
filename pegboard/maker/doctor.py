"""``pegboard doctor``: check a built board part by part, with a person watching.

1. The serial link: the Pico acks everything, in this pegboard's firmware version,
   on a MicroPython new enough.
2. The LEDs: each strip's first, middle and last LED lights alone and the person
   watching says whether they see it (:mod:`pegboard.maker.sight`); a dark one
   names the strip, its Pico pin and the likely fault. Then each strip that passed
   shows red, green and blue on its first LED and the person says which colour they
   saw: a strip that takes its colours in another order names the ``colour_order``
   to set (:mod:`pegboard.maker.colours`).
3. The controls: it asks for each dial turn and press, each button, the advance
   button, and waits for that very intent, with a timeout per control
   (:mod:`pegboard.maker.controls_check`).
4. The voice: it says a test phrase in the board's language, and a person listens
   (:mod:`pegboard.maker.voice_check`).
5. The camera, when ``[camera]`` enables it: a photo of a card held under it, read
   (:mod:`pegboard.maker.camera_check`).
6. The panel: its URL on the LAN, with a QR code for a phone; and the board's identity
   as a short fingerprint, to compare with the one a club's director pinned.

Everything it prints and asks is said in the command's language (``lang``); the test
phrase in the board's.

With ``--sim`` the board is the simulated one (the real firmware behind a pty,
gpiozero's mock pins), and the doctor looks at the LEDs and works the controls
itself. Stop the pegboard service first: the Pico's port and the GPIO pins serve
one program.
"""

from __future__ import annotations

import contextlib
import logging
import queue
import sys
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from pegboard import identity
from pegboard.board.layout import Layout, load_layout
from pegboard.config import Config
from pegboard.errors import ConfigError, PegboardError
from pegboard.i18n import N_, SOURCE, Phrase, phrase_of, translations
from pegboard.identity import Identity
from pegboard.inputs import Controls, load_pins, make_factory
from pegboard.lan import panel_urls
from pegboard.leds import LedDriver, open_driver
from pegboard.maker.camera_check import check_camera
from pegboard.maker.colours import ColourEye, check_colours, keyboard_colours, sim_colours
from pegboard.maker.controls_check import (
    CONTROL_SECONDS,
    Finger,
    Intents,
    check_controls,
    sim_finger,
    skip_on_enter,
)
from pegboard.maker.report import FAIL, PASS, SKIP, Result
from pegboard.maker.sight import ANSWER_SECONDS, Eye, Keyboard, check_leds, no_eye, sim_eye
from pegboard.maker.voice_check import check_voice

if TYPE_CHECKING:
    from pegboard.leds.emulator import EmulatedPico
    from pegboard.leds.session import LinkStats

LINK_SECONDS = 5.0  # the Pico must ack everything within this
NAME, COMMAND = "doctor", "pegboard doctor"  # how its report names itself
LINK, LEDS = Phrase(N_("link")), Phrase(N_("LEDs"))  # the parts the report names


# --- the checks ---------------------------------------------------------------------------


def check_link(leds: LedDriver, timeout: float) -> Result:
    """The Pico acks everything sent, and runs this pegboard's firmware version on a
    MicroPython new enough."""
    from pegboard.leds.pico import PicoDriver
    from pegboard.maker.firmware_tool import INSTALL_COMMAND, version_problem

    if not isinstance(leds, PicoDriver):
        no_pico = N_("no Pico: the LEDs use the {driver}")
        return Result(LINK, SKIP, Phrase.of(no_pico, driver=type(leds).__name__))
    start = time.monotonic()
    synced = leds.wait_synced(timeout)
    took = time.monotonic() - start
    stats = leds.stats
    if not synced:
        if not stats.connects:
            return Result(LINK, FAIL, _unopened(leds.port))
        counts = _counts(stats)
        if stats.bad_frames and stats.firmware is None:
            why = N_("the Pico answers in another protocol: run {command}; {counts}")
            return Result(LINK, FAIL, Phrase.of(why, command=INSTALL_COMMAND, counts=counts))
        why = N_("the Pico on {port} did not ack everything within {seconds} s; {counts}")
        seconds = f"{timeout:g}"
        return Result(LINK, FAIL, Phrase.of(why, port=stats.port, seconds=seconds, counts=counts))
    problem = version_problem(stats.firmware, stats.micropython)
    if problem:
        return Result(LINK, FAIL, problem)
    assert stats.firmware is not None  # version_problem refuses a Pico that did not say it
    synced_in = N_("firmware {version} on {port}, synced in {took}")
    version = ".".join(map(str, stats.firmware))
    said = Phrase.of(synced_in, version=version, port=stats.port, took=f"{took * 1000:.0f} ms")
    return Result(LINK, PASS, said)


def _counts(stats: LinkStats) -> Phrase:
    """The link's counters, for whoever looks into why it failed."""
    return Phrase.of(
        N_(
            "sent {sent} (retries {retries}), acks {acks}, refused {refused}, bad frames "
            "{bad_frames}, hellos {hellos}, connects {connects}, losses {losses}"
        ),
        sent=stats.sent,
        retries=stats.retries,
        acks=stats.acks,
        refused=stats.refusals,
        bad_frames=stats.bad_frames,
        hellos=stats.hellos,
        connects=stats.connects,
        losses=stats.losses,
    )


# --- the panel -------------------------------------------------------------------------------


def print_panel(config: Config, out: TextIO, lang: str = SOURCE) -> None:
    import segno

    urls, warning = panel_urls(config.panel["host"], config.panel["port"])
    if warning:
        line = Phrase.of(N_("panel: {url}  ({warning})"), url=urls[0], warning=warning)
    else:
        line = Phrase.of(N_("panel: {url}"), url=urls[0])
    print(line.say(lang), file=out)
    segno.make(urls[0]).terminal(out=out, compact=True)


def print_identity(data: Path | None, out: TextIO, lang: str = SOURCE) -> None:
    """The board's identity in ``data`` (its data folder) as a fingerprint, read only."""
    if data is None:
        return
    try:
        kept = Identity.read(data / identity.FILE)
    except (ValueError, OSError) as error:
        line = Phrase.of(
            N_("identity: {path} cannot be read: {error}"),
            path=str(data / identity.FILE),
            error=str(error),
        )
    else:
        line = (
            Phrase(N_("identity: none yet (the board makes one at its first start)"))
            if kept is None
            else Phrase.of(
                N_("identity: {fingerprint} (a club's director sees the same)"),
                fingerprint=kept.fingerprint,
            )
        )
    print(line.say(lang), file=out)


# --- the whole run ------------------------------------------------------------------------------


def run(
    config: Config,
    *,
    sim: bool = False,
    out: TextIO = sys.stdout,
    lang: str = SOURCE,
    timeout: float = CONTROL_SECONDS,
    link_timeout: float = LINK_SECONDS,
    finger: Finger | None = None,
    eye: Eye | None = None,
    colour_eye: ColourEye | None = None,
    pico: EmulatedPico | None = None,
    answer_seconds: float = ANSWER_SECONDS,
    data: Path | None = None,
) -> int:
    """Check everything; print one line per part, in ``lang``; 0 if nothing failed, else 1.

    ``finger`` works the controls, ``eye`` says whether an LED is lit and ``colour_eye``
    which colour it shows (defaults with ``sim``: :func:`sim_finger` and the simulated
    board's eyes; else the person at the terminal, who has ``answer_seconds`` for each
    LED); ``pico``: an EmulatedPico to use instead of making one; ``data``: the board's
    data folder (its identity is shown).
    """
    t = translations(lang)
    sim = sim or config.board["driver"] == "sim"
    layout = load_layout(config.board["layout"])
    pin_map = load_pins(override=config.pins or None)
    seats = len(pin_map.seats)
    if sim:
        heading = t.ngettext(
            "{command}: layout {layout}, LEDs through the simulated Pico, {seats} seat (simulated)",
            "{command}: layout {layout}, LEDs through the simulated Pico, "
            "{seats} seats (simulated)",
            seats,
        )
    else:
        heading = t.ngettext(
            "{command}: layout {layout}, LEDs through the {driver} driver, {seats} seat",
            "{command}: layout {layout}, LEDs through the {driver} driver, {seats} seats",
            seats,
        )
    driver = config.board["driver"]
    heading = heading.format(command=COMMAND, layout=layout.name, driver=driver, seats=seats)
    print(heading, file=out, flush=True)
    results: list[Result] = []

    def report(*new: Result) -> None:
        for result in new:
            results.append(result)
            print(result.line(lang), file=out, flush=True)

    with contextlib.ExitStack() as stack:
        stack.enter_context(_log_unprinted())
        keyboard = None
        if sys.stdin.isatty():
            keyboard = Keyboard(sys.stdin, out, answer_seconds, lang)
        try:
            leds = stack.enter_context(_leds(config, layout, sim, pico))
        except PegboardError as error:
            report(Result(LEDS, FAIL, phrase_of(error)))
        else:
            if eye is None:
                eye = sim_eye(_emulated(leds, pico)) if sim else keyboard or no_eye
            report(link := check_link(leds, link_timeout))
            if link.status == FAIL:
                report(Result(LEDS, SKIP, Phrase(N_("not lit: no link"))))
            else:
                if eye is no_eye:
                    print(
                        "      " + t.gettext("no terminal to ask whether an LED is lit"), file=out
                    )
                lit = check_leds(leds, layout, eye, link_timeout, out, lang)
                results += lit
                if colour_eye is None and sim:
                    colour_eye = sim_colours(_emulated(leds, pico), out, lang)
                elif colour_eye is None and keyboard is not None:
                    colour_eye = keyboard_colours(keyboard)
                order = config.board["colour_order"]
                for strip, white in zip(layout.strips, lit, strict=True):
                    if colour_eye is not None and white.status == PASS:
                        report(check_colours(leds, layout, strip, colour_eye, order, link_timeout))
        intents: Intents = queue.Queue()
        try:
            with warnings.catch_warnings():  # gpiozero's fallbacks: the error says it all
                warnings.simplefilter("ignore")
                factory = make_factory(sim=sim)
            controls = stack.enter_context(Controls(pin_map, factory, intents.put))
        except ConfigError as error:
            report(Result(Phrase(N_("controls")), FAIL, phrase_of(error)))
        else:
            if finger is None and sim:
                finger = sim_finger
            if finger is None and keyboard is not None:
                skip_on_enter(intents, out, keyboard)
            results += check_controls(controls, out, timeout, finger, intents, lang)
    report(check_voice(config, sim))
    camera = check_camera(config, sim, out, lang, keyboard)
    if camera is not None:
        report(camera)
    print_panel(config, out, lang)
    print_identity(data, out, lang)
    failed = [r.name.say(lang) for r in results if r.status == FAIL]
    if failed:
        said = t.gettext("{command}: {count} failed: {parts}")
        print(said.format(command=NAME, count=len(failed), parts=", ".join(failed)), file=out)
        return 1
    print(t.gettext("{command}: all good").format(command=NAME), file=out)
    return 0


@contextlib.contextmanager
def _leds(
    config: Config, layout: Layout, sim: bool, pico: EmulatedPico | None
) -> Iterator[LedDriver]:
    """The configured LED driver (``sim``: the emulated Pico), or a Pico's at ``pico.path``."""
    order = config.board["colour_order"]
    if pico is not None:
        leds = open_driver("serial", layout.strips, port=pico.path, colour_order=order)
    else:
        kind = "sim" if sim else config.board["driver"]
        options = {"port": config.board["serial_port"] or None} if kind == "serial" else {}
        leds = open_driver(kind, layout.strips, colour_order=order, **options)
    with leds:
        leds.brightness = config.board["brightness"]
        yield leds


def _emulated(leds: LedDriver, pico: EmulatedPico | None) -> EmulatedPico:
    """The emulated Pico of a simulated board: the one given, else the sim driver's."""
    from pegboard.leds.sim import EmulatedPicoDriver

    if pico is not None:
        return pico
    assert isinstance(leds, EmulatedPicoDriver)  # no Pico given: _leds opened the sim driver
    return leds.pico


@contextlib.contextmanager
def _log_unprinted() -> Iterator[None]:
    """The LED link's log lines (English, for the service's log) stay off the terminal:
    the report says the same in the reader's language. A log set up by whoever runs
    the doctor still gets them."""
    quiet, logger = logging.NullHandler(), logging.getLogger("pegboard.leds")
    logger.addHandler(quiet)  # a handler found: Python's last resort prints nothing
    try:
        yield
    finally:
        logger.removeHandler(quiet)


def _unopened(port: str | None) -> Phrase:
    """Why the Pico's port cannot be opened, with the cure."""
    import serial

    from pegboard.leds.link import find_pico, open_port
    from pegboard.maker.firmware_tool import port_refusal

    try:
        target = port or find_pico()
        open_port(target).close()
    except PegboardError as error:
        return phrase_of(error)
    except serial.SerialException as error:  # busy, most likely
        return port_refusal(target, error)
    return Phrase.of(N_("{port} opened only now: try again"), port=target)
