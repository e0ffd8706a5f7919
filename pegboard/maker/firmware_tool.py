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
import errno
import importlib.util
import os
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from importlib import resources
from importlib.resources.abc import Traversable
from typing import NamedTuple

import serial

from pegboard._firmware import pegproto
from pegboard.errors import ConfigError, LinkError
from pegboard.i18n import N_, Phrase
from pegboard.leds.link import find_pico, frames_within, open_port
from pegboard.leds.pico import send_repl

# Files that stay on the host: the package marker, and the fake chip the tests use.
HOST_ONLY = frozenset({"__init__.py", "fakehw.py"})
LISTEN_SECONDS = 3.5  # a running firmware says HELLO within 3 s once the host is quiet
BOOT_SECONDS = 15.0  # a reset Pico is back on USB and answering within this
ACK_SECONDS = 2.0  # a running firmware acks the reboot into the REPL within this
MPREMOTE_SECONDS = 120.0
INSTALL_COMMAND = "pegboard firmware install"  # the cure for a missing or older firmware
# Who may open the Pico's port, and how to stop the service that holds it.
PORT_GROUP = "dialout"
STOP_SERVICE = "sudo systemctl stop pegboard"

Say = Callable[[Phrase], None]  # each step of an install, said as it starts


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


def copy_to_pico(port: str, timeout: float | None = None) -> None:
    """Copy the firmware to the Pico on ``port`` (in its REPL) with mpremote, then reset it
    (within ``timeout`` seconds, by default ``MPREMOTE_SECONDS``)."""
    timeout = MPREMOTE_SECONDS if timeout is None else timeout
    if importlib.util.find_spec("mpremote") is None:
        missing = N_("{tool} is not installed: {command}")
        raise ConfigError(Phrase.of(missing, tool="mpremote", command="pip install mpremote"))
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
            late = N_("mpremote gave no result on {port} in {seconds} s")
            raise LinkError(Phrase.of(late, port=port, seconds=f"{timeout:g}")) from error
    if done.returncode != 0:
        said = done.stderr.strip() or done.stdout.strip()
        failed = N_("mpremote could not copy the firmware to {port}: {said}")
        if not said:
            failed = N_("mpremote could not copy the firmware to {port}, and said nothing")
        raise LinkError(Phrase.of(failed, port=port, said=said.splitlines()[-1] if said else ""))


Version = tuple[int, int, int]


class Hello(NamedTuple):
    """What a Pico's HELLO says it runs (MicroPython's version: None from a firmware
    older than 1.1)."""

    firmware: Version
    micropython: Version | None


def hello(port: str, *, ask: bool = True, timeout: float = 3.0) -> Hello | None:
    """What the Pico's HELLO on ``port`` says it runs, or None if no HELLO came in time.

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
                    firmware = pegproto.unpack_hello(payload)[0]
                    return Hello(firmware, pegproto.hello_micropython(payload))
            except pegproto.FrameError as error:
                if len(error.args) > 1:  # a good frame, in another protocol version
                    raise LinkError(_other_protocol(port, frame)) from None
    return None


def version_problem(version: Version | None, micropython: Version | None = None) -> Phrase | None:
    """What is wrong with the firmware or MicroPython version a Pico reported, or None.

    >>> version_problem(pegproto.FIRMWARE_VERSION) is None
    True
    >>> str(version_problem((0, 9, 0)))  # doctest: +ELLIPSIS
    'the Pico runs firmware 0.9.0 but this pegboard needs ...: run pegboard firmware install'
    >>> version_problem(pegproto.FIRMWARE_VERSION, (1, 19, 1)).say("sv")  # doctest: +ELLIPSIS
    'Pico kör MicroPython 1.19.1; LED-programmet behöver 1.20.0 eller nyare: ...'
    """
    if version == pegproto.FIRMWARE_VERSION:
        # The firmware's own rule; an old firmware does not say its MicroPython.
        if micropython is None or pegproto.micropython_problem(micropython) is None:
            return None
        too_old = N_(
            "the Pico runs MicroPython {version}; the firmware needs {needed} or newer: "
            "flash a newer MicroPython, then run {command}"
        )
        needed = _dotted(pegproto.MICROPYTHON_MIN)
        return Phrase.of(
            too_old, version=_dotted(micropython), needed=needed, command=INSTALL_COMMAND
        )
    if version is None:
        return Phrase(N_("the Pico has not said which firmware it runs"))
    older = N_("the Pico runs firmware {version} but this pegboard needs {needed}: run {command}")
    needed = _dotted(pegproto.FIRMWARE_VERSION)
    return Phrase.of(older, version=_dotted(version), needed=needed, command=INSTALL_COMMAND)


def check(port: str | None = None, timeout: float = 3.0) -> Version:
    """The handshake: the Pico's firmware answers, in the version this pegboard speaks,
    on a MicroPython new enough; return the firmware version."""
    port = port or find_pico()
    return _matching(port, hello(port, timeout=timeout), timeout)


def install(port: str | None = None, say: Say = print) -> Version:
    """Copy the firmware to the Pico, reset it and check the handshake; return its version.
    ``say`` hears each step as a :class:`~pegboard.i18n.Phrase` (``print``: in English)."""
    port = port or find_pico()
    names = ", ".join(name for name, _ in firmware_files())
    running = hello(port, ask=False, timeout=LISTEN_SECONDS)
    if running is not None:
        step = N_("firmware {version} runs on {port}: asking the Pico to reboot into the REPL")
        say(Phrase.of(step, version=_dotted(running.firmware), port=port))
        if not send_repl(port, timeout=ACK_SECONDS):
            refused = N_("the firmware on {port} did not agree to reboot into the REPL")
            raise LinkError(Phrase.of(refused, port=port))
        _wait_back(port)
    say(Phrase.of(N_("copying {names} to the Pico on {port} (mpremote)"), names=names, port=port))
    copy_to_pico(port)
    say(Phrase(N_("the Pico restarts; waiting for the firmware's HELLO")))
    _wait_back(port)
    version = _matching(port, _retry(lambda: hello(port), BOOT_SECONDS), BOOT_SECONDS)
    matches = N_("firmware {version} answers on {port}: it matches this pegboard")
    say(Phrase.of(matches, version=_dotted(version), port=port))
    return version


def back_to_repl(port: str | None = None) -> str:
    """Ask the firmware to reboot once into the REPL; return the port. LinkError if it won't."""
    port = port or find_pico()
    with _port_errors(port):
        done = send_repl(port)
    if not done:
        silent = N_("no answer from the firmware on {port}: is the pegboard service stopped?")
        raise LinkError(Phrase.of(silent, port=port))
    return port


def port_refusal(port: str, error: serial.SerialException) -> Phrase:
    """Why ``port`` did not open, with the cure: missing, not allowed, or in use."""
    match error.errno:
        case errno.ENOENT | errno.ENODEV | errno.ENXIO:
            return Phrase.of(N_("there is no {port}: is the Pico plugged in?"), port=port)
        case errno.EACCES | errno.EPERM:
            allowed = N_(
                "you may not open {port}: join the {group} group ({command}), then log in again"
            )
            command = f"sudo usermod -aG {PORT_GROUP} $USER"
            return Phrase.of(allowed, port=port, group=PORT_GROUP, command=command)
        case errno.EAGAIN | errno.EBUSY:
            busy = N_("{port} is in use: is the pegboard service running? ({command})")
            return Phrase.of(busy, port=port, command=STOP_SERVICE)
    failed = N_("cannot open the Pico's port {port}: {reason}")
    return Phrase.of(failed, port=port, reason=error.strerror or str(error))


# --- helpers --------------------------------------------------------------------------------


@contextlib.contextmanager
def _port_errors(port: str) -> Iterator[None]:
    try:
        yield
    except serial.SerialException as error:
        raise LinkError(port_refusal(port, error)) from error


@contextlib.contextmanager
def _opened(port: str) -> Iterator[serial.SerialBase]:
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
            late = N_("the Pico did not come back on {port} within {seconds} s")
            raise LinkError(Phrase.of(late, port=port, seconds=f"{BOOT_SECONDS:g}"))
        time.sleep(0.1)


def _matching(port: str, said: Hello | None, waited: float) -> Version:
    if said is None:
        silent = N_("no HELLO from pegboard's firmware on {port} within {seconds} s")
        raise LinkError(Phrase.of(silent, port=port, seconds=f"{waited:g}"))
    problem = version_problem(*said)
    if problem:
        raise LinkError(problem)
    return said.firmware


def _retry(attempt: Callable[[], Hello | None], seconds: float) -> Hello | None:
    """Run ``attempt`` until it gives a version or ``seconds`` pass (the port may be settling)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            said = attempt()
        except LinkError:
            said = None
            if time.monotonic() > deadline:
                raise
        if said is not None or time.monotonic() > deadline:
            return said
        time.sleep(0.2)


def _other_protocol(port: str, frame: bytes) -> Phrase:
    """A Pico that answers in another protocol version, and how to put this one on it."""
    theirs = pegproto.cobs_decode(frame)[0]  # a frame's first byte: its protocol version
    other = N_(
        "the Pico on {port} speaks another protocol (version {theirs}, this pegboard's is "
        "{ours}); to reinstall, hold {pin} to GND while plugging it in, then run {command}"
    )
    return Phrase.of(
        other,
        port=port,
        theirs=theirs,
        ours=pegproto.VERSION,
        pin=f"GP{pegproto.REPL_PIN}",
        command=INSTALL_COMMAND,
    )


def _dotted(version: tuple[int, ...]) -> str:
    return ".".join(map(str, version))
