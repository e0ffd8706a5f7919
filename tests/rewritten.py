"""Game files whose entries say what no pegboard of today would write, chained as if they
were: what an older pegboard stored (its file chained as it stood when upgraded), or an
edit by someone who worked the chain out again. The checks behind the chain (the reader,
the rules) must still refuse what they refuse."""

from __future__ import annotations

import sqlite3
from contextlib import closing

from pegboard.game.chain import START, link


def rewrite(path: object, version: int, kind: str | None = None, data: str | None = None) -> None:
    """Set entry ``version`` of game 1 to ``kind`` and ``data`` (None: as it is) and chain
    the game again, entry by entry, with its head."""
    with closing(sqlite3.connect(path)) as db, db:
        if kind is not None:
            db.execute("UPDATE events SET type = ? WHERE game = 1 AND version = ?", (kind, version))
        if data is not None:
            db.execute("UPDATE events SET data = ? WHERE game = 1 AND version = ?", (data, version))
        rechain(db, 1)


def rechain(db: sqlite3.Connection, game: int) -> None:
    """Work ``game``'s chain out again over its entries as they now stand."""
    rows = db.execute(
        "SELECT version, type, data, at FROM events WHERE game = ? ORDER BY version", (game,)
    ).fetchall()
    head = START
    for version, kind, data, at in rows:
        head = link(head, game, version, kind, data, at)
        db.execute(
            "UPDATE events SET chain = ? WHERE game = ? AND version = ?", (head, game, version)
        )
    db.execute("UPDATE games SET versions = ?, head = ? WHERE id = ?", (len(rows), head, game))
