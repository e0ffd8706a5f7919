"""The doctor's controls check: it asks for each dial turn and press, each button and
the advance button in turn, and waits for that very intent, with a timeout per control.

A turn the wrong way names the swap that cures it; a control that never answers is
named with its GPIO and header pins, for a person with a multimeter. With ``--sim``,
:func:`sim_finger` works the simulated controls as a person would.
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from enum import Enum
from typing import TextIO

from pegboard.i18n import N_, SOURCE, Phrase, translations
from pegboard.inputs import Advance, Controls, DialPins, Intent, Peg, PinMap, Turn
from pegboard.inputs.pins import HEADER
from pegboard.maker.report import FAIL, PASS, Result
from pegboard.maker.sight import Keyboard

CONTROL_SECONDS = 20.0  # a person gets this long for each control
WRONG_WAY_SECONDS = 3.0  # after a turn the wrong way, a right one must come this soon
QUIET_SECONDS = 0.4  # a person's extra clicks die down within this


class Skip(Enum):
    """Enter on the terminal: skip the control asked for."""

    SKIPPED = "skipped"


SKIPPED = Skip.SKIPPED
Intents = queue.Queue[Intent | Skip]  # what the controls and the terminal said, in order


@dataclass(frozen=True)
class Pins:
    """GPIO numbers and their header pins, for a person with a multimeter.

    >>> Pins((17, 27)).say(), Pins((26,)).say("de")
    ('GPIO 17, 27 (header pins 11, 13)', 'GPIO 26 (Stiftleisten-Pin 37)')
    """

    gpios: tuple[int, ...]

    def say(self, lang: str = SOURCE) -> str:
        said = translations(lang).ngettext(
            "GPIO {gpios} (header pin {pins})", "GPIO {gpios} (header pins {pins})", len(self.gpios)
        )
        pins = ", ".join(str(HEADER[gpio][0]) for gpio in self.gpios)
        return said.format(gpios=", ".join(map(str, self.gpios)), pins=pins)


@dataclass(frozen=True)
class Ask:
    """One thing a person does with a control, and the intent it must give."""

    name: Phrase
    prompt: Phrase
    expect: Intent
    pins: Pins


Finger = Callable[[Controls, Ask], None]

# What to ask of each seat: name, prompt, the turn's steps (None: a press), its pins.
DIAL = (
    (
        N_("seat {seat} dial clockwise"),
        N_("turn seat {seat}'s dial one click clockwise"),
        1,
        ("a", "b"),
    ),
    (N_("seat {seat} dial back"), N_("turn seat {seat}'s dial one click back"), -1, ("a", "b")),
    (N_("seat {seat} dial push switch"), N_("press seat {seat}'s dial"), None, ("switch",)),
)
BUTTONS = (
    (N_("seat {seat} plus button"), N_("press seat {seat}'s plus button"), 1, ("plus",)),
    (N_("seat {seat} minus button"), N_("press seat {seat}'s minus button"), -1, ("minus",)),
    (N_("seat {seat} peg button"), N_("press seat {seat}'s peg button"), None, ("peg",)),
)
ADVANCE = (N_("advance button"), N_("press the advance button"))
# A control that counts the wrong way: the two keys of the pin map to swap.
SWAP = N_("counts the wrong way: swap {one} and {other} in the pin map ({pins})")


def asks(pin_map: PinMap) -> list[Ask]:
    """What to ask for, control by control, in pin map order.

    >>> from pegboard.inputs import ButtonPins
    >>> [str(a.name) for a in asks(PinMap((ButtonPins(4, 18, 19),), advance=26))]
    ['seat 1 plus button', 'seat 1 minus button', 'seat 1 peg button', 'advance button']
    """
    out = []
    for seat, wiring in enumerate(pin_map.seats):
        for name, prompt, steps, fields in DIAL if isinstance(wiring, DialPins) else BUTTONS:
            out.append(
                Ask(
                    Phrase.of(name, seat=seat + 1),
                    Phrase.of(prompt, seat=seat + 1),
                    Peg(seat) if steps is None else Turn(seat, steps),
                    Pins(tuple(getattr(wiring, field) for field in fields)),
                )
            )
    name, prompt = ADVANCE
    out.append(Ask(Phrase(name), Phrase(prompt), Advance(), Pins((pin_map.advance,))))
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


def check_controls(
    controls: Controls,
    out: TextIO,
    timeout: float,
    finger: Finger | None,
    intents: Intents,
    lang: str = SOURCE,
) -> list[Result]:
    """Ask for each control in turn and wait for its intent."""
    results = []
    for ask in asks(controls.pin_map):
        _drain(intents, 0 if finger else QUIET_SECONDS)
        print(f"      {ask.prompt.say(lang)} ...", file=out, flush=True)
        hand = None
        if finger is not None:
            hand = threading.Thread(target=finger, args=(controls, ask), daemon=True)
            hand.start()
        results.append(_await(intents, ask, timeout))
        if hand is not None:
            hand.join(timeout)
        print(results[-1].line(lang), file=out, flush=True)
    return results


@dataclass(frozen=True)
class Heard:
    """The intents that came instead of the one asked for, said in a list."""

    intents: tuple[object, ...]

    def say(self, lang: str = SOURCE) -> str:
        return ", ".join(sorted({_said(intent).say(lang) for intent in self.intents}))


def _await(intents: Intents, ask: Ask, timeout: float) -> Result:
    """Wait for ``ask.expect``; a turn the wrong way fails soon, other intents are noted."""
    deadline = time.monotonic() + timeout
    seen: list[object] = []
    while (left := deadline - time.monotonic()) > 0:
        try:
            got = intents.get(timeout=left)
        except queue.Empty:
            break
        if got is SKIPPED:
            return Result(ask.name, FAIL, Phrase.of(N_("skipped ({pins})"), pins=ask.pins))
        if got == ask.expect:
            return Result(ask.name, PASS, ask.pins)
        seen.append(got)
        if _wrong_way(got, ask.expect):
            deadline = min(deadline, time.monotonic() + WRONG_WAY_SECONDS)
    if any(_wrong_way(got, ask.expect) for got in seen):
        if len(ask.pins.gpios) == 2:  # a dial's turn: its a and b pins
            fix = Phrase.of(SWAP, one="a", other="b", pins=ask.pins)
        else:
            fix = Phrase.of(SWAP, one="minus", other="plus", pins=ask.pins)
        return Result(ask.name, FAIL, fix)
    seconds = f"{timeout:g}"
    if not seen:
        nothing = Phrase.of(N_("nothing in {seconds} s ({pins})"), seconds=seconds, pins=ask.pins)
        return Result(ask.name, FAIL, nothing)
    instead = N_("nothing in {seconds} s ({pins}); heard {heard} instead")
    heard = Heard(tuple(seen))
    return Result(ask.name, FAIL, Phrase.of(instead, seconds=seconds, pins=ask.pins, heard=heard))


def skip_on_enter(intents: Intents, out: TextIO, keyboard: Keyboard) -> None:
    """A line typed on the terminal skips the control asked for (it fails, named)."""
    skip = Phrase.of(N_("(press {key} to skip a control you cannot find)"), key="Enter")
    print(f"      {skip.say(keyboard.lang)}", file=out, flush=True)

    def forward() -> None:
        while True:
            keyboard.lines.get()
            intents.put(SKIPPED)

    threading.Thread(target=forward, name="doctor-skips", daemon=True).start()


def _drain(intents: Intents, quiet: float) -> None:
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


def _said(intent: object) -> Phrase:
    match intent:
        case Turn(seat=seat, steps=steps) if steps > 0:
            return Phrase.of(N_("seat {seat} turning forward"), seat=seat + 1)
        case Turn(seat=seat):
            return Phrase.of(N_("seat {seat} turning back"), seat=seat + 1)
        case Peg(seat=seat):
            return Phrase.of(N_("seat {seat} pressing"), seat=seat + 1)
        case Advance():
            return Phrase(N_("the advance button"))
    return Phrase.as_is(type(intent).__name__.lower())
