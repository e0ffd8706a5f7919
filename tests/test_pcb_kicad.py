"""KiCad itself on each PCB built from its layout: Debian's kicad 6 (``pcbnew`` in the system
python3; scripts/test installs it) fills the pours and runs its design-rule check with the
fab's rules, then plots the fab files, which are read back as a fab would. Skipped only
where KiCad is not installed, and never in CI."""

from __future__ import annotations

import json
import re

import pytest
from needs import missing
from test_pcb_fab import check_fab

from pegboard.board.layout import layout_names, load_layout
from tools.pcb import fab
from tools.pcb.model import RULES

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def kicad():
    if fab.kicad_python() is None:
        missing("KiCad's pcbnew is not installed (apt-get install --no-install-recommends kicad)")


@pytest.mark.parametrize("name", layout_names("pcb"))
def test_kicad_fills_and_checks_the_pcb_built_from_its_layout_with_no_error(kicad, name, tmp_path):
    layout = load_layout(name)
    written = fab.write_fab(tmp_path, layout)
    report = json.loads(written[-1].read_text(encoding="utf-8"))
    drc = report["drc"]
    assert (drc["errors"], drc["unconnected"], drc["warnings"]) == (0, 0, 0), drc["items"]
    assert report["rules"] == pytest.approx(RULES)  # the project's rules, as KiCad applied them
    assert min(w for _, w in report["copper"]["+5V F.Cu"]) > 10  # the pour spans the board
    check_fab(fab.folder(tmp_path, name) / f"{name}-fab.zip", layout)


def test_kicad_finds_a_broken_track_and_a_part_too_close(kicad, tmp_path):
    """The check can fail: a data track taken out, an LED pushed onto its neighbour's."""
    layout = load_layout("pcb-two-track-61")
    project = fab.project(layout)
    text = project[".kicad_pcb"]
    first = re.search(r"\n  \(segment [^\n]*\(net (\d+)\)\)", text)
    text = text.replace(first.group(0), "", 1)
    led = re.search(
        r'\(footprint "pegboard:LED_WS2812B-2020" \(layer "F.Cu"\)\n    \(at ([\d.]+) ([\d.]+)',
        text,
    )
    x = float(led.group(1))
    text = text.replace(
        led.group(0), led.group(0).replace(f"(at {led.group(1)}", f"(at {x + 4.5:g}"), 1
    )
    (tmp_path / f"{layout.name}.kicad_pro").write_text(project[".kicad_pro"], encoding="utf-8")
    (tmp_path / f"{layout.name}.kicad_pcb").write_text(text, encoding="utf-8")
    drc = fab.run_kicad(tmp_path / f"{layout.name}.kicad_pcb", tmp_path / "out", fab=False)["drc"]
    assert drc["unconnected"] >= 1
    assert drc["errors"] >= 1
    assert any("clearance" in item or "courtyards" in item for item in drc["items"])
