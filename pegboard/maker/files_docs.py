"""The guide's tables of the files made for each layout: the drilling templates, the
workshop's DXF files and the case's STEP and STL (written by ``tools.hardware``)."""

from __future__ import annotations

from pegboard.board.layout import layout_names, load_layout
from pegboard.board.template import PAPERS, sheets


def table(rows: list[tuple[object, ...]]) -> str:
    """Rows of cells as a Markdown table (the first two: the head and its rule)."""
    return "\n".join("| " + " | ".join(str(cell) for cell in row) + " |" for row in rows)


# (the file's ending, its column)
WORKSHOP = (
    ("cnc-top.dxf", "CNC top"),
    ("cnc-bottom.dxf", "CNC bottom"),
    ("back.dxf", "back panel"),
    ("laser.dxf", "laser layers"),
)
CASE = (
    ("case.step", "STEP"),
    ("case-left.stl", "STL, left half"),
    ("case-right.stl", "STL, right half"),
    ("case-wood.dxf", "DXF, 6 mm plywood"),
)


def templates_part() -> str:
    """Per layout: the template in its three forms and the workshop's files."""
    head = ["Layout", "Board", "Holes", "Drill", "SVG", "DXF", "PDF, A4", "PDF, Letter"]
    head += [name for _, name in WORKSHOP]
    rows: list[tuple[object, ...]] = [tuple(head), ("---", "---", "---:", "---:", *("---",) * 8)]
    for name in layout_names():
        layout = load_layout(name)
        papers = [
            f"[{len(sheets(layout, paper)[1])} sheets](templates/{name}-{paper.lower()}.pdf)"
            for paper in PAPERS
        ]
        rows.append(
            (
                name,
                f"{layout.width_mm:g} × {layout.height_mm:g} mm",
                sum(1 for _ in layout.holes()),
                f"{layout.hole_mm:g} mm",
                f"[{name}.svg](templates/{name}.svg)",
                f"[{name}.dxf](templates/{name}.dxf)",
                *papers,
                *(f"[{end}](templates/{name}-{end})" for end, _ in WORKSHOP),
            )
        )
    return table(rows)


def case_part() -> str:
    """Per layout: the case's files."""
    rows: list[tuple[object, ...]] = [
        ("Layout", "Tray", *(name for _, name in CASE)),
        ("---", "---", *("---",) * len(CASE)),
    ]
    for name in layout_names():
        layout = load_layout(name)
        size = f"{layout.width_mm:g} × {layout.height_mm:g} mm"
        rows.append((name, size, *(f"[{end}](case/{name}-{end})" for end, _ in CASE)))
    return table(rows)
