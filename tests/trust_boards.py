"""LED boards as `pegboard serve` makes them, in the test's process (faster than a
subprocess, the same parts): a game file that signs each game's end with the board's
identity, its panel on a loopback port with its PIN, sessions, wrong PINs, pairings and
identity kept in its folder; a club's director over a real club file; and a game pegged
to its end through a board's front door (the scripted players' entries)."""

from __future__ import annotations

import random
import threading
from pathlib import Path
from typing import Any

from pegboard.board.layout import load_layout
from pegboard.club.director import ASK, Director
from pegboard.club.store import ClubStore
from pegboard.errors import ConflictError, RuleError
from pegboard.game import Table
from pegboard.game.store import Store
from pegboard.identity import Identity
from pegboard.keeper import Scorekeeper
from pegboard.panel import actions, create_app
from pegboard.panel.server import PanelServer
from pegboard.panel.view import snapshot
from tests.club_players import BOARD_PIN, entry_for, until


class LedBoard:
    """A board in ``folder`` with ``pin``, on 127.0.0.1:``port`` (0: any free port)."""

    def __init__(self, folder: Path, pin: str = BOARD_PIN, port: int = 0) -> None:
        folder.mkdir(parents=True, exist_ok=True)
        self.folder, self.pin = folder, pin
        self.identity = Identity.made(folder / "identity")
        self.table = Table(Store(folder / "games.db", signer=self.identity.sign))
        self.keeper = Scorekeeper(self.table, load_layout("two-track-121"))
        config = {
            "PIN": pin,
            "SECRET_KEY": "k" * 64,
            "HOSTS": ["127.0.0.1", "localhost"],
            **{f"{name}_FILE": str(folder / name.lower()) for name in KEPT},
        }
        self.app = create_app(config, self.keeper)
        self.server = PanelServer(self.app, "127.0.0.1", port)
        self.port = self.server.port
        self.address = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(target=self.server.run, daemon=True)
        self._thread.start()

    def close(self) -> None:
        self.keeper.close()
        self.server.stop()
        self._thread.join(timeout=30)
        self.table.close()

    def again(self, pin: str | None = None) -> LedBoard:
        """This board stopped and started again (with a new ``pin``, if given)."""
        self.close()
        return LedBoard(self.folder, pin or self.pin, self.port)


KEPT = ("SESSIONS", "TRIES", "PAIRINGS", "IDENTITY")


def play_out(door: Scorekeeper, game: int, rng: random.Random) -> dict[str, Any]:
    """Peg ``game`` at the board of ``door`` to its end: the board's view at the end."""
    refused = 0
    while True:
        view = snapshot(door, "en")
        assert view["game_id"] == game, f"the board plays game {view['game_id']}, not {game}"
        if view["game"]["winner"] is not None:
            return dict(view["game"])
        action, body = entry_for(view["game"], rng)
        try:
            actions.act(door, action, body, sim=False)
            refused = 0
        except (RuleError, ConflictError) as refusal:
            refused += 1
            assert refused < 50, f"{action} {body} refused: {refusal}"


def director_of(folder: Path, follow: str = ASK) -> Director:
    """A director over the club's file in ``folder``, following by hand (follow_once):
    asking each board (by default: every answer is a signed one), or hearing its stream."""
    return Director(ClubStore(folder / "club.db"), folder, poll=0.1, follow=follow)


def follow(director: Director, done: Any, what: str) -> Any:
    """Follow the tables until ``done()`` gives something."""

    def looked() -> Any:
        director.follow_once()
        return done()

    return until(looked, what, 120)


def table_error(director: Director, table: int) -> str:
    """What the director shows of ``table``: its error or the refusal of its log."""
    seen = director.seen.get(table)
    said = seen.error.say("en") if seen is not None and seen.error is not None else ""
    refused = [p.say("en") for (_, t), p in director.refused.items() if t == table]
    return " ".join([said, *refused]).strip()
