"""What a photo of a show may say: the cards the reader saw, checked against the deal before
they come with a claim (``Table``'s claims take them as the count's cards).

A photo of a hand or crib may hold the starter beside it: it must be the one turned. What is
left is checked as any count's cards are (:func:`pegboard.game.checks.hand_cards`): its
size, the cards its owner laid in the play, and no card twice in the deal, a card another
player laid or showed refused by its name and whose it is. No card may be seen twice in one
photo. These are pure checks: they change nothing, and raise a RuleError a player can read.
"""

from __future__ import annotations

from collections.abc import Sequence

from pegboard.errors import RuleError
from pegboard.game.checks import hand_cards, show_cards
from pegboard.game.state import State
from pegboard.game.values import Count
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card


def shown_cards(state: State, count: Count, seen: Sequence[Card]) -> tuple[Card, ...]:
    """The hand or crib of ``count`` in the cards ``seen`` in a photo of its show."""
    twice = sorted({card for card in seen if seen.count(card) > 1})
    if twice:
        raise RuleError(
            Phrase.of(
                N_("{cards} seen twice in one photo: one deck holds each card once"),
                cards=show_cards(twice),
            )
        )
    if state.starter is None:
        raise RuleError(
            Phrase(N_("the starter was not entered: name it, then the cards can be checked"))
        )
    size = state.size_of(count.kind)
    rest = tuple(seen)
    if len(seen) == size + 1:  # the starter beside the hand
        if state.starter not in seen:
            raise RuleError(
                Phrase.of(
                    N_("the starter is {starter}, and it is not in the photo: {cards}"),
                    starter=str(state.starter),
                    cards=show_cards(seen),
                )
            )
        rest = tuple(card for card in seen if card != state.starter)
    not_anothers(state, count, rest)  # whose each card is, first
    checked = hand_cards(state, count, rest)
    assert checked is not None  # cards were given
    return checked


def not_anothers(state: State, count: Count, seen: Sequence[Card]) -> None:
    """Refuse a card ``seen`` in a photo of ``count``'s show that another player laid or
    showed this deal, by its name and whose it is (a check of the cards read sure, when
    the rest are not)."""
    for card, owner in state.known_cards().items():
        if card in seen and owner is not None and owner != count:
            raise RuleError(
                Phrase.of(N_("{card} is in {count}"), card=str(card), count=state.count_name(owner))
            )
