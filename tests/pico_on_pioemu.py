"""firmware/pico.py under CPython, its PIO program on an RP2040 PIO emulator.

MicroPython's ``rp2``, ``machine``, ``micropython`` and ``time`` modules, as far
as pico.py uses them, stand in for the chip:

- ``rp2.asm_pio`` runs the decorated function as MicroPython's does (with only
  the PIO names as its globals, the function's defaults kept), writes each
  instruction as pioasm text, and assembles it with adafruit_pioasm;
- ``rp2.StateMachine.put`` runs those words through pioemu (rp2040-pio-emulator)
  and records the pin's level over time, on one clock shared with ``time``;
  ``put`` returns at once, as if the FIFO were endless: the earliest return a
  real one could make, so the firmware's wait before the next frame is tested
  at its tightest;
- ``time.sleep_us`` moves that clock on.

:func:`load` imports pico.py afresh with them; ``Chip.wave(pin)`` is the pin's
waveform as ``[(ns, level), ...]``, one entry per change.
"""

from __future__ import annotations

import collections
import importlib.util
import sys
import types
from pathlib import Path

import adafruit_pioasm
from pioemu import State, emulate

FIRMWARE = Path(__file__).parents[1] / "firmware"
MAX_CYCLES = 10_000_000  # a frame the emulator runs longer than this is a bug


class Program:
    """What ``@rp2.asm_pio`` makes: the assembled program and its settings."""

    def __init__(self, text: str, settings: dict):
        self.text = text
        self.settings = settings
        self.assembled = adafruit_pioasm.Program(text)


class _Instruction:
    def __init__(self, lines: list[object], text: str):
        self.text, self.side_value, self.delay = text, None, 0
        lines.append(self)

    def side(self, value: int) -> _Instruction:
        self.side_value = value
        return self

    def __getitem__(self, delay: int) -> _Instruction:
        self.delay = delay
        return self

    def __str__(self) -> str:
        side = "" if self.side_value is None else f" side {self.side_value}"
        return f"    {self.text}{side} [{self.delay}]"


def asm_pio(**settings):
    """MicroPython's decorator: the function's instructions, assembled."""

    def assemble(function) -> Program:
        lines: list[object] = []

        def instruction(text: str) -> _Instruction:
            return _Instruction(lines, text)

        def jmp(cond: str, label: str | None = None) -> _Instruction:
            return instruction(f"jmp {cond}" if label is None else f"jmp {cond} {label}")

        names = {
            **{name: name for name in ("x", "y", "pins", "null", "isr", "osr")},
            **{"not_x": "!x", "not_y": "!y", "x_dec": "x--", "y_dec": "y--"},
            "wrap_target": lambda: lines.append(".wrap_target"),
            "wrap": lambda: lines.append(".wrap"),
            "label": lambda name: lines.append(f"{name}:"),
            "nop": lambda: instruction("nop"),
            "out": lambda dest, bits: instruction(f"out {dest}, {bits}"),
            "set": lambda dest, value: instruction(f"set {dest}, {value}"),
            "jmp": jmp,
        }
        body = types.FunctionType(function.__code__, names, argdefs=function.__defaults__)
        body()
        side = settings.get("sideset_init")
        head = [f".program {function.__name__}"] + ([".side_set 1"] if side is not None else [])
        return Program("\n".join([*head, *map(str, lines)]) + "\n", settings)

    return assemble


class Chip:
    """The clock, and each pin's levels over time."""

    def __init__(self):
        self.ns = 0
        self.waves: dict[int, list[tuple[int, int]]] = collections.defaultdict(lambda: [(0, 0)])
        self.busy_until: dict[int, int] = {}

    def wave(self, pin: int) -> list[tuple[int, int]]:
        return self.waves[pin]

    def run(self, program: Program, freq: int, pin: int, words: list[int]) -> None:
        """Put ``words`` through the state machine on ``pin``, from when it is next idle."""
        settings, kwargs = program.settings, program.assembled.pio_kwargs
        threshold = settings.get("pull_thresh", 32)
        opcodes = list(program.assembled.assembled)
        start = max(self.ns, self.busy_until.get(pin, 0))
        cycle_ns = 1_000_000_000 / freq

        def drained(state: State) -> bool:
            empty = not state.transmit_fifo and state.output_shift_register.counter >= threshold
            return empty and state.program_counter == 0

        def too_long(opcode: int, state: State) -> bool:
            if state.clock > MAX_CYCLES:
                raise AssertionError("the PIO program never came back to wait for data")
            return False

        wave = self.waves[pin]
        level = wave[-1][1]
        for before, after in emulate(
            opcodes,
            stop_when=too_long,
            initial_state=State(transmit_fifo=collections.deque(words)),
            auto_pull=settings.get("autopull", False),
            pull_threshold=threshold,
            shift_osr_right=settings.get("out_shiftdir", 0) == PIO.SHIFT_RIGHT,
            side_set_base=0,
            side_set_count=kwargs.get("sideset_pin_count", 0),
            wrap_target=kwargs.get("wrap_target", 0),
            wrap_top=kwargs.get("wrap", len(opcodes) - 1),
        ):
            if after.pin_values & 1 != level:
                level = after.pin_values & 1
                wave.append((start + round(before.clock * cycle_ns), level))
            if drained(before) and drained(after) and before.clock:
                break  # stalled for data, its side-set applied: idle until the next put
        self.busy_until[pin] = start + round(after.clock * cycle_ns)


class PIO:
    OUT_LOW, OUT_HIGH = 2, 3
    SHIFT_LEFT, SHIFT_RIGHT = 0, 1


class StateMachine:
    def __init__(self, index: int, program: Program, freq: int, sideset_base: Pin):
        self.program, self.freq, self.pin = program, freq, sideset_base.id
        self.running = False

    def active(self, on: int) -> None:
        self.running = bool(on)

    def put(self, words, shift: int = 0) -> None:
        assert self.running, "put() on a state machine that is not active"
        CHIP.run(self.program, self.freq, self.pin, [(w << shift) & 0xFFFFFFFF for w in words])


class Pin:
    IN, OUT, PULL_UP = 0, 1, 1

    def __init__(self, id: int, *mode):
        self.id = id


class Time:
    """MicroPython's time functions pico.py uses, on the chip's clock."""

    def ticks_us(self) -> int:
        return CHIP.ns // 1000

    def ticks_ms(self) -> int:
        return CHIP.ns // 1_000_000

    def ticks_add(self, a: int, b: int) -> int:
        return a + b

    def ticks_diff(self, a: int, b: int) -> int:
        return a - b

    def sleep_us(self, us: int) -> None:
        CHIP.ns += us * 1000

    def sleep_ms(self, ms: int) -> None:
        CHIP.ns += ms * 1_000_000


CHIP = Chip()


def load() -> tuple[types.ModuleType, Chip]:
    """Import firmware/pico.py afresh on a fresh chip; return it and the chip."""
    global CHIP
    CHIP = Chip()
    from pegboard._firmware import pegfirm, pegproto

    fakes = {
        "rp2": types.SimpleNamespace(asm_pio=asm_pio, PIO=PIO, StateMachine=StateMachine),
        "machine": types.SimpleNamespace(Pin=Pin),
        "micropython": types.SimpleNamespace(kbd_intr=lambda chars: None),
        "pegfirm": pegfirm,
        "pegproto": pegproto,
    }
    saved = {name: sys.modules.get(name) for name in fakes}
    sys.modules.update(fakes)
    try:
        spec = importlib.util.spec_from_file_location("pico_firmware", FIRMWARE / "pico.py")
        pico = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(pico)
    finally:
        for name, module in saved.items():
            if module is None:
                sys.modules.pop(name, None)
            else:
                sys.modules[name] = module
    pico.time = Time()
    return pico, CHIP
