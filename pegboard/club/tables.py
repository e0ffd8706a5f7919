"""The night's tables, each behind one small interface (:class:`Link`), with two sides:

- :class:`Hosted`: a table the club serves itself, with no hardware: a game file of its
  own behind its own front door (:class:`~pegboard.keeper.Scorekeeper`), and the board's
  own panel (the same app, the same phone page) on a port of its own, with its own PIN
  and one-time join links. The club drives it through its door, in this process.
- :class:`Board`: an LED board on the network, paired once with its PIN (the board
  hands over its key); the club drives it through the board's panel API with requests
  signed with that key, and the board signs each log it sends.

Both start a game for two seated players, say where a game stands, hand over a finished
game's log (checked: :mod:`pegboard.club.results`) and make a link that lets a player's
phone in.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import secrets
import threading
import time
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from pegboard import lan
from pegboard.board.layout import load_layout
from pegboard.club.format import Format
from pegboard.club.results import Refused, checked
from pegboard.errors import ClubError, StoreError
from pegboard.game import Table
from pegboard.game.chain import BoardKey, GameLog
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.keeper import Change, Scorekeeper
from pegboard.panel import create_app
from pegboard.panel.server import PanelServer
from pegboard.panel.signing import SIGNATURE, TIME, request_signature

LAYOUT = "two-track-121"  # a hosted table's board: two players, any target
SECONDS = 5.0  # a board that does not answer within this is unreachable for now
UNREACHABLE = N_("table {table} cannot be reached: {why}")
ANSWERED = N_("table {table} answered: {error}")
NOT_PAIRED = N_("the board at {address} answered: {error}")
SET_ASIDE = N_(
    "its entries no longer chain from entry {entry} on: the log was changed on the board "
    "after it was played. Ask the two players for the result and enter it as a correction"
)


class Unreachable(ClubError):
    """A table that does not answer: it is shown as such, never guessed."""


class Answered(ClubError):
    """A table that answered with a refusal: ``answer`` is what it said."""

    def __init__(self, said: Phrase, answer: dict[str, Any]) -> None:
        super().__init__(said)
        self.answer = answer


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

    def start(self, players: tuple[str, str], rules: Format, key: str) -> int:
        """Start the game of two seated players (``key``: the same start sent again is
        made once); the table's number of the game."""
        ...

    def standing(self, game: int) -> Standing: ...

    def log(self, game: int) -> GameLog:
        """A finished game's log, checked (Refused if it is not the table's)."""
        ...

    def join(self) -> str:
        """A one-time link that lets a phone in to peg."""
        ...

    def close(self) -> None: ...


def settings_of(players: tuple[str, str], rules: Format) -> dict[str, Any]:
    return {"players": list(players), "target": rules.target, "muggins": rules.muggins}


class Hosted:
    """A table served by the club (see the module's words): its game file, PIN and
    sessions in ``folder``, its panel on ``host``:``port`` (0: any free port)."""

    kind = "hosted"

    def __init__(
        self, number: int, folder: Path, host: str, port: int, pin: str, lang: str = "en"
    ) -> None:
        self.number, self.pin, self.host = number, pin, host
        folder.mkdir(parents=True, exist_ok=True)
        self.table = Table(folder / "games.db")
        self.keeper = Scorekeeper(self.table, load_layout(LAYOUT))
        key = folder / "secret"
        if not key.exists():
            key.write_text(secrets.token_hex(32))
        self.app = create_app(
            {
                "PIN": pin,
                "SECRET_KEY": key.read_text().strip(),
                "LANGUAGE": lang,
                "HOSTS": sorted(lan.own_hosts(host)),
                "SESSIONS_FILE": str(folder / "sessions"),
                "TRIES_FILE": str(folder / "pin-tries"),
            },
            self.keeper,
        )
        self.server = PanelServer(self.app, host, port)
        self.port = self.server.port
        self.address = lan.panel_urls(host, self.port)[0][0].rstrip("/")
        self._thread = threading.Thread(target=self.server.run, name=f"table-{number}", daemon=True)
        self._thread.start()

    def start(self, players: tuple[str, str], rules: Format, key: str) -> int:
        settings = settings_of(players, rules)
        request = hashlib.sha256(json.dumps(settings).encode()).hexdigest()[:32]
        self.keeper.once(key, request, lambda keyed: self.keeper.new_game(settings, key=keyed))
        game = self.keeper.game_id
        assert game is not None  # a game was started (or had been, by this key)
        return game

    def standing(self, game: int) -> Standing:
        found = self.keeper.games(only=game)
        if not found:
            raise ClubError(
                Phrase.of(N_("table {table} has no game {game}"), table=self.number, game=game)
            )
        return Standing(game, found[0].summary.over, found[0].versions)

    def log(self, game: int) -> GameLog:
        try:
            log = self.keeper.log(game)
        except StoreError as error:  # its file's chain is broken where a log was edited
            raise Refused(self.number, game, phrase_of(error)) from None
        return checked(self.number, log, None, None)

    def join(self) -> str:
        token = self.app.extensions["pegboard.invites"].make()
        return f"{self.address}/#join={token}"

    def subscribe(self, callback: Callable[[Change], None]) -> Callable[[], None]:
        return self.keeper.subscribe(callback)

    def close(self) -> None:
        self.keeper.close()
        self.server.stop()
        self._thread.join(timeout=10)
        self.table.close()


class Board:
    """An LED board at ``address`` (its panel: ``http://host:port``), paired with ``key``."""

    kind = "board"

    def __init__(self, number: int, address: str, key: BoardKey) -> None:
        self.number, self.address, self.key = number, address_of(address), key
        self._lock = threading.Lock()
        self._connection: http.client.HTTPConnection | None = None

    @classmethod
    def pair(cls, number: int, address: str, pin: str) -> Board:
        """Pair with the board at ``address`` by its PIN: the board's key. (A refusal
        names the board by its address: it is no table yet.)"""
        try:
            answer = _call(number, address_of(address), "POST", "/api/pair", {"pin": pin}, None)
        except Answered as answered:
            error = Phrase.as_is(str(answered.answer.get("error", "?")))
            raise ClubError(
                Phrase.of(NOT_PAIRED, address=address_of(address), error=error)
            ) from None
        return cls(number, address, BoardKey.from_hex(str(answer["key"])))

    def headers(self, method: str, path: str, body: bytes) -> dict[str, str]:
        """The headers that sign a request to the board as this club's."""
        at = int(time.time())
        return {TIME: str(at), SIGNATURE: request_signature(self.key, method, path, at, body)}

    def _call(self, method: str, path: str, body: object = None, key: str | None = None) -> Any:
        with self._lock:
            return _call(self.number, self.address, method, path, body, self, key)

    def start(self, players: tuple[str, str], rules: Format, key: str) -> int:
        answer = self._call("POST", "/api/act/new_game", settings_of(players, rules), key)
        return int(answer["state"]["game_id"])

    def standing(self, game: int) -> Standing:
        """Where ``game`` stands, with its log once it is over (one request)."""
        answer = self._logged(game)
        over = bool(answer["over"])
        return Standing(game, over, int(answer["versions"]), self._log_of(answer) if over else None)

    def _logged(self, game: int) -> Any:
        """The board's answer for ``game``'s log (Refused: the board's file no longer
        holds it whole)."""
        try:
            return self._call("GET", f"/api/log?game={game}")
        except Answered as answered:
            if answered.answer.get("whole") is False:  # the board set it aside
                entry = answered.answer.get("entry") or "?"
                raise Refused(self.number, game, Phrase.of(SET_ASIDE, entry=entry)) from None
            raise

    def log(self, game: int) -> GameLog:
        return self._log_of(self._logged(game))

    def _log_of(self, answer: Any) -> GameLog:
        try:
            log = GameLog.from_dict(answer["log"])
        except (KeyError, TypeError, ValueError) as error:
            raise ClubError(Phrase.of(ANSWERED, table=self.number, error=str(error))) from None
        return checked(self.number, log, self.key, str(answer.get("signature", "")))

    def join(self) -> str:
        return str(self._call("POST", "/api/invite", {})["link"])

    def connection(self) -> http.client.HTTPConnection:
        """The connection kept open to the board (made again after a failure)."""
        if self._connection is None:
            parts = urllib.parse.urlsplit(self.address)
            self._connection = http.client.HTTPConnection(
                parts.hostname or "", parts.port or 80, timeout=SECONDS
            )
        return self._connection

    def drop(self) -> None:
        if self._connection is not None:
            self._connection.close()
            self._connection = None

    def close(self) -> None:
        with self._lock:
            self.drop()


def _call(
    number: int,
    address: str,
    method: str,
    path: str,
    body: object,
    board: Board | None,
    key: str | None = None,
) -> Any:
    """One request to a board (signed when ``board`` is given), its JSON answer; a board
    that does not answer is Unreachable, one that refuses says why (ClubError)."""
    data = b"" if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": "en"}
    if key is not None:
        headers["Idempotency-Key"] = key
    if board is not None:
        headers |= board.headers(method, path, data)
    parts = urllib.parse.urlsplit(address)
    headers["Host"] = parts.netloc
    try:
        if board is not None:
            kept = board._connection is not None
            connection = board.connection()
            try:
                connection.request(method, path, body=data or None, headers=headers)
                response = connection.getresponse()
            except (ConnectionError, http.client.RemoteDisconnected):
                if not kept:
                    raise
                board.drop()  # the board closed the kept connection (a restart): once more
                connection = board.connection()
                connection.request(method, path, body=data or None, headers=headers)
                response = connection.getresponse()
        else:
            connection = http.client.HTTPConnection(
                parts.hostname or "", parts.port or 80, timeout=SECONDS
            )
            connection.request(method, path, body=data or None, headers=headers)
            response = connection.getresponse()
        raw = response.read()
    except (OSError, http.client.HTTPException) as error:
        if board is not None:
            board.drop()
        raise Unreachable(Phrase.of(UNREACHABLE, table=number, why=str(error) or "?")) from None
    finally:
        if board is None:
            connection.close()
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {"error": raw[:200].decode("utf-8", "replace")}
    if response.status >= 400 or not isinstance(answer, dict):
        said = answer.get("error") if isinstance(answer, dict) else None
        told = str(said or f"HTTP {response.status}")
        phrase = Phrase.of(ANSWERED, table=number, error=Phrase.as_is(told))
        raise Answered(phrase, answer if isinstance(answer, dict) else {})
    return answer


def address_of(text: str) -> str:
    """A board's panel address as given ("pegboard.local", "10.0.0.7:8080",
    "http://10.0.0.7/"), written one way: ``http://host[:port]``.

    >>> address_of("10.0.0.7:8080/"), address_of("http://pegboard.local")
    ('http://10.0.0.7:8080', 'http://pegboard.local')
    """
    text = text.strip()
    if "://" not in text:
        text = "http://" + text
    parts = urllib.parse.urlsplit(text)
    if parts.scheme != "http" or not parts.hostname:
        message = N_("{address} is no board's address: give http://host or host:port")
        raise ClubError(Phrase.of(message, address=repr(text)))
    return f"http://{parts.netloc}"
