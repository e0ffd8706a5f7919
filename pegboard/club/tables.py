"""The night's tables, each behind one small interface (:class:`Link`), with two sides:

- :class:`Hosted`: a table the club serves itself, with no hardware: a game file of its
  own behind its own front door (:class:`~pegboard.keeper.Scorekeeper`), and the board's
  own panel (the same app, the same phone page) on a port of its own, with its own PIN
  and one-time join links. The club drives it through its door, in this process.
- :class:`Board`: an LED board on the network, paired once by its PIN, which is never
  sent (:mod:`pegboard.pairing`): the club pins the board's public key and keeps the
  pairing key both derived; it drives the board through the board's panel API with
  requests signed with that key, and takes only answers the board signed for each
  request (a board's PIN changed since: :class:`PairAgain`; anyone else answering at
  its address: :class:`Impostor`, the table named).

Each game is started for what the director asks (its night, table, round and a nonce
kept in the club's file); a board's answers and its signature of the game's end carry
it, so a log served for another night, table or game, or whose head the board did not
sign at the end, is refused with the table named (:mod:`pegboard.club.results`).

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

from pegboard import lan, pairing
from pegboard.board.layout import load_layout
from pegboard.club.format import Format
from pegboard.club.results import Refused, checked
from pegboard.errors import ClubError, StoreError
from pegboard.game import Table
from pegboard.game.chain import GameLog
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.identity import fingerprint, verify
from pegboard.keeper import Change, Scorekeeper
from pegboard.panel import create_app
from pegboard.panel.server import PanelServer
from pegboard.panel.signing import (
    ANSWER,
    NONCE,
    PAIRING,
    SIGNATURE,
    TIME,
    request_signature,
)

LAYOUT = "two-track-121"  # a hosted table's board: two players, any target
SECONDS = 5.0  # a board that does not answer within this is unreachable for now
UNREACHABLE = N_("table {table} cannot be reached: {why}")
ANSWERED = N_("table {table} answered: {error}")
IMPOSTOR = N_("table {table}: what answers at the board's address is not the board: not paired")
KEY_CHANGED = N_(
    "table {table}: the board's key is {found}, not {pinned} as when it was paired: not paired "
    "(if the board was replaced, say so when you pair it)"
)
UNSIGNED_ANSWER = N_(
    "table {table}: the answer is not signed by the board paired with the club ({key}): "
    "another machine answers at its address"
)
PAIR_AGAIN = N_("table {table}: the board's PIN changed: pair it again")
OTHER_START = N_("the board answered for another night, table or game")
CUT = N_("the board signed its end at entry {ended}, and its log now stops at entry {versions}")


class Unreachable(ClubError):
    """A table that does not answer: it is shown as such, never guessed."""


class Impostor(ClubError):
    """Something answered at a board's address that is not the board paired."""


class KeyChanged(ClubError):
    """The board at an address paired before has another key now."""


class PairAgain(ClubError):
    """The board's PIN changed since the club paired with it: every pairing ended."""


class Answered(ClubError):
    """A table that answered with a refusal: ``answer`` is what it said."""

    def __init__(self, said: Phrase, answer: dict[str, Any]) -> None:
        super().__init__(said)
        self.answer = answer


@dataclass(frozen=True, slots=True)
class Standing:
    """Where a table's game stands."""

    game: int
    over: bool
    versions: int


class Link(Protocol):
    number: int
    kind: str

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
        return checked(self.number, log, None)

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


@dataclass(frozen=True, slots=True)
class Paired:
    """What the club keeps of a board it paired with: the pairing's id, the pairing key
    (derived by both sides, never sent) and the board's public key, pinned."""

    pairing: str
    key: bytes
    public: bytes


class Board:
    """An LED board at ``address`` (its panel: ``http://host:port``), ``paired``: every
    request signed with the pairing key, every answer checked against the board's
    pinned public key (:mod:`pegboard.panel.signing`)."""

    kind = "board"

    def __init__(self, number: int, address: str, paired: Paired) -> None:
        self.number, self.address, self.paired = number, address_of(address), paired
        self._lock = threading.Lock()
        self._connection: http.client.HTTPConnection | None = None

    @classmethod
    def pair(cls, number: int, address: str, pin: str, pinned: bytes | None = None) -> Board:
        """Pair with the board at ``address`` by its PIN (:mod:`pegboard.pairing`: the
        PIN is never sent); ``pinned``: the public key it was paired with before, the
        only one taken (KeyChanged names both)."""
        address = address_of(address)
        club, said = pairing.club_start(pin)
        answer = _call(number, address, "POST", "/api/pair", {"spake": said.hex()}, None)
        try:
            agreed = pairing.club_finish(club, said, bytes.fromhex(str(answer.get("spake"))))
        except (pairing.PairingError, ValueError):
            raise Impostor(Phrase.of(IMPOSTOR, table=number)) from None
        proof = {"pairing": answer.get("pairing"), "proof": agreed.club_proof().hex()}
        confirmed = _call(number, address, "POST", "/api/pair/confirm", proof, None)
        try:
            public = bytes.fromhex(str(confirmed["public"]))
            board_proof = bytes.fromhex(str(confirmed["proof"]))
        except (KeyError, ValueError):
            public = board_proof = b""
        if not agreed.check_board(public, board_proof):
            raise Impostor(Phrase.of(IMPOSTOR, table=number))
        if pinned is not None and public != pinned:
            message = Phrase.of(
                KEY_CHANGED, table=number, found=fingerprint(public), pinned=fingerprint(pinned)
            )
            raise KeyChanged(message)
        paired = Paired(str(confirmed.get("key", "")), agreed.pairing_key(), public)
        return cls(number, address, paired)

    @property
    def fingerprint(self) -> str:
        """The board's key as the club pinned it, to compare with the board's own."""
        return fingerprint(self.paired.public)

    def _call(self, method: str, path: str, body: object = None, key: str | None = None) -> Any:
        """One signed call; once more on a new connection if the one kept had gone stale
        (the board restarted meanwhile)."""
        with self._lock:
            kept = self._connection is not None
            try:
                return _call(self.number, self.address, method, path, body, self, key)
            except Unreachable:
                if not kept:
                    raise
            return _call(self.number, self.address, method, path, body, self, key)

    def start(self, players: tuple[str, str], rules: Format, key: str, asked: str) -> int:
        body = {**settings_of(players, rules), "asked": json.loads(asked)}
        answer = self._call("POST", "/api/club/start", body, key)
        if answer.get("asked") != asked:
            raise Refused(self.number, int(answer.get("game") or 0), Phrase(OTHER_START))
        return int(answer["game"])

    def standing(self, game: int, asked: str) -> Standing:
        answer = self._logged(game, asked)
        return Standing(game, bool(answer["over"]), int(answer["versions"]))

    def _logged(self, game: int, asked: str) -> Any:
        """The board's answer for ``game``'s log, for the start ``asked`` (Refused: the
        board's file no longer holds it whole, or it answers for another start)."""
        try:
            answer = self._call("GET", f"/api/log?game={game}")
        except Answered as answered:
            if answered.answer.get("whole") is False:
                why = Phrase.as_is(str(answered.answer.get("error", "")))
                raise Refused(self.number, game, why) from None
            raise
        if answer.get("game") != game or answer.get("asked") != asked:
            raise Refused(self.number, game, Phrase(OTHER_START))
        ended = answer.get("ended")
        if isinstance(ended, int) and ended and not answer.get("over"):  # cut after its end
            why = Phrase.of(CUT, ended=ended, versions=answer.get("versions"))
            raise Refused(self.number, game, why)
        return answer

    def log(self, game: int, asked: str) -> GameLog:
        answer = self._logged(game, asked)
        try:
            log = GameLog.from_dict(answer["log"])
        except (KeyError, TypeError, ValueError) as error:
            raise ClubError(Phrase.of(ANSWERED, table=self.number, error=str(error))) from None
        if log.game != game or log.asked != asked:
            raise Refused(self.number, game, Phrase(OTHER_START))
        return checked(self.number, log, self.paired.public)

    def join(self) -> str:
        return str(self._call("POST", "/api/invite", {})["link"])

    def connection(self) -> http.client.HTTPConnection:
        """The connection kept open to the board (made again after a failure)."""
        if self._connection is None:
            host, port = _host_port(self.address)
            self._connection = http.client.HTTPConnection(host, port, timeout=SECONDS)
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
    """One request to a board (signed when ``board`` is given, and its answer checked
    against the board's pinned key), its JSON answer; a board that does not answer is
    Unreachable, one that refuses says why (ClubError), an answer the board did not sign
    is an Impostor's."""
    data = b"" if body is None else json.dumps(body).encode()
    headers = {"Content-Type": "application/json", "Accept-Language": "en"}
    if key is not None:
        headers["Idempotency-Key"] = key
    nonce = secrets.token_hex(16)
    if board is not None:
        at, paired = int(time.time()), board.paired
        headers.update({TIME: str(at), NONCE: nonce, PAIRING: paired.pairing})
        headers[SIGNATURE] = request_signature(paired.key, method, path, at, nonce, data)
    host, port = _host_port(address)
    headers["Host"] = urllib.parse.urlsplit(address).netloc
    try:
        if board is not None:
            connection = board.connection()
        else:
            connection = http.client.HTTPConnection(host, port, timeout=SECONDS)
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
    if board is not None:
        _check_signed(board, nonce, response, raw)
    try:
        answer = json.loads(raw)
    except ValueError:
        answer = {"error": raw[:200].decode("utf-8", "replace")}
    if response.status >= 400 or not isinstance(answer, dict):
        said = answer.get("error") if isinstance(answer, dict) else None
        if response.status == 401 and isinstance(answer, dict) and answer.get("pair") is True:
            raise PairAgain(Phrase.of(PAIR_AGAIN, table=number))
        told = str(said or f"HTTP {response.status}")
        phrase = Phrase.of(ANSWERED, table=number, error=Phrase.as_is(told))
        raise Answered(phrase, answer if isinstance(answer, dict) else {})
    return answer


def _check_signed(board: Board, nonce: str, response: http.client.HTTPResponse, raw: bytes) -> None:
    """The board's answer signed for this request with the key pinned at pairing (a
    refusal too: a board whose PIN changed says so, signed), else Impostor."""
    try:
        signature = bytes.fromhex(response.getheader(ANSWER, ""))
    except ValueError:
        signature = b""
    if not verify(board.paired.public, signature, pairing.answered(nonce, response.status, raw)):
        key = fingerprint(board.paired.public)
        raise Impostor(Phrase.of(UNSIGNED_ANSWER, table=board.number, key=key))


def _host_port(address: str) -> tuple[str, int]:
    """The host and port of an address made by :func:`address_of`."""
    parts = urllib.parse.urlsplit(address)
    return parts.hostname or "", parts.port or 80


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
