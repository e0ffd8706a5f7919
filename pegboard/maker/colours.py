"""The doctor's colour check: the board lights red, green and blue, a person says which
colour they saw, and a strip that takes its bytes in another order names the setting.

A WS2812B takes each LED's bytes green first (GRB); some strips sold as WS2812B take
RGB or another order, and the config's ``[board] colour_order`` says which. A strip
lit white looks right in any order, so for each strip that passed the white check the
doctor lights its first LED (the start hole) red, then green, then blue, and asks which
colour it is. What was seen, against what was sent in the configured order, gives the
strip's own order (:func:`strip_order`); a colour that no order explains (white, a
mix, dark) is not a 3-colour strip of this kind, such as an RGBW strip.

An answer is ``"R"``, ``"G"``, ``"B"``, :data:`OTHER` (white, a mix or nothing) or None
(no answer in time). :func:`keyboard_colours` asks a person; :func:`sim_colours` reads
the simulated strips (WS2812B, GRB) as a person would see them.

>>> strip_order("GRB", {"R": "G", "G": "R", "B": "B"})  # red looked green: an RGB strip
'RGB'
>>> strip_order("GRB", {"R": "R", "G": "G", "B": OTHER}) is None
True
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TextIO

from pegboard._firmware.pegproto import ORDERS
from pegboard.board.layout import Layout, Strip
from pegboard.board.render import Frame
from pegboard.i18n import N_, SOURCE, Phrase, translations
from pegboard.leds import LedDriver
from pegboard.maker.report import FAIL, PASS, Result
from pegboard.maker.sight import Keyboard, holed_leds, strip_name

if TYPE_CHECKING:
    from pegboard.leds.emulator import EmulatedPico

SENT = ("R", "G", "B")  # the colours lit, in turn
OTHER = "other"  # white, a mix of colours, or nothing lit
FULL = {"R": b"\x80\x00\x00", "G": b"\x00\x80\x00", "B": b"\x00\x00\x80"}  # half: enough
SETTING = "colour_order"  # the config's key, [board]
CHIP = "WS2812B"  # the LEDs the guide pins
# Translators: the colours a person may see, as one word each (typed as an answer, too).
_NAMES = {"R": N_("red"), "G": N_("green"), "B": N_("blue"), OTHER: N_("another colour")}
DIGITS = {"1": "R", "2": "G", "3": "B", "0": OTHER}  # typed in every language


@dataclass(frozen=True)
class ColourLook:
    """One LED lit in one colour, and the question put to the person watching."""

    strip: Strip
    led: int
    track: int
    sent: str  # "R", "G" or "B"

    def question(self, lang: str = SOURCE) -> str:
        asked = N_(
            "{strip} LED {led}: which colour is the start hole of track {track}? "
            "[1 {red}, 2 {green}, 3 {blue}, 0 white, a mix or dark]"
        )
        where = {"strip": strip_name(self.strip), "led": self.led, "track": self.track + 1}
        names = {"red": _said("R"), "green": _said("G"), "blue": _said("B")}
        return Phrase.of(asked, **where, **names).say(lang)


ColourEye = Callable[[ColourLook], "str | None"]


def colour_word(colour: str, lang: str = SOURCE) -> str:
    """``"R"`` -> ``"red"`` (or ``"rot"``), :data:`OTHER` -> ``"another colour"``."""
    return translations(lang).gettext(_NAMES[colour])


def understood(typed: str, lang: str = SOURCE) -> str | None:
    """A typed answer: a digit, or a colour's name in ``lang`` or English; else None.

    >>> understood("2"), understood("Rot", "de"), understood("blue", "fi"), understood("?")
    ('G', 'R', 'B', None)
    """
    said = typed.strip().lower()
    if said in DIGITS:
        return DIGITS[said]
    for colour in SENT:
        if said in {colour_word(colour).lower(), colour_word(colour, lang).lower()}:
            return colour
    return None


def strip_order(configured: str, seen: dict[str, str]) -> str | None:
    """The strip's own colour order, from the colour seen for each colour sent in the
    ``configured`` order; None when no order gives what was seen."""
    order = [""] * 3
    for sent, colour in seen.items():
        if colour not in SENT:
            return None
        order[configured.index(sent)] = colour  # the byte that carried it, read as that
    found = "".join(order)
    return found if found in ORDERS else None


def check_colours(
    leds: LedDriver,
    layout: Layout,
    strip: Strip,
    eye: ColourEye,
    configured: str,
    timeout: float,
) -> Result:
    """Light the strip's first LED under a hole red, green and blue; judge the answers."""
    look = holed_leds(layout, strip)[0]
    synced = getattr(leds, "wait_synced", None)
    name = Phrase.of(N_("colours of {strip}"), strip=strip_name(strip))
    seen: dict[str, str | None] = {}
    for sent in SENT:
        leds.show(_one_lit(layout.strip_lengths, strip.id, look.led, FULL[sent]))
        if synced is not None and not synced(timeout):
            unacked = N_("LED {led} was not acked within {seconds} s")
            return Result(name, FAIL, Phrase.of(unacked, led=look.led, seconds=f"{timeout:g}"))
        seen[sent] = eye(ColourLook(strip, look.led, look.hole.track, sent))
    leds.show(Frame.dark(layout.strip_lengths))
    answered = {sent: colour for sent, colour in seen.items() if colour is not None}
    missing = [sent for sent in SENT if sent not in answered]
    if missing:
        unanswered = N_("no answer for {colour}")
        return Result(name, FAIL, Phrase.of(unanswered, colour=_said(missing[0])))
    saw = Phrase.of(
        N_("red looked {red}, green {green}, blue {blue}"),
        red=_said(answered["R"]),
        green=_said(answered["G"]),
        blue=_said(answered["B"]),
    )
    found = strip_order(configured, answered)
    setting = f'{SETTING} = "{found}"'
    if found == configured:
        right = N_("{seen}: {setting} is right")
        return Result(name, PASS, Phrase.of(right, seen=saw, setting=setting))
    if found is not None:
        other = N_(
            "{seen}: the strip takes its colours in the order {order}, not {configured}: "
            "set {setting} under {table} in the config, then run the doctor again"
        )
        return Result(
            name,
            FAIL,
            Phrase.of(
                other,
                seen=saw,
                order=found,
                configured=configured,
                setting=setting,
                table="[board]",
            ),
        )
    none = N_(
        "{seen}: no colour order gives that, so this is not a 3-colour {chip} strip (an RGBW "
        "strip shows white or a mix): pegboard drives {chip} strips; {key} stays {configured}"
    )
    said = Phrase.of(none, seen=saw, chip=CHIP, key=SETTING, configured=configured)
    return Result(name, FAIL, said)


def _said(colour: str) -> Phrase:
    """A colour as the report says it, in the reader's language."""
    return Phrase(_NAMES[colour])


def _one_lit(lengths: tuple[int, ...], strip: int, led: int, colour: bytes) -> Frame:
    strips = [bytearray(3 * n) for n in lengths]
    strips[strip][3 * led : 3 * led + 3] = colour
    return Frame(tuple(bytes(s) for s in strips))


# --- eyes -------------------------------------------------------------------------------------


def keyboard_colours(keyboard: Keyboard) -> ColourEye:
    """The person at the terminal: a digit or a colour's name."""
    lang = keyboard.lang
    again = Phrase(N_("1, 2, 3 or 0?")).say(lang)

    def ask(look: ColourLook) -> str | None:
        return keyboard.ask(look.question(lang), lambda typed: understood(typed, lang), again)

    return ask


def sim_colours(pico: EmulatedPico, out: TextIO, lang: str = SOURCE) -> ColourEye:
    """The simulated board's eye: the colour its strips show (as a WS2812B reads the
    bytes), said on the screen after each question as a person would type it."""
    digit = {colour: typed for typed, colour in DIGITS.items()}

    def look(at: ColourLook) -> str:
        strips = pico.seen
        rgb = strips[at.strip.id][3 * at.led : 3 * at.led + 3] if len(strips) > at.strip.id else b""
        lit = [colour for colour, level in zip(SENT, rgb, strict=False) if level]
        colour = lit[0] if len(lit) == 1 else OTHER
        print(f"      {at.question(lang)} {digit[colour]}", file=out, flush=True)
        return colour

    return look


def scripted(answers: dict[str, str | None]) -> ColourEye:
    """Answers given in advance, by the colour sent: ``{"R": "G", ...}``."""
    return lambda look: answers.get(look.sent)
