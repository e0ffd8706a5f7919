"""The PCB as values: parts placed, tracks, vias and pours, in the board's millimetres
(the plank's top left corner, y down), and the fab's rules KiCad checks them against."""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass, field

from tools.pcb.parts import Part

Point = tuple[float, float]
SIGNAL_MM = 0.25  # data tracks
GROUND_MM = 0.3  # an LED's ground pad to its via
POWER_MM = 1.0  # the 5 V input, fused
VIA = (0.6, 0.3)  # diameter, drill
VIA_OFFSET = 1.1  # an LED's ground via from its ground pad, away from the row
# The fab's rules (JLCPCB's two-layer standard process), set in the project for KiCad's
# check: track and gap, drill, via and annular ring, copper to the board's edge, and
# between two holes.
RULES = {
    "min_track_width": 0.15,
    "min_clearance": 0.15,
    "min_through_hole_diameter": 0.3,
    "min_via_diameter": 0.6,
    "min_via_annular_width": 0.13,
    "min_copper_edge_clearance": 0.3,
    "min_hole_to_hole": 0.5,
    "min_hole_clearance": 0.25,
}
CLEARANCE_MM = 0.2  # what the design keeps, above the fab's least


@dataclass
class Placed:
    """A part placed: ``rotation`` counterclockwise as seen from the top, ``bottom``
    for a part under the board (its land pattern mirrored), ``nets`` by pad."""

    ref: str
    part: Part
    x: float
    y: float
    rotation: float = 0.0
    bottom: bool = False
    nets: dict[str, str] = field(default_factory=dict)
    label: Point | None = None  # its reference on the silk, in the footprint's frame
    label_angle: float | None = None  # the reference's angle (default: the part's)

    def local(self, number: str) -> Point:
        """A pad's place in the footprint as stored: mirrored for the bottom."""
        pad = self.part.land.pad(number)
        return (-pad.x if self.bottom else pad.x, pad.y)

    def at(self, number: str) -> Point:
        """Where a pad's centre is on the board."""
        return self.place(self.local(number))

    def place(self, local: Point) -> Point:
        a = math.radians(self.rotation)
        x, y = local
        return (
            self.x + x * math.cos(a) + y * math.sin(a),
            self.y - x * math.sin(a) + y * math.cos(a),
        )


@dataclass(frozen=True)
class Track:
    a: Point
    b: Point
    width: float
    layer: str  # "F.Cu" or "B.Cu"
    net: str


@dataclass(frozen=True)
class Via:
    at: Point
    net: str


@dataclass(frozen=True)
class Zone:
    net: str
    layer: str
    box: tuple[float, float, float, float]
    priority: int = 0


@dataclass
class Board:
    name: str
    outline: tuple[float, float, float, float]
    parts: list[Placed] = field(default_factory=list)
    tracks: list[Track] = field(default_factory=list)
    vias: list[Via] = field(default_factory=list)
    zones: list[Zone] = field(default_factory=list)
    rails: float = 0.0  # the assembly rails along the long edges, V-scored off the board
    texts: list[tuple[str, Point, str, float]] = field(
        default_factory=list
    )  # text, at, layer, size

    def add(
        self,
        ref: str,
        part: Part,
        at: Point,
        rotation: float = 0,
        bottom: bool = False,
        **nets: str,
    ) -> Placed:
        placed = Placed(
            ref,
            part,
            at[0],
            at[1],
            rotation,
            bottom,
            {k.removeprefix("p"): v for k, v in nets.items()},
        )
        self.parts.append(placed)
        return placed

    def path(self, net: str, layer: str, points: list[Point], width: float = SIGNAL_MM) -> None:
        for a, b in itertools.pairwise(points):
            self.tracks.append(Track(a, b, width, layer, net))

    def part(self, ref: str) -> Placed:
        return next(p for p in self.parts if p.ref == ref)

    @property
    def nets(self) -> list[str]:
        """Every net, in a fixed order: ground and 5 V first."""
        named = {n for p in self.parts for n in p.nets.values()} | {t.net for t in self.tracks}
        return sorted(named, key=lambda n: (n not in ("GND", "+5V"), n != "GND", n))
