"""``pegboard club``: the night's program on the director's laptop or Pi. It opens the
club's file, the night's hosted tables and the boards paired with it, follows every
table, and serves the club's pages and API until SIGTERM or Ctrl-C, all on one port and
one loop (:mod:`pegboard.club.hall`): the club's pages at its root, each hosted table's
panel under ``/table/N/``. A restart takes the night up where it was.
"""

from __future__ import annotations

import secrets
import signal
import sys
from pathlib import Path

from pegboard import lan, startup
from pegboard.club.director import Director
from pegboard.club.hall import Hall
from pegboard.club.store import ClubStore
from pegboard.club.web import create_club_app
from pegboard.config import NOT_A_PIN, is_pin
from pegboard.errors import ConfigError
from pegboard.files import write_private
from pegboard.i18n import N_, Phrase

STORE = "club.db"


def run(
    folder: Path,
    host: str,
    port: int,
    *,
    pin: str | None = None,
    tables: int = 0,
    poll: float = 2.0,
    follow: str = "stream",
    discover: bool = False,
    lang: str = "en",
) -> int:
    """Run the club from ``folder`` until SIGTERM or Ctrl-C. The director's ``pin``
    follows the board's rules (4 to 8 digits), refused in one line before anything."""
    if pin is not None and not is_pin(pin):
        raise ConfigError(Phrase.of(NOT_A_PIN, source="pegboard club", key="--pin"))
    startup.check_listen(host, port)
    startup.check_data_folder(folder)
    startup.make_data_folder(folder)
    startup.check_kept(folder, pin_kept=pin is None)
    pin, new = startup.pin_of(folder, pin)
    store = ClubStore(folder / STORE)
    hall = Hall(host, port)  # the club's pages and the hosted tables' panels: one server
    director = Director(store, folder, host, hall=hall, poll=poll, follow=follow, lang=lang)
    boards = None
    try:
        while len(director.night.tables) < tables:
            director.add_hosted("club")
        if discover:
            from pegboard.club.discovery import for_host

            boards = for_host(host)
        key = startup.kept_key(folder) or secrets.token_hex(32)
        write_private(folder / startup.KEY_FILE, key)
        app = create_club_app(
            director,
            store,
            pin,
            secret_key=key,
            hosts=tuple(sorted(lan.own_hosts(host))),
            lang=lang,
            tries=folder / startup.TRIES_FILE,
        )
        app.extensions["pegboard.boards"] = boards
        hall.mounts.root = app
        director.start()

        def stop(signum: int, frame: object) -> None:
            hall.stop()

        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, stop)
        url = lan.panel_urls(host, hall.port)[0][0]
        _say(Phrase.of(N_("club at {url}"), url=url), lang)
        said = N_("the night's PIN {pin} (new)") if new else N_("the night's PIN {pin}")
        _say(Phrase.of(said, pin=pin), lang)
        for table, link in sorted(director.links.items()):
            address, table_pin = getattr(link, "address", ""), getattr(link, "pin", None)
            if table_pin is None:  # a board: its own PIN, on the board
                _say(Phrase.of(N_("table {table} at {url}"), table=table, url=address), lang)
                continue
            said = N_("table {table} at {url}, its PIN {pin}")
            _say(Phrase.of(said, table=table, url=address, pin=table_pin), lang)
        hall.run()
    finally:
        director.close()
        hall.close()
        if boards is not None:
            boards.close()
        store.close()
    return 0


def _say(said: Phrase, lang: str) -> None:
    print(f"pegboard: {said.say(lang)}", file=sys.stdout, flush=True)
