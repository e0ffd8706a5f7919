"""Files a workshop takes, from a layout: DXF for a CNC router (the top, then the bottom
mirrored for the plank turned over), the back panel, and a layered board for a laser.

All DXF R2000 in millimetres, y up, every cut on a layer whose name says the tool and the
depth (``POCKET_DEPTH_15MM``, ``BORE_4.5MM_DEPTH_4MM``), reference lines on layers named
``REF_...`` (cut nothing).

- **Top** (``NAME-cnc-top.dxf``): the blank (the board and ``STOCK_MM`` spare all round),
  the bores, and two dowel holes on the line the plank is turned over about, in the spare
  at its ends: the dowels go through into the spoilboard.
- **Bottom** (``NAME-cnc-bottom.dxf``): the same, seen from below once the plank is turned
  over left to right on the dowels: x mirrored about the board's middle. The pockets and
  the notches between them as one outline each, their inside corners at the bit's radius;
  pilot holes for the back panel's screws; the board's outline to cut it free last; the
  bores mirrored, for checking (``REF_BORES``).
- **Back panel** (``NAME-back.dxf``): 3 mm plywood with the screw holes and the wire exits,
  seen from above as it goes on.
- **Laser** (``NAME-laser.dxf``): the board as 3 mm sheets to glue up, laid out one under
  another: the top (the skin, with the bores), the spacers (the pockets cut through, pilot
  holes for the back panel's screws) and the back panel; ``CUT`` and ``ENGRAVE`` layers.

A PCB layout's files are the same but for its pocket, which has two depths: the pocket to
the ledge the PCB's face bears on, and the window over its LEDs (the skin left), from
:func:`tools.pcb.designs.window_mm`; its top drills and countersinks the PCB's mounting
holes; its back panel lets out the Pico's USB cable and the LED supply's wires at the
electronics end; its laser stack has a sheet of the skin's and one of the window's
thickness over the spacers.
"""

from __future__ import annotations

import io
import math

import ezdxf

from pegboard.board.build import (
    EXIT_MM,
    SCREW_MM,
    frame_screws,
    outlines,
    pockets,
    wire_exits,
)
from pegboard.board.geometry import Layout
from tools.pcb import block, designs, section

STOCK_MM = 25.0  # spare wood round the board on the blank: the dowels sit in it
DOWEL_MM = 6.0  # the registration dowels, through the blank into the spoilboard
SPOILBOARD_MM = 6.0  # how deep the dowel holes go below the blank
PILOT_MM = 2.5  # a pilot hole for a 3.5 mm wood screw (or an M3 self-tapping one)
PILOT_DEPTH_MM = 10.0
SHEET_MM = 3.0  # the laser's plywood
GAP_MM = 10.0  # between two sheets laid out in the laser's file
BULGE_90 = math.tan(math.radians(90) / 4)  # a quarter circle between two polyline points
USB_EXIT_MM = 12.0  # a PCB's exit for the Pico's USB cable: a micro-USB plug passes
USB_EXIT_DX = 22.0  # ... past the Pico's socket end, where the plug's cable turns down
SUPPLY_EXIT_AT = (8.0, 42.0)  # ... and for the LED supply's wires, beside the terminal


def dowels(layout: Layout) -> list[tuple[float, float]]:
    """The dowel holes, in board mm (y down): on the middle line x = width / 2, in the
    spare beyond the top and bottom edges, so turning the plank over left to right puts
    each back on its dowel."""
    x = layout.width_mm / 2
    return [(x, -STOCK_MM / 2), (x, layout.height_mm + STOCK_MM / 2)]


class _Drawing:
    """A DXF in mm; points in board mm (y down) go in, y up (and mirrored) come out."""

    def __init__(self, layout: Layout, mirrored: bool = False, shift: float = 0.0):
        ezdxf.options.write_fixed_meta_data_for_testing = True  # no clock, no random ids
        self.doc = ezdxf.new("R2000", setup=False)
        self.doc.units = ezdxf.units.MM
        self.msp = self.doc.modelspace()
        self.layout, self.mirrored, self.shift = layout, mirrored, shift

    def at(self, x: float, y: float) -> tuple[float, float]:
        x = self.layout.width_mm - x if self.mirrored else x
        return (x, self.layout.height_mm - y - self.shift)

    def layer(self, name: str, colour: int = 7) -> dict[str, str]:
        if name not in self.doc.layers:
            self.doc.layers.add(name, color=colour)
        return {"layer": name}

    def circle(self, layer: str, x: float, y: float, d: float) -> None:
        self.msp.add_circle(self.at(x, y), d / 2, dxfattribs=self.layer(layer))

    def rectangle(self, layer: str, x0: float, y0: float, x1: float, y1: float) -> None:
        corners = [self.at(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))]
        self.msp.add_lwpolyline(corners, close=True, dxfattribs=self.layer(layer))

    def outline(self, layer: str, points: tuple[tuple[float, float], ...], r: float) -> None:
        """A closed outline, each corner that turns the way the outline runs (an inside
        corner of a pocket) rounded to ``r``; the others (where a notch meets a pocket)
        sharp, as a bit cuts them."""
        pts = [self.at(x, y) for x, y in points]
        turn = _orientation(pts)
        out: list[tuple[float, float, float]] = []
        for k, p in enumerate(pts):
            a, c = pts[k - 1], pts[(k + 1) % len(pts)]
            d_in, d_out = _unit(a, p), _unit(p, c)
            cross = d_in[0] * d_out[1] - d_in[1] * d_out[0]
            if r > 0 and cross * turn > 0:
                out.append((p[0] - d_in[0] * r, p[1] - d_in[1] * r, math.copysign(BULGE_90, cross)))
                out.append((p[0] + d_out[0] * r, p[1] + d_out[1] * r, 0.0))
            else:
                out.append((p[0], p[1], 0.0))
        self.msp.add_lwpolyline(out, format="xyb", close=True, dxfattribs=self.layer(layer))

    def text(self, layer: str, x: float, y: float, words: str, size: float = 5.0) -> None:
        self.msp.add_text(words, height=size, dxfattribs=self.layer(layer)).set_placement(
            self.at(x, y)
        )

    def dxf(self) -> str:
        out = io.StringIO()
        self.doc.write(out)
        return out.getvalue()


def _unit(a: tuple[float, float], b: tuple[float, float]) -> tuple[float, float]:
    length = math.dist(a, b)
    return ((b[0] - a[0]) / length, (b[1] - a[1]) / length)


def _orientation(points: list[tuple[float, float]]) -> float:
    """+1 for an outline running anticlockwise, -1 clockwise (twice its signed area)."""
    area = sum(points[k - 1][0] * p[1] - p[0] * points[k - 1][1] for k, p in enumerate(points))
    return math.copysign(1.0, area)


def _mm(value: float) -> str:
    return f"{value:g}MM"


def _blank(d: _Drawing) -> None:
    layout = d.layout
    d.rectangle(
        "REF_BLANK",
        -STOCK_MM,
        -STOCK_MM,
        layout.width_mm + STOCK_MM,
        layout.height_mm + STOCK_MM,
    )
    dowel = f"DOWEL_{_mm(DOWEL_MM)}_DEPTH_{_mm(layout.plank_mm + SPOILBOARD_MM)}"
    for x, y in dowels(layout):
        d.circle(dowel, x, y, DOWEL_MM)


def cnc_top(layout: Layout) -> str:
    """The plank's top, cut first: the bores just through the skin, and the dowels."""
    d = _Drawing(layout)
    _blank(d)
    d.rectangle("REF_OUTLINE", 0, 0, layout.width_mm, layout.height_mm)
    bore = f"BORE_{_mm(layout.hole_mm)}_DEPTH_{_mm(layout.skin_mm + 1)}"
    for hole in layout.holes():
        d.circle(bore, hole.x, hole.y, layout.hole_mm)
    if layout.pcb is not None:  # the PCB's screws, countersunk from the top
        head, sunk = section.HEAD
        through = f"DRILL_{_mm(layout.pcb.mounting_mm)}_DEPTH_{_mm(layout.plank_mm)}"
        sink = f"COUNTERSINK_{_mm(head)}_DEPTH_{_mm(sunk)}"
        for x, y in layout.pcb.mounting:
            d.circle(through, x, y, layout.pcb.mounting_mm)
            d.circle(sink, x, y, head)
    return d.dxf()


def cnc_bottom(layout: Layout) -> str:
    """The plank's bottom, after turning it over left to right on the dowels."""
    d = _Drawing(layout, mirrored=True)
    _blank(d)
    pocket = f"POCKET_DEPTH_{_mm(layout.plank_mm - layout.skin_mm)}"
    if layout.pcb is None:
        for points in outlines(layout):
            d.outline(pocket, points, layout.bit_mm / 2)
    else:  # the pocket to the ledge, and inside it the window down to the skin
        ledge = f"POCKET_DEPTH_{_mm(round(layout.plank_mm - designs.ledge_mm(layout), 2))}"
        for points, layer in zip(_pcb_outlines(layout), (ledge, pocket), strict=True):
            d.outline(layer, points, layout.bit_mm / 2)
    pilot = f"PILOT_{_mm(PILOT_MM)}_DEPTH_{_mm(PILOT_DEPTH_MM)}"
    for x, y in frame_screws(layout):
        d.circle(pilot, x, y, PILOT_MM)
    d.rectangle(f"PROFILE_DEPTH_{_mm(layout.plank_mm)}", 0, 0, layout.width_mm, layout.height_mm)
    for hole in layout.holes():
        d.circle("REF_BORES", hole.x, hole.y, layout.hole_mm)
    return d.dxf()


def _pcb_outlines(layout: Layout) -> list[tuple[tuple[float, float], ...]]:
    """A PCB's pocket and its window, each one outline (clockwise, y down)."""
    return [((b.x0, b.y0), (b.x1, b.y0), (b.x1, b.y1), (b.x0, b.y1)) for b in pockets(layout)]


def exits(layout: Layout) -> list[tuple[float, float, float]]:
    """The back panel's holes for wires (x, y, diameter in board mm): at each strip's
    ends, or for a PCB the Pico's USB cable and the LED supply's wires."""
    if layout.pcb is None:
        return [(e.x, e.y, EXIT_MM) for e in wire_exits(layout)]
    x0, y0, _, _ = layout.pcb.outline
    usb = (x0 + block.PICO_AT[0] + block.PICO_HALF_MM + USB_EXIT_DX, y0 + block.PICO_AT[1])
    supply = (x0 + SUPPLY_EXIT_AT[0], y0 + SUPPLY_EXIT_AT[1])
    return [(*usb, USB_EXIT_MM), (*supply, EXIT_MM)]


def _back(d: _Drawing, cut: str) -> None:
    layout = d.layout
    d.rectangle(cut, 0, 0, layout.width_mm, layout.height_mm)
    for x, y in frame_screws(layout):
        d.circle(cut, x, y, SCREW_MM)
    for x, y, size in exits(layout):
        d.circle(cut, x, y, size)


def back_panel(layout: Layout) -> str:
    """The back panel, seen from above as it goes on: screw holes and the wire exits
    (:func:`exits`)."""
    d = _Drawing(layout)
    _back(d, "CUT_THROUGH_3MM")
    return d.dxf()


def spacers(layout: Layout) -> int:
    """How many 3 mm sheets make up the pockets' depth (a PCB's: below its ledge)."""
    if layout.pcb is not None:
        return round((layout.plank_mm - designs.ledge_mm(layout)) / SHEET_MM)
    return round((layout.plank_mm - layout.skin_mm) / SHEET_MM)


def sheets(layout: Layout) -> list[tuple[str, float]]:
    """The laser's sheets, top first: each one's name and thickness in mm.

    >>> from pegboard.board.layout import load_layout
    >>> [mm for _, mm in sheets(load_layout("pcb-two-track-61"))]
    [2.0, 1.3, 3.0, 3.0, 3.0, 3.0, 3.0, 3.0]
    """
    count = spacers(layout)
    top = [("1 top: the skin", layout.skin_mm if layout.pcb is not None else SHEET_MM)]
    if layout.pcb is not None:
        top.append((f"2 window: {designs.window_mm(layout):g} mm", designs.window_mm(layout)))
    first = len(top) + 1
    return [
        *top,
        *((f"{first + k} spacer", SHEET_MM) for k in range(count)),
        (f"{first + count} back", SHEET_MM),
    ]


def laser(layout: Layout) -> str:
    """The board as 3 mm sheets, top first, laid out one under another (all seen from
    above, as they are stacked): glue them up in order, edges flush."""
    every = sheets(layout)
    doc = _Drawing(layout)
    for k, (name, _) in enumerate(every):
        d = _Drawing(layout, shift=k * (layout.height_mm + GAP_MM))
        d.doc, d.msp = doc.doc, doc.msp
        if k == 0:
            d.rectangle("CUT", 0, 0, layout.width_mm, layout.height_mm)
            for hole in layout.holes():
                d.circle("CUT", hole.x, hole.y, layout.hole_mm)
            if layout.pcb is not None:
                for x, y in layout.pcb.mounting:
                    d.circle("CUT", x, y, layout.pcb.mounting_mm)
        elif k < len(every) - 1:
            d.rectangle("CUT", 0, 0, layout.width_mm, layout.height_mm)
            if layout.pcb is not None:  # the window's sheet: the window; below it the pocket
                window = name.split()[1] == "window:"
                d.outline("CUT", _pcb_outlines(layout)[1 if window else 0], 0.0)
                if window:
                    for x, y in layout.pcb.mounting:
                        d.circle("CUT", x, y, layout.pcb.mounting_mm)
            else:
                for points in outlines(layout):
                    d.outline("CUT", points, 0.0)
            for x, y in frame_screws(layout):
                d.circle("CUT", x, y, PILOT_MM)
        else:
            _back(d, "CUT")
        if k:  # the top's face is the board's: nothing engraved on it
            d.text("ENGRAVE", 14, layout.height_mm - 3, f"{layout.name} {name}", 3.0)
    return doc.dxf()


def files(layout: Layout) -> dict[str, str]:
    """Each file by its name's end: ``cnc-top.dxf`` and so on."""
    return {
        "cnc-top.dxf": cnc_top(layout),
        "cnc-bottom.dxf": cnc_bottom(layout),
        "back.dxf": back_panel(layout),
        "laser.dxf": laser(layout),
    }
