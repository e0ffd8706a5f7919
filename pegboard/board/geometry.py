"""A board design as values: its holes, the LEDs under them, and where a score is pegged.

:mod:`pegboard.board.layout` reads these from a layout file and checks them.

Each track has a start hole (0), one hole per point and a game hole (``game``). A board
with *laps* is played round more than once, as on the English board of 60 holes a track:
a score is then a hole and a lap, and beside each track a lap mark for each lap after the
first lights when that lap begins.

>>> from pegboard.board.layout import load_layout
>>> board = load_layout("two-track-61")
>>> board.game, board.laps, board.capacity, [s.pin for s in board.strips]
(61, 3, 181, [2, 3])
>>> board.place(75), board.place(121, target=121), board.place(61, target=61)
(Place(hole=15, lap=2), Place(hole=61, lap=2), Place(hole=61, lap=1))
>>> board.can_show(181), load_layout("two-track-121").can_show(181)
(True, False)
>>> board.hole(0, 57).id, board.lap_mark(1, 2).id
('t0h57', 't1l2')
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass
from typing import NamedTuple

from pegboard.errors import LayoutError

RGB = tuple[int, int, int]
PITCH_SPREAD = 0.02  # a measured pitch may be this far (2 %) from 1000 / LEDs a metre
# Unless a layout says otherwise: a carrier is its strip's width and this much more (strips
# sold as 12 mm measure up to 12.5), with at least FIT_MM of air each side in its pocket,
# routed with a bit of BIT_MM (its radius rounds the pockets' inside corners).
CARRIER_SPARE_MM = 0.5
FIT_MM = 0.5
BIT_MM = 6.0


@dataclass(frozen=True, slots=True)
class Hole:
    """A hole of a track with the LED under it: a peg hole (``number`` 0 is the start
    hole, ``layout.game`` the game hole) or, with ``lap_mark``, the mark of lap ``number``."""

    track: int
    number: int
    x: float  # mm from the board's left edge
    y: float  # mm from the board's top edge
    strip: int
    led: int
    lap_mark: bool = False

    @property
    def id(self) -> str:
        """The stable name of the hole, also its SVG element id: ``t0h57``, ``t0l2``."""
        return f"t{self.track}{'l' if self.lap_mark else 'h'}{self.number}"


@dataclass(frozen=True, slots=True)
class Track:
    """One player's (or team's) row of holes; ``holes[n]`` is hole ``n``,
    ``lap_marks[k]`` the mark of lap ``k + 2``."""

    index: int
    name: str
    colour: RGB
    holes: tuple[Hole, ...]
    lap_marks: tuple[Hole, ...] = ()


@dataclass(frozen=True, slots=True)
class Strip:
    """One chain of WS2812 LEDs on one Pico pin; ``id`` is its place in a frame."""

    id: int
    pin: int
    leds: int


@dataclass(frozen=True, slots=True)
class StripKind:
    """The LED strip as bought, from which the board's spacing is derived."""

    leds_per_m: int
    width_mm: float
    reel_m: float  # the length it comes in
    measured_mm: float | None = None  # the pitch measured on the reel, if it was

    @property
    def nominal_mm(self) -> float:
        """From one LED to the next, as sold: 1000 / LEDs a metre."""
        return 1000 / self.leds_per_m

    @property
    def pitch_mm(self) -> float:
        """From one LED to the next, measured or as sold: also from one hole to the next."""
        return self.measured_mm or self.nominal_mm

    @property
    def reel_leds(self) -> int:
        return round(self.reel_m * self.leds_per_m)


@dataclass(frozen=True, slots=True)
class Pcb:
    """The LEDs on a printed circuit board, one under each hole, in place of strips: the
    holes' spacing is then a real board's, not a strip's (tools/pcb draws the PCB from the
    layout). The PCB lies in a pocket routed from below the plank, its LEDs' faces on the
    skin; it is held there by screws through its mounting holes."""

    led: str  # the LED's part: "WS2812B-2020"
    led_mm: float  # the package's height: how far its face stands off the PCB
    die_mm: float  # the die under the package's face, where the light starts
    pitch_mm: float  # from one hole of a group of five to the next
    outline: tuple[float, float, float, float]  # the PCB: x0, y0, x1, y1 in mm on the board
    mounting_mm: float  # the mounting holes' drill
    mounting: tuple[tuple[float, float], ...]  # their centres


class Place(NamedTuple):
    """Where a score is pegged: a hole of its track, on a lap (1 the first time round)."""

    hole: int
    lap: int


@dataclass(frozen=True)
class Layout:
    """A whole board design: its holes and strips, and how it is built (a plank
    ``plank_mm`` thick, pocketed from below to leave ``skin_mm`` of wood over the LEDs,
    bored ``hole_mm`` through the skin, the bores filled with a clear fill of
    refractive index ``fill_index``: 1.0 for bores left open). The LEDs are cut strips
    (``strip_kind``) or sit on a PCB (``pcb``); a PCB's chains of LEDs are its strips.
    Each piece of strip lies on a carrier ``carrier_mm`` wide, ``fit_mm`` of air each side
    of it in its pocket, and the pockets are routed with a bit ``bit_mm`` across: one
    statement of the allowances, read by every drawing."""

    name: str
    title: str
    game: int
    laps: int
    width_mm: float
    height_mm: float
    hole_mm: float
    plank_mm: float
    skin_mm: float
    fill_index: float
    strip_kind: StripKind | None
    strips: tuple[Strip, ...]
    tracks: tuple[Track, ...]
    pcb: Pcb | None = None
    carrier_mm: float = 12.5  # the plywood strip under each piece, as wide as this
    fit_mm: float = FIT_MM  # air at least each side of a carrier in its pocket
    bit_mm: float = BIT_MM  # the router bit's diameter: its radius rounds inside corners

    @property
    def apart_mm(self) -> float:
        """The least distance between holes over two strips lying side by side: a
        carrier's width and the fit between two carriers."""
        return self.carrier_mm + self.fit_mm

    def hole(self, track: int, number: int) -> Hole:
        """The hole ``number`` (0..game) of ``track``."""
        return self.tracks[track].holes[number]

    def lap_mark(self, track: int, lap: int) -> Hole:
        """The mark of ``lap`` (2..laps) beside ``track``."""
        return self.tracks[track].lap_marks[lap - 2]

    def holes(self) -> Iterator[Hole]:
        """Every hole drilled, track by track: its peg holes, then its lap marks."""
        for track in self.tracks:
            yield from track.holes
            yield from track.lap_marks

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return tuple(s.leds for s in self.strips)

    @property
    def lap_holes(self) -> int:
        """Holes in one lap: every hole but the start and the game hole."""
        return self.game - 1

    @property
    def capacity(self) -> int:
        """The highest target the board can show: its game hole, after every lap."""
        return self.laps * self.lap_holes + 1

    def can_show(self, target: int) -> bool:
        """Whether a game to ``target`` can be played on this board, every score in its
        own hole and lap (121 on a 60-hole board in two laps, 181 in three).

        >>> from pegboard.board.layout import load_layout
        >>> board = load_layout("two-track-121")
        >>> board.can_show(121), board.can_show(61), board.can_show(181)
        (True, True, False)
        """
        return 1 <= target <= self.capacity

    def place(self, score: int, target: int | None = None) -> Place:
        """The hole and lap that show ``score`` in a game to ``target`` (by default the
        most the board can show). A score that reached the target sits in the game hole;
        on a board without laps a score past the game hole does too.

        >>> from pegboard.board.layout import load_layout
        >>> board = load_layout("two-track-61")
        >>> [board.place(s, 121) for s in (0, 1, 60, 61, 120)]  # doctest: +NORMALIZE_WHITESPACE
        [Place(hole=0, lap=1), Place(hole=1, lap=1), Place(hole=60, lap=1),
         Place(hole=1, lap=2), Place(hole=60, lap=2)]
        >>> load_layout("two-track-121").place(127)
        Place(hole=121, lap=1)
        """
        if score < 0:
            raise LayoutError(f"no hole shows a score of {score}")
        if self.laps == 1:
            return Place(min(score, self.game), 1)
        end = self.capacity if target is None else min(target, self.capacity)
        if score >= end:
            return Place(self.game, max(1, math.ceil((end - 1) / self.lap_holes)))
        if score == 0:
            return Place(0, 1)
        lap, hole = divmod(score - 1, self.lap_holes)
        return Place(hole + 1, lap + 1)


def in_line(a: Hole, b: Hole, pitch_mm: float) -> bool:
    """Whether one straight piece of strip can carry both holes' LEDs: the same strip, and
    the holes as far apart as their LEDs are along it."""
    along = abs(a.led - b.led) * pitch_mm
    return a.strip == b.strip and abs(math.dist((a.x, a.y), (b.x, b.y)) - along) < 0.05
