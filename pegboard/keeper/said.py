"""What the board says of a change: one phrase every phone hears in its own language
(and the voice speaks). Said from the state the change made, so a dial, a phone and a
script that make the same entry hear the same words.

>>> from pegboard.game.values import Claim
>>> said = verdict(Claim(1, 1, "hand", 24, 22, 1, actual=22))
>>> str(said), said.say("da")
('24: over by 2; pegged 22.', '24: 2 for meget; 22 markeret.')
"""

from __future__ import annotations

from pegboard.game import events as ev
from pegboard.game.state import State
from pegboard.game.values import Claim
from pegboard.i18n import N_, Phrase

SILENCE = Phrase("")
UNDONE = Phrase(N_("Undone."))
REDONE = Phrase(N_("Redone."))


def entered(state: State) -> Phrase:
    """What the board says of the entry ``state`` was made by."""
    match state.event:
        case ev.GameStarted(cuts=None) | ev.NextGame(cuts=None, ranks=None):
            message = N_("New game: {name} deals first.")
            return Phrase.of(message, name=state.players[state.dealer])
        case ev.GameStarted() | ev.NextGame():
            message = N_("New game: {name} cut the lowest card and deals first.")
            return Phrase.of(message, name=state.players[state.dealer])
        case ev.StarterTurned() if state.history and state.history[-1].kind == "heels":
            return Phrase.of(N_("{name} pegs two for his heels."), name=state.players[state.dealer])
        case ev.StarterNamed(card=card):
            return Phrase.of(N_("The starter: {card}."), card=str(card))
        case ev.Claimed() | ev.PlayEnded() | ev.ShowEnded() if _stood(state):
            assert state.winner is not None  # the win stood
            message = N_("The count stands: {winner} wins.")
            return Phrase.of(message, winner=state.settings.side_names[state.winner])
        case ev.Claimed(kind=kind) if kind != "play" and state.claims:
            return verdict(state.claims[-1])
        case ev.Challenged():  # the cards decided: what they say of the count
            return verdict(state.claims[-1])
        case ev.MugginsCalled():
            return Phrase(N_("Muggins!"))
        case ev.MugginsDisputed():
            return Phrase(N_("Muggins settled by the cards."))
    return SILENCE


def _stood(state: State) -> bool:
    """Whether the entry that made ``state`` closed the window of a claim of game held
    for it (:mod:`pegboard.game.pegging`): the win stands."""
    return state.over and state.before is not None and state.before.held is not None


def said_of(event: ev.Event, state: State) -> Phrase:
    """What the board said of ``event``, ``state`` being the state it made."""
    match event:
        case ev.Undone():
            return UNDONE
        case ev.Redone():
            return REDONE
    return entered(state)


def verdict(claim: Claim) -> Phrase:
    """What the board says of a count just pegged: exact, under, over, or only pegged.
    Never before it is claimed (the true count of a count not yet claimed is no phone's
    and no voice's to tell), and with Muggins on only once its window has closed or a
    call settled it: until then it is only pegged (``claim.verdict`` is "kept"), over or
    not (an over-count is the opponents' to catch too)."""
    told = claim.verdict
    if told == "exact":
        return Phrase.of(N_("{claimed}: exact."), claimed=claim.claimed)
    if told == "under":
        message = N_("{claimed}: under by {n}.")
        return Phrase.of(message, claimed=claim.claimed, n=-claim.difference)
    if told == "over":
        message = N_("{claimed}: over by {n}; pegged {pegged}.")
        return Phrase.of(message, claimed=claim.claimed, n=claim.difference, pegged=claim.pegged)
    return Phrase.of(N_("Pegged {pegged}."), pegged=claim.pegged)
