"""The ``[pcb]`` table of a layout file: the LEDs on a printed circuit board.

A PCB layout puts one LED under each hole on a board that a fab makes and assembles, so
its holes follow a real cribbage board (groups of five with a wider gap, the start and
game holes set apart), not a strip's pitch. Its chains of LEDs are its ``[[strips]]``:
one a track, on its own Pico pin, the LED under each hole named by its place in its
chain, so the renderer, the firmware and the doctor read it as they read a strip board.
The PCB itself (footprints, copper, fab files) is drawn from the same file by
``tools/pcb``; the reader here checks what the plank and the PCB must agree on.

>>> from pegboard.board.layout import load_layout
>>> board = load_layout("pcb-two-track-121")
>>> board.pcb.led, board.strip_kind, board.strips[0].leds
('WS2812B-2020', None, 122)
"""

from __future__ import annotations

import math
from typing import Any

from pegboard.board.geometry import Layout, Pcb
from pegboard.i18n import N_, Phrase

_MOUNTING = N_("mounting hole {number}")  # Translators: a screw hole of the PCB, from 0
CLEAR_MM = 1.0  # wood left between a mounting hole and a peg hole


class PcbReading:
    """Reads and checks ``[pcb]``: mixed into the layout reader (its ``get``,
    ``positive`` and ``fail``)."""

    def pcb(self, table: dict[str, Any]) -> Pcb:
        where = "[pcb]"
        outline = self.get(table, "outline", dict, where)
        x, y = (float(self.get(outline, k, float, "[pcb.outline]")) for k in ("x", "y"))
        width = self.positive(outline, "width_mm", "[pcb.outline]")
        height = self.positive(outline, "height_mm", "[pcb.outline]")
        holes = []
        for number, row in enumerate(table.get("mounting", [])):
            at = Phrase.of(_MOUNTING, number=number)
            holes.append(tuple(float(self.get(row, k, float, at)) for k in ("x", "y")))
        return Pcb(
            led=self.get(table, "led", str, where),
            led_mm=self.positive(table, "led_mm", where),
            die_mm=self.positive(table, "die_mm", where),
            pitch_mm=self.positive(table, "pitch_mm", where),
            outline=(x, y, x + width, y + height),
            mounting_mm=self.positive(table, "mounting_mm", where),
            mounting=tuple(holes),
        )

    def check_pcb(self, layout: Layout) -> None:
        """The PCB on the board, every hole and mounting hole on the PCB, and no mounting
        hole running into a peg hole."""
        pcb = layout.pcb
        assert pcb is not None
        x0, y0, x1, y1 = pcb.outline
        box = {"x0": f"{x0:g}", "x1": f"{x1:g}", "y0": f"{y0:g}", "y1": f"{y1:g}"}
        if x0 < 0 or y0 < 0 or x1 > layout.width_mm or y1 > layout.height_mm:
            off = N_(
                "layout {source}: the PCB ({x0}-{x1} x {y0}-{y1} mm) is off the "
                "{width} x {height} mm board"
            )
            raise self.fail(
                off, width=f"{layout.width_mm:g}", height=f"{layout.height_mm:g}", **box
            )
        holes = N_(
            "layout {source}: hole {hole} at ({x}, {y}) mm is off the PCB "
            "({x0}-{x1} x {y0}-{y1} mm)"
        )
        screws = N_(
            "layout {source}: mounting hole {hole} at ({x}, {y}) mm is off the PCB "
            "({x0}-{x1} x {y0}-{y1} mm)"
        )
        places = [(holes, h.id, h.x, h.y, layout.hole_mm / 2) for h in layout.holes()]
        places += [(screws, n, x, y, pcb.mounting_mm / 2) for n, (x, y) in enumerate(pcb.mounting)]
        for off, hole, x, y, r in places:
            if not (x0 + r <= x <= x1 - r and y0 + r <= y <= y1 - r):
                raise self.fail(off, hole=hole, x=f"{x:g}", y=f"{y:g}", **box)
        near = (pcb.mounting_mm + layout.hole_mm) / 2 + CLEAR_MM
        for number, (x, y) in enumerate(pcb.mounting):
            for hole in layout.holes():
                if math.dist((x, y), (hole.x, hole.y)) < near:
                    into = N_(
                        "layout {source}: mounting hole {number} at ({x}, {y}) mm runs into "
                        "hole {hole}"
                    )
                    raise self.fail(into, number=number, x=f"{x:g}", y=f"{y:g}", hole=hole.id)
