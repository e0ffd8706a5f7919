"""An LED board on the network as one of the night's tables (:class:`Board`, a
:class:`~pegboard.club.tables.Link`), paired once by its PIN, which is never sent
(:mod:`pegboard.pairing`): the club pins the board's public key and keeps the pairing
key both sides derived (:func:`paired_with`, then :func:`keep`, in the club's file). The
club drives the board through its panel API with requests signed with that key, and
takes only answers the board signed for each request: a board whose PIN changed since
says so (:class:`PairAgain`); anything else answering at its address is an
:class:`Impostor`, the table named.

Each game is started for what the director asks (:func:`start_asked`: its night, table,
round and a nonce kept in the club's file); the board's answers and its signature of the
game's end carry it, so a log served for another night, table or game, one cut back
after its end, or one whose head the board did not sign at the end, is refused with the
table named (:mod:`pegboard.club.results`).
"""

from __future__ import annotations

import contextlib
import http.client
import json
import secrets
import threading
import time
import urllib.parse
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from pegboard import pairing
from pegboard.club.format import Format
from pegboard.club.night import Seat
from pegboard.club.results import Refused, checked
from pegboard.club.store import ClubStore
from pegboard.club.tables import (
    ANSWERED,
    OTHER_START,
    SECONDS,
    UNREACHABLE,
    Standing,
    Unreachable,
    address_of,
    settings_of,
)
from pegboard.errors import ClubError
from pegboard.game.chain import GameLog
from pegboard.i18n import N_, Phrase
from pegboard.identity import fingerprint, verify
from pegboard.panel.signing import (
    ANSWER,
    NONCE,
    PAIRING,
    SIGNATURE,
    TIME,
    request_signature,
)

NOT_PAIRED = N_("the board at {address} answered: {error}")
SET_ASIDE = N_(
    "its entries no longer chain from entry {entry} on: the log was changed on the board "
    "after it was played. Ask the two players for the result and enter it as a correction"
)
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
CUT = N_("the board signed its end at entry {ended}, and its log now stops at entry {versions}")


class Impostor(ClubError):
    """Something answered at a board's address that is not the board paired."""


class KeyChanged(ClubError):
    """The board at an address paired before has another key now."""


class PairAgain(ClubError):
    """The board's PIN changed since the club paired with it: every pairing ended."""


class Pairing:
    """The boards being paired: a second pairing of one waits for the first to end
    (:meth:`of`), holding no other lock while it waits."""

    def __init__(self) -> None:
        self._ended = threading.Condition()
        self._boards: set[str] = set()

    @contextlib.contextmanager
    def of(self, address: str) -> Iterator[None]:
        """While the board at ``address`` is paired."""
        with self._ended:
            self._ended.wait_for(lambda: address not in self._boards)
            self._boards.add(address)
        try:
            yield
        finally:
            with self._ended:
                self._boards.discard(address)
                self._ended.notify_all()


class Answered(ClubError):
    """A table that answered with a refusal: ``answer`` is what it said."""

    def __init__(self, said: Phrase, answer: dict[str, Any]) -> None:
        super().__init__(said)
        self.answer = answer


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
        only one taken (KeyChanged names both). A refusal names the board by its address:
        it is no table yet."""
        address = address_of(address)
        club, said = pairing.club_start(pin)
        answer = _pairing(number, address, "/api/pair", {"spake": said.hex()})
        try:
            agreed = pairing.club_finish(club, said, bytes.fromhex(str(answer.get("spake"))))
        except (pairing.PairingError, ValueError):
            raise Impostor(Phrase.of(IMPOSTOR, table=number)) from None
        proof = {"pairing": answer.get("pairing"), "proof": agreed.club_proof().hex()}
        confirmed = _pairing(number, address, "/api/pair/confirm", proof)
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
    def public(self) -> bytes:
        """The key the board signs its games' ends with, pinned at pairing."""
        return self.paired.public

    @property
    def fingerprint(self) -> str:
        """The board's key as the club pinned it, to compare with the board's own."""
        return fingerprint(self.public)

    def headers(self, method: str, path: str, body: bytes) -> dict[str, str]:
        """The headers that sign a request to the board as this club's: its time, its
        nonce (the board signs its answer for it) and the pairing's id."""
        at, nonce = int(time.time()), secrets.token_hex(16)
        signature = request_signature(self.paired.key, method, path, at, nonce, body)
        return {TIME: str(at), NONCE: nonce, PAIRING: self.paired.pairing, SIGNATURE: signature}

    def _call(self, method: str, path: str, body: object = None, key: str | None = None) -> Any:
        with self._lock:
            return _call(self.number, self.address, method, path, body, self, key)

    def start(self, players: tuple[str, str], rules: Format, key: str, asked: str) -> int:
        body = {**settings_of(players, rules), "asked": json.loads(asked)}
        answer = self._call("POST", "/api/club/start", body, key)
        if answer.get("asked") != asked:
            raise Refused(self.number, int(answer.get("game") or 0), Phrase(OTHER_START))
        return int(answer["game"])

    def standing(self, game: int, asked: str) -> Standing:
        """Where ``game`` stands, with its log once it is over (one request)."""
        answer = self._logged(game, asked)
        over = bool(answer["over"])
        log = self._log_of(answer, game, asked) if over else None
        return Standing(game, over, int(answer["versions"]), log)

    def _logged(self, game: int, asked: str) -> Any:
        """The board's answer for ``game``'s log, for the start ``asked`` (Refused: the
        board's file no longer holds it whole, or it answers for another start)."""
        try:
            answer = self._call("GET", f"/api/log?game={game}")
        except Answered as answered:
            if answered.answer.get("whole") is False:  # the board set it aside
                entry = answered.answer.get("entry") or "?"
                raise Refused(self.number, game, Phrase.of(SET_ASIDE, entry=entry)) from None
            raise
        if answer.get("game") != game or answer.get("asked") != asked:
            raise Refused(self.number, game, Phrase(OTHER_START))
        ended = answer.get("ended")
        if isinstance(ended, int) and ended and not answer.get("over"):  # cut after its end
            why = Phrase.of(CUT, ended=ended, versions=answer.get("versions"))
            raise Refused(self.number, game, why)
        return answer

    def log(self, game: int, asked: str) -> GameLog:
        return self._log_of(self._logged(game, asked), game, asked)

    def _log_of(self, answer: Any, game: int, asked: str) -> GameLog:
        try:
            log = GameLog.from_dict(answer["log"])
        except (KeyError, TypeError, ValueError) as error:
            raise ClubError(Phrase.of(ANSWERED, table=self.number, error=str(error))) from None
        if log.game != game or log.asked != asked:
            raise Refused(self.number, game, Phrase(OTHER_START))
        return checked(self.number, log, self.public)

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
    if board is not None:
        headers |= board.headers(method, path, data)
    host, port = _host_port(address)
    headers["Host"] = urllib.parse.urlsplit(address).netloc
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
        _check_signed(board, headers[NONCE], response, raw)
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


def _pairing(number: int, address: str, path: str, body: object) -> Any:
    """One step of pairing with the board at ``address``: not a table yet, so a refusal
    names the board by its address."""
    try:
        return _call(number, address, "POST", path, body, None)
    except Answered as answered:
        error = Phrase.as_is(str(answered.answer.get("error", "?")))
        raise ClubError(Phrase.of(NOT_PAIRED, address=address, error=error)) from None


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


def paired_with(
    store: ClubStore, table: int, address: str, pin: str, *, replaced: bool = False
) -> Board:
    """Pair (again) with the board at ``address`` as ``table``, over the network (hold no
    lock of the night's meanwhile), keeping nothing yet (:func:`keep`); the key pinned
    before, if any, must be the board's still (KeyChanged), unless the director says the
    board was ``replaced``."""
    kept = store.paired(address)
    pinned = None if kept is None or replaced else bytes.fromhex(kept[2])
    return Board.pair(table, address, pin, pinned)


def keep(store: ClubStore, board: Board) -> None:
    """Keep what pairing with ``board`` gave in the club's file."""
    paired = board.paired
    store.keep_paired(board.address, paired.pairing, paired.key.hex(), paired.public.hex())


def kept_board(store: ClubStore, table: int, address: str) -> Board | None:
    """The board paired at ``address`` before, as ``table`` (None: not paired)."""
    found = store.paired(address)
    if found is None:
        return None
    pairing_id, key, public = found
    return Board(table, address, Paired(pairing_id, bytes.fromhex(key), bytes.fromhex(public)))


def start_asked(store: ClubStore, night: int, seat: Seat) -> str:
    """What the club asks at the start of ``seat``'s game tonight: the night, its table,
    its round and a nonce of its own (kept: a start sent again asks the same)."""
    nonce = store.nonce(night, seat.round, seat.table)
    return pairing.asked(night, seat.table, seat.round, nonce)
