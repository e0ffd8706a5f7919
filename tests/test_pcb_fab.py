"""The fab files of each PCB as a fab reads them, read back with gerbonara: every LED's pads
centred on its hole, the board's outline where the layout puts the PCB, the mounting holes
in the drill file, and a BOM and placement an assembly service takes. The files committed
are checked here; tests/test_pcb_kicad.py has KiCad make them again from the layout."""

from __future__ import annotations

import csv
import io
import json
import math
import re
import shutil
import warnings
import zipfile
from pathlib import Path

import pytest
from gerbonara import LayerStack
from gerbonara.graphic_objects import Flash

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
    edge = 0.05  # half the outline's line
    assert (bx0 + edge, by0 + edge, bx1 - edge, by1 - edge) == pytest.approx(
        (x0, -y1, x1, -y0), abs=1e-3
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
