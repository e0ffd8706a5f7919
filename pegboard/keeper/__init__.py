"""The front door: every change of the game passes through one :class:`Scorekeeper`
(see :mod:`pegboard.keeper.door`); :mod:`pegboard.keeper.said` is what the board says
of each change.

The adapters reach the game only through here: the values the door hands out (the
state and its parts, the settings, the skunk lines), the pure checks of what a photo of
a show holds, and the declarations of the entries and the door's controls (what the
panel's actions are made from) are re-exported for them.
"""

from pegboard.game import PALETTE, Claim, Count, Phase, Settings, State, skunk_lines, standing
from pegboard.game.acts import Act, Entries
from pegboard.game.chain import ChainError, GameLog
from pegboard.game.entries import CONTROLS, ENTRIES, Arg, Declared
from pegboard.game.photo import not_anothers, shown_cards
from pegboard.game.values import CountKind
from pegboard.keeper.answers import KeyReused
from pegboard.keeper.change import Change, Versions, latest
from pegboard.keeper.door import Scorekeeper
from pegboard.keeper.fit import players_allowed, variants_allowed

__all__ = [
    "CONTROLS",
    "ENTRIES",
    "PALETTE",
    "Act",
    "Arg",
    "ChainError",
    "Change",
    "Claim",
    "Count",
    "CountKind",
    "Declared",
    "Entries",
    "GameLog",
    "KeyReused",
    "Phase",
    "Scorekeeper",
    "Settings",
    "State",
    "Versions",
    "latest",
    "not_anothers",
    "players_allowed",
    "shown_cards",
    "skunk_lines",
    "standing",
    "variants_allowed",
]
