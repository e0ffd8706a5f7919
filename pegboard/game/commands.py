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

from collections.abc import Iterable, Mapping, Sequence

from pegboard.errors import RuleError
from pegboard.game import events as ev
from pegboard.game.settings import Settings
from pegboard.game.state import Count, Phase, State
from pegboard.i18n import N_, Phrase
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.play import GO_LIMIT, max_play_points
from pegboard.rules.scoring import possible_totals

Cards = str | Iterable[Card | str]  # "5H 5C JD 4S", or one card or token each


def start(
    settings: Settings | Mapping | None = None,
    dealer: int | str | None = None,
    cuts: Cards | None = None,
) -> ev.GameStarted:
    """A new game: the first dealer is chosen, or cut for (one card per player, lowest
    rank deals), or else the first player."""
    if not isinstance(settings, Settings):
        settings = Settings.from_dict(dict(settings or {}))
    names = settings.players
    if cuts is None:
        return ev.GameStarted(settings, 0 if dealer is None else _seat(names, dealer))
    if dealer is not None:
        raise RuleError("choose the dealer or cut for it, not both")
    cut = tuple(_cards(cuts))
    if len(cut) != len(names):
        raise RuleError(f"each of the {len(names)} players cuts one card, not {len(cut)} cards")
    low = min(card.rank for card in cut)
    lowest = [names[seat] for seat, card in enumerate(cut) if card.rank == low]
    if len(lowest) > 1:
        raise RuleError(f"{' and '.join(lowest)} cut the same rank: cut again")
    return ev.GameStarted(settings, names.index(lowest[0]), cut)


def next_game(state: State) -> ev.NextGame:
    if not state.over:
        raise RuleError(Phrase(N_("the game is not over yet")))
    if state.match.winner is not None:
        winner = state.settings.side_names[state.match.winner]
        raise RuleError(
            Phrase.of(N_("the match is over: {winner} won it; start a new game"), winner=winner)
        )
    return ev.NextGame(state.seat_after(state.first_dealer))


def turn_starter(
    state: State, card: Card | str | None = None, heels: bool = False
) -> ev.StarterTurned:
    """The starter, or None when the card is not entered (then say if it was a jack)."""
    _in_phase(state, Phase.DISCARD)
    if card is None:
        return ev.StarterTurned(None, _flag(heels, "heels"))
    (starter,) = _cards([card])
    if heels:
        raise RuleError(
            Phrase(N_("his heels follows from the starter: give the card or heels, not both"))
        )
    return ev.StarterTurned(starter)


def lay(state: State, card: Card | str, seat: int | str | None = None) -> ev.CardLaid:
    """A card laid in the play by the player whose turn it is."""
    seat = _turn(state, seat)
    (laid,) = _cards([card])
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


def go(state: State, seat: int | str | None = None) -> ev.Go:
    """The player whose turn it is says go: they cannot lay without passing 31."""
    seat = _turn(state, seat)
    if not state.play.pile:
        raise RuleError(
            Phrase.of(
                N_("{name} leads: any card can be laid on a count of 0"), name=state.players[seat]
            )
        )
    return ev.Go(seat)


def claim(
    state: State, seat: int | str, points: int, kind: str | None = None, cards: Cards | None = None
) -> ev.Claimed:
    """A count pegged by ``seat``: in the play, points scored there; in the show, the
    hand or crib due now (``kind`` defaults to what is due)."""
    _open(state)
    seat = _seat(state.players, seat)
    points = _whole(points, "points")
    if kind is None:
        if state.stage is Phase.DISCARD:
            _in_phase(state, Phase.SHOW)  # refuses: the starter comes first
        kind = "play" if state.stage is Phase.PLAY else (state.due or Count(None, "hand")).kind
    if kind not in ev.KINDS:
        raise RuleError(f"a count is for {', '.join(ev.KINDS)}; not {kind!r}")
    if kind == "play":
        _in_phase(state, Phase.PLAY)
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
    count = _due(state, Count(seat, kind))
    if points not in _totals(state, count):
        raise RuleError(_impossible(state, count, points))
    return ev.Claimed(seat, kind, points, _hand_cards(state, count, cards))


def muggins(
    state: State, seat: int | str, points: int, cards: Cards | None = None
) -> ev.MugginsCalled:
    """``seat`` calls Muggins on the count just pegged: it missed ``points``."""
    if not state.settings.muggins:
        raise RuleError(Phrase(N_("Muggins is off in this game")))
    _open(state)
    seat = _seat(state.players, seat)
    points = _whole(points, "points", least=1)
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
    total = mugged.claimed + points
    if (
        (total > max_play_points())
        if mugged.kind == "play"
        else (total not in _totals(state, count))
    ):
        raise RuleError(
            Phrase.of(
                N_("{count} cannot have missed {points}: {reason}"),
                count=state.count_name(count),
                points=points,
                reason=_impossible(state, count, total),
            )
        )
    if cards is None or mugged.kind == "play":
        if cards is not None:
            raise RuleError(Phrase(N_("the cards of the play cannot be checked after it")))
        return ev.MugginsCalled(seat, points)
    given = _hand_cards(state, count, cards)
    if mugged.cards is not None and set(given) != set(mugged.cards):
        raise RuleError(
            Phrase.of(
                N_("{count} was {was}, not {cards}"),
                count=state.count_name(count),
                was=_show(mugged.cards),
                cards=_show(given),
            )
        )
    return ev.MugginsCalled(seat, points, None if mugged.cards is not None else given)


def advance(state: State) -> ev.PlayEnded | ev.ShowEnded:
    """End the play, or end the show once every count is in."""
    _open(state)
    if state.stage is Phase.DISCARD:
        raise RuleError(Phrase(N_("turn the starter first")))
    if state.stage is Phase.PLAY:
        return ev.PlayEnded()
    if state.due is not None:
        raise RuleError(
            Phrase.of(N_("{count} has not been counted yet"), count=state.count_name(state.due))
        )
    return ev.ShowEnded()


def undo(state: State) -> ev.Undone:
    if not state.can_undo:
        raise RuleError(Phrase(N_("nothing to undo")))
    return ev.Undone()


def redo(state: State) -> ev.Redone:
    if not state.can_redo:
        raise RuleError(Phrase(N_("nothing to redo")))
    return ev.Redone()


def check(state: State, event: ev.Event) -> ev.Event:
    """Check an event built elsewhere (say, JSON from the panel) as if it were entered."""
    match event:
        case ev.StarterTurned(card, heels):
            return turn_starter(state, card, heels)
        case ev.CardLaid(seat, card):
            return lay(state, card, seat)
        case ev.Go(seat):
            return go(state, seat)
        case ev.Claimed(seat, kind, points, cards):
            return claim(state, seat, points, kind, cards)
        case ev.MugginsCalled(seat, points, cards):
            return muggins(state, seat, points, cards)
        case ev.PlayEnded() | ev.ShowEnded():
            if advance(state) != event:
                what = "play" if isinstance(event, ev.PlayEnded) else "show"
                raise RuleError(f"the {what} cannot end now: it is the {state.phase}")
            return event
        case ev.NextGame():
            return next_game(state)
        case ev.Undone():
            return undo(state)
        case ev.Redone():
            return redo(state)
        case ev.GameStarted():
            raise RuleError("a new game starts with new_game(), not in the middle of one")
    raise RuleError(f"malformed event: {event!r} is not an event")


# --- checks shared by the commands ---------------------------------------------------------


def _open(state: State) -> None:
    if state.over:
        scores = "-".join(map(str, sorted(state.scores, reverse=True)))
        raise RuleError(
            Phrase.of(
                N_("the game is over: {winner} won ({scores}); only undo is possible"),
                winner=state.settings.side_names[state.winner],
                scores=scores,
            )
        )


def _in_phase(state: State, phase: Phase) -> None:
    _open(state)
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


def _turn(state: State, seat: int | str | None) -> int:
    _in_phase(state, Phase.PLAY)
    if state.play.mode == "points":
        raise RuleError(Phrase(N_("this play is pegged by hand: enter points, not cards")))
    turn = state.play.turn
    if seat is not None and _seat(state.players, seat) != turn:
        raise RuleError(Phrase.of(N_("it is {name}'s turn to lay"), name=state.players[turn]))
    return turn


def _due(state: State, count: Count) -> Count:
    _in_phase(state, Phase.SHOW)
    due = state.due
    if count.kind == "crib" and not state.settings.variant_rules.crib:
        raise RuleError(f"there is no crib in {state.settings.variant}")
    if due is None:
        raise RuleError(Phrase(N_("the show is done: advance to the next deal")))
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


def _totals(state: State, count: Count) -> frozenset[int]:
    crib = count.kind == "crib"
    return possible_totals(4 if crib else state.hand_size, crib)


def _impossible(state: State, count: Count, points: int) -> Phrase:
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


def _hand_cards(state: State, count: Count, cards: Cards | None) -> tuple[Card, ...] | None:
    """The cards of a hand or crib given to check a count, checked against the deal."""
    if cards is None:
        return None
    given = tuple(_cards(cards))
    size = 4 if count.kind == "crib" else state.hand_size
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
        raise RuleError(Phrase(N_("the starter was not entered: the cards cannot be checked")))
    laid = state.play.cards_of(count.seat) if count.kind == "hand" else ()
    if not set(laid) <= set(given):
        raise RuleError(
            Phrase.of(
                N_("{count} laid {laid} in the play, not {cards}"),
                count=state.count_name(count),
                laid=_show(laid),
                cards=_show(given),
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


def _show(cards: Iterable[Card]) -> str:
    return " ".join(map(str, cards))


def _cards(cards: Cards) -> list[Card]:
    tokens = cards.replace(",", " ").split() if isinstance(cards, str) else cards
    return parse_cards(tokens)


def _seat(names: Sequence[str], who: int | str) -> int:
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


def _whole(value: object, name: str, least: int = 0) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value < least:
        raise RuleError(f"{name} are a whole number of at least {least}, not {value!r}")
    return value


def _flag(value: object, name: str) -> bool:
    if not isinstance(value, bool):
        raise RuleError(f"{name} is true or false, not {value!r}")
    return value
