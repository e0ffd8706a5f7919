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
    wire_exits,
)
from pegboard.board.geometry import Layout

STOCK_MM = 25.0  # spare wood round the board on the blank: the dowels sit in it
DOWEL_MM = 6.0  # the registration dowels, through the blank into the spoilboard
SPOILBOARD_MM = 6.0  # how deep the dowel holes go below the blank
PILOT_MM = 2.5  # a pilot hole for a 3.5 mm wood screw (or an M3 self-tapping one)
PILOT_DEPTH_MM = 10.0
SHEET_MM = 3.0  # the laser's plywood
GAP_MM = 10.0  # between two sheets laid out in the laser's file
BULGE_90 = math.tan(math.radians(90) / 4)  # a quarter circle between two polyline points


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
    return d.dxf()


def cnc_bottom(layout: Layout) -> str:
    """The plank's bottom, after turning it over left to right on the dowels."""
    d = _Drawing(layout, mirrored=True)
    _blank(d)
    pocket = f"POCKET_DEPTH_{_mm(layout.plank_mm - layout.skin_mm)}"
    for points in outlines(layout):
        d.outline(pocket, points, layout.bit_mm / 2)
    pilot = f"PILOT_{_mm(PILOT_MM)}_DEPTH_{_mm(PILOT_DEPTH_MM)}"
    for x, y in frame_screws(layout):
        d.circle(pilot, x, y, PILOT_MM)
    d.rectangle(f"PROFILE_DEPTH_{_mm(layout.plank_mm)}", 0, 0, layout.width_mm, layout.height_mm)
    for hole in layout.holes():
        d.circle("REF_BORES", hole.x, hole.y, layout.hole_mm)
    return d.dxf()


def _back(d: _Drawing, cut: str) -> None:
    layout = d.layout
    d.rectangle(cut, 0, 0, layout.width_mm, layout.height_mm)
    for x, y in frame_screws(layout):
        d.circle(cut, x, y, SCREW_MM)
    for exit_ in wire_exits(layout):
        d.circle(cut, exit_.x, exit_.y, EXIT_MM)


def back_panel(layout: Layout) -> str:
    """The back panel, seen from above as it goes on: screw holes and a wire exit at
    each strip's ends."""
    d = _Drawing(layout)
    _back(d, "CUT_THROUGH_3MM")
    return d.dxf()


def spacers(layout: Layout) -> int:
    """How many 3 mm sheets make up the pockets' depth."""
    return round((layout.plank_mm - layout.skin_mm) / SHEET_MM)


def laser(layout: Layout) -> str:
    """The board as 3 mm sheets, top first, laid out one under another (all seen from
    above, as they are stacked): glue them up in order, edges flush."""
    count = spacers(layout)
    names = ["1 top: the skin", *(f"{k + 2} spacer" for k in range(count)), f"{count + 2} back"]
    doc = _Drawing(layout)
    for k, name in enumerate(names):
        d = _Drawing(layout, shift=k * (layout.height_mm + GAP_MM))
        d.doc, d.msp = doc.doc, doc.msp
        if k == 0:
            d.rectangle("CUT", 0, 0, layout.width_mm, layout.height_mm)
            for hole in layout.holes():
                d.circle("CUT", hole.x, hole.y, layout.hole_mm)
        elif k <= count:
            d.rectangle("CUT", 0, 0, layout.width_mm, layout.height_mm)
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
