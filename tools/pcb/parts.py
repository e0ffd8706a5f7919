"""What goes on the PCB: each part's land pattern (top view, mm, from the part's centre),
its silkscreen marks, how the assembler turns it, and what to buy. The LED's land pattern
is its datasheet's (Worldsemi WS2812B-2020: four 0.7 mm square pads, 1.83 mm apart across
and 1.1 mm along); the rest are the IPC land patterns of KiCad's own library for the same
packages. Prices are estimates (single boards, 2025), in euros; every part the fab places
carries the LCSC stock code of the fab's parts library (JLCPCB's), taken from published
BOMs that were assembled with it; ``basic`` marks the fab's basic parts (no set-up fee).

:data:`ASSEMBLER_TURN` is the one table of how the assembler's library turns each
footprint from KiCad's: the placement file adds it to KiCad's angle on the top and takes
it off on the bottom (the assembler's bottom view is mirrored, so a turn runs the other
way there), as the widely used KiCad-to-JLCPCB tools do.
"""

from __future__ import annotations

from dataclasses import dataclass

from pegboard.maker.hardware_docs import SHIFTER


@dataclass(frozen=True, slots=True)
class Pad:
    number: str
    x: float
    y: float
    width: float
    height: float
    shape: str = "roundrect"  # KiCad's: rect, roundrect, circle
    drill: float = 0.0  # 0: a surface pad
    plated: bool = True


@dataclass(frozen=True, slots=True)
class Land:
    """A footprint: its pads and its courtyard (x0, y0, x1, y1), both in top view."""

    name: str
    pads: tuple[Pad, ...]
    courtyard: tuple[float, float, float, float]
    through_hole: bool = False
    paste: bool = True  # False: no solder paste on its pads (the fab does not place it)
    pin1: tuple[float, float] | None = None  # a silk dot by pin 1
    plus: tuple[float, float] | None = None  # a silk "+" by the positive pad
    bar: tuple[float, float, float, float] | None = None  # a silk line: the cathode's side

    def pad(self, number: str) -> Pad:
        return next(p for p in self.pads if p.number == number)


@dataclass(frozen=True, slots=True)
class Part:
    value: str
    land: Land
    manufacturer: str
    mpn: str
    lcsc: str
    about_eur: float  # an estimate a piece
    fab: bool = True  # the fab places it; False: the maker solders it
    basic: bool = False  # in the fab's basic stock: no set-up fee for the part


def _two(name: str, x: float, w: float, h: float, court: tuple[float, float]) -> Land:
    cx, cy = court
    pads = (Pad("1", -x, 0, w, h), Pad("2", x, 0, w, h))
    return Land(name, pads, (-cx, -cy, cx, cy))


LED_PADS = {"DOUT": "1", "GND": "2", "DIN": "3", "VDD": "4"}
LED_LAND = Land(
    "pegboard:LED_WS2812B-2020",
    tuple(
        Pad(n, x, y, 0.7, 0.7, "rect")
        for n, x, y in (
            ("1", -0.915, -0.55),
            ("2", -0.915, 0.55),
            ("3", 0.915, 0.55),
            ("4", 0.915, -0.55),
        )
    ),
    (-1.52, -1.25, 1.52, 1.25),
    pin1=(-1.7, -1.45),  # by DOUT, pad 1: outside the bore, not seen through the epoxy
)
R0603 = _two("pegboard:R_0603_1608Metric", 0.825, 0.8, 0.95, (1.48, 0.73))
C0603 = _two("pegboard:C_0603_1608Metric", 0.775, 0.9, 0.95, (1.48, 0.73))
FUSE_1812 = _two("pegboard:Fuse_1812_4532Metric", 2.1375, 1.125, 3.4, (3.0, 1.95))
CP_10X10 = Land(
    "pegboard:CP_Elec_10x10",
    (Pad("1", -4.2, 0, 4.4, 2.5), Pad("2", 4.2, 0, 4.4, 2.5)),
    (-6.65, -5.55, 6.65, 5.55),
    plus=(-4.2, -2.6),  # above the positive pad
)
SMB = Land(  # a DO-214AA diode: pad 1 the cathode
    "pegboard:D_SMB",
    (Pad("1", -2.15, 0, 2.5, 2.3), Pad("2", 2.15, 0, 2.5, 2.3)),
    (-3.65, -2.25, 3.65, 2.25),
    bar=(-3.7, -1.5, -3.7, 1.5),
)
SOT23 = Land(
    "pegboard:SOT-23",
    (
        Pad("1", -0.9375, -0.95, 1.475, 0.6),
        Pad("2", -0.9375, 0.95, 1.475, 0.6),
        Pad("3", 0.9375, 0, 1.475, 0.6),
    ),
    (-1.92, -1.7, 1.92, 1.7),
    pin1=(-0.94, -1.55),
)
SOIC14 = Land(
    "pegboard:SOIC-14_3.9x8.7mm_P1.27mm",
    tuple(
        Pad(
            str(n),
            -2.475 if n <= 7 else 2.475,
            (n - 4) * 1.27 if n <= 7 else (11 - n) * 1.27,
            1.95,
            0.6,
        )
        for n in range(1, 15)
    ),
    (-3.7, -4.6, 3.7, 4.6),
    pin1=(-3.8, -4.2),
)
TERMINAL = Land(
    "pegboard:TerminalBlock_Phoenix_MKDS-1,5-2-5.08",
    (Pad("1", 0, 0, 2.6, 2.6, "rect", 1.3), Pad("2", 5.08, 0, 2.6, 2.6, "circle", 1.3)),
    (-3.04, -5.71, 8.13, 5.1),
    through_hole=True,
)
# The Pico soldered flat by its castellated edge: pins 1-20 down the left (USB at the
# top), 21-40 back up the right, 2.54 mm apart, the rows 17.78 mm apart.
PICO_LAND = Land(
    "pegboard:RaspberryPi_Pico_castellated",
    tuple(
        Pad(
            str(n),
            (-1 if n <= 20 else 1) * 9.6,
            -24.13 + 2.54 * (n - 1 if n <= 20 else 40 - n),
            3.2,
            1.6,
            "rect",
        )
        for n in range(1, 41)
    ),
    (-11.5, -26.0, 11.5, 26.0),
    paste=False,  # soldered by hand: paste bumps would keep the Pico off its pads
)
MOUNTING = Land(
    "pegboard:MountingHole_3.2mm_M3",
    (Pad("", 0, 0, 3.2, 3.2, "circle", 3.2, False),),
    (-2.75, -2.75, 2.75, 2.75),
    True,
)
FIDUCIAL_LAND = Land(  # 1 mm of bare copper in a 2 mm opening of the mask, no paste
    "pegboard:Fiducial_1mm_Mask2mm",
    (Pad("", 0, 0, 1.0, 1.0, "circle"),),
    (-1.25, -1.25, 1.25, 1.25),
    paste=False,
)
FIDUCIAL_MASK_MM = 2.0

LED = Part("WS2812B-2020", LED_LAND, "Worldsemi", "WS2812B-2020", "C965555", 0.08)
SERIES = Part("390", R0603, "UNI-ROYAL", "0603WAF3900T5E", "C23151", 0.01, basic=True)
PULL_DOWN = Part("10k", R0603, "UNI-ROYAL", "0603WAF1002T5E", "C25804", 0.01, basic=True)
DECOUPLING = Part("100nF", C0603, "YAGEO", "CC0603KRX7R9BB104", "C14663", 0.01, basic=True)
SHIFTER_PART = Part("74AHCT125", SOIC14, "Texas Instruments", "SN74AHCT125DR", "C155176", 0.35)
BULK = Part("1000uF 10V", CP_10X10, "Lelon", "RVT1A102M1010", "C970713", 0.30)
FUSE = Part("PTC 2A hold", FUSE_1812, "Ruilon", "SMD1812P200TF/16", "C20812", 0.10)
CLAMP = Part("SMBJ5.0A", SMB, "(any, JEDEC SMBJ5.0A)", "SMBJ5.0A", "C83333", 0.06)
REVERSE = Part("AO3401A", SOT23, "Alpha & Omega", "AO3401A", "C15127", 0.05, basic=True)
INPUT = Part("5V in", TERMINAL, "Phoenix Contact", "1715721", "C5183929", 0.90, fab=False)
PICO = Part("Raspberry Pi Pico", PICO_LAND, "Raspberry Pi", "SC0915", "", 4.50, fab=False)
SCREW = Part("M3", MOUNTING, "", "", "", 0.0, fab=False)
FIDUCIAL = Part("Fiducial", FIDUCIAL_LAND, "", "", "", 0.0, fab=False)
# Where the maker buys what the fab does not place: the Pico from Raspberry Pi's own
# approved resellers (the fab's stock code is for its chip, not the board).
BOUGHT = {PICO.mpn: "an approved reseller"}

# How the assembler (JLCPCB) turns each footprint from KiCad's, degrees counterclockwise:
# added to KiCad's angle on the top, taken off on the bottom. The figures are those of
# the rotation tables the KiCad-to-JLCPCB tools share (SOT-23 180, SOIC 270, electrolytic
# 180) and of its library's WS2812B-2020 (90); two-pad chips, the 1812 fuse and the SMB
# diode sit as KiCad draws them.
ASSEMBLER_TURN = {
    LED_LAND.name: 90,
    SOIC14.name: 270,
    SOT23.name: 180,
    CP_10X10.name: 180,
    R0603.name: 0,
    C0603.name: 0,
    FUSE_1812.name: 0,
    SMB.name: 0,
}


def assembler_rotation(land: Land, rotation: float, bottom: bool) -> float:
    """The angle the assembler's placement file gives a part KiCad turns ``rotation``.

    >>> assembler_rotation(SOT23, 0, False), assembler_rotation(SOT23, 90, True)
    (180.0, 270.0)
    """
    turn = ASSEMBLER_TURN[land.name]
    return float((rotation - turn if bottom else rotation + turn) % 360)


FUSE_HOLD_A = 2.0  # the PTC carries this for good, trips at about twice it
FUSE_OHMS = 0.10  # its most once it has tripped (R1max of the SMD1812P200TF class)
FET_OHMS = 0.065  # the AO3401A on at VGS = -5 V: the order of its datasheet's most
CLAMP_V = (6.4, 7.0, 9.2)  # the SMBJ5.0A: breakdown least and most, clamp at its peak current
FUSE_TRIP_A = 4.0  # the PTC trips at this (twice its hold)
VIAS_A = 0.5  # what one 0.3 mm via carries for good: the power gets several
SHIFTER_IN = [a for a, _ in SHIFTER]  # the 74AHCT125's inputs (A) and outputs (Y)
SHIFTER_OUT = [y for _, y in SHIFTER]
SHIFTER_OE = (1, 4, 10, 13)  # active low: tied to ground
