"""The fold: each event turns one state into the next.  Replay trusts the events
(they were checked by :mod:`pegboard.game.commands` before they were stored).

The game ends the moment a side reaches the target, even in the middle of a count
(Dutch seed: "Het scoren stopt op het moment dat iemand 121 bereikt, zelfs midden in een
telling"): nothing after that moment is pegged, and the winner's peg stands in the game
hole. However its last points came (his heels, a card laid or a score pegged by hand in
the play, a dial, a count exact or short, a Muggins call), the side that reached the
target shows the target, and the points past it stay in the history ("Bob's hand: the
game ended at 2 of 5"); the margin and the skunk are counted from the target (121-91 is
won by 30, no skunk). :func:`peg` decides it, for everyone who reads a score.

One entry can peg several things, in the order they happen at the table:

- a card laid: first what the card makes (fifteen or thirty-one, a pair, a run: one
  call, made as the card is laid), then the point for the go or the last card, which
  comes only when nobody can go on; a card that reaches the target pegs no such point;
- an over-count with the house penalty: the claimant's true count, then the excess for
  the other sides;
- one line each: a count (as pegged, or taken back to its cards' total), his heels, three
  for last, a Muggins call (:mod:`pegboard.game.muggins` has its rules).

>>> from pegboard.game.events import GameStarted, StarterTurned, Undone, Redone
>>> from pegboard.rules.cards import Card
>>> state = replay([GameStarted(Settings(players=("Ann", "Bob")), dealer=0),
...                 StarterTurned(Card.parse("JH"))])
>>> state.scores, state.history[-1].why, state.phase.value
((2, 0), 'two for his heels', 'play')
>>> undone = apply(state, Undone())
>>> undone.scores, apply(undone, Redone()) == state
((0, 0), True)
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import replace
from functools import reduce, singledispatch
from typing import Any, TypeVar

from pegboard.game.events import (
    CardLaid,
    Claimed,
    Event,
    GameStarted,
    Go,
    MugginsCalled,
    MugginsDisputed,
    NextGame,
    PlayEnded,
    Redone,
    ShowEnded,
    StarterNamed,
    StarterTurned,
    Undone,
)
from pegboard.game.muggins import penalised, settle
from pegboard.game.settings import Settings  # noqa: F401 (doctest)
from pegboard.game.skunk import skunk_level
from pegboard.game.state import State
from pegboard.game.values import Claim, Count, CountKind, Entry, GameResult, Pegged, Phase, Play
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card
from pegboard.rules.play import GO_LIMIT, go_points, score_play
from pegboard.rules.scoring import HEELS_POINTS, show_total
from pegboard.rules.speech import FALSE_MUGGINS, GO_POINT, HEELS, MUGGINS, THREE_FOR_LAST, LaidCall

T = TypeVar("T")
# Translators: the entry that reached the target, and how much of it was pegged: "Bob's
# hand: the game ended at 2 of 5"; {what} is the entry ("two for his heels", "Bob's hand").
GAME_ENDED = N_("{what}: the game ended at {pegged} of {points}")


def replay(events: Iterable[Event]) -> State:
    """The state after ``events``, the first of which starts the game."""
    state = reduce(apply, events, None)
    if state is None:
        raise ValueError("an empty log has no state")
    return state


def apply(state: State | None, event: Event) -> State:
    """The state after one more event.  Undo returns to the state before the last entry
    still in force; redo puts the most recently undone entry back."""
    version = 0 if state is None else state.version
    match event:
        case Undone():
            assert state is not None and state.before is not None  # checked: can undo
            assert state.event is not None
            after = replace(state.before, redo=(state.event, *state.redo))
        case Redone():
            assert state is not None
            after = replace(apply(state, state.redo[0]), redo=state.redo[1:])
        case _:
            after = replace(evolve(event, state), before=state, event=event, redo=())
    return replace(after, version=version + 1)


@singledispatch
def evolve(event: Event, state: Any) -> State:  # a State, or None for GameStarted
    raise TypeError(f"not an event: {event!r}")


@evolve.register
def _(event: GameStarted, state: None) -> State:
    return _begin(State(event.settings), event.dealer)


@evolve.register
def _(event: NextGame, state: State) -> State:
    return _begin(State(state.settings, game=state.game + 1, results=state.results), event.dealer)


def _begin(state: State, dealer: int) -> State:
    zeros = (0,) * state.sides
    state = replace(state, first_dealer=dealer, dealer=dealer, scores=zeros, backs=zeros)
    if state.settings.variant_rules.three_for_last:
        state = peg(state, state.pone, 3, Pegged.LAST, Phrase(THREE_FOR_LAST))
    return state


@evolve.register
def _(event: StarterTurned, state: State) -> State:
    state = replace(state, starter=event.card, stage=Phase.PLAY, play=Play(turn=state.pone))
    if event.heels or (event.card is not None and event.card.rank == JACK):
        cards = () if event.card is None else (event.card,)
        state = peg(state, state.dealer, HEELS_POINTS, Pegged.HEELS, Phrase(HEELS), cards)
    return state


# --- the play ------------------------------------------------------------------------------


@evolve.register
def _(event: StarterNamed, state: State) -> State:
    return replace(state, starter=event.card)


@evolve.register
def _(event: CardLaid, state: State) -> State:
    play, seat = state.play, event.seat
    scored = score_play(play.pile, event.card)
    play = replace(
        play,
        mode="cards",
        laid=(*play.laid, (seat, event.card)),
        pile=(*play.pile, event.card),
        last=seat,
    )
    state = replace(state, play=play)
    if len(play.laid) == state.hand_size * len(state.players):  # the very last card
        won = state.scores[state.side_of(seat)] + scored.points >= state.target
        last = 0 if won else go_points(scored.count)
        state = peg(
            state, seat, scored.points + last, Pegged.PLAY, _laid(play.pile, last), play.pile
        )
        return replace(state, stage=Phase.SHOW, shown=0)
    state = peg(state, seat, scored.points, Pegged.PLAY, _laid(play.pile), play.pile)
    if scored.count == GO_LIMIT:
        return _new_count(state)
    turn = _next_turn(state, seat)
    if turn is None:  # nobody else can go on and the layer is out of cards
        return _go_for(state)
    return replace(state, play=replace(play, turn=turn))


def _laid(pile: tuple[Card, ...], last: int = 0) -> Phrase:
    """ "5♣: fifteen for two": the card laid and its call."""
    return Phrase.of(N_("{card}: {call}"), card=str(pile[-1]), call=LaidCall(pile, last))


@evolve.register
def _(event: Go, state: State) -> State:
    play = replace(state.play, passed=state.play.passed | {event.seat})
    state = replace(state, play=play)
    turn = _next_turn(state, event.seat)
    return _go_for(state) if turn is None else replace(state, play=replace(play, turn=turn))


def _next_turn(state: State, seat: int) -> int | None:
    """The next seat clockwise from ``seat`` (itself last) that holds cards and has not
    said go in this count."""
    for step in range(1, len(state.players) + 1):
        other = state.seat_after(seat, step)
        if other not in state.play.passed and state.hand_of(other) is None:
            return other
    return None


def _go_for(state: State) -> State:
    """Nobody can lay: the last card laid pegs one for the go, and the count ends."""
    last = state.play.last
    state = peg(state, last, go_points(state.play.count), Pegged.PLAY, Phrase(GO_POINT))
    return _new_count(state)


def _new_count(state: State) -> State:
    """After 31 or a go the player left of the last one to lay leads (holding cards);
    with the house rule ``first_go_ends`` the play ends there instead."""
    if state.settings.first_go_ends:
        return replace(state, stage=Phase.SHOW, shown=0)
    play = replace(state.play, pile=(), passed=frozenset())
    state = replace(state, play=play)
    assert play.last is not None  # a count ends after a card is laid
    return replace(state, play=replace(play, turn=_next_turn(state, play.last)))


@evolve.register
def _(event: PlayEnded, state: State) -> State:
    return replace(state, stage=Phase.SHOW, shown=0)


# --- counts, Muggins and the show ---------------------------------------------------------


@evolve.register
def _(event: Claimed, state: State) -> State:
    seat, kind = event.seat, CountKind(event.kind)
    cards = event.cards if event.cards is not None or kind != "hand" else state.hand_of(seat)
    actual = _actual(state, kind, cards)
    excess = 0 if actual is None else max(0, event.points - actual)
    count = state.count_name(Count(None if kind == "play" else seat, kind))
    said = count
    if excess:
        # Translators: a count claimed over what its cards score: "Bob's hand (claimed 24,
        # 2 taken back)"; {count} is whose count it is.
        message = N_("{count} (claimed {claimed}, {excess} taken back)")
        said = Phrase.of(message, count=count, claimed=event.points, excess=excess)
    side = state.side_of(seat)
    before = state.scores[side]
    # A count is a line even when it pegs nothing: a nineteen, or an over-count taken back.
    state = peg(state, seat, event.points - excess, Pegged(kind), said, cards or (), counted=True)
    pegged = state.scores[side] - before
    claim = Claim(seat, side, kind, event.points, pegged, state.deal, cards, None, actual)
    if actual is not None:
        claim = replace(claim, starter=state.starter)
    if excess and state.settings.over_count == "penalise":
        over = Phrase.of(N_("over-count of {count}"), count=count)
        for other in penalised(state, side):
            state = peg(state, None, excess, Pegged.PENALTY, over, cards or (), side=other)
    if kind == "play":
        state = replace(state, play=replace(state.play, mode="points", turn=None))
    else:
        state = replace(state, shown=state.shown + 1)
    return replace(state, claims=(*state.claims, claim), window=len(state.claims))


def _actual(state: State, kind: str, cards: tuple[Card, ...] | None) -> int | None:
    if cards is None or state.starter is None:
        return None
    return show_total(cards, state.starter, crib=kind == "crib")


@evolve.register
def _(event: MugginsCalled, state: State) -> State:
    index = state.window
    assert index is not None  # checked: a window is open
    claim = state.claims[index]
    if claim.cards is None and event.cards is not None:
        actual = _actual(state, claim.kind, event.cards)
        if actual is not None and actual < claim.claimed:
            return _over_called(state, event, index)
        claim = replace(claim, cards=event.cards, starter=state.starter, actual=actual)
    mugging, seat = settle(state, claim, event.seat, event.points)
    owner = state.count_name(Count(claim.seat, claim.kind))
    said = Phrase.of(MUGGINS if mugging.right else FALSE_MUGGINS, owner=owner)
    state = peg(
        state, seat, mugging.points, Pegged.MUGGINS, said, claim.cards or (), side=mugging.side
    )
    claims = _put(state.claims, index, replace(claim, muggins=mugging))
    # A call on a hand or crib whose cards nobody gave stands as made, until the mugged
    # side disputes it by showing them or the next count is pegged.
    unverified = claim.actual is None and claim.kind != "play"
    return replace(state, claims=claims, window=None, disputable=index if unverified else None)


def _over_called(state: State, event: MugginsCalled, index: int) -> State:
    """The cards of a call show the count was over: the count is made again with them
    (taken back, penalised by the house rule), and the caller pegs nothing and pays
    nothing (see :mod:`pegboard.game.muggins`)."""
    state = _again(state, lambda claimed: replace(claimed, cards=event.cards))
    claim = state.claims[index]
    mugging = settle(state, claim, event.seat, event.points)[0]
    claim = replace(claim, muggins=replace(mugging, side=claim.side, points=0, right=True))
    return replace(state, claims=_put(state.claims, index, claim), window=None, disputable=None)


def _again(state: State, changed: Callable[[Any], Event]) -> State:
    """The entry in force made again, ``changed``, on the state before it; a starter
    named since it stays named."""
    starter = state.starter
    while isinstance(state.event, StarterNamed):
        assert state.before is not None
        state = state.before
    assert state.before is not None and state.event is not None
    return evolve(changed(state.event), replace(state.before, starter=starter))


@evolve.register
def _(event: MugginsDisputed, state: State) -> State:
    """The call made without the cards is made again with them, on the state before it:
    the cards settle it (:mod:`pegboard.game.muggins`). A starter named since counts."""
    index = state.disputable
    assert index is not None  # checked: a call can be disputed
    state = _again(state, lambda called: replace(called, cards=event.cards))
    claim = state.claims[index]
    assert claim.muggins is not None
    claim = replace(claim, muggins=replace(claim.muggins, disputed=True))
    return replace(state, claims=_put(state.claims, index, claim))


@evolve.register
def _(event: ShowEnded, state: State) -> State:
    return replace(
        state,
        deal=state.deal + 1,
        dealer=state.pone,
        stage=Phase.DISCARD,
        starter=None,
        play=Play(),
        shown=0,
        window=None,
        disputable=None,
    )


# --- pegging and the end of a game ------------------------------------------------------


def peg(
    state: State,
    seat: int | None,
    points: int,
    kind: Pegged,
    said: Phrase,
    cards: tuple[Card, ...] = (),
    side: int | None = None,
    counted: bool = False,
) -> State:
    """``seat`` (or ``side``) pegs ``points``; the game ends the moment a side reaches the
    target: its peg stands at the target, the points past it are said in the history
    line, and nothing is pegged after that.  Pegging closes the Muggins window and the
    time to dispute a call.  Nothing pegged writes no line, unless it was ``counted`` (a
    count of 0 is a line; the pegs stay where they are)."""
    if state.over or points < 0 or not (points or counted):
        return state
    if side is None:
        assert seat is not None  # a seat pegs, or a side does
        side = state.side_of(seat)
    room = state.target - state.scores[side]
    if points > room:
        said = Phrase.of(GAME_ENDED, what=said, pegged=room, points=points)
        points = room
    score = state.scores[side] + points
    entry = Entry(side, seat, points, kind, said, tuple(cards), state.deal, score)
    state = replace(state, history=(*state.history, entry), window=None, disputable=None)
    if not points:
        return state
    state = replace(
        state,
        scores=_put(state.scores, side, score),
        backs=_put(state.backs, side, state.scores[side]),
    )
    return _finish(state, side) if score >= state.target else state


def _put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    return (*values[:index], value, *values[index + 1 :])


def _finish(state: State, side: int) -> State:
    """``side`` reached the target: it wins, or in lowball it loses to the lowest score."""
    scores = state.scores
    if state.settings.variant_rules.lowball:
        winner = min((s for s in range(state.sides) if s != side), key=lambda s: scores[s])
        skunk = 0
    else:
        winner = side
        skunk = min(skunk_level(state.settings, s) for i, s in enumerate(scores) if i != side)
    margin = min(abs(scores[winner] - score) for s, score in enumerate(scores) if s != winner)
    home = state.settings.match_scoring == "home"
    points = 2**skunk if home else (3 if skunk else 2)
    result = GameResult(state.game, scores, winner, margin, skunk, points, state.history)
    return replace(state, winner=winner, results=(*state.results, result))
