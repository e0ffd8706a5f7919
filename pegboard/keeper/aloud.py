"""What the board says aloud of each change the front door announces: pure functions
from a :class:`~pegboard.keeper.Change` to :class:`Announcement`\\ s, worked out from
the state before and after it, each a whole sentence of the catalogue said later in
the hearer's language, its numbers in words (:func:`pegboard.rules.speech.number_words`).
The board's voice speaks them (:mod:`pegboard.voice`); each phone shows and may speak
them in its own language (:mod:`pegboard.panel`).

- a count when it is pegged, as claimed, then the verdict: "Ann's hand: twelve… exact."
  (never a true count before its claim: nothing is said of a count until it is pegged;
  with Muggins on, the verdict waits for a call or the window's end, an over-count's as
  an under-count's, and only then is it said what the cards held: "Ann's hand held
  fourteen: two missed.", "Bob's hand held twenty: nine over, and it stands.");
- the play's scores as they are pegged, naming who scored ("Ann: fifteen for two"), a
  go, the point for the go and for the last card; his heels and three for last, naming
  whose ("Ann: two for his heels");
- "Muggins! Bob takes two."; a side past a skunk line; the win, its margin and skunk
  (a claim of game's once its window closes);
- a refusal of an entry made on the board's own controls, and what the door says of a
  new game and of an undo.

A phone hears more (``phone=True``, what :func:`last_entry` gives): its screen reader
follows the table by ear, so every entry is said once, a lay with its card, the count
and whose turn it is ("Bob lays seven of diamonds: seventeen." "Ann to lay."), the
starter by its name, each show's cards, who counts next. The cards by name are the
``cards`` kind, which the board's own voice says only when its config asks
(``[voice] events`` naming "cards", ``cards=True`` here: for a player who cannot see
the cards; the players at a table say their own); whose turn is the ``laid`` kind, a
phone's only.

>>> import tempfile, pathlib
>>> from pegboard.board.layout import load_layout
>>> from pegboard.game import Table
>>> from pegboard.keeper import Scorekeeper
>>> table = Table(pathlib.Path(tempfile.mkdtemp()) / "games.db")
>>> keeper = Scorekeeper(table, load_layout("two-track-121"))
>>> _ = keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
>>> [a.say("de") for a in announcements(keeper.turn_starter("JH"))]
['Ann: zwei für die Hacken']
>>> _ = keeper.lay("10C", "Bob")
>>> [str(a) for a in announcements(keeper.lay("5D", "Ann"))]
['Ann: fifteen for two']
>>> [a.say("nl") for a in announcements(keeper.go("Bob"))]
['Bob zegt Go.']

A phone that sees only the state hears the same (:func:`last_entry`), and whose turn
it is (Bob said go: Ann lays on); a card laid by its name:

>>> [a.say("sv") for a in last_entry(keeper.state, keeper.message)]
['Bob säger stopp.', 'Tur att lägga: Ann.']
>>> [a.say() for a in last_entry(keeper.lay("7H", "Ann").state, keeper.message)]
['Ann lays seven of hearts: twenty-two.']
>>> _ = keeper.undo()
>>> [str(a) for a in last_entry(keeper.state, keeper.message)]
['Undone.']
>>> table.close()
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from pegboard.game import Phase, State, skunk_lines
from pegboard.game.events import Go
from pegboard.game.pegging import GAME_ENDED
from pegboard.game.values import Claim, Count, Entry, GameResult
from pegboard.i18n import N_, Phrase
from pegboard.keeper.change import Change
from pegboard.keeper.photo import BoardPhoto
from pegboard.keeper.sayable import (
    CARDS,
    EVENTS,
    LAID,
    SAID,
    Announcement,
    CardName,
    CardNames,
    Number,
    Sayable,
    Scores,
)
from pegboard.rules.speech import GO_POINT, MUGGINS, LaidCall, count_name

# The kinds and the sentence (their home: :mod:`.sayable`) with what makes them.
__all__ = ["CARDS", "EVENTS", "LAID", "SAID", "Announcement", "announcements", "last_entry"]

_VERDICTS = {
    "exact": N_("{count}: {claimed}… exact."),
    "under": N_("{count}: {claimed}… under by {missed}."),
    "over": N_("{count}: {claimed}… over by {excess}, {pegged} pegged."),
    "claimed": N_("{count}: {claimed}."),  # unchecked, or kept for Muggins
}
_HELD = {  # what the cards held, once a Muggins window closes or a call is settled
    "under": N_("{count} held {actual}: {missed} missed."),
    "exact": N_("{count} held {actual}."),
    # An over-count nobody challenged: it stands as pegged.
    "over": N_("{count} held {actual}: {excess} over, and it stands."),
}
_MUGGINS = {
    True: N_("Muggins! {name} takes {points}."),
    False: N_("False Muggins! {name} takes {points}."),
}
_PAST = (  # a side past a skunk line, the highest first
    N_("{name} is past the skunk line."),
    N_("{name} is past the double skunk line."),
    N_("{name} is past the triple skunk line."),
)
_WINS = (  # by the loser's skunk: none, skunk, double, triple
    N_("{winner} wins by {margin}."),
    N_("{winner} wins by {margin}, with a skunk."),
    N_("{winner} wins by {margin}, with a double skunk."),
    N_("{winner} wins by {margin}, with a triple skunk."),
)


def announcements(
    change: Change, *, phone: bool = False, cards: bool = False
) -> tuple[Announcement, ...]:
    """What the board says aloud of ``change``, in order; ``cards``: every card by its
    name too (the starter, each lay, each show); ``phone``: what a phone says, every card
    and turn (see the module's words)."""
    if change.what == "refused":
        if not (change.dial and change.said.message):
            return ()  # a phone's refusal is shown on that phone
        return (Announcement("refusals", spoken(change.said), fleeting=True),)
    if change.what == "photo" and change.photo is not None and change.state is not None:
        return _photo(change.state, change.photo, cards=cards or phone)
    if change.what != "game" or change.state is None:
        return ()
    after = change.state.told
    before = None if change.before is None else change.before.told
    if undone(change) or before is after:  # an undo, or a game taken up again
        return (Announcement("game", change.said),)
    if before is None or after.version == 1 or after.game != before.game:
        said = [Announcement("game", change.said)] if change.said.message else []
        return (*said, *(_entry(after, entry) for entry in after.history))
    cards = cards or phone
    said = _turned(before, after) if cards else []
    said += [_go(after, seat) for seat in _gone(before, after)]
    kept = _common(before.history, after.history)  # a disputed call re-pegs the last line
    lines = after.history[kept:]
    if cards and (lay := _lay(before, after)) is not None:
        own = [line for line in lines if line.kind == "play" and line.cards]  # in its words
        seen = _entry(after, own[0]).said if own else None
        said.append(replace(lay, seen=seen))
        lines = tuple(line for line in lines if line not in own)
    if cards:
        said += _shows(before, after)
    said += [_entry(after, entry) for entry in lines]
    if after.claims and any(line.kind in ("hand", "crib") for line in lines):
        said += _rule(after.claims[-1])
    said += _held(before, after)
    said += _crossed(before, after)
    if after.winner is not None and before.winner is None:
        said += _won(after, after.results[-1])
    if phone and after.winner is None:
        said += _next(before, after)
    return tuple(said)


def last_entry(state: State, said: Phrase) -> tuple[Announcement, ...]:
    """What is said aloud of the entry that left ``state`` (worked out from the state
    before it), ``said`` being what the door said of it: a phone that sees only the
    state hears the same sentences as the board (see the module's example)."""
    change = Change("game", state.version, state, (), said, before=state.before)
    return announcements(change, phone=True)


def _common(before: tuple[Entry, ...], after: tuple[Entry, ...]) -> int:
    """How many lines the two histories share from the start (a claim of game's line
    that now says where the game ended is the line said before)."""
    for index, (was, now) in enumerate(zip(before, after, strict=False)):
        ended = now.said.message == GAME_ENDED and dict(now.said.params)["what"] == was.said
        if was is not now and was != now and not (ended and replace(now, said=was.said) == was):
            return index
    return min(len(before), len(after))


def undone(change: Change) -> bool:
    """True when ``change`` took an entry back (only an undo adds to what can be redone)."""
    after, before = change.state, change.before
    return (
        change.what == "game"
        and after is not None
        and before is not None
        and len(after.redo) > len(before.redo)
    )


def spoken(said: Phrase) -> Phrase:
    """``said`` with its numbers said in words (and those of the phrases in it).

    >>> from pegboard.i18n import N_
    >>> spoken(Phrase.of(N_("no hand of {size} cards can score {points}"), size=4, points=19))
    ... # doctest: +ELLIPSIS
    Phrase(message='no hand of {size} cards can score {points}', params=(('size', Number(n=4)), ...
    """
    return Phrase(said.message, tuple((name, _spoken(value)) for name, value in said.params))


def _spoken(value: Any) -> Any:
    if isinstance(value, Phrase):
        return spoken(value)
    if type(value) is int and 0 <= value <= 999:
        return Number(value)
    return value


def _turned(before: State, after: State) -> list[Announcement]:
    """The starter by its name, once it is turned or named (a phone's words)."""
    if after.deal != before.deal:
        return []
    turned = before.stage is Phase.DISCARD and after.stage is not Phase.DISCARD
    if not (turned or (before.starter is None and after.starter is not None)):
        return []
    if after.starter is None:
        return [Announcement(CARDS, Phrase(N_("The starter is turned.")))]
    return [
        Announcement(CARDS, Phrase.of(N_("The starter: {card}."), card=CardName(after.starter)))
    ]


def _lay(before: State, after: State) -> Announcement | None:
    """The card just laid, by its name, with its call: the count, or what it scored."""
    laid = after.play.laid
    if after.deal != before.deal or len(laid) != len(before.play.laid) + 1:
        return None
    seat, card = laid[-1]
    call: Sayable = LaidCall((*before.play.pile, card))
    for line in after.history[len(before.history) :]:
        if line.kind == "play" and line.cards:  # what it scored, the last card's point too
            said = line.said
            if said.message == GAME_ENDED:
                said = dict(said.params)["what"]
            call = dict(said.params)["call"]
    message = N_("{name} lays {card}: {call}.")
    return Announcement(
        CARDS, Phrase.of(message, name=after.players[seat], card=CardName(card), call=call)
    )


def _shows(before: State, after: State) -> list[Announcement]:
    """The cards of each hand or crib just pegged with them, by name, the starter last
    ("Bob shows five of hearts, five of clubs, five of spades and jack of diamonds;
    the starter, five of diamonds.")."""
    if after.deal != before.deal or after.starter is None:
        return []
    said = []
    for claim in after.claims[len(before.claims) :]:
        if claim.kind in ("hand", "crib") and claim.cards:
            count = after.count_name(Count(claim.seat, claim.kind))
            names = CardNames(tuple(claim.cards))
            message = N_("{count} shows {cards}; the starter, {starter}.")
            shown = Phrase.of(message, count=count, cards=names, starter=CardName(after.starter))
            said.append(Announcement(CARDS, shown))
    return said


def _photo(state: State, photo: BoardPhoto, *, cards: bool) -> tuple[Announcement, ...]:
    """The board's camera's photo of a count: why it read nothing, said as a refusal is (the
    player holding the button may see no phone); the cards it read, by name, when every card
    is said ("The board's camera saw Bob's hand: five of hearts and …; unsure of …")."""
    if photo.error is not None:
        return (Announcement("refusals", spoken(photo.error), fleeting=True),)
    if not cards or not photo.cards:
        return ()
    count = state.count_name(photo.count)
    seen = CardNames(tuple(s.card for s in photo.cards))
    doubted = tuple(s.card for s in photo.cards if not s.sure)
    if not doubted:
        said = Phrase.of(N_("The board's camera saw {count}: {cards}."), count=count, cards=seen)
    else:
        said = Phrase.of(
            N_("The board's camera saw {count}: {cards}; unsure of {unsure}."),
            count=count,
            cards=seen,
            unsure=CardNames(doubted),
        )
    return (Announcement(CARDS, said),)


def _next(before: State, after: State) -> list[Announcement]:
    """Whose turn it is now, when it moved (a phone's words): who lays, who counts."""
    due, was = after.due, before.due
    if due is None or (due == was and after.stage == before.stage):
        return []
    if due.kind == "play" and due.seat is not None:
        said = Phrase.of(N_("{name} to lay."), name=after.players[due.seat])
    elif due.kind in ("hand", "crib"):
        said = Phrase.of(N_("Next: {count}."), count=after.count_name(due))
    else:
        return []
    return [Announcement(LAID, said)]


def _gone(before: State, after: State) -> list[int]:
    """The seats that said go with this change: the last to say it may have ended the
    count, and the go's point started a new one (no seat has passed in it)."""
    seats = set(after.play.passed - before.play.passed)
    if isinstance(after.event, Go):
        seats.add(after.event.seat)
    return sorted(seats)


def _go(state: State, seat: int) -> Announcement:
    said = Phrase.of(N_("{name} says go."), name=state.players[seat])
    return Announcement("pegging", said, fleeting=True)


def _entry(state: State, entry: Any) -> Announcement:
    """The sentence for one new line of the history."""
    name = state.players[entry.seat] if entry.seat is not None else None
    said = entry.said
    if said.message == GAME_ENDED:  # the line that won: said as the entry it was
        said = dict(said.params)["what"]
    params = dict(said.params)
    score = {"fleeting": True, "scorer": name, "points": entry.points}
    match entry.kind:
        case "play" if "call" in params or said.message == GO_POINT:  # "fifteen for two"
            call = Phrase.of(N_("{name}: {call}"), name=name, call=params.get("call", said))
            return Announcement("pegging", call, **score)
        case "play":  # pegged by hand
            said = Phrase.of(N_("{name} pegs {points}."), name=name, points=Number(entry.points))
            return Announcement("pegging", said, **score)
        case "hand" | "crib":
            return Announcement("counts", _verdict(state, entry.kind))
        case "muggins":
            message = _MUGGINS[entry.said.message == MUGGINS]
            return Announcement(
                "muggins", Phrase.of(message, name=name, points=Number(entry.points))
            )
        case "penalty":
            message = N_("{name} pegs {points} for the over-count.")
            side = state.settings.side_names[entry.side]
            return Announcement(
                "counts", Phrase.of(message, name=side, points=Number(entry.points))
            )
    # His heels, three for last: whose ("Ann: two for his heels").
    return Announcement("heels", Phrase.of(N_("{name}: {call}"), name=name, call=entry.said))


def _verdict(state: State, kind: str) -> Phrase:
    """A count just pegged: as claimed, then what the cards say (when they are known and
    not kept for Muggins)."""
    claim = state.claims[-1]
    verdict = "claimed" if claim.verdict in ("unchecked", "kept") else claim.verdict
    return Phrase.of(
        _VERDICTS[verdict],
        count=count_name(state.players[claim.seat], kind),
        claimed=Number(claim.claimed),
        missed=Number(max(0, -claim.difference)),
        excess=Number(max(0, claim.difference)),
        pegged=Number(claim.pegged),
    )


def _held(before: State, after: State) -> list[Announcement]:
    """What the cards of a count held, told now that its Muggins window closed or a
    call settled it: a lesson when it was short, the answer to a call either way."""
    said = []
    for was, now in zip(before.claims, after.claims, strict=False):
        if was.kept and not now.kept and now.verdict in _HELD:
            if now.verdict != "under" and (now.verdict == "exact") == (now.muggins is None):
                continue  # nothing to learn; or an over-count a call took back, said so
            said.append(Announcement("muggins", _held_phrase(after, now)))
            said += _rule(now, "muggins")
    return said


def _rule(claim: Claim, event: str = "counts") -> list[Announcement]:
    """The rule a count told as wrong most likely missed (:attr:`Claim.rule`), said."""
    rule = claim.rule
    return [] if rule is None else [Announcement(event, rule)]


def _held_phrase(state: State, claim: Claim) -> Phrase:
    assert claim.actual is not None  # held under or exactly: the cards were counted
    return Phrase.of(
        _HELD[claim.verdict],
        count=count_name(state.players[claim.seat], claim.kind),
        actual=Number(claim.actual),
        missed=Number(max(0, -claim.difference)),
        excess=Number(max(0, claim.difference)),
    )


def merged(scores: list[Announcement]) -> Announcement:
    """Scores of the play said together, when they came faster than they could be said
    one by one: "Ann two, Bob three and Ann one"."""
    items = tuple(item for said in scores for item in said.scores)
    total = sum(points for _, points in items)
    return Announcement("pegging", Scores(items), fleeting=True, points=total)


def _crossed(before: State, after: State) -> list[Announcement]:
    """Sides that passed a skunk line with this change (the highest line each passed)."""
    if after.winner is not None:
        return []
    lines = skunk_lines(after.settings)
    said = []
    for side, (was, now) in enumerate(zip(before.scores, after.scores, strict=True)):
        passed = [level for level, line in enumerate(lines) if was < line <= now]
        if passed:
            name = after.settings.side_names[side]
            said.append(Announcement("skunk", Phrase.of(_PAST[min(passed)], name=name)))
    return said


def _won(state: State, game: GameResult) -> list[Announcement]:
    """The win of ``game``, the one ``state`` just finished, by how much and with what
    skunk; the match, when that is won too."""
    names = state.settings.side_names
    said = [
        Announcement(
            "win",
            Phrase.of(_WINS[game.skunk], winner=names[game.winner], margin=Number(game.margin)),
        )
    ]
    match = state.match
    if state.settings.match_games > 1 and match.winner is not None:
        message = N_("{winner} wins the match.")
        said.append(Announcement("win", Phrase.of(message, winner=names[match.winner])))
    return said
