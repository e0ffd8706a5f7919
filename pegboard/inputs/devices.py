"""The players' controls: dials and buttons on the GPIO, read as intents.

Each seat has a dial (gpiozero ``RotaryEncoder`` plus a ``Button`` for its
push switch) or three ``Button``\\ s (minus, plus, peg); one shared ``Button``
moves the game on (a long press on it repeats the last announcement). gpiozero
reports pin edges on its own threads; here they become ``Turn``, ``Peg``, ``Undo``,
``Advance`` and ``Repeat`` intents (:mod:`pegboard.keeper.intents`), handed one at a
time to a callback. It runs on those threads, which read the pins, so it must return at
once (the running board's only puts the intent on the front door's queue:
:meth:`Scorekeeper.post <pegboard.keeper.Scorekeeper.post>`), and never close the controls.

A short press pegs when the switch is released; a long press (``hold_time``)
undoes at once and its release does nothing, so it never also pegs.

Switches are debounced here, the same way on every pin factory: a press
counts once the switch has been released and stayed released for
``bounce_time``; a press again within that time is contact chatter, part of
the same press. gpiozero's own ``bounce_time`` is left off because it means
something different on each back-end (lgpio waits for a steady level,
RPi.GPIO ignores edges after an edge and can lose a release, ``MockPin``
ignores it). A dial needs none: gpiozero's quadrature state machine only
counts a step after a full A/B cycle, so a wiggle mid-step counts nothing.

``Controls.sim_*`` drive the ``MockFactory`` pins as a finger would (the tests, the
doctor's check of the controls, a script on a ``--sim`` board), so they run the very
same path as real pins. The panel's on-screen dials and keys skip the pins: they call
the front door's controls (``turn_dial``, ``peg_dial``, ...) that these intents reach.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from functools import partial
from typing import Any

from gpiozero import Button, Factory, RotaryEncoder
from gpiozero.exc import DeviceClosed
from gpiozero.pins.mock import MockFactory

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase
from pegboard.inputs.pins import DialPins, PinMap, SwitchTiming, Wiring, seat_place
from pegboard.keeper.intents import Advance, Intent, Peg, Repeat, Turn, Undo

log = logging.getLogger(__name__)

# How long a simulated press may take to be seen, beyond its own timing.
SIM_TIMEOUT = 5.0


def _opened(what: Phrase, make: Callable[[], Any]) -> Any:
    """Build one gpiozero device; a pin that cannot be opened names its use (its place in
    the pin map)."""
    try:
        return make()
    except Exception as exc:  # lgpio, RPi.GPIO and gpiozero each raise their own
        cannot = N_("cannot open {what}: {reason}")
        raise ConfigError(Phrase.of(cannot, what=what, reason=str(exc))) from exc


class Switch:
    """One push switch read as presses (short) and holds (long).

    ``on_press`` runs when a press ends with a settled release; ``on_hold``,
    if given, runs once while the switch is still held, and that press then
    counts as nothing else. Without ``on_hold`` a long press is a press.
    """

    def __init__(
        self,
        what: Phrase,
        gpio: int,
        settings: SwitchTiming,
        factory: Factory,
        on_press: Callable[[], None],
        on_hold: Callable[[], None] | None = None,
    ) -> None:
        self.what = what
        self._settings = settings
        self._on_press, self._on_hold = on_press, on_hold
        self._lock = threading.Lock()
        self._edge = 0  # counts edges: a release timer that sees a later edge was chatter
        self._held = False
        self._timer: threading.Timer | None = None
        self._idle = threading.Event()  # set while no press is in progress
        self._idle.set()
        self._hold_seen = threading.Event()  # for the simulation: the long press was seen
        self.button = _opened(
            what,
            lambda: Button(gpio, pull_up=True, hold_time=settings.hold_time, pin_factory=factory),
        )
        self.button.when_pressed = self._pressed
        self.button.when_released = self._released
        if on_hold is not None:
            self.button.when_held = self._hold

    def __repr__(self) -> str:
        return f"<Switch {self.what} {self.button!r}>"

    def _pressed(self) -> None:
        with self._lock:
            self._edge += 1
            self._idle.clear()
            if self._timer is not None:
                self._timer.cancel()

    def _released(self) -> None:
        with self._lock:
            if self._idle.is_set():  # held down since before start-up: not a press
                return
            self._edge += 1
            self._timer = threading.Timer(
                self._settings.bounce_time, self._settled, args=(self._edge,)
            )
            self._timer.daemon = True
            self._timer.start()

    def _settled(self, edge: int) -> None:
        with self._lock:
            if edge != self._edge:
                return
            held, self._held, self._timer = self._held, False, None
        if not held:
            self._on_press()
        with self._lock:
            if edge == self._edge:
                self._idle.set()

    def _hold(self) -> None:
        with self._lock:
            if self._held or self._idle.is_set():
                return
            self._held = True
        if self._on_hold is not None:  # set as the button's when_held only then
            self._on_hold()
        self._hold_seen.set()

    def close(self) -> None:
        with self._lock:
            self._edge += 1
            if self._timer is not None:
                self._timer.cancel()
            self._idle.set()
        self.button.close()

    # --- the simulation: drive the mock pin as a finger would --------------

    def sim_press(self) -> None:
        """Press and release; return once the press has counted."""
        self._wait(self._idle, 0)
        self.button.pin.drive_low()
        self.button.pin.drive_high()
        self._wait(self._idle, self._settings.bounce_time)

    def sim_hold(self) -> None:
        """Hold down until the long press is seen, then release."""
        self._wait(self._idle, 0)
        self._hold_seen.clear()
        self.button.pin.drive_low()
        self._wait(self._hold_seen, self._settings.hold_time)
        self.button.pin.drive_high()
        self._wait(self._idle, self._settings.bounce_time)

    def _wait(self, event: threading.Event, expected: float) -> None:
        if not event.wait(expected + SIM_TIMEOUT):
            raise TimeoutError(f"the simulated {self.what} was not seen")


class Seat:
    """One player's (or team's) controls: a dial with its switch, or three buttons.

    ``index`` counts from 0 in pin map order; intents carry it as ``seat``.
    """

    def __init__(
        self,
        index: int,
        wiring: Wiring,
        settings: SwitchTiming,
        factory: Factory,
        emit: Callable[[Intent], None],
    ) -> None:
        self.index, self.wiring = index, wiring
        self.dial: RotaryEncoder | None = None
        self._switches: dict[str, Switch] = {}

        def add(name: str, on_press: Intent, on_hold: Intent | None = None) -> None:
            hold = partial(emit, on_hold) if on_hold else None
            self._switches[name] = Switch(
                seat_place(index + 1, f"{wiring.kind}.{name}"),
                getattr(wiring, name),
                settings,
                factory,
                partial(emit, on_press),
                hold,
            )

        try:
            if isinstance(wiring, DialPins):
                self.dial = _opened(
                    seat_place(index + 1, wiring.kind),
                    lambda: RotaryEncoder(wiring.a, wiring.b, max_steps=0, pin_factory=factory),
                )
                self.dial.when_rotated_clockwise = partial(emit, Turn(index, 1))
                self.dial.when_rotated_counter_clockwise = partial(emit, Turn(index, -1))
                add("switch", Peg(index), Undo(index))
            else:
                add("minus", Turn(index, -1))
                add("plus", Turn(index, 1))
                add("peg", Peg(index), Undo(index))
        except BaseException:
            self.close()
            raise

    def __repr__(self) -> str:
        return f"<Seat {self.index + 1} {self.wiring}>"

    def close(self) -> None:
        for switch in self._switches.values():
            switch.close()
        if self.dial is not None:
            self.dial.close()

    @property
    def peg_switch(self) -> Switch:
        """The switch that pegs (short press) and undoes (long press)."""
        return self._switches.get("switch") or self._switches["peg"]

    def sim_turn(self, steps: int) -> None:
        """Turn the dial ``steps`` clicks (or press plus/minus that often)."""
        if self.dial is None:
            button = self._switches["plus" if steps > 0 else "minus"]
            for _ in range(abs(steps)):
                button.sim_press()
            return
        # One click clockwise: A falls, B falls, A rises, B rises (both rest high).
        lead, follow = self.dial.a.pin, self.dial.b.pin
        if steps < 0:
            lead, follow = follow, lead
        for _ in range(abs(steps)):
            lead.drive_low()
            follow.drive_low()
            lead.drive_high()
            follow.drive_high()


class Controls:
    """All the seats and the advance button, built from a checked pin map.

    Intents go to ``on_intent`` one at a time (calls never overlap: each holds up
    every other pin's, so it must return at once); an exception from it is logged and
    the controls carry on.

    >>> from pegboard.inputs.pins import ButtonPins
    >>> factory = MockFactory()
    >>> pins = PinMap((DialPins(17, 27, 22), ButtonPins(4, 18, 19)), advance=26)
    >>> seen = []
    >>> with Controls(pins, factory, seen.append) as controls:
    ...     controls.sim_turn(0, 2)
    ...     controls.sim_turn(1, -1)
    ...     controls.sim_press(0)
    >>> seen
    [Turn(seat=0, steps=1), Turn(seat=0, steps=1), Turn(seat=1, steps=-1), Peg(seat=0)]
    >>> factory.reset()
    """

    def __init__(
        self, pin_map: PinMap, factory: Factory, on_intent: Callable[[Intent], object]
    ) -> None:
        self.pin_map, self.factory = pin_map, factory
        self._on_intent = on_intent
        self._lock = threading.RLock()  # an on_intent that drives the simulation re-enters
        self._closed = False
        seats: list[Seat] = []
        self.seats: tuple[Seat, ...] = ()
        self.advance: Switch | None = None
        try:
            for index, wiring in enumerate(pin_map.seats):
                seats.append(Seat(index, wiring, pin_map.settings, factory, self._emit))
            self.seats = tuple(seats)
            self.advance = Switch(
                Phrase(N_("the advance button")),
                pin_map.advance,
                pin_map.settings,
                factory,
                partial(self._emit, Advance()),
                partial(self._emit, Repeat()),
            )
        except BaseException:
            self.seats = tuple(seats)
            self.close()
            raise

    def __repr__(self) -> str:
        kinds = ", ".join(wiring.kind for wiring in self.pin_map.seats)
        state = " closed" if self._closed else ""
        return (
            f"<Controls seats=[{kinds}] advance=GPIO{self.pin_map.advance} "
            f"factory={type(self.factory).__name__}{state}>"
        )

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    @property
    def closed(self) -> bool:
        return self._closed

    def close(self) -> None:
        """Release every pin; safe to call twice. No intent is delivered after it."""
        with self._lock:
            if self._closed:
                return
            self._closed = True
        for seat in self.seats:
            seat.close()
        if self.advance is not None:
            self.advance.close()

    def _emit(self, intent: Intent) -> None:
        with self._lock:
            if self._closed:
                return
            try:
                self._on_intent(intent)
            except Exception:
                log.exception("handling %r failed", intent)

    # --- the simulation ---------------------------------------------------

    def sim_turn(self, seat: int, steps: int) -> None:
        """Turn ``seat``'s dial by ``steps`` clicks, negative back."""
        self._sim_seat(seat).sim_turn(steps)

    def sim_press(self, seat: int) -> None:
        """A short press on ``seat``'s dial switch (or peg button): Peg."""
        self._sim_seat(seat).peg_switch.sim_press()

    def sim_hold(self, seat: int) -> None:
        """A long press on ``seat``'s dial switch (or peg button): Undo. Blocks ~hold_time."""
        self._sim_seat(seat).peg_switch.sim_hold()

    def sim_advance(self, *, hold: bool = False) -> None:
        """A press on the shared advance button (``hold``: a long press, Repeat)."""
        self._sim_check()
        assert self.advance is not None
        if hold:
            self.advance.sim_hold()
        else:
            self.advance.sim_press()

    def _sim_seat(self, seat: int) -> Seat:
        self._sim_check()
        if not 0 <= seat < len(self.seats):
            no_seat = N_("no seat {seat}: the pin map has {count} seats")
            raise ConfigError(Phrase.of(no_seat, seat=seat + 1, count=len(self.seats)))
        return self.seats[seat]

    def _sim_check(self) -> None:
        if self._closed:
            raise DeviceClosed("the controls are closed")
        if not isinstance(self.factory, MockFactory):
            sim = N_("on-screen controls need the simulated pins: start with {option}")
            raise ConfigError(Phrase.of(sim, option="--sim"))
