"""How a board is built from its layout: the strip pieces under the holes, the pockets
routed for them, how the pieces are cut from reels, and how far from straight above the
LEDs can be seen.

The board is a plank pocketed from below, leaving a thin *skin* of wood over the LEDs;
each hole is bored through the skin and filled with clear epoxy down to its LED. Each
track's strip is cut into straight *pieces*, one a street, joined end to end by short
wires in LED order.

>>> from pegboard.board.layout import load_layout
>>> board = load_layout("two-track-121")
>>> [(p.name, p.leds) for p in pieces(board)]
[('0a', 49), ('0b', 47), ('0c', 48), ('1a', 49), ('1b', 47), ('1c', 48)]
>>> [[p.name for p in reel] for reel in reels(board)]
[['0a', '0b', '0c'], ['1a', '1b', '1c']]
>>> round(viewing_angle(board.hole_mm, board.skin_mm, board.fill_index), 1)
64.2
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass
from typing import Any

from pegboard.board.geometry import Hole, Layout, StripKind, in_line
from pegboard.errors import LayoutError
from pegboard.i18n import N_

JOINT_MM = 8.0  # a pocket goes on this far past a piece's end: room for a joint's wires
RIB_MM = 8.0  # full-thickness wood left between two pockets
FRAME_MM = 12.0  # from the board's edge to the pockets
PCB_FIT_MM = 0.5  # a PCB's pocket is this much wider than the PCB on every side
LEDGE_MM = 9.0  # a PCB's face bears on this much wood round its edge, its screws in it
# A WS2812B's die lies this deep under the face of its 1.6 mm 5050 package, the light
# leaving from there, not from the face: shallowest and deepest, mm.
DIE_MM = (0.5, 1.0)
EXIT_MM = 6.0  # a wire exit through the back panel, at each end of a strip
SCREW_MM = 3.4  # a hole for an M3 screw (or a 3 mm dowel) through the frame
SCREWS_APART_MM = 120.0  # the frame's screws at most this far apart along an edge

Point = tuple[float, float]


def strip_kind(layout: Layout) -> StripKind:
    """The strip a board's pieces are cut from: asked only of a board on strips (a PCB's
    LEDs lie on no piece)."""
    if layout.strip_kind is None:
        raise ValueError(f"layout {layout.name} has its LEDs on a PCB, not on strips")
    return layout.strip_kind


@dataclass(frozen=True, slots=True)
class Box:
    """An upright rectangle, in mm from the board's top left corner."""

    x0: float
    y0: float
    x1: float
    y1: float

    def touches(self, other: Box) -> bool:
        e = 0.01
        return (
            self.x0 <= other.x1 + e
            and other.x0 <= self.x1 + e
            and self.y0 <= other.y1 + e
            and other.y0 <= self.y1 + e
        )

    def around(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )


@dataclass(frozen=True)
class Piece:
    """One straight piece of strip: LEDs ``first..last`` of ``strip``, cut from a reel."""

    strip: int
    index: int  # along its strip, from the strip's data input
    first: int
    last: int
    holes: tuple[Hole, ...]  # in LED order: the first and the last LED are under holes

    @property
    def name(self) -> str:
        """``0a`` is the first piece of strip 0, ``0b`` the next one its data reaches."""
        return f"{self.strip}{chr(ord('a') + self.index)}"

    @property
    def leds(self) -> int:
        return self.last - self.first + 1

    @property
    def start(self) -> Point:
        return (self.holes[0].x, self.holes[0].y)

    @property
    def end(self) -> Point:
        return (self.holes[-1].x, self.holes[-1].y)

    @property
    def along(self) -> Point:
        """A unit vector in the direction the data runs."""
        (x0, y0), (x1, y1) = self.start, self.end
        length = math.hypot(x1 - x0, y1 - y0)
        return (1.0, 0.0) if length == 0 else ((x1 - x0) / length, (y1 - y0) / length)

    def beyond(self, at_end: bool, mm: float) -> Point:
        """The point ``mm`` past the piece's centre line, out of its end (or its start)."""
        (x, y), (ux, uy) = (self.end if at_end else self.start), self.along
        k = mm if at_end else -mm
        return (x + ux * k, y + uy * k)


def pieces(layout: Layout) -> list[Piece]:
    """Every piece, strip by strip, in LED order; a new piece starts wherever the next
    hole's LED is not straight on from the piece's at the strip's spacing. A PCB's LEDs
    are on no piece: the fab solders them."""
    if layout.strip_kind is None:
        return []
    pitch = layout.strip_kind.pitch_mm
    found: list[Piece] = []
    for strip in layout.strips:
        holes = sorted((h for h in layout.holes() if h.strip == strip.id), key=lambda h: h.led)
        runs: list[list[Hole]] = []
        for hole in holes:
            run = runs[-1] if runs else []
            if not run or not (in_line(run[0], hole, pitch) and in_line(run[-1], hole, pitch)):
                runs.append(run := [])
            run.append(hole)
        found += [Piece(strip.id, i, r[0].led, r[-1].led, tuple(r)) for i, r in enumerate(runs)]
    return found


def loose_leds(layout: Layout) -> list[tuple[int, int]]:
    """(strip, LED) of every LED on no piece: under no hole and not between two holes of
    one piece. A layout a maker can build has none."""
    on = {(p.strip, led) for p in pieces(layout) for led in range(p.first, p.last + 1)}
    return [(s.id, led) for s in layout.strips for led in range(s.leds) if (s.id, led) not in on]


def reels(layout: Layout) -> list[list[Piece]]:
    """The pieces shared out over as few reels as can hold them, each piece whole and
    a strip's pieces kept together where that costs no reel (a PCB's LEDs need none)."""
    if layout.strip_kind is None:
        return []
    kind = layout.strip_kind
    every = pieces(layout)
    for piece in every:
        if piece.leds > kind.reel_leds:
            raise LayoutError(
                f"layout {layout.name}: piece {piece.name} has {piece.leds} LEDs, more than "
                f"a {kind.reel_m:g} m reel of {kind.reel_leds}"
            )
    best: list[list[Piece]] = [[p] for p in every]

    def fill(i: int, bins: list[list[Piece]], room: list[int]) -> None:
        nonlocal best
        if len(bins) >= len(best):
            return
        if i == len(every):
            best = [list(b) for b in bins]
            return
        piece = every[i]
        for k in range(len(bins)):
            if room[k] >= piece.leds:
                bins[k].append(piece)
                room[k] -= piece.leds
                fill(i + 1, bins, room)
                room[k] += piece.leds
                bins[k].pop()
        bins.append([piece])
        room.append(kind.reel_leds - piece.leds)
        fill(i + 1, bins, room)
        bins.pop()
        room.pop()

    fill(0, [], [])
    return best


def unfit(layout: Layout) -> tuple[str, dict[str, Any]] | None:
    """Why the layout's carriers or router bit do not fit (a ``layout {source}:`` msgid
    and its words), or None: a carrier must hold its strip, and the bit must rout the
    pockets without rounding their corners into the carriers' ends."""
    width = strip_kind(layout).width_mm
    if layout.carrier_mm < width:
        narrow = N_(
            "layout {source}: {key} = {value} mm is narrower than the strip ({width} mm): "
            "its edges would hang over the carrier"
        )
        return narrow, {
            "key": "carrier_mm",
            "value": f"{layout.carrier_mm:g}",
            "width": f"{width:g}",
        }
    pocket = layout.carrier_mm + 2 * layout.fit_mm
    if layout.bit_mm > pocket or layout.bit_mm / 2 > JOINT_MM:
        wide = N_(
            "layout {source}: {key} = {value} mm: a cutter that size cannot rout a pocket "
            "{pocket} mm wide, or rounds its corners into the carriers' ends (at most "
            "{most} mm)"
        )
        most = f"{min(pocket, 2 * JOINT_MM):g}"
        return wide, {
            "key": "bit_mm",
            "value": f"{layout.bit_mm:g}",
            "pocket": f"{pocket:g}",
            "most": most,
        }
    return None


def half_width(layout: Layout) -> float:
    """From a row of holes to its pocket's wall: half a carrier and the fit beside it."""
    return layout.carrier_mm / 2 + layout.fit_mm


def channel(layout: Layout, piece: Piece) -> Box:
    """The room a piece needs under the board: its carrier's width plus the fit each side,
    from a joint's length before its first pad to a joint's length past its last."""
    reach = strip_kind(layout).pitch_mm / 2 + JOINT_MM
    return _box(piece.beyond(False, reach), piece.beyond(True, reach), half_width(layout))


def _box(a: Point, b: Point, half: float) -> Box:
    """The upright box around the band ``half`` wide each side of the line a-b."""
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length * half, dx / length * half
    xs = (a[0] + nx, a[0] - nx, b[0] + nx, b[0] - nx)
    ys = (a[1] + ny, a[1] - ny, b[1] + ny, b[1] - ny)
    return Box(min(xs), min(ys), max(xs), max(ys))


def pockets(layout: Layout) -> list[Box]:
    """The pockets routed from below: the channels that touch, as one box each; for a
    PCB, its pocket and the window over its LEDs."""
    if layout.pcb is not None:
        return pcb_pockets(layout)
    return _merged([channel(layout, p) for p in pieces(layout)])


def pcb_pockets(layout: Layout) -> list[Box]:
    """A PCB's pocket, routed from below to leave ``skin_mm + led_mm`` of wood that its
    face and mounting screws bear on (the ledge, ``LEDGE_MM`` wide), and inside the ledge
    the window over the LEDs and parts, ``led_mm`` deeper, leaving the skin that the
    LEDs' faces touch.

    >>> from pegboard.board.layout import load_layout
    >>> pocket, window = pockets(load_layout("pcb-two-track-61"))
    >>> pocket.x0 < window.x0 and window.x1 < pocket.x1
    True
    """
    assert layout.pcb is not None
    x0, y0, x1, y1 = layout.pcb.outline
    w = LEDGE_MM
    return [
        Box(x0 - PCB_FIT_MM, y0 - PCB_FIT_MM, x1 + PCB_FIT_MM, y1 + PCB_FIT_MM),
        Box(x0 + w, y0 + w, x1 - w, y1 - w),
    ]


def _merged(boxes: list[Box]) -> list[Box]:
    """Boxes that touch, as one box around them."""
    merged: list[Box] = []
    for box in boxes:
        while True:
            other = next((m for m in merged if m.touches(box)), None)
            if other is None:
                break
            merged.remove(other)
            box = box.around(other)
        merged.append(box)
    return sorted(merged, key=lambda b: (b.y0, b.x0))


def notches(layout: Layout) -> list[Box]:
    """Passages through the wood between two pockets for the wires that join a piece in
    one pocket to the next piece of its strip in another."""
    if layout.strip_kind is None:
        return []
    found = []
    every = pockets(layout)
    half = half_width(layout)
    pad = layout.strip_kind.pitch_mm / 2
    ordered = pieces(layout)
    for a, b in itertools.pairwise(ordered):
        if a.strip != b.strip or _pocket(every, channel(layout, a)) == _pocket(
            every, channel(layout, b)
        ):
            continue
        out = _box(a.beyond(True, pad), a.beyond(True, pad + JOINT_MM), half)
        into = _box(b.beyond(False, pad), b.beyond(False, pad + JOINT_MM), half)
        found.append(out.around(into))
    return _merged(found)


@dataclass(frozen=True, slots=True)
class WireExit:
    """A hole through the back panel under a strip's end, for the wires there."""

    x: float
    y: float
    strip: int
    start: bool  # the strip's data input (data, 5 V, GND); else its far end (5 V, GND)


def wire_exits(layout: Layout) -> list[WireExit]:
    """Where each strip's wires leave its pocket through the back panel: in the room
    for a joint before its first LED and after its last, centred there.

    >>> from pegboard.board.layout import load_layout
    >>> [(e.strip, e.start, round(e.x, 1), e.y) for e in wire_exits(load_layout("two-track-61"))]
    [(0, True, 29.9, 19.0), (0, False, 16.0, 33.0), (1, True, 29.9, 55.0), (1, False, 16.0, 69.0)]
    """
    reach = strip_kind(layout).pitch_mm / 2 + JOINT_MM / 2
    found = []
    for strip in layout.strips:
        mine = [p for p in pieces(layout) if p.strip == strip.id]
        for piece, start in ((mine[0], True), (mine[-1], False)):
            x, y = piece.beyond(not start, reach)
            found.append(WireExit(x, y, strip.id, start))
    return found


def frame_screws(layout: Layout) -> list[Point]:
    """Holes through the frame round the pockets, half its width in from the edge, at
    most SCREWS_APART_MM apart and none across the middle (where a printed case is cut
    in two): they hold the back panel and the case to the plank.

    >>> from pegboard.board.layout import load_layout
    >>> sorted({round(x) for x, _ in frame_screws(load_layout("two-track-121"))})
    [6, 81, 156, 231, 306, 381]
    """
    inset = FRAME_MM / 2
    w, h = layout.width_mm, layout.height_mm

    def along(length: float) -> list[float]:
        n = max(1, math.ceil((length - 2 * inset) / SCREWS_APART_MM))
        n += 1 - n % 2  # an odd number of spans: the middle falls between two screws
        return [inset + k * (length - 2 * inset) / n for k in range(n + 1)]

    xs, ys = along(w), along(h)
    edge = {(x, y) for x in xs for y in (inset, h - inset)}
    edge |= {(x, y) for x in (inset, w - inset) for y in ys}
    return sorted(edge, key=lambda p: (p[1], p[0]))


def _pocket(every: list[Box], box: Box) -> int:
    return next(i for i, p in enumerate(every) if p.touches(box))


def outlines(layout: Layout) -> list[tuple[Point, ...]]:
    """The pockets and the notches between them as the router cuts them: each area one
    closed outline, clockwise as drawn (y down), a corner where it turns.

    >>> from pegboard.board.layout import load_layout
    >>> [len(o) for o in outlines(load_layout("two-track-121"))]  # 3 pockets, 2 notches
    [12]
    """
    return _union([*pockets(layout), *notches(layout)])


def _union(boxes: list[Box]) -> list[tuple[Point, ...]]:
    """The outlines of the area the boxes cover, on the grid of their edges."""
    xs = sorted({v for b in boxes for v in (b.x0, b.x1)})
    ys = sorted({v for b in boxes for v in (b.y0, b.y1)})

    def covered(i: int, j: int) -> bool:
        if not (0 <= i < len(xs) - 1 and 0 <= j < len(ys) - 1):
            return False
        x, y = (xs[i] + xs[i + 1]) / 2, (ys[j] + ys[j + 1]) / 2
        return any(b.x0 <= x <= b.x1 and b.y0 <= y <= b.y1 for b in boxes)

    cells = {(i, j) for i in range(len(xs) - 1) for j in range(len(ys) - 1) if covered(i, j)}
    edges: dict[tuple[int, int], tuple[int, int]] = {}  # corner -> next corner, clockwise
    for i, j in cells:
        for (di, dj), a, b in (
            ((0, -1), (i, j), (i + 1, j)),
            ((1, 0), (i + 1, j), (i + 1, j + 1)),
            ((0, 1), (i + 1, j + 1), (i, j + 1)),
            ((-1, 0), (i, j + 1), (i, j)),
        ):
            if (i + di, j + dj) not in cells:
                edges[a] = b
    found = []
    while edges:
        start = min(edges)
        loop = [start]
        while (after := edges.pop(loop[-1])) != start:
            loop.append(after)
        corners = [
            p
            for k, p in enumerate(loop)
            if not _straight(loop[k - 1], p, loop[(k + 1) % len(loop)])
        ]
        found.append(tuple((xs[i], ys[j]) for i, j in corners))
    return sorted(found, key=lambda o: (min(y for _, y in o), min(x for x, _ in o)))


def _straight(a: tuple[int, int], b: tuple[int, int], c: tuple[int, int]) -> bool:
    return (b[0] - a[0]) * (c[1] - b[1]) == (b[1] - a[1]) * (c[0] - b[0])


def viewing_angle(
    hole_mm: float, skin_mm: float, fill_index: float = 1.0, die_mm: float = 0.0
) -> float:
    """How far from vertical, in degrees, the centre of an LED shows: its die lies
    ``die_mm`` under the face of its package, which sits under ``skin_mm`` of wood at the
    bottom of a ``hole_mm`` bore filled, flush with the top, with a clear fill of
    refractive index ``fill_index`` (1.0: an open bore).

    The steepest ray from the die that clears the top rim leaves at
    ``atan(r / (skin + die))`` from vertical (the package's clear resin bends it no more
    than the fill, of about its index, bends it back); the fill's flat top face bends it
    out to ``asin(n sin(...))`` (Snell's law; 90 degrees, the whole sky, once that
    passes 1).

    >>> round(viewing_angle(3.2, 15.0), 1)  # the old board: a 3 mm channel in 18 mm
    6.1
    >>> [round(viewing_angle(4.5, 3.0, 1.5, die)) for die in (0.0, *DIE_MM)]
    [64, 54, 47]
    """
    inside = math.atan(hole_mm / 2 / (skin_mm + die_mm))
    bent = fill_index * math.sin(inside)
    return 90.0 if bent >= 1 else math.degrees(math.asin(bent))
