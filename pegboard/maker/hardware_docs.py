"""The generated parts of the makers' guide, ``hardware/README.md``, and the drilling templates.

Each generated part of the README sits between ``<!-- generated: NAME -->`` and
``<!-- end: NAME -->`` and comes from the files the code reads: the layouts (LED
strips, power, templates) and the pin map (the GPIO table). The drilling templates
are written to ``hardware/templates/LAYOUT.svg``.

    python -m pegboard.maker.hardware_docs           # list what is out of date (exit 1 if any)
    python -m pegboard.maker.hardware_docs --write   # bring it up to date

The power budget uses the renderer itself: the brightest frames it draws for the
layout, measured with the same current model (:class:`~pegboard.board.render.Power`)
that caps each frame to the supply at run time.

>>> b = budget(load_layout("two-track-61"), brightness=1.0)
>>> b.leds, b.worst_ma > b.play_ma > b.leds * Power().dark_ma
(144, True)
>>> supply_amps(1900)  # 1.9 A worst case, plus a quarter for headroom
3
>>> fuse_amps(3), wire_for(fuse_amps(3))  # the fuse for a 3 A supply, and the wire it guards
(3.15, '0.75 mm² (18 AWG)')
"""

from __future__ import annotations

import argparse
import functools
import math
import re
import sys
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

from pegboard.board.layout import Layout, layout_names, load_layout
from pegboard.board.render import WIN_LAP, BoardView, Power, Renderer, TrackView
from pegboard.board.svg import drilling_template
from pegboard.config import SCHEMA
from pegboard.inputs.pins import load_pins, pin_table

HARDWARE = Path(str(resources.files("pegboard._hardware")))
README = HARDWARE / "README.md"
TEMPLATES = HARDWARE / "templates"

BRIGHTNESS = SCHEMA["board"]["brightness"][0]  # the config's default
HEADROOM = 1.25  # a supply runs cool and its voltage holds at 80 % of its rating
SUPPLIES = (1, 2, 3, 4, 5, 6, 8, 10)  # common 5 V supplies, amperes
FUSES = (1, 1.6, 2, 2.5, 3.15, 4, 5, 6.3, 8, 10)  # 5 × 20 mm slow-blow (T) fuses, amperes
# Copper for the LED supply's 5 V and ground: the most each carries for good (IEC 60227's
# ratings for flexible cord, which hold for a short wire in a closed box), mm², AWG.
WIRES = ((3, 0.5, 20), (6, 0.75, 18), (10, 1.0, 17), (16, 1.5, 16))
INSTALL = HARDWARE / "install.sh"
# Pico GPIO -> its pin number (pin 1 by the USB socket, down one side and back up the other).
_PICO_SIDES = (0, 1, None, 2, 3, 4, 5, None, 6, 7, 8, 9, None, 10, 11, 12, 13, None, 14, 15)
_PICO_SIDES += (16, 17, None, 18, 19, 20, 21, None, 22, None, 26, 27, None, 28)
PICO_PINS = {gp: pin for pin, gp in enumerate(_PICO_SIDES, 1) if gp is not None}
SHIFTER = ((2, 3), (5, 6), (9, 8), (12, 11))  # 74AHCT125 channels: (A in, Y out) pins


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

    middle = layout.game // 2  # pegs mid-board, where a preview has room ahead

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


def led_pitch_mm(layout: Layout) -> float:
    """The LED spacing the layout was drawn for (its ``[board] led_pitch_mm``)."""
    source = resources.files("pegboard._layouts") / f"{layout.name}.toml"
    return float(tomllib.loads(source.read_text(encoding="utf-8"))["board"]["led_pitch_mm"])


# --- the parts of the README ---------------------------------------------------------


def _table(rows: list[tuple[object, ...]]) -> str:
    return "\n".join("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)


def strips_part() -> str:
    """Per layout: each strip's LEDs, length, Pico pin and level shifter channel."""
    out = []
    for name in layout_names():
        layout = load_layout(name)
        pitch = led_pitch_mm(layout)
        rows: list[tuple[object, ...]] = [
            ("Strip", "LEDs", "Length", "Pico pin", "74AHCT125 in → out", "Data to"),
            ("---:", "---:", "---:", "---", "---", "---"),
        ]
        for strip in layout.strips:
            a, y = SHIFTER[strip.id % 4]
            chip = f"chip {strip.id // 4 + 1}, " if len(layout.strips) > 4 else ""
            rows.append(
                (
                    strip.id,
                    strip.leds,
                    f"{strip.leds * pitch / 1000:.2f} m",
                    f"GP{strip.pin} (pin {PICO_PINS[strip.pin]})",
                    f"{chip}pin {a} → pin {y}",
                    f"390 Ω → DIN of strip {strip.id}",
                )
            )
        leds = sum(layout.strip_lengths)
        metres = leds * pitch / 1000
        out.append(
            f"**{name}**: {layout.title}. {leds} LEDs at {1000 / pitch:.0f} per metre: "
            f"{metres:.2f} m of strip, so buy {math.ceil(metres)} m.\n\n{_table(rows)}"
        )
    return "\n\n".join(out)


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
    for name in layout_names():
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
        ("Layout", "Template", "Board", "Holes", "Drill"),
        ("---", "---", "---", "---:", "---:"),
    ]
    for name in layout_names():
        layout = load_layout(name)
        rows.append(
            (
                layout.title,
                f"[templates/{name}.svg](templates/{name}.svg)",
                f"{layout.width_mm:g} × {layout.height_mm:g} mm",
                sum(1 for _ in layout.holes()),
                f"{layout.hole_mm:g} mm",
            )
        )
    return _table(rows)


def install_part() -> str:
    """The lines install.sh ends with (firmware, doctor, service), as it runs them."""
    text = INSTALL.read_text(encoding="utf-8")
    lines = text.split("# guide: begin\n", 1)[1].split("# guide: end\n", 1)[0]
    return "\n".join(f"    {line}" for line in lines.splitlines())


PARTS = {
    "strips": strips_part,
    "power": power_part,
    "pins": pins_part,
    "templates": templates_part,
    "install": install_part,
}


def _amps(milliamps: float) -> str:
    return f"{milliamps / 1000:.2f} A"


def readme(text: str) -> str:
    """``text`` with every generated part brought up to date."""
    for name, make in PARTS.items():
        pattern = re.compile(rf"(<!-- generated: {name} -->\n).*?(<!-- end: {name} -->)", re.DOTALL)
        if not pattern.search(text):
            raise ValueError(f"{README.name} has no generated part called {name!r}")
        text = pattern.sub(lambda m, make=make: f"{m.group(1)}{make()}\n{m.group(2)}", text)
    return text


def generated() -> dict[Path, str]:
    """Every generated file and what it should hold."""
    files = {README: readme(README.read_text(encoding="utf-8"))}
    for name in layout_names():
        files[TEMPLATES / f"{name}.svg"] = drilling_template(load_layout(name))
    return files


def stale() -> list[Path]:
    """The generated files that differ from what the generator makes now."""
    return [
        path
        for path, text in generated().items()
        if not path.exists() or path.read_text(encoding="utf-8") != text
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m pegboard.maker.hardware_docs",
        description="Check, or --write, the generated parts of hardware/README.md "
        "and the drilling templates.",
    )
    parser.add_argument("--write", action="store_true", help="bring them up to date")
    args = parser.parse_args(argv)
    if args.write:
        TEMPLATES.mkdir(exist_ok=True)
        for path, text in generated().items():
            path.write_text(text, encoding="utf-8")
        return 0
    old = stale()
    for path in old:
        print(f"out of date: {path}", file=sys.stderr)
    return 1 if old else 0


if __name__ == "__main__":
    sys.exit(main())
