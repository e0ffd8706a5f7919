"""The rules of the board's own controls: what a dial may be worth, what a press pegs,
whose entry a long press takes back, and what the advance button does.

Pure functions of the state, like the commands: the front door asks them, then makes
the change through the table.

>>> from pegboard.game.fold import replay
>>> from pegboard.game.events import GameStarted
>>> state = replay([GameStarted(Settings(players=("Ann", "Bob")), dealer=0)])
>>> dial_cap(state), dialled(state, 0, 2)
(2, StarterTurned(card=None, heels=True))
>>> button(state)
'advance'
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.game import commands
from pegboard.game import events as ev
from pegboard.game.settings import Settings  # noqa: F401 (doctest)
from pegboard.game.state import State
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import KING
from pegboard.rules.play import max_play_points
from pegboard.rules.scoring import HEELS_POINTS, possible_totals


def dial_cap(state: State | None) -> int:
    """The most the entry due now can be worth: his heels at the starter, the best
    card in the play, the best hand or crib in the show; 0 when nothing is due."""
    if state is not None and button(state) == "cut":
        return KING  # the rank of the card cut for the third game
    due = None if state is None else state.due
    if state is None or due is None:
        return 0
    if due.kind == "starter":
        return HEELS_POINTS
    if due.kind == "play":
        return max_play_points()
    return max(possible_totals(state.size_of(due.kind), due.kind == "crib"))


def dialled(state: State, seat: int, points: int) -> ev.Event:
    """The entry a press on ``seat``'s dial makes of ``points``: at the starter, his
    heels or nothing; in the play, the points the card scored; in the show, the count
    due (checked as if entered any other way)."""
    if button(state) == "cut":
        raise RuleError(Phrase(CUT))
    due = state.due
    if due is not None and due.kind == "starter":
        if points not in (0, HEELS_POINTS):
            message = N_("the starter gives the dealer {heels} for his heels, or nothing")
            raise RuleError(Phrase.of(message, heels=HEELS_POINTS))
        return commands.turn_starter(state, None, heels=points == HEELS_POINTS)
    if due is not None and due.kind == "play" and points == 0:
        raise RuleError(Phrase(N_("dial the points scored in the play, then press")))
    return commands.claim(state, seat, points)


def whose(event: ev.Event | None, state: State) -> int | None:
    """The seat that made ``event`` (the dealer turns the starter); None for an entry
    nobody made alone (the end of the play or the show, a new game)."""
    if isinstance(event, ev.StarterTurned):
        return state.dealer
    return getattr(event, "seat", None)


def undo_own(state: State, seat: int) -> ev.Undone:
    """A long press takes back the last entry in force, when ``seat`` made it."""
    made = state.before
    if state.event is None or made is None or whose(state.event, made) != seat:
        message = N_("the last entry is not {name}'s")
        raise RuleError(Phrase.of(message, name=state.players[seat]))
    return commands.undo(state)


def button(state: State | None) -> str:
    """What the advance button does now: ``"start"`` a game with the house rules (none
    yet), ``"advance"`` the deal, the ``"next_game"`` of a match, the ``"cut"`` for the
    third game of three (each seat's dial holds the rank it cut), or a ``"rematch"`` when
    the match is won."""
    if state is None:
        return "start"
    if not state.over:
        return "advance"
    if state.match.winner is not None:
        return "rematch"
    return "cut" if state.cut_customary else "next_game"


def cut(state: State, dialled: tuple[int, ...]) -> ev.NextGame:
    """The third game of three, its dealer cut for on the dials: each player's dial holds
    the rank of the card they cut (ace 1 to king 13), and the lowest deals."""
    return commands.next_game(state, ranks=dialled[: len(state.players)])


# Translators: a press of a dial when the third game is cut for.
CUT = N_(
    "dial the card you cut (ace 1 to king 13); when every player has, the advance "
    "button starts the third game"
)
