"""Board layouts: reading and checking a layout file.

A layout file (``hardware/layouts/NAME.toml``) describes one board design and is the
single source of truth for its geometry (the values are in :mod:`pegboard.board.geometry`).
It is checked when loaded: a hole without an LED, two holes on one LED, an LED past the
end of its strip, holes over two strips that are too close for the strips to lie side by
side and the like are refused with a :class:`~pegboard.errors.LayoutError` naming the holes.

>>> board = load_layout("two-track-121")
>>> board.game, len(board.tracks), board.strip_kind.pitch_mm, board.strip_kind.apart_mm
(121, 2, 6.944444444444445, 13.0)
"""

from __future__ import annotations

import math
import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from pegboard._firmware.pegproto import REPL_PIN, STRIP_PINS
from pegboard.board.geometry import (
    RGB,
    Hole,
    Layout,
    Place,
    Strip,
    StripKind,
    Track,
    in_line,
)
from pegboard.errors import LayoutError
from pegboard.i18n import N_, Phrase

__all__ = ["RGB", "Hole", "Layout", "Place", "Strip", "StripKind", "Track"]
__all__ += ["layout_names", "layouts_folder", "load_layout", "parse_layout"]


def layouts_folder() -> Path:
    """Where the shipped layouts are (inside the installed package)."""
    return Path(str(resources.files("pegboard._hardware") / "layouts"))


def layout_names() -> tuple[str, ...]:
    """The names of the layouts shipped with pegboard.

    >>> layout_names()
    ('three-track-121', 'three-track-61', 'two-track-121', 'two-track-61')
    """
    return tuple(sorted(p.stem for p in layouts_folder().glob("*.toml")))


def load_layout(name: str | os.PathLike[str]) -> Layout:
    """Load a shipped layout by name (``"two-track-121"``) or any layout file by path."""
    text_name = os.fspath(name)
    if text_name.endswith(".toml") or os.sep in text_name:
        path = Path(text_name)
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as e:
            cannot = N_("cannot read layout file {path}: {reason}")
            raise LayoutError(Phrase.of(cannot, path=str(path), reason=e.strerror or str(e))) from e
        return parse_layout(text, str(path))
    if text_name not in layout_names():
        known = ", ".join(layout_names())
        unknown = N_("no layout called {name}; known layouts: {known}")
        raise LayoutError(Phrase.of(unknown, name=repr(text_name), known=known))
    path = layouts_folder() / f"{text_name}.toml"
    return parse_layout(path.read_text(encoding="utf-8"), text_name)


def parse_layout(text: str, source: str = "<layout>") -> Layout:
    """Build and check a layout from TOML text; ``source`` names it in errors."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        not_toml = N_("layout {source}: not valid TOML: {error}")
        raise LayoutError(Phrase.of(not_toml, source=source, error=str(e))) from e
    return _Reader(source).layout(data)


Number = (int, float)


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

    def positive(self, table: dict[str, Any], key: str, where: str) -> float:
        value = self.get(table, key, Number, where)
        if value <= 0:
            raise self.fail(f"{where}: {key} = {value} must be more than 0")
        return float(value)

    def layout(self, data: dict[str, Any]) -> Layout:
        game = self.get(data, "game", int, "the layout")
        if game < 2:
            raise self.fail(f"game = {game} is too small")
        laps = data.get("laps", 1)
        if not isinstance(laps, int) or isinstance(laps, bool) or laps < 1:
            raise self.fail(f"laps = {laps!r} is not a whole number of times round (1 or more)")
        board = self.get(data, "board", dict, "the layout")
        strips = tuple(self.strip(i, s) for i, s in enumerate(self.tables(data, "strips")))
        pins = [s.pin for s in strips]
        for strip in strips:
            if pins.count(strip.pin) > 1:
                raise self.fail(f"two strips are on pin {strip.pin}; each needs its own")
        tracks = tuple(
            self.track(i, t, game, laps, strips) for i, t in enumerate(self.tables(data, "tracks"))
        )
        layout = Layout(
            name=self.get(data, "name", str, "the layout"),
            title=data.get("title", ""),
            game=game,
            laps=laps,
            width_mm=self.positive(board, "width_mm", "[board]"),
            height_mm=self.positive(board, "height_mm", "[board]"),
            hole_mm=self.positive(board, "hole_mm", "[board]"),
            plank_mm=self.positive(board, "plank_mm", "[board]"),
            skin_mm=self.positive(board, "skin_mm", "[board]"),
            fill_index=float(self.get(board, "fill_index", Number, "[board]")),
            strip_kind=self.strip_kind(self.get(data, "strip", dict, "the layout")),
            strips=strips,
            tracks=tracks,
        )
        if layout.skin_mm >= layout.plank_mm:
            raise self.fail(
                f"a skin of {layout.skin_mm:g} mm over the LEDs leaves no room for them "
                f"in a {layout.plank_mm:g} mm plank"
            )
        if layout.fill_index < 1:
            raise self.fail(f"fill_index = {layout.fill_index:g}: 1.0 (open) or more")
        self.check_leds(layout)
        self.check_drilling(layout)
        self.check_side_by_side(layout)
        return layout

    def tables(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        items = data.get(key)
        if not items or not isinstance(items, list):
            raise self.fail(f"no [[{key}]]")
        return items

    def strip_kind(self, table: dict[str, Any]) -> StripKind:
        kind = StripKind(
            leds_per_m=self.get(table, "leds_per_m", int, "[strip]"),
            width_mm=self.positive(table, "width_mm", "[strip]"),
            reel_m=self.positive(table, "reel_m", "[strip]"),
        )
        if kind.leds_per_m < 1:
            raise self.fail(f"[strip]: leds_per_m = {kind.leds_per_m} is not a strip")
        pitch = self.positive(table, "pitch_mm", "[strip]")
        if abs(pitch - kind.pitch_mm) > 0.01:
            raise self.fail(
                f"[strip]: pitch_mm = {pitch:g}, but {kind.leds_per_m} LEDs a metre are "
                f"{kind.pitch_mm:.3f} mm apart"
            )
        return kind

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
        if strip.pin not in STRIP_PINS:
            raise self.fail(
                f"{where}: GP{strip.pin} is not free for a strip on a Pico: use "
                f"{_spans(STRIP_PINS)} (GP{REPL_PIN} is the REPL escape; GP23-25 and "
                "GP29 are wired on the Pico itself)"
            )
        if strip.leds < 1:
            raise self.fail(f"{where} has no LEDs")
        return strip

    def track(
        self, index: int, table: dict[str, Any], game: int, laps: int, strips: tuple[Strip, ...]
    ) -> Track:
        where = f"track {index}"
        colour = _colour(self.get(table, "colour", str, where))
        if colour is None:
            raise self.fail(f"{where}: colour {table['colour']!r} is not #rrggbb")
        holes = self.numbered(index, table.get("holes"), range(game + 1), strips)
        missing = [n for n in range(game + 1) if n not in holes]
        if missing:
            raise self.fail(f"{where} has no hole {missing[0]} (t{index}h{missing[0]})")
        marks = self.numbered(index, table.get("lap_marks", []), range(2, laps + 1), strips)
        for lap in range(2, laps + 1):
            if lap not in marks:
                raise self.fail(
                    f"{where} has no mark for lap {lap} (t{index}l{lap}): "
                    f"a board of {laps} laps shows each lap after the first"
                )
        return Track(
            index=index,
            name=table.get("name", f"Track {index + 1}"),
            colour=colour,
            holes=tuple(holes[n] for n in range(game + 1)),
            lap_marks=tuple(marks[lap] for lap in range(2, laps + 1)),
        )

    def numbered(
        self, track: int, rows: Any, allowed: range, strips: tuple[Strip, ...]
    ) -> dict[int, Hole]:
        """A track's holes (numbers from 0) or its lap marks (laps from 2), by number."""
        mark = allowed.start == 2
        key, what = ("lap", "lap mark") if mark else ("hole", "hole")
        if not isinstance(rows, list):
            raise self.fail(f"track {track} has no list of {key}s")
        found: dict[int, Hole] = {}
        for row in rows:
            number = self.get(row, key, int, f"a {what} of track {track}")
            name = f"track {track} {what} {number} (t{track}{key[0]}{number})"
            if number not in allowed and mark:
                raise self.fail(f"{name}, but laps = {allowed.stop - 1}")
            if number not in allowed:
                raise self.fail(f"{name} is outside 0..{allowed.stop - 1}")
            if number in found:
                raise self.fail(f"{name} is listed twice")
            if row.get("strip") is None or row.get("led") is None:
                raise self.fail(f"{name} has no LED (give it a strip and a led)")
            hole = Hole(
                track=track,
                number=number,
                x=float(self.get(row, "x", Number, name)),
                y=float(self.get(row, "y", Number, name)),
                strip=self.get(row, "strip", int, name),
                led=self.get(row, "led", int, name),
                lap_mark=mark,
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
        return found

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
        for a, b, gap in _near(layout, layout.hole_mm):
            raise self.fail(
                f"holes {a.id} and {b.id} overlap: {gap:.1f} mm apart, "
                f"holes are {layout.hole_mm} mm"
            )

    def check_side_by_side(self, layout: Layout) -> None:
        """Holes over two strips (two tracks, or two streets) leave room for both strips."""
        kind = layout.strip_kind
        for a, b, gap in _near(layout, kind.apart_mm):
            if not in_line(a, b, kind.pitch_mm):
                raise self.fail(
                    f"holes {a.id} and {b.id} are {gap:.1f} mm apart over two strips: "
                    f"strips {kind.width_mm:g} mm wide need {kind.apart_mm:g} mm "
                    f"(their width + 1 mm)"
                )


def _near(layout: Layout, within: float):
    """Every two holes less than ``within`` mm apart, with their distance."""
    by_x = sorted(layout.holes(), key=lambda h: h.x)
    for i, a in enumerate(by_x):
        for b in by_x[i + 1 :]:
            if b.x - a.x >= within:
                break
            gap = math.dist((a.x, a.y), (b.x, b.y))
            if gap < within:
                yield a, b, gap


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


def _spans(pins: tuple[int, ...]) -> str:
    """``(0, 1, 2, 26, 27)`` as ``"GP0-2, GP26-27"``."""
    spans: list[list[int]] = []
    for pin in sorted(pins):
        if spans and pin == spans[-1][1] + 1:
            spans[-1][1] = pin
        else:
            spans.append([pin, pin])
    return ", ".join(f"GP{a}" if a == b else f"GP{a}-{b}" for a, b in spans)
