"""The PCB layouts (hardware/layouts/pcb-*.toml): a real cribbage board's holes, one
addressable LED under each, written from a few numbers as the strip layouts are.

A strip fixes the holes at its own pitch (6.944 mm at 144 LEDs a metre); on a PCB the
holes go where a cribbage board has them:

- ``PITCH_MM``: 6.35 mm (1/4 in) from one hole of a group of five to the next, the
  spacing of the common wooden boards (1/8 in peg holes on a 1/4 in grid);
- ``GAP_MM``: 9.525 mm (3/8 in, 1.5 pitches) across the gap between two groups of five;
- ``APART_MM``: 12.7 mm (1/2 in, 2 pitches) from the start hole to hole 1, and from the
  last hole to the game hole: both set apart from the streets;
- ``ROW_MM``: the rows of one street (or one track's out and back, on the English board)
  6.35 mm apart, the holes' own grid: the LED and its ground via would go closer
  (:func:`tools.pcb.board.row_limit`), the 4 mm bores keep 2.35 mm of wood between them;
- ``BAND_MM``: 12.7 mm between one street's rows and the next street's.

Each track is one chain of LEDs on its own Pico pin, in the order of play: the start
hole's LED first, then holes 1, 2, ... and the game hole, then the lap marks; the rows
run out and back, so a chain turns at each street's end. The LED under each hole is its
place in that chain.
"""

from __future__ import annotations

from pathlib import Path

from pegboard.board.build import FRAME_MM, PCB_FIT_MM
from pegboard.board.geometry import Layout
from tools import layouts
from tools.layouts import FIRST_PIN, GROUP, Design, track_lines

PITCH_MM = 6.35
GAP_MM = 9.525
APART_MM = 12.7
ROW_MM = 6.35
BAND_MM = 12.7
EDGE_MM = 14.0  # the PCB's edge past the outer holes: the LEDs' window, then the screws
SCREW_INSET_MM = 5.0  # a mounting screw's centre from the PCB's edge
BLOCK_MM = 64.0  # left of the holes: the Pico, the level shifter and the power input
LED = {"led": "WS2812B-2020", "led_mm": 1.01, "die_mm": 0.8}  # its height; its die's depth
SOLDER_MM = 0.04  # a reflowed LED stands this much off its pads: the solder under it
CLEARANCE_MM = 0.25  # air between the LEDs' faces and the skin: the screws never press them
TOLERANCE_MM = 0.05  # the router's depth either way: the clearance stays 0.2-0.3 mm
BUILD = {"plank_mm": 18.0, "skin_mm": 2.0, "hole_mm": 4.0, "fill_index": 1.5}
MOUNTING_MM = 3.2  # M3

DESIGNS = (
    Design(
        "pcb-two-track-121",
        "PCB, two tracks of 121 holes: three streets of 40 in groups of five",
        tracks=2,
        streets=3,
        per_street=40,
    ),
    Design(
        "pcb-two-track-61",
        "PCB, English board of two tracks of 60 holes: round twice to 121, three times to 181",
        tracks=2,
        streets=2,
        per_street=30,
        laps=3,
        bands="track",
    ),
)


def soldered_mm(layout: Layout) -> float:
    """How far an LED's face stands off the PCB once it is soldered."""
    assert layout.pcb is not None
    return layout.pcb.led_mm + SOLDER_MM


def window_mm(layout: Layout) -> float:
    """How deep the window over the LEDs is routed past the ledge: the soldered LED and
    the clearance, so the PCB's face bears on the ledge and no LED on the skin.

    >>> from pegboard.board.layout import load_layout
    >>> round(window_mm(load_layout("pcb-two-track-121")), 2)
    1.3
    """
    return soldered_mm(layout) + CLEARANCE_MM


def ledge_mm(layout: Layout) -> float:
    """The wood left under the ledge the PCB's face bears on: the skin and the window."""
    return layout.skin_mm + window_mm(layout)


def along(k: int) -> float:
    """The ``k``-th hole of a street (from 0), in mm from its first: a wider gap after
    every group of five.

    >>> along(4), along(5), round(along(39), 3)
    (25.4, 34.925, 269.875)
    """
    return k * PITCH_MM + (k // GROUP) * (GAP_MM - PITCH_MM)


def row_y(d: Design, track: int, street: int) -> float:
    """A row's y, from the first row."""
    band, row = (street, track) if d.bands == "street" else (track, street)
    return band * ((d.rows_per_band - 1) * ROW_MM + BAND_MM) + row * ROW_MM


def chain(d: Design, track: int) -> list[tuple[str, int, float, float]]:
    """One track's LEDs in data order: (kind, number, x, y), kind "hole" or "lap", x from
    the streets' first hole and y from the first row."""
    length = along(d.per_street - 1)
    leds = [("hole", 0, -APART_MM, row_y(d, track, 0))]
    for street in range(d.streets):
        y = row_y(d, track, street)
        for k in range(d.per_street):
            x = along(k) if street % 2 == 0 else length - along(k)
            leds.append(("hole", street * d.per_street + k + 1, x, y))
    out = 1 if (d.streets - 1) % 2 == 0 else -1  # the last street's way
    end = length if out > 0 else 0.0
    y = row_y(d, track, d.streets - 1)
    leds.append(("hole", d.game, end + out * APART_MM, y))
    for lap in range(2, d.laps + 1):
        leds.append(("lap", lap, end + out * (APART_MM + GAP_MM + (lap - 2) * PITCH_MM), y))
    return leds


def outline(d: Design) -> tuple[float, float, float, float]:
    """The PCB, in the same frame as :func:`chain`: x0, y0, x1, y1."""
    every = [led for t in range(d.tracks) for led in chain(d, t)]
    xs, ys = [x for _, _, x, _ in every], [y for *_, y in every]
    return (min(xs) - EDGE_MM - BLOCK_MM, min(ys) - EDGE_MM, max(xs) + EDGE_MM, max(ys) + EDGE_MM)


def screws(box: tuple[float, float, float, float]) -> list[tuple[float, float]]:
    """The mounting screws: the PCB's corners and the middle of its long edges."""
    x0, y0, x1, y1 = box
    i = SCREW_INSET_MM
    xs = (x0 + i, (x0 + x1) / 2, x1 - i)
    return [(x, y) for y in (y0 + i, y1 - i) for x in xs]


def toml(d: Design) -> str:
    """The layout file's text, in board mm (the plank's top left corner)."""
    x0, y0, x1, y1 = outline(d)
    frame = FRAME_MM + PCB_FIT_MM
    dx, dy = frame - x0, frame - y0  # the chain's frame -> the board's
    width, height = x1 - x0 + 2 * frame, y1 - y0 + 2 * frame
    about = [
        "Each hole names its chain of LEDs on the PCB (a strip",
        "to the code) and its place in that chain. hardware/PCB.md is the guide.",
    ]
    out = layouts.head(d, about)
    out += [
        "",
        "[pcb]  # one LED under each hole, on a PCB: the holes are a real board's",
        f'led = "{LED["led"]}"',
        f"led_mm = {LED['led_mm']:g}  # the package's height (its datasheet's)",
        f"die_mm = {LED['die_mm']:g}  # its die under the package's face",
        f"pitch_mm = {PITCH_MM:g}  # 1/4 in between two holes of a group of five",
        f"mounting_mm = {MOUNTING_MM:g}  # M3 screws",
        "",
        "[pcb.outline]",
        f"x = {x0 + dx:.2f}",
        f"y = {y0 + dy:.2f}",
        f"width_mm = {x1 - x0:.2f}",
        f"height_mm = {y1 - y0:.2f}",
        "",
    ]
    for x, y in screws((x0, y0, x1, y1)):
        out += ["[[pcb.mounting]]", f"x = {x + dx:.2f}", f"y = {y + dy:.2f}", ""]
    out += [
        "[board]",
        f"width_mm = {width:.2f}",
        f"height_mm = {height:.2f}",
        f"plank_mm = {BUILD['plank_mm']:g}",
        f"skin_mm = {BUILD['skin_mm']:g}  # wood left over the LEDs' faces",
        f"hole_mm = {BUILD['hole_mm']:g}  # drill",
        f"fill_index = {BUILD['fill_index']:g}  # clear epoxy in the bores",
        "",
    ]
    for t in range(d.tracks):
        out += ["[[strips]]  # a chain of LEDs on the PCB", f"id = {t}"]
        out += [
            f"pin = {FIRST_PIN + t}  # Pico GP{FIRST_PIN + t}",
            f"leds = {len(chain(d, t))}",
            "",
        ]
    for t in range(d.tracks):
        rows: dict[str, list[dict]] = {"hole": [], "lap": []}
        for led, (kind, number, x, y) in enumerate(chain(d, t)):
            rows[kind].append({kind: number, "x": x + dx, "y": y + dy, "strip": t, "led": led})
        out += track_lines(t, sorted(rows["hole"], key=lambda h: h["hole"]), rows["lap"])
    return "\n".join(out)


def generated(repo: Path) -> dict[Path, str]:
    """Each PCB layout file and what it should hold; each is checked by the loader first."""
    return layouts.generated(repo, designs=DESIGNS, write=toml)
