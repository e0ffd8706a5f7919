"""The drilling template of a layout as DXF (for a CNC router or a laser) and as PDF tiled
on A4 or Letter (for a home printer), from the same drawing as the SVG template
(:func:`pegboard.board.template.drawing`).

- DXF R2000 in millimetres (``$INSUNITS`` 4), y up, one layer a kind of line (HOLES: one
  circle a hole; OUTLINE, CHANNELS, CUTS, ARROWS, CENTRES, LABELS).
- PDF: sheets at 100 %, each holding a window of the board
  (:func:`pegboard.board.template.sheets`); neighbouring windows overlap by ``OVERLAP_MM``,
  with dashed lines at the overlap's edges and crosses in it that lie on one another when
  two sheets are laid together. Every sheet names its
  window and carries two 100 mm bars, across and down, to check the print.
"""

from __future__ import annotations

import io
import math
from datetime import UTC, datetime

import ezdxf
from ezdxf.enums import TextEntityAlignment
from fpdf import FPDF

from pegboard.board.geometry import Layout
from pegboard.board.template import (
    BORDER_MM,
    HEAD_MM,
    LAYERS,
    OVERLAP_MM,
    PAPER_EDGE_MM,
    SIDE_MM,
    Circle,
    Line,
    Shape,
    Sheet,
    drawing,
    sheets,
)

SCALE_BAR_MM = 100.0
MARK_MM = 3.0  # half a registration cross
DXF_COLOURS = {"outline": 7, "holes": 1, "centres": 8, "channels": 5, "cuts": 6, "arrows": 3}
DXF_COLOURS["mounting"] = 2  # a PCB's screw holes
FIXED = datetime(2025, 1, 1, tzinfo=UTC)  # the files' date: the same file for the same board


# --- DXF ------------------------------------------------------------------------------------


def dxf(layout: Layout) -> str:
    """The template as DXF text."""
    ezdxf.options.write_fixed_meta_data_for_testing = True  # no clock, no random ids
    doc = ezdxf.new("R2000", setup=False)
    doc.units = ezdxf.units.MM
    msp = doc.modelspace()
    top = layout.height_mm
    for name, shapes in drawing(layout).items():
        layer = name.upper()
        doc.layers.add(layer, color=DXF_COLOURS.get(name, 7))
        attrs = {"layer": layer}
        for shape in shapes:
            if isinstance(shape, Circle):
                msp.add_circle((shape.x, top - shape.y), shape.r, dxfattribs=attrs)
            elif isinstance(shape, Line):
                points = [(x, top - y) for x, y in shape.points]
                msp.add_lwpolyline(points, close=shape.closed, dxfattribs=attrs)
            else:
                text = msp.add_text(shape.text, height=shape.size, dxfattribs=attrs)
                text.set_placement(
                    (shape.x, top - shape.y), align=TextEntityAlignment.BOTTOM_CENTER
                )
    out = io.StringIO()
    doc.write(out)
    return out.getvalue()


# --- PDF ------------------------------------------------------------------------------------


def pdf(layout: Layout, paper: str) -> bytes:
    """The template tiled on ``paper`` ("A4" or "Letter"), at 100 %."""
    orientation, every = sheets(layout, paper)
    doc = FPDF(orientation=orientation, unit="mm", format=paper.lower())
    doc.set_creation_date(FIXED)
    doc.set_title(f"Drilling template: {layout.name} ({paper})")
    doc.set_auto_page_break(False)
    shapes = drawing(layout)
    marks = _registration(layout, every)
    for number, sheet in enumerate(every, 1):
        doc.add_page()
        _header(doc, layout, paper, sheet, number, len(every))
        left = PAPER_EDGE_MM + SIDE_MM
        ox, oy = left - sheet.x0, PAPER_EDGE_MM + HEAD_MM - sheet.y0  # board mm -> page mm
        with doc.rect_clip(left, PAPER_EDGE_MM + HEAD_MM, sheet.width, sheet.height):
            for name, layer in shapes.items():
                _ink(doc, name)
                for shape in layer:
                    if _inside(shape, sheet):
                        _draw(doc, shape, ox, oy)
            _ink(doc, "marks")
            for shape in marks:
                _draw(doc, shape, ox, oy)
        _scale_bar(doc, PAPER_EDGE_MM + HEAD_MM + sheet.height + 5)
        _scale_bar_down(doc, PAPER_EDGE_MM + 2, PAPER_EDGE_MM + HEAD_MM)
    return bytes(doc.output())


def _header(doc: FPDF, layout: Layout, paper: str, sheet: Sheet, number: int, of: int) -> None:
    doc.set_font("helvetica", size=8)
    doc.set_text_color(0)
    window = (
        f"board x {sheet.x0:.1f} to {sheet.x0 + sheet.width:.1f} mm, "
        f"y {sheet.y0:.1f} to {sheet.y0 + sheet.height:.1f} mm"
    )
    doc.text(
        PAPER_EDGE_MM,
        PAPER_EDGE_MM + 3,
        f"{layout.title} ({layout.name}, drill {layout.hole_mm:g} mm)",
    )
    doc.text(
        PAPER_EDGE_MM,
        PAPER_EDGE_MM + 7,
        f"Sheet {number} of {of} ({paper}): row {sheet.row + 1}, column {sheet.column + 1}; "
        f"{window}. Trim at a dashed line, lay over the next sheet so the crosses meet.",
    )


def _scale_bar(doc: FPDF, y: float) -> None:
    doc.set_draw_color(0)
    doc.set_line_width(0.3)
    doc.set_dash_pattern()
    x = PAPER_EDGE_MM
    doc.line(x, y, x + SCALE_BAR_MM, y)
    doc.line(x, y - 2, x, y + 2)
    doc.line(x + SCALE_BAR_MM, y - 2, x + SCALE_BAR_MM, y + 2)
    doc.set_font("helvetica", size=8)
    doc.text(x + SCALE_BAR_MM + 4, y + 1, "this bar is 100 mm: print at 100 %, no fitting")


def _scale_bar_down(doc: FPDF, x: float, y: float) -> None:
    """The second bar, down the sheet's left edge from ``y``: a printer may scale one way
    and not the other."""
    doc.set_draw_color(0)
    doc.set_line_width(0.3)
    doc.set_dash_pattern()
    doc.line(x, y, x, y + SCALE_BAR_MM)
    doc.line(x - 2, y, x + 2, y)
    doc.line(x - 2, y + SCALE_BAR_MM, x + 2, y + SCALE_BAR_MM)
    doc.set_font("helvetica", size=8)
    with doc.rotation(90, x + 3, y + SCALE_BAR_MM):
        doc.text(x + 3, y + SCALE_BAR_MM, "100 mm down")


def _registration(layout: Layout, every: list[Sheet]) -> list[Shape]:
    """Dashed lines at both edges of each overlap and crosses along its middle, in board
    mm: the two sheets sharing an overlap both show them."""
    out: list[Shape] = []
    top, bottom = -BORDER_MM, layout.height_mm + BORDER_MM
    left, right = -BORDER_MM, layout.width_mm + BORDER_MM
    for sheet in every:
        if sheet.column:  # an overlap with the sheet on the left
            a, b = sheet.x0, sheet.x0 + OVERLAP_MM
            out += [Line(((a, top), (a, bottom))), Line(((b, top), (b, bottom)))]
            out += [_cross((a + b) / 2, y) for y in _along(top, bottom)]
        if sheet.row:  # with the sheet above
            a, b = sheet.y0, sheet.y0 + OVERLAP_MM
            out += [Line(((left, a), (right, a))), Line(((left, b), (right, b)))]
            out += [_cross(x, (a + b) / 2) for x in _along(left, right)]
    return out


def _along(a: float, b: float) -> list[float]:
    count = max(2, math.ceil((b - a) / 60))
    return [a + (b - a) * (k + 0.5) / count for k in range(count)]


def _cross(x: float, y: float) -> Line:
    m = MARK_MM
    return Line(((x - m, y), (x + m, y), (x, y), (x, y - m), (x, y + m)))


def _inside(shape: Shape, sheet: Sheet) -> bool:
    """Whether any of ``shape`` may show in the sheet's window."""
    if isinstance(shape, Circle):
        xs, ys = (shape.x - shape.r, shape.x + shape.r), (shape.y - shape.r, shape.y + shape.r)
    elif isinstance(shape, Line):
        xs = tuple(x for x, _ in shape.points)
        ys = tuple(y for _, y in shape.points)
    else:
        xs, ys = (shape.x - 10, shape.x + 10), (shape.y - shape.size, shape.y)
    return (
        min(xs) <= sheet.x0 + sheet.width
        and max(xs) >= sheet.x0
        and min(ys) <= sheet.y0 + sheet.height
        and max(ys) >= sheet.y0
    )


INK = {  # (grey or RGB, line width mm, dashed)
    "outline": ((0, 0, 0), 0.3, False),
    "holes": ((0, 0, 0), 0.2, False),
    "centres": ((0, 0, 0), 0.1, False),
    "channels": ((42, 122, 176), 0.3, True),
    "cuts": ((192, 57, 43), 0.35, False),
    "arrows": ((42, 122, 176), 0.25, False),
    "labels": ((0, 0, 0), 0.1, False),
    "mounting": ((192, 57, 43), 0.3, False),
    "marks": ((0, 0, 0), 0.2, True),
}


def _ink(doc: FPDF, name: str) -> None:
    colour, width, dashed = INK[name]
    doc.set_draw_color(*colour)
    doc.set_text_color(*colour)
    doc.set_line_width(width)
    if dashed:
        doc.set_dash_pattern(dash=2, gap=1)
    else:
        doc.set_dash_pattern()
    if name == "labels":
        doc.set_font("helvetica", size=6)


def _draw(doc: FPDF, shape: Shape, ox: float, oy: float) -> None:
    if isinstance(shape, Circle):
        doc.circle(shape.x + ox, shape.y + oy, shape.r)
    elif isinstance(shape, Line):
        points = [(x + ox, y + oy) for x, y in shape.points]
        doc.polyline(points, polygon=shape.closed)
    else:
        size = shape.size / 0.3528 / 0.7  # mm of a capital -> font points
        doc.set_font_size(size)
        width = doc.get_string_width(shape.text)
        doc.text(shape.x + ox - width / 2, shape.y + oy, shape.text)


assert set(INK) == {*LAYERS, "marks"}
