"""A board's panel announced on the network over mDNS, as a Pi board's avahi announces
it (hardware/avahi/pegboard.service: an ``_http._tcp`` service named "pegboard cribbage
board on HOST"), so a club's discovery (:mod:`pegboard.club.discovery`) finds a laptop's
``pegboard serve --sim`` board as it finds a Pi. python-zeroconf does it, on a thread of
its own (probing takes a second or two: the board does not wait). A board listening on
loopback announces itself on loopback only.
"""

from __future__ import annotations

import logging
import socket
import threading

from zeroconf import IPVersion, ServiceInfo, Zeroconf

from pegboard.lan import ANY, lan_addresses

log = logging.getLogger(__name__)

SERVICE = "_http._tcp.local."
NAME = "pegboard cribbage board on {host}"  # the avahi file's name, %h its host


class Announced:
    """The panel on ``host``:``port`` announced (``sim``: a board with no hardware, the
    port in its name, so two on one machine are told apart) until :meth:`close`."""

    def __init__(self, host: str, port: int, *, sim: bool = False) -> None:
        name = NAME.format(host=socket.gethostname())
        if sim:
            name += f" (sim, port {port})"
        loopback = host.startswith("127.") or host in ("localhost", "::1")
        addresses = ["127.0.0.1"] if loopback else lan_addresses() if host in ANY else [host]
        self.info = ServiceInfo(
            SERVICE,
            f"{name}.{SERVICE}",
            addresses=[socket.inet_aton(a) for a in addresses if ":" not in a],
            port=port,
            properties={"path": "/"},
            server=f"{socket.gethostname()}.local.",
        )
        interfaces = ["127.0.0.1"] if loopback else None
        self._zeroconf = (
            Zeroconf(interfaces=interfaces, ip_version=IPVersion.V4Only)
            if interfaces
            else Zeroconf(ip_version=IPVersion.V4Only)
        )
        self._thread = threading.Thread(target=self._register, name="announce", daemon=True)
        self._thread.start()

    def _register(self) -> None:
        try:
            self._zeroconf.register_service(self.info, allow_name_change=True)
        except Exception as error:  # the board plays on unannounced: say why
            log.warning("the board cannot announce itself on the network: %s", error)

    def close(self) -> None:
        """Stop announcing (the service said gone); safe twice."""
        self._thread.join(timeout=10)
        try:
            self._zeroconf.unregister_all_services()
        finally:
            self._zeroconf.close()
