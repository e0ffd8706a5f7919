"""Board layouts: the shipped boards, their geometry from the strip, where a score is pegged,
and the refusal of inconsistent or unbuildable layouts."""

import itertools
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pegboard.board.layout import layout_names, layouts_folder, load_layout, parse_layout
from pegboard.errors import ConfigError, LayoutError
from pegboard.game.settings import PALETTE

SHIPPED = {  # tracks, game hole, laps
    "two-track-121": (2, 121, 1),
    "three-track-121": (3, 121, 1),
    "two-track-61": (2, 61, 3),
    "three-track-61": (3, 61, 3),
}

# A tiny board: one track of holes 0..6 on one strip of 125 LEDs a metre (8 mm apart),
# a dark LED between holes 5 and 6.
TINY = """
name = "tiny"
game = 6
[strip]
leds_per_m = 125
pitch_mm = 8
width_mm = 12
reel_m = 1
[board]
width_mm = 80
height_mm = 40
hole_mm = 3
plank_mm = 18
skin_mm = 3
fill_index = 1.5
[[strips]]
id = 0
pin = 2
leds = 8
[[tracks]]
name = "Red"
colour = "#ff0000"
holes = [
  { hole = 0, x = 5, y = 10, strip = 0, led = 0 },
  { hole = 1, x = 13, y = 10, strip = 0, led = 1 },
  { hole = 2, x = 21, y = 10, strip = 0, led = 2 },
  { hole = 3, x = 29, y = 10, strip = 0, led = 3 },
  { hole = 4, x = 37, y = 10, strip = 0, led = 4 },
  { hole = 5, x = 45, y = 10, strip = 0, led = 5 },
  { hole = 6, x = 61, y = 10, strip = 0, led = 7 },
]
"""


def second_track(y: float) -> str:
    """TINY with a second track on its own strip, ``y`` mm from the top."""
    holes = ", ".join(
        f"{{ hole = {n}, x = {x}, y = {y}, strip = 1, led = {led} }}"
        for n, (x, led) in enumerate([(5, 0), (13, 1), (21, 2), (29, 3), (37, 4), (45, 5), (61, 7)])
    )
    strip = "[[strips]]\nid = 1\npin = 3\nleds = 8\n"
    return TINY.replace("[[tracks]]", strip + "[[tracks]]", 1) + (
        f'[[tracks]]\ncolour = "#0000ff"\nholes = [{holes}]\n'
    )


def test_shipped_layouts_are_listed():
    assert set(layout_names("strip")) == set(SHIPPED)  # and the PCB boards: tests/test_pcb.py


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_shipped_layout_has_every_hole_on_its_own_led(name):
    layout = load_layout(name)
    tracks, game, laps = SHIPPED[name]
    assert (len(layout.tracks), layout.game, layout.laps) == (tracks, game, laps)
    for track in layout.tracks:
        assert [h.number for h in track.holes] == list(range(game + 1))
        assert [m.number for m in track.lap_marks] == list(range(2, laps + 1))
    leds = [(h.strip, h.led) for h in layout.holes()]
    assert len(leds) == tracks * (game + 1 + laps - 1)
    assert len(set(leds)) == len(leds)
    assert all(0 <= led < layout.strips[strip].leds for strip, led in leds)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_holes_in_a_group_of_five_sit_one_led_apart_at_the_strips_pitch(name):
    """What is drilled matches the strip: next holes in a group are next LEDs, 1000/144 mm."""
    layout = load_layout(name)
    assert layout.strip_kind.leds_per_m == 144
    for track in layout.tracks:
        for n in range(1, layout.game - 1):
            if n % 5 == 0:
                continue  # the gap after each group of five
            a, b = track.holes[n], track.holes[n + 1]
            if a.y != b.y:
                continue  # the turn to the next street
            assert a.strip == b.strip and abs(a.led - b.led) == 1, (a.id, b.id)
            assert math.isclose(abs(a.x - b.x), 1000 / 144, abs_tol=0.02), (a.id, b.id)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_strips_under_two_rows_of_holes_have_room_side_by_side(name):
    """Holes on different rows (two tracks, or two streets) are at least a strip's width
    plus 1 mm apart, so two strips fit under them: 13 mm for a 12 mm strip."""
    layout = load_layout(name)
    assert layout.strip_kind.width_mm == 12
    rows = sorted({h.y for h in layout.holes()})
    assert min(b - a for a, b in itertools.pairwise(rows)) >= 12 + 1


def test_tracks_too_close_for_their_strips_are_refused_naming_the_holes():
    """The old boards put tracks 8 mm apart over strips 10-12 mm wide."""
    assert len(parse_layout(second_track(10 + 13), "tiny").tracks) == 2
    with pytest.raises(LayoutError, match=r"holes t0h0 and t1h0 are 8.0 mm apart over two strips"):
        parse_layout(second_track(10 + 8), "tiny")
    with pytest.raises(LayoutError, match=r"carriers 12.5 mm wide need 13 mm"):
        parse_layout(second_track(10 + 12.9), "tiny")


def test_a_shipped_board_with_its_tracks_moved_closer_is_refused(tmp_path):
    """Track 1 of the two-track board moved up to 8 mm below track 0."""
    text = (layouts_folder() / "two-track-121.toml").read_text()
    board = load_layout("two-track-121")
    gap = board.hole(1, 5).y - board.hole(0, 5).y
    assert gap >= 13
    for street_y in {h.y for h in board.tracks[1].holes}:
        text = text.replace(
            f"y = {street_y:.2f}, strip = 1", f"y = {street_y - gap + 8:.2f}, strip = 1"
        )
    path = tmp_path / "close.toml"
    path.write_text(text)
    with pytest.raises(LayoutError, match=r"close.toml: holes t0h\d+ and t1h\d+ are 8.0 mm apart"):
        load_layout(path)


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_every_carrier_fits_its_pocket_with_air_each_side_and_clear_of_the_bits_corners(name):
    """Carriers side by side in one pocket, and the pocket's rounded corners, leave every
    carrier the layout's fit: the old guide's 14 mm carriers filled 28 mm pockets."""
    from pegboard.board.build import JOINT_MM, channel, pieces, pockets

    layout = load_layout(name)
    carrier, fit, r = layout.carrier_mm, layout.fit_mm, layout.bit_mm / 2
    assert carrier >= layout.strip_kind.width_mm + 0.5 and fit > 0
    rows = sorted({h.y for h in layout.holes()})
    for pocket in pockets(layout):
        inside = [y for y in rows if pocket.y0 < y < pocket.y1]
        taken = len(inside) * carrier + (len(inside) + 1) * fit
        assert pocket.y1 - pocket.y0 >= taken - 1e-9, (pocket, inside)
        assert min(y - pocket.y0 for y in inside) >= carrier / 2 + fit - 1e-9
        assert min(pocket.y1 - y for y in inside) >= carrier / 2 + fit - 1e-9
    for piece in pieces(layout):  # a carrier the piece's length, in its channel
        box = channel(layout, piece)
        length = piece.leds * layout.strip_kind.pitch_mm
        assert box.x1 - box.x0 - length >= 2 * JOINT_MM - 1e-6
        assert r <= JOINT_MM  # the bit's round corner stays in the joint's room


def test_a_measured_pitch_is_taken_and_the_layouts_redrawn_at_it(tmp_path):
    """48 LEDs measured at 334.5 mm (6.969 mm a LED, not 6.944): every hole moves to it."""
    from pegboard.board.build import pieces
    from tools import layouts

    for path, text in layouts.generated(tmp_path, strip_48_mm=334.5).items():
        measured = parse_layout(text, path.stem)
        shipped = load_layout(path.stem)
        assert math.isclose(measured.strip_kind.pitch_mm, 334.5 / 48, abs_tol=0.001)
        assert "measured: 48 LEDs in 334.5 mm" in text
        a, b = measured.hole(0, 2), measured.hole(0, 3)
        assert math.isclose(b.x - a.x, 334.5 / 48, abs_tol=0.011)
        assert [p.leds for p in pieces(measured)] == [p.leds for p in pieces(shipped)]
        assert [(h.strip, h.led) for h in measured.holes()] == [
            (h.strip, h.led) for h in shipped.holes()
        ]  # the Pi's own layout still lights the right LEDs
    with pytest.raises(LayoutError, match=r"pitch_mm = 7.5, but 144 LEDs a metre are 6.944 mm"):
        layouts.generated(tmp_path, strip_48_mm=360)


def test_121_board_has_three_streets_of_forty():
    layout = load_layout("two-track-121")
    rows = {}
    for hole in layout.tracks[0].holes[1:121]:
        rows.setdefault(hole.y, []).append(hole.number)
    assert sorted(len(r) for r in rows.values()) == [40, 40, 40]


def test_english_board_runs_out_and_back_with_its_lap_marks_past_the_game_hole():
    layout = load_layout("two-track-61")
    track = layout.tracks[0]
    out, back = track.holes[1:31], track.holes[31:61]
    assert len({h.y for h in out}) == len({h.y for h in back}) == 1
    assert [h.x for h in out] == sorted(h.x for h in out)  # left to right
    assert [h.x for h in back] == sorted((h.x for h in back), reverse=True)  # and back
    start, game = track.holes[0], track.holes[61]
    assert start.x < track.holes[1].x and game.x < track.holes[60].x
    assert [m.x for m in track.lap_marks] == sorted((m.x for m in track.lap_marks), reverse=True)
    assert track.lap_marks[0].x < game.x and track.lap_marks[0].y == game.y
    assert [m.led for m in track.lap_marks] == [game.led + 2, game.led + 3]


def test_every_track_has_its_own_strip_on_its_own_pin():
    for name in SHIPPED:
        layout = load_layout(name)
        assert [s.pin for s in layout.strips] == list(range(2, 2 + len(layout.tracks)))
        for track in layout.tracks:
            assert {h.strip for h in (*track.holes, *track.lap_marks)} == {track.index}


@pytest.mark.parametrize("name", sorted(SHIPPED))
def test_track_colours_are_the_games_palette_and_names_say_which_track(name):
    layout = load_layout(name)
    palette = ["#{:02x}{:02x}{:02x}".format(*t.colour) for t in layout.tracks]
    assert palette == [c.lower() for c in PALETTE[: len(layout.tracks)]]
    assert [t.name for t in layout.tracks] == [f"Track {i}" for i in range(1, len(palette) + 1)]


def test_the_shipped_layouts_are_what_the_generator_makes():
    from tools import layouts

    repo = layouts_folder().parents[1]
    for path, text in layouts.generated(repo).items():
        assert path.read_text(encoding="utf-8") == text, (
            f"{path.name} is stale: run python -m tools.hardware --write"
        )


# --- where a score is pegged ----------------------------------------------------------


def test_the_english_board_plays_121_round_twice_and_181_three_times():
    board = load_layout("two-track-61")
    assert board.can_show(121) and board.can_show(181) and not board.can_show(182)
    assert board.place(0, 121) == (0, 1)
    assert board.place(60, 121) == (60, 1)
    assert board.place(61, 121) == (1, 2)
    assert board.place(120, 121) == (60, 2)
    assert board.place(121, 121) == (61, 2)  # the game hole, second time round
    assert board.place(121, 181) == (1, 3)
    assert board.place(181, 181) == (61, 3)


def test_the_five_card_game_plays_once_round_the_english_board():
    board = load_layout("two-track-61")
    assert board.can_show(61)
    assert board.place(60, 61) == (60, 1)
    assert board.place(61, 61) == (61, 1)
    assert board.place(64, 61) == (61, 1)  # past the target: still the game hole


def test_a_board_without_laps_shows_only_up_to_its_game_hole():
    board = load_layout("two-track-121")
    assert board.can_show(121) and board.can_show(61) and not board.can_show(181)
    assert board.place(61, 61) == (61, 1)  # the five-card game: 61 is a hole of the 121 board
    assert board.place(150) == (121, 1)
    with pytest.raises(LayoutError, match="no hole shows a score of -1"):
        board.place(-1)


@given(target=st.sampled_from([61, 91, 121, 181]))
def test_every_score_of_a_game_has_its_own_hole_and_lap(target):
    board = load_layout("three-track-61")
    places = [board.place(score, target) for score in range(target + 1)]
    assert len(set(places)) == len(places)
    assert places[-1].hole == board.game and places[0] == (0, 1)
    assert all(1 <= p.hole < board.game for p in places[1:-1])
    assert [p.lap for p in places] == sorted(p.lap for p in places)  # never back a lap


# --- refusals -------------------------------------------------------------------------


def test_layout_loads_from_a_path(tmp_path):
    path = tmp_path / "tiny.toml"
    path.write_text(TINY)
    layout = load_layout(path)
    assert layout.name == "tiny"
    assert layout.hole(0, 6).led == 7
    assert layout.tracks[0].colour == (255, 0, 0)
    assert (layout.laps, layout.capacity, layout.strip_kind.pitch_mm) == (1, 6, 8)


def test_unknown_layout_name_lists_the_known_ones():
    with pytest.raises(LayoutError, match="two-track-121") as error:
        load_layout("four-track-121")
    assert isinstance(error.value, ConfigError)


def test_missing_layout_file_is_a_layout_error(tmp_path):
    with pytest.raises(LayoutError, match="cannot read"):
        load_layout(tmp_path / "none.toml")


# Layouts TINY's maker got wrong (a change to its text), and what the refusal says.
REFUSED = [
    (
        ("{ hole = 3, x = 29, y = 10, strip = 0, led = 3 }", "{ hole = 3, x = 29, y = 10 }"),
        r"track 0 hole 3 \(t0h3\) has no LED",
    ),
    (
        ("strip = 0, led = 4 }", "strip = 0, led = 3 }"),
        r"holes t0h3 and t0h4 are both on LED 3 of strip 0",
    ),
    (
        ("strip = 0, led = 7 }", "strip = 0, led = 8 }"),
        r"track 0 hole 6 \(t0h6\): LED 8 is past the end of strip 0 \(8 LEDs",
    ),
    (
        ("{ hole = 2, x = 21, y = 10, strip = 0, led = 2 },", ""),
        r"track 0 has no hole 2 \(t0h2\)",
    ),
    (("hole = 5, x = 45, y = 10, strip = 0", "hole = 5, x = 45, y = 10, strip = 1"), "t0h5"),
    (("x = 61, y = 10", "x = 79, y = 10"), r"hole t0h6 at \(79.0, 10.0\) mm is off"),
    (("x = 61, y = 10", "x = 46, y = 10"), r"holes t0h5 and t0h6 overlap"),
    (("hole = 6,", "hole = 7,"), r"track 0 hole 7 \(t0h7\) is outside 0..6"),
    (("hole = 6,", "hole = 5,"), r"track 0 hole 5 \(t0h5\) is listed twice"),
    (('colour = "#ff0000"', 'colour = "red"'), r"colour 'red' is not #rrggbb"),
    (("pin = 2", "pin = 40"), "GP40 is not free for a strip on a Pico: use GP0-21, GP26-28"),
    (("pin = 2", "pin = 22"), r"GP22 is not free .*GP22 is the REPL escape"),
    (("pin = 2", "pin = 25"), "GP25 is not free for a strip"),
    (
        ("leds = 8\n", "leds = 8\n[[strips]]\nid = 1\npin = 2\nleds = 3\n"),
        "two strips are on pin 2",
    ),
    (("led = 1 }", 'led = "one" }'), r"t0h1\): led must be a whole number, not 'one'"),
    (("game = 6", "game = [6"), "not valid TOML"),
    (("pitch_mm = 8", "pitch_mm = 7"), r"pitch_mm = 7, but 125 LEDs a metre are 8.000 mm"),
    (("width_mm = 12\n", ""), r"\[strip\]: width_mm is missing"),
    (
        ("fill_index = 1.5", "fill_index = 1.5\ncarrier_mm = 11"),
        r"carrier_mm = 11 mm is narrower than the strip \(12 mm\)",
    ),
    (
        ("fill_index = 1.5", "fill_index = 1.5\nbit_mm = 20"),
        r"bit_mm = 20 mm: a cutter that size cannot rout a pocket 13.5 mm wide",
    ),
    (("fill_index = 1.5", "fill_index = 1.5\nfit_mm = 0"), r"fit_mm must be more than 0, not 0"),
    (("skin_mm = 3", "skin_mm = 18"), "a skin of 18 mm over the LEDs leaves no room"),
    (("fill_index = 1.5", "fill_index = 0.5"), "fill_index = 0.5: 1.0"),
    (("game = 6", "game = 6\nlaps = 2"), r"track 0 has no mark for lap 2 \(t0l2\)"),
    (("game = 6", "game = 6\nlaps = 0"), "laps = 0 is not a whole number"),
    (
        (
            "holes = [",
            "lap_marks = [{ lap = 2, x = 71, y = 10, strip = 0, led = 6 }]\nholes = [",
        ),
        r"track 0 lap mark 2 \(t0l2\), but laps = 1",
    ),
    (("x = 61, y = 10", 'x = "61", y = 10'), r"t0h6\): x must be a number, not '61'"),
    (('name = "tiny"', "name = 6"), "the layout: name must be text, not 6"),
    (("hole_mm = 3", "hole_mm = 0"), r"\[board\]: hole_mm must be more than 0, not 0"),
    (("game = 6", "game = 1"), "game = 1 is too small"),
    (("[[strips]]\nid = 0\npin = 2\nleds = 8\n", ""), r"no \[\[strips\]\]"),
    (("leds_per_m = 125", "leds_per_m = 0"), r"\[strip\]: leds_per_m = 0 is not a strip"),
    (("id = 0", "id = 1"), r"numbered 0, 1, 2\.\.\. in order; strip 0 has id 1"),
    (("leds = 8\n", "leds = 0\n"), "strip 0 has no LEDs"),
    (("holes = [", "hole_list = ["), "track 0 has no list of holes"),
    (("{ hole = 0, x = 5", "{ x = 5"), "a hole of track 0: hole is missing"),
]


@pytest.mark.parametrize(("change", "message"), REFUSED)
def test_inconsistent_layout_is_refused_naming_the_fault(change, message):
    text = TINY.replace(*change)
    assert text != TINY
    with pytest.raises(LayoutError, match=message):
        parse_layout(text, "tiny")


def test_a_board_with_laps_loads_with_its_marks():
    text = TINY.replace("game = 6", "game = 6\nlaps = 2").replace(
        "holes = [", "lap_marks = [{ lap = 2, x = 53, y = 10, strip = 0, led = 6 }]\nholes = ["
    )
    board = parse_layout(text, "tiny")
    assert board.lap_mark(0, 2).id == "t0l2" and board.capacity == 11
    assert board.place(7) == (2, 2)


def test_error_names_the_layout_and_the_hole_in_a_shipped_board(tmp_path):
    """Move hole 57 onto hole 58's LED in a copy of the shipped two-track board."""
    h, after = load_layout("two-track-121").hole(0, 57), load_layout("two-track-121").hole(0, 58)
    line = f"{{ hole = 57, x = {h.x:.2f}, y = {h.y:.2f}, strip = {h.strip}, led = {h.led} }}"
    text = (layouts_folder() / "two-track-121.toml").read_text()
    assert text.count(line) == 1
    path = tmp_path / "board.toml"
    path.write_text(text.replace(line, line.replace(f"led = {h.led}", f"led = {after.led}")))
    with pytest.raises(LayoutError, match=rf"{path}: holes t0h57 and t0h58 are both on LED"):
        load_layout(path)
