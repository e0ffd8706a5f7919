"""The generated parts of the PCB guide (hardware/PCB.md) and its section drawing, from the
PCB layouts, the parts list and what KiCad's check found (``NAME-check.json``).

Each part sits between ``<!-- generated: NAME -->`` and ``<!-- end: NAME -->`` as in the
strip guide, and is filled the same way (:func:`pegboard.maker.hardware_docs.fill`).
"""

from __future__ import annotations

import functools
import itertools
import json
import math
import statistics
from pathlib import Path

from pegboard.board.layout import Layout
from pegboard.maker.files_docs import CASE, WORKSHOP
from pegboard.maker.hardware_docs import HEADROOM, PICO_PINS, _table, budget, fill, supply_amps
from tools.pcb import block, board, designs, fab, parts, section
from tools.pcb.model import RULES

OHMS_SQUARE = 1.72e-8 / 35e-6  # 1 oz (35 um) copper: ohms a square
# Estimates (2025, euros) for a two-layer board of this size with its rails at a budget
# fab, five made (the least most fabs make), and for assembling both sides of one: each
# side's set-up and stencil, the fee for each part outside the fab's basic stock, and
# each solder joint placed.
BOARD_EUR = {"pcb-two-track-121": 50.0, "pcb-two-track-61": 40.0}  # the five boards
SIDE_EUR = 7.5 + 7.0  # a side's set-up and its stencil
EXTENDED_EUR = 2.8  # each part not in the basic stock, once
JOINT_EUR = 0.0016  # each solder joint
SHIPPING_EUR = 25.0


def check_of(repo: Path, layout: Layout) -> dict:
    path = fab.folder(repo, layout.name) / f"{layout.name}-check.json"
    return json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}


def spacing(layout: Layout) -> tuple[float, float, float]:
    """(from a hole to the next in a group, across a group's gap, from the start hole to
    hole 1) in mm, as the layout file has them (to 0.01 mm)."""
    holes = layout.tracks[0].holes
    steps = [
        round(math.dist((a.x, a.y), (b.x, b.y)), 2)
        for a, b in itertools.pairwise(holes[1:-1])
        if a.y == b.y
    ]
    step = statistics.median(s for s in steps if s < designs.GAP_MM - 1)
    gap = statistics.median(s for s in steps if s > designs.PITCH_MM + 1)
    start = math.dist((holes[0].x, holes[0].y), (holes[1].x, holes[1].y))
    return step, gap, start


def layouts_part(repo: Path) -> str:
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "LEDs",
            "Holes",
            "Groups of five",
            "Start and game hole",
            "Rows",
            "PCB",
            "Plank",
        ),
        ("---", "---:", "---", "---", "---", "---:", "---", "---"),
    ]
    for layout in fab.pcb_layouts():
        step, gap, start = spacing(layout)
        x0, y0, x1, y1 = layout.pcb.outline
        rows.append(
            (
                f"**{layout.name}**: {layout.title}",
                sum(s.leds for s in layout.strips),
                f"{step:.2f} mm apart",
                f"{gap:.2f} mm across the gap ({gap / step:.1f} ×)",
                f"{start:.2f} mm from the street",
                f"{designs.ROW_MM:g} mm",
                f"{x1 - x0:g} × {y1 - y0:g} mm",
                f"{layout.width_mm:g} × {layout.height_mm:g} × {layout.plank_mm:g} mm",
            )
        )
    return _table(rows)


def chains_part(repo: Path) -> str:
    """Each chain's Pico pin and shifter channel, as the PCB wires them."""
    rows: list[tuple[object, ...]] = [
        ("Layout", "Chain (strip)", "LEDs", "Pico pin", "74AHCT125 in → out", "First LED"),
        ("---", "---:", "---:", "---", "---", "---"),
    ]
    for layout in fab.pcb_layouts():
        pcb = board.build(layout)
        u1 = pcb.part("U1")
        for strip in layout.strips:
            pins = {
                pad: net
                for pad, net in u1.nets.items()
                if net in (f"GP{strip.pin}", f"DATA{strip.id}")
            }
            a = next(p for p, net in pins.items() if net.startswith("GP"))
            y = next(p for p, net in pins.items() if net.startswith("DATA"))
            rows.append(
                (
                    layout.name,
                    strip.id,
                    strip.leds,
                    f"GP{strip.pin} (pin {PICO_PINS[strip.pin]})",
                    f"pin {a} → pin {y}",
                    f"D{strip.id + 1}001, under track {strip.id + 1}'s start hole",
                )
            )
    return _table(rows)


def bom_part(repo: Path) -> str:
    """One row a part: who places it, its numbers, how many on each board."""
    layouts = fab.pcb_layouts()
    counts = {layout.name: _counts(layout) for layout in layouts}
    head: list[object] = ["Part", "Value", "Manufacturer", "MPN", "LCSC", "Placed by", "About"]
    head += [layout.name for layout in layouts]
    rows: list[tuple[object, ...]] = [
        tuple(head),
        tuple(["---"] * 6 + ["---:"] * (1 + len(layouts))),
    ]
    for name, part in PARTS_LISTED.items():
        cells: list[object] = [
            name,
            part.value,
            part.manufacturer,
            f"`{part.mpn}`",
            part.lcsc or parts.BOUGHT[part.mpn],
        ]
        cells += ["the fab" if part.fab else "you", f"€{part.about_eur:.2f}"]
        cells += [counts[layout.name].get(part.mpn, 0) for layout in layouts]
        rows.append(tuple(cells))
    return _table(rows)


PARTS_LISTED = {
    "Addressable LED": parts.LED,
    "Series resistor, 0603": parts.SERIES,
    "Pull-down, 0603": parts.PULL_DOWN,
    "Decoupling, 0603: one an LED, one at the shifter": parts.DECOUPLING,
    "Level shifter, SOIC-14": parts.SHIFTER_PART,
    "Bulk capacitor, 10 × 10 mm": parts.BULK,
    "Resettable fuse, 1812": parts.FUSE,
    "Reverse-polarity P-MOSFET, SOT-23": parts.REVERSE,
    "Over-voltage clamp, SMB": parts.CLAMP,
    "Screw terminal, 5.08 mm": parts.INPUT,
    "Raspberry Pi Pico": parts.PICO,
}


def _counts(layout: Layout) -> dict[str, int]:
    found: dict[str, int] = {}
    for placed in board.build(layout).parts:
        if placed.part.mpn:
            found[placed.part.mpn] = found.get(placed.part.mpn, 0) + 1
    return found


def assembly(layout: Layout) -> tuple[float, int, int]:
    """What the fab charges to assemble one board, both sides (euros), from how many of
    its part kinds are outside its basic stock and how many joints it solders."""
    placed = [p for p in board.build(layout).parts if p.part.fab]
    extended = len({p.part.mpn for p in placed if not p.part.basic})
    joints = sum(len(p.part.land.pads) for p in placed)
    return 2 * SIDE_EUR + extended * EXTENDED_EUR + joints * JOINT_EUR, extended, joints


def cost_part(repo: Path) -> str:
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "Parts the fab places",
            "Parts you solder",
            "Five PCBs with rails*",
            "Assembly of one, both sides*",
            "Shipping*",
            "One board, about",
        ),
        ("---", "---:", "---:", "---:", "---", "---:", "---:"),
    ]
    for layout in fab.pcb_layouts():
        placed = [p.part for p in board.build(layout).parts if p.part.mpn]
        fab_eur = sum(p.about_eur for p in placed if p.fab)
        own = sum(p.about_eur for p in placed if not p.fab)
        pcbs = BOARD_EUR[layout.name]
        fee, extended, joints = assembly(layout)
        total = fab_eur + own + pcbs + fee + SHIPPING_EUR
        rows.append(
            (
                layout.name,
                f"€{fab_eur:.2f}",
                f"€{own:.2f}",
                f"€{pcbs:.0f}",
                f"€{fee:.0f}: two sides' set-up and stencil €{2 * SIDE_EUR:.0f}, "
                f"{extended} extended parts × €{EXTENDED_EUR:g}, {joints} joints",
                f"€{SHIPPING_EUR:.0f}",
                f"€{total:.0f}",
            )
        )
    return _table(rows)


def drop(layout: Layout, check: dict) -> dict:
    """The current at the brightness cap and what it costs in volts on its way to the far
    LED: the fuse, the MOSFET, and both pours from the input to that LED (all of it taken
    as drawn there: an upper bound)."""
    supply = supply_amps(budget(layout, 1.0).worst_ma)
    amps = round(supply * 1000 / HEADROOM) / 1000
    x0 = layout.pcb.outline[0]
    start = x0 + block.FET_X
    far = max(h.x for h in layout.holes())
    pours = {}
    for key, row in check.get("copper", {}).items():
        widths = [w for x, w in row if start <= x <= far]
        pours[key] = (OHMS_SQUARE * sum(1 / w for w in widths), min(widths))
    copper = sum(r for r, _ in pours.values())
    volts = amps * (parts.FUSE_OHMS + parts.FET_OHMS + copper)
    return {"supply": supply, "amps": amps, "copper_ohms": copper, "volts": volts, "pours": pours}


def check_part(repo: Path) -> str:
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "KiCad's check",
            "Unconnected pads",
            "LED current at the cap",
            "Narrowest pour across",
            "Drop at the far LED, at most",
        ),
        ("---", "---", "---:", "---:", "---", "---:"),
    ]
    for layout in fab.pcb_layouts():
        check = check_of(repo, layout)
        drc = check.get("drc", {})
        d = drop(layout, check)
        narrow = ", ".join(f"{key.split()[0]} {w:.0f} mm" for key, (_, w) in d["pours"].items())
        rows.append(
            (
                layout.name,
                f"{drc.get('errors', '?')} errors, {drc.get('warnings', '?')} warnings",
                drc.get("unconnected", "?"),
                f"{d['amps']:.1f} A (`supply_ma` {round(d['amps'] * 1000)}, "
                f"a {d['supply']} A supply)",
                narrow,
                f"{d['volts'] * 1000:.0f} mV (pours {d['copper_ohms'] * 1000:.1f} mΩ)",
            )
        )
    rules = ", ".join(
        f"{k.removeprefix('min_').replace('_', ' ')} {v:g} mm" for k, v in RULES.items()
    )
    return _table(rows) + f"\n\nThe fab's rules in each project, which KiCad checks: {rules}."


def build_part(repo: Path) -> str:
    layout = fab.pcb_layouts()[0]
    pcb = layout.pcb
    bent, open_ = section.angles(layout)
    depth = layout.skin_mm + pcb.die_mm
    r = layout.hole_mm / 2
    naive = math.degrees(math.atan(r / layout.skin_mm))
    gap, tol = designs.CLEARANCE_MM, designs.TOLERANCE_MM
    seen = section.seen(layout)
    wide, narrow = section.seen(layout, gap - tol), section.seen(layout, gap + tol)
    window, ledge = designs.window_mm(layout), designs.ledge_mm(layout)
    return "\n".join(
        [
            f"- Bores of {layout.hole_mm:g} mm through a skin of {layout.skin_mm:g} mm, the die "
            f"{pcb.die_mm:g} mm under each LED's face: were the face on the skin, the ray from "
            f"the die past the rim would leave at α = atan({r:g} / {depth:g}) = {open_:.1f}° "
            f"from vertical, all an open bore shows, and the epoxy's flat top would bend it out "
            f"to θ = asin({layout.fill_index:g} × sin {open_:.1f}°) = {bent:.1f}°.",
            f"- Taking the light as starting at the face instead would give atan({r:g} / "
            f"{layout.skin_mm:g}) = {naive:.0f}°, and every ray out through the epoxy: the die's "
            "depth is what holds it to the figure above.",
            f"- The window is {window:g} mm deep: the LED's height ({pcb.led_mm:g} mm, its "
            f"datasheet's), {designs.SOLDER_MM:g} mm of solder under it, and {gap:g} mm of air "
            f"(± {tol:g} mm, the router's depth), so no LED ever touches the wood and the "
            "screws press only the PCB's edge on the ledge.",
            f"- That air costs light at the edge of the cone: the ray bends out into the air "
            f"and back into the epoxy, and the LED shows to {seen:.0f}° instead of {bent:.0f}° "
            f"({wide:.0f}° at {gap - tol:g} mm, {narrow:.0f}° at {gap + tol:g} mm); the strip "
            "boards show 47–54°.",
            f"- The ledge round the window is {ledge:g} mm of wood: the skin and the window, so "
            "the PCB's face bears on it with the LEDs' faces "
            f"{gap:g} mm under the skin.",
        ]
    )


def files_part(repo: Path) -> str:
    rows: list[tuple[object, ...]] = [
        (
            "Layout",
            "KiCad project",
            "Fab files (Gerbers, drill, BOM, placement)",
            "Pictures",
            "Drilling template",
            "Workshop",
            "Case",
        ),
        ("---", "---", "---", "---", "---", "---", "---"),
    ]
    for layout in fab.pcb_layouts():
        name = layout.name
        here = f"pcb/{name}/{name}"
        workshop = ", ".join(f"[{end}](templates/{name}-{end})" for end, _ in WORKSHOP)
        case = ", ".join(f"[{end}](case/{name}-{end})" for end, _ in CASE)
        rows.append(
            (
                name,
                f"[{name}.kicad_pro]({here}.kicad_pro), [{name}.kicad_pcb]({here}.kicad_pcb)",
                f"[{name}-fab.zip]({here}-fab.zip)",
                f"[top]({here}-top.png), [bottom]({here}-bottom.png)",
                f"[SVG](templates/{name}.svg), [DXF](templates/{name}.dxf), "
                f"[PDF A4](templates/{name}-a4.pdf), [PDF Letter](templates/{name}-letter.pdf)",
                workshop,
                case,
            )
        )
    return _table(rows)


PARTS = {
    "pcb-layouts": layouts_part,
    "pcb-chains": chains_part,
    "pcb-bom": bom_part,
    "pcb-cost": cost_part,
    "pcb-check": check_part,
    "pcb-build": build_part,
    "pcb-files": files_part,
}


def generated(repo: Path) -> dict[Path, str]:
    hardware = repo / "hardware"
    path = hardware / "PCB.md"
    first = fab.pcb_layouts()[0]
    files = {hardware / "pcb" / "section.svg": section.section_svg(first)}
    if path.exists():
        made = {name: functools.partial(make, repo) for name, make in PARTS.items()}
        files[path] = fill(path.read_text(encoding="utf-8"), made)
    return files
