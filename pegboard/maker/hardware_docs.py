"""The generated parts of the makers' guide, ``hardware/README.md``.

Each generated part of the README sits between ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` and comes from the files the code reads: the layouts (the parts
list and its totals, :mod:`pegboard.maker.bom`; what each board plays, its LED strips and
how to cut them, how it is built, power, templates and the case's files) and the pin map
(the GPIO table). ``python -m tools.hardware --write`` (in a checkout)
writes them, with the drawings, into the repository.

The power budget uses the renderer itself: the brightest frames it draws for the
layout, measured with the same current model (:class:`~pegboard.board.render.Power`)
that caps each frame to the supply at run time.

>>> b = budget(load_layout("two-track-61"), brightness=1.0)
>>> b.leds, b.worst_ma > b.play_ma > b.leds * Power().dark_ma
(152, True)
>>> supply_amps(1900)  # 1.9 A worst case, plus a quarter for headroom
3
>>> fuse_amps(3), wire_for(fuse_amps(3))  # the fuse for a 3 A supply, and the wire it guards
(3.15, '0.75 mm² (18 AWG)')
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pegboard.board.build import (
    DIE_MM,
    JOINT_MM,
    pieces,
    pockets,
    reels,
    strip_kind,
    viewing_angle,
)
from pegboard.board.layout import Hole, Layout, layout_names, load_layout
from pegboard.board.render import WIN_LAP, BoardView, Power, Renderer, TrackView
from pegboard.config import SCHEMA
from pegboard.inputs.pins import load_pins, pin_table
from pegboard.maker.bom import PRICED, bom_part
from pegboard.maker.files_docs import case_part, templates_part
from pegboard.maker.files_docs import table as _table
from pegboard.rules.deals import VARIANTS

BRIGHTNESS = SCHEMA["board"]["brightness"][0]  # the config's default
HEADROOM = 1.25  # a supply runs cool and its voltage holds at 80 % of its rating
SUPPLIES = (1, 2, 3, 4, 5, 6, 8, 10)  # common 5 V supplies, amperes
FUSES = (1, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10)  # 5 × 20 mm slow-blow (T) fuses, amperes
# Copper for the LED supply's 5 V and ground: the most each carries for good (IEC 60227's
# ratings for flexible cord, which hold for a short wire in a closed box), mm², AWG.
WIRES = ((3, 0.5, 20), (6, 0.75, 18), (10, 1.0, 17), (16, 1.5, 16))
INSTALL = Path(str(resources.files("pegboard._hardware") / "install.sh"))
# Pico GPIO -> its pin number (pin 1 by the USB socket, down one side and back up the other).
_DOWN = (0, 1, None, 2, 3, 4, 5, None, 6, 7, 8, 9, None, 10, 11, 12, 13, None, 14, 15)  # 1-20
_UP = (16, 17, None, 18, 19, 20, 21, None, 22, None, 26, 27, None, 28)  # 21-34: then power
PICO_PINS = {gp: pin for pin, gp in enumerate(_DOWN + _UP, 1) if gp is not None}
SHIFTER_CHIP = "74AHCT125"  # lifts the Pico's 3.3 V data to the strips' 5 V
SHIFTER = ((2, 3), (5, 6), (9, 8), (12, 11))  # its channels: (A in, Y out) pins
RESISTOR = "390 Ω"  # in each data line, before the strip's DIN
DOCTOR_MA = 25  # the doctor's one LED lit at a time, white at the default brightness
SOLID = (18.0, 3.2, 3.0)  # a plank, its bores, a channel for the strip: the first design


@dataclass(frozen=True)
class Budget:
    """The LED current of one layout at one brightness, in mA."""

    layout: str
    brightness: float
    leds: int
    play_ma: float  # the marks, every peg lit and an entry blinking on every track
    worst_ma: float  # the brightest frame the board draws: refusals on every track during a win
    white_ma: float  # every LED full white: pegboard never draws it, a fault might


@functools.cache
def budget(layout: Layout, brightness: float = BRIGHTNESS) -> Budget:
    """Measure the frames the renderer draws for ``layout`` at ``brightness``."""
    power = Power(brightness=brightness, supply_ma=math.inf)  # measure, never scale down
    renderer = Renderer(layout, power)
    tracks = len(layout.tracks)

    def most(views: Iterator[BoardView]) -> float:
        return max(power.milliamps(renderer.render(view)) for view in views)

    middle = layout.capacity - layout.game // 2 - 1  # mid-board on the last lap: marks lit

    def pegs(pending: int, refused: bool = False) -> tuple[TrackView, ...]:
        return tuple(
            TrackView(front=middle + t, back=middle - 8 + t, pending=pending, refused=refused)
            for t in range(tracks)
        )

    play = most(BoardView(pegs(pending=5), t=t / 8) for t in range(8))
    # At t=0 a refusal flashes and an entry blinks; sweep the winner's comet over every hole.
    worst = most(
        BoardView(
            pegs(refused=refused, pending=5), winner=winner, won_at=-hole * WIN_LAP / layout.game
        )
        for refused in (False, True)
        for winner in range(tracks)
        for hole in range(layout.game)
    )
    leds = sum(layout.strip_lengths)
    white = leds * (power.dark_ma + 3 * power.full_ma * brightness)
    return Budget(layout.name, brightness, leds, play, worst, white)


def supply_amps(worst_ma: float) -> int:
    """The smallest common 5 V supply that carries ``worst_ma`` with headroom."""
    need = worst_ma * HEADROOM / 1000
    return next((a for a in SUPPLIES if a >= need), math.ceil(need))


def fuse_amps(supply: float) -> float:
    """The slow-blow fuse for a supply of ``supply`` amperes: the smallest at or above it.
    The supply's own current limit is what stops a short; the fuse is the backstop for
    a supply without one, a larger one than the table's, or one that fails: a T fuse
    carries 1.5 times its rating for an hour and opens within seconds only at several
    times it, before the wire it guards is overheated."""
    return next((f for f in FUSES if f >= supply), supply)


def first_limit(dark_ma: float) -> float:
    """A bench supply's current limit for a board's first power-up, in amperes: the dark
    strips and the doctor's one LED lit at a time, with 0.1 A spare; a short or a
    reversed strip then meets the limit, not the strip's copper.

    >>> first_limit(288)  # two-track-121: 288 LEDs at 1 mA each, dark
    0.5
    """
    return math.ceil((dark_ma + DOCTOR_MA + 100) / 100) / 10


def wire_for(amps: float) -> str:
    """The thinnest wire that carries ``amps`` for good."""
    mm2, awg = next(((mm2, awg) for most, mm2, awg in WIRES if most >= amps), WIRES[-1][1:])
    return f"{mm2:g} mm² ({awg} AWG)"


# --- the parts of the README ---------------------------------------------------------


def layouts_part() -> str:
    """Per layout: its tracks and holes, and which games it can show."""
    targets: dict[int, list[str]] = {}
    for name, variant in VARIANTS.items():
        targets.setdefault(variant.target, []).append(name)
    head: list[object] = ["Layout", "Tracks", "Holes a track", "Board"]
    head += [f"Game to {t} ({', '.join(names)})" for t, names in sorted(targets.items())]
    rows: list[tuple[object, ...]] = [
        tuple(head),
        ("---", "---:", "---:", "---", *("---",) * len(targets)),
    ]
    for name in layout_names():
        layout = load_layout(name)
        cells: list[object] = [
            f"**{name}**: {layout.title}",
            len(layout.tracks),
            f"{layout.lap_holes}, a start and a game hole",
            f"{layout.width_mm:g} × {layout.height_mm:g} mm",
        ]
        cells += [_plays(layout, target) for target in sorted(targets)]
        rows.append(tuple(cells))
    return _table(rows)


def _plays(layout: Layout, target: int) -> str:
    if not layout.can_show(target):
        return "no: refused"
    if layout.laps == 1:
        return "yes"
    laps = layout.place(target, target).lap
    return {1: "once round", 2: "twice round", 3: "three times round"}.get(laps, f"{laps} laps")


def strips_part() -> str:
    """Per layout: each strip's pieces, Pico pin and level shifter channel; how to cut
    the pieces from reels."""
    out = []
    for name in layout_names("strip"):
        layout = load_layout(name)
        kind = strip_kind(layout)
        rows: list[tuple[object, ...]] = [
            (
                "Strip",
                "LEDs",
                "Pieces, in data order",
                "Pico pin",
                f"{SHIFTER_CHIP} in → out",
                "Data to",
            ),
            ("---:", "---:", "---", "---", "---", "---"),
        ]
        every = pieces(layout)
        for strip in layout.strips:
            a, y = SHIFTER[strip.id % 4]
            chip = f"chip {strip.id // 4 + 1}, " if len(layout.strips) > 4 else ""
            mine = [p for p in every if p.strip == strip.id]
            rows.append(
                (
                    strip.id,
                    strip.leds,
                    ", ".join(p.name for p in mine),
                    f"GP{strip.pin} (pin {PICO_PINS[strip.pin]})",
                    f"{chip}pin {a} → pin {y}",
                    f"{RESISTOR} → DIN of piece {mine[0].name}",
                )
            )
        cuts: list[tuple[object, ...]] = [
            ("Piece", "LEDs", "Cut length", "Holes over it, in data order"),
            ("---", "---:", "---:", "---"),
        ]
        cuts += [
            (p.name, p.leds, f"{p.leds * kind.pitch_mm:.0f} mm", _holes(layout, p.holes))
            for p in every
        ]
        bought = reels(layout)
        plan = "\n".join(
            f"- reel {i}: {', '.join(p.name for p in reel)} "
            f"({sum(p.leds for p in reel)} of {kind.reel_leds} LEDs)"
            for i, reel in enumerate(bought, 1)
        )
        leds = sum(layout.strip_lengths)
        out.append(
            f"**{name}**: {leds} LEDs, {kind.leds_per_m} a metre, {kind.width_mm:g} mm wide; "
            f"{len(bought)} reels of {kind.reel_m:g} m.\n\n{_table(rows)}\n\n{_table(cuts)}"
            f"\n\n{plan}"
        )
    return "\n\n".join(out)


def _holes(layout: Layout, holes: tuple[Hole, ...]) -> str:
    """``start hole, holes 1–40``: the holes of a piece in order, runs shortened."""
    words: list[str] = []
    run: list[int] = []

    def flush() -> None:
        if run:
            words.append(f"holes {run[0]}–{run[-1]}" if len(run) > 1 else f"hole {run[0]}")
            run.clear()

    for hole in holes:
        if hole.lap_mark or hole.number in (0, layout.game):
            flush()
            words.append(
                f"lap {hole.number} mark"
                if hole.lap_mark
                else ("start hole" if hole.number == 0 else "game hole")
            )
        elif run and abs(hole.number - run[-1]) != 1:
            flush()
            run.append(hole.number)
        else:
            run.append(hole.number)
    flush()
    return ", ".join(words)


def build_part() -> str:
    """Per layout: the plank, the pockets and the carriers in them with their allowances,
    the bores, and the viewing angle they give from the LED's die."""
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "Plank",
            "Skin over the LEDs",
            "Pockets",
            "Carriers, fit each side, router bit",
            "Bores",
            "Rows at least",
            "Seen within",
        ),
        ("---", "---:", "---:", "---:", "---:", "---:", "---:", "---:"),
    ]
    sums = {}
    for name in layout_names("strip"):
        layout = load_layout(name)
        h, t, n = layout.hole_mm, layout.skin_mm, layout.fill_index
        rows.append(
            (
                name,
                f"{layout.plank_mm:g} mm",
                f"{t:g} mm",
                f"{len(pockets(layout))}, {layout.plank_mm - t:g} mm deep",
                f"{layout.carrier_mm:g} mm, {layout.fit_mm:g} mm, ⌀{layout.bit_mm:g} mm",
                f"{h:g} mm, epoxy n = {n:g}",
                f"{layout.apart_mm:g} mm",
                _seen(h, t, n),
            )
        )
        sums[(h, t, n)] = layout
    lines = []
    for (h, t, n), layout in sums.items():
        die = [viewing_angle(h, t, n, d) for d in DIE_MM]
        shallow, deep = DIE_MM
        lines += [
            f"- The light leaves the LED's die, {shallow:g}–{deep:g} mm under the face of its "
            f"1.6 mm package: the steepest ray past the rim of a {h:g} mm bore through "
            f"{t:g} mm of wood leaves at α = atan({h / 2:g} / ({t:g} + {shallow:g}…{deep:g})) "
            f"= {viewing_angle(h, t, 1.0, deep):.1f}–{viewing_angle(h, t, 1.0, shallow):.1f}° "
            f"from vertical, all an open bore shows; the epoxy's top face bends it out to "
            f"θ = asin({n:g} × sin α) = {min(die):.0f}–{max(die):.0f}°.",
            f"- The allowances are the layout's own (`carrier_mm`, `fit_mm`, `bit_mm` under "
            f"`[board]`): a carrier {layout.carrier_mm:g} mm wide takes a "
            f"{strip_kind(layout).width_mm:g} mm strip that measures up to "
            f"{layout.carrier_mm:g} mm; {layout.fit_mm:g} mm of air each side of it, "
            f"{2 * layout.fit_mm:g} mm between two; the bit's radius, "
            f"{layout.bit_mm / 2:g} mm, rounds the pockets' inside corners, clear of the "
            f"carriers' ends ({JOINT_MM:g} mm of pocket past each). Every drawing uses them.",
        ]
    h, t, n = next(iter(sums))
    thicker = ", ".join(f"{t + d:g} mm {_seen(h, t + d, n)}" for d in (0.5, 1, 2))
    plank, bore, channel = SOLID
    lines += [
        f"- A thicker skin under the same bores: {thicker}.",
        f"- A solid {plank:g} mm plank with a {channel:g} mm channel under {bore:g} mm bores "
        f"and no epoxy: ±{viewing_angle(bore, plank - channel, 1.0, DIE_MM[0]):.0f}°.",
    ]
    return _table(rows) + "\n\n" + "\n".join(lines)


def _seen(hole: float, skin: float, index: float) -> str:
    """``±47–54°``: how far from vertical an LED shows, its die at either depth."""
    angles = sorted(round(viewing_angle(hole, skin, index, d)) for d in DIE_MM)
    return f"±{angles[0]}–{angles[1]}°"


def power_part() -> str:
    """The current each layout draws, the supply it implies, and the fuse and wire for it."""
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "LEDs",
            "All dark",
            "First power-up: limit a bench supply to",
            f"All pegs lit at {BRIGHTNESS:g}",
            f"Brightest frame at {BRIGHTNESS:g}",
            "Brightest frame at 1.0",
            "Every LED white at 1.0",
            "LED supply (5 V)",
            "`supply_ma`",
            "Fused at (slow-blow)",
            "5 V and GND wire",
        ),
        ("---", *("---:",) * 10, "---"),
    ]
    for name in layout_names("strip"):
        layout = load_layout(name)
        low, full = budget(layout), budget(layout, 1.0)
        dark = low.leds * Power().dark_ma
        amps = supply_amps(full.worst_ma)
        fuse = fuse_amps(amps)
        rows.append(
            (
                name,
                low.leds,
                _amps(dark),
                f"{first_limit(dark):.1f} A",
                _amps(low.play_ma),
                _amps(low.worst_ma),
                _amps(full.worst_ma),
                _amps(full.white_ma),
                f"{amps} A",
                round(amps * 1000 / HEADROOM),
                f"T{fuse:g} A",
                wire_for(fuse),
            )
        )
    return _table(rows)


def pins_part() -> str:
    return pin_table(load_pins())


def install_part() -> str:
    """The lines install.sh ends with (firmware, doctor, service), as it runs them."""
    text = INSTALL.read_text(encoding="utf-8")
    lines = text.split("# guide: begin\n", 1)[1].split("# guide: end\n", 1)[0]
    return "\n".join(f"    {line}" for line in lines.splitlines())


PARTS = {
    "bom": lambda: bom_part(load_layout(PRICED)),
    "layouts": layouts_part,
    "strips": strips_part,
    "build": build_part,
    "power": power_part,
    "pins": pins_part,
    "templates": templates_part,
    "case": case_part,
    "install": install_part,
}


def _amps(milliamps: float) -> str:
    return f"{milliamps / 1000:.2f} A"


def readme(text: str) -> str:
    """``text`` (the guide) with every generated part brought up to date."""
    return fill(text, PARTS)


def fill(text: str, parts: dict[str, Callable[[], str]]) -> str:
    """``text`` with each part between ``<!-- generated: NAME -->`` and its end marker
    made again by ``parts[NAME]``."""
    for name, make in parts.items():
        text = _filled(text, name, make())
    return text


def _filled(text: str, name: str, part: str) -> str:
    """``text`` with ``part`` between the markers of the part called ``name``."""
    pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(<!-- end: {name} -->)", re.DOTALL)
    if not pattern.search(text):
        raise ValueError(f"the guide has no generated part called {name!r}")
    return pattern.sub(lambda m: f"{m.group(1)}{part}\n{m.group(2)}", text)
