"""The night's tables, each behind one small interface (:class:`Link`), with two sides:

- :class:`Hosted`: a table the club serves itself, with no hardware: a game file of its
  own behind its own front door (:class:`~pegboard.keeper.Scorekeeper`), and the board's
  own panel (the same app, the same phone page) under a path of its own in the night's
  one server (``/table/3/``: :mod:`pegboard.club.hall`), with its own PIN, sessions
  (a cookie of its own, for its path only), secret and one-time join links. The club
  drives it through its door, in this process.
- :class:`~pegboard.club.boards.Board`: an LED board on the network, paired once by
  its PIN, driven through the board's panel API with signed requests, taking only the
  answers the board signed (:mod:`pegboard.club.boards`).

Each game is started for what the director asks (its night, table, round and a nonce:
:func:`pegboard.pairing.asked`); a log of another start is refused with the table named.

Both start a game for two seated players, say where a game stands, hand over a finished
game's log (checked: :mod:`pegboard.club.results`) and make a link that lets a player's
phone in.
"""

from __future__ import annotations

import hashlib
import json
import secrets
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Protocol

from pegboard import lan
from pegboard.board.layout import load_layout
from pegboard.club.format import Format
from pegboard.club.hall import Hall, prefix_of
from pegboard.club.results import Refused, checked
from pegboard.errors import ClubError, StoreError
from pegboard.files import write_private
from pegboard.game import Table
from pegboard.game.chain import GameLog
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.keeper import Change, Scorekeeper
from pegboard.panel import create_app

LAYOUT = "two-track-121"  # a hosted table's board: two players, any target
SECONDS = 5.0  # a board that does not answer within this is unreachable for now
UNREACHABLE = N_("table {table} cannot be reached: {why}")
ANSWERED = N_("table {table} answered: {error}")
OTHER_START = N_("the board answered for another night, table or game")


class Unreachable(ClubError):
    """A table that does not answer: it is shown as such, never guessed."""


@dataclass
class Seen:
    """How a table answered last: ``since`` when it has answered so (or not), and the
    error it gave (None: it answers)."""

    since: float = field(default_factory=time.time)
    error: Phrase | None = None


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a table's game stands (with its checked log, when the answer brought it)."""

    game: int
    over: bool
    versions: int
    log: GameLog | None = None


class Link(Protocol):
    number: int
    kind: str

    @property
    def public(self) -> bytes | None:
        """The key the table signs its games' ends with (None: it signs none)."""
        ...

    def start(self, players: tuple[str, str], rules: Format, key: str, asked: str) -> int:
        """Start the game of two seated players for the start ``asked``
        (:func:`pegboard.pairing.asked`; ``key``: the same start sent again is made
        once); the table's number of the game."""
        ...

    def standing(self, game: int, asked: str) -> Standing: ...

    def log(self, game: int, asked: str) -> GameLog:
        """A finished game's log, checked (Refused if it is not the table's, or not
        of the start ``asked``)."""
        ...

    def join(self) -> str:
        """A one-time link that lets a phone in to peg."""
        ...

    def close(self) -> None: ...


def settings_of(players: tuple[str, str], rules: Format) -> dict[str, Any]:
    return {"players": list(players), "target": rules.target, "muggins": rules.muggins}


class Hosted:
    """A table served by the club (see the module's words): its game file, PIN, secret
    and sessions in ``folder``, its panel mounted in ``hall`` (its address there, under
    ``/table/N``), answering to the names of ``host``."""

    kind = "hosted"
    public = None  # the club's own table: no board signs its games

    def __init__(
        self, number: int, folder: Path, hall: Hall, host: str, pin: str, lang: str = "en"
    ) -> None:
        self.number, self.pin, self.host, self.hall = number, pin, host, hall
        folder.mkdir(parents=True, exist_ok=True)
        self.table = Table(folder / "games.db")
        self.keeper = Scorekeeper(self.table, load_layout(LAYOUT))
        key = folder / "secret"
        if not key.exists():
            write_private(key, secrets.token_hex(32))
        self.app = create_app(
            {
                "PIN": pin,
                "SECRET_KEY": key.read_text().strip(),
                "LANGUAGE": lang,
                "HOSTS": sorted(lan.own_hosts(host)),
                "SESSIONS_FILE": str(folder / "sessions"),
                "TRIES_FILE": str(folder / "pin-tries"),
                # Its session cookie is its own: named for the table, sent to its path only
                # (two tables open in one browser sign in apart).
                "SESSION_COOKIE_PATH": f"{prefix_of(number)}/",
                "SESSION_COOKIE_NAME": f"pegboard_table_{number}",
            },
            self.keeper,
        )
        self.address = hall.mount(number, self.app)
        self.port = hall.port

    def start(self, players: tuple[str, str], rules: Format, key: str, asked: str) -> int:
        settings = settings_of(players, rules)
        request = hashlib.sha256(json.dumps(settings).encode()).hexdigest()[:32]
        self.keeper.once(key, request, lambda keyed: self.keeper.new_game(settings, key=keyed))
        game = self.keeper.game_id
        assert game is not None  # a game was started (or had been, by this key)
        self.keeper.ask(game, asked)
        return game

    def standing(self, game: int, asked: str) -> Standing:
        found = self.keeper.games(only=game)
        if not found:
            raise ClubError(
                Phrase.of(N_("table {table} has no game {game}"), table=self.number, game=game)
            )
        return Standing(game, found[0].summary.over, found[0].versions)

    def log(self, game: int, asked: str) -> GameLog:
        try:
            log = self.keeper.log(game)
        except StoreError as error:  # its file's chain is broken where a log was edited
            raise Refused(self.number, game, phrase_of(error)) from None
        if log.asked != asked:
            raise Refused(self.number, game, Phrase(OTHER_START))
        return checked(self.number, log, self.public)

    def join(self) -> str:
        token = self.app.extensions["pegboard.invites"].make()
        return f"{self.address}/#join={token}"

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        return self.keeper.subscribe(callback)

    def close(self) -> None:
        """Unmount the table (its paths answer 404, its phones' streams end), then close
        its door and its file."""
        self.hall.unmount(self.number)
        self.keeper.close()
        self.table.close()


def address_of(text: str) -> str:
    """A board's panel address as given ("pegboard.local", "10.0.0.7:8080",
    "http://10.0.0.7/"), written one way: ``http://host[:port]``.

    >>> address_of("10.0.0.7:8080/"), address_of("http://pegboard.local")
    ('http://10.0.0.7:8080', 'http://pegboard.local')
    >>> address_of("http://[::1]:99999")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    pegboard.errors.ClubError: 'http://[::1]:99999' is no board's address: ...
    """
    text = text.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urllib.parse.urlsplit(text)
    try:
        parts.port  # noqa: B018 (a port out of range, or not a number, raises)
    except ValueError:
        parts = parts._replace(scheme="")
    if parts.scheme != "http" or not parts.hostname or parts.port == 0:
        message = N_("{address} is no board's address: give http://host or host:port")
        raise ClubError(Phrase.of(message, address=repr(text)))
    return f"http://{parts.netloc}"
