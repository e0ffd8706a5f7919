"""Write the shipped layouts (hardware/layouts/*.toml) from the strip and a few numbers.

The TOML files are the source of truth that the code reads; this only saves typing
hundreds of hole lines by hand. ``python -m tools.hardware --write`` writes them (and
everything drawn from them) after a change of the numbers here; or edit a TOML file by
hand and take its design out of ``DESIGNS``.

Geometry, all derived from the strip (144 LEDs a metre, 12 mm wide):
- One strip per track, one Pico pin each, cut into one straight piece per street; the
  pieces run out and back (a serpentine), joined end to end by short wires.
- Holes sit over consecutive LEDs in groups of five, one dark LED between groups, so the
  holes are the strip's pitch apart and every LED of a piece is soldered only at its ends.
- The start hole is on the first piece, a dark LED before hole 1; the game hole is the
  LED after the last hole. A board with laps has its lap marks on the last piece, past
  the game hole and a dark LED.
- Each piece lies on a carrier ``CARRIER_MM`` wide (the strip and its tolerance) with
  ``FIT_MM`` of air each side in its pocket; rows of holes are a carrier and twice the fit
  apart; rows that share a pocket are grouped in bands (a street of every track, or
  every street of a track), and full-thickness ribs of wood lie between the bands' pockets.
- The strip's pitch is 1000 / LEDs a metre, or what the maker measured on the reel:
  ``python -m tools.hardware --write --strip-48-mm LENGTH`` (48 LEDs, end to end).

The tracks' colours are the game's palette (``pegboard.game.settings.PALETTE``, their one
home): a layout's colours only light its tracks when no game gives its own.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pegboard.board.build import FRAME_MM, JOINT_MM, RIB_MM
from pegboard.board.geometry import BIT_MM, CARRIER_SPARE_MM
from pegboard.board.layout import parse_layout
from pegboard.game.settings import PALETTE

STRIP = {"leds_per_m": 144, "width_mm": 12.0, "reel_m": 1.0}  # WS2812B, 5 V, 1 m reels
CARRIER_MM = STRIP["width_mm"] + CARRIER_SPARE_MM  # a strip up to 12.5 mm wide lies on it
FIT_MM = 0.75  # air each side of a carrier: 1.5 mm between two
BUILD = {"plank_mm": 18.0, "skin_mm": 3.0, "hole_mm": 4.5, "fill_index": 1.5}
FIRST_PIN = 2  # Pico GP2, GP3, ... one per track
GROUP = 5  # holes in a group; one dark LED between groups
MEASURED = 48  # LEDs a maker measures end to end for the pitch


@dataclass(frozen=True)
class Design:
    name: str
    title: str
    tracks: int
    streets: int  # per track
    per_street: int  # holes in a street
    laps: int = 1
    bands: str = "street"  # "street": a pocket for one street of every track; "track": a track's

    @property
    def game(self) -> int:
        return self.streets * self.per_street + 1

    @property
    def slots(self) -> int:
        """LEDs in one street: its holes and a dark LED between groups of five."""
        return self.per_street + (self.per_street - 1) // GROUP

    @property
    def rows_per_band(self) -> int:
        return self.tracks if self.bands == "street" else self.streets


DESIGNS = (
    Design(
        "two-track-121",
        "Two tracks of 121 holes: three streets of 40 and a game hole",
        tracks=2,
        streets=3,
        per_street=40,
    ),
    Design(
        "three-track-121",
        "Three tracks of 121 holes: three streets of 40 and a game hole",
        tracks=3,
        streets=3,
        per_street=40,
    ),
    Design(
        "two-track-61",
        "English board, two tracks of 60 holes: round twice to 121, three times to 181",
        tracks=2,
        streets=2,
        per_street=30,
        laps=3,
        bands="track",
    ),
    Design(
        "three-track-61",
        "English board, three tracks of 60 holes: round twice to 121, three times to 181",
        tracks=3,
        streets=2,
        per_street=30,
        laps=3,
        bands="track",
    ),
)


NOMINAL_MM = 1000 / STRIP["leds_per_m"]  # the strip's pitch as sold


def chain(d: Design) -> list[tuple[int, int, str, int]]:
    """One track's LEDs in data order: (street, slot along the street, kind, number) with
    kind "hole", "lap" or "dark"; a slot counts in the street's direction of play, the
    start hole's is negative."""
    leds: list[tuple[int, int, str, int]] = []
    last = d.streets - 1
    for street in range(d.streets):
        if street == 0:
            leds += [(0, -2, "hole", 0), (0, -1, "dark", 0)]
        for k in range(d.per_street):
            if k and k % GROUP == 0:
                leds.append((street, k + k // GROUP - 1, "dark", 0))
            leds.append((street, k + k // GROUP, "hole", street * d.per_street + k + 1))
    leds.append((last, d.slots, "hole", d.game))
    if d.laps > 1:
        leds.append((last, d.slots + 1, "dark", 0))
        leds += [(last, d.slots + lap, "lap", lap) for lap in range(2, d.laps + 1)]
    return leds


def reach(d: Design) -> tuple[int, int]:
    """How many slots the chain reaches past a street's ends: (left, right)."""
    left = right = 0
    for street, slot, _, _ in chain(d):
        at = slot if street % 2 == 0 else d.slots - 1 - slot
        left, right = max(left, -at), max(right, at - (d.slots - 1))
    return left, right


def band_height(d: Design) -> float:
    rows = d.rows_per_band
    return (rows - 1) * row_pitch() + CARRIER_MM + 2 * FIT_MM


def row_pitch() -> float:
    return CARRIER_MM + 2 * FIT_MM


def row_y(d: Design, track: int, street: int) -> float:
    band, row = (street, track) if d.bands == "street" else (track, street)
    top = FRAME_MM + band * (band_height(d) + RIB_MM)
    return top + FIT_MM + CARRIER_MM / 2 + row * row_pitch()


def size(d: Design, pitch: float = NOMINAL_MM) -> tuple[float, float, float]:
    """(x of a street's left slot, board width, board height), in mm, at the strip's
    ``pitch``."""
    left, right = reach(d)
    margin = FRAME_MM + JOINT_MM + pitch / 2
    x0 = margin + left * pitch
    width = x0 + (d.slots - 1 + right) * pitch + margin
    bands = d.streets if d.bands == "street" else d.tracks
    height = 2 * FRAME_MM + bands * band_height(d) + (bands - 1) * RIB_MM
    return x0, width, height


def holes(d: Design, pitch: float = NOMINAL_MM) -> list[tuple[list[dict], list[dict]]]:
    """Per track: its holes and its lap marks, each with x, y, strip and LED."""
    x0 = size(d, pitch)[0]
    tracks = []
    for t in range(d.tracks):
        found: dict[str, list[dict]] = {"hole": [], "lap": []}
        for led, (street, slot, kind, number) in enumerate(chain(d)):
            if kind == "dark":
                continue
            at = slot if street % 2 == 0 else d.slots - 1 - slot
            x, y = x0 + at * pitch, row_y(d, t, street)
            found[kind].append({kind: number, "x": x, "y": y, "strip": t, "led": led})
        tracks.append((sorted(found["hole"], key=lambda h: h["hole"]), found["lap"]))
    return tracks


def _row(h: dict, key: str) -> str:
    return (
        f"  {{ {key} = {h[key]}, x = {h['x']:.2f}, y = {h['y']:.2f}, "
        f"strip = {h['strip']}, led = {h['led']} }},"
    )


def toml(d: Design, pitch: float = NOMINAL_MM) -> str:
    """The layout file's text, at the strip's ``pitch``."""
    _, width, height = size(d, pitch)
    out = head(d, ["Each hole names the strip and LED index under it."])
    out += [
        "",
        "[strip]  # the LED strip as bought: the holes' spacing comes from it",
        f"leds_per_m = {STRIP['leds_per_m']}",
        f"pitch_mm = {pitch:.3f}{_measured(pitch)}",
        f"width_mm = {STRIP['width_mm']:g}",
        f"reel_m = {STRIP['reel_m']:g}",
        "",
        "[board]",
        f"width_mm = {width:.2f}",
        f"height_mm = {height:.2f}",
        f"plank_mm = {BUILD['plank_mm']:g}",
        f"skin_mm = {BUILD['skin_mm']:g}  # wood left over the LEDs; pockets are the rest",
        f"hole_mm = {BUILD['hole_mm']:g}  # drill",
        f"fill_index = {BUILD['fill_index']:g}  # clear epoxy in the bores",
        f"carrier_mm = {CARRIER_MM:g}  # the plywood under each piece: the strip and its spread",
        f"fit_mm = {FIT_MM:g}  # air each side of a carrier in its pocket",
        f"bit_mm = {BIT_MM:g}  # the router bit: its radius rounds the pockets' inside corners",
        "",
    ]
    for t in range(d.tracks):
        leds = len(chain(d))
        out += ["[[strips]]", f"id = {t}", f"pin = {FIRST_PIN + t}  # Pico GP{FIRST_PIN + t}"]
        out += [f"leds = {leds}", ""]
    for t, (pegs, marks) in enumerate(holes(d, pitch)):
        out += track_lines(t, pegs, marks)
    return "\n".join(out)


def head(d: Design, about: list[str]) -> list[str]:
    """A layout file's first lines: what it is (``about`` ends its comment), its name and game."""
    out = [
        "# Generated by `python -m tools.hardware --write`; this file is what the code reads.",
        "# Holes: x/y in mm from the board's top left corner; hole 0 is the start hole and",
        f"# hole {d.game} the game hole. {about[0]}",
        *(f"# {line}" for line in about[1:]),
        f'name = "{d.name}"',
        f'title = "{d.title}"',
        f"game = {d.game}",
    ]
    if d.laps > 1:
        out.append(f"laps = {d.laps}  # times round: scores up to {d.laps * (d.game - 1) + 1}")
    return out


def track_lines(track: int, pegs: list[dict], marks: list[dict]) -> list[str]:
    """A ``[[tracks]]`` table: its colour, its holes and its lap marks."""
    out = ["[[tracks]]", f'colour = "{PALETTE[track].lower()}"', "holes = ["]
    out += [_row(h, "hole") for h in pegs]
    out.append("]")
    if marks:
        out += ["lap_marks = [", *(_row(h, "lap") for h in marks), "]"]
    return [*out, ""]


def _measured(pitch: float) -> str:
    if pitch == NOMINAL_MM:
        return ""
    return f"  # measured: {MEASURED} LEDs in {pitch * MEASURED:.1f} mm"


def generated(
    repo: Path, strip_48_mm: float | None = None, designs=DESIGNS, write=toml
) -> dict[Path, str]:
    """Every layout file and what it should hold; each is checked by the loader first.
    ``strip_48_mm``: 48 LEDs of the maker's reel measured end to end, in mm (None: the
    strip as sold); ``write`` makes a design's text (the PCB layouts' is
    :func:`tools.pcb.designs.toml`, which has no strip to measure)."""
    pitch = NOMINAL_MM if strip_48_mm is None else strip_48_mm / MEASURED
    files = {}
    for d in designs:
        text = write(d, pitch) if write is toml else write(d)
        parse_layout(text, d.name)
        files[repo / "hardware" / "layouts" / f"{d.name}.toml"] = text
    return files
