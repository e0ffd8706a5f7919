"""The director: the night's one writer. Every change the director makes (the format,
the players, the tables, each round's draw, a correction) is checked, stored as one
event in the club's file, and applied to the night; a follower brings in what the
tables did by themselves: it starts each seated game at its table, hears where the
game stands, and when it is over counts it from the table's log, fetched once (checked
and replayed: :mod:`pegboard.club.results`).

Nothing is lost and nothing counted twice: a result is keyed by its table and the
table's game, so a log counted again after a restart (of the director, of a board) or
a retry is no new event; a change sent again with its Idempotency-Key is made once (the
key is stored with its event: :mod:`pegboard.club.store`). A table that cannot be
reached is shown as such, with since when, and followed again as soon as it answers.

Hosted tables tell the follower of each change at once; boards too, on their live
stream (:mod:`pegboard.club.follow`; ``follow=ASK``: asked every ``poll`` seconds
instead, as clubs did before). The director is each game's **witness**: it keeps the
head of the game's chain each time a table tells it one, as play goes on, and a log
whose entries do not chain to every head it kept (one edited later on the board, even
chained again by someone with the board's files) is refused, naming the table. The
heads are kept in the club's file too, a second's worth at a time: a director restarted
mid-game still knows what it saw (all but its last second).
"""

from __future__ import annotations

import logging
import random
import secrets
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from pegboard.club import night as nights
from pegboard.club import seating
from pegboard.club.boards import Pairing, keep, kept_board, paired_with, start_asked
from pegboard.club.follow import Heard, Streams
from pegboard.club.hall import Hall
from pegboard.club.night import BOARD, HOSTED, Event, Night, Player, Seat
from pegboard.club.results import Refused, counted, witnessed
from pegboard.club.standings import Standing, standings
from pegboard.club.store import ClubStore, Key, Logged
from pegboard.club.tables import Hosted, Link, Seen, Unreachable, address_of
from pegboard.club.witness import Witness
from pegboard.errors import ClubError, PegboardError
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.keeper import KeyReused

log = logging.getLogger(__name__)

POLL = 2.0  # seconds between two looks at the boards (when they are asked: POLL)
STREAM, ASK = "stream", "poll"  # how boards are followed: their live streams, or asked
AGAIN = 2.0  # seconds between two looks at the open seats (no board is asked)
FOLLOWERS = 16  # tables brought in together (one that does not answer holds up no other)
CLUB = "club"  # who made what the club did by itself (a game started, a result counted)
REUSED = N_("this request key was used for another request: send a new one")


class Director:
    """The night kept in ``store``; hosted tables' files under ``folder``, their panels at
    ``/table/N/`` in ``hall`` (None: a hall of its own on ``host``, made for the first); boards
    followed by their streams (``follow``: STREAM) or asked every ``poll`` seconds (ASK)."""

    def __init__(
        self,
        store: ClubStore,
        folder: Path,
        host: str = "127.0.0.1",
        *,
        hall: Hall | None = None,
        poll: float = POLL,
        follow: str = STREAM,
        lang: str = "en",
        rng: random.Random | None = None,
    ) -> None:
        self.store, self.folder, self.host, self.poll, self.lang = store, folder, host, poll, lang
        self.hall, self._own_hall = hall, hall is None
        self.rng = rng or random.Random(secrets.randbits(64))
        self._lock = threading.RLock()
        self._changed = threading.Condition(self._lock)
        self._wake = threading.Event()
        self._stop = threading.Event()
        self.links: dict[int, Link] = {}
        self.seen: dict[int, Seen] = {}
        self.refused: dict[tuple[int, int], Phrase] = {}  # (round, table): why its log is not
        self.witness = Witness()  # the heads of each game seen played (pegboard.club.witness)
        self._over: dict[tuple[int, int], int] = {}  # (table, game) heard over: its entries
        self._fetched: dict[tuple[int, int], int] = {}  # (table, game): entries when fetched
        self._busy: set[Seat] = set()  # seats being brought in
        self._pairing = Pairing()  # the boards being paired: one pairing of each at a time
        self._standings: tuple[int, list[Standing]] | None = None
        self._pool = ThreadPoolExecutor(FOLLOWERS, thread_name_prefix="follow")
        self._streams = Streams(self._heard, self._saw) if follow == STREAM else None
        self._thread: threading.Thread | None = None
        self._open(store.night())

    def _open(self, night: int) -> None:
        self.night_id, self.night, self.history = night, Night(), []
        for event, by, at in self.store.events(night):
            self.night.apply(event)
            self.history.append(Logged(event, by, at))
        self.witness = Witness.of_night(self.store, night)
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

    # --- the director's changes (``key``: the request's, made once) -------------------------

    def set_format(self, data: dict[str, Any], by: str, key: Key | None = None) -> None:
        with self._lock:
            if self._recalled(key) is None:
                self._store(nights.set_format(self.night, data), by, key)

    def add_player(self, name: str, acc: str, by: str, key: Key | None = None) -> Player:
        with self._lock:
            event = self._recalled(key)
            if not isinstance(event, nights.PlayerAdded):
                event = nights.add_player(self.night, name, acc, secrets.token_urlsafe(6))
                self._store(event, by, key)
            return Player(event.player, event.name, event.acc, event.code)

    def add_hosted(self, by: str, key: Key | None = None) -> int:
        """One more table served by the club: its number."""
        with self._lock:
            event = self._recalled(key)
            if not isinstance(event, nights.TableAdded):
                event = nights.add_table(self.night, HOSTED, "")
                self._store(event, by, key)
                self._link(event)
            return event.table

    def pair(
        self, address: str, pin: str | None, by: str, key: Key | None = None, replaced: bool = False
    ) -> int:
        """A board as one more table: paired with its ``pin`` (None: paired before), its key
        the one pinned before, unless the director says the board was ``replaced``. The
        pairing goes over the network with the night's lock let go (the director answers
        other requests meanwhile); the table is of the night open when it ends, numbered
        then."""
        address = address_of(address)
        with self._pairing.of(address):
            with self._lock:
                kept = self._recalled(key)
                if isinstance(kept, nights.TableAdded):
                    return kept.table
                event = nights.add_table(self.night, BOARD, address)  # refused if it is a table
                if pin is None and self.store.paired(address) is None:
                    raise ClubError(Phrase(N_("give the board's PIN to pair it")))
            board = (
                None
                if pin is None
                else paired_with(self.store, event.table, address, pin, replaced=replaced)
            )
            with self._lock:
                event = nights.add_table(self.night, BOARD, address)  # the night's as it is now
                if board is not None:
                    keep(self.store, board)
                self._store(event, by, key)
                self._link(event)
                return event.table

    def pair_again(self, table: int, pin: str, *, replaced: bool = False) -> None:
        """Pair tonight's board at ``table`` again (a new PIN, or the board ``replaced``),
        over the network with the night's lock let go, as :meth:`pair`."""
        message = N_("tonight has no board at table {table}")
        with self._lock:
            added = self.night.tables.get(table)
        if added is None or added.kind != BOARD:
            raise ClubError(Phrase.of(message, table=table))
        with self._pairing.of(added.address):
            board = paired_with(self.store, table, added.address, pin, replaced=replaced)
            with self._lock:
                keep(self.store, board)  # the board's pairing now, even if the night moved on
                if self.night.tables.get(table) != added:  # a new night opened meanwhile
                    raise ClubError(Phrase.of(message, table=table))
                old, self.links[table], self.seen[table] = self.links.get(table), board, Seen()
                if self._streams is not None:
                    self._streams.follow(board)  # its stream too, with the new pairing
                self._changed.notify_all()
        if old is not None:
            old.close()  # outside the lock: it waits for a request to the board in flight
        self._wake.set()

    def draw(self, by: str, key: Key | None = None) -> nights.RoundDrawn:
        """The next round, drawn and seated (its games start at their tables)."""
        with self._lock:
            kept = self._recalled(key)
            if isinstance(kept, nights.RoundDrawn):
                return kept
            night = self.night
            players = sorted(night.players)
            pairs, bye, order = seating.draw(
                players, night.met(), night.byes(), self.rng, night.order, night.round
            )
            event = nights.draw(night, pairs, bye, order)
            self._store(event, by, key)
        self._wake.set()
        return event

    def correct(
        self,
        round: int,
        table: int,
        winner: int,
        margin: int,
        why: str,
        by: str,
        key: Key | None = None,
    ) -> None:
        """The director's result for a seat; the same correction again is no new one."""
        with self._lock:
            if self._recalled(key) is not None:
                return
            event = nights.correct(self.night, round, table, winner, margin, why, by)
            was, said = self.night.results.get((round, table)), (winner, margin, event.why)
            if was is None or not was.by or (was.winner, was.margin, was.why) != said:
                self._store(event, by, key)

    def new_night(self, by: str, key: Key | None = None) -> None:
        """Close this night and open the next (the tables go; boards stay paired)."""
        with self._lock:
            if key is not None and self._recalled(key) is not None:
                return
            self.witness.keep(self.store, self.night_id, now=True)
            closed = self._drop_links()
            self._open(self.store.open_night(key))
            self._standings = None
            self._changed.notify_all()
        self._close_links(closed)  # the boards', outside the lock
        log.info("night %s opened by %s", self.night_id, by)

    def _recalled(self, key: Key | None) -> Event | int | None:
        """What a request with ``key`` made before: its event (or the night it opened),
        None if it made nothing; the same key with another request is refused."""
        kept = None if key is None else self.store.recall(key[0])
        if kept is None or key is None:
            return None
        request, night, seq = kept
        if request != key[1]:
            raise KeyReused(Phrase(REUSED))
        if seq == 0:
            return night
        events = self.store.events(night)
        return events[seq - 1][0] if seq <= len(events) else None

    def _store(self, event: Event, by: str, key: Key | None = None) -> bool:
        """Store and apply ``event`` (False: a result stored already, nothing changed)."""
        with self._lock:
            if not self.store.append(self.night_id, self.night.version + 1, event, by, key):
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
                pin = kept[1] if kept else f"{secrets.randbelow(10**6):06d}"
                hosted = self._hosted(number, pin)
                self.store.keep_hosted(self.night_id, number, hosted.port, pin)
                hosted.subscribe(lambda change: self._hosted_changed(hosted))
                self.links[number] = hosted
            else:
                board = kept_board(self.store, number, table.address)
                if board is not None:
                    self.links[number] = board
                    if self._streams is not None:
                        self._streams.follow(board)
            self.seen.setdefault(number, Seen())
        except (PegboardError, OSError) as error:
            self.seen[number] = Seen(error=phrase_of(error))

    def _hosted(self, number: int, pin: str) -> Hosted:
        folder = self.folder / f"night-{self.night_id}" / f"table-{number}"
        self.hall = self.hall or Hall(self.host).start()  # none given: one for the first table
        return Hosted(number, folder, self.hall, self.host, pin, self.lang)

    def _hosted_changed(self, hosted: Hosted) -> None:
        """A hosted table's change (on its door's thread): its head witnessed."""
        game = hosted.keeper.game_id
        found = hosted.keeper.games(only=game) if game is not None else []
        if found:
            listed = found[0]
            over = listed.summary.over
            self._heard(Heard(hosted.number, listed.id, listed.versions, listed.head, over))
        self._wake.set()

    def _heard(self, heard: Heard) -> None:
        """A table told where its game stands: the head witnessed, and the follower
        woken when the game is over. Quick: no lock of the night's."""
        self.witness.heard(heard.table, heard.game, heard.versions, heard.head)
        if heard.over:
            self._over[heard.table, heard.game] = heard.versions
            self._wake.set()

    def start(self) -> None:
        """Follow the tables, on a thread of its own, until :meth:`close`."""
        self._thread = threading.Thread(target=self._follow, name="director", daemon=True)
        self._thread.start()

    def _follow(self) -> None:
        while not self._stop.is_set():
            self._wake.clear()
            try:
                self.witness.keep(self.store, self.night_id)
                self.follow_once()
            except Exception:  # one bad round of looking must not stop the night
                log.exception("following the tables")
            self._wake.wait(self.poll if self._streams is None else AGAIN)

    def follow_once(self, wait: bool = False) -> None:
        """Bring in every seat of the current round that has something to bring in: a
        game to start, a game over (heard, or asked when boards are polled); ``wait``:
        until they are in."""
        with self._lock:
            seats, started = self.night.open_seats(), dict(self.night.started)
        due = [seat for seat in seats if self._due(seat, started)]
        self._busy.update(due)
        jobs = [self._pool.submit(self._follow_seat, seat) for seat in due]
        if wait or self._streams is None:  # asked: one look at every board at a time
            for job in jobs:
                job.result()

    def _due(self, seat: Seat, started: dict[tuple[int, int], int]) -> bool:
        link = self.links.get(seat.table)
        if link is None or seat in self._busy:
            return False
        game = started.get((seat.round, seat.table))
        if link.kind == HOSTED or self._streams is None:
            return True
        if game is None:  # started once the board's stream answers
            seen = self.seen.get(seat.table)
            return seen is not None and seen.error is None
        heard = self._over.get((seat.table, game))
        return heard is not None and self._fetched.get((seat.table, game)) != heard

    def _follow_seat(self, seat: Seat) -> None:
        link = self.links.get(seat.table)
        try:
            if link is not None:
                self._bring_in(seat, link)
        except Unreachable as error:
            self._saw(seat.table, phrase_of(error))
        except Refused as error:
            self._saw(seat.table, None)
            self.refused[seat.round, seat.table] = phrase_of(error)
        except PegboardError as error:
            self._saw(seat.table, phrase_of(error))
        finally:
            self._busy.discard(seat)

    def _bring_in(self, seat: Seat, link: Link) -> None:
        night, wanted = self.night, start_asked(self.store, self.night_id, seat)
        game = night.started.get((seat.round, seat.table))
        if game is None:
            names = tuple(night.players[p].name for p in seat.players)
            key = f"club-{self.night_id}-{seat.round}-{seat.table}"
            game = link.start((names[0], names[1]), night.format, key, wanted)
            self._store(nights.started(night, seat, game), CLUB)
        standing = link.standing(game, wanted)  # a board's brings its log once it is over
        self._saw(seat.table, None)
        if standing.over:
            self._fetched[seat.table, game] = self._over.get((seat.table, game), 0)
            log = standing.log or link.log(game, wanted)  # a hosted table's: read here
            witnessed(seat.table, log, self.witness.of(seat.table, game))
            result = counted(night, seat, log, link.public)  # a board's signature kept
            with self._lock:
                made = nights.count(self.night, result)
                if made is not None:
                    self._store(made, CLUB)
            self.refused.pop((seat.round, seat.table), None)

    def _saw(self, table: int, error: Phrase | None) -> None:
        """How ``table`` answered (None: it answers); quick, no lock."""
        seen = self.seen.get(table)
        if seen is None or (seen.error is None) != (error is None):
            self.seen[table] = Seen(error=error)
            self._wake.set()
        elif error is not None:
            seen.error = error

    def close(self) -> None:
        """Stop following and close the hosted tables; safe twice."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout=30)
        if self._streams is not None:
            self._streams.close()
        self._pool.shutdown(wait=True)
        self.witness.keep(self.store, self.night_id, now=True)
        self._close_links(self._drop_links())
        if self._own_hall and self.hall is not None:
            self.hall.close()

    def _drop_links(self) -> list[Link]:
        """Follow the tables no more: the hosted ones closed (quick, their paths free for
        the next night's), the boards' links returned, to close with no lock held (each
        waits for a request to its board in flight)."""
        links, self.links, self.seen = self.links, {}, {}
        for number in links:
            if self._streams is not None:
                self._streams.drop(number)
        self._close_links([link for link in links.values() if link.kind == HOSTED])
        return [link for link in links.values() if link.kind != HOSTED]

    def _close_links(self, links: list[Link]) -> None:
        for link in links:
            try:
                link.close()
            except Exception:
                log.exception("closing table %s", link.number)
