"""Pairing a board with a club's director by the board's PIN, and what each side then
proves to the other: the protocol both ends speak (the board's side is
:mod:`pegboard.panel.clubs`, the director's :mod:`pegboard.club.tables`).

The PIN never crosses the Wi-Fi. The two sides run SPAKE2 (the `spake2` package, a
password-authenticated key exchange: no home-made crypto) over the PIN; each derives a
key that is the same on both only if both used the same PIN. Someone in the middle, or
an impostor answering at the board's address, can test one guess of the PIN per
exchange, online, and learns nothing else: the messages reveal nothing of the PIN to
anyone watching.

1. the director sends its SPAKE2 message (``POST /api/pair {"spake": …}``);
2. the board answers with its own and keeps the key it derived for a minute;
3. the director proves it derived the same key (``POST /api/pair/confirm``,
   :meth:`Agreed.club_proof`); the board counts a wrong proof as a wrong PIN (the
   slowed guessing of :mod:`pegboard.panel.tries`) and sends nothing more;
4. the board proves the same, over its public key (:meth:`Agreed.board_proof`): the
   director pins that key from then on, and both keep the pairing key
   (:meth:`Agreed.pairing_key`) that signs the director's requests.

The board proves second: a director with a wrong PIN (or an impostor playing the
director) is told nothing it could test guesses against.

>>> club, said = club_start("1234")
>>> answer, board = board_answer("1234", said)
>>> agreed = club_finish(club, said, answer)
>>> board.check_club(agreed.club_proof()), agreed.pairing_key() == board.pairing_key()
(True, True)
>>> agreed.check_board(bytes(32), board.board_proof(bytes(32)))
True
>>> club, said = club_start("9999")               # a wrong PIN
>>> answer, board = board_answer("1234", said)
>>> board.check_club(club_finish(club, said, answer).club_proof())
False
"""

from __future__ import annotations

import hashlib
import hmac
import json
from dataclasses import dataclass

from spake2 import SPAKE2_A, SPAKE2_B
from spake2.spake2 import SPAKEError

CLUB, BOARD = b"pegboard club", b"pegboard board"  # the two sides' names in SPAKE2


class PairingError(ValueError):
    """A message that is no SPAKE2 message of the other side."""


@dataclass(frozen=True, slots=True)
class Agreed:
    """The key one side derived, and the exchange's two messages (its transcript)."""

    key: bytes
    transcript: bytes

    def club_proof(self) -> bytes:
        return self._mac(b"the club derived it")

    def board_proof(self, public: bytes) -> bytes:
        """The board's proof, over its public key: the key arrives authenticated."""
        return self._mac(b"the board derived it, and its key is " + public)

    def pairing_key(self) -> bytes:
        """The key that signs the director's requests to the board (never sent)."""
        return self._mac(b"the pairing key")

    def check_club(self, proof: bytes) -> bool:
        return hmac.compare_digest(self.club_proof(), proof)

    def check_board(self, public: bytes, proof: bytes) -> bool:
        return hmac.compare_digest(self.board_proof(public), proof)

    def _mac(self, what: bytes) -> bytes:
        return hmac.new(self.key, what + b"\n" + self.transcript, hashlib.sha256).digest()


def club_start(pin: str) -> tuple[SPAKE2_A, bytes]:
    """The director's side of an exchange over ``pin``, and its first message."""
    club = SPAKE2_A(pin.encode(), idA=CLUB, idB=BOARD)
    return club, club.start()


def club_finish(club: SPAKE2_A, said: bytes, answer: bytes) -> Agreed:
    """The key the director derives from the board's ``answer`` to ``said``."""
    return Agreed(_finish(club, answer), said + answer)


def board_answer(pin: str, said: bytes) -> tuple[bytes, Agreed]:
    """The board's message in answer to the director's ``said``, and its key."""
    board = SPAKE2_B(pin.encode(), idA=CLUB, idB=BOARD)
    answer = board.start()
    return answer, Agreed(_finish(board, said), said + answer)


def _finish(side: SPAKE2_A | SPAKE2_B, message: bytes) -> bytes:
    try:
        return bytes(side.finish(message))
    except (SPAKEError, ValueError, TypeError, AssertionError) as error:
        raise PairingError(f"not a pairing message: {error}") from None


def answered(nonce: str, status: int, body: bytes) -> bytes:
    """What a board signs of its answer to a director's request (``nonce``: the
    request's own, so an answer cannot be replayed for another request)."""
    return b"pegboard answer\n" + nonce.encode() + b"\n" + str(status).encode() + b"\n" + body


def asked(night: int | str, table: int | str, round: int | str, nonce: str) -> str:
    """What a director asks at a game's start, as the board keeps and signs it.

    >>> asked(2, 1, 3, "9f")
    '{"night":2,"table":1,"round":3,"nonce":"9f"}'
    """
    fields = {"night": night, "table": table, "round": round, "nonce": nonce}
    return json.dumps(fields, separators=(",", ":"))
