"""``pegboard firmware``: put the LED firmware on the Pico and check that it answers.

``install`` copies the firmware files shipped in the package (``pegboard._firmware``)
to the Pico's filesystem with ``mpremote``, resets it, and waits for the firmware's
HELLO: its version must be the one this pegboard speaks. If the firmware already
runs, the Pico is first asked to reboot into the REPL (the firmware owns the port,
so ``mpremote`` could not get in). ``check`` is the handshake alone, and ``repl``
the way back to the REPL.

>>> [name for name, _ in firmware_files()]
['main.py', 'pegfirm.py', 'pegproto.py', 'pico.py']
>>> mpremote_command("/dev/ttyACM0", ["/x/main.py"])[3:]
['connect', '/dev/ttyACM0', 'cp', '/x/main.py', ':', '+', 'reset']
"""

from __future__ import annotations

import contextlib
import importlib.util
import os
import subprocess
import sys
import time
from collections.abc import Callable
from importlib import resources
from importlib.resources.abc import Traversable

import serial

from pegboard._firmware import pegproto
from pegboard.errors import ConfigError, LinkError
from pegboard.leds.link import find_pico, frames_within, open_port
from pegboard.leds.pico import send_repl

# Files that stay on the host: the package marker, and the fake chip the tests use.
HOST_ONLY = frozenset({"__init__.py", "fakehw.py"})
LISTEN_SECONDS = 3.5  # a running firmware says HELLO within 3 s once the host is quiet
BOOT_SECONDS = 15.0  # a reset Pico is back on USB and answering within this
MPREMOTE_SECONDS = 120.0

Say = Callable[[str], None]


def firmware_files() -> list[tuple[str, Traversable]]:
    """The files that go to the Pico, by name, from the installed package."""
    folder = resources.files("pegboard._firmware")
    return sorted(
        (item.name, item)
        for item in folder.iterdir()
        if item.name.endswith(".py") and item.name not in HOST_ONLY
    )


def mpremote_command(port: str, paths: list[str]) -> list[str]:
    """The ``mpremote`` command line that copies ``paths`` to the Pico's root and resets it."""
    return [sys.executable, "-m", "mpremote", "connect", port, "cp", *paths, ":", "+", "reset"]


def copy_to_pico(port: str, timeout: float = MPREMOTE_SECONDS) -> None:
    """Copy the firmware to the Pico on ``port`` (in its REPL) with mpremote, then reset it."""
    if importlib.util.find_spec("mpremote") is None:
        raise ConfigError("mpremote is not installed: pip install mpremote")
    with contextlib.ExitStack() as stack:
        paths = [str(stack.enter_context(resources.as_file(f))) for _, f in firmware_files()]
        try:
            done = subprocess.run(
                mpremote_command(port, paths),
                capture_output=True,
                text=True,
                timeout=timeout,
                check=False,
            )
        except subprocess.TimeoutExpired as error:
            raise LinkError(f"mpremote gave no result on {port} in {timeout:g} s") from error
    if done.returncode != 0:
        said = (done.stderr.strip() or done.stdout.strip() or "no message").splitlines()[-1]
        raise LinkError(f"mpremote could not copy the firmware to {port}: {said}")


Version = tuple[int, int, int]


def hello(port: str, *, ask: bool = True, timeout: float = 3.0) -> tuple[Version, Version | None]:
    """The firmware and MicroPython versions in the Pico's HELLO on ``port`` (MicroPython's
    None from a firmware older than 1.1), or None if no HELLO came in time.

    ``ask``: send a HELLO first (the firmware answers at once); without it, only
    listen, so that nothing is typed into a Pico that sits in its REPL. LinkError
    if the port cannot be opened or the Pico speaks another protocol version.
    """
    with _opened(port) as link:
        if ask:
            link.write(pegproto.pack(pegproto.HELLO, 1))
        for frame in frames_within(link, timeout):
            try:
                kind, _, payload = pegproto.unpack(frame)
                if kind == pegproto.HELLO:
                    return pegproto.unpack_hello(payload)[0], pegproto.hello_micropython(payload)
            except pegproto.FrameError as error:
                if len(error.args) > 1:  # a good frame, in another protocol version
                    raise LinkError(
                        f"the Pico on {port} speaks another protocol ({error.args[0]}); "
                        "to reinstall, hold GP22 to GND while plugging it in, then run "
                        "pegboard firmware install"
                    ) from None
    return None


def version_problem(version: Version | None, micropython: Version | None = None) -> str | None:
    """What is wrong with the firmware or MicroPython version a Pico reported, or None.

    >>> version_problem(pegproto.FIRMWARE_VERSION) is None
    True
    >>> version_problem((0, 9, 0))  # doctest: +ELLIPSIS
    'the Pico runs firmware 0.9.0 but this pegboard needs ...: run pegboard firmware install'
    """
    if version == pegproto.FIRMWARE_VERSION:
        return pegproto.micropython_problem(micropython)
    if version is None:
        return "the Pico has not said which firmware it runs"
    return (
        f"the Pico runs firmware {_dotted(version)} but this pegboard needs "
        f"{_dotted(pegproto.FIRMWARE_VERSION)}: run pegboard firmware install"
    )


def check(port: str | None = None, timeout: float = 3.0) -> Version:
    """The handshake: the Pico's firmware answers, in the version this pegboard speaks,
    on a MicroPython new enough; return the firmware version."""
    port = port or find_pico()
    return _matching(port, hello(port, timeout=timeout), timeout)


def install(port: str | None = None, say: Say = print) -> Version:
    """Copy the firmware to the Pico, reset it and check the handshake; return its version."""
    port = port or find_pico()
    names = ", ".join(name for name, _ in firmware_files())
    running = hello(port, ask=False, timeout=LISTEN_SECONDS)
    if running is not None:
        running_version = _dotted(running[0])
        say(f"firmware {running_version} runs on {port}: asking the Pico to reboot into the REPL")
        if not send_repl(port):
            raise LinkError(f"the firmware on {port} did not agree to reboot into the REPL")
        _wait_back(port)
    say(f"copying {names} to the Pico on {port} (mpremote)")
    copy_to_pico(port)
    say("the Pico restarts; waiting for the firmware's HELLO")
    _wait_back(port)
    version = _matching(port, _retry(lambda: hello(port), BOOT_SECONDS), BOOT_SECONDS)
    say(f"firmware {_dotted(version)} answers on {port}: it matches this pegboard")
    return version


def back_to_repl(port: str | None = None) -> str:
    """Ask the firmware to reboot once into the REPL; return the port. LinkError if it won't."""
    port = port or find_pico()
    with _port_errors(port):
        done = send_repl(port)
    if not done:
        raise LinkError(f"no answer from the firmware on {port}: is the pegboard service stopped?")
    return port


# --- helpers --------------------------------------------------------------------------------


@contextlib.contextmanager
def _port_errors(port: str):
    try:
        yield
    except serial.SerialException as error:
        raise LinkError(f"cannot open the Pico's port {port}: {error}") from error


@contextlib.contextmanager
def _opened(port: str):
    with _port_errors(port):
        link = open_port(port)
    with link:
        yield link


def _wait_back(port: str, gone: float = 2.0) -> None:
    """After a reset: wait for the USB port to go (if it does) and come back."""
    deadline = time.monotonic() + gone
    while os.path.exists(port) and time.monotonic() < deadline:
        time.sleep(0.1)
    deadline = time.monotonic() + BOOT_SECONDS
    while not os.path.exists(port):
        if time.monotonic() > deadline:
            raise LinkError(f"the Pico did not come back on {port} within {BOOT_SECONDS:g} s")
        time.sleep(0.1)


def _matching(port: str, said: tuple[Version, Version | None] | None, waited: float) -> Version:
    if said is None:
        raise LinkError(f"no HELLO from pegboard's firmware on {port} within {waited:g} s")
    problem = version_problem(*said)
    if problem:
        raise LinkError(problem)
    return said[0]


def _retry(attempt: Callable[[], tuple[Version, Version | None] | None], seconds: float):
    """Run ``attempt`` until it gives a version or ``seconds`` pass (the port may be settling)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            version = attempt()
        except LinkError:
            version = None
            if time.monotonic() > deadline:
                raise
        if version is not None or time.monotonic() > deadline:
            return version
        time.sleep(0.2)


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))
