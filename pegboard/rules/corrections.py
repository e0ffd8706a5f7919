"""Why a count was wrong: the rule a claim most likely missed, said in a sentence.

A claim that is not what its cards score is told as under or over (and the breakdown
shows every part); when the difference is exactly what one rule new players get wrong
makes, that rule is said too: a crib of four cards of one suit is no flush without the
starter (every seed says so), the jack of the starter's suit is his nobs (and no other
jack, nor a jack turned), a flush with the starter's suit is one more, four of a suit
in a hand are a flush. (A difference a missed fifteen or pair could make as well is
left to the breakdown: no rule is guessed.)

>>> from pegboard.rules.cards import Card, parse_cards
>>> crib = parse_cards("2H 6H 9H KH".split())
>>> rule_missed(crib, Card.parse("5S"), crib=True, claimed=8).say()
'A crib scores a flush only when the starter is of its suit too: five cards.'
>>> rule_missed(crib, Card.parse("5S"), crib=True, claimed=4)  # 4: a guess, no rule
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card
from pegboard.rules.scoring import Show, score_show

# Each rule: its sentence, and the total a player who did not know it would claim (None
# when the rule plays no part in these cards).
Misread = Callable[[Show], int | None]


def _crib_flush(show: Show) -> int | None:
    """Four of a suit in the crib, the starter of another: no flush (a hand's would be)."""
    suits = {card.suit for card in show.hand}
    if show.crib and len(suits) == 1 and show.starter.suit not in suits:
        return show.total + len(show.hand)
    return None


def _nobs_missed(show: Show) -> int | None:
    return show.total - 1 if show.nobs else None


def _wrong_jack(show: Show) -> int | None:
    """A jack in the hand of another suit than the starter's, taken for his nobs."""
    jacks = [card for card in show.hand if card.rank == JACK]
    return show.total + 1 if jacks and not show.nobs else None


def _starter_jack(show: Show) -> int | None:
    """A jack turned as the starter, taken for his nobs (it was the dealer's heels)."""
    return show.total + 1 if show.starter.rank == JACK and not show.nobs else None


def _flush_with_starter(show: Show) -> int | None:
    """A flush whose starter is of its suit too, counted as the hand's cards only."""
    return show.total - 1 if show.flush == len(show.hand) + 1 else None


def _flush_missed(show: Show) -> int | None:
    """Four of a suit in a hand (the starter of another), not counted."""
    return show.total - show.flush if not show.crib and show.flush == len(show.hand) else None


RULES: tuple[tuple[str, Misread], ...] = (
    (
        N_("A crib scores a flush only when the starter is of its suit too: five cards."),
        _crib_flush,
    ),
    (N_("The jack of the starter's suit in the hand is one for his nobs."), _nobs_missed),
    (N_("Only the jack of the starter's suit is his nobs."), _wrong_jack),
    (
        N_("A jack turned as the starter is two for his heels at the turn, not his nobs."),
        _starter_jack,
    ),
    (N_("A flush with the starter of its suit is one more: five cards."), _flush_with_starter),
    (N_("Four cards of one suit in the hand are a flush of four."), _flush_missed),
)


def rule_missed(hand: Sequence[Card], starter: Card, *, crib: bool, claimed: int) -> Phrase | None:
    """The rule whose misreading gives exactly ``claimed`` for these cards, if one does.

    >>> from pegboard.rules.cards import Card, parse_cards
    >>> hand = parse_cards("JD 5C 8S 2H".split())
    >>> rule_missed(hand, Card.parse("KD"), crib=False, claimed=6).say("de")  # of 7
    'Der Bube in der Farbe der Startkarte auf der Hand zählt einen für den Kopf.'
    """
    show = score_show(hand, starter, crib=crib)
    if claimed == show.total:
        return None
    for message, misread in RULES:
        if misread(show) == claimed:
            return Phrase(message)
    return None
