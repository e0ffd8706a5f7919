"""The fold: each event turns one state into the next.  Replay trusts the events
(they were checked by :mod:`pegboard.game.commands` before they were stored).

Every point is pegged by :func:`~pegboard.game.pegging.peg`, which ends the game the
moment a side reaches the target (:mod:`pegboard.game.pegging` has that rule).

One entry can peg several things, in the order they happen at the table:

- a card laid: first what the card makes (fifteen or thirty-one, a pair, a run: one
  call, made as the card is laid), then the point for the go or the last card, which
  comes only when nobody can go on; a card that reaches the target pegs no such point;
- an over-count corrected with the house penalty: the claimant's true count, then the
  excess for the other sides (or the caller who showed it);
- one line each: a count (as pegged, or taken back to its cards' total), his heels, three
  for last, a Muggins call (:mod:`pegboard.game.muggins` has its rules).

With Muggins on a count is pegged as claimed, over or not, and a claim of game holds its
win until its window closes: the next entry closes it (the win stands, and the entry
pegs nothing), unless it is a call on that claim or a starter named for one.

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
from typing import Any

from pegboard.game.events import (
    CardLaid,
    Challenged,
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
from pegboard.game.pegging import peg, put, stand
from pegboard.game.settings import Settings  # noqa: F401 (doctest)
from pegboard.game.state import State
from pegboard.game.values import Claim, Count, CountKind, Mugging, Pegged, Phase, Play
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import JACK, Card
from pegboard.rules.play import GO_LIMIT, go_points, score_play
from pegboard.rules.scoring import HEELS_POINTS, show_total
from pegboard.rules.speech import FALSE_MUGGINS, GO_POINT, HEELS, MUGGINS, THREE_FOR_LAST, LaidCall


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
        case Claimed() | PlayEnded() | ShowEnded() if state is not None and state.held is not None:
            # The next entry closes the window of a claim of game: the win stands, and
            # the entry pegs nothing (the game ended at that claim).
            after = replace(stand(state), before=state, event=event, redo=())
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
    state = stand(state)  # the next game closes the window of a claim of game
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
    return _claimed(state, event)


def _claimed(state: State, event: Claimed, caller: int | None = None) -> State:
    """The count ``event`` pegged: as claimed with Muggins on (an over-count is the
    opponents' to catch, and a claim of game waits for its window), else taken back to
    what its cards score when they are known; ``caller``: made again by a call whose
    cards showed it over, and corrected (:mod:`pegboard.game.muggins`)."""
    seat, kind = event.seat, CountKind(event.kind)
    cards = event.cards if event.cards is not None or kind != "hand" else state.hand_of(seat)
    actual = _actual(state, kind, cards)
    kept = state.settings.kept_over and caller is None
    excess = 0 if actual is None or kept else max(0, event.points - actual)
    count = state.count_name(Count(None if kind == "play" else seat, kind))
    said = count
    if excess:
        # Translators: a count claimed over what its cards score: "Bob's hand (claimed 24,
        # 2 taken back)"; {count} is whose count it is.
        message = N_("{count} (claimed {claimed}, {excess} taken back)")
        said = Phrase.of(message, count=count, claimed=event.points, excess=excess)
    side = state.side_of(seat)
    before = state.scores[side]
    hold = kept and kind != "play"
    # A count is a line even when it pegs nothing: a nineteen, or an over-count taken back.
    state = peg(
        state, seat, event.points - excess, Pegged(kind), said, cards or (), counted=True, hold=hold
    )
    pegged = state.scores[side] - before
    claim = Claim(seat, side, kind, event.points, pegged, state.deal, cards, None, actual)
    if actual is not None:
        claim = replace(claim, starter=state.starter)
    if excess and state.settings.over_count == "penalise":
        over = Phrase.of(N_("over-count of {count}"), count=count)
        for other in penalised(state, side, caller if state.settings.kept_over else None):
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
    named = claim.cards is None and event.cards is not None
    if named:
        actual = _actual(state, claim.kind, event.cards)
        claim = replace(claim, cards=event.cards, starter=state.starter, actual=actual)
    over = claim.actual is not None and claim.actual < claim.claimed
    if over and (named or state.settings.kept_over):  # (edition 1 took it back at once)
        assert claim.cards is not None  # as ``actual`` says
        return _over_called(state, event.seat, event.points, claim.cards)
    state = stand(state)  # a claim of game the call does not show over: the win stands
    mugging, seat = settle(state, claim, event.seat, event.points)
    if state.over:  # called on the claim that won: nothing is pegged after the game
        mugging = replace(mugging, points=0)
    owner = state.count_name(Count(claim.seat, claim.kind))
    said = Phrase.of(MUGGINS if mugging.right else FALSE_MUGGINS, owner=owner)
    state = peg(
        state, seat, mugging.points, Pegged.MUGGINS, said, claim.cards or (), side=mugging.side
    )
    claims = put(state.claims, index, replace(claim, muggins=mugging))
    # A call on a hand or crib whose cards nobody gave stands as made, until the mugged
    # side disputes it by showing them or the next count is pegged.
    unverified = claim.actual is None and claim.kind != "play"
    return replace(state, claims=claims, window=None, disputable=index if unverified else None)


@evolve.register
def _(event: Challenged, state: State) -> State:
    """The count is said to be over: its cards decide. Over, it is corrected by the
    over-count rule; not over, it stands (a claim of game wins), and is told."""
    index = state.challengeable
    assert index is not None  # checked: a count is open to a challenge
    claim = state.claims[index]
    cards = event.cards or claim.cards
    actual = _actual(state, claim.kind, cards)
    assert cards is not None and actual is not None  # checked: the cards and the starter
    if actual < claim.claimed:
        return _over_called(state, event.seat, 0, cards)
    stood = Mugging(event.seat, 0, claim.side, 0, right=False)
    claim = replace(claim, cards=cards, starter=state.starter, actual=actual, muggins=stood)
    state = replace(state, claims=put(state.claims, index, claim), window=None)
    return stand(state)


def _over_called(state: State, caller: int, called: int, cards: tuple[Card, ...]) -> State:
    """The cards of a call show the count was over: the count is made again with them,
    corrected (taken back; under the ``penalise`` rule the excess to the caller), and the
    caller pegs nothing and pays nothing (see :mod:`pegboard.game.muggins`)."""
    state = _again(state, lambda made, before: _claimed(before, replace(made, cards=cards), caller))
    index = len(state.claims) - 1
    claim = state.claims[index]
    mugging = Mugging(caller, called, claim.side, 0, right=True)
    claim = replace(claim, muggins=mugging)
    return replace(state, claims=put(state.claims, index, claim), window=None, disputable=None)


def _again(state: State, remake: Callable[[Any, State], State]) -> State:
    """The entry in force made again by ``remake`` (given it and the state before it);
    a starter named since it stays named."""
    starter = state.starter
    while isinstance(state.event, StarterNamed):
        assert state.before is not None
        state = state.before
    assert state.before is not None and state.event is not None
    return remake(state.event, replace(state.before, starter=starter))


@evolve.register
def _(event: MugginsDisputed, state: State) -> State:
    """The call made without the cards is made again with them, on the state before it:
    the cards settle it (:mod:`pegboard.game.muggins`). A starter named since counts."""
    index = state.disputable
    assert index is not None  # checked: a call can be disputed
    state = _again(state, lambda called, before: evolve(replace(called, cards=event.cards), before))
    claim = state.claims[index]
    assert claim.muggins is not None
    claim = replace(claim, muggins=replace(claim.muggins, disputed=True))
    return replace(state, claims=put(state.claims, index, claim))


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
