"""``pegboard league``: the league's service (its page and API, :mod:`pegboard.league.web`)
over its database: the one given (``--db postgresql://…``), else a cluster of its own in
its data folder (:mod:`pegboard.league.cluster`), started with it and stopped after.
"""

from __future__ import annotations

import secrets
import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from pegboard import lan, startup
from pegboard.club.nightfile import MOST_BYTES
from pegboard.files import write_private
from pegboard.i18n import N_, Phrase
from pegboard.league.cluster import Cluster
from pegboard.league.store import LeagueStore
from pegboard.league.web import create_league_app
from pegboard.panel.server import Limits, PanelServer

CLUSTER = "postgres"  # the league's own cluster, in its data folder


@contextmanager
def database(url: str | None, folder: Path) -> Iterator[str]:
    """``url``, else the league's own cluster in ``folder`` (started if it is not
    running, and then stopped at the end)."""
    if url:
        yield url
        return
    cluster = Cluster(folder / CLUSTER)
    started = not cluster.running() if (cluster.data / "PG_VERSION").is_file() else True
    made = cluster.start()
    try:
        yield made
    finally:
        if started:
            cluster.stop()


def run(url: str | None, folder: Path, host: str, port: int, *, pin: str | None, lang: str) -> int:
    """Serve the league until SIGTERM or Ctrl-C."""
    startup.check_listen(host, port)
    startup.check_data_folder(folder)
    startup.make_data_folder(folder)
    startup.check_kept(folder, pin_kept=pin is None)
    pin, new = startup.pin_of(folder, pin)
    key = startup.kept_key(folder) or secrets.token_hex(32)
    write_private(folder / startup.KEY_FILE, key)
    with database(url, folder) as found:
        league = LeagueStore(found)
        hosts = tuple(sorted(lan.own_hosts(host)))
        app = create_league_app(league, pin, secret_key=key, hosts=hosts, lang=lang, folder=folder)
        server = PanelServer(app, host, port, Limits(body_bytes=MOST_BYTES, body_seconds=60))

        def stop(signum: int, frame: object) -> None:
            server.stop()

        for number in (signal.SIGTERM, signal.SIGINT):
            signal.signal(number, stop)
        say(Phrase.of(N_("league at {url}"), url=lan.panel_urls(host, server.port)[0][0]), lang)
        said = (
            N_("the league's admin PIN {pin} (new)") if new else N_("the league's admin PIN {pin}")
        )
        say(Phrase.of(said, pin=pin), lang)
        server.run()
    return 0


def say(said: Phrase, lang: str) -> None:
    print(f"pegboard: {said.say(lang)}", file=sys.stdout, flush=True)
