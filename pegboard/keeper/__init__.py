"""The front door: every change of the game passes through one :class:`Scorekeeper`
(see :mod:`pegboard.keeper.door`); :mod:`pegboard.keeper.said` is what the board says
of each change.

The adapters reach the game only through here: the values the door hands out (the
state and its parts, the settings, the skunk lines) are re-exported for them.
"""

from pegboard.game import PALETTE, Count, Phase, Settings, State, skunk_lines, standing
from pegboard.keeper.door import Change, KeyReused, Scorekeeper
from pegboard.keeper.fit import players_allowed, variants_allowed

__all__ = [
    "PALETTE",
    "Change",
    "Count",
    "KeyReused",
    "Phase",
    "Scorekeeper",
    "Settings",
    "State",
    "players_allowed",
    "skunk_lines",
    "standing",
    "variants_allowed",
]
