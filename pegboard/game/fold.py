"""The fold: each event turns one state into the next.  Replay trusts the events
(they were checked by :mod:`pegboard.game.commands` before they were stored).

The game ends the moment a side reaches the target, even in the middle of a count
(Dutch seed: "Het scoren stopt op het moment dat iemand 121 bereikt, zelfs midden in een
telling"): nothing after that moment is pegged.  One entry can peg several things; they
come in the order they happen at the table, and the history says what was pegged:

- a card laid: first what the card makes (fifteen or thirty-one, a pair, a run: one
  call, made as the card is laid), then the point for the go or the last card, which
  comes only when nobody can go on; a card that reaches the target pegs no such point;
- a show count whose cards are known and that pegs its true count (exact, or an
  over-count taken back): its fifteens, pairs, runs, flush and nobs one by one, in the
  order of :func:`~pegboard.rules.scoring.score_show` ("Bob's hand: the game ended at 6
  of 22");
- an over-count with the house penalty: the claimant's true count, then the excess for
  the other sides;
- one part each: a count given only as a number (play points or a hand pegged by hand,
  an under-count as its owner counted it: the board cannot tell where inside it the
  target was passed), his heels, three for last, a Muggins call.

So a winner ends on the target, or past it by less than the last part pegged.

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

from collections.abc import Iterable
from dataclasses import replace
from functools import reduce, singledispatch
from typing import TypeVar

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
from pegboard.game.settings import Settings  # noqa: F401 (doctest)
from pegboard.game.skunk import skunk_level
from pegboard.game.state import Claim, Count, Entry, GameResult, Mugging, Phase, Play, State
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card
from pegboard.rules.play import GO_LIMIT, go_points, score_play
from pegboard.rules.scoring import HEELS_POINTS, score_show, show_total
from pegboard.rules.speech import FALSE_MUGGINS, GO_POINT, HEELS, MUGGINS, THREE_FOR_LAST, LaidCall

T = TypeVar("T")


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
            after = replace(state.before, redo=(state.entry, *state.redo))
        case Redone():
            after = replace(apply(state, state.redo[0]), redo=state.redo[1:])
        case _:
            after = replace(evolve(event, state), before=state, entry=event, redo=())
    return replace(after, version=version + 1)


@singledispatch
def evolve(event: Event, state: State) -> State:
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
        state = peg(state, state.pone, 3, "last", Phrase(THREE_FOR_LAST))
    return state


@evolve.register
def _(event: StarterTurned, state: State) -> State:
    state = replace(state, starter=event.card, stage=Phase.PLAY, play=Play(turn=state.pone))
    if event.heels or (event.card is not None and event.card.rank == JACK):
        cards = () if event.card is None else (event.card,)
        state = peg(state, state.dealer, HEELS_POINTS, "heels", Phrase(HEELS), cards)
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
        parts = (scored.points, go_points(scored.count))
        last = _counted(state, state.side_of(seat), parts) - scored.points
        state = peg(state, seat, scored.points + last, "play", _laid(play.pile, last), play.pile)
        return replace(state, stage=Phase.SHOW, shown=0)
    state = peg(state, seat, scored.points, "play", _laid(play.pile), play.pile)
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
    state = peg(state, last, go_points(state.play.count), "play", Phrase(GO_POINT))
    return _new_count(state)


def _new_count(state: State) -> State:
    """After 31 or a go the player left of the last one to lay leads (holding cards);
    with the house rule ``first_go_ends`` the play ends there instead."""
    if state.settings.first_go_ends:
        return replace(state, stage=Phase.SHOW, shown=0)
    play = replace(state.play, pile=(), passed=frozenset())
    state = replace(state, play=play)
    return replace(state, play=replace(play, turn=_next_turn(state, play.last)))


@evolve.register
def _(event: PlayEnded, state: State) -> State:
    return replace(state, stage=Phase.SHOW, shown=0)


# --- counts, Muggins and the show ---------------------------------------------------------


@evolve.register
def _(event: Claimed, state: State) -> State:
    seat, kind = event.seat, event.kind
    cards = event.cards if event.cards is not None or kind != "hand" else state.hand_of(seat)
    actual = _actual(state, kind, cards)
    excess = 0 if actual is None else max(0, event.points - actual)
    pegged = event.points - excess
    count = state.count_name(Count(None if kind == "play" else seat, kind))
    said = count
    if excess:
        # Translators: a count claimed over what its cards score: "Bob's hand (claimed 24,
        # 2 taken back)"; {count} is whose count it is.
        message = N_("{count} (claimed {claimed}, {excess} taken back)")
        said = Phrase.of(message, count=count, claimed=event.points, excess=excess)
    if actual is not None and pegged == actual:  # the true count: the board knows its parts
        parts = (item.points for item in score_show(cards, state.starter, kind == "crib").items)
        counted = _counted(state, state.side_of(seat), parts)
        if counted < pegged:
            # Translators: a count that ended the game before all of it was pegged: "Bob's
            # hand: the game ended at 6 of 22".
            message = N_("{count}: the game ended at {pegged} of {points}")
            said = Phrase.of(message, count=count, pegged=counted, points=pegged)
            pegged = counted
    claim = Claim(
        seat,
        state.side_of(seat),
        kind,
        event.points,
        pegged,
        state.deal,
        cards,
        state.starter if actual is not None else None,
        actual,
    )
    # A count is a line even when it pegs nothing: a nineteen, or an over-count taken back.
    state = peg(state, seat, pegged, kind, said, cards or (), counted=True)
    if excess and state.settings.over_count == "penalise":
        over = Phrase.of(N_("over-count of {count}"), count=count)
        for side in (s for s in range(state.sides) if s != claim.side):
            state = peg(state, None, excess, "penalty", over, cards or (), side=side)
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
    claim = state.claims[index]
    if claim.cards is None and event.cards is not None:
        claim = replace(
            claim,
            cards=event.cards,
            starter=state.starter,
            actual=_actual(state, claim.kind, event.cards),
        )
    missed = event.points if claim.actual is None else claim.actual - claim.claimed
    owner = state.count_name(Count(claim.seat, claim.kind))
    if missed > 0:
        won = min(event.points, missed)
        side, seat, message = state.side_of(event.seat), event.seat, MUGGINS
    else:
        won = event.points
        side, seat, message = claim.side, claim.seat, FALSE_MUGGINS
    said = Phrase.of(message, owner=owner)
    state = peg(state, seat, won, "muggins", said, claim.cards or (), side=side)
    claim = replace(claim, muggins=Mugging(event.seat, event.points, side, won))
    claims = _put(state.claims, index, claim)
    # A call on a hand or crib whose cards nobody gave stands as made, until the mugged
    # side disputes it by showing them or the next count is pegged.
    unverified = claim.actual is None and claim.kind != "play"
    return replace(state, claims=claims, window=None, disputable=index if unverified else None)


@evolve.register
def _(event: MugginsDisputed, state: State) -> State:
    """The call made without the cards is made again with them, on the state before it:
    the caller pegs the lesser of the call and the points missed, or, if nothing was
    missed, the mugged side pegs the call.  A starter named since the call counts."""
    index, starter = state.disputable, state.starter
    while isinstance(state.entry, StarterNamed):
        state = state.before
    before = replace(state.before, starter=starter)
    state = evolve(replace(state.entry, cards=event.cards), before)
    claim = state.claims[index]
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


def _counted(state: State, side: int, parts: Iterable[int]) -> int:
    """The points of ``parts`` pegged one after another by ``side``, up to the part that
    brings it to the target: the game ends there, and the rest is not scored."""
    total = 0
    for points in parts:
        total += points
        if state.scores[side] + total >= state.target:
            break
    return total


def peg(
    state: State,
    seat: int | None,
    points: int,
    kind: str,
    said: Phrase,
    cards: tuple[Card, ...] = (),
    side: int | None = None,
    counted: bool = False,
) -> State:
    """``seat`` (or ``side``) pegs ``points``; the game ends the moment a side reaches the
    target, and nothing is pegged after that.  Pegging closes the Muggins window and
    the time to dispute a call.  Nothing pegged writes no line, unless it was
    ``counted`` (a count of 0 is a line; the pegs stay where they are)."""
    if state.over or points < 0 or not (points or counted):
        return state
    side = state.side_of(seat) if side is None else side
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
    home = state.settings.match_scoring == "home"
    points = 2**skunk if home else (3 if skunk else 2)
    result = GameResult(state.game, scores, winner, skunk, points, state.history)
    return replace(state, winner=winner, results=(*state.results, result))
