"""The PCB of a layout: every part placed and every copper track, via and pour, in the
board's millimetres (the plank's top left corner, y down), ready to write for KiCad.

The LEDs sit on the top, centred under their holes, each turned so its data runs the way
its row runs (DIN to DOUT), each with its own 100 nF across its supply beside its ground
via, as the LED's datasheet draws its application circuit. Consecutive LEDs of a row are
joined on the top copper; at a street's end the chain dives through a via and runs on
the bottom to the next street. The top copper is one 5 V pour reaching every LED's VDD
pad; the bottom is one ground pour, each LED's ground pad reaching it through its own
via. Everything else (the Pico, the level shifter, the power input) sits underneath in a
block left of the holes (:mod:`tools.pcb.block`), except each chain's series resistor, on
top by its first LED. Along both long edges runs a rail for the assembler's conveyor,
V-scored off once the board is made, with three fiducials on each side for its cameras.

>>> from pegboard.board.layout import load_layout
>>> pcb = build(load_layout("pcb-two-track-61"))
>>> sum(p.part is parts.LED for p in pcb.parts), len(pcb.zones)
(128, 3)
>>> [sum(p.part is part for p in pcb.parts) for part in (parts.DECOUPLING, parts.FIDUCIAL)]
[129, 6]
"""

from __future__ import annotations

from pegboard.board.geometry import Hole, Layout
from tools.pcb import block, kicad, parts
from tools.pcb.model import GROUND_MM, VIA, VIA_OFFSET, Board, Point, Via, Zone
from tools.pcb.parts import LED_PADS

TURN_MM, TURN_STEP = 3.0, 1.5  # the vias at a street's end, past its last LED, per chain
SERIES_MM = 4.0  # a chain's series resistor before its first LED's DIN
LABEL_MM = 2.65  # a hole's label beside its LED, away from the ground via, clear of the bore
LABEL_SIZE_MM = 0.9
CAP_AT = (1.0, 2.05)  # an LED's 100 nF from its centre: back along the row, out past its via
CAP_REF_AT = (-1.8, 0.0)  # its reference (its own frame): upright, beyond its 5 V pad
REF_AT = (-2.55, 0.0)  # an LED's reference on the silk (its own frame): upright, DOUT side
REF_TURN_AT = (-2.3, -3.7)  # ... or, before a street's turn, past its hole's label
RAIL_MM = 5.0  # each assembly rail, beyond the board's long edges
FIDUCIAL_INSET_MM = 5.0  # a fiducial's centre from the rail's end
POUR_INSET_MM = 0.5  # the pours stop this far inside the board: clear of the V-score


def row_limit() -> float:
    """How close two rows of LEDs could stand for the part alone: a row's ground vias
    (beyond its pads), the pour's clearance, the narrowest 5 V copper the pour keeps, its
    clearance again, and the next row's pads.

    >>> round(row_limit(), 2)
    3.6
    """
    ground = parts.LED_LAND.pad(LED_PADS["GND"])
    via_edge = abs(ground.y) + VIA_OFFSET + VIA[0] / 2
    pads = abs(ground.y) + ground.height / 2
    return via_edge + 2 * kicad.ZONE_CLEARANCE + kicad.ZONE_MIN + pads


def chains(layout: Layout) -> list[list[Hole]]:
    """Each strip's holes (peg holes and lap marks), in LED order."""
    return [
        sorted((h for h in layout.holes() if h.strip == s.id), key=lambda h: h.led)
        for s in layout.strips
    ]


def pad(x: float, y: float, d: int, name: str) -> Point:
    """Where an LED's pad is, its row running ``d``: turned 180 degrees for +1."""
    at = parts.LED_LAND.pad(LED_PADS[name])
    return (x - d * at.x, y - d * at.y)


def leds(pcb: Board, layout: Layout) -> None:
    """Every LED, its ground via, and the data from each to the next."""
    for c, chain in enumerate(chains(layout)):
        ways = [row_way(chain, i) for i in range(len(chain))]
        for i, hole in enumerate(chain):
            d = ways[i]
            nets = {"p2": "GND", "p4": "+5V", "p3": data(c, i)}
            if i + 1 < len(chain):
                nets["p1"] = data(c, i + 1)
            led = pcb.add(
                f"D{c + 1}{i + 1:03d}", parts.LED, (hole.x, hole.y), 180 if d > 0 else 0, **nets
            )
            turns = i + 1 < len(chain) and chain[i + 1].y != hole.y
            led.label, led.label_angle = (REF_TURN_AT, 0.0) if turns else (REF_AT, 90.0)
            gx, gy = pad(hole.x, hole.y, d, "GND")
            via = (gx, gy - d * VIA_OFFSET)
            pcb.path("GND", "F.Cu", [(gx, gy), via], GROUND_MM)
            pcb.vias.append(Via(via, "GND"))
            cap = pcb.add(
                f"C{c + 1}{i + 1:03d}",
                parts.DECOUPLING,
                (hole.x - d * CAP_AT[0], hole.y - d * CAP_AT[1]),
                0 if d > 0 else 180,
                p1="+5V",
                p2="GND",
            )
            cap.label, cap.label_angle = CAP_REF_AT, 90.0
            end = cap.at("2")
            pcb.path("GND", "F.Cu", [end, (via[0], end[1]), via], GROUND_MM)
        for i in range(len(chain) - 1):
            a, b = chain[i], chain[i + 1]
            if a.y == b.y:
                along_row(pcb, data(c, i + 1), a, b, ways[i])
            else:
                turn(pcb, data(c, i + 1), a, b, ways[i], c)


def row_way(chain: list[Hole], i: int) -> int:
    """+1 where LED ``i``'s row runs left to right (its data flows to +x), else -1."""
    here = chain[i]
    if i + 1 < len(chain) and chain[i + 1].y == here.y:
        return 1 if chain[i + 1].x > here.x else -1
    if i and chain[i - 1].y == here.y:
        return 1 if here.x > chain[i - 1].x else -1
    return 1


def data(chain: int, led: int) -> str:
    """The net into LED ``led`` of a chain (from the one before, or from the shifter)."""
    return f"D{chain}-{led}"


def along_row(pcb: Board, net: str, a: Hole, b: Hole, d: int) -> None:
    """DOUT of ``a`` to DIN of ``b`` in one row: along, across at 45 degrees midway, along."""
    (x0, y0), (x1, y1) = pad(a.x, a.y, d, "DOUT"), pad(b.x, b.y, d, "DIN")
    mid = (a.x + b.x) / 2
    half = abs(y1 - y0) / 2
    pcb.path(net, "F.Cu", [(x0, y0), (mid - d * half, y0), (mid + d * half, y1), (x1, y1)])


def turn(pcb: Board, net: str, a: Hole, b: Hole, d: int, chain: int) -> None:
    """DOUT of a street's last LED to DIN of the next street's first: out past the end,
    down a via, along the bottom to the next street's row, up a via and in."""
    (x0, y0), (x1, y1) = pad(a.x, a.y, d, "DOUT"), pad(b.x, b.y, -d, "DIN")
    x = (
        max(a.x, b.x) + TURN_MM + chain * TURN_STEP
        if d > 0
        else min(a.x, b.x) - TURN_MM - chain * TURN_STEP
    )
    pcb.path(net, "F.Cu", [(x0, y0), (x, y0)])
    pcb.path(net, "B.Cu", [(x, y0), (x, y1)])
    pcb.path(net, "F.Cu", [(x, y1), (x1, y1)])
    pcb.vias += [Via((x, y0), net), Via((x, y1), net)]


def series(pcb: Board, layout: Layout) -> list[Point]:
    """Each chain's 390 ohm resistor on top before its first LED's DIN: where each
    takes the shifter's output (its first pad), by chain."""
    inputs = []
    for c, chain in enumerate(chains(layout)):
        first = chain[0]
        d = row_way(chain, 0)
        x, y = pad(first.x, first.y, d, "DIN")
        r = pcb.add(
            f"R{c + 1}",
            parts.SERIES,
            (x - d * SERIES_MM, y),
            0 if d > 0 else 180,
            p1=f"DATA{c}",
            p2=data(c, 0),
        )
        pcb.path(data(c, 0), "F.Cu", [r.at("2"), (x, y)])
        inputs.append(r.at("1"))
    return inputs


def labels(pcb: Board, layout: Layout) -> None:
    """On the top's silk beside its LED: S, every fifth hole, G and the lap marks, to find
    a hole on the bare PCB when the doctor names it."""
    for chain in chains(layout):
        for i, hole in enumerate(chain):
            if hole.lap_mark:
                text = f"L{hole.number}"
            elif hole.number in (0, layout.game):
                text = "S" if hole.number == 0 else "G"
            elif hole.number % 5 == 0:
                text = str(hole.number)
            else:
                continue
            pcb.texts.append(
                (text, (hole.x, hole.y + row_way(chain, i) * LABEL_MM), "F.SilkS", LABEL_SIZE_MM)
            )


def mounting(pcb: Board, layout: Layout) -> None:
    assert layout.pcb is not None
    for n, (x, y) in enumerate(layout.pcb.mounting, 1):
        pcb.add(f"H{n}", parts.SCREW, (x, y))


def pours(pcb: Board) -> None:
    """5 V over the whole top, ground over the whole bottom, short of the V-score."""
    x0, y0, x1, y1 = pcb.outline
    i = POUR_INSET_MM
    box = (x0 + i, y0 + i, x1 - i, y1 - i)
    pcb.zones += [Zone("+5V", "F.Cu", box), Zone("GND", "B.Cu", box)]


def fiducials(pcb: Board) -> None:
    """The rails, and three fiducials on each side for the assembler's cameras: two on
    the upper rail's ends and one at the lower rail's left end, so the board cannot be
    taken the wrong way round."""
    pcb.rails = RAIL_MM
    x0, y0, x1, y1 = pcb.outline
    top, low = y0 - RAIL_MM / 2, y1 + RAIL_MM / 2
    at = [(x0 + FIDUCIAL_INSET_MM, top), (x1 - FIDUCIAL_INSET_MM, top)]
    at.append((x0 + FIDUCIAL_INSET_MM, low))
    for k, bottom in enumerate((False, True)):
        for j, point in enumerate(at):
            fid = pcb.add(f"FID{3 * k + j + 1}", parts.FIDUCIAL, point, 0, bottom)
            fid.label = (3.0, 0.0)


def build(layout: Layout) -> Board:
    """The PCB of a PCB layout."""
    assert layout.pcb is not None, f"{layout.name} has its LEDs on strips, not on a PCB"
    pcb = Board(layout.name, layout.pcb.outline)
    leds(pcb, layout)
    inputs = series(pcb, layout)
    labels(pcb, layout)
    mounting(pcb, layout)
    pours(pcb)
    fiducials(pcb)
    block.electronics(pcb, layout, inputs)
    return pcb
