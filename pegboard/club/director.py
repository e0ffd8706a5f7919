"""The director: the night's one writer. Every change the director makes (the format,
the players, the tables, each round's draw, a correction) is checked, stored as one
event in the club's file, and applied to the night; a follower brings in what the
tables did by themselves: it starts each seated game at its table, watches where the
game stands, and when it is over counts it from the table's log (checked and replayed:
:mod:`pegboard.club.results`).

Nothing is lost and nothing counted twice: a result is keyed by its table and the
table's game, so a log counted again after a restart (of the director, of a board) or
a retry is no new event; a table that cannot be reached is shown as such, with since
when, and followed again as soon as it answers. Hosted tables tell the follower of each
change at once; boards are asked every ``poll`` seconds.
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pegboard.club import night as nights
from pegboard.club import seating
from pegboard.club.night import BOARD, HOSTED, Event, Night, Player, Seat
from pegboard.club.results import Refused, counted
from pegboard.club.standings import Standing, standings
from pegboard.club.store import ClubStore
from pegboard.club.tables import Board, Hosted, Link, Paired, Unreachable
from pegboard.errors import ClubError, PegboardError
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.pairing import asked

log = logging.getLogger(__name__)

POLL = 2.0  # seconds between two looks at the boards
FOLLOWERS = 16  # tables looked at together (one that does not answer holds up no other)
CLUB = "club"  # who made what the club did by itself (a game started, a result counted)


@dataclass
class Seen:
    """How a table answered last: ``since`` when it has answered so (or not), and the
    error it gave (None: it answers)."""

    since: float = field(default_factory=time.time)
    error: Phrase | None = None


@dataclass(frozen=True, slots=True)
class Logged:
    """One event of the night as stored: who made it and when."""

    event: Event
    by: str
    at: str


class Director:
    """The night kept in ``store``; hosted tables' files under ``folder``, their panels
    on ``host`` (each on a port of its own, kept across restarts)."""

    def __init__(
        self,
        store: ClubStore,
        folder: Path,
        host: str = "127.0.0.1",
        *,
        poll: float = POLL,
        lang: str = "en",
        rng: random.Random | None = None,
    ) -> None:
        self.store, self.folder, self.host, self.poll, self.lang = store, folder, host, poll, lang
        self.rng = rng or random.Random(secrets.randbits(64))
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.links: dict[int, Link] = {}
        self.seen: dict[int, Seen] = {}
        self.refused: dict[tuple[int, int], Phrase] = {}  # (round, table): why its log is not
        self._standings: tuple[int, list[Standing]] | None = None
        self._pool = ThreadPoolExecutor(FOLLOWERS, thread_name_prefix="follow")
        self._thread: threading.Thread | None = None
        self._open(store.night())

    def _open(self, night: int) -> None:
        self.night_id, self.night, self.history = night, Night(), []
        for event, by, at in self.store.events(night):
            self.night.apply(event)
            self.history.append(Logged(event, by, at))
        for table in self.night.tables.values():
            self._link(table)

    # --- reading ------------------------------------------------------------------------

    @property
    def version(self) -> int:
        return self.night.version

    def wait(self, version: int, timeout: float) -> int:
        """Wait until the night moves past ``version`` (or ``timeout`` seconds)."""
        with self._changed:
            self._changed.wait_for(lambda: self.night.version != version, timeout)
            return self.night.version

    def standings(self) -> list[Standing]:
        """The night's standings, worked out once for each change."""
        with self._lock:
            kept = self._standings
            if kept is None or kept[0] != self.night.version:
                kept = self._standings = (self.night.version, standings(self.night))
            return kept[1]

    def player(self, code: str) -> Player | None:
        return next((p for p in self.night.players.values() if p.code == code), None)

    def join(self, player: Player) -> str:
        """A one-time link to the table ``player`` is seated at in the current round."""
        seat = self.night.seat_of(player.number)
        if seat is None:
            raise ClubError(Phrase(N_("you have no table this round")))
        return self.links[seat.table].join()

    # --- the director's changes ------------------------------------------------------------

    def set_format(self, data: dict[str, Any], by: str) -> None:
        with self._lock:
            self._store(nights.set_format(self.night, data), by)

    def add_player(self, name: str, acc: str, by: str) -> Player:
        with self._lock:
            event = nights.add_player(self.night, name, acc, secrets.token_urlsafe(6))
            self._store(event, by)
            return self.night.players[event.player]

    def add_hosted(self, by: str) -> int:
        """One more table served by the club: its number."""
        with self._lock:
            event = nights.add_table(self.night, HOSTED, "")
            self._store(event, by)
            self._link(event)
            return event.table

    def pair(self, address: str, pin: str | None, by: str, *, replaced: bool = False) -> int:
        """A board as one more table: paired with its ``pin`` (None: paired before). The
        board's key pinned at an earlier pairing must be its key still, unless the
        director says the board was ``replaced``."""
        from pegboard.club.tables import address_of

        address = address_of(address)
        with self._lock:
            event = nights.add_table(self.night, BOARD, address)  # refused if it is a table
            if pin is not None:
                self.pair_board(event.table, address, pin, replaced=replaced)
            elif self.store.paired(address) is None:
                raise ClubError(Phrase(N_("give the board's PIN to pair it")))
            self._store(event, by)
            self._link(event)
            return event.table

    def pair_board(self, table: int, address: str, pin: str, *, replaced: bool = False) -> Board:
        """Pair (again) with the board at ``address`` and keep what the pairing gave: its
        key pinned (the one pinned before, if any, must be the same unless ``replaced``)."""
        kept = self.store.paired(address)
        pinned = None if kept is None or replaced else bytes.fromhex(kept[2])
        board = Board.pair(table, address, pin, pinned)
        paired = board.paired
        self.store.keep_paired(address, paired.pairing, paired.key.hex(), paired.public.hex())
        return board

    def pair_again(self, table: int, pin: str, *, replaced: bool = False) -> None:
        """Pair tonight's board at ``table`` again (its PIN changed since, or the board
        was ``replaced``): followed with the new pairing from now on."""
        with self._lock:
            added = self.night.tables.get(table)
            if added is None or added.kind != BOARD:
                message = N_("tonight has no board at table {table}")
                raise ClubError(Phrase.of(message, table=table))
            board = self.pair_board(table, added.address, pin, replaced=replaced)
            old = self.links.get(table)
            if old is not None:
                old.close()
            self.links[table], self.seen[table] = board, Seen()
            self._changed.notify_all()
        self._wake.set()

    def draw(self, by: str) -> nights.RoundDrawn:
        """The next round, drawn and seated (its games start at their tables)."""
        with self._lock:
            night = self.night
            players = sorted(night.players)
            pairs, bye, order = seating.draw(
                players, night.met(), night.byes(), self.rng, night.order, night.round
            )
            event = nights.draw(night, pairs, bye, order)
            self._store(event, by)
        self._wake.set()
        return event

    def correct(self, round: int, table: int, winner: int, margin: int, why: str, by: str) -> None:
        with self._lock:
            self._store(nights.correct(self.night, round, table, winner, margin, why, by), by)

    def new_night(self, by: str) -> None:
        """Close this night and open the next (the tables go; boards stay paired)."""
        with self._lock:
            self._close_links()
            self._open(self.store.open_night())
            self._standings = None
            self._changed.notify_all()
        log.info("night %s opened by %s", self.night_id, by)

    def _store(self, event: Event, by: str) -> bool:
        """Store and apply ``event`` (False: a result stored already, nothing changed)."""
        with self._lock:
            if not self.store.append(self.night_id, self.night.version + 1, event, by):
                return False
            self.night.apply(event)
            self.history.append(Logged(event, by, time.strftime("%Y-%m-%d %H:%M:%S")))
            self._changed.notify_all()
            return True

    # --- the tables ---------------------------------------------------------------------

    def _link(self, table: nights.TableAdded) -> None:
        number = table.table
        try:
            if table.kind == HOSTED:
                kept = self.store.hosted(self.night_id).get(number)
                port, pin = kept or (0, f"{secrets.randbelow(10**6):06d}")
                hosted = self._hosted(number, port, pin)
                self.store.keep_hosted(self.night_id, number, hosted.port, pin)
                hosted.subscribe(lambda change: self._wake.set())
                self.links[number] = hosted
            else:
                found = self.store.paired(table.address)
                if found is not None:
                    pairing, key, public = found
                    paired = Paired(pairing, bytes.fromhex(key), bytes.fromhex(public))
                    self.links[number] = Board(number, table.address, paired)
            self.seen.setdefault(number, Seen())
        except (PegboardError, OSError) as error:
            self.seen[number] = Seen(error=phrase_of(error))

    def _hosted(self, number: int, port: int, pin: str) -> Hosted:
        folder = self.folder / f"night-{self.night_id}" / f"table-{number}"
        try:
            return Hosted(number, folder, self.host, port, pin, self.lang)
        except OSError:  # its port is taken since: another
            return Hosted(number, folder, self.host, 0, pin, self.lang)

    def start(self) -> None:
        """Follow the tables, on a thread of its own, until :meth:`close`."""
        self._thread = threading.Thread(target=self._follow, name="director", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.follow_once()
            except Exception:  # one bad round of looking must not stop the night
                log.exception("following the tables")
            self._wake.wait(self.poll)

    def follow_once(self) -> None:
        """Look once at every table with a game of the current round not yet counted."""
        with self._lock:
            seats = self.night.open_seats()
        list(self._pool.map(self._follow_seat, seats))

    def _follow_seat(self, seat: Seat) -> None:
        link = self.links.get(seat.table)
        if link is None:
            return
        try:
            self._bring_in(seat, link)
        except Unreachable as error:
            self._saw(seat.table, phrase_of(error))
        except Refused as error:
            self._saw(seat.table, None)
            self.refused[seat.round, seat.table] = phrase_of(error)
        except PegboardError as error:
            self._saw(seat.table, phrase_of(error))

    def asked(self, seat: Seat) -> str:
        """What the club asks at the start of ``seat``'s game: tonight, its table, its
        round and a nonce of its own (kept: a start sent again asks the same)."""
        nonce = self.store.nonce(self.night_id, seat.round, seat.table)
        return asked(self.night_id, seat.table, seat.round, nonce)

    def _bring_in(self, seat: Seat, link: Link) -> None:
        night, wanted = self.night, self.asked(seat)
        game = night.started.get((seat.round, seat.table))
        if game is None:
            names = tuple(night.players[p].name for p in seat.players)
            key = f"club-{self.night_id}-{seat.round}-{seat.table}"
            game = link.start((names[0], names[1]), night.format, key, wanted)
            self._store(nights.started(night, seat, game), CLUB)
        standing = link.standing(game, wanted)
        self._saw(seat.table, None)
        if standing.over:
            result = counted(night, seat, link.log(game, wanted))
            with self._lock:
                made = nights.count(self.night, result)
                if made is not None:
                    self._store(made, CLUB)
            self.refused.pop((seat.round, seat.table), None)

    def _saw(self, table: int, error: Phrase | None) -> None:
        seen = self.seen.get(table)
        if seen is None or (seen.error is None) != (error is None):
            self.seen[table] = Seen(error=error)
            with self._changed:
                self._changed.notify_all()
        elif error is not None:
            seen.error = error

    def close(self) -> None:
        """Stop following and close the hosted tables; safe twice."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        self._pool.shutdown(wait=True)
        self._close_links()

    def _close_links(self) -> None:
        for link in list(self.links.values()):
            try:
                link.close()
            except Exception:
                log.exception("closing table %s", link.number)
        self.links.clear()
        self.seen.clear()
