"""Frame rendering: what the players see lit, from a board view."""

import subprocess
import sys

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pegboard.board.layout import load_layout
from pegboard.board.render import (
    WIN_SECONDS,
    BoardView,
    Frame,
    Power,
    Renderer,
    TrackView,
    lit_holes,
)
from pegboard.errors import ConfigError, LayoutError

LAYOUT = load_layout("two-track-121")
FULL = Power(brightness=1.0)
RED, BLUE = LAYOUT.tracks[0].colour, LAYOUT.tracks[1].colour
ON, OFF = 0.1, 0.35  # a time in the first and in the second half of a 2 Hz blink


def render(*tracks, power=FULL, layout=LAYOUT, **view):
    renderer = Renderer(layout, power)
    return renderer.render(BoardView(tuple(tracks), **view))


def colour_at(frame, track, hole, layout=LAYOUT):
    return frame.hole(layout, track, hole)


def lit(frame, track, layout=LAYOUT):
    """Holes of ``track`` brighter than a faint mark or a back peg."""
    return {h.number for h in layout.tracks[track].holes if max(frame.pixel(h.strip, h.led)) > 40}


def test_front_peg_bright_and_back_peg_dim_in_the_track_colour():
    frame = render(TrackView(front=57, back=49), TrackView(front=12, back=4))
    assert colour_at(frame, 0, 57) == RED
    back = colour_at(frame, 0, 49)
    assert 0 < max(back) < max(RED) / 4
    assert back.index(max(back)) == RED.index(max(RED))  # the same hue, dimmer
    assert colour_at(frame, 1, 12) == BLUE
    assert lit(frame, 0) == {57} and lit(frame, 1) == {12}


def test_a_track_not_started_lights_its_start_hole():
    frame = render(TrackView(), TrackView())
    assert colour_at(frame, 0, 0) == RED and colour_at(frame, 1, 0) == BLUE


def test_score_past_the_game_sits_in_the_game_hole():
    frame = render(TrackView(front=127, back=119))
    assert colour_at(frame, 0, 121) == RED


def test_colour_given_in_the_view_wins_over_the_layout():
    frame = render(TrackView(front=3, colour=(0, 255, 0)))
    assert colour_at(frame, 0, 3) == (0, 255, 0)


def test_every_fifth_hole_and_the_games_skunk_lines_faintly_marked():
    frame = render(TrackView(), TrackView(), skunk_lines=(91, 61))
    fifth, skunk, plain = (colour_at(frame, 0, n) for n in (35, 91, 36))
    assert plain == (0, 0, 0)
    assert 0 < max(fifth) <= 10 and 0 < max(skunk) <= 20
    assert fifth != skunk
    assert colour_at(frame, 1, 61) == skunk and colour_at(frame, 1, 120) == fifth


def test_skunk_lines_are_the_games_not_the_boards():
    none = render(TrackView(), TrackView())
    assert colour_at(none, 0, 91) == (0, 0, 0) and colour_at(none, 0, 61) != colour_at(
        render(TrackView(), skunk_lines=(61,)), 0, 61
    )
    triple = render(TrackView(), skunk_lines=(91, 61, 31))
    assert colour_at(triple, 0, 31) == colour_at(triple, 0, 91) != (0, 0, 0)


def test_pending_entry_blinks_a_preview_peg_ahead_of_the_front_peg():
    on = render(TrackView(front=20, back=14, pending=6), t=ON)
    off = render(TrackView(front=20, back=14, pending=6), t=OFF)
    assert 0 < max(colour_at(on, 0, 26)) < max(RED)
    assert colour_at(off, 0, 26) == colour_at(render(TrackView(front=20, back=14)), 0, 26)
    assert colour_at(on, 0, 20) == colour_at(off, 0, 20) == RED  # the front peg stays


def test_pending_entry_past_the_game_previews_the_game_hole():
    frame = render(TrackView(front=118, pending=12), t=ON)
    assert max(colour_at(frame, 0, 121)) > 20


def test_pending_zero_blinks_the_front_peg_itself():
    assert colour_at(render(TrackView(front=20, pending=0), t=ON), 0, 20) != (0, 0, 0)
    assert colour_at(render(TrackView(front=20, pending=0), t=OFF), 0, 20) == (0, 0, 0)


def test_refused_claim_flashes_that_track_red():
    view = (TrackView(front=40, back=30, refused=True), TrackView(front=33, back=20))
    flash, pause = render(*view, t=0.05), render(*view, t=0.2)
    assert colour_at(flash, 0, 40) == (255, 0, 0)
    assert all(colour_at(flash, 0, n)[0] > 0 == colour_at(flash, 0, n)[1] for n in (1, 77, 121))
    assert colour_at(pause, 0, 40) == RED
    untouched = render(TrackView(front=40, back=30), TrackView(front=33, back=20), t=0.05)
    for n in range(122):
        assert colour_at(flash, 1, n) == colour_at(untouched, 1, n)


def test_win_runs_a_comet_then_the_winning_peg_stays_lit():
    view = (TrackView(front=121, back=115), TrackView(front=88, back=80))
    during = [render(*view, winner=0, won_at=10.0, t=10.0 + k * 0.1) for k in range(8)]
    assert len({frozenset(lit(f, 0)) for f in during}) > 4  # it moves
    assert all(colour_at(f, 0, 121) == RED for f in during)
    after = [render(*view, winner=0, won_at=10.0, t=10.0 + WIN_SECONDS + k) for k in range(3)]
    assert all(f == after[0] for f in after)  # still
    assert colour_at(after[0], 0, 121) == RED and lit(after[0], 0) == {121}


def test_brightness_cap_scales_every_colour():
    frame = render(TrackView(front=57), power=Power(brightness=0.25))
    assert colour_at(frame, 0, 57) == tuple(-(-c // 4) for c in RED)


def test_faint_marks_survive_a_low_cap():
    frame = render(TrackView(), power=Power(brightness=0.05))
    assert colour_at(frame, 0, 35) != (0, 0, 0)


def test_frame_over_the_supply_budget_is_scaled_down_to_fit():
    power = Power(brightness=1.0, supply_ma=500)
    white = (255, 255, 255)
    layout = load_layout("three-track-121")
    view = [TrackView(front=n, colour=white, refused=True) for n in (50, 60, 70)]
    frame = render(*view, power=power, layout=layout, t=0.05)
    unlimited = render(*view, power=Power(brightness=1.0, supply_ma=1e9), layout=layout, t=0.05)
    assert power.milliamps(unlimited) > 500 >= power.milliamps(frame)
    assert 0 < max(colour_at(frame, 0, 50, layout)) < 255


def test_frame_within_budget_is_left_alone():
    power = Power(brightness=1.0, supply_ma=100_000)
    assert colour_at(render(TrackView(front=9), power=power), 0, 9) == RED


@pytest.mark.slow
@settings(max_examples=60, deadline=None)
@given(
    pegs=st.lists(st.tuples(st.integers(0, 130), st.integers(0, 130)), min_size=3, max_size=3),
    pending=st.none() | st.integers(0, 30),
    refused=st.booleans(),
    supply=st.floats(600, 5000),
    brightness=st.floats(0, 1),
    t=st.floats(0, 100),
)
def test_no_frame_ever_draws_more_than_the_supply(pegs, pending, refused, supply, brightness, t):
    layout = load_layout("three-track-121")
    power = Power(brightness=brightness, supply_ma=supply)
    view = [TrackView(f, b, (255, 255, 255), pending, refused) for f, b in pegs]
    frame = render(*view, power=power, layout=layout, t=t, winner=1, won_at=t - 1)
    assert power.milliamps(frame) <= supply + 1e-6


def test_power_settings_that_cannot_work_are_refused():
    with pytest.raises(ConfigError, match="cannot even feed 288 dark LEDs"):
        Renderer(LAYOUT, Power(supply_ma=200))
    with pytest.raises(ConfigError, match="brightness"):
        Renderer(LAYOUT, Power(brightness=1.5))


def test_views_that_do_not_fit_the_board_are_refused():
    renderer = Renderer(LAYOUT)
    with pytest.raises(LayoutError, match="has 2 tracks, not 3"):
        renderer.render(BoardView((TrackView(),) * 3))
    with pytest.raises(LayoutError, match="front peg cannot be at -1"):
        renderer.render(BoardView((TrackView(front=-1),)))
    with pytest.raises(LayoutError, match="pending entry of -2"):
        renderer.render(BoardView((TrackView(pending=-2),), t=ON))


def test_frame_has_one_buffer_per_strip_of_the_layout():
    frame = render(TrackView())
    assert [len(s) for s in frame.strips] == [3 * s.leds for s in LAYOUT.strips]
    assert isinstance(frame.strips[0], bytes)
    assert Frame.dark((2,)).pixel(0, 1) == (0, 0, 0)


def test_lit_holes_name_the_svg_ids_of_lit_holes():
    frame = render(TrackView(front=57, back=49))
    holes = lit_holes(LAYOUT, frame)
    assert holes["t0h57"] == "#{:02x}{:02x}{:02x}".format(
        *(round(255 * (c / 255) ** (1 / 2.2)) for c in RED)
    )
    assert "t0h49" in holes and "t0h35" in holes and "t0h36" not in holes


# --- the English board: round twice -------------------------------------------------------

ENGLISH = load_layout("two-track-61")


def lap_marks(frame, track, layout=ENGLISH):
    """The lap marks of ``track`` that are lit."""
    return [m.number for m in layout.tracks[track].lap_marks if any(frame.at(m))]


def test_a_score_on_the_second_lap_lights_its_hole_and_the_lap_2_mark():
    first = render(TrackView(front=15, back=9), layout=ENGLISH, target=121)
    second = render(TrackView(front=75, back=69), layout=ENGLISH, target=121)
    for frame in (first, second):
        assert colour_at(frame, 0, 15, ENGLISH) == RED
        assert 0 < max(colour_at(frame, 0, 9, ENGLISH)) < max(RED) / 4
    assert lap_marks(first, 0) == [] and lap_marks(second, 0) == [2]
    mark = second.at(ENGLISH.lap_mark(0, 2))
    assert max(RED) / 4 < max(mark) < max(RED) and mark.index(max(mark)) == RED.index(max(RED))


def test_the_seven_card_game_goes_round_three_times_and_ends_in_the_game_hole():
    third = render(TrackView(front=125, back=118), TrackView(front=30), layout=ENGLISH, target=181)
    assert colour_at(third, 0, 5, ENGLISH) == RED and lap_marks(third, 0) == [2, 3]
    assert lap_marks(third, 1) == []  # the other track is still on its first lap
    assert 0 < max(colour_at(third, 0, 58, ENGLISH)) < max(RED) / 4  # the back peg: lap 2
    won = render(TrackView(front=181, back=175), layout=ENGLISH, target=181)
    assert colour_at(won, 0, 61, ENGLISH) == RED and lap_marks(won, 0) == [2, 3]


def test_the_five_card_game_ends_in_the_game_hole_after_one_lap():
    won = render(TrackView(front=61, back=55), layout=ENGLISH, target=61)
    assert colour_at(won, 0, 61, ENGLISH) == RED and lap_marks(won, 0) == []
    assert colour_at(won, 0, 1, ENGLISH) == (0, 0, 0)


def test_skunk_lines_and_previews_on_the_english_board_wrap_round():
    view = (TrackView(front=58, back=50, pending=6),)
    frame = render(*view, layout=ENGLISH, target=121, skunk_lines=(91, 61), t=ON)
    skunk = colour_at(frame, 1, 31, ENGLISH)
    assert 0 < max(skunk) <= 20 and colour_at(frame, 1, 1, ENGLISH) == skunk  # 91 and 61
    assert 0 < max(colour_at(frame, 0, 4, ENGLISH)) < max(RED)  # 64: hole 4, next lap
    assert lap_marks(frame, 0) == []  # the preview is no peg


def test_a_refused_claim_flashes_the_lap_marks_too():
    frame = render(TrackView(front=75, refused=True), layout=ENGLISH, target=121, t=0.05)
    assert colour_at(frame, 0, 15, ENGLISH) == (255, 0, 0)
    assert all(frame.at(m)[0] > 0 == frame.at(m)[2] for m in ENGLISH.tracks[0].lap_marks)


@pytest.mark.subprocess
def test_rendering_knows_nothing_of_the_game():
    code = (
        "import sys, pegboard.board.render, pegboard.board.svg, pegboard.leds.pico;"
        "bad = [m for m in sys.modules if m.startswith(('pegboard.game', 'pegboard.panel'))];"
        "sys.exit(str(bad) if bad else 0)"
    )
    subprocess.run([sys.executable, "-c", code], check=True)
