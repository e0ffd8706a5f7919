"""The PCB boards from their layout files: a real cribbage board's holes, one LED under each
named by its place in its chain, the PCB's parts and copper drawn from the same file (each
LED centred under its hole, each chain wired LED to LED in the order of play), the top
plate's template drilled over the LEDs, and the layout reader's refusals."""

from __future__ import annotations

import itertools
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import ezdxf
import pytest
from test_i18n_calls import TRANSLATED
from test_i18n_errors import english_left

from pegboard.board.build import pockets, viewing_angle
from pegboard.board.layout import layout_names, layouts_folder, load_layout, parse_layout
from pegboard.errors import LayoutError
from pegboard.i18n import phrase_of
from pegboard.maker.hardware_docs import PICO_PINS
from tools.pcb import board, designs, parts, section

PCB = layout_names("pcb")
TEMPLATES = Path(__file__).resolve().parents[1] / "hardware" / "templates"
SVG = "{http://www.w3.org/2000/svg}"


def test_the_121_board_and_the_english_board_come_as_pcbs_beside_the_strip_boards():
    assert PCB == ("pcb-two-track-121", "pcb-two-track-61")
    assert set(layout_names()) == set(PCB) | set(layout_names("strip"))
    full, english = (load_layout(name) for name in PCB)
    assert (full.game, full.laps, len(full.tracks)) == (121, 1, 2)
    assert (english.game, english.laps, len(english.tracks)) == (61, 3, 2)
    assert full.strip_kind is None and full.pcb.led == "WS2812B-2020"


@pytest.mark.parametrize("name", PCB)
def test_each_hole_has_its_own_led_named_by_its_place_in_its_chain(name):
    layout = load_layout(name)
    for track in layout.tracks:
        chain = sorted([*track.holes, *track.lap_marks], key=lambda h: h.led)
        assert {h.strip for h in chain} == {track.index}
        assert [h.led for h in chain] == list(range(len(chain)))  # no LED without a hole
        assert layout.strips[track.index].leds == len(chain)
        holes = [(False, n) for n in range(layout.game + 1)]
        laps = [(True, lap) for lap in range(2, layout.laps + 1)]
        assert [(h.lap_mark, h.number) for h in chain] == holes + laps  # the order of play


def street_steps(layout, track):
    """(hole n, mm to hole n + 1) along each street of a track."""
    holes = layout.tracks[track].holes
    return [
        (n, math.dist((a.x, a.y), (b.x, b.y)))
        for n, (a, b) in enumerate(itertools.pairwise(holes[1:-1]), 1)
        if a.y == b.y
    ]


@pytest.mark.parametrize("name", PCB)
def test_groups_of_five_stand_apart_and_the_start_and_game_holes_further(name):
    layout = load_layout(name)
    pitch = layout.pcb.pitch_mm
    assert pitch == 6.35
    for track in range(len(layout.tracks)):
        steps = street_steps(layout, track)
        gaps = [mm for n, mm in steps if n % 5 == 0]
        inside = [mm for n, mm in steps if n % 5]
        assert max(abs(mm - pitch) for mm in inside) < 0.011  # to the file's 0.01 mm
        assert len(gaps) >= 10 and min(gaps) >= 1.3 * pitch
        holes = layout.tracks[track].holes
        start = math.dist((holes[0].x, holes[0].y), (holes[1].x, holes[1].y))
        end = holes[layout.game - 1], holes[layout.game]
        game = math.dist((end[0].x, end[0].y), (end[1].x, end[1].y))
        assert min(start, game) > max(gaps) + 1  # set apart, wider than any gap in a street


@pytest.mark.parametrize("name", PCB)
def test_the_rows_stand_as_close_as_the_bores_allow_not_as_a_strip_allows(name):
    layout = load_layout(name)
    rows = sorted({h.y for h in layout.holes()})
    closest = min(b - a for a, b in itertools.pairwise(rows))
    assert closest == pytest.approx(designs.ROW_MM, abs=0.011)
    assert closest < 12 + 1  # a strip's width and 1 mm: the strip boards' least
    assert closest - layout.hole_mm >= 2  # wood between two bores
    assert board.row_limit() < closest - 2  # the LED would go closer


def refusals() -> list[tuple[str, str]]:
    """Broken copies of a PCB layout, each with what its refusal says (a regex)."""
    text = (layouts_folder() / "pcb-two-track-61.toml").read_text(encoding="utf-8")
    strip = "\n[strip]\nleds_per_m = 144\npitch_mm = 6.944\nwidth_mm = 12\nreel_m = 1\n"
    first = load_layout("pcb-two-track-61").hole(0, 1)
    screw = f"x = {first.x:.2f}\ny = {first.y + 2:.2f}"
    return [
        (
            text.replace("\n[board]", strip + "\n[board]", 1),
            r"on strips \(\[strip\]\) or on a PCB \(\[pcb\]\), not both",
        ),
        (
            re.sub(r"(hole = 1, x = [\d.]+, y = )[\d.]+", r"\g<1>70", text, count=1),
            r"hole t0h1 at \([\d.]+, 70\) mm is off the PCB",
        ),
        (
            text.replace("x = 328.10\ny = 60.90", "x = 332.10\ny = 60.90", 1),
            r"mounting hole 5 at \(332.1, 60.9\) mm is off the PCB",
        ),
        (
            re.sub(r"x = 17.50\ny = 17.50", screw, text, count=1),
            r"mounting hole 0 at .* runs into hole t0h1",
        ),
        (
            text.replace("width_mm = 320.60", "width_mm = 420.60", 1),
            r"the PCB \(12.5-433.1 x .*\) is off the 345.6 x 78.4 mm board",
        ),
    ]


def test_a_pcb_layout_is_refused_where_it_cannot_be_built():
    for text, said in refusals():
        with pytest.raises(LayoutError, match=said):
            parse_layout(text, "board.toml")


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_refusal_of_a_pcb_layout_is_said_in_the_language(lang):
    for text, _ in refusals():
        with pytest.raises(LayoutError) as error:
            parse_layout(text, "board.toml")
        said = phrase_of(error.value).say(lang)
        assert said != str(error.value) and not english_left(said, lang), said


# --- the PCB from the same file ------------------------------------------------------


@pytest.fixture(scope="module", params=PCB)
def built(request):
    layout = load_layout(request.param)
    return layout, board.build(layout)


def test_every_led_sits_centred_under_its_hole(built):
    layout, pcb = built
    leds = {(p.x, p.y): p for p in pcb.parts if p.part is parts.LED}
    assert len(leds) == sum(1 for _ in layout.holes())
    for hole in layout.holes():
        led = leds[(hole.x, hole.y)]
        centre = [sum(c) / 4 for c in zip(*(led.at(n) for n in "1234"), strict=True)]
        assert math.dist(centre, (hole.x, hole.y)) < 1e-9
        assert led.nets["3"] == board.data(hole.strip, hole.led)  # DIN from the LED before


def on_segment(p, a, b, within):
    (x, y), (ax, ay), (bx, by) = p, a, b
    length = math.dist(a, b)
    if length == 0:
        return math.dist(p, a) <= within
    k = max(0.0, min(1.0, ((x - ax) * (bx - ax) + (y - ay) * (by - ay)) / length**2))
    return math.dist(p, (ax + k * (bx - ax), ay + k * (by - ay))) <= within


def connected(pcb, net):
    """The groups of copper of one net, joined where tracks, vias and pads meet (a track's
    end anywhere on a pad): each group the set of pads (ref, number) in it."""
    parent: dict[tuple, tuple] = {}

    def find(k):
        while parent.setdefault(k, k) != k:
            k = parent[k]
        return k

    def join(a, b):
        parent[find(a)] = find(b)

    ends = []  # (layer, x, y)
    for t in (t for t in pcb.tracks if t.net == net):
        a, b = (t.layer, *t.a), (t.layer, *t.b)
        join(a, b)
        ends += [a, b]
    tracks = [t for t in pcb.tracks if t.net == net]
    for end in list(ends):  # a track ending on another one's middle
        for t in tracks:
            if t.layer == end[0] and on_segment(end[1:], t.a, t.b, t.width / 2):
                join(end, (t.layer, *t.a))
    for v in (v for v in pcb.vias if v.net == net):
        join(("F.Cu", *v.at), ("B.Cu", *v.at))
        ends += [("F.Cu", *v.at), ("B.Cu", *v.at)]
    pads = {}
    for p in pcb.parts:
        for number, name in p.nets.items():
            if name != net:
                continue
            pad = p.part.land.pad(number)
            layer = "B.Cu" if p.bottom else "F.Cu"
            x, y = p.at(number)
            w, h = (pad.height, pad.width) if p.rotation % 180 else (pad.width, pad.height)
            pads[(p.ref, number)] = (layer, x, y)
            for end in ends:
                on = end[0] == layer or pad.drill
                if on and abs(end[1] - x) <= w / 2 + 1e-6 and abs(end[2] - y) <= h / 2 + 1e-6:
                    join(end, (layer, x, y))
            find((layer, x, y))
    groups: dict[tuple, set] = {}
    for pad, k in pads.items():
        groups.setdefault(find(k), set()).add(pad)
    return list(groups.values())


def test_each_chain_is_wired_from_the_pico_pin_through_the_shifter_led_by_led(built):
    layout, pcb = built
    pico = pcb.part("U2")
    for strip in layout.strips:
        chain = sorted((h for h in layout.holes() if h.strip == strip.id), key=lambda h: h.led)
        refs = [next(p.ref for p in pcb.parts if (p.x, p.y) == (h.x, h.y)) for h in chain]
        for before, after in itertools.pairwise(refs):
            net = pcb.part(after).nets["3"]
            assert connected(pcb, net) == [{(before, "1"), (after, "3")}]  # DOUT to DIN
        [into] = connected(pcb, board.data(strip.id, 0))
        resistor = next(ref for ref, _ in into if ref.startswith("R"))
        assert into == {(resistor, "2"), (refs[0], "3")}
        [wire] = connected(pcb, f"DATA{strip.id}")
        assert {ref for ref, _ in wire} == {resistor, "U1"}
        [gp] = connected(pcb, f"GP{strip.pin}")
        assert (pico.ref, str(PICO_PINS[strip.pin])) in gp
        assert {ref for ref, _ in gp} == {"U2", "U1", "R3" if strip.id == 0 else "R4"}


def test_power_reaches_each_led_through_the_fuse_and_the_reverse_polarity_fet(built):
    _layout, pcb = built
    for placed in (p for p in pcb.parts if p.part is parts.LED):
        assert (placed.nets["4"], placed.nets["2"]) == ("+5V", "GND")  # to the pours
    for net, ends in (("VIN", {("J1", "1"), ("F1", "1")}), ("VFUSED", {("F1", "2"), ("Q1", "3")})):
        assert connected(pcb, net) == [ends]
    assert pcb.part("Q1").nets == {"1": "GND", "2": "+5V", "3": "VFUSED"}  # gate grounded
    zones = {(z.net, z.layer) for z in pcb.zones}
    assert {("+5V", "F.Cu"), ("GND", "B.Cu")} <= zones


# --- the top plate from the same file ------------------------------------------------


@pytest.mark.parametrize("name", PCB)
def test_the_plate_is_drilled_over_the_leds_and_screwed_at_the_mounting_holes(name):
    layout = load_layout(name)
    pcb = board.build(layout)
    root = ET.parse(TEMPLATES / f"{name}.svg").getroot()
    layers = {g.get("id"): g for g in root.iter(f"{SVG}g") if g.get("class") == "layer"}
    bores = {(float(c.get("cx")), float(c.get("cy"))) for c in layers["holes"].iter(f"{SVG}circle")}
    assert bores == {(p.x, p.y) for p in pcb.parts if p.part is parts.LED}
    screws = {
        (float(c.get("cx")), float(c.get("cy"))) for c in layers["mounting"].iter(f"{SVG}circle")
    }
    assert (
        screws
        == {(p.x, p.y) for p in pcb.parts if p.part is parts.SCREW}
        == set(layout.pcb.mounting)
    )
    assert {float(c.get("r")) for c in layers["mounting"].iter(f"{SVG}circle")} == {1.6}
    doc = ezdxf.readfile(TEMPLATES / f"{name}.dxf")
    circles = doc.modelspace().query('CIRCLE[layer=="MOUNTING"]')
    found = {
        (round(c.dxf.center.x, 2), round(layout.height_mm - c.dxf.center.y, 2)) for c in circles
    }
    assert found == {(round(x, 2), round(y, 2)) for x, y in layout.pcb.mounting}


@pytest.mark.parametrize("name", PCB)
def test_the_pocket_holds_the_pcb_and_its_window_every_led_and_soldered_pin(name):
    layout = load_layout(name)
    pcb = board.build(layout)
    pocket, window = pockets(layout)
    x0, y0, x1, y1 = layout.pcb.outline
    assert (pocket.x0, pocket.y0, pocket.x1, pocket.y1) == (x0 - 0.5, y0 - 0.5, x1 + 0.5, y1 + 0.5)
    through = [p for p in pcb.parts if p.part.land.through_hole and p.part is not parts.SCREW]
    pins = [p.at(pad.number) for p in through for pad in p.part.land.pads]
    inside = [(h.x, h.y) for h in layout.holes()] + pins
    assert all(
        window.x0 + 2 < x < window.x1 - 2 and window.y0 + 2 < y < window.y1 - 2 for x, y in inside
    )
    head = section.HEAD[0] / 2  # a countersunk head bears on the ledge, clear of the window
    for x, y in layout.pcb.mounting:
        assert not (
            window.x0 - head < x < window.x1 + head and window.y0 - head < y < window.y1 + head
        )


@pytest.mark.parametrize("name", PCB)
def test_the_viewing_angle_counts_the_die_inside_its_package(name):
    layout = load_layout(name)
    bent, open_ = section.angles(layout)
    assert bent >= 60 > open_
    # Light taken as leaving the LED's face would give a wider, untrue angle.
    assert viewing_angle(layout.hole_mm, layout.skin_mm, layout.fill_index) > bent + 20
    depth = layout.skin_mm + layout.pcb.die_mm
    assert math.tan(math.radians(open_)) == pytest.approx(layout.hole_mm / 2 / depth)
