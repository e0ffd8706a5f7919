"""The fab files of each PCB as a fab reads them, read back with gerbonara: every LED's pads
centred on its hole, the board's outline where the layout puts the PCB, the mounting holes
in the drill file, and a BOM and placement an assembly service takes. The files committed
are checked here; tests/test_pcb_kicad.py has KiCad make them again from the layout."""

from __future__ import annotations

import csv
import io
import itertools
import json
import math
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest
from gerbonara import LayerStack
from gerbonara.graphic_objects import Arc, Flash, Line

from pegboard.board.layout import layout_names, load_layout, parse_layout
from tools import hardware
from tools.pcb import board, fab, guide, parts
from tools.pcb.model import RULES

PCB = layout_names("pcb")
REPO = Path(__file__).resolve().parents[1]


def check_fab(archive: Path, layout) -> None:
    """What a fab would make from ``archive`` is the layout's PCB (Gerber y runs up)."""
    pcb = board.build(layout)
    leds = {p.ref: p for p in pcb.parts if p.part is parts.LED}
    with warnings.catch_warnings():  # gerbonara finds KiCad's drill header unusual
        warnings.simplefilter("ignore", SyntaxWarning)
        stack = LayerStack.open(archive)
        drills = [obj for layer in stack.drill_layers for obj in layer.objects]
    pads: dict[str, list] = {}
    for obj in stack[("top", "copper")].objects:
        ref = obj.attrs.get(".P", ("",))[0] if isinstance(obj, Flash) else ""
        if ref in leds:
            pads.setdefault(ref, []).append((obj.x, obj.y))
    assert pads.keys() == leds.keys()
    for ref, found in pads.items():
        assert len(found) == 4
        centre = (sum(x for x, _ in found) / 4, sum(y for _, y in found) / 4)
        assert math.dist(centre, (leds[ref].x, -leds[ref].y)) < 0.05, ref
    holes = {(h.x, h.y) for h in layout.holes()}
    assert {(p.x, p.y) for p in leds.values()} == holes  # and each LED is a hole's
    (bx0, by0), (bx1, by1) = stack.outline.bounding_box()
    x0, y0, x1, y1 = layout.pcb.outline
    edge, rail = 0.05, board.RAIL_MM  # half the outline's line; the rails past the board
    assert (bx0 + edge, by0 + edge, bx1 - edge, by1 - edge) == pytest.approx(
        (x0, -y1 - rail, x1, -y0 + rail), abs=1e-3
    )
    screws = sorted(
        (round(d.x, 2), round(-d.y, 2))
        for d in drills
        if d.aperture.diameter == layout.pcb.mounting_mm
    )
    assert screws == sorted((round(x, 2), round(y, 2)) for x, y in layout.pcb.mounting)
    with zipfile.ZipFile(archive) as z:
        bom = list(csv.DictReader(io.StringIO(z.read(f"{layout.name}-bom.csv").decode())))
        cpl = list(csv.DictReader(io.StringIO(z.read(f"{layout.name}-cpl.csv").decode())))
    placed = {p.ref for p in pcb.parts if p.part.fab}
    assert {ref for row in bom for ref in row["Designator"].split(",")} == placed
    assert all(row["MPN"] and row["Manufacturer"] for row in bom)
    assert all(re.fullmatch(r"C\d{3,8}", row["LCSC Part #"]) for row in bom), bom
    assert {row["Designator"] for row in cpl} == placed  # what you solder is not in it
    for row in cpl:
        p = pcb.part(row["Designator"])
        assert row["Layer"] == ("Bottom" if p.bottom else "Top")
        assert (float(row["Mid X"]), -float(row["Mid Y"])) == pytest.approx((p.x, p.y), abs=1e-3)


@pytest.mark.slow
@pytest.mark.parametrize("name", PCB)
def test_the_committed_gerbers_drill_bom_and_placement_are_the_layouts_pcb(name):
    layout = load_layout(name)
    check_fab(fab.folder(REPO, name) / f"{name}-fab.zip", layout)


@pytest.mark.parametrize("name", PCB)
def test_kicad_passed_the_committed_pcb_with_no_error_and_no_unconnected_pad(name):
    layout = load_layout(name)
    assert not fab.outdated(REPO, layout), "run python -m tools.hardware --write"
    report = json.loads((fab.folder(REPO, name) / f"{name}-check.json").read_text(encoding="utf-8"))
    assert (report["drc"]["errors"], report["drc"]["unconnected"]) == (0, 0), report["drc"]["items"]
    assert report["rules"] == pytest.approx(RULES)  # the fab's, as KiCad applied them


def fab_files(name: str) -> tuple[zipfile.ZipFile, dict[str, dict[str, str]]]:
    """The committed fab zip, and its placement file by designator."""
    z = zipfile.ZipFile(fab.folder(REPO, name) / f"{name}-fab.zip")
    rows = csv.DictReader(io.StringIO(z.read(f"{name}-cpl.csv").decode()))
    return z, {row["Designator"]: row for row in rows}


def turned(point: tuple[float, float], degrees: float) -> tuple[float, float]:
    """``point`` (mm, y down) turned counterclockwise as seen from above."""
    a = math.radians(degrees)
    x, y = point
    return (x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a))


# Pin 1 of the assembler's own footprints, as its library has them at 0 degrees (mm from
# the part's centre, y down, seen from above): the WS2812B-2020 with pin 1 at the top
# right, SOIC-14 lying along x with pin 1 at the bottom left, SOT-23 with pin 1 at the
# bottom right, the electrolytic's "+" on the right.
ASSEMBLER_PIN_1 = {
    "LED_WS2812B-2020": (0.55, -0.915),
    "SOIC-14_3.9x8.7mm_P1.27mm": (-3.81, 2.475),
    "SOT-23": (0.9375, 0.95),
    "CP_Elec_10x10": (4.2, 0.0),
}


@pytest.mark.parametrize("name", PCB)
def test_the_assembler_puts_pin_1_of_the_leds_u1_q1_and_c1_on_their_pin_1(name):
    """Each part placed as the assembler places it from the placement file: its own
    footprint turned by the file's angle, and on the bottom seen through the board
    (mirrored left to right) before it is turned; its pin 1 lands on the PCB's pad 1."""
    pcb = board.build(load_layout(name))
    _, cpl = fab_files(name)
    leds = [p.ref for p in pcb.parts if p.part is parts.LED]
    both_ways = {pcb.part(ref).rotation for ref in leds} == {0, 180}
    assert both_ways  # LEDs turned either way along their rows: both are checked
    for ref in (*leds, "U1", "Q1", "C1"):
        row, placed = cpl[ref], pcb.part(ref)
        footprint = placed.part.land.name.split(":", 1)[1]
        x, y = ASSEMBLER_PIN_1[footprint]
        bottom = row["Layer"] == "Bottom"
        assert bottom == placed.bottom
        dx, dy = turned((-x, y) if bottom else (x, y), float(row["Rotation"]))
        centre = (float(row["Mid X"]), -float(row["Mid Y"]))
        assert (centre[0] + dx, centre[1] + dy) == pytest.approx(placed.at("1"), abs=1e-3), ref


def gerber(z: zipfile.ZipFile, name: str, layer: str):
    from gerbonara import GerberFile

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        return GerberFile.from_string(z.read(f"{name}-{layer}.gbr").decode())


def flashes(layer) -> list[tuple[float, float, float]]:
    """Each round flash: (x, y up, diameter)."""
    return [
        (round(f.x, 3), round(f.y, 3), round(f.aperture.diameter, 3))
        for f in layer.objects
        if isinstance(f, Flash) and hasattr(f.aperture, "diameter")
    ]


@pytest.mark.parametrize("name", PCB)
def test_three_fiducials_on_each_side_sit_on_the_rails_bare_in_the_mask(name):
    layout = load_layout(name)
    x0, y0, x1, y1 = layout.pcb.outline
    z, _ = fab_files(name)
    scores = [
        (round(line.y1, 3), round(abs(line.x2 - line.x1), 3))
        for line in gerber(z, name, "V_Cut").objects
        if isinstance(line, Line) and line.y1 == line.y2
    ]
    long_ = sorted(y for y, length in scores if length == pytest.approx(x1 - x0, abs=1e-3))
    assert long_ == [-y1, -y0]  # the two V-score lines: the board's long edges
    for side in "FB":
        found = [f for f in flashes(gerber(z, name, f"{side}_Cu")) if f[2] == 1.0]
        assert len(found) == 3, side
        assert all(not (-y1 <= y <= -y0) for _, y, _ in found)  # on the rails, off the board
        assert len({x for x, _, _ in found}) == 2 and len({y for _, y, _ in found}) == 2
        mask = flashes(gerber(z, name, f"{side}_Mask"))
        paste = flashes(gerber(z, name, f"{side}_Paste"))
        for x, y, _ in found:
            assert (x, y, parts.FIDUCIAL_MASK_MM) in mask
            assert not any(math.dist((x, y), (px, py)) < 1 for px, py, _ in paste)


@pytest.mark.parametrize("name", PCB)
def test_no_paste_on_the_picos_pads_and_paste_on_every_part_the_fab_places(name):
    pcb = board.build(load_layout(name))
    z, _ = fab_files(name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SyntaxWarning)
        copper = gerber(z, name, "B_Cu")
        paste = gerber(z, name, "B_Paste")
    pads = [(p.x, -p.y) for p in copper.objects if isinstance(p, Flash)]
    pasted = [(p.x, -p.y) for p in paste.objects if isinstance(p, Flash)]
    pico = pcb.part("U2")
    for number in (str(n) for n in range(1, 41)):
        at = pico.at(number)
        assert any(math.dist(at, pad) < 0.01 for pad in pads), number  # the pad is there
        assert not any(math.dist(at, p) < 0.01 for p in pasted), number  # and bare
    for ref in ("U1", "Q1", "C1", "F1", "D1", "R3", "C2"):
        at = pcb.part(ref).at("1")
        assert any(math.dist(at, p) < 0.01 for p in pasted), ref


def test_every_footprint_has_its_reference_on_the_silk_and_its_pin_1_or_polarity_mark():
    text = (fab.folder(REPO, PCB[0]) / f"{PCB[0]}.kicad_pcb").read_text(encoding="utf-8")
    footprints = text.split("\n  (footprint ")[1:]
    assert len(footprints) == len(board.build(load_layout(PCB[0])).parts)
    marked = {"LED_WS2812B-2020": "fp_circle", "SOIC-14": "fp_circle", "SOT-23": "fp_circle"}
    marked |= {"CP_Elec": "fp_line", "D_SMB": "fp_line"}
    for block in footprints:
        ref = re.search(r'\(fp_text reference "([^"]+)"[^\n]*', block)
        assert ref and "SilkS" in ref.group(0) and " hide" not in ref.group(0), block[:80]
        for name, mark in marked.items():
            if block.startswith(f'"pegboard:{name}'):
                assert re.search(rf"\({mark} [^\n]*SilkS", block), ref.group(1)
    report = json.loads(
        (fab.folder(REPO, PCB[0]) / f"{PCB[0]}-check.json").read_text(encoding="utf-8")
    )
    assert report["drc"]["warnings"] == 0  # no silk clipped by a pad or over another


def test_every_line_of_the_guides_parts_list_names_where_it_is_bought():
    text = (REPO / "hardware" / "PCB.md").read_text(encoding="utf-8")
    table = text.split("<!-- generated: pcb-bom -->")[1].split("<!-- end: pcb-bom -->")[0]
    rows = [row.split(" | ") for row in table.strip().splitlines()[2:]]
    assert len(rows) == len(guide.PARTS_LISTED)
    for row in rows:
        placed_by, lcsc = row[5], row[4]
        assert re.fullmatch(r"C\d{3,8}", lcsc) or (placed_by == "you" and lcsc), row
    fuse, bulk = parts.FUSE, parts.BULK
    assert fuse.fab and bulk.fab and fuse.lcsc and bulk.lcsc  # placed: the board is powered


def test_a_changed_layout_leaves_its_pcb_and_fab_files_out_of_date(tmp_path, monkeypatch):
    """What ``python -m tools.hardware`` checks: the project's text against the layout's,
    the fab files' digest against the project's."""
    name = "pcb-two-track-61"
    shutil.copytree(fab.folder(REPO, name), fab.folder(tmp_path, name))
    layout = load_layout(name)
    assert not fab.outdated(tmp_path, layout)
    text = (REPO / "hardware" / "layouts" / f"{name}.toml").read_text(encoding="utf-8")
    hole = layout.hole(0, 7)
    was, now = f"x = {hole.x:.2f}, y = {hole.y:.2f}", f"x = {hole.x + 0.5:.2f}, y = {hole.y:.2f}"
    moved = parse_layout(text.replace(was, now), name)
    assert moved.hole(0, 7).x == pytest.approx(hole.x + 0.5)
    monkeypatch.setattr(fab, "pcb_layouts", lambda: [moved])
    project = fab.folder(tmp_path, name) / f"{name}.kicad_pcb"
    assert project in hardware.stale(fab.generated(tmp_path))
    assert set(fab.stale(tmp_path)) == set(fab.outputs(tmp_path, moved))


@pytest.mark.slow
def test_the_pcb_guide_and_its_section_drawing_are_current():
    stale = hardware.stale(guide.generated(REPO))
    assert not stale, f"out of date: {stale}; run python -m tools.hardware --write"


def test_the_guides_name_the_route_and_every_file_it_links_to_exists():
    text = (REPO / "hardware" / "PCB.md").read_text(encoding="utf-8")
    links = set(re.findall(r"\]\(([^)#]+)\)", text))
    for link in links:
        assert (REPO / "hardware" / link).is_file(), link
    for name in PCB:
        here = f"pcb/{name}/{name}"
        assert {
            f"{here}.kicad_pro",
            f"{here}.kicad_pcb",
            f"{here}-fab.zip",
            f"{here}-top.png",
        } <= links
        assert {f"templates/{name}.svg", f"templates/{name}.dxf"} <= links
    assert "pcb/section.svg" in links
    for readme in (REPO / "README.md", REPO / "hardware" / "README.md"):
        said = readme.read_text(encoding="utf-8")
        assert "PCB.md" in said and "pcb-two-track-121" in said, readme


def test_the_pcb_guide_powers_the_leds_before_the_pico_and_runs_the_doctor_once_mounted():
    """As the strip guide's safety rules say: the LED supply before the Pico (no LED gets
    data without power); the doctor again once the PCB is screwed in, before the back goes
    on; the screws snug, never forced; no deck well cut over the electronics end."""
    text = (REPO / "hardware" / "PCB.md").read_text(encoding="utf-8")
    light = text.split("## First light")[1].split("\n## ")[0]
    assert light.index("Switch the supply on") < light.index("plug the Pico into the Pi's USB")
    readme = (REPO / "hardware" / "README.md").read_text(encoding="utf-8")
    assert "plug the LED supply in\n  before the Pi (which powers the Pico)" in readme
    plate = text.split("## Under the plate")[1].split("\n## ")[0]
    steps = re.findall(r"^(\d+)\. \*\*([^*]+)\*\*(.*?)(?=^\d+\. |\Z)", plate, re.M | re.S)
    titles = [title.rstrip(".") for _, title, _ in steps]
    assert titles.index("The PCB") < titles.index("The doctor again") < titles.index("Close up")
    mounted = steps[titles.index("The PCB")][2]
    assert "snug, never forced" in mounted
    assert "doctor: all good" in steps[titles.index("The doctor again")][2]
    assert "well for the deck" not in text.replace("a well for the deck would go through", "")


@pytest.mark.parametrize("name", PCB)
def test_no_silkscreen_lies_under_a_bore_where_it_would_show_through_the_epoxy(name):
    import numpy as np

    layout = load_layout(name)
    z, _ = fab_files(name)
    points = []
    for obj in gerber(z, name, "F_Silkscreen").objects:
        if not obj.polarity_dark:  # the mask's openings, cut out of the silk
            continue
        if isinstance(obj, Line | Arc):  # an arc: its ends and centre (the pin-1 dots)
            w = obj.aperture.diameter / 2
            ends = [(obj.x1, obj.y1), (obj.x2, obj.y2)]
            if isinstance(obj, Arc):
                ends.append((obj.x1 + obj.cx, obj.y1 + obj.cy))
            for (ax, ay), (bx, by) in itertools.pairwise([*ends, ends[0]]):
                for k in np.linspace(0, 1, 5):
                    points.append((ax + k * (bx - ax), ay + k * (by - ay), w))
        elif isinstance(obj, Flash):
            points.append((obj.x, obj.y, getattr(obj.aperture, "diameter", 0) / 2))
    silk = np.array(points)
    assert len(silk) > 1000  # references, marks and labels are there
    for hole in layout.holes():
        reach = np.hypot(silk[:, 0] - hole.x, silk[:, 1] + hole.y) - silk[:, 2]
        assert reach.min() >= layout.hole_mm / 2, hole.id
