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
            return Phrase(N_("Two for his heels."))
        case ev.StarterNamed(card=card):
            return Phrase.of(N_("The starter: {card}."), card=str(card))
        case ev.Claimed(kind=kind) if kind != "play" and state.claims:
            return verdict(state.claims[-1])
        case ev.MugginsCalled():
            return Phrase(N_("Muggins!"))
        case ev.MugginsDisputed():
            return Phrase(N_("Muggins settled by the cards."))
    return SILENCE


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
    call settled it: until then it is only pegged (``claim.verdict`` is "kept")."""
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
