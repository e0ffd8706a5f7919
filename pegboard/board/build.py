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

from pegboard.board.geometry import Hole, Layout, in_line
from pegboard.errors import LayoutError

EDGE_MM = 1.0  # a pocket's wall to the edge of the strip in it
JOINT_MM = 8.0  # a pocket goes on this far past a piece's end: room for a joint's wires
RIB_MM = 8.0  # full-thickness wood left between two pockets
FRAME_MM = 12.0  # from the board's edge to the pockets
FIT_MM = 0.5  # a PCB's pocket is this much wider than the PCB on every side
LEDGE_MM = 9.0  # a PCB's face bears on this much wood round its edge, its screws in it

Point = tuple[float, float]


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
    a strip's pieces kept together where that costs no reel."""
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


def channel(layout: Layout, piece: Piece) -> Box:
    """The room a piece needs under the board: its strip's width plus an edge each side,
    from a joint's length before its first pad to a joint's length past its last."""
    reach = layout.strip_kind.pitch_mm / 2 + JOINT_MM
    half = layout.strip_kind.width_mm / 2 + EDGE_MM
    return _box(piece.beyond(False, reach), piece.beyond(True, reach), half)


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
        Box(x0 - FIT_MM, y0 - FIT_MM, x1 + FIT_MM, y1 + FIT_MM),
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
    half = layout.strip_kind.width_mm / 2 + EDGE_MM
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


def _pocket(every: list[Box], box: Box) -> int:
    return next(i for i, p in enumerate(every) if p.touches(box))


def viewing_angle(hole_mm: float, skin_mm: float, fill_index: float = 1.0) -> float:
    """How far from vertical, in degrees, the centre of an LED shows: it sits under
    ``skin_mm`` of wood at the bottom of a ``hole_mm`` bore filled, flush with the top,
    with a clear fill of refractive index ``fill_index`` (1.0: an open bore).

    Inside the bore the steepest ray from the LED's centre that clears the top rim leaves
    at ``atan(r / skin)`` from vertical; the fill's flat top face bends it out to
    ``asin(n sin(atan(r / skin)))`` (Snell's law; 90 degrees, the whole sky, once that
    passes 1).

    >>> round(viewing_angle(3.2, 15.0), 1)  # the old board: a 3 mm channel in 18 mm
    6.1
    >>> round(viewing_angle(4.5, 3.0), 1), round(viewing_angle(4.5, 3.0, 1.5), 1)
    (36.9, 64.2)
    """
    inside = math.atan(hole_mm / 2 / skin_mm)
    bent = fill_index * math.sin(inside)
    return 90.0 if bent >= 1 else math.degrees(math.asin(bent))
