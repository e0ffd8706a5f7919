"""Finding the LED boards on the network: each board announces its panel over mDNS
(hardware/avahi/pegboard.service: an ``_http._tcp`` service named "pegboard cribbage
board on HOST"; a ``pegboard serve --sim`` board the same way, :mod:`pegboard.panel.announce`);
:class:`Boards` follows them with python-zeroconf's
:class:`~zeroconf.ServiceBrowser`, as they come, change and go. The director's page
lists them (and ``GET /club/api/boards``), each to pair with its PIN; a board found is
paired by its address, as one given by hand is.

A club that listens on loopback looks for boards on loopback only (a test night, a
hall's boards on one machine); otherwise on every network the machine is on.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from zeroconf import InterfaceChoice, IPVersion, ServiceBrowser, ServiceListener, Zeroconf

from pegboard.panel.announce import NAME as ANNOUNCED
from pegboard.panel.announce import SERVICE

NAME = ANNOUNCED.split(" ", 1)[0]  # the announced names start with it: "pegboard"
WAIT_MS = 3000  # for a board's address, once it is announced


@dataclass(frozen=True, slots=True)
class Found:
    name: str
    address: str  # the board's panel: http://host:port


class Boards(ServiceListener):
    """The boards announced on the network now (:meth:`found`), until :meth:`close`."""

    def __init__(self, zeroconf: Zeroconf | None = None) -> None:
        self._lock = threading.Lock()
        self._found: dict[str, Found] = {}
        self._zeroconf = zeroconf or Zeroconf(interfaces=InterfaceChoice.All)
        self._browser = ServiceBrowser(self._zeroconf, SERVICE, self)

    def found(self) -> list[Found]:
        with self._lock:
            return sorted(self._found.values(), key=lambda found: found.name)

    def add_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        if not name.lower().startswith(NAME):
            return
        info = zc.get_service_info(type_, name, timeout=WAIT_MS)
        addresses = info.parsed_addresses() if info is not None else []
        if info is None or not addresses or info.port is None:
            return
        host = addresses[0]
        shown = f"[{host}]" if ":" in host else host
        port = "" if info.port == 80 else f":{info.port}"
        with self._lock:
            self._found[name] = Found(name.removesuffix("." + type_), f"http://{shown}{port}")

    def update_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        self.add_service(zc, type_, name)

    def remove_service(self, zc: Zeroconf, type_: str, name: str) -> None:
        with self._lock:
            self._found.pop(name, None)

    def close(self) -> None:
        self._browser.cancel()
        self._zeroconf.close()


def for_host(host: str) -> Boards:
    """The boards seen from a club listening on ``host`` (see the module's words)."""
    if host.startswith("127.") or host in ("localhost", "::1"):
        return Boards(Zeroconf(interfaces=["127.0.0.1"], ip_version=IPVersion.V4Only))
    return Boards()
