"""Frame rendering: what the players see, as LED colours. Pure: view in, frame out.

The painter turns the game into a :class:`BoardView` (scores, colours, a pending
entry, a refused claim, the winner, the target and the skunk lines) plus the time
``t``; a :class:`Renderer` bound to a layout places each score in its hole and lap
(:meth:`~pegboard.board.geometry.Layout.place`) and turns the view into a
:class:`Frame`, one ``bytes`` per LED strip. It needs to know nothing of the board.

- Front peg bright in the track's colour, back peg dim in the same colour.
- On a board with laps, the lap marks of every lap the front peg has begun after the
  first, half bright in the track's colour.
- Every fifth hole and the game hole faintly white; the first hole past each of the
  game's skunk lines faintly amber.
- A pending entry blinks a preview peg that many points past the front peg.
- A refused claim flashes the whole track red.
- The winner's track runs a comet for a few seconds; the winning peg stays lit.
- A brightness cap scales every colour, and a current estimate (60 mA per LED
  at full white, 1 mA dark) scales the frame down to the supply's budget.

>>> from pegboard.board.layout import load_layout
>>> renderer = Renderer(load_layout("two-track-121"))
>>> frame = renderer.render(BoardView((TrackView(front=5, back=2), TrackView())))
>>> frame.hole(renderer.layout, 0, 5)  # the blue front peg, at the 50 % cap
(0, 57, 89)
>>> english = Renderer(load_layout("two-track-61"))
>>> frame = english.render(BoardView((TrackView(front=75, back=59),), target=121))
>>> frame.hole(english.layout, 0, 15), frame.at(english.layout.lap_mark(0, 2))
((0, 57, 89), (0, 29, 45))
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from pegboard.board.geometry import RGB, Hole, Layout, Place
from pegboard.errors import ConfigError, LayoutError
from pegboard.i18n import N_, Phrase

BACK = 0.12  # back peg, as a share of the track colour
LAP = 0.5  # a lap mark
PREVIEW = 0.45  # the blinking preview of a pending entry
FIFTH = (8, 8, 8)  # every fifth hole and the game hole
SKUNK = (16, 7, 0)  # the first hole past a skunk line
REFUSED = (255, 0, 0)
REFUSED_TRACK = (48, 0, 0)
BLINK_HZ = 2.0  # pending preview
FLASH_HZ = 4.0  # refused claim
WIN_SECONDS = 3.0  # length of the win animation
WIN_LAP = 1.0  # seconds for the comet to run the winner's track once
TAIL = 8  # holes in the comet's tail


@dataclass(frozen=True, slots=True)
class Frame:
    """What the LEDs show: one ``bytes`` per strip, ``r, g, b`` for each LED in order.

    >>> Frame.dark((2, 1)).strips
    (b'\\x00\\x00\\x00\\x00\\x00\\x00', b'\\x00\\x00\\x00')
    """

    strips: tuple[bytes, ...]

    @classmethod
    def dark(cls, lengths: tuple[int, ...]) -> Frame:
        return cls(tuple(bytes(3 * n) for n in lengths))

    def pixel(self, strip: int, led: int) -> RGB:
        rgb = self.strips[strip][3 * led : 3 * led + 3]
        return (rgb[0], rgb[1], rgb[2])

    def hole(self, layout: Layout, track: int, number: int) -> RGB:
        """The colour under hole ``number`` of ``track``."""
        return self.at(layout.hole(track, number))

    def at(self, hole: Hole) -> RGB:
        """The colour under ``hole`` (a peg hole or a lap mark)."""
        return self.pixel(hole.strip, hole.led)


@dataclass(frozen=True, slots=True)
class TrackView:
    """One track as the players should see it.

    ``front`` and ``back`` are the scores of the two pegs (0: not started); the
    renderer places them in their holes and laps. ``pending`` is an entry being
    dialled (points, shown ahead of the front peg), ``refused`` flashes the track
    red, ``colour`` is the side's colour (the layout's when None).
    """

    front: int = 0
    back: int = 0
    colour: RGB | None = None
    pending: int | None = None
    refused: bool = False


@dataclass(frozen=True, slots=True)
class BoardView:
    """The board at time ``t`` (seconds, monotonic, from the caller).

    ``winner`` is the index of the winning track, ``won_at`` the ``t`` of the win.
    ``target`` is the game's (a score that reaches it sits in the game hole; None:
    the most the board shows), ``skunk_lines`` the scores of the game's skunk lines.
    """

    tracks: tuple[TrackView, ...]
    t: float = 0.0
    winner: int | None = None
    won_at: float = 0.0
    target: int | None = None
    skunk_lines: tuple[int, ...] = ()


@dataclass(frozen=True, slots=True)
class Power:
    """Brightness cap and LED supply budget.

    >>> Power(supply_ma=1000).milliamps(Frame((b"\\xff" * 6,)))  # two LEDs at full white
    122.0
    """

    brightness: float = 0.5  # cap, 0..1, applied to every colour
    supply_ma: float = 2500.0  # what the LED supply may deliver
    full_ma: float = 20.0  # one channel at 255
    dark_ma: float = 1.0  # one LED at 0, 0, 0

    def milliamps(self, frame: Frame) -> float:
        """Estimated current of ``frame`` (each channel scales linearly)."""
        leds = sum(len(s) for s in frame.strips) // 3
        light = sum(sum(s) for s in frame.strips)
        return leds * self.dark_ma + light * self.full_ma / 255


class Renderer:
    """Renders views for one layout; build it once, call :meth:`render` per frame."""

    def __init__(self, layout: Layout, power: Power | None = None):
        self.layout = layout
        self.power = power = power or Power()
        if not 0 <= power.brightness <= 1:
            raise ConfigError(f"brightness {power.brightness} is not between 0 and 1")
        leds = sum(layout.strip_lengths)
        if power.supply_ma <= leds * power.dark_ma:
            weak = N_("a {supply} LED supply cannot even feed {leds} dark LEDs ({need})")
            need = f"{leds * power.dark_ma:g} mA"
            raise ConfigError(
                Phrase.of(weak, supply=f"{power.supply_ma:g} mA", leds=leds, need=need)
            )
        # Byte offset of every hole in its strip, per track: holes 0..game, then lap marks.
        self._at = [
            [(h.strip, 3 * h.led) for h in (*track.holes, *track.lap_marks)]
            for track in layout.tracks
        ]
        self._marks = [bytearray(3 * n) for n in layout.strip_lengths]
        for t in range(len(layout.tracks)):
            for n in range(1, layout.game + 1):
                if n % 5 == 0 or n == layout.game:
                    self._paint(self._marks, t, n, self._cap(FIFTH))

    def render(self, view: BoardView) -> Frame:
        """The frame for ``view``."""
        if len(view.tracks) > len(self.layout.tracks):
            raise LayoutError(
                f"layout {self.layout.name} has {len(self.layout.tracks)} tracks, "
                f"not {len(view.tracks)}"
            )
        strips = [bytearray(m) for m in self._marks]
        for line in view.skunk_lines:
            hole = self.layout.place(line, view.target).hole
            for t in range(len(self.layout.tracks)):
                self._paint(strips, t, hole, self._cap(SKUNK))
        for t, track in enumerate(view.tracks):
            self._track(strips, t, track, view)
        if view.winner is not None and 0 <= view.t - view.won_at < WIN_SECONDS:
            self._comet(strips, view.winner, view.tracks[view.winner], view.t - view.won_at)
        return Frame(self._budget(strips))

    # -- painting ---------------------------------------------------------------

    def _track(self, strips: list[bytearray], t: int, track: TrackView, view: BoardView) -> None:
        front = self._place(t, "front", track.front, view.target)
        back = self._place(t, "back", track.back, view.target).hole
        colour = track.colour or self.layout.tracks[t].colour
        if track.refused and _on(view.t, FLASH_HZ):
            for n in range(len(self._at[t])):
                self._paint(strips, t, n, self._cap(REFUSED_TRACK))
            self._paint(strips, t, front.hole, self._cap(REFUSED))
            return
        for lap in range(2, front.lap + 1):
            self._paint(strips, t, self.layout.game + lap - 1, self._cap(colour, LAP))
        if back != front.hole:
            self._paint(strips, t, back, self._cap(colour, BACK))
        self._paint(strips, t, front.hole, self._cap(colour))
        if track.pending is not None:
            if track.pending < 0:
                raise LayoutError(f"track {t}: a pending entry of {track.pending} points")
            if _on(view.t, BLINK_HZ):
                ahead = self.layout.place(track.front + track.pending, view.target).hole
                self._paint(strips, t, ahead, self._cap(colour, PREVIEW))
            elif track.pending == 0:
                self._paint(strips, t, front.hole, bytes(3))

    def _comet(self, strips: list[bytearray], t: int, track: TrackView, since: float) -> None:
        colour = track.colour or self.layout.tracks[t].colour
        game = self.layout.game
        head = int((since % WIN_LAP) / WIN_LAP * game) + 1
        for k in range(TAIL):
            n = head - k
            if 1 <= n < game:
                self._paint(strips, t, n, self._cap(colour, (TAIL - k) / TAIL))
        self._paint(strips, t, game, self._cap(colour))

    def _paint(self, strips: list[bytearray], t: int, n: int, rgb: bytes) -> None:
        """Hole ``n`` of track ``t`` (past the game hole: its lap marks) in ``rgb``."""
        strip, at = self._at[t][n]
        strips[strip][at : at + 3] = rgb

    def _place(self, t: int, which: str, score: int, target: int | None) -> Place:
        if score < 0:
            raise LayoutError(f"track {t}: the {which} peg cannot be at {score}")
        return self.layout.place(score, target)

    def _cap(self, colour: RGB, share: float = 1.0) -> bytes:
        """``colour`` at ``share`` under the brightness cap; a lit channel stays lit."""
        k = share * self.power.brightness
        return bytes(math.ceil(c * k) if c * k > 0 else 0 for c in colour)

    def _budget(self, strips: list[bytearray]) -> tuple[bytes, ...]:
        """Scale the frame down until its estimated current fits the supply."""
        frame = Frame(tuple(bytes(s) for s in strips))
        p = self.power
        spent = p.milliamps(frame)
        if spent <= p.supply_ma:
            return frame.strips
        dark = sum(len(s) for s in strips) // 3 * p.dark_ma
        factor = (p.supply_ma - dark) / (spent - dark)
        table = bytes(int(i * factor) for i in range(256))
        return tuple(s.translate(table) for s in frame.strips)


def _on(t: float, hz: float) -> bool:
    """The first half of each period of a ``hz`` blink."""
    return (t * hz) % 1.0 < 0.5


def lit_holes(layout: Layout, frame: Frame) -> dict[str, str]:
    """Hole id -> ``#rrggbb`` for every hole (and lap mark) that is not dark, as a screen
    should show it.

    LED values are gamma-lifted (a faint mark at 8/255 is plain to see on a real
    strip, but near black on a screen), so use these for the panel's SVG.

    >>> from pegboard.board.layout import load_layout
    >>> board = Renderer(load_layout("two-track-61"), Power(brightness=1.0))
    >>> lit = lit_holes(board.layout, board.render(BoardView((TrackView(front=1),))))
    >>> lit["t0h1"], lit["t0h5"]
    ('#00b1d9', '#353535')
    """
    lit = {}
    for hole in layout.holes():
        rgb = frame.pixel(hole.strip, hole.led)
        if any(rgb):
            lit[hole.id] = "#{:02x}{:02x}{:02x}".format(*(_SCREEN[c] for c in rgb))
    return lit


_SCREEN = bytes(round(255 * (v / 255) ** (1 / 2.2)) for v in range(256))
