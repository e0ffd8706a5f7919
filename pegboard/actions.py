"""The panel's actions: each change a phone may ask of the board, its arguments checked.

``ACTIONS`` maps an action's name to a function ``(board, args) -> Phrase | None`` that
makes exactly one change (or refuses, changing nothing) and says what the board says of it.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from pegboard.errors import RuleError
from pegboard.game import Settings
from pegboard.game.state import Claim
from pegboard.i18n import N_, Phrase

if TYPE_CHECKING:
    from pegboard.service import Board

SIM_STEPS = 30  # the most steps one on-screen turn of a simulated dial may take
MAX_TARGET = 999  # the panel's limit on a game's target


class Args:
    """The JSON arguments of one action, read with their types checked."""

    def __init__(self, action: str, data: dict[str, Any]) -> None:
        self.action, self.data = action, data

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if name not in self.data or self.data[name] is None:
            if default is ...:
                raise RuleError(f"{self.action}: {name} is missing")
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            raise RuleError(f"{self.action}: {name} has the wrong type")
        return value

    def cards(self, name: str) -> list[str] | None:
        cards = self.get(name, list, None)
        if cards is not None and not all(isinstance(c, str) and len(c) < 8 for c in cards):
            raise RuleError(f"{self.action}: {name} must be a list of cards")
        return cards


def _new_game(board: Board, args: Args) -> Phrase:
    players = tuple(args.get("players", list))
    if not all(isinstance(p, str) and 0 < len(p.strip()) <= 20 for p in players):
        raise RuleError(Phrase(N_("each player needs a name of 1 to 20 characters")))
    target = args.get("target", int, 0)
    if not 0 <= target <= MAX_TARGET:
        message = N_("a game is played to at most {most} (0: the variant's own)")
        raise RuleError(Phrase.of(message, most=MAX_TARGET))
    settings = Settings(
        players=tuple(p.strip() for p in players),
        variant=args.get("variant", str, "standard"),
        target=target,
        muggins=args.get("muggins", bool, False),
        first_go_ends=args.get("first_go_ends", bool, False),
        over_count=args.get("over_count", str, "correct"),
        skunk=args.get("skunk", str, "double"),
        match_games=args.get("match_games", int, 1),
        match_scoring=args.get("match_scoring", str, "home"),
        colours=tuple(args.get("colours", list, [])),
    )
    tracks = len(board.layout.tracks)
    if settings.sides > tracks:
        message = N_("this board ({layout}) has {tracks} tracks: {players} players need {sides}")
        raise RuleError(
            Phrase.of(
                message,
                layout=board.layout.name,
                tracks=tracks,
                players=len(players),
                sides=settings.sides,
            )
        )
    dealer = args.get("dealer", int, None)
    if dealer is None:  # the cut, done by the board
        dealer = secrets.randbelow(len(players))
    state = board.table.new_game(settings, dealer=dealer)
    board.entry.clear()
    return Phrase.of(N_("New game: {name} deals first."), name=state.players[state.dealer])


def _starter(board: Board, args: Args) -> Phrase | None:
    card = args.get("card", str, None)
    state = board.table.turn_starter(card, heels=args.get("heels", bool, False))
    heels = state.history and state.history[-1].kind == "heels"
    return Phrase(N_("Two for his heels.")) if heels else None


def _claim(board: Board, args: Args) -> Phrase | None:
    state = board.table.claim(
        args.get("seat", int),
        args.get("points", int),
        kind=args.get("kind", str, None),
        cards=args.cards("cards"),
    )
    return verdict(state.claims[-1]) if state.claims else None


def verdict(claim: Claim) -> Phrase:
    """What the board says of a count just pegged: exact, under, over, or only pegged.

    >>> from pegboard.game.state import Claim
    >>> said = verdict(Claim(1, 1, "hand", 24, 22, 1, actual=22))
    >>> str(said), said.say("da")
    ('24: over by 2; pegged 22.', '24: 2 for meget; 22 markeret.')
    """
    if claim.verdict == "exact":
        return Phrase.of(N_("{claimed}: exact."), claimed=claim.claimed)
    if claim.verdict == "under":
        message = N_("{claimed}: under by {n}.")
        return Phrase.of(message, claimed=claim.claimed, n=-claim.difference)
    if claim.verdict == "over":
        message = N_("{claimed}: over by {n}; pegged {pegged}.")
        return Phrase.of(message, claimed=claim.claimed, n=claim.difference, pegged=claim.pegged)
    return Phrase.of(N_("Pegged {pegged}."), pegged=claim.pegged)


def _sim(method: str, *names: str) -> Callable[[Board, Args], None]:
    def run(board: Board, args: Args) -> None:
        if not board.sim:
            raise RuleError(Phrase(N_("the on-screen dials work on the simulated board only")))
        values = {name: args.get(name, int) for name in names}
        if not 0 < abs(values.get("steps", 1)) <= SIM_STEPS:
            raise RuleError(f"turn the dial 1 to {SIM_STEPS} steps at a time, either way")
        getattr(board.controls, method)(*values.values())

    return run


def _brightness(board: Board, args: Args) -> None:
    level = args.get("level", (int, float))
    if not 0 <= level <= 1:
        raise RuleError("brightness is between 0 and 1")
    board.leds.brightness = float(level)


def _entry(
    method: str, *names: str, said: str | None = None
) -> Callable[[Board, Args], Phrase | None]:
    """An action that is one table entry taking ``names`` (seat, card, points) in order;
    ``said``: what the board says of it (a message id)."""
    kinds = {"seat": int, "card": str, "points": int}

    def run(board: Board, args: Args) -> Phrase | None:
        values = [args.get(name, kinds[name]) for name in names]
        extra = {"cards": args.cards("cards")} if "cards" in args.data else {}
        getattr(board.table, method)(*values, **extra)
        return None if said is None else Phrase(said)

    return run


ACTIONS: dict[str, Callable[[Board, Args], Phrase | None]] = {
    "new_game": _new_game,
    "starter": _starter,
    "lay": _entry("lay", "card", "seat"),
    "go": _entry("go", "seat"),
    "claim": _claim,
    "muggins": _entry("muggins", "seat", "points", said=N_("Muggins!")),
    "advance": lambda board, args: board._advance(),
    "next_game": _entry("next_game"),
    "undo": _entry("undo", said=N_("Undone.")),
    "redo": _entry("redo", said=N_("Redone.")),
    "sim_turn": _sim("sim_turn", "seat", "steps"),
    "sim_press": _sim("sim_press", "seat"),
    "sim_hold": _sim("sim_hold", "seat"),
    "sim_advance": _sim("sim_advance"),
    "brightness": _brightness,
}
