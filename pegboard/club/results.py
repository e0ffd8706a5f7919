"""A game's result worked out from the table's log, never taken on trust: the log's
chain is checked entry by entry (and, for a board, the signature of its head the board
made when the game ended, with the key pinned at pairing: kept with the result, for a
league to check again),
every event is checked again by the rules as a live entry is, and the state they fold
to says who won, by how much from the target, whether it was a skunk, and which hands
of the night's special ones the cards showed (a count pegged without its cards shows no
hand: only the cards make a 28).

A log that is not what the table stored, or that does not replay, or whose entries do
not chain to every head the director witnessed as the game was played
(:func:`witnessed`), is refused with the table named (:class:`Refused`); nothing is
counted from it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import replace

from pegboard.club.format import FOUR_OF_A_KIND, Format
from pegboard.club.night import GameCounted, Night, Seat
from pegboard.errors import ClubError, PegboardError
from pegboard.game import CountKind, State
from pegboard.game.chain import GameLog, ended, verify
from pegboard.game.commands import recheck
from pegboard.game.events import from_dict
from pegboard.game.fold import apply
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.identity import verify as signed_by
from pegboard.rules.scoring import Show

REFUSED = N_("table {table}: the log of its game {game} is refused: {why}")
UNSIGNED = N_("its head is not the one the board signed when the game ended")
NOT_OVER = N_("the game is not over")
NOT_THEIRS = N_("its players are {found}, not {seated}")
UNWITNESSED = N_(
    "entry {version} is not what the director saw as it was played: the log was changed on "
    "the board since. Ask the two players for the result and enter it as a correction"
)


class Refused(ClubError):
    """A table's log that is not counted: ``table`` and ``game`` name it."""

    def __init__(self, table: int, game: int, why: Phrase) -> None:
        super().__init__(Phrase.of(REFUSED, table=table, game=game, why=why))
        self.table, self.game = table, game


def checked(table: int, log: GameLog, public: bytes | None) -> GameLog:
    """``log`` as the table stored it: its chain checked, and (when the table is a
    board, ``public`` its pinned key) its head the one the board signed at the game's
    end. Raises Refused."""
    try:
        verify(log)
    except PegboardError as error:
        raise Refused(table, log.game, phrase_of(error)) from None
    if public is not None and not signed_by(public, log.end, ended(log)):
        raise Refused(table, log.game, Phrase(UNSIGNED))
    return log


def witnessed(table: int, log: GameLog, heads: Mapping[int, bytes]) -> GameLog:
    """``log`` if each of its entries the director saw as it was played (``heads``: the
    chain value after that many entries) still has that value. Raises Refused."""
    for version, head in sorted(heads.items()):
        entries = log.entries
        if version > len(entries) or entries[version - 1].chain != head:
            raise Refused(table, log.game, Phrase.of(UNWITNESSED, version=version))
    return log


def replayed(table: int, log: GameLog) -> State:
    """The state ``log`` folds to, each event checked by the rules. Raises Refused."""
    state: State | None = None
    for entry in log.entries:
        try:
            event = from_dict({**json.loads(entry.data), "type": entry.type})
            state = apply(state, recheck(state, event))
        except (PegboardError, ValueError, TypeError) as error:
            why = Phrase.of(
                N_("entry {version}: {error}"), version=entry.version, error=phrase_of(error)
            )
            raise Refused(table, log.game, why) from None
    if state is None:
        raise Refused(table, log.game, Phrase(NOT_OVER))
    return state


def counted(night: Night, seat: Seat, log: GameLog, public: bytes | None = None) -> GameCounted:
    """The result of ``seat``'s game from its checked ``log`` (see :func:`checked`), with
    the board's signature of its end and the key it was checked with (``public``: the
    board's pinned key; None: a hosted table, which no board signs)."""
    state = replayed(seat.table, log)
    if not state.over:
        raise Refused(seat.table, log.game, Phrase(NOT_OVER))
    names = {night.players[p].name: p for p in seat.players}
    if set(state.players) != set(names):
        found, seated = ", ".join(state.players), ", ".join(names)
        raise Refused(seat.table, log.game, Phrase.of(NOT_THEIRS, found=found, seated=seated))
    result = state.results[-1]
    winner = names[state.players[result.winner]]
    loser = next(p for p in seat.players if p != winner)
    loser_score = min(s for side, s in enumerate(result.scores) if side != result.winner)
    made = GameCounted(
        round=seat.round,
        table=seat.table,
        game=log.game,
        winner=winner,
        loser=loser,
        margin=result.margin,
        skunk=result.skunk > 0,
        scores=(result.scores[result.winner], loser_score),
        hands=special_hands(state, names, night.format),
        head=log.head.hex(),
    )
    if public is None:
        return made
    signature, versions = log.end.hex(), len(log.entries)  # the rest of ended(log)
    return replace(made, key=public.hex(), signature=signature, versions=versions, asked=log.asked)


def special_hands(
    state: State, names: dict[str, int], rules: Format
) -> tuple[tuple[int, int, str], ...]:
    """(player, total, cards) of every hand or crib of the game whose cards show one of
    the night's special hands."""
    found = []
    for claim in state.claims:
        show = claim.show
        if claim.kind is CountKind.PLAY or show is None:
            continue
        if any(special(show, hand) for hand in rules.special_hands):
            cards = " ".join(str(card) for card in (*show.hand, show.starter))
            found.append((names[state.players[claim.seat]], show.total, cards))
    return tuple(found)


def special(show: Show, hand: str) -> bool:
    """Whether ``show`` is the special hand ``hand`` (a total, or four of a kind)."""
    if hand == FOUR_OF_A_KIND:
        return show.pairs >= 12  # a double pair royal: four of one rank
    return show.total == int(hand)
