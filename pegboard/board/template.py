"""The 1:1 drilling template of a layout, as shapes on named layers in mm from the board's
top left corner (y down). One drawing, written as SVG (:func:`pegboard.board.svg.
drilling_template`) and, by the developer tools, as DXF and as PDF tiled on paper.

>>> from pegboard.board.layout import load_layout
>>> layers = drawing(load_layout("two-track-61"))
>>> len(layers["holes"]), len(layers["cuts"])  # 2 x (62 holes + 2 lap marks); 4 pieces
(128, 8)
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pegboard.board.build import Box, Piece, Point, half_width, notches, pieces, pockets
from pegboard.board.geometry import Hole, Layout

LAYERS = {
    "outline": "the board's edge",
    "holes": "one circle a hole, at the drill's size",
    "centres": "a cross at each hole's centre, to prick with an awl",
    "channels": "the pockets routed from below and the notches for joints, seen from the top",
    "cuts": "where to cut the strip: across the copper pads between two LEDs",
    "arrows": "the way the data runs along each piece: the strip's own arrows point so",
    "labels": "hole numbers (S start, G game, lap marks), piece names",
    "mounting": "a PCB's mounting holes: the screws that hold it under the skin",
}
# Tiling on paper: each sheet shows a window of the board at 100 %.
PAPERS = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}  # mm, portrait
PAPER_EDGE_MM = 10.0  # the paper's edge a printer leaves white
HEAD_MM = 9.0  # the sheet's name and window, above the drawing
FOOT_MM = 14.0  # the 100 mm bar across, below it
SIDE_MM = 7.0  # the 100 mm bar down, left of it
OVERLAP_MM = 12.0  # board shown on both of two neighbouring sheets
BORDER_MM = 4.0  # paper around the board
CROSS_MM = 1.2  # half a centre cross
ARROW_EVERY = 10  # LEDs between two arrowheads along a piece
ARROWHEAD_MM = 1.5


@dataclass(frozen=True, slots=True)
class Circle:
    x: float
    y: float
    r: float
    name: str = ""  # a hole's id


@dataclass(frozen=True, slots=True)
class Line:
    """A polyline; ``closed`` joins its last point to its first."""

    points: tuple[Point, ...]
    closed: bool = False


@dataclass(frozen=True, slots=True)
class Text:
    x: float
    y: float  # the baseline
    text: str
    size: float  # mm, the height of a capital


Shape = Circle | Line | Text


def drawing(layout: Layout) -> dict[str, list[Shape]]:
    """Every shape of the template, by layer (the keys of :data:`LAYERS`, in order; the
    mounting holes only for a PCB)."""
    r = layout.hole_mm / 2
    w, h = layout.width_mm, layout.height_mm
    kept = [name for name in LAYERS if name != "mounting" or layout.pcb is not None]
    layers: dict[str, list[Shape]] = {name: [] for name in kept}
    layers["outline"].append(Line(((0, 0), (w, 0), (w, h), (0, h)), closed=True))
    for hole in layout.holes():
        layers["holes"].append(Circle(hole.x, hole.y, r, hole.id))
        layers["centres"] += [
            Line(((hole.x - CROSS_MM, hole.y), (hole.x + CROSS_MM, hole.y))),
            Line(((hole.x, hole.y - CROSS_MM), (hole.x, hole.y + CROSS_MM))),
        ]
        label = _label(hole, layout)
        if label:
            layers["labels"].append(Text(hole.x, hole.y - r - 0.6, label, 1.8))
    layers["channels"] += [_rectangle(b) for b in (*pockets(layout), *notches(layout))]
    if layout.pcb is not None:
        r = layout.pcb.mounting_mm / 2
        layers["mounting"] += [Circle(x, y, r) for x, y in layout.pcb.mounting]
    for piece in pieces(layout):
        assert layout.strip_kind is not None
        half, pad = layout.strip_kind.width_mm / 2, layout.strip_kind.pitch_mm / 2
        ux, uy = piece.along
        nx, ny = -uy, ux  # across the strip, to the side below (or right of) its holes
        if ny < 0 or (ny == 0 and nx < 0):
            nx, ny = -nx, -ny
        for at_end in (False, True):
            x, y = piece.beyond(at_end, pad)
            across = half_width(layout)
            layers["cuts"].append(
                Line(((x - nx * across, y - ny * across), (x + nx * across, y + ny * across)))
            )
        layers["arrows"] += _arrows(layout, piece, (nx * (half - 1.5), ny * (half - 1.5)))
        x, y = piece.beyond(False, pad + 1.0)
        name_at = (x + nx * (half - 1.0), y + ny * (half - 1.0))
        layers["labels"].append(Text(*name_at, piece.name, 2.0))
    return layers


def _label(hole: Hole, layout: Layout) -> str:
    if hole.lap_mark:
        return f"lap {hole.number}"
    if hole.number == 0:
        return "S"
    if hole.number == layout.game:
        return "G"
    return str(hole.number) if hole.number % 5 == 0 else ""


def _rectangle(box: Box) -> Line:
    return Line(((box.x0, box.y0), (box.x1, box.y0), (box.x1, box.y1), (box.x0, box.y1)), True)


def _arrows(layout: Layout, piece: Piece, offset: Point) -> list[Shape]:
    """A line along the piece, beside its holes, with an arrowhead every few LEDs."""
    (x0, y0), (x1, y1) = piece.start, piece.end
    dx, dy = offset
    shapes: list[Shape] = [Line(((x0 + dx, y0 + dy), (x1 + dx, y1 + dy)))]
    ux, uy = piece.along
    length = math.hypot(x1 - x0, y1 - y0)
    assert layout.strip_kind is not None
    step = ARROW_EVERY * layout.strip_kind.pitch_mm
    k = min(step, length)
    while k <= length + 1e-6:
        tip = (x0 + dx + ux * k, y0 + dy + uy * k)
        back = (tip[0] - ux * ARROWHEAD_MM, tip[1] - uy * ARROWHEAD_MM)
        side = (-uy * ARROWHEAD_MM * 0.6, ux * ARROWHEAD_MM * 0.6)
        shapes.append(
            Line(
                (
                    (back[0] + side[0], back[1] + side[1]),
                    tip,
                    (back[0] - side[0], back[1] - side[1]),
                )
            )
        )
        k += step
    return shapes


@dataclass(frozen=True)
class Sheet:
    """One sheet of paper: the window of the board it shows, in board mm."""

    row: int
    column: int
    x0: float
    y0: float
    width: float
    height: float


def sheets(layout: Layout, paper: str) -> tuple[str, list[Sheet]]:
    """The orientation ("P" or "L") needing fewer sheets, and the sheets, row by row."""
    best: tuple[str, list[Sheet]] | None = None
    for orientation in ("L", "P"):
        w, h = _page(paper, orientation)
        room = (w - 2 * PAPER_EDGE_MM - SIDE_MM, h - 2 * PAPER_EDGE_MM - HEAD_MM - FOOT_MM)
        spans = [
            _spans(-BORDER_MM, size + 2 * BORDER_MM, window)
            for size, window in ((layout.width_mm, room[0]), (layout.height_mm, room[1]))
        ]
        found = [
            Sheet(r, c, x0, y0, room[0], room[1])
            for r, y0 in enumerate(spans[1])
            for c, x0 in enumerate(spans[0])
        ]
        if best is None or len(found) < len(best[1]):
            best = (orientation, found)
    assert best is not None
    return best


def _spans(start: float, length: float, window: float) -> list[float]:
    """Where each window starts, overlapping the one before by OVERLAP_MM."""
    count = max(1, math.ceil((length - OVERLAP_MM) / (window - OVERLAP_MM)))
    return [start + k * (window - OVERLAP_MM) for k in range(count)]


def _page(paper: str, orientation: str) -> tuple[float, float]:
    w, h = PAPERS[paper]
    return (h, w) if orientation == "L" else (w, h)
