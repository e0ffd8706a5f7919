"""Commands: pure checks that turn what a player entered into an event, or refuse it
with a RuleError a player can read.  Nothing here changes anything.

>>> from pegboard.game.fold import replay
>>> state = replay([start(Settings(players=("Ann", "Bob")), dealer=0)])
>>> turn_starter(state, "5h")
StarterTurned(card=Card.parse('5♥'), heels=False)
>>> claim(state, "Bob", 12)
Traceback (most recent call last):
...
pegboard.errors.RuleError: turn the starter first
"""

from __future__ import annotations

import typing
from collections.abc import Callable, Mapping, Sequence
from dataclasses import fields
from typing import Any

from pegboard.errors import RuleError
from pegboard.game import events as ev
from pegboard.game.calls import challenge, dispute_muggins, muggins
from pegboard.game.checks import (
    Cards,
    due_now,
    flag,
    hand_cards,
    in_phase,
    not_over,
    read_cards,
    seat_of,
    totals_of,
    whole,
    whole_rank,
    whose_turn,
    why_impossible,
)
from pegboard.game.entries import ENTRIES, entry
from pegboard.game.pegging import stand
from pegboard.game.settings import Settings
from pegboard.game.state import State
from pegboard.game.values import Count, CountKind, Phase
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card
from pegboard.rules.play import GO_LIMIT, max_play_points

HAND = Count(None, CountKind.HAND)  # a count of the show, by default


def start(
    settings: Settings | Mapping[str, Any] | None = None,
    dealer: int | str | None = None,
    cuts: Cards | None = None,
) -> ev.GameStarted:
    """A new game: the first dealer is chosen, or cut for (one card per player, lowest
    rank deals), or else the first player."""
    if not isinstance(settings, Settings):
        settings = Settings.from_dict(dict(settings or {}))
    seat, cut = _first_dealer(settings.players, dealer, cuts)
    return ev.GameStarted(settings, 0 if seat is None else seat, cut)


@entry()
def next_game(
    state: State,
    dealer: int | str | None = None,
    cuts: Cards | None = None,
    ranks: Sequence[int] | None = None,
) -> ev.NextGame:
    """The next game of the match: the first deal passes on from game to game, to the
    next seat (a dealer chosen or cut for is the first game's only).  The third game of
    a match of three is cut for, and only cut for (German seed;
    :attr:`State.cut_customary`): with the cards cut (``cuts``), or their ranks
    (``ranks``, ace 1 to king 13: the board's dials), one per player in seat order; the
    lowest deals, a tie cuts again.  A claim of game still waiting for its window
    stands: the next game closes it."""
    state = stand(state)
    if not state.over:
        raise RuleError(Phrase(N_("the game is not over yet")))
    if state.match.winner is not None:
        winner = state.settings.side_names[state.match.winner]
        raise RuleError(
            Phrase.of(N_("the match is over: {winner} won it; start a new game"), winner=winner)
        )
    if not state.cut_customary and state.settings.edition > 1:
        return ev.NextGame(_passed_on(state, dealer, cuts, ranks))
    if ranks is not None:
        if cuts is not None or dealer is not None:
            raise RuleError(Phrase(N_("choose the dealer or cut for it, not both")))
        low = _lowest(state.players, [whole_rank(rank) for rank in ranks])
        return ev.NextGame(low, ranks=tuple(ranks))
    if state.cut_customary and cuts is None:
        raise RuleError(Phrase(N_("the third game is cut for: each player cuts, the lowest deals")))
    seat, cut = _first_dealer(state.players, dealer, cuts)  # edition 1 chose, or cut, too
    return ev.NextGame(state.seat_after(state.first_dealer) if seat is None else seat, cut)


def _passed_on(
    state: State, dealer: int | str | None, cuts: Cards | None, ranks: Sequence[int] | None
) -> int:
    """The first dealer of the next game, the first deal passed on: the seat after this
    game's first dealer (with two players, the other one). A cut, or another dealer
    chosen, is refused, saying who deals."""
    passed = state.seat_after(state.first_dealer)
    name, game = state.players[passed], state.game + 1
    if cuts is not None or ranks is not None:
        message = N_("game {game} is not cut for: the first deal passes on to {name}")
        raise RuleError(Phrase.of(message, game=game, name=name))
    if dealer is not None and seat_of(state.players, dealer) != passed:
        chosen = state.players[seat_of(state.players, dealer)]
        message = N_(
            "the first deal passes on from game to game: {name} deals first in game "
            "{game}, not {chosen}"
        )
        raise RuleError(Phrase.of(message, name=name, game=game, chosen=chosen))
    return passed


def _first_dealer(
    names: Sequence[str], dealer: int | str | None, cuts: Cards | None
) -> tuple[int | None, tuple[Card, ...] | None]:
    """(the dealer chosen or cut for, or None; the cards cut, or None)."""
    if cuts is None:
        return (None if dealer is None else seat_of(names, dealer)), None
    if dealer is not None:
        raise RuleError(Phrase(N_("choose the dealer or cut for it, not both")))
    cut = tuple(read_cards(cuts))
    return _lowest(names, [card.rank for card in cut]), cut


def _lowest(names: Sequence[str], ranks: Sequence[int]) -> int:
    """The seat that cut the lowest of ``ranks`` (one per player); a tie cuts again."""
    if len(ranks) != len(names):
        raise RuleError(
            Phrase.of(
                N_("each of the {players} players cuts one card, not {cards}"),
                players=len(names),
                cards=len(ranks),
            )
        )
    low = min(ranks)
    lowest = [names[seat] for seat, rank in enumerate(ranks) if rank == low]
    if len(lowest) > 1:
        raise RuleError(
            Phrase.of(N_("{names} cut the same rank: cut again"), names=", ".join(lowest))
        )
    return ranks.index(low)


@entry(action="starter")
def turn_starter(
    state: State, card: Card | str | None = None, heels: bool = False
) -> ev.StarterTurned:
    """The dealer turns the starter: its ``card``, or no card and ``heels`` (whether it
    was a jack: his heels is pegged)."""
    in_phase(state, Phase.DISCARD)
    if card is None:
        return ev.StarterTurned(None, flag(heels, "heels"))
    (starter,) = read_cards([card])
    if heels:
        raise RuleError(
            Phrase(N_("his heels follows from the starter: give the card or heels, not both"))
        )
    return ev.StarterTurned(starter)


@entry()
def name_starter(state: State, card: Card | str) -> ev.StarterNamed:
    """Name the starter that was turned without its card, so the cards of the counts
    can be checked.  It must fit the deal: not a card seen in it, and a jack if his
    heels was pegged (a jack named after "not a jack" pegs nothing: heels is pegged at
    the turn or not at all). A starter may be named after a claim of game too, while
    the claim can be challenged (:func:`challenge`)."""
    if state.challengeable is None:
        not_over(state)
    if state.phase is Phase.DISCARD:
        raise RuleError(Phrase(N_("the starter is not turned yet")))
    if state.starter is not None:
        raise RuleError(
            Phrase.of(
                N_("the starter is {card}: it was entered at the turn"), card=str(state.starter)
            )
        )
    (starter,) = read_cards([card])
    owner = state.known_cards().get(starter)
    if owner is not None:
        raise RuleError(
            Phrase.of(N_("{card} is in {count}"), card=str(starter), count=state.count_name(owner))
        )
    if state.heels_pegged and starter.rank != JACK:
        raise RuleError(
            Phrase.of(
                N_("his heels was pegged at the turn: the starter is a jack, not {card}"),
                card=str(starter),
            )
        )
    return ev.StarterNamed(starter)


@entry(seat="seat")
def lay(state: State, card: Card | str, seat: int | str | None = None) -> ev.CardLaid:
    """A card laid in the play by the player whose turn it is."""
    seat = whose_turn(state, seat)
    (laid,) = read_cards([card])
    if laid in state.known_cards():
        owner = state.known_cards()[laid]
        raise RuleError(
            Phrase.of(N_("{card} is the starter"), card=str(laid))
            if owner is None
            else Phrase.of(N_("{card} was laid already"), card=str(laid))
        )
    count = state.play.count + laid.value
    if count > GO_LIMIT:
        raise RuleError(
            Phrase.of(
                N_("{card} would make the count {total}: it may not pass {most}"),
                card=str(laid),
                total=count,
                most=GO_LIMIT,
            )
        )
    return ev.CardLaid(seat, laid)


@entry(seat="seat")
def go(state: State, seat: int | str | None = None) -> ev.Go:
    """The player whose turn it is says go: they cannot lay without passing 31."""
    seat = whose_turn(state, seat)
    if not state.play.pile:
        raise RuleError(
            Phrase.of(
                N_("{name} leads: any card can be laid on a count of 0"), name=state.players[seat]
            )
        )
    return ev.Go(seat)


@entry(seat="seat")
def claim(
    state: State, seat: int | str, points: int, kind: str | None = None, cards: Cards | None = None
) -> ev.Claimed:
    """A count pegged by ``seat``: in the play, points scored there; in the show, the
    hand or crib due now (``kind`` defaults to what is due)."""
    not_over(state)
    seat = seat_of(state.players, seat)
    points = whole(points, "points")
    if kind is None:
        if state.stage is Phase.DISCARD:
            in_phase(state, Phase.SHOW)  # refuses: the starter comes first
        kind = CountKind.PLAY if state.stage is Phase.PLAY else (state.due or HAND).kind
    if kind not in ev.KINDS:
        message = N_("a count is for {kinds}, not {kind}")
        raise RuleError(Phrase.of(message, kinds=", ".join(ev.KINDS), kind=repr(kind)))
    if kind == "play":
        in_phase(state, Phase.PLAY)
        if state.play.mode == "cards":
            raise RuleError(
                Phrase(N_("this play is scored from the cards laid: lay cards, not points"))
            )
        if cards is not None:
            raise RuleError(Phrase(N_("cards of the play are laid one by one")))
        if not 1 <= points <= max_play_points():
            raise RuleError(
                Phrase.of(
                    N_("one card scores 1 to {most} in the play, not {points}"),
                    most=max_play_points(),
                    points=points,
                )
            )
        return ev.Claimed(seat, kind, points)
    count = due_now(state, Count(seat, CountKind(kind)))
    if points not in totals_of(state, count):
        raise RuleError(why_impossible(state, count, points))
    return ev.Claimed(seat, kind, points, hand_cards(state, count, cards))


@entry(action="")  # the panel's advance is the board's button (the door)
def advance(state: State) -> ev.PlayEnded | ev.ShowEnded:
    """End the play, or end the show once every count is in."""
    not_over(state)
    if state.stage is Phase.DISCARD:
        raise RuleError(Phrase(N_("turn the starter first")))
    if state.stage is Phase.PLAY:
        return ev.PlayEnded()
    if state.due is not None:
        raise RuleError(
            Phrase.of(N_("{count} has not been counted yet"), count=state.count_name(state.due))
        )
    return ev.ShowEnded()


@entry()
def undo(state: State) -> ev.Undone:
    """Take back the last entry still in force."""
    if not state.can_undo:
        raise RuleError(Phrase(N_("nothing to undo")))
    return ev.Undone()


@entry()
def redo(state: State) -> ev.Redone:
    """Put back the entry taken back last."""
    if not state.can_redo:
        raise RuleError(Phrase(N_("nothing to redo")))
    return ev.Redone()


def check(state: State, event: ev.Event) -> ev.Event:
    """Check an event built elsewhere (a script's) as if it were entered: made again
    by the command that makes its kind, from its own fields."""
    match event:
        case ev.PlayEnded() | ev.ShowEnded():
            if advance(state) != event:  # each ends only its own phase
                in_phase(state, Phase.PLAY if isinstance(event, ev.PlayEnded) else Phase.SHOW)
            return event
        case ev.NextGame(dealer, cuts, ranks):  # the dealer of a cut is the cut's
            return next_game(state, None if cuts or ranks else dealer, cuts, ranks)
        case ev.GameStarted():
            raise RuleError(Phrase(N_("a new game is not an entry of this one: start a new game")))
    made = _MADE_BY.get(type(event))
    if made is None:
        raise RuleError(
            Phrase.of(N_("malformed event: {event} is not an event"), event=repr(event))
        )
    return made(state, **{f.name: getattr(event, f.name) for f in fields(event)})


def _made_by() -> dict[type, Callable[..., ev.Event]]:
    """Each kind of event, and the command of the entry that makes it."""
    made = {}
    for declared in ENTRIES.values():
        returns = typing.get_type_hints(declared.make)["return"]
        for kind in typing.get_args(returns) or (returns,):
            made[kind] = declared.make
    return made


def recheck(state: State | None, event: ev.Event) -> ev.Event:
    """A stored event checked against the state before it (None before the first), by
    the same rules as a live entry: the first starts a game, and each must be exactly
    what the rules make of it.  Raises RuleError saying why not."""
    checked: ev.Event
    if state is None:
        if not isinstance(event, ev.GameStarted):
            message = N_("a game starts with {first}, not {event}")
            raise RuleError(Phrase.of(message, first="GameStarted", event=type(event).__name__))
        checked = start(event.settings, None if event.cuts else event.dealer, event.cuts)
    else:
        checked = check(state, event)
    if checked != event:
        given, made = ev.to_dict(event), ev.to_dict(checked)
        raise RuleError(
            "the rules give it "
            + "; ".join(f"{k} {made[k]}, not {given[k]}" for k in made if made[k] != given[k])
        )
    return event


_MADE_BY = _made_by()
CALLS = (muggins, dispute_muggins, challenge)  # the calls' entries (:mod:`.calls`), made here too
