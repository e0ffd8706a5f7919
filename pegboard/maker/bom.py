"""The guide's list of parts: each line's count (from the layout where it depends on it)
and price, and the totals computed from the lines, for a board with either Pi.

Prices are rough, in euros, from European hobby shops in 2025, without shipping: a low
and a high price for one. A line marked for one Pi only counts in that Pi's total.

>>> from pegboard.board.layout import load_layout
>>> low, high = total(load_layout("two-track-121"), "Zero 2 W")
>>> low < high, round(low)
(True, 156)
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from pegboard.board.build import reels
from pegboard.board.layout import Layout

PIS = ("Zero 2 W", "4")  # the two boards priced: the smallest and the common one
PRICED = "two-track-121"  # the board the guide prices


@dataclass(frozen=True)
class Part:
    name: str
    count: int | Callable[[Layout], int]
    low: float  # euros for one
    high: float
    pi: str | None = None  # only with this Pi

    def how_many(self, layout: Layout) -> int:
        return self.count(layout) if callable(self.count) else self.count


def _reels(layout: Layout) -> int:
    return len(reels(layout)) + 1  # and a spare: a dead LED or a bad cut costs a piece


def _strips(layout: Layout) -> int:
    return len(layout.strips)


def _players(layout: Layout) -> int:
    return len(layout.tracks)


PARTS = (
    Part("Raspberry Pi Zero 2 W, with a soldered 40-pin header", 1, 18, 22, "Zero 2 W"),
    Part(
        "micro-USB OTG adapter (the Zero's one USB port to the Pico's cable)", 1, 2, 3, "Zero 2 W"
    ),
    Part("Its power supply, micro-USB, 5 V 2.5 A", 1, 8, 10, "Zero 2 W"),
    Part("Raspberry Pi 4 Model B, 2 GB", 1, 45, 55, "4"),
    Part("Its power supply, official USB-C, 5.1 V 3 A", 1, 9, 13, "4"),
    Part("microSD card, 16 GB or more", 1, 6, 8),
    Part("Raspberry Pi Pico H (RP2040, headers soldered)", 1, 5, 6),
    Part("USB cable, USB-A to micro-USB, 15-30 cm (the Pi to the Pico)", 1, 2, 3),
    Part(
        "WS2812B strip, 5 V, 144 LEDs a metre, IP30 (bare, no silicone), 12 mm wide, GRB, "
        "1 m reel: the strips table's reels and a spare",
        _reels,
        12,
        18,
    ),
    Part("74AHCT125 quad buffer (DIP-14) and a 14-pin socket", 1, 1, 1.5),
    Part("390 Ω resistor, one a strip (at the strip's DIN)", _strips, 0.1, 0.1),
    Part("10 kΩ resistor, one a strip (pull-down on the buffer's input)", _strips, 0.1, 0.1),
    Part("100 nF ceramic capacitor (the buffer's supply pins)", 1, 0.1, 0.1),
    Part(
        "1000 µF electrolytic capacitor, 10 V or more (the LED supply, after the fuse)", 1, 0.3, 0.5
    ),
    Part("LED supply: USB-C charger, 5 V 3 A (15 W; gives only 5 V to a plain sink)", 1, 9, 13),
    Part("USB-C sink breakout with 5.1 kΩ on CC1 and CC2, screw terminals", 1, 2, 3),
    Part("Inline fuse holder, 5 × 20 mm, and a slow-blow (T) fuse from the power table", 1, 2, 3),
    Part(
        "Rotary encoder with push switch, EC11, 20 pulses a turn and 20 detents, and a knob",
        _players,
        1.5,
        2.5,
    ),
    Part("Push button, 12 mm panel mount (advance)", 1, 1, 2),
    Part("MAX98357A I2S amplifier breakout and a 4 Ω 3 W speaker, 40 mm", 1, 6, 10),
    Part(
        "Wire: 0.5 or 0.75 mm² red and black (power table), thin for data, jumper wires", 1, 8, 10
    ),
    Part("Perfboard, 5 × 7 cm (the level shifter)", 1, 1, 1),
    Part("Hardwood plank, 18 mm: the board and 25 mm spare all round (layouts table)", 1, 20, 35),
    Part("Plywood, 3 mm: the back panel and the carriers ({carrier} mm strips)", 1, 4, 6),
    Part("Clear tape, 50 mm (packing tape: under the bores)", 1, 2, 3),
    Part("Clear casting epoxy, low viscosity, 50 ml, and two syringes", 1, 8, 12),
    Part("Foam strip, self-adhesive, about 12 × 10 mm", 1, 3, 4),
    Part(
        "The case: 3D printed (about 300 g of PLA) or 6 mm plywood; M2.5 standoffs, screws, "
        "4 rubber feet",
        1,
        8,
        14,
    ),
)


def lines(layout: Layout, pi: str) -> list[tuple[Part, int]]:
    """The parts for a board of ``layout`` with the Pi ``pi``, and how many of each."""
    return [(p, p.how_many(layout)) for p in PARTS if p.pi in (None, pi)]


def total(layout: Layout, pi: str) -> tuple[float, float]:
    """The lowest and highest price of the whole board, from its lines."""
    found = lines(layout, pi)
    return (sum(n * p.low for p, n in found), sum(n * p.high for p, n in found))


def euros(low: float, high: float) -> str:
    """``€12–18``, ``€0.10``, ``€7.50–12.50``: cents only where there are some.

    >>> euros(12, 18), euros(0.1, 0.1), euros(7.5, 12.5)
    ('€12–18', '€0.10', '€7.50–12.50')
    """
    cents = any(round(v * 100) % 100 for v in (low, high))
    low_, high_ = (f"{v:.2f}" if cents else f"{v:.0f}" for v in (low, high))
    return f"€{low_}" if low_ == high_ else f"€{low_}–{high_}"


def bom_part(layout: Layout) -> str:
    """The parts table for ``layout``, with a line for each and the totals from them."""
    rows = ["| Part | For | How many | Each | Line |", "| --- | --- | ---: | ---: | ---: |"]
    for part in PARTS:
        n = part.how_many(layout)
        for_ = f"Pi {part.pi}" if part.pi else "both"
        name = part.name.format(carrier=f"{layout.carrier_mm:g}")
        rows.append(
            f"| {name} | {for_} | {n} | {euros(part.low, part.high)} | "
            f"{euros(n * part.low, n * part.high)} |"
        )
    sums = [
        f"| **A {layout.name} board with a Pi {pi}** | Pi {pi} | | | "
        f"**{euros(*total(layout, pi))}** |"
        for pi in PIS
    ]
    return "\n".join(rows + sums)
