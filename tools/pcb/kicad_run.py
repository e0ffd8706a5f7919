"""KiCad's own work on a generated board, run by the system python3 that has ``pcbnew``
(Debian's kicad 6.0): :mod:`tools.pcb.fab` starts it as a subprocess. It imports nothing
of pegboard's, and prints one JSON object.

    /usr/bin/python3 tools/pcb/kicad_run.py BOARD.kicad_pcb OUT_DIR [--fab]

- fills every zone (``pcbnew.ZONE_FILLER``) and saves the filled board in OUT_DIR;
- runs the design-rule check with the project's rules (``pcbnew.WriteDRCReport``) and
  reports its violations by severity and its unconnected pads;
- reads back the rules KiCad applied, and the width of copper each pour leaves across
  the board, every millimetre along it (for the voltage drop);
- with ``--fab``: plots the Gerbers, the Excellon drill files, the placement file and
  an SVG of the top for the guide's picture.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

try:
    import pcbnew
except ImportError:  # imported where KiCad is not (the test suite's doctests): never run
    pcbnew = None

MM = 1_000_000  # KiCad's internal units a millimetre
GERBERS = (
    "F.Cu",
    "B.Cu",
    "F.Mask",
    "B.Mask",
    "F.Paste",
    "B.Paste",
    "F.SilkS",
    "B.SilkS",
    "Edge.Cuts",
    "Cmts.User",
)
# else the name, _ for . (the V-score lines between the board and its rails: V_Cut)
SUFFIX = {"F.SilkS": "F_Silkscreen", "B.SilkS": "B_Silkscreen", "Cmts.User": "V_Cut"}

RENDER = tuple(layer for layer in GERBERS if "Paste" not in layer and "User" not in layer)


def suffix(layer: str) -> str:
    return SUFFIX.get(layer, layer.replace(".", "_"))


def check(board, out: Path) -> dict:
    report = out / "drc.txt"
    pcbnew.WriteDRCReport(board, str(report), pcbnew.EDA_UNITS_MILLIMETRES, True)
    text = report.read_text(encoding="utf-8")
    found = {"error": 0, "warning": 0}
    items = []
    violations_part = text.split("unconnected pads **", 1)[0]
    for block in re.split(r"\n(?=\[)", violations_part):
        severity = re.search(r"Severity: (\w+)", block)
        if severity:
            found[severity.group(1)] = found.get(severity.group(1), 0) + 1
            items.append(" ".join(block.split())[:300])
    unconnected = int(re.search(r"Found (\d+) unconnected pads", text).group(1))
    violations = int(re.search(r"Found (\d+) DRC violations", text).group(1))
    return {
        "violations": violations,
        "errors": found["error"],
        "warnings": found["warning"],
        "unconnected": unconnected,
        "items": items[:40],
    }


def rules(board) -> dict:
    s = board.GetDesignSettings()
    return {
        "min_track_width": s.m_TrackMinWidth / MM,
        "min_clearance": s.m_MinClearance / MM,
        "min_through_hole_diameter": s.m_MinThroughDrill / MM,
        "min_via_diameter": s.m_ViasMinSize / MM,
        "min_via_annular_width": s.m_ViasMinAnnularWidth / MM,
        "min_copper_edge_clearance": s.m_CopperEdgeClearance / MM,
        "min_hole_to_hole": s.m_HoleToHoleMin / MM,
        "min_hole_clearance": s.m_HoleClearance / MM,
    }


def copper(board) -> dict:
    """Each pour's copper across the board, every mm along x: {net/layer: [(x, mm)]}."""
    box = board.GetBoardEdgesBoundingBox()
    x0, x1 = box.GetX(), box.GetX() + box.GetWidth()
    y0, y1 = box.GetY(), box.GetY() + box.GetHeight()
    widths = {}
    for zone in board.Zones():
        if zone.GetPriority():
            continue
        layer = zone.GetLayer()
        filled = zone.GetFilledPolysList(layer)
        key = f"{zone.GetNetname()} {board.GetLayerName(layer)}"
        row = []
        for x in range(x0, x1 - MM, MM):
            strip = pcbnew.SHAPE_POLY_SET()
            strip.NewOutline()
            for px, py in ((x, y0), (x + MM, y0), (x + MM, y1), (x, y1)):
                strip.Append(px, py)
            strip.BooleanIntersection(filled, pcbnew.SHAPE_POLY_SET.PM_FAST)
            row.append([round((x + MM / 2) / MM, 3), round(strip.Area() / MM / MM, 4)])
        widths[key] = row
    return widths


def fabricate(board, out: Path, name: str) -> None:
    plot = pcbnew.PLOT_CONTROLLER(board)
    options = plot.GetPlotOptions()
    options.SetOutputDirectory(str(out))
    options.SetPlotFrameRef(False)
    options.SetUseAuxOrigin(True)
    options.SetUseGerberProtelExtensions(False)
    options.SetUseGerberX2format(True)
    options.SetIncludeGerberNetlistInfo(True)
    options.SetCreateGerberJobFile(False)
    options.SetSubtractMaskFromSilk(True)
    options.SetExcludeEdgeLayer(True)
    options.SetDrillMarksType(pcbnew.PCB_PLOT_PARAMS.NO_DRILL_SHAPE)
    for layer in GERBERS:
        plot.SetLayer(board.GetLayerID(layer))
        plot.OpenPlotfile(suffix(layer), pcbnew.PLOT_FORMAT_GERBER, suffix(layer))
        plot.PlotLayer()
    plot.ClosePlot()
    drill = pcbnew.EXCELLON_WRITER(board)
    drill.SetFormat(True)  # millimetres
    drill.SetOptions(False, False, board.GetDesignSettings().GetAuxOrigin(), False)
    drill.CreateDrillandMapFilesSet(str(out), True, False)
    placement = pcbnew.PLACE_FILE_EXPORTER(board, True, False, True, True, True, True, True)
    (out / f"{name}-pos.csv").write_text(placement.GenPositionData(), encoding="utf-8")
    # Each side's copper, mask openings, silk and edge as SVG, for the guide's picture.
    options.SetUseAuxOrigin(False)
    options.SetExcludeEdgeLayer(True)
    for layer in RENDER:
        plot.SetLayer(board.GetLayerID(layer))
        plot.OpenPlotfile(f"render-{suffix(layer)}", pcbnew.PLOT_FORMAT_SVG, suffix(layer))
        plot.PlotLayer()
    plot.ClosePlot()


def main(argv: list[str]) -> int:
    path, out = Path(argv[0]), Path(argv[1])
    out.mkdir(parents=True, exist_ok=True)
    board = pcbnew.LoadBoard(str(path))
    pcbnew.ZONE_FILLER(board).Fill(board.Zones())
    filled = out / path.name
    board.Save(str(filled))
    result = {"drc": check(board, out), "rules": rules(board), "copper": copper(board)}
    if "--fab" in argv:
        fabricate(board, out, path.stem)
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
