"""The game: a whole cribbage game (or match) as an event log that never loses a point.

Use :class:`Table` over a game file.  Every entry is checked first (a refusal is a
``RuleError`` whose message a player can read, and changes nothing), then stored as one
event in one SQLite transaction.  Each entry is a command (:mod:`.commands`,
:mod:`.calls`), declared for the panel's wire next to it (:mod:`.entries`); the Table takes
it as a value (``table.take(Act.of(claim, "Bob", 2))``, ``table.enter(claim, "Bob", 2)``),
or as its method, typed as the command is (:mod:`.acts`):

- ``new_game(settings, dealer= | cuts=)``, ``next_game(dealer= | cuts= | ranks=)`` (the
  next game of a match: the first deal passes on, a dealer is chosen or cut for in the
  first game only; the third game of a match of three is cut for, ``State.cut_customary``);
- ``turn_starter(card | None, heels=)``: his heels is pegged by itself;
- ``lay(card)`` / ``go()``: the play scored by the game, or ``claim(seat, points)`` to peg
  the play by hand; ``advance()`` ends the play (laying the last card ends it too);
- ``claim(seat, points, cards=)``: the count due in the show, checked by its cards;
- ``muggins(seat, points, cards=)``; ``dispute_muggins(seat, cards)``: the mugged side
  shows the cards of a call made without them (``State.disputable``), and they settle it;
  ``challenge(seat, cards=)``: the count just pegged is over, its cards decide
  (``State.challengeable``; :mod:`.calls`);
- ``advance()`` passes the deal; ``undo()``, ``redo()``;
- ``take(act, version=, key=)``: an entry as a value, refused if the game moved on from
  ``version``; ``submit(event | dict)``: an event given whole, checked as if entered.

Read :attr:`Table.state`, an immutable :class:`State` (the front door,
:mod:`pegboard.keeper`, announces each change to whoever follows the board).  Underneath:
the events (:mod:`.events`), the pure checks (:mod:`.commands`, :mod:`.calls`), the fold
(:mod:`.fold`, pegging through :mod:`.pegging`),
the file (:mod:`.store`).  Opening a game replays its file with every event checked again
by the commands, as a live entry is: one they refuse stops the load with a StoreError.

>>> import tempfile, pathlib
>>> table = Table(pathlib.Path(tempfile.mkdtemp()) / "games.db")
>>> state = table.new_game(Settings(players=("Ann", "Bob")), cuts=["9H", "4C"])
>>> state.players[state.dealer], state.phase, state.due
('Bob', <Phase.DISCARD: 'discard'>, Count(seat=1, kind=<CountKind.STARTER: 'starter'>))
>>> table.close()
"""

from pegboard.game.events import Event, from_dict, to_dict
from pegboard.game.fold import replay
from pegboard.game.settings import PALETTE, Settings
from pegboard.game.skunk import skunk_level, skunk_lines
from pegboard.game.state import State
from pegboard.game.store import Store
from pegboard.game.summary import GameRecord, Summary, standing
from pegboard.game.table import Table
from pegboard.game.values import (
    Claim,
    Count,
    CountKind,
    Entry,
    GameResult,
    Match,
    Mugging,
    Pegged,
    Pegs,
    Phase,
    Play,
    Verdict,
)
from pegboard.rules.deals import VARIANTS, Variant

__all__ = [
    "PALETTE",
    "VARIANTS",
    "Claim",
    "Count",
    "CountKind",
    "Entry",
    "Event",
    "GameRecord",
    "GameResult",
    "Match",
    "Mugging",
    "Pegged",
    "Pegs",
    "Phase",
    "Play",
    "Settings",
    "State",
    "Store",
    "Summary",
    "Table",
    "Variant",
    "Verdict",
    "from_dict",
    "replay",
    "skunk_level",
    "skunk_lines",
    "standing",
    "to_dict",
]
