"""The generated parts of the makers' guide, ``hardware/README.md``.

Each generated part of the README sits between ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` and comes from the files the code reads: the layouts (what each
board plays, its LED strips and how to cut them, how it is built, power, templates) and
the pin map (the GPIO table). ``python -m tools.hardware --write`` (in a checkout)
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

from pegboard.board.build import pieces, pockets, reels, viewing_angle
from pegboard.board.layout import Layout, layout_names, load_layout
from pegboard.board.render import WIN_LAP, BoardView, Power, Renderer, TrackView
from pegboard.board.template import PAPERS, sheets
from pegboard.config import SCHEMA
from pegboard.game.settings import VARIANTS
from pegboard.inputs.pins import load_pins, pin_table

BRIGHTNESS = SCHEMA["board"]["brightness"][0]  # the config's default
HEADROOM = 1.25  # a supply runs cool and its voltage holds at 80 % of its rating
SUPPLIES = (1, 2, 3, 4, 5, 6, 8, 10)  # common 5 V supplies, amperes
FUSES = (1, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10)  # 5 × 20 mm slow-blow (T) fuses, amperes
# Copper for the LED supply's 5 V and ground: the most each carries for good (IEC 60227's
# ratings for flexible cord, which hold for a short wire in a closed box), mm², AWG.
WIRES = ((3, 0.5, 20), (6, 0.75, 18), (10, 1.0, 17), (16, 1.5, 16))
INSTALL = Path(str(resources.files("pegboard._hardware") / "install.sh"))
# Pico GPIO -> its pin number (pin 1 by the USB socket, down one side and back up the other).
_PICO_SIDES = (0, 1, None, 2, 3, 4, 5, None, 6, 7, 8, 9, None, 10, 11, 12, 13, None, 14, 15)
_PICO_SIDES += (16, 17, None, 18, 19, 20, 21, None, 22, None, 26, 27, None, 28)
PICO_PINS = {gp: pin for pin, gp in enumerate(_PICO_SIDES, 1) if gp is not None}
SHIFTER_CHIP = "74AHCT125"  # lifts the Pico's 3.3 V data to the strips' 5 V
SHIFTER = ((2, 3), (5, 6), (9, 8), (12, 11))  # its channels: (A in, Y out) pins
RESISTOR = "390 Ω"  # in each data line, before the strip's DIN
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

    def pegs(**extra: object) -> tuple[TrackView, ...]:
        return tuple(
            TrackView(front=middle + t, back=middle - 8 + t, **extra) for t in range(tracks)
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
    It blows on a short or a stuck-white strip, which a supply without a current limit
    (or a larger one than the table's) would feed until a wire or the strip burnt."""
    return next((f for f in FUSES if f >= supply), supply)


def wire_for(amps: float) -> str:
    """The thinnest wire that carries ``amps`` for good."""
    mm2, awg = next(((mm2, awg) for most, mm2, awg in WIRES if most >= amps), WIRES[-1][1:])
    return f"{mm2:g} mm² ({awg} AWG)"


# --- the parts of the README ---------------------------------------------------------


def _table(rows: list[tuple[object, ...]]) -> str:
    return "\n".join("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)


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
        kind = layout.strip_kind
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


def _holes(layout: Layout, holes: tuple) -> str:
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
    """Per layout: the plank, the pockets and the bores, and the viewing angle they give."""
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "Plank",
            "Skin over the LEDs",
            "Pockets",
            "Bores",
            "Rows at least",
            "Seen within",
        ),
        ("---", "---:", "---:", "---:", "---:", "---:", "---:"),
    ]
    sums = {}
    for name in layout_names("strip"):
        layout = load_layout(name)
        kind = layout.strip_kind
        angle = viewing_angle(layout.hole_mm, layout.skin_mm, layout.fill_index)
        rows.append(
            (
                name,
                f"{layout.plank_mm:g} mm",
                f"{layout.skin_mm:g} mm",
                f"{len(pockets(layout))}, {layout.plank_mm - layout.skin_mm:g} mm deep",
                f"{layout.hole_mm:g} mm, epoxy n = {layout.fill_index:g}",
                f"{kind.apart_mm:g} mm",
                f"±{angle:.0f}°",
            )
        )
        sums[(layout.hole_mm, layout.skin_mm, layout.fill_index)] = angle
    lines = [
        f"- {h:g} mm bores through {t:g} mm of wood: the ray from the LED's centre past the "
        f"rim leaves at α = atan({h / 2:g} / {t:g}) = {viewing_angle(h, t):.1f}° from "
        f"vertical, all an open bore shows; the epoxy's top face bends it out to "
        f"θ = asin({n:g} × sin {viewing_angle(h, t):.1f}°) = {angle:.1f}°."
        for (h, t, n), angle in sums.items()
    ]
    h, t, n = next(iter(sums))
    thicker = ", ".join(f"{t + d:g} mm ±{viewing_angle(h, t + d, n):.0f}°" for d in (0.5, 1, 2))
    plank, bore, channel = SOLID
    lines += [
        f"- A thicker skin under the same bores: {thicker}.",
        f"- A solid {plank:g} mm plank with a {channel:g} mm channel under {bore:g} mm bores "
        f"and no epoxy: ±{viewing_angle(bore, plank - channel):.0f}°.",
    ]
    return _table(rows) + "\n\n" + "\n".join(lines)


def power_part() -> str:
    """The current each layout draws, the supply it implies, and the fuse and wire for it."""
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "LEDs",
            f"All pegs lit at {BRIGHTNESS:g}",
            f"Brightest frame at {BRIGHTNESS:g}",
            "Brightest frame at 1.0",
            "Every LED white at 1.0",
            "LED supply (5 V)",
            "`supply_ma`",
            "Fused at (slow-blow)",
            "5 V and GND wire",
        ),
        ("---", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---:", "---"),
    ]
    for name in layout_names("strip"):
        layout = load_layout(name)
        low, full = budget(layout), budget(layout, 1.0)
        amps = supply_amps(full.worst_ma)
        fuse = fuse_amps(amps)
        rows.append(
            (
                name,
                low.leds,
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


def templates_part() -> str:
    rows: list[tuple[object, ...]] = [
        ("Layout", "Board", "Holes", "Drill", "SVG", "DXF", "PDF, A4", "PDF, Letter"),
        ("---", "---", "---:", "---:", "---", "---", "---", "---"),
    ]
    for name in layout_names():
        layout = load_layout(name)
        papers = [
            f"[{len(sheets(layout, paper)[1])} sheets](templates/{name}-{paper.lower()}.pdf)"
            for paper in PAPERS
        ]
        rows.append(
            (
                name,
                f"{layout.width_mm:g} × {layout.height_mm:g} mm",
                sum(1 for _ in layout.holes()),
                f"{layout.hole_mm:g} mm",
                f"[{name}.svg](templates/{name}.svg)",
                f"[{name}.dxf](templates/{name}.dxf)",
                *papers,
            )
        )
    return _table(rows)


def install_part() -> str:
    """The lines install.sh ends with (firmware, doctor, service), as it runs them."""
    text = INSTALL.read_text(encoding="utf-8")
    lines = text.split("# guide: begin\n", 1)[1].split("# guide: end\n", 1)[0]
    return "\n".join(f"    {line}" for line in lines.splitlines())


PARTS = {
    "layouts": layouts_part,
    "strips": strips_part,
    "build": build_part,
    "power": power_part,
    "pins": pins_part,
    "templates": templates_part,
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
        pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(<!-- end: {name} -->)", re.DOTALL)
        if not pattern.search(text):
            raise ValueError(f"the guide has no generated part called {name!r}")
        text = pattern.sub(lambda m, make=make: f"{m.group(1)}{make()}\n{m.group(2)}", text)
    return text
