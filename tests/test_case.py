"""The case's files read back: each STL half is watertight and fits a printer's bed, the
two halves together have the board's outline, and the holes are where the layout and the
pin map put them: the frame's screws through the bosses, a dial at each seat, the boards'
standoffs; the STEP file is one valid solid of the same volume."""

from __future__ import annotations

import struct
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

from pegboard.board.build import frame_screws
from pegboard.board.layout import layout_names, load_layout
from pegboard.inputs.pins import load_pins
from tools import case

CASE = Path(__file__).resolve().parents[1] / "hardware" / "case"


def triangles(path: Path) -> np.ndarray:
    """A binary STL's triangles, (n, 3, 3) in mm."""
    data = path.read_bytes()
    (count,) = struct.unpack_from("<I", data, 80)
    assert len(data) == 84 + 50 * count, "a binary STL: 50 bytes a triangle"
    record = np.dtype([("normal", "<3f4"), ("points", "<9f4"), ("attr", "<u2")])
    rows = np.frombuffer(data, dtype=record, count=count, offset=84)
    return rows["points"].reshape(-1, 3, 3).astype(float)


def open_edges(tri: np.ndarray) -> int:
    """Edges not shared by exactly one other triangle running the other way: 0 when the
    mesh is watertight and consistently wound."""
    keys = np.round(tri, 4)
    directed: Counter = Counter()
    for a, b, c in keys:
        for p, q in ((a, b), (b, c), (c, a)):
            directed[(tuple(p), tuple(q))] += 1
    return sum(1 for (p, q), n in directed.items() if n != 1 or directed.get((q, p), 0) != 1)


def inside(tri: np.ndarray, point: tuple[float, float, float]) -> bool:
    """Whether ``point`` lies in the solid: a ray along +x crosses it an odd number of times."""
    p = np.array(point, dtype=float) + np.array([0, 1e-4, 2e-4])  # off every edge
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    e1, e2 = b - a, c - a
    d = np.array([1.0, 0, 0])
    h = np.cross(np.broadcast_to(d, e2.shape), e2)
    det = np.einsum("ij,ij->i", e1, h)
    ok = np.abs(det) > 1e-12
    f = np.where(ok, 1 / np.where(ok, det, 1), 0)
    s = p - a
    u = f * np.einsum("ij,ij->i", s, h)
    q = np.cross(s, e1)
    v = f * (q @ d)
    t = f * np.einsum("ij,ij->i", e2, q)
    hits = ok & (u >= 0) & (v >= 0) & (u + v <= 1) & (t > 0)
    return bool(hits.sum() % 2)


def both(name: str) -> np.ndarray:
    return np.concatenate(
        [triangles(CASE / f"{name}-case-{side}.stl") for side in ("left", "right")]
    )


@pytest.mark.parametrize("name", layout_names())
@pytest.mark.parametrize("side", ["left", "right"])
def test_each_half_is_watertight_and_fits_a_printers_bed(name, side):
    tri = triangles(CASE / f"{name}-case-{side}.stl")
    assert len(tri) > 100
    assert open_edges(tri) == 0
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    assert np.einsum("ij,ij->i", a, np.cross(b, c)).sum() > 0  # wound outwards: not inside out
    size = tri.reshape(-1, 3).max(axis=0) - tri.reshape(-1, 3).min(axis=0)
    assert max(size[:2]) <= case.PRINT_BED_MM and size[2] == pytest.approx(case.HEIGHT_MM)


@pytest.mark.parametrize("name", layout_names())
def test_the_halves_together_have_the_boards_outline(name):
    layout = load_layout(name)
    points = both(name).reshape(-1, 3)
    assert points.min(axis=0) == pytest.approx((0, 0, 0), abs=1e-3)
    assert points.max(axis=0) == pytest.approx(
        (layout.width_mm, layout.height_mm, case.HEIGHT_MM), abs=1e-3
    )
    left = triangles(CASE / f"{name}-case-left.stl").reshape(-1, 3)
    assert left[:, 0].max() == pytest.approx(case.split_x(layout), abs=1e-3)


@pytest.mark.parametrize("name", layout_names())
def test_the_frames_screws_pass_through_the_bosses_where_the_back_panel_has_them(name):
    layout = load_layout(name)
    tri, h = both(name), layout.height_mm
    for x, y in frame_screws(layout):
        at = (x, h - y)  # the model's y runs up
        for z in (2.0, case.HEIGHT_MM - 2):  # the head's counterbore below, the screw above
            assert not inside(tri, (*at, z)), (x, y, z)
        beside = (at[0] + (case.BOSS_MM / 2 + case.SCREW_MM / 2) / 2, at[1])
        if 0 < beside[0] < layout.width_mm:
            assert inside(tri, (*beside, case.HEIGHT_MM - 2)), (x, y)  # the boss round it


@pytest.mark.parametrize("name", ["two-track-121", "three-track-61"])
def test_a_dial_hole_at_each_of_the_pin_maps_seats_and_the_boards_standoffs(name):
    layout = load_layout(name)
    tri, h = both(name), layout.height_mm
    seats = len(load_pins().seats)
    dials = [o for o in case.openings(layout, seats) if o.what.endswith("dial")]
    assert len(dials) == seats == 4
    z = case.FLOOR_MM + (case.HEIGHT_MM - case.FLOOR_MM) / 2
    for dial in dials:
        y = 0.0 if dial.wall == "front" else h  # the model's y: front at 0
        wall = case.WALL_MM / 2 if dial.wall == "front" else h - case.WALL_MM / 2
        assert not inside(tri, (dial.along, wall, z)), dial  # the hole through the wall
        assert inside(tri, (dial.along + case.DIAL_MM, wall, z)), dial  # wall beside it
        assert y in (0.0, h)
    for seat, sx, sy in case.seats(layout):
        for hx, hy in seat.holes:
            x, y = sx + hx, h - (sy + hy)
            post = (x + (case.STANDOFF_MM[0] + seat.hole_mm) / 4, y, case.FLOOR_MM + 2)
            assert inside(tri, post), (seat.name, hx, hy)  # the standoff
            assert not inside(tri, (x, y, case.FLOOR_MM + 2)), (seat.name, hx, hy)  # its hole


@pytest.mark.parametrize("name", layout_names("pcb"))
def test_a_pcb_boards_case_seats_the_pi_alone_and_takes_the_supply_in_at_the_pcbs_end(name):
    """The Pico, level shifter and power input are on the PCB: the tray holds the Pi, and
    the supply's socket and the Pi's cable are in the left wall, under the electronics."""
    layout = load_layout(name)
    tri, h = both(name), layout.height_mm
    assert [seat.name for seat, _, _ in case.seats(layout)] == ["Raspberry Pi"]
    left = {o.what for o in case.openings(layout, 4) if o.wall == "left"}
    assert left == {"LED supply (USB-C)", "the Pi's power cable"}
    z = case.FLOOR_MM + (case.HEIGHT_MM - case.FLOOR_MM) / 2
    for opening in case.openings(layout, 4):
        if opening.wall == "left":
            assert not inside(tri, (case.WALL_MM / 2, h - opening.along, z)), opening
    assert layout.pcb.outline[0] < case.WALL_MM + case.GAP_MM + case.PI.size[0]


def test_the_step_file_is_one_valid_solid_the_halves_add_up_to():
    import build123d as bd

    name = "two-track-61"
    shape = bd.import_step(CASE / f"{name}-case.step")
    solids = shape.solids()
    assert len(solids) == 1 and solids[0].is_valid
    tri = both(name)
    a, b, c = tri[:, 0], tri[:, 1], tri[:, 2]
    volume = np.einsum("ij,ij->i", a, np.cross(b, c)).sum() / 6
    assert volume == pytest.approx(solids[0].volume, rel=0.01)


@pytest.mark.parametrize("name", ["two-track-121", "three-track-61"])
def test_the_wooden_case_is_a_floor_and_rings_through_which_the_frames_screws_run(name):
    import ezdxf

    layout = load_layout(name)
    msp = ezdxf.readfile(CASE / f"{name}-case-wood.dxf").modelspace()
    rings = round((case.HEIGHT_MM - case.WOOD_MM) / case.WOOD_MM)
    sheets = [
        p
        for p in msp.query('LWPOLYLINE[layer=="CUT"]')
        if abs(max(x for x, *_ in p) - min(x for x, *_ in p) - layout.width_mm) < 1e-6
    ]
    assert len(sheets) == 1 + rings and case.WOOD_MM * (1 + rings) == case.HEIGHT_MM
    screws = [c for c in msp.query('CIRCLE[layer=="CUT"]') if abs(2 * c.dxf.radius - 3.4) < 1e-6]
    assert len(screws) == rings * len(frame_screws(layout))
    h = layout.height_mm
    first = {(round(c.dxf.center.x, 2), round(c.dxf.center.y, 2)) for c in screws}
    ring1 = {(round(x, 2), round(h - y - (h + 10), 2)) for x, y in frame_screws(layout)}
    assert ring1 <= first  # ring 1's holes where the back panel's are
    pilots = [c for c in msp.query('CIRCLE[layer=="CUT"]') if abs(2 * c.dxf.radius - 2.5) < 1e-6]
    assert len(pilots) == sum(len(seat.holes) for seat in case.SEATS)
    marks = [t.dxf.text for t in msp.query('TEXT[layer=="REF_NOTES"]')]
    assert sum("dial" in m for m in marks) == 4 and any("USB-C" in m for m in marks)


@pytest.mark.slow
def test_the_case_files_and_the_pictures_are_what_the_models_make_now():
    from tools import hardware

    stale = hardware.stale(hardware.models(CASE.parents[1]))
    assert not stale, f"out of date: {stale}; run python -m tools.hardware --write"
