"""Board layouts: which hole sits where, and which LED lights it.

A layout file (``hardware/layouts/NAME.toml``) describes one board design and is
the single source of truth for its geometry. It is checked when loaded: a hole
without an LED, two holes on one LED, an LED past the end of its strip and the
like are refused with a :class:`~pegboard.errors.LayoutError` naming the hole.

>>> board = load_layout("two-track-121")
>>> board.game, len(board.tracks), [s.pin for s in board.strips]
(121, 2, [2, 3])
>>> board.hole(0, 57).id
't0h57'
"""

from __future__ import annotations

import math
import os
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from pegboard.errors import LayoutError

RGB = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Hole:
    """One hole of one track: 0 is the start hole, ``layout.game`` the game hole."""

    track: int
    number: int
    x: float  # mm from the board's left edge
    y: float  # mm from the board's top edge
    strip: int
    led: int

    @property
    def id(self) -> str:
        """The stable name of the hole, also its SVG element id: ``t0h57``."""
        return f"t{self.track}h{self.number}"


@dataclass(frozen=True, slots=True)
class Track:
    """One player's (or team's) row of holes; ``holes[n]`` is hole ``n``."""

    index: int
    name: str
    colour: RGB
    holes: tuple[Hole, ...]


@dataclass(frozen=True, slots=True)
class Strip:
    """One chain of WS2812 LEDs on one Pico pin; ``id`` is its place in a frame."""

    id: int
    pin: int
    leds: int


@dataclass(frozen=True)
class Layout:
    """A whole board design."""

    name: str
    title: str
    game: int
    skunk_lines: tuple[int, ...]
    width_mm: float
    height_mm: float
    hole_mm: float
    strips: tuple[Strip, ...]
    tracks: tuple[Track, ...]

    def hole(self, track: int, number: int) -> Hole:
        """The hole ``number`` (0..game) of ``track``."""
        return self.tracks[track].holes[number]

    def holes(self) -> Iterator[Hole]:
        """Every hole, track by track."""
        for track in self.tracks:
            yield from track.holes

    @property
    def strip_lengths(self) -> tuple[int, ...]:
        return tuple(s.leds for s in self.strips)


def layout_names() -> tuple[str, ...]:
    """The names of the layouts shipped with pegboard.

    >>> layout_names()
    ('three-track-121', 'two-track-121', 'two-track-61')
    """
    folder = resources.files("pegboard._layouts")
    return tuple(sorted(p.name[:-5] for p in folder.iterdir() if p.name.endswith(".toml")))


def load_layout(name: str | os.PathLike[str]) -> Layout:
    """Load a shipped layout by name (``"two-track-121"``) or any layout file by path."""
    text_name = os.fspath(name)
    if text_name.endswith(".toml") or os.sep in text_name:
        path = Path(text_name)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            raise LayoutError(f"cannot read layout file {path}: {e.strerror}") from e
        return parse_layout(text, str(path))
    if text_name not in layout_names():
        known = ", ".join(layout_names())
        raise LayoutError(f"no layout called {text_name!r}; known layouts: {known}")
    source = resources.files("pegboard._layouts") / f"{text_name}.toml"
    return parse_layout(source.read_text(encoding="utf-8"), text_name)


def parse_layout(text: str, source: str = "<layout>") -> Layout:
    """Build and check a layout from TOML text; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise LayoutError(f"layout {source}: not valid TOML: {e}") from e
    return _Reader(source).layout(data)


class _Reader:
    """Turns parsed TOML into a Layout, refusing anything inconsistent."""

    def __init__(self, source: str):
        self.source = source

    def fail(self, message: str) -> LayoutError:
        return LayoutError(f"layout {self.source}: {message}")

    def get(self, table: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str):
        value = table.get(key)
        if value is None:
            raise self.fail(f"{where} has no {key}")
        if not isinstance(value, kind) or isinstance(value, bool):
            raise self.fail(f"{where}: {key} = {value!r} is not a {_kind_name(kind)}")
        return value

    def layout(self, data: dict[str, Any]) -> Layout:
        game = self.get(data, "game", int, "the layout")
        if game < 2:
            raise self.fail(f"game = {game} is too small")
        board = self.get(data, "board", dict, "the layout")
        strips = tuple(self.strip(i, s) for i, s in enumerate(self.tables(data, "strips")))
        pins = [s.pin for s in strips]
        for strip in strips:
            if pins.count(strip.pin) > 1:
                raise self.fail(f"two strips are on pin {strip.pin}; each needs its own")
        tracks = tuple(
            self.track(i, t, game, strips) for i, t in enumerate(self.tables(data, "tracks"))
        )
        layout = Layout(
            name=self.get(data, "name", str, "the layout"),
            title=data.get("title", ""),
            game=game,
            skunk_lines=tuple(data.get("skunk_lines", ())),
            width_mm=float(self.get(board, "width_mm", (int, float), "[board]")),
            height_mm=float(self.get(board, "height_mm", (int, float), "[board]")),
            hole_mm=float(self.get(board, "hole_mm", (int, float), "[board]")),
            strips=strips,
            tracks=tracks,
        )
        for line in layout.skunk_lines:
            if not isinstance(line, int) or not 0 < line < game:
                raise self.fail(f"skunk line {line!r} is not a hole between 1 and {game - 1}")
        self.check_leds(layout)
        self.check_drilling(layout)
        return layout

    def tables(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        items = data.get(key)
        if not items or not isinstance(items, list):
            raise self.fail(f"no [[{key}]]")
        return items

    def strip(self, index: int, table: dict[str, Any]) -> Strip:
        where = f"strip {index}"
        strip = Strip(
            id=self.get(table, "id", int, where),
            pin=self.get(table, "pin", int, where),
            leds=self.get(table, "leds", int, where),
        )
        if strip.id != index:
            raise self.fail(
                f"strips must be numbered 0, 1, 2... in order; {where} has id {strip.id}"
            )
        if not 0 <= strip.pin <= 29:
            raise self.fail(f"{where}: pin {strip.pin} is not a Pico GPIO (0..29)")
        if strip.leds < 1:
            raise self.fail(f"{where} has no LEDs")
        return strip

    def track(
        self, index: int, table: dict[str, Any], game: int, strips: tuple[Strip, ...]
    ) -> Track:
        where = f"track {index}"
        colour = _colour(self.get(table, "colour", str, where))
        if colour is None:
            raise self.fail(f"{where}: colour {table['colour']!r} is not #rrggbb")
        found: dict[int, Hole] = {}
        for row in self.get(table, "holes", list, where):
            number = self.get(row, "hole", int, f"a hole of {where}")
            name = f"track {index} hole {number} (t{index}h{number})"
            if not 0 <= number <= game:
                raise self.fail(f"{name} is outside 0..{game}")
            if number in found:
                raise self.fail(f"{name} is listed twice")
            if row.get("strip") is None or row.get("led") is None:
                raise self.fail(f"{name} has no LED (give it a strip and a led)")
            hole = Hole(
                track=index,
                number=number,
                x=float(self.get(row, "x", (int, float), name)),
                y=float(self.get(row, "y", (int, float), name)),
                strip=self.get(row, "strip", int, name),
                led=self.get(row, "led", int, name),
            )
            if not 0 <= hole.strip < len(strips):
                raise self.fail(f"{name} is on strip {hole.strip}, which the layout does not have")
            length = strips[hole.strip].leds
            if not 0 <= hole.led < length:
                raise self.fail(
                    f"{name}: LED {hole.led} is past the end of strip {hole.strip} "
                    f"({length} LEDs, 0..{length - 1})"
                )
            found[number] = hole
        missing = [n for n in range(game + 1) if n not in found]
        if missing:
            raise self.fail(f"track {index} has no hole {missing[0]} (t{index}h{missing[0]})")
        return Track(
            index=index,
            name=table.get("name", f"Track {index + 1}"),
            colour=colour,
            holes=tuple(found[n] for n in range(game + 1)),
        )

    def check_leds(self, layout: Layout) -> None:
        owner: dict[tuple[int, int], Hole] = {}
        for hole in layout.holes():
            other = owner.setdefault((hole.strip, hole.led), hole)
            if other is not hole:
                raise self.fail(
                    f"holes {other.id} and {hole.id} are both on LED {hole.led} "
                    f"of strip {hole.strip}"
                )

    def check_drilling(self, layout: Layout) -> None:
        """Every hole on the board, and no two holes running into each other."""
        r = layout.hole_mm / 2
        for hole in layout.holes():
            if not (r <= hole.x <= layout.width_mm - r and r <= hole.y <= layout.height_mm - r):
                raise self.fail(
                    f"hole {hole.id} at ({hole.x}, {hole.y}) mm is off the "
                    f"{layout.width_mm} x {layout.height_mm} mm board"
                )
        by_x = sorted(layout.holes(), key=lambda h: h.x)
        for i, a in enumerate(by_x):
            for b in by_x[i + 1 :]:
                if b.x - a.x >= layout.hole_mm:
                    break
                gap = math.dist((a.x, a.y), (b.x, b.y))
                if gap < layout.hole_mm:
                    raise self.fail(
                        f"holes {a.id} and {b.id} overlap: {gap:.1f} mm apart, "
                        f"holes are {layout.hole_mm} mm"
                    )


def _colour(text: str) -> RGB | None:
    """``"#e0302a"`` -> ``(224, 48, 42)``; None if it is not #rrggbb.

    >>> _colour("#e0302a"), _colour("red")
    ((224, 48, 42), None)
    """
    if len(text) != 7 or text[0] != "#":
        return None
    try:
        value = int(text[1:], 16)
    except ValueError:
        return None
    return (value >> 16, (value >> 8) & 0xFF, value & 0xFF)


def _kind_name(kind: type | tuple[type, ...]) -> str:
    if isinstance(kind, tuple):
        return "number"
    return {int: "whole number", str: "text", dict: "table", list: "list"}.get(kind, kind.__name__)
