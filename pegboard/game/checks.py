"""The checks the commands share: is the game on, whose turn is it, which count is due,
what can a count total, do the cards fit the deal, who is this seat.  Each returns what
it checked, or raises a RuleError a player can read.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from pegboard.errors import RuleError
from pegboard.game.state import State
from pegboard.game.values import Count, Phase
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import ACE, KING, Card, parse_cards
from pegboard.rules.play import max_play_points
from pegboard.rules.scoring import possible_totals
from pegboard.shape import BOOLS

Cards = str | Iterable[Card | str]  # "5H 5C JD 4S", or one card or token each


def not_over(state: State) -> None:
    if state.winner is not None:
        scores = "-".join(map(str, sorted(state.scores, reverse=True)))
        raise RuleError(
            Phrase.of(
                N_("the game is over: {winner} won ({scores}); only undo is possible"),
                winner=state.settings.side_names[state.winner],
                scores=scores,
            )
        )


def in_phase(state: State, phase: Phase) -> None:
    not_over(state)
    if state.stage is phase:
        return
    if state.stage is Phase.DISCARD:
        raise RuleError(Phrase(N_("turn the starter first")))
    if phase is Phase.DISCARD:
        raise RuleError(Phrase(N_("the starter is turned already")))
    raise RuleError(
        Phrase(N_("the play is over: the show is on"))
        if state.stage is Phase.SHOW
        else Phrase(N_("the play is not over: end it before the show"))
    )


def whose_turn(state: State, seat: int | str | None) -> int:
    in_phase(state, Phase.PLAY)
    if state.play.mode == "points":
        raise RuleError(Phrase(N_("this play is pegged by hand: enter points, not cards")))
    turn = state.play.turn
    assert turn is not None  # the play goes on, by cards: someone is to lay
    if seat is not None and seat_of(state.players, seat) != turn:
        raise RuleError(Phrase.of(N_("it is {name}'s turn to lay"), name=state.players[turn]))
    return turn


def due_now(state: State, count: Count) -> Count:
    in_phase(state, Phase.SHOW)
    due = state.due
    if count.kind == "crib" and not state.settings.variant_rules.crib:
        raise RuleError(
            Phrase.of(N_("there is no crib in {variant}"), variant=state.settings.variant)
        )
    if due is None:
        raise RuleError(Phrase(N_("the show is done: advance to the next deal")))
    if count.kind == "crib" and count.seat != state.dealer:
        message = N_("{name} has no crib: the crib is {dealer}'s")
        assert count.seat is not None  # a crib is somebody's
        name, dealer = state.players[count.seat], state.players[state.dealer]
        raise RuleError(Phrase.of(message, name=name, dealer=dealer))
    if count != due:
        raise RuleError(
            Phrase.of(
                # Translators: the rules refusing an entry; {due}, {given} (and {count}
                # elsewhere) are whose count, like "Ann's hand"; {card} a card, like 5♥.
                N_("out of order: {due} counts now, not {given}"),
                due=state.count_name(due),
                given=state.count_name(count),
            )
        )
    return count


def totals_of(state: State, count: Count) -> frozenset[int]:
    crib = count.kind == "crib"
    return possible_totals(state.size_of(count.kind), crib)


def why_impossible(state: State, count: Count, points: int) -> Phrase:
    """Why no ``count`` can score ``points``; a claim of 19 means a hand with nothing."""
    if count.kind == "play":
        return Phrase.of(N_("one card scores at most {most} in the play"), most=max_play_points())
    nineteen = points == 19
    if count.kind == "crib":
        message = (
            N_("no crib can score {points} (a hand with nothing is called nineteen: peg 0)")
            if nineteen
            else N_("no crib can score {points}")
        )
        return Phrase.of(message, points=points)
    message = (
        N_(
            "no hand of {size} cards can score {points} "
            "(a hand with nothing is called nineteen: peg 0)"
        )
        if nineteen
        else N_("no hand of {size} cards can score {points}")
    )
    return Phrase.of(message, size=state.hand_size, points=points)


def hand_cards(state: State, count: Count, cards: Cards | None) -> tuple[Card, ...] | None:
    """The cards of a hand or crib given to check a count, checked against the deal."""
    if cards is None:
        return None
    given = tuple(read_cards(cards))
    size = state.size_of(count.kind)
    if len(given) != size:
        raise RuleError(
            Phrase.of(
                N_("{count} has {size} cards, not {given_size}"),
                count=state.count_name(count),
                size=size,
                given_size=len(given),
            )
        )
    if state.starter is None:
        raise RuleError(
            Phrase(N_("the starter was not entered: name it, then the cards can be checked"))
        )
    seat = count.seat
    laid = state.play.cards_of(seat) if count.kind == "hand" and seat is not None else ()
    if not set(laid) <= set(given):
        raise RuleError(
            Phrase.of(
                N_("{count} laid {laid} in the play, not {cards}"),
                count=state.count_name(count),
                laid=show_cards(laid),
                cards=show_cards(given),
            )
        )
    for card, owner in state.known_cards().items():
        if card in given and owner != count:
            raise RuleError(
                Phrase.of(N_("{card} is the starter"), card=str(card))
                if owner is None
                else Phrase.of(
                    N_("{card} is in {count}"), card=str(card), count=state.count_name(owner)
                )
            )
    return given


def show_cards(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def read_cards(cards: Cards) -> list[Card]:
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    return parse_cards(tokens)


def seat_of(names: Sequence[str], who: int | str) -> int:
    """A seat given by number or by the player's name."""
    if isinstance(who, str) and who in names:
        return names.index(who)
    if isinstance(who, int) and not isinstance(who, bool) and 0 <= who < len(names):
        return who
    raise RuleError(
        Phrase.of(
            N_("no player {who} at this table ({names})"), who=repr(who), names=", ".join(names)
        )
    )


def whole(value: object, name: str, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        message = N_("{name} must be a whole number of at least {least}, not {value}")
        raise RuleError(Phrase.of(message, name=name, least=least, value=repr(value)))
    return value


def whole_rank(rank: object) -> int:
    """A card's rank as dialled: ace 1 to king 13."""
    if not isinstance(rank, int) or isinstance(rank, bool) or not ACE <= rank <= KING:
        message = N_("dial the rank of the card cut: ace {ace} to king {king}, not {rank}")
        raise RuleError(Phrase.of(message, ace=ACE, king=KING, rank=rank))
    return rank


def flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        message = N_("{name} must be {true} or {false}, not {value}")
        raise RuleError(Phrase.of(message, name=name, value=repr(value), **BOOLS))
    return value
