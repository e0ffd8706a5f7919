"""The case under the board, generated from its layout with build123d: a tray the size of
the board that holds the Pi, the LED electronics, the Pico, the speaker and the supply's
socket, with the dials in its walls at the pin map's seats.

The tray screws up through the back panel into the plank's frame at the frame's screw
holes (:func:`pegboard.board.build.frame_screws`), so the three share one set of holes;
its top is open under the back panel's wire exits. Inside:

- a seat of six standoffs for a Raspberry Pi: a Zero 2 W and a 3, 4 or 5 share the 58 mm
  spacing of their holes, 23 mm apart on a Zero and 49 mm on the others;
- a seat for the LED electronics: the 5 × 7 cm perfboard of the level shifter (holes
  3 mm in from its corners), or a board of the same size and holes;
- a seat for the Pico, and a ring for a 40 mm speaker over a grille in the floor;
- in the walls: a hole for each seat's dial (an EC11's 7 mm bushing), the advance
  button's, a window for the LED supply's USB-C socket, an entry for the Pi's cable;
- for a PCB layout (whose Pico, level shifter and power input are on the PCB) the Pi's
  seat and the speaker alone, and the supply's socket in the left wall beside the Pi's
  cable, under the PCB's electronics end where its wires go up to the terminal;
- under the floor: four recesses for rubber feet, which keep the grille off the table.

Written as STEP (the whole tray), as STL in two halves cut across the middle (each fits a
250 mm printer bed; both screw to the back panel), as DXF for a wooden case of 6 mm
plywood rings on a floor (:func:`wood`), and the pictures the guide shows
(:mod:`tools.pictures`). ``tools.hardware`` writes them with the rest.
"""

from __future__ import annotations

import io
import math
from dataclasses import dataclass
from datetime import UTC, datetime

import build123d as bd

from pegboard.board.build import SCREW_MM, frame_screws
from pegboard.board.geometry import Layout

HEIGHT_MM = 36.0  # the tray, floor to the back panel
WALL_MM = 3.0
FLOOR_MM = 3.0
BOSS_MM = 8.0  # round each frame screw, the tray's full height
HEAD_MM = 6.5  # the screw's head, sunk from below ...
HELD_MM = 6.0  # ... to this far under the top: an M3 × 16 reaches 7 mm into the plank
STANDOFF_MM = (6.0, 5.0)  # diameter and height of a board's standoff
DIAL_MM = 7.2  # an EC11's M7 bushing
BUTTON_MM = 12.2  # the advance button
CABLE_MM = 10.0  # the Pi's power cable comes in here
SOCKET_MM = (9.4, 3.8)  # a USB-C socket's window
SPEAKER_MM = 40.0
GRILLE_MM = (2.0, 4.0)  # slot width and pitch of the grille
FOOT_MM = (10.5, 1.0)  # a rubber foot's recess: diameter, depth
SPLIT_MM = 8.0  # the two halves' cut leaves this much room either side of features
PRINT_BED_MM = 250.0  # each half fits a printer bed this long
TOLERANCE = (0.1, 0.3)  # STL: linear (mm) and angular (rad) deflection: small files
FIXED = datetime(2025, 1, 1, tzinfo=UTC)  # the STEP's date: the same file for the same board


@dataclass(frozen=True)
class Seat:
    """A board held on standoffs: its size and its holes, from its top left corner."""

    name: str
    size: tuple[float, float]
    holes: tuple[tuple[float, float], ...]
    hole_mm: float  # for a self-tapping screw into the standoff


PI = Seat(
    "Raspberry Pi",
    (85.0, 56.0),
    ((3.5, 3.5), (61.5, 3.5), (3.5, 26.5), (61.5, 26.5), (3.5, 52.5), (61.5, 52.5)),
    2.2,
)
PERFBOARD = Seat("LED electronics", (70.0, 50.0), ((3, 3), (67, 3), (3, 47), (67, 47)), 2.5)
PICO = Seat("Pico", (51.0, 21.0), ((2, 4.8), (49, 4.8), (2, 16.2), (49, 16.2)), 1.8)
SEATS = (PI, PERFBOARD, PICO)
GAP_MM = 12.0  # between the seats, and from the left wall to the first


@dataclass(frozen=True)
class Opening:
    """A hole through a wall: which wall (``front`` y = height, ``back`` y = 0, ``right``
    x = width, ``left`` x = 0), where along it, what for, and its size."""

    wall: str
    along: float
    what: str
    size: tuple[float, float]  # width and height; a round hole has both its diameter


def seats_of(layout: Layout) -> tuple[Seat, ...]:
    """The boards the tray holds: on a PCB layout the Pi alone."""
    return SEATS if layout.pcb is None else (PI,)


def seats(layout: Layout) -> list[tuple[Seat, float, float]]:
    """Each seat and its top left corner in the tray, left to right along its middle."""
    x, placed = WALL_MM + GAP_MM, []
    for seat in seats_of(layout):
        y = (layout.height_mm - seat.size[1]) / 2
        placed.append((seat, x, y))
        x += seat.size[0] + GAP_MM
    return placed


def speaker(layout: Layout) -> tuple[float, float]:
    """The speaker's centre: after the seats."""
    seat, x, _ = seats(layout)[-1]
    return (x + seat.size[0] + GAP_MM + SPEAKER_MM / 2 + 2, layout.height_mm / 2)


def openings(layout: Layout, dials: int) -> list[Opening]:
    """The walls' holes: ``dials`` dials, seat 1 and 3 on the front, 2 and 4 across from
    them on the back (play goes round the table); the advance button and the supply on
    the right; the Pi's cable on the left."""
    w, h = layout.width_mm, layout.height_mm
    found = []
    for seat in range(dials):
        wall = "front" if seat % 2 == 0 else "back"
        third = (1 + seat // 2) if wall == "front" else (2 - seat // 2)
        found.append(Opening(wall, w * third / 3, f"seat {seat + 1} dial", (DIAL_MM, DIAL_MM)))
    supply = Opening("right", h / 2 + 12, "LED supply (USB-C)", SOCKET_MM)
    cable = Opening("left", h / 2, "the Pi's power cable", (CABLE_MM, CABLE_MM))
    if layout.pcb is not None:  # the supply's wires go up to the PCB's terminal, at the left
        supply = Opening("left", h / 2 + 12, "LED supply (USB-C)", SOCKET_MM)
        cable = Opening("left", h / 2 - 10, "the Pi's power cable", (CABLE_MM, CABLE_MM))
    found += [Opening("right", h / 2 - 15, "advance button", (BUTTON_MM, BUTTON_MM))]
    return [*found, supply, cable]


def split_x(layout: Layout) -> float:
    """Where the printed tray is cut in two: near the middle, as far as can be from every
    seat's standoffs, the frame's screws and the holes in the walls, with each half at
    most PRINT_BED_MM long."""
    w = layout.width_mm
    taken = [sx + hx for seat, sx, _ in seats(layout) for hx, _ in seat.holes]
    taken += [sx for sx, _ in frame_screws(layout)]
    taken += [o.along for o in openings(layout, 4) if o.wall in ("front", "back")]
    taken += [speaker(layout)[0] + k * (SPEAKER_MM / 2 + 3) for k in (-1, 1)]
    low, high = max(w / 2 - 40, w - PRINT_BED_MM), min(w / 2 + 40, PRINT_BED_MM)
    candidates = [low + k * 0.5 for k in range(int((high - low) / 0.5) + 1)]
    x = max(candidates, key=lambda c: (min(abs(t - c) for t in taken), -abs(c - w / 2)))
    assert min(abs(t - x) for t in taken) >= SPLIT_MM, f"{layout.name}: the cut hits a part"
    return x


def tray(layout: Layout, dials: int = 4) -> bd.Part:
    """The whole tray as one solid, in mm, x and y as the board's (y down turned y up:
    the model's y is ``height - y``), z up from the table."""
    w, h, top = layout.width_mm, layout.height_mm, HEIGHT_MM
    body = bd.Box(w, h, top, align=_corner)
    inside = bd.Box(w - 2 * WALL_MM, h - 2 * WALL_MM, top, align=_corner).moved(
        bd.Location((WALL_MM, WALL_MM, FLOOR_MM))
    )
    body -= inside
    screws = [(x, h - y) for x, y in frame_screws(layout)]
    for x, y in screws:
        boss = bd.Cylinder(BOSS_MM / 2, top, align=_low).moved(bd.Location((x, y, 0)))
        body += boss & bd.Box(w, h, top, align=_corner)
    for seat, sx, sy in seats(layout):
        for hx, hy in seat.holes:
            x, y = sx + hx, h - (sy + hy)
            d, tall = STANDOFF_MM
            post = bd.Cylinder(d / 2, tall, align=_low).moved(bd.Location((x, y, FLOOR_MM)))
            body += post
            body -= bd.Cylinder(seat.hole_mm / 2, tall, align=_low).moved(
                bd.Location((x, y, FLOOR_MM + 1))
            )
    cx, cy = speaker(layout)
    ring = bd.Cylinder(SPEAKER_MM / 2 + 3, 3, align=_low) - bd.Cylinder(
        SPEAKER_MM / 2 + 1, 3, align=_low
    )
    body += ring.moved(bd.Location((cx, h - cy, FLOOR_MM)))
    for slot in _grille(cx, h - cy):
        body -= slot
    for x, y in screws:
        body -= bd.Cylinder(SCREW_MM / 2, top, align=_low).moved(bd.Location((x, y, 0)))
        body -= bd.Cylinder(HEAD_MM / 2, top - HELD_MM, align=_low).moved(bd.Location((x, y, 0)))
    for opening in openings(layout, dials):
        body -= _through_wall(layout, opening)
    for x, y in _feet(layout):
        body -= bd.Cylinder(FOOT_MM[0] / 2, FOOT_MM[1], align=_low).moved(bd.Location((x, y, 0)))
    return body


_low = (bd.Align.CENTER, bd.Align.CENTER, bd.Align.MIN)  # standing on its centre
_corner = (bd.Align.MIN, bd.Align.MIN, bd.Align.MIN)


def _grille(cx: float, cy: float) -> list[bd.Part]:
    """Slots through the floor across the speaker's circle."""
    slot, pitch = GRILLE_MM
    r = SPEAKER_MM / 2 - 4
    slots = []
    n = int(r // pitch)
    for k in range(-n, n + 1):
        dy = k * pitch
        half = math.sqrt(r * r - dy * dy)
        if half < slot:
            continue
        cut = bd.Box(2 * half, slot, FLOOR_MM + 2, align=_low)
        slots.append(cut.moved(bd.Location((cx, cy + dy, -1))))
    return slots


def _feet(layout: Layout) -> list[tuple[float, float]]:
    inset = 20.0
    w, h = layout.width_mm, layout.height_mm
    return [(x, y) for x in (inset, w - inset) for y in (inset, h - inset)]


def _through_wall(layout: Layout, opening: Opening) -> bd.Part:
    """The cutter for one opening: round when both its sizes agree, else a window."""
    w, h = layout.width_mm, layout.height_mm
    z = FLOOR_MM + (HEIGHT_MM - FLOOR_MM) / 2
    depth = 3 * WALL_MM
    across, tall = opening.size
    round_ = across == tall
    if opening.wall in ("front", "back"):
        y = h if opening.wall == "back" else 0.0  # the model's y is up: front at 0
        where = bd.Location((opening.along, y, z))
        if round_:
            return bd.Cylinder(across / 2, depth).moved(where * bd.Location((0, 0, 0), (90, 0, 0)))
        return bd.Box(across, depth, tall).moved(where)
    x = 0.0 if opening.wall == "left" else w
    where = bd.Location((x, h - opening.along, z))
    if round_:
        return bd.Cylinder(across / 2, depth).moved(where * bd.Location((0, 0, 0), (0, 90, 0)))
    return bd.Box(depth, across, tall).moved(where)


def halves(part: bd.Part, layout: Layout) -> tuple[bd.Part, bd.Part]:
    """The tray cut across at :func:`split_x`: the left half and the right."""
    x = split_x(layout)
    big = 2 * max(layout.width_mm, layout.height_mm, HEIGHT_MM)
    left = bd.Box(x, big, big, align=(bd.Align.MIN, bd.Align.CENTER, bd.Align.CENTER))
    left = left.moved(bd.Location((0, layout.height_mm / 2, HEIGHT_MM / 2)))
    right = bd.Box(big, big, big, align=(bd.Align.MIN, bd.Align.CENTER, bd.Align.CENTER))
    right = right.moved(bd.Location((x, layout.height_mm / 2, HEIGHT_MM / 2)))
    return part & left, part & right


def step(part: bd.Part) -> bytes:
    out = io.BytesIO()
    bd.export_step(part, out, timestamp=FIXED)
    return out.getvalue()


def stl(part: bd.Part) -> bytes:
    """Binary STL of ``part``, tessellated coarsely enough to keep the file small."""
    import struct

    points, triangles = part.tessellate(*TOLERANCE)
    out = bytearray(b"pegboard case".ljust(80, b" "))
    out += struct.pack("<I", len(triangles))
    for a, b, c in triangles:
        pa, pb, pc = (points[i] for i in (a, b, c))
        normal = (pb - pa).cross(pc - pa)
        n = normal.normalized() if normal.length > 0 else normal
        out += struct.pack("<12fH", n.X, n.Y, n.Z, *_xyz(pa), *_xyz(pb), *_xyz(pc), 0)
    return bytes(out)


def _xyz(v: bd.Vector) -> tuple[float, float, float]:
    return (v.X, v.Y, v.Z)


WOOD_MM = 6.0  # plywood for the wooden case: a floor and rings stacked on it


def wood(layout: Layout, dials: int = 4) -> str:
    """The case in 6 mm plywood as DXF, seen from above, the sheets one under another: the
    floor (the seats' pilot holes, the grille's slots, the feet marked), then rings the
    frame's width stacked to the tray's height, the frame's screw holes through every one;
    the walls' holes marked on the middle ring's edge, to drill through once glued."""
    from tools.workshop import PILOT_MM, _Drawing

    rings = round((HEIGHT_MM - WOOD_MM) / WOOD_MM)
    w, h, frame = layout.width_mm, layout.height_mm, 2 * frame_screws(layout)[0][0]
    doc = _Drawing(layout)
    for k in range(rings + 1):
        d = _Drawing(layout, shift=k * (h + 10))
        d.doc, d.msp = doc.doc, doc.msp
        d.rectangle("CUT", 0, 0, w, h)
        label = "floor" if k == 0 else f"ring {k} of {rings}"
        d.text("ENGRAVE", frame + 2, frame + 6, f"{layout.name} case, {label}", 4.0)
        if k == 0:
            for seat, sx, sy in seats(layout):
                for hx, hy in seat.holes:
                    d.circle("CUT", sx + hx, sy + hy, PILOT_MM)
            cx, cy = speaker(layout)
            slot, pitch = GRILLE_MM
            r = SPEAKER_MM / 2 - 4
            for j in range(-int(r // pitch), int(r // pitch) + 1):
                half = math.sqrt(max(0.0, r * r - (j * pitch) ** 2))
                if half >= slot:
                    y = cy + j * pitch
                    d.rectangle("CUT", cx - half, y - slot / 2, cx + half, y + slot / 2)
            for x, y in _feet(layout):
                d.circle("ENGRAVE", x, h - y, FOOT_MM[0])
            continue
        d.rectangle("CUT", frame, frame, w - frame, h - frame)
        for x, y in frame_screws(layout):
            d.circle("CUT", x, y, SCREW_MM)
        if k == (rings + 1) // 2:
            for opening in openings(layout, dials):
                _mark(d, layout, opening)
    return doc.dxf()


def _mark(d, layout: Layout, opening: Opening) -> None:
    """A tick across the ring where a wall's hole goes; what it is for and its size written
    inside the ring beside it (``REF_NOTES``: neither cut nor engraved)."""
    w, h = layout.width_mm, layout.height_mm
    frame = 2 * frame_screws(layout)[0][0]
    across, tall = opening.size
    size = f"{across:g}" if across == tall else f"{across:g} × {tall:g}"
    words = f"{opening.what}: {size} mm"
    if opening.wall in ("front", "back"):
        y0, y1 = (h - frame, h) if opening.wall == "front" else (0, frame)
        tick = (d.at(opening.along, y0), d.at(opening.along, y1))
        at = (opening.along + 1, h - frame - 2 if opening.wall == "front" else frame + 4)
    else:
        x0, x1 = (w - frame, w) if opening.wall == "right" else (0, frame)
        tick = (d.at(x0, opening.along), d.at(x1, opening.along))
        at = (w - frame - 60 if opening.wall == "right" else frame + 2, opening.along + 1)
    d.msp.add_line(*tick, dxfattribs=d.layer("ENGRAVE"))
    d.text("REF_NOTES", *at, words, 2.5)


def files(layout: Layout, dials: int = 4) -> dict[str, bytes]:
    """Each file by its name's end: the tray as STEP, its two halves as STL, the wooden
    case as DXF."""
    part = tray(layout, dials)
    left, right = halves(part, layout)
    return {
        "case.step": step(part),
        "case-left.stl": stl(left),
        "case-right.stl": stl(right),
        "case-wood.dxf": wood(layout, dials).encode(),
    }
