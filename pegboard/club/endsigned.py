"""What a board signed of a game's end, as a night file carries it with the game's result:
written by the club's export (:func:`written`), read and checked by whoever reads the file
(:func:`carried`, :func:`board_signed`; the league too), without trusting the club.

A board signs each game's end with its Ed25519 identity (:func:`pegboard.game.chain.end_of`:
the game, its entries, its head and the start the club asked for); the result carries the
board's key, the signature and what of the signed end the result does not hold already.
A result the club counted before it kept them carries the old form, which proves nothing:
``{"algorithm": "hmac-sha256", "signature": null}``.
"""

from __future__ import annotations

import json
from typing import Any

from pegboard.club.night import GameCounted
from pegboard.game.chain import end_of
from pegboard.i18n import N_
from pegboard.identity import verify
from pegboard.shape import Source, one_of

ED25519 = "ed25519"  # a board's signature of its game's end, with its own key
HMAC = "hmac-sha256"  # its old form, of a result kept without it: nothing to check
SIGNED = {"key": str, "signature": str, "versions": int, "asked": str}  # what ED25519 gives

UNSIGNED_GAME = N_("{source}: table {table}'s game {game} is not the one its board signed")
ELSEWHERE = N_(
    "{source}: table {table}'s game {game} was signed by its board for another night, table "
    "or round"
)


def written(result: GameCounted) -> dict[str, Any]:
    """The board's signature of ``result``'s game, as the night file carries it."""
    if not result.signature:
        return {"algorithm": HMAC, "signature": None}
    return {"algorithm": ED25519, **{name: getattr(result, name) for name in SIGNED}}


def unhex(text: str) -> bytes:
    """``text``'s bytes if it is lowercase hex as written (ValueError else)."""
    raw = bytes.fromhex(text)
    if raw.hex() != text:
        raise ValueError(text)
    return raw


def carried(read: Source, record: dict[str, Any]) -> dict[str, Any]:
    """The board's signature ``record`` carries, as its GameCounted keeps it (none: {})."""
    signed = read.value(record, "board_signature", dict, default=None)
    choices = one_of(ED25519, HMAC)
    if signed is None or read.value(signed, "algorithm", str, check=choices) == HMAC:
        return {}
    return {
        n: read.value(signed, n, kind, key=f"board_signature.{n}") for n, kind in SIGNED.items()
    }


def board_signed(read: Source, result: GameCounted, kept: dict[str, Any]) -> None:
    """Refuse ``result`` unless the board's signature it carries (if any) holds: its key
    signed :func:`~pegboard.game.chain.end_of` of its game, entries, head and start, the
    start asked for its table and round on the night of the file's other boards' games
    (``kept``: the first one's, kept there)."""
    if not result.signature:
        return
    seat = {"table": result.table, "game": result.game}
    try:
        end = end_of(result.game, result.versions, unhex(result.head), result.asked)
        holds = verify(unhex(result.key), unhex(result.signature), end)
    except ValueError:
        holds = False
    if not holds:
        raise read.fail(UNSIGNED_GAME, **seat)
    try:
        start = json.loads(result.asked)
    except ValueError:
        start = None
    if not isinstance(start, dict):
        raise read.fail(ELSEWHERE, **seat)
    night = kept.setdefault("night", start.get("night"))
    where = (start.get("night"), start.get("table"), start.get("round"))
    if where != (night, result.table, result.round):
        raise read.fail(ELSEWHERE, **seat)
