"""The doctor's LED check: the board lights an LED, a person says whether they see it.

The Pico acks every frame whether or not a strip is wired, so only an eye tells a
working strip from a broken data wire. For each strip the doctor lights its first,
middle and last LED under a hole, one at a time, white, and asks. When one is dark it
asks about LEDs in between, halving the gap, until the last lit and the first dark LED
are neighbours: the fault sits there. An answer is True (seen), False (not seen) or
None (no answer in time); "no" and no answer both fail the strip, naming its Pico pin
and the likely fault. The question is asked, and the answer heard, in the person's
language (:func:`pegboard.maker.report.heard`).

An :data:`Eye` answers: :class:`Keyboard` asks a person on the terminal; with
``--sim``, :func:`sim_eye` reads the simulated Pico's LEDs.

>>> fault = diagnose(Strip(0, 2, 143), [Seen(0, True), Seen(71, True), Seen(104, False)])
>>> print(fault.say())  # doctest: +ELLIPSIS
lit up to LED 71, dark at LED 104: a broken joint (DOUT to DIN, 5 V or GND) between them, ...
>>> print(fault.say("de"))  # doctest: +ELLIPSIS
leuchtet bis LED 71, dunkel ab LED 104: eine gebrochene Lötstelle (DOUT an DIN, 5 V oder ...
"""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NamedTuple, TextIO, TypeVar

from pegboard.board.layout import Hole, Layout, Strip
from pegboard.board.render import Frame
from pegboard.i18n import N_, SOURCE, Phrase
from pegboard.leds import LedDriver
from pegboard.maker.hardware_docs import RESISTOR, SHIFTER_CHIP
from pegboard.maker.report import FAIL, PASS, Result, answers, heard

if TYPE_CHECKING:
    from pegboard.leds.emulator import EmulatedPico

T = TypeVar("T")
ANSWER_SECONDS = 30.0  # a person gets this long to say whether an LED is lit
WHITE = b"\xff\xff\xff"


def strip_name(strip: Strip) -> Phrase:
    """A strip as the report names it: its number and its Pico pin."""
    return Phrase.of(N_("strip {strip} (Pico {pin})"), strip=strip.id, pin=f"GP{strip.pin}")


@dataclass(frozen=True)
class Look:
    """One LED lit alone, and the question put to the person watching."""

    strip: Strip
    led: int
    hole: Hole

    def question(self, lang: str = SOURCE) -> str:
        """What the person is asked, in ``lang``, with the answers they may give."""
        yes, no = (word[0] for word in answers(lang))
        if self.hole.number == 0:
            asked = N_(
                "{strip} LED {led}: is the start hole of track {track} lit white? [{yes}/{no}]"
            )
        else:
            asked = N_("{strip} LED {led}: is hole {hole} of track {track} lit white? [{yes}/{no}]")
        where = {"strip": strip_name(self.strip), "led": self.led, "track": self.hole.track + 1}
        return Phrase.of(asked, **where, hole=self.hole.number, yes=yes, no=no).say(lang)


Eye = Callable[[Look], "bool | None"]


class Seen(NamedTuple):
    """An LED asked about, and the answer: seen lit, not seen, or no answer (None)."""

    led: int
    lit: bool | None


def holed_leds(layout: Layout, strip: Strip) -> list[Look]:
    """The LEDs of ``strip`` that sit under a hole, in strip order."""
    under = {h.led: h for h in layout.holes() if h.strip == strip.id}
    return [Look(strip, led, under[led]) for led in sorted(under)]


def first_middle_last(layout: Layout, strip: Strip) -> list[Look]:
    """The first, middle and last LED under a hole (fewer on a very short strip)."""
    looks = holed_leds(layout, strip)
    picks = sorted({0, len(looks) // 2, len(looks) - 1}) if looks else []
    return [looks[i] for i in picks]


def diagnose(strip: Strip, seen: list[Seen]) -> Phrase:
    """The likely fault from the answers in strip order, the first not seen last; every
    answer before it was a yes."""
    led, answer = seen[-1]
    if len(seen) == 1:
        fault = Phrase.of(
            N_(
                "nothing lit at the strip's start (LED {led}): the data wire from {pin} "
                "through the {chip} and the {resistor} resistor to the strip's DIN, the "
                "strip's arrows (pointing away from the Pico), or 5 V and GND at its start"
            ),
            led=led,
            pin=f"GP{strip.pin}",
            chip=SHIFTER_CHIP,
            resistor=RESISTOR,
        )
    else:
        fault = Phrase.of(
            N_(
                "lit up to LED {lit}, dark at LED {led}: a broken joint (DOUT to DIN, 5 V or "
                "GND) between them, or no 5 V at that end of the strip"
            ),
            lit=seen[-2].led,
            led=led,
        )
    if answer is None:
        return Phrase.of(
            N_("no answer for LED {led}; if it is dark, {fault}"), led=led, fault=fault
        )
    return fault


def check_strip(leds: LedDriver, layout: Layout, strip: Strip, eye: Eye, timeout: float) -> Result:
    """Ask about the first, middle and last LED; on a dark one, narrow down where."""
    synced = getattr(leds, "wait_synced", None)
    name = strip_name(strip)

    def shown(look: Look) -> bool:
        leds.show(_one_lit(layout.strip_lengths, look.strip.id, look.led))
        return synced is None or synced(timeout)

    looks = holed_leds(layout, strip)
    seen: list[Seen] = []
    for look in first_middle_last(layout, strip):
        if not shown(look):
            unacked = N_("LED {led} was not acked within {seconds} s")
            return Result(name, FAIL, Phrase.of(unacked, led=look.led, seconds=f"{timeout:g}"))
        answer = eye(look)
        seen.append(Seen(look.led, answer))
        if answer is not True:
            break
    else:
        every = ", ".join(str(s.led) for s in seen)
        return Result(name, PASS, Phrase.of(N_("LEDs {leds} seen"), leds=every))
    if seen[-1].lit is False and len(seen) > 1:  # someone watches: find the spot
        place = {look.led: i for i, look in enumerate(looks)}
        lit, dark = place[seen[-2].led], place[seen[-1].led]
        while dark - lit > 1:
            middle = (lit + dark) // 2
            if not shown(looks[middle]):
                break
            answer = eye(looks[middle])
            if answer is None:
                break
            lit, dark = (middle, dark) if answer else (lit, middle)
        seen[-2:] = [Seen(looks[lit].led, True), Seen(looks[dark].led, False)]
    return Result(name, FAIL, diagnose(strip, seen))


def check_leds(
    leds: LedDriver, layout: Layout, eye: Eye, timeout: float, out: TextIO, lang: str = SOURCE
) -> list[Result]:
    """Every strip checked by eye; the board dark again at the end."""
    results = []
    for strip in layout.strips:
        results.append(check_strip(leds, layout, strip, eye, timeout))
        print(results[-1].line(lang), file=out, flush=True)
    leds.show(Frame.dark(layout.strip_lengths))
    return results


# --- eyes -------------------------------------------------------------------------------------


class Keyboard:
    """Lines typed on the terminal, read by one thread and handed to whoever listens."""

    def __init__(
        self,
        stream: TextIO,
        out: TextIO,
        answer_seconds: float = ANSWER_SECONDS,
        lang: str = SOURCE,
    ):
        self.lines: queue.Queue[str] = queue.Queue()
        self.out, self.answer_seconds, self.lang = out, answer_seconds, lang

        def read() -> None:
            while line := stream.readline():
                self.lines.put(line.strip().lower())

        threading.Thread(target=read, name="doctor-keyboard", daemon=True).start()

    def __call__(self, look: Look) -> bool | None:
        """Ask the person about ``look``: yes or no in their language (or y or n),
        until the time is up."""
        yes, no = answers(self.lang)
        again = Phrase.of(N_("{yes} or {no}?"), yes=yes, no=no).say(self.lang)
        return self.ask(look.question(self.lang), lambda typed: heard(typed, self.lang), again)

    def ask(self, question: str, understood: Callable[[str], T | None], again: str) -> T | None:
        """Put ``question`` and wait for a line ``understood`` makes sense of (not None),
        asking ``again`` after each other line, until the time is up (then None)."""
        while not self.lines.empty():  # forget what was typed before the question
            self.lines.get_nowait()
        print(f"      {question} ", end="", file=self.out, flush=True)
        deadline = time.monotonic() + self.answer_seconds
        while (left := deadline - time.monotonic()) > 0:
            try:
                said = understood(self.lines.get(timeout=left))
            except queue.Empty:
                break
            if said is not None:
                return said
            print(f"      {again} ", end="", file=self.out, flush=True)
        print(file=self.out)
        return None


def sim_eye(pico: EmulatedPico) -> Eye:
    """The simulated board's eye: is that LED lit on the board the emulated Pico shows?"""

    def look(at: Look) -> bool:
        board = pico.shown[-1] if pico.shown else ()
        if len(board) <= at.strip.id:
            return False
        return any(board[at.strip.id][3 * at.led : 3 * at.led + 3])

    return look


def no_eye(look: Look) -> None:
    """Nobody to ask (no terminal): every question goes unanswered."""
    return None


def _one_lit(lengths: tuple[int, ...], strip: int, led: int) -> Frame:
    """A dark board but for one white LED."""
    strips = [bytearray(3 * n) for n in lengths]
    strips[strip][3 * led : 3 * led + 3] = WHITE
    return Frame(tuple(bytes(s) for s in strips))
