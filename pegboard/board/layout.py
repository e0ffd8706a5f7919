"""Board layouts: reading and checking a layout file.

A layout file (``hardware/layouts/NAME.toml``) describes one board design and is the
single source of truth for its geometry (the values are in :mod:`pegboard.board.geometry`).
It is checked when loaded: a hole without an LED, two holes on one LED, an LED past the
end of its strip, holes over two strips that are too close for the strips to lie side by
side and the like are refused with a :class:`~pegboard.errors.LayoutError` naming the holes.

>>> board = load_layout("two-track-121")
>>> board.game, len(board.tracks), board.strip_kind.pitch_mm, board.apart_mm
(121, 2, 6.944, 13.25)
>>> board.carrier_mm, board.fit_mm, board.bit_mm  # one statement of the allowances
(12.5, 0.75, 6.0)
"""

from __future__ import annotations

import math
import os
import tomllib
from importlib import resources
from pathlib import Path
from typing import Any

from pegboard._firmware.pegproto import REPL_PIN, STRIP_PINS
from pegboard.board.build import unfit
from pegboard.board.geometry import (
    BIT_MM,
    CARRIER_SPARE_MM,
    FIT_MM,
    PITCH_SPREAD,
    RGB,
    Hole,
    Layout,
    Pcb,
    Place,
    Strip,
    StripKind,
    Track,
    in_line,
)
from pegboard.board.pcb import PcbReading
from pegboard.errors import LayoutError
from pegboard.i18n import N_, Phrase
from pegboard.shape import Check, Source, more_than

__all__ = ["RGB", "Hole", "Layout", "Pcb", "Place", "Strip", "StripKind", "Track"]
__all__ += ["layout_names", "layouts_folder", "load_layout", "parse_layout"]


def layouts_folder() -> Path:
    """Where the shipped layouts are (inside the installed package)."""
    return Path(str(resources.files("pegboard._hardware") / "layouts"))


def layout_names(kind: str | None = None) -> tuple[str, ...]:
    """The names of the layouts shipped with pegboard: all, or those whose LEDs are on
    cut strips (``kind="strip"``) or on a PCB (``"pcb"``).

    >>> layout_names("strip")
    ('three-track-121', 'three-track-61', 'two-track-121', 'two-track-61')
    >>> layout_names("pcb")
    ('pcb-two-track-121', 'pcb-two-track-61')
    """
    names = tuple(sorted(p.stem for p in layouts_folder().glob("*.toml")))
    if kind is None:
        return names
    return tuple(n for n in names if (load_layout(n).pcb is None) == (kind == "strip"))


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


Where = Phrase | str  # a place in the layout file: a table as typed, or a phrase

# Translators: places in a layout file. A track and a strip are numbered from 0; {id} is a
# hole's or lap mark's name as a maker types it (t0h3: track 0, hole 3; t0l2: lap mark 2).
_LAYOUT = Phrase.of(N_("the layout"))
_STRIP = N_("strip {strip}")
_TRACK = N_("track {track}")
_ANY_HOLE = N_("a hole of track {track}")
_ANY_MARK = N_("a lap mark of track {track}")
_HOLE = N_("track {track} hole {number} ({id})")
_MARK = N_("track {track} lap mark {number} ({id})")
RRGGBB = "#rrggbb"  # a colour as typed
# Translators: a key of a table of a layout file: "[board]: width_mm", "track 0 hole 3 (t0h3): x".
_KEY_IN = N_("{where}: {key}")


def _numbered(track: int, number: int, mark: bool) -> Phrase:
    """A hole or lap mark of a track by its number: ``track 0 hole 3 (t0h3)``."""
    said, letter = (_MARK, "l") if mark else (_HOLE, "h")
    return Phrase.of(said, track=track, number=number, id=f"t{track}{letter}{number}")


class _Reader(PcbReading):
    """Turns parsed TOML into a Layout, refusing anything inconsistent."""

    def __init__(self, source: str):
        self.source = source
        self.read = Source(Phrase.of(N_("layout {name}"), name=source), LayoutError)

    def fail(self, message: str, **params: Any) -> LayoutError:
        """A refusal: ``message`` is a msgid starting ``layout {source}:``."""
        return LayoutError(Phrase.of(message, source=self.source, **params))

    def get(
        self, table: dict[str, Any], key: str, kind: type, where: Where, check: Check | None = None
    ) -> Any:
        """``table[key]`` of type ``kind`` (a ``float`` takes a whole number too)."""
        return self.read.value(
            table, key, kind, check=check, key=Phrase.of(_KEY_IN, where=where, key=key)
        )

    def positive(self, table: dict[str, Any], key: str, where: Where) -> float:
        return float(self.get(table, key, float, where, more_than(0)))

    def optional(self, table: dict[str, Any], key: str, default: float) -> float:
        """A positive number of ``[board]``, or ``default`` when the key is left out."""
        return default if table.get(key) is None else self.positive(table, key, "[board]")

    def layout(self, data: dict[str, Any]) -> Layout:
        game = self.get(data, "game", int, _LAYOUT)
        if game < 2:
            small = N_("layout {source}: {key} = {value} is too small")
            raise self.fail(small, key="game", value=game)
        laps = data.get("laps", 1)
        if not isinstance(laps, int) or isinstance(laps, bool) or laps < 1:
            times = N_(
                "layout {source}: {key} = {value} is not a whole number of times round (1 or more)"
            )
            raise self.fail(times, key="laps", value=repr(laps))
        board = self.get(data, "board", dict, _LAYOUT)
        if "pcb" in data and "strip" in data:
            both = N_(
                "layout {source}: the LEDs are on strips ({strip}) or on a PCB ({pcb}), not both"
            )
            raise self.fail(both, strip="[strip]", pcb="[pcb]")
        pcb = self.pcb(self.get(data, "pcb", dict, _LAYOUT)) if "pcb" in data else None
        kind = None if pcb else self.strip_kind(self.get(data, "strip", dict, _LAYOUT))
        allowances = {}  # a PCB's LEDs lie on no carrier
        if kind is not None:
            allowances = {
                "carrier_mm": self.optional(board, "carrier_mm", kind.width_mm + CARRIER_SPARE_MM),
                "fit_mm": self.optional(board, "fit_mm", FIT_MM),
                "bit_mm": self.optional(board, "bit_mm", BIT_MM),
            }
        strips = tuple(self.strip(i, s) for i, s in enumerate(self.tables(data, "strips")))
        pins = [s.pin for s in strips]
        for strip in strips:
            if pins.count(strip.pin) > 1:
                shared = N_("layout {source}: two strips are on pin {pin}; each needs its own")
                raise self.fail(shared, pin=strip.pin)
        tracks = tuple(
            self.track(i, t, game, laps, strips) for i, t in enumerate(self.tables(data, "tracks"))
        )
        layout = Layout(
            name=self.get(data, "name", str, _LAYOUT),
            title=data.get("title", ""),
            game=game,
            laps=laps,
            width_mm=self.positive(board, "width_mm", "[board]"),
            height_mm=self.positive(board, "height_mm", "[board]"),
            hole_mm=self.positive(board, "hole_mm", "[board]"),
            plank_mm=self.positive(board, "plank_mm", "[board]"),
            skin_mm=self.positive(board, "skin_mm", "[board]"),
            fill_index=float(self.get(board, "fill_index", float, "[board]")),
            strip_kind=kind,
            strips=strips,
            tracks=tracks,
            pcb=pcb,
            **allowances,
        )
        if layout.skin_mm >= layout.plank_mm:
            skin = N_(
                "layout {source}: a skin of {skin} mm over the LEDs leaves no room for them "
                "in a {plank} mm plank"
            )
            raise self.fail(skin, skin=f"{layout.skin_mm:g}", plank=f"{layout.plank_mm:g}")
        if layout.fill_index < 1:
            fill = N_("layout {source}: {key} = {value}: 1.0 (open) or more")
            raise self.fail(fill, key="fill_index", value=f"{layout.fill_index:g}")
        refused = None if pcb else unfit(layout)
        if refused:
            raise self.fail(refused[0], **refused[1])
        self.check_leds(layout)
        self.check_drilling(layout)
        if pcb:
            self.check_pcb(layout)
        else:
            self.check_side_by_side(layout)
        return layout

    def tables(self, data: dict[str, Any], key: str) -> list[dict[str, Any]]:
        items = data.get(key)
        if not items or not isinstance(items, list):
            raise self.fail(N_("layout {source}: no {table}"), table=f"[[{key}]]")
        return items

    def strip_kind(self, table: dict[str, Any]) -> StripKind:
        kind = StripKind(
            leds_per_m=self.get(table, "leds_per_m", int, "[strip]"),
            width_mm=self.positive(table, "width_mm", "[strip]"),
            reel_m=self.positive(table, "reel_m", "[strip]"),
        )
        if kind.leds_per_m < 1:
            none = N_("layout {source}: {where}: {key} = {value} is not a strip")
            raise self.fail(none, where="[strip]", key="leds_per_m", value=kind.leds_per_m)
        pitch = self.positive(table, "pitch_mm", "[strip]")
        if abs(pitch - kind.nominal_mm) > PITCH_SPREAD * kind.nominal_mm:  # measured: near
            apart = N_(
                "layout {source}: {where}: {key} = {value}, but {leds} LEDs a metre are "
                "{apart} mm apart"
            )
            raise self.fail(
                apart,
                where="[strip]",
                key="pitch_mm",
                value=f"{pitch:g}",
                leds=kind.leds_per_m,
                apart=f"{kind.nominal_mm:.3f}",
            )
        return StripKind(kind.leds_per_m, kind.width_mm, kind.reel_m, measured_mm=pitch)

    def strip(self, index: int, table: dict[str, Any]) -> Strip:
        where = Phrase.of(_STRIP, strip=index)
        strip = Strip(
            id=self.get(table, "id", int, where),
            pin=self.get(table, "pin", int, where),
            leds=self.get(table, "leds", int, where),
        )
        if strip.id != index:
            order = N_(
                "layout {source}: strips must be numbered 0, 1, 2... in order; "
                "{where} has {key} {value}"
            )
            raise self.fail(order, where=where, key="id", value=strip.id)
        if strip.pin not in STRIP_PINS:
            taken = N_(
                "layout {source}: {where}: GP{pin} is not free for a strip on a Pico: use "
                "{free} (GP{repl} is the REPL escape; GP{first}-{last} and GP{sense} are wired "
                "on the Pico itself)"
            )
            free, wired = _spans(STRIP_PINS), {"first": 23, "last": 25, "sense": 29}
            raise self.fail(taken, where=where, pin=strip.pin, free=free, repl=REPL_PIN, **wired)
        if strip.leds < 1:
            raise self.fail(N_("layout {source}: {where} has no LEDs"), where=where)
        return strip

    def track(
        self, index: int, table: dict[str, Any], game: int, laps: int, strips: tuple[Strip, ...]
    ) -> Track:
        where = Phrase.of(_TRACK, track=index)
        colour = _colour(self.get(table, "colour", str, where))
        if colour is None:
            rgb = N_("layout {source}: {where}: {key} {value} is not {form}")
            raise self.fail(
                rgb, where=where, key="colour", value=repr(table["colour"]), form=RRGGBB
            )
        holes = self.numbered(index, table.get("holes"), range(game + 1), strips)
        missing = [n for n in range(game + 1) if n not in holes]
        if missing:
            hole = N_("layout {source}: {where} has no hole {number} ({id})")
            raise self.fail(hole, where=where, number=missing[0], id=f"t{index}h{missing[0]}")
        marks = self.numbered(index, table.get("lap_marks", []), range(2, laps + 1), strips)
        for lap in range(2, laps + 1):
            if lap not in marks:
                mark = N_(
                    "layout {source}: {where} has no mark for lap {lap} ({id}): "
                    "a board of {laps} laps shows each lap after the first"
                )
                raise self.fail(mark, where=where, lap=lap, id=f"t{index}l{lap}", laps=laps)
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
        key, rows_key = ("lap", "lap_marks") if mark else ("hole", "holes")
        if not isinstance(rows, list):
            no_list = N_("layout {source}: {where} has no list of {key}")
            raise self.fail(no_list, where=Phrase.of(_TRACK, track=track), key=rows_key)
        found: dict[int, Hole] = {}
        for row in rows:
            any_one = Phrase.of(_ANY_MARK if mark else _ANY_HOLE, track=track)
            number = self.get(row, key, int, any_one)
            name = _numbered(track, number, mark)
            if number not in allowed and mark:
                laps = N_("layout {source}: {where}, but {key} = {value}")
                raise self.fail(laps, where=name, key="laps", value=allowed.stop - 1)
            if number not in allowed:
                outside = N_("layout {source}: {where} is outside 0..{last}")
                raise self.fail(outside, where=name, last=allowed.stop - 1)
            if number in found:
                raise self.fail(N_("layout {source}: {where} is listed twice"), where=name)
            if row.get("strip") is None or row.get("led") is None:
                dark = N_("layout {source}: {where} has no LED (give it a {strip} and a {led})")
                raise self.fail(dark, where=name, strip="strip", led="led")
            hole = Hole(
                track=track,
                number=number,
                x=float(self.get(row, "x", float, name)),
                y=float(self.get(row, "y", float, name)),
                strip=self.get(row, "strip", int, name),
                led=self.get(row, "led", int, name),
                lap_mark=mark,
            )
            if not 0 <= hole.strip < len(strips):
                absent = N_(
                    "layout {source}: {where} is on strip {strip}, which the layout does not have"
                )
                raise self.fail(absent, where=name, strip=hole.strip)
            length = strips[hole.strip].leds
            if not 0 <= hole.led < length:
                past = N_(
                    "layout {source}: {where}: LED {led} is past the end of strip {strip} "
                    "({count} LEDs, 0..{last})"
                )
                raise self.fail(
                    past, where=name, led=hole.led, strip=hole.strip, count=length, last=length - 1
                )
            found[number] = hole
        return found

    def check_leds(self, layout: Layout) -> None:
        owner: dict[tuple[int, int], Hole] = {}
        for hole in layout.holes():
            other = owner.setdefault((hole.strip, hole.led), hole)
            if other is not hole:
                both = N_(
                    "layout {source}: holes {a} and {b} are both on LED {led} of strip {strip}"
                )
                raise self.fail(both, a=other.id, b=hole.id, led=hole.led, strip=hole.strip)

    def check_drilling(self, layout: Layout) -> None:
        """Every hole on the board, and no two holes running into each other."""
        r = layout.hole_mm / 2
        for hole in layout.holes():
            if not (r <= hole.x <= layout.width_mm - r and r <= hole.y <= layout.height_mm - r):
                off = N_(
                    "layout {source}: hole {hole} at ({x}, {y}) mm is off the "
                    "{width} x {height} mm board"
                )
                raise self.fail(
                    off,
                    hole=hole.id,
                    x=hole.x,
                    y=hole.y,
                    width=layout.width_mm,
                    height=layout.height_mm,
                )
        for a, b, gap in _near(layout, layout.hole_mm):
            overlap = N_(
                "layout {source}: holes {a} and {b} overlap: {gap} mm apart, holes are {size} mm"
            )
            raise self.fail(overlap, a=a.id, b=b.id, gap=f"{gap:.1f}", size=layout.hole_mm)

    def check_side_by_side(self, layout: Layout) -> None:
        """Holes over two strips (two tracks, or two streets) leave room for both strips."""
        kind = layout.strip_kind
        assert kind is not None
        for a, b, gap in _near(layout, layout.apart_mm):
            if not in_line(a, b, kind.pitch_mm):
                close = N_(
                    "layout {source}: holes {a} and {b} are {gap} mm apart over two strips: "
                    "carriers {width} mm wide need {apart} mm (their width and {fit} mm between)"
                )
                raise self.fail(
                    close,
                    a=a.id,
                    b=b.id,
                    gap=f"{gap:.1f}",
                    width=f"{layout.carrier_mm:g}",
                    apart=f"{layout.apart_mm:g}",
                    fit=f"{layout.fit_mm:g}",
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


def _spans(pins: tuple[int, ...]) -> str:
    """``(0, 1, 2, 26, 27)`` as ``"GP0-2, GP26-27"``."""
    spans: list[list[int]] = []
    for pin in sorted(pins):
        if spans and pin == spans[-1][1] + 1:
            spans[-1][1] = pin
        else:
            spans.append([pin, pin])
    return ", ".join(f"GP{a}" if a == b else f"GP{a}-{b}" for a, b in spans)
