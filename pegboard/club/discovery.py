"""Finding the LED boards on the network: each board announces its panel over mDNS
(hardware/avahi/pegboard.service: an ``_http._tcp`` service named "pegboard cribbage
board on HOST"); :class:`Boards` follows them with python-zeroconf's
:class:`~zeroconf.ServiceBrowser`, as they come, change and go. The director's page
lists them, to pair with their PIN.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from zeroconf import ServiceBrowser, ServiceListener, Zeroconf

SERVICE = "_http._tcp.local."
NAME = "pegboard"  # the announced names start with it
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
        self._zeroconf = zeroconf or Zeroconf()
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
