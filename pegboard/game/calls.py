"""The calls on a count just pegged: Muggins (points it missed), its dispute, and a
challenge (the count is over: a claim of game too). Pure checks, as the other commands
(:mod:`pegboard.game.commands`): each turns a call into an event or refuses it with a
RuleError a player can read; the cards decide a call in the fold, by the rules of
:mod:`pegboard.game.muggins`. No refusal here depends on what the cards of a kept count
hold: a refusal that did would tell the verdict the board keeps.
"""

from __future__ import annotations

from pegboard.errors import RuleError
from pegboard.game import events as ev
from pegboard.game.checks import (
    Cards,
    hand_cards,
    not_over,
    seat_of,
    show_cards,
    totals_of,
    whole,
    why_impossible,
)
from pegboard.game.entries import entry
from pegboard.game.state import State
from pegboard.game.values import Claim, Count
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card
from pegboard.rules.play import max_play_points

NO_STARTER = N_("the starter was not entered: name it, then the cards can be checked")


@entry(seat="seat")
def muggins(
    state: State, seat: int | str, points: int, cards: Cards | None = None
) -> ev.MugginsCalled:
    """``seat`` calls Muggins on the count just pegged: it missed ``points``.

    With the cards known (given with the count, laid in the play, or named now by the
    caller) any call is taken, and the cards decide it (ACC): the caller pegs the lesser
    of the call and the points truly missed; if nothing was missed, the mugged side pegs
    the call; if the count was over, the over-count rule settles it, as for a
    :func:`challenge`.  Without them the board cannot say what was missed, so a call that would
    make the count a total no hand can score (or more than one card scores in the play)
    is refused, and the caller recounts or names the cards.  A call that can be right is
    taken as made; on a hand or crib it stands unless the mugged side disputes it by
    showing the cards before the next count (:func:`dispute_muggins`).
    """
    if not state.settings.muggins:
        raise RuleError(Phrase(N_("Muggins is off in this game")))
    not_over(state)
    seat = seat_of(state.players, seat)
    points = whole(points, "points", least=1)
    if state.window is None:
        raise RuleError(
            Phrase(
                N_("nothing to mug: call Muggins after a count is pegged and before the next one")
            )
        )
    mugged = state.claims[state.window]
    count = Count(mugged.seat, mugged.kind)
    if state.side_of(seat) == mugged.side:
        raise RuleError(Phrase.of(N_("{name} cannot mug their own side"), name=state.players[seat]))
    if cards is not None and mugged.kind == "play":
        raise RuleError(Phrase(N_("the cards of the play cannot be checked after it")))
    given = _named(state, mugged, cards)
    total = mugged.claimed + points
    if mugged.kind == "play":
        impossible = total > max_play_points()
    else:  # without the cards, only a total some hand can score
        impossible = (
            mugged.actual is None and given is None and total not in totals_of(state, count)
        )
    if impossible:
        raise RuleError(
            Phrase.of(
                N_("{count} cannot have missed {points}: {reason}"),
                count=state.count_name(count),
                points=points,
                reason=why_impossible(state, count, total),
            )
        )
    return ev.MugginsCalled(seat, points, given)


@entry(action="dispute", seat="seat")
def dispute_muggins(state: State, seat: int | str, cards: Cards | None) -> ev.MugginsDisputed:
    """``seat``, of the mugged side, disputes the Muggins call just made without the
    cards by showing the mugged hand or crib; the cards settle the call as if the caller
    had named them.  Until then, or once the next count is pegged, the call stands."""
    if state.disputable is None:
        raise RuleError(
            Phrase(
                N_(
                    "nothing to dispute: a Muggins call made without the cards can be "
                    "disputed until the next count"
                )
            )
        )
    seat = seat_of(state.players, seat)
    mugged = state.claims[state.disputable]
    count = Count(mugged.seat, mugged.kind)
    if state.side_of(seat) != mugged.side:
        raise RuleError(
            Phrase.of(
                N_("only the side of {count} can dispute its Muggins call"),
                count=state.count_name(count),
            )
        )
    if cards is None:
        raise RuleError(
            Phrase.of(N_("show {count} to dispute the call"), count=state.count_name(count))
        )
    shown = hand_cards(state, count, cards)
    assert shown is not None  # cards were given
    return ev.MugginsDisputed(seat, shown)


@entry(seat="seat")
def challenge(state: State, seat: int | str, cards: Cards | None = None) -> ev.Challenged:
    """``seat`` says the count just pegged is over, and its cards decide: over, it is
    taken back (under the ``penalise`` rule the caller also pegs the excess); not over,
    it stands. With Muggins on, any hand or crib while its window is open; Muggins or
    not, a claim of game made without its cards, until the next entry. The cards: those
    given with the count or laid in the play, or else named now (``cards``)."""
    index = state.challengeable
    if index is None:
        raise RuleError(
            Phrase(
                N_(
                    "nothing to challenge: a count can be shown over with its cards until "
                    "the next entry (with Muggins off, only a claim of game made without them)"
                )
            )
        )
    seat = seat_of(state.players, seat)
    claim = state.claims[index]
    count = Count(claim.seat, claim.kind)
    if state.side_of(seat) == claim.side:
        message = N_("{name} cannot challenge their own side's count")
        raise RuleError(Phrase.of(message, name=state.players[seat]))
    given = _named(state, claim, cards)
    if given is None and claim.cards is None:
        raise RuleError(
            Phrase.of(N_("show {count} to challenge it"), count=state.count_name(count))
        )
    if state.starter is None:
        raise RuleError(Phrase(NO_STARTER))
    return ev.Challenged(seat, given)


def _named(state: State, claim: Claim, cards: Cards | None) -> tuple[Card, ...] | None:
    """The cards a caller names for ``claim``, checked against the deal; None when none
    are named or the count's own are known (then the named ones must be those)."""
    count = Count(claim.seat, claim.kind)
    given = hand_cards(state, count, cards)
    if given is not None and claim.cards is not None and set(given) != set(claim.cards):
        raise RuleError(
            Phrase.of(
                N_("{count} was {was}, not {cards}"),
                count=state.count_name(count),
                was=show_cards(claim.cards),
                cards=show_cards(given),
            )
        )
    return None if claim.cards is not None else given
