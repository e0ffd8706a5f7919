"""The dial never waits: a turn shows while another seat's press waits on the disk, no one
waits on a subscriber, and every press reaches the game file.

The board's own controls on gpiozero's MockFactory post their intents to the front door
(as the running board wires them); the game file sits on a disk whose syncs can be held
(tests/slowdisk.py). Every wait is on an event, with a generous timeout.
"""

from __future__ import annotations

import queue
import threading

import pytest
from gpiozero.pins.mock import MockFactory
from slowdisk import SlowDisk
from waiting import WAIT

from pegboard.board.layout import load_layout
from pegboard.game import Table
from pegboard.game.store import Store
from pegboard.inputs import Controls, DialPins, PinMap, SwitchTiming
from pegboard.keeper import Change, Scorekeeper

DIALS = (DialPins(17, 27, 22), DialPins(5, 6, 13), DialPins(23, 24, 25), DialPins(12, 16, 4))
QUICK = SwitchTiming(bounce_time=0.002, hold_time=5.0)  # a press counts 2 ms after its release


@pytest.fixture
def disk():
    return SlowDisk()


@pytest.fixture
def door(tmp_path, disk):
    """A front door over a game file on ``disk``: four players in the play, where each
    press pegs the points dialled."""
    table = Table(Store(tmp_path / "games.db", connect=disk.connect))
    keeper = Scorekeeper(table, load_layout("two-track-121"))
    keeper.new_game({"players": ["Ann", "Bob", "Cat", "Dan"]}, dealer=0)
    keeper.turn_starter(None)
    yield keeper
    disk.gate.set()
    keeper.settle(WAIT)
    table.close()


@pytest.fixture
def controls(door):
    """Four dials and the advance button, posting to ``door`` as the board's do."""
    factory = MockFactory()
    with Controls(PinMap(DIALS, 26, QUICK), factory, door.post) as made:
        yield made
    factory.reset()


def heard_until(heard: queue.Queue[Change], wanted) -> Change:
    """The first change told that is ``wanted``."""
    while True:
        change = heard.get(timeout=WAIT)
        if wanted(change):
            return change


def test_a_turn_shows_while_another_seats_press_waits_on_the_disk(door, disk, controls):
    heard: queue.Queue[Change] = queue.Queue()
    door.subscribe(heard.put)
    disk.gate.clear()
    controls.sim_turn(0, 2)
    controls.sim_press(0)  # Ann pegs 2: her entry waits on the disk
    assert disk.held.wait(WAIT)
    controls.sim_turn(1, 3)  # meanwhile Bob turns his dial
    turned = heard_until(heard, lambda change: change.seat == 1 and change.dials[1] == 3)
    assert turned.what == "dial" and door.dials[:2] == (0, 3)
    assert door.state.scores == (0, 0)  # Ann's 2 is not pegged until it is stored
    disk.gate.set()
    pegged = heard_until(heard, lambda change: change.what == "game")
    assert pegged.seat == 0 and pegged.state is not None and pegged.state.scores == (2, 0)
    assert pegged.dials[1] == 3


def test_a_subscriber_that_takes_its_time_holds_up_no_change(door):
    inside, release, heard = threading.Event(), threading.Event(), []

    def slow(change) -> None:
        heard.append((change.what, change.seat))
        if change.seat == 0:
            inside.set()
            assert release.wait(WAIT)

    door.subscribe(slow)
    ann = threading.Thread(target=door.turn_dial, args=(0, 1))
    ann.start()
    assert inside.wait(WAIT)  # Ann's turn is being told, slowly
    bob = threading.Thread(target=door.turn_dial, args=(1, 2))
    bob.start()
    bob.join(WAIT)
    assert not bob.is_alive()  # made without waiting for it
    assert door.dials[:2] == (1, 2)
    assert door.claim("Cat", 3).state.scores == (3, 0)  # an entry too
    release.set()
    ann.join(WAIT)
    assert heard == [("dial", 0), ("dial", 1), ("game", 2)]  # told after all, in order


def test_every_press_of_four_seats_at_once_is_stored_in_order(door, disk, controls):
    disk.seconds = 0.005  # the presses pile up behind each other's writes
    presses = 8

    def player(seat: int) -> None:
        for _ in range(presses):
            controls.sim_turn(seat, seat + 1)
            controls.sim_press(seat)

    players = [threading.Thread(target=player, args=(seat,)) for seat in range(4)]
    for each in players:
        each.start()
    for each in players:
        each.join(WAIT)
    assert door.settle(WAIT)
    pegged = [(line.seat, line.points) for line in door.state.history if line.kind == "play"]
    for seat in range(4):
        assert [points for who, points in pegged if who == seat] == [seat + 1] * presses
    assert door.state.scores == (presses * (1 + 3), presses * (2 + 4))
    assert door.dials == (0, 0, 0, 0)


def test_settling_waits_for_every_press_posted(door, disk, controls):
    disk.gate.clear()
    controls.sim_turn(0, 1)
    controls.sim_press(0)
    assert disk.held.wait(WAIT)
    controls.sim_turn(1, 2)
    controls.sim_press(1)  # behind Ann's, which waits on the disk
    assert not door.settle(timeout=0.05)
    disk.gate.set()
    assert door.settle(WAIT)  # what the board does before it closes the game file
    assert door.state.scores == (1, 2)


def test_the_painter_says_which_change_the_leds_show(board):
    keeper = board.keeper
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=1)
    dialled = keeper.turn_dial(1, 2)  # his heels, pending on the LEDs
    assert board.painter.wait_shown(dialled.version, WAIT)
    assert board.leds.frame is not None
    assert not board.painter.wait_shown(dialled.version + 1, timeout=0.05)  # none made since
    pegged = keeper.peg_dial(1)
    assert board.painter.wait_shown(pegged.version, WAIT)


def test_a_change_made_while_hearing_one_is_told_to_everyone_after_it(door):
    a_heard, b_heard = [], []

    def a(change) -> None:  # A turns Bob's dial on hearing Ann's, on the thread telling it
        a_heard.append(change.version)
        if change.seat == 0:
            door.turn_dial(1, 2)

    door.subscribe(a)
    door.subscribe(lambda change: b_heard.append(change.version))
    turned = door.turn_dial(0, 1)
    assert door.settle(WAIT)
    assert a_heard == b_heard == [turned.version, turned.version + 1]


def test_each_change_told_carries_the_board_of_its_moment_whatever_the_door_does_next(door):
    told: list = []
    door.subscribe(told.append)
    door.turn_dial(0, 1)
    door.set_brightness(0.5)
    door.show_lit({"t0h1": "#ff0000"})
    door.turn_dial(1, 2)
    door.claim("Ann", 1)
    assert door.settle(WAIT)
    seen = [(c.what, c.dials[:2], c.brightness, dict(c.lit), c.state.scores[0]) for c in told]
    assert seen == [
        ("dial", (1, 0), 1.0, {}, 0),
        ("brightness", (1, 0), 0.5, {}, 0),
        ("lit", (1, 0), 0.5, {"t0h1": "#ff0000"}, 0),
        ("dial", (1, 2), 0.5, {"t0h1": "#ff0000"}, 0),
        ("game", (1, 2), 0.5, {"t0h1": "#ff0000"}, 1),
    ]
    assert door.now is told[-1]  # what a reader takes is the last snapshot told, whole
