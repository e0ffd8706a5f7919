"""What a club asked at a game's start, and the game's end as the board signed it, kept
in the game file beside the game (two tables of their own: a file an older pegboard
wrote gains them at its first write, and loads as before).

- ``asked``: the club's start of the game, as its director sent it (its night, table,
  round and nonce, :mod:`pegboard.panel.clubs`): a game is started for one club's seat,
  once.
- ``ends``: the board's signature, made in the same transaction as the entry that ends
  the game, of :func:`pegboard.game.chain.end_of` (the game, its length, its head and
  what was asked). A game taken up again after its end and ended anew is signed anew;
  an edit of the file afterwards, even chained again, has a head no signature covers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pegboard.errors import ConflictError
from pegboard.game.chain import end_of
from pegboard.i18n import N_, Phrase

TABLES = (
    "CREATE TABLE IF NOT EXISTS asked (game INTEGER PRIMARY KEY, asked TEXT NOT NULL)",
    "CREATE TABLE IF NOT EXISTS ends (game INTEGER PRIMARY KEY, versions INTEGER NOT NULL, "
    "head BLOB NOT NULL, signature BLOB NOT NULL)",
)
ASKED_OTHERWISE = N_("game {game} was started for another club's table")
Signer = Callable[[bytes], bytes]  # the board's identity's sign()


def create(db: Any) -> None:
    for statement in TABLES:
        db.execute(statement)


def present(db: Any) -> bool:
    """Whether the file has the tables yet (a file an older pegboard wrote, unwritten)."""
    found = db.execute("SELECT count(*) FROM sqlite_master WHERE name IN ('asked', 'ends')")
    return int(found.fetchone()[0]) == len(TABLES)


def ask(db: Any, game: int, asked: str) -> None:
    """Keep ``asked`` as what ``game`` was started for (the same again changes nothing;
    another raises ConflictError)."""
    kept = asked_of(db, game)
    if kept is None:
        db.execute("INSERT INTO asked (game, asked) VALUES (?, ?)", (game, asked))
    elif kept != asked:
        raise ConflictError(Phrase.of(ASKED_OTHERWISE, game=game))


def asked_of(db: Any, game: int) -> str | None:
    row = db.execute("SELECT asked FROM asked WHERE game = ?", (game,)).fetchone()
    return None if row is None else str(row[0])


def sign(db: Any, signer: Signer, game: int, versions: int, head: bytes) -> None:
    """The board's signature of ``game``'s end at ``versions`` entries, kept."""
    signature = signer(end_of(game, versions, head, asked_of(db, game) or ""))
    db.execute(
        "INSERT OR REPLACE INTO ends (game, versions, head, signature) VALUES (?, ?, ?, ?)",
        (game, versions, head, signature),
    )


def signature_of(db: Any, game: int) -> tuple[bytes, int]:
    """The signature of ``game``'s end and the length it was signed at (empty, 0: none
    made)."""
    row = db.execute("SELECT signature, versions FROM ends WHERE game = ?", (game,)).fetchone()
    return (b"", 0) if row is None else (bytes(row[0]), int(row[1]))
