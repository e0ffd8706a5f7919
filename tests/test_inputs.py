"""The controls on gpiozero's MockFactory: pin edges in, intents out.

Each test drives the real gpiozero devices through mock pins (or through the
``sim_*`` entry points the panel uses) and waits on the intent queue with a
timeout; nothing sleeps.
"""

from __future__ import annotations

import logging
import queue
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from gpiozero import Button, Device
from gpiozero.exc import DeviceClosed, PinFactoryFallback
from gpiozero.pins.mock import MockFactory

from pegboard.errors import ConfigError, RuleError
from pegboard.inputs import (
    Advance,
    ButtonPins,
    Controls,
    DialPins,
    Peg,
    PinMap,
    Repeat,
    SwitchTiming,
    Turn,
    Undo,
    make_factory,
)

WAIT = 5.0  # seconds an intent may take to arrive before the test fails
# Short presses in tests take microseconds, so a 5 s hold never fires by accident.
QUICK = SwitchTiming(bounce_time=0.02, hold_time=5.0)
HOLDS = SwitchTiming(bounce_time=0.02, hold_time=0.3)
MODEL = Path("/proc/device-tree/model")
ON_A_PI = MODEL.exists() and "Raspberry Pi" in MODEL.read_text(errors="replace")
DIAL, KEYS = DialPins(a=17, b=27, switch=22), ButtonPins(minus=4, plus=18, peg=19)


@pytest.fixture
def factory():
    saved = Device.pin_factory
    factory = MockFactory()
    yield factory
    factory.reset()
    Device.pin_factory = saved


@pytest.fixture
def build(factory):
    """Build controls on the mock pins; returns (controls, intent queue)."""
    made = []

    def build(*seats, settings=QUICK):
        intents = queue.Queue()
        controls = Controls(PinMap(seats or (DIAL,), 26, settings), factory, intents.put)
        made.append(controls)
        return controls, intents

    yield build
    for controls in made:
        controls.close()


def take(intents: queue.Queue, count: int = 1) -> list:
    return [intents.get(timeout=WAIT) for _ in range(count)]


def left(intents: queue.Queue) -> list:
    return list(intents.queue)


# --- the dial -----------------------------------------------------------------


def test_a_dial_click_clockwise_is_plus_one_and_back_is_minus_one(build, factory):
    _, intents = build(DIAL)
    a, b = factory.pin(17), factory.pin(27)
    for edge in (a.drive_low, b.drive_low, a.drive_high, b.drive_high):  # A leads: clockwise
        edge()
    for edge in (b.drive_low, a.drive_low, b.drive_high, a.drive_high):  # B leads: back
        edge()
    assert take(intents, 2) == [Turn(0, 1), Turn(0, -1)]


def test_the_simulated_dial_turns_as_far_as_asked_both_ways(build):
    controls, intents = build(DIAL)
    controls.sim_turn(0, 20)  # past gpiozero's default max_steps of 16
    controls.sim_turn(0, -3)
    assert take(intents, 23) == [Turn(0, 1)] * 20 + [Turn(0, -1)] * 3
    assert left(intents) == []


def test_a_wiggle_inside_one_dial_click_counts_once(build, factory):
    controls, intents = build(DIAL)
    a, b = factory.pin(17), factory.pin(27)
    a.drive_low()
    a.drive_high()  # wiggle back to rest
    a.drive_low()
    b.drive_low()
    b.drive_high()  # wiggle
    b.drive_low()
    a.drive_high()
    b.drive_high()
    controls.sim_advance()
    assert take(intents, 2) == [Turn(0, 1), Advance()]
    assert left(intents) == []


# --- presses, holds and chatter ------------------------------------------------


def test_a_short_press_on_the_dial_pegs(build, factory):
    _, intents = build(DIAL)
    switch = factory.pin(22)
    switch.drive_low()
    switch.drive_high()
    assert take(intents) == [Peg(0)]


def test_chatter_on_press_and_release_counts_as_one_peg(build, factory):
    controls, intents = build(DIAL, settings=SwitchTiming(bounce_time=0.25, hold_time=5.0))
    switch = factory.pin(22)
    for _ in range(5):  # contacts bouncing as they close ...
        switch.drive_low()
        switch.drive_high()
    switch.drive_low()
    for _ in range(5):  # ... and as they open
        switch.drive_high()
        switch.drive_low()
    switch.drive_high()
    assert take(intents) == [Peg(0)]
    controls.sim_advance()
    assert take(intents) == [Advance()]
    assert left(intents) == []


def test_a_long_press_undoes_and_its_release_does_not_peg(build, factory):
    controls, intents = build(DIAL, settings=HOLDS)
    switch = factory.pin(22)
    switch.drive_low()
    assert take(intents) == [Undo(0)]  # at once, while still held
    switch.drive_high()
    controls.sim_press(0)  # waits for the hold's release to settle first
    assert take(intents) == [Peg(0)]
    assert left(intents) == []


def test_the_simulated_long_press_is_one_undo(build):
    controls, intents = build(DIAL, settings=HOLDS)
    controls.sim_hold(0)
    controls.sim_advance()
    assert take(intents, 2) == [Undo(0), Advance()]
    assert left(intents) == []


def test_the_shared_button_advances(build, factory):
    _, intents = build(DIAL, DialPins(5, 6, 13))
    factory.pin(26).drive_low()
    factory.pin(26).drive_high()
    assert take(intents) == [Advance()]


def test_a_long_press_on_the_shared_button_repeats_and_does_not_advance(build, factory):
    controls, intents = build(DIAL, settings=HOLDS)
    factory.pin(26).drive_low()
    assert take(intents) == [Repeat()]  # at once, while still held
    factory.pin(26).drive_high()
    controls.sim_advance(hold=True)
    controls.sim_advance()
    assert take(intents, 2) == [Repeat(), Advance()]
    assert left(intents) == []


# --- three buttons ---------------------------------------------------------------


def test_three_buttons_act_like_a_dial(build):
    controls, intents = build(DIAL, KEYS, settings=HOLDS)
    controls.sim_turn(1, 2)
    controls.sim_turn(1, -1)
    controls.sim_press(1)
    controls.sim_hold(1)
    assert left(intents) == [Turn(1, 1), Turn(1, 1), Turn(1, -1), Peg(1), Undo(1)]


def test_quick_presses_of_plus_each_count(build, factory):
    _, intents = build(KEYS)
    plus = factory.pin(18)
    for _ in range(3):
        plus.drive_low()
        plus.drive_high()
        assert take(intents) == [Turn(0, 1)]  # then the next press


# --- delivery ------------------------------------------------------------------


def test_intents_from_many_threads_reach_the_handler_one_at_a_time(factory):
    inside, most, counts = [0], [0], {}
    lock = threading.Lock()

    def handle(intent):
        with lock:
            inside[0] += 1
            most[0] = max(most[0], inside[0])
        counts[intent] = counts.get(intent, 0) + 1  # unguarded: safe only if calls never overlap
        with lock:
            inside[0] -= 1

    seats = (DIAL, DialPins(5, 6, 13), DialPins(23, 24, 25), DialPins(12, 16, 20))
    with Controls(PinMap(seats, 26, QUICK), factory, handle) as controls:
        turners = [
            threading.Thread(target=controls.sim_turn, args=(seat, 200)) for seat in range(4)
        ]
        for turner in turners:
            turner.start()
        for turner in turners:
            turner.join(WAIT)
    assert most == [1]
    assert counts == {Turn(seat, 1): 200 for seat in range(4)}


def test_a_failing_handler_is_logged_and_the_controls_carry_on(factory, caplog):
    seen = []

    def handle(intent):
        seen.append(intent)
        if len(seen) == 1:
            raise RuleError("19 is not a possible hand")

    with Controls(PinMap((DIAL,), 26, QUICK), factory, handle) as controls:
        with caplog.at_level(logging.ERROR, logger="pegboard.inputs.devices"):
            controls.sim_press(0)
        controls.sim_press(0)
    assert seen == [Peg(0), Peg(0)]
    assert "handling Peg(seat=0) failed" in caplog.text
    assert "19 is not a possible hand" in caplog.text


# --- life cycle ----------------------------------------------------------------


def test_close_frees_the_pins_and_is_safe_twice(build, factory):
    controls, intents = build(DIAL, KEYS)
    assert repr(controls) == "<Controls seats=[dial, buttons] advance=GPIO26 factory=MockFactory>"
    controls.close()
    controls.close()
    assert controls.closed and repr(controls).endswith("closed>")
    with pytest.raises(DeviceClosed):
        controls.sim_press(0)
    again, intents = build(DIAL, KEYS)  # the same pins open again
    again.sim_press(1)
    assert take(intents) == [Peg(1)]


def test_a_pin_already_in_use_is_named_and_nothing_is_left_open(build, factory):
    other = Button(26, pin_factory=factory)
    with pytest.raises(ConfigError, match=r"cannot open the advance button: .*GPIO26"):
        build(DIAL, KEYS)
    other.close()
    controls, intents = build(DIAL, KEYS)  # the seats built before the failure were closed
    controls.sim_advance()
    assert take(intents) == [Advance()]


def test_the_simulation_names_a_seat_that_is_not_there(build):
    controls, _ = build(DIAL, KEYS)
    with pytest.raises(ConfigError, match="no seat 3: the pin map has 2 seats"):
        controls.sim_press(2)


# --- the pin factory --------------------------------------------------------------


def test_sim_always_gets_the_mock_factory(factory, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "lgpio")
    before = Device.pin_factory
    assert isinstance(make_factory(sim=True), MockFactory)
    assert Device.pin_factory is before  # handed over, not made gpiozero's default


def test_gpiozero_pin_factory_in_the_environment_is_respected(factory, monkeypatch):
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    Device.pin_factory = None  # the fixture puts back what was there
    assert isinstance(make_factory(), MockFactory)


@pytest.mark.skipif(ON_A_PI, reason="a real Pi has a pin factory")
def test_without_gpio_the_error_says_to_use_sim(factory, monkeypatch):
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    Device.pin_factory = None
    with pytest.warns(PinFactoryFallback), pytest.raises(ConfigError, match="start with --sim"):
        make_factory()


@pytest.mark.slow
@pytest.mark.subprocess
def test_importing_the_inputs_chooses_no_pin_factory():
    code = "import gpiozero, pegboard.inputs; print(gpiozero.Device.pin_factory)"
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert result.stdout.strip() == "None"
