"""The guide's pictures, from the same models as the files the workshop gets: the board's
plank (its pockets, bores and the tape under them, carriers in the pockets), the strip and
its pieces, the case with the electronics in their seats, and all of it taken apart;
rendered by :mod:`tools.render`. The drawings of the CNC's and the laser's DXF files are
those files themselves, drawn as SVG by ezdxf.

A picture is made again only when what it shows changes: each PNG carries, as text, the
fingerprint of its meshes and of the code that draws them (:class:`Picture`).
"""

from __future__ import annotations

import hashlib
import io
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import build123d as bd
import ezdxf
import numpy as np
from ezdxf import bbox
from ezdxf.addons.drawing import Frontend, RenderContext, config, svg
from ezdxf.addons.drawing import layout as page

from pegboard.board.build import EXIT_MM, frame_screws, notches, pieces, pockets, wire_exits
from pegboard.board.geometry import Layout
from tools import case, render, workshop

WOOD, PLY, TAPE = (214, 178, 128), (196, 160, 110), (170, 215, 240)
GREEN, DARK, PLA = (40, 130, 70), (60, 60, 60), (236, 214, 150)
KEY = "pegboard-source"  # the PNG text chunk with the picture's fingerprint
CODE = [Path(case.__file__), Path(render.__file__), Path(__file__)]


@dataclass(frozen=True)
class Picture:
    """A PNG made on demand: ``source`` says what it shows, ``make`` draws it."""

    source: str
    make: Callable[[], bytes]

    def current(self, path: Path) -> bool:
        """Whether the PNG at ``path`` shows what this one would."""
        return path.exists() and _source_of(path.read_bytes()) == self.source


def _box(x: float, y: float, z: float, dx: float, dy: float, dz: float) -> bd.Part:
    """A box from its low corner, in model mm (y up from the board's bottom edge)."""
    return bd.Box(dx, dy, dz, align=(bd.Align.MIN,) * 3).moved(bd.Location((x, y, z)))


def plank(layout: Layout) -> bd.Part:
    """The plank, top at z = its thickness, pocketed from below, the bores through the skin."""
    h, t = layout.height_mm, layout.plank_mm
    body = _box(0, 0, 0, layout.width_mm, h, t)
    for b in (*pockets(layout), *notches(layout)):
        body -= _box(b.x0, h - b.y1, -1, b.x1 - b.x0, b.y1 - b.y0, t - layout.skin_mm + 1)
    bores = [
        bd.Cylinder(layout.hole_mm / 2, t + 2).moved(bd.Location((hole.x, h - hole.y, t / 2)))
        for hole in layout.holes()
    ]
    return body - bd.Part(bd.Compound(bores).wrapped)


def _leds(x0: float, y: float, z: float, count: int, pitch: float) -> list[bd.Part]:
    return [_box(x0 + (k + 0.5) * pitch - 2.5, y - 2.5, z, 5, 5, 1.6) for k in range(count)]


def laid(piece) -> bool:
    """The picture from below shows the work in stages, street by street: the first
    street's first strip on its carrier, the rest of it and the second street taped, the
    last street's bores still open."""
    return piece.index == 0 and piece.strip == 0


def taped(piece) -> bool:
    return piece.index <= 1 and not laid(piece)


def carriers(layout: Layout) -> list[tuple[bd.Part, tuple[int, int, int]]]:
    """The carriers laid so far in their pockets, seen from below: plywood."""
    h, pitch, depth = layout.height_mm, layout.strip_kind.pitch_mm, layout.plank_mm
    out = []
    for piece in pieces(layout):
        if not laid(piece):
            continue
        (x0, y), (x1, _) = piece.start, piece.end
        left = min(x0, x1) - pitch / 2
        length = piece.leds * pitch
        top = depth - layout.skin_mm - 1.6 - 0.3  # under the LEDs, against the tape
        carrier = _box(left, h - y - layout.carrier_mm / 2, top - 3, length, layout.carrier_mm, 3)
        out.append((carrier, PLY))
    return out


def tape(layout: Layout) -> list[tuple[bd.Part, tuple[int, int, int]]]:
    """Clear tape along the rows of bores taped so far, on the pockets' floor."""
    h, z = layout.height_mm, layout.plank_mm - layout.skin_mm - 0.2
    out = []
    for piece in pieces(layout):
        if not taped(piece):
            continue
        (x0, y), (x1, _) = piece.start, piece.end
        left, right = min(x0, x1) - 4, max(x0, x1) + 4
        out.append((_box(left, h - y - 6.25, z, right - left, 12.5, 0.2), TAPE))
    return out


def back_panel(layout: Layout) -> bd.Part:
    h = layout.height_mm
    panel = _box(0, 0, 0, layout.width_mm, h, 3)
    holes = [(x, h - y, workshop.SCREW_MM) for x, y in frame_screws(layout)]
    holes += [(e.x, h - e.y, EXIT_MM) for e in wire_exits(layout)]
    for x, y, d in holes:
        panel -= bd.Cylinder(d / 2, 5).moved(bd.Location((x, y, 1.5)))
    return panel


def electronics(layout: Layout) -> list[tuple[bd.Part, tuple[int, int, int]]]:
    """The boards in their seats, the speaker in its ring, the dials in the walls."""
    h, z = layout.height_mm, case.FLOOR_MM + case.STANDOFF_MM[1]
    colours = {"Raspberry Pi": GREEN, "LED electronics": (150, 120, 70), "Pico": GREEN}
    parts = []
    for seat, x, y in case.seats(layout):
        w, d = seat.size
        parts.append((_box(x, h - y - d, z, w, d, 1.6), colours[seat.name]))
        if seat is case.PI:
            parts += [(_box(x + 65, h - y - d + 2, z + 1.6, 20, 50, 14), (190, 190, 195))]
        if seat is case.PERFBOARD:
            parts += [(_box(x + 25, h - y - 30, z + 1.6, 20, 8, 8), DARK)]
    cx, cy = case.speaker(layout)
    parts.append((bd.Cylinder(case.SPEAKER_MM / 2, 6).moved(bd.Location((cx, h - cy, 6))), DARK))
    return parts


def _meshes(parts: list[tuple[bd.Part, tuple[int, int, int]]], lift: float = 0.0):
    return [
        ((points + np.array([0, 0, lift]), triangles), colour)
        for (points, triangles), colour in ((render.mesh_of(p), c) for p, c in parts)
    ]


def _flipped(meshes):
    """Turned over about the board's long axis: seen from below, as the router sees it."""
    return [((points * np.array([1, -1, -1]), tri[:, ::-1]), c) for (points, tri), c in meshes]


def scenes(layout: Layout) -> dict[str, tuple[list, float, float]]:
    """Each picture's meshes and the side it is seen from (azimuth, elevation)."""
    tray = case.tray(layout)
    below = _meshes([(plank(layout), WOOD), *tape(layout), *carriers(layout)])
    apart = _meshes([(plank(layout), WOOD)], 110) + _meshes([(back_panel(layout), PLY)], 70)
    apart += _meshes([(tray, PLA), *electronics(layout)])
    return {
        "plank-below.png": (_flipped(below), -15, 68),
        "case.png": (_meshes([(tray, PLA)]), -30, 45),
        "case-filled.png": (_meshes([(tray, PLA), *electronics(layout)]), -30, 45),
        "exploded.png": (apart, -30, 25),
    }


def pictures(hardware: Path, layout: Layout) -> dict[Path, Picture]:
    """Every picture of the guide by its path, made from ``layout``'s models."""
    code = b"".join(path.read_bytes() for path in CODE)
    found = {}
    for name, (meshes, azimuth, elevation) in scenes(layout).items():
        digest = hashlib.sha256(code + f"{azimuth} {elevation}".encode())
        for (points, triangles), colour in meshes:
            digest.update(np.round(points, 2).tobytes() + triangles.tobytes() + bytes(colour))
        source = f"{layout.name}:{digest.hexdigest()[:16]}"

        def make(meshes=meshes, azimuth=azimuth, elevation=elevation, source=source) -> bytes:
            return _stamped(render.picture(meshes, azimuth, elevation), source)

        found[hardware / "pictures" / name] = Picture(source, make)
    return found


def drawn(dxf_text: str, width_mm: float = 180.0) -> str:
    """A DXF file drawn as SVG, black lines on white, ``width_mm`` wide."""
    doc = ezdxf.read(io.StringIO(dxf_text))
    backend = svg.SVGBackend()
    settings = config.Configuration(
        background_policy=config.BackgroundPolicy.WHITE, color_policy=config.ColorPolicy.BLACK
    )
    Frontend(RenderContext(doc), backend, config=settings).draw_layout(doc.modelspace())
    box = bbox.extents(doc.modelspace())
    height_mm = width_mm * box.size.y / box.size.x
    sheet = page.Page(width_mm + 4, height_mm + 4, page.Units.mm, page.Margins.all(2))
    return backend.get_string(sheet)


def _stamped(png: bytes, source: str) -> bytes:
    """``png`` with a text chunk saying its source, after the header chunk."""
    data = KEY.encode() + b"\0" + source.encode()
    chunk = len(data).to_bytes(4, "big") + b"tEXt" + data
    chunk += zlib.crc32(b"tEXt" + data).to_bytes(4, "big")
    end_of_header = 8 + 25  # the signature, then IHDR: length, type, 13 bytes, CRC
    return png[:end_of_header] + chunk + png[end_of_header:]


def _source_of(png: bytes) -> str | None:
    at = 8
    while at < len(png):
        length = int.from_bytes(png[at : at + 4], "big")
        kind, data = png[at + 4 : at + 8], png[at + 8 : at + 8 + length]
        if kind == b"tEXt" and data.startswith(KEY.encode() + b"\0"):
            return data.split(b"\0", 1)[1].decode()
        at += 12 + length
    return None
