"""Pegging, and the end of a game: every point pegged goes through :func:`peg`.

The game ends the moment a side reaches the target, even in the middle of a count
(Dutch seed: "Het scoren stopt op het moment dat iemand 121 bereikt, zelfs midden in een
telling"): nothing after that moment is pegged, and the winner's peg stands in the game
hole. However its last points came (his heels, a card laid or a score pegged by hand in
the play, a dial, a count exact or short, a Muggins call), the side that reached the
target shows the target, and the points past it stay in the history ("Bob's hand: the
game ended at 2 of 5"); the margin and the skunk are counted from the target (121-91 is
won by 30, no skunk). :func:`peg` decides it, for everyone who reads a score.

With Muggins on, a claim of game is an over-count like any other until its window
closes (RULES: "a false claim of game is an over-count too"): its win is *held*
(:attr:`State.held <pegboard.game.state.State.held>`), told as nothing more than the
count, and :func:`stand` makes it the win once the window closes without a call that
shows it over.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TypeVar

from pegboard.game.skunk import skunk_level
from pegboard.game.state import State
from pegboard.game.values import Entry, GameResult, Pegged
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card

T = TypeVar("T")
# Translators: the entry that reached the target, and how much of it was pegged: "Bob's
# hand: the game ended at 2 of 5"; {what} is the entry ("two for his heels", "Bob's hand").
GAME_ENDED = N_("{what}: the game ended at {pegged} of {points}")


def peg(
    state: State,
    seat: int | None,
    points: int,
    kind: Pegged,
    said: Phrase,
    cards: tuple[Card, ...] = (),
    side: int | None = None,
    counted: bool = False,
    hold: bool = False,
) -> State:
    """``seat`` (or ``side``) pegs ``points``; the game ends the moment a side reaches the
    target: its peg stands at the target, the points past it are said in the history
    line, and nothing is pegged after that.  Pegging closes the Muggins window and the
    time to dispute a call.  Nothing pegged writes no line, unless it was ``counted`` (a
    count of 0 is a line; the pegs stay where they are).  A count that may be called
    (``hold``) and reaches the target holds its win until its window closes
    (:func:`stand`): until then nothing says the game ended."""
    if state.over or state.held is not None or points < 0 or not (points or counted):
        return state
    if side is None:
        assert seat is not None  # a seat pegs, or a side does
        side = state.side_of(seat)
    room = state.target - state.scores[side]
    if points > room:
        if not hold:
            said = Phrase.of(GAME_ENDED, what=said, pegged=room, points=points)
        points = room
    score = state.scores[side] + points
    entry = Entry(side, seat, points, kind, said, tuple(cards), state.deal, score)
    state = replace(state, history=(*state.history, entry), window=None, disputable=None)
    if not points:
        return state
    state = replace(
        state,
        scores=put(state.scores, side, score),
        backs=put(state.backs, side, state.scores[side]),
    )
    if score < state.target:
        return state
    return replace(state, held=side) if hold else _finish(state, side)


def stand(state: State) -> State:
    """A claim of game whose window closes without a call that shows it over: the win
    stands, as at a real table (nothing else is pegged after it), and its line says now
    what it left past the target ("Bob's hand: the game ended at 11 of 12")."""
    side = state.held
    if side is None:
        return state
    line, claimed = state.history[-1], state.claims[-1].claimed  # nothing pegs after it
    if claimed > line.points:
        said = Phrase.of(GAME_ENDED, what=line.said, pegged=line.points, points=claimed)
        state = replace(state, history=(*state.history[:-1], replace(line, said=said)))
    return _finish(replace(state, held=None, window=None, disputable=None), side)


def put(values: tuple[T, ...], index: int, value: T) -> tuple[T, ...]:
    """``values`` with the one at ``index`` replaced by ``value``."""
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
