"""A stored game as the list of games shows it: who plays, the scores, how it stands,
whether it is won. The store keeps each game's summary beside its events, written in the
same transaction as each entry (:meth:`pegboard.game.Store.append`), so the list of games
is one query however many there are, and no game is replayed to list it.

The summary is worked out from the state, never entered: a game without one (a file
from before summaries, or one of an older ``FORMAT``) gets it from a replay, once.

>>> from pegboard.game.fold import replay
>>> from pegboard.game.events import GameStarted
>>> state = replay([GameStarted(Settings(players=("Ann", "Bob")), dealer=0)])
>>> kept = summarise(state)
>>> kept.scores, str(kept.standing)
((0, 0), 'Deal 1, Ann deals. Turn the starter.')
>>> Summary.from_json(kept.as_json()) == kept
True
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from pegboard.errors import StoreError
from pegboard.game.settings import Settings
from pegboard.game.state import State
from pegboard.i18n import N_, Phrase

FORMAT = 1  # raise when a summary's fields or words change: older ones are worked out again

_WON = (
    N_("{winner} won."),
    N_("{winner} won, with a skunk."),
    N_("{winner} won, with a double skunk."),
    N_("{winner} won, with a triple skunk."),
)


def standing(state: State) -> Phrase:
    """One line for the panel: the deal, the dealer, what is due."""
    if state.winner is not None:
        return Phrase.of(_WON[state.skunk], winner=state.settings.side_names[state.winner])
    head = {"deal": state.deal, "dealer": state.players[state.dealer]}
    due = state.due
    if due is None:
        message = N_("Deal {deal}, {dealer} deals. The show is done: move on to the next deal.")
        return Phrase.of(message, **head)
    if due.kind == "starter":
        return Phrase.of(N_("Deal {deal}, {dealer} deals. Turn the starter."), **head)
    if due.kind == "play" and due.seat is None:
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}.")
        return Phrase.of(message, **head, count=state.play.count)
    assert due.seat is not None  # a hand, a crib or a turn in the play is somebody's
    if due.kind == "play":
        message = N_("Deal {deal}, {dealer} deals. The play: count {count}. {name} to play.")
        return Phrase.of(message, **head, count=state.play.count, name=state.players[due.seat])
    message = N_("Deal {deal}, {dealer} deals. Next count: {due}.")
    return Phrase.of(message, **head, due=state.count_name(due))


@dataclass(frozen=True, slots=True)
class Summary:
    """A game as listed: its sides (names, scores, colours), the game of the match and
    the deal it is at, the side that won it (None while it goes on), whether the match
    is decided, and its standing in words (:func:`standing`)."""

    sides: tuple[str, ...]
    scores: tuple[int, ...]
    colours: tuple[str, ...]
    game: int
    deal: int
    winner: int | None
    finished: bool
    standing: Phrase

    @property
    def over(self) -> bool:
        return self.winner is not None

    def as_json(self) -> str:
        return json.dumps(
            {
                "format": FORMAT,
                "sides": self.sides,
                "scores": self.scores,
                "colours": self.colours,
                "game": self.game,
                "deal": self.deal,
                "winner": self.winner,
                "finished": self.finished,
                "standing": _phrase_data(self.standing),
            },
            ensure_ascii=False,
            separators=(",", ":"),
        )

    @classmethod
    def from_json(cls, text: str | None) -> Summary | None:
        """The summary stored as ``text``; None when there is none, or it is of another
        format or unreadable (it is worked out again)."""
        try:
            data = json.loads(text) if text else None
            if not isinstance(data, dict) or data.get("format") != FORMAT:
                return None
            return cls(
                tuple(map(str, data["sides"])),
                tuple(map(int, data["scores"])),
                tuple(map(str, data["colours"])),
                int(data["game"]),
                int(data["deal"]),
                None if data["winner"] is None else int(data["winner"]),
                bool(data["finished"]),
                _phrase(data["standing"]),
            )
        except (ValueError, KeyError, TypeError):
            return None


def summarise(state: State) -> Summary:
    """The summary of a game as it stands."""
    settings: Settings = state.settings
    return Summary(
        sides=tuple(settings.side_names),
        scores=tuple(state.scores),
        colours=tuple(settings.colours),
        game=state.game,
        deal=state.deal,
        winner=state.winner,
        finished=state.over and state.match.winner is not None,
        standing=standing(state),
    )


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A stored game as listed: its id, when it started, how many events, when the last
    was stored, and (read when asked for: a list needs only those it shows) its summary
    (None: not worked out yet) and its settings."""

    id: int
    created: str
    versions: int
    updated: str | None
    kept: str | None = field(repr=False)  # the summary, as stored
    _start: Callable[[int], str] = field(repr=False, compare=False)  # reads the first event
    head: bytes = field(default=b"", repr=False)  # the chain value after its last event

    @property
    def summary(self) -> Summary | None:
        return Summary.from_json(self.kept)

    @property
    def settings(self) -> Settings:
        try:
            return Settings.from_dict(json.loads(self._start(self.id))["settings"])
        except (ValueError, KeyError, TypeError) as error:
            unread = N_("the settings of game {game} cannot be read: {error}")
            raise StoreError(Phrase.of(unread, game=self.id, error=str(error))) from None


def _phrase_data(phrase: Phrase) -> dict[str, Any]:
    params = {}
    for name, value in phrase.params:
        if isinstance(value, Phrase):
            value = _phrase_data(value)
        elif not isinstance(value, str | int) or isinstance(value, bool):
            value = str(value)  # a card, say: kept as it prints
        params[name] = value
    return {"message": phrase.message, "params": params}


def _phrase(data: dict[str, Any]) -> Phrase:
    params = {
        name: _phrase(value) if isinstance(value, dict) else value
        for name, value in data["params"].items()
    }
    return Phrase.of(str(data["message"]), **params)
