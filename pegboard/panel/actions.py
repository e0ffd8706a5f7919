"""The panel's actions: each change a phone may ask of the board, its arguments checked,
made through the front door.

``ACTIONS`` maps an action's name to a function ``(keeper, args) -> Change`` that makes
exactly one change (or refuses, changing nothing). An argument an action does not take,
or one missing or of the wrong type, is an :class:`ArgumentError` (a 400) that names it.
The entries that depend on what the phone saw take ``version`` (the game's version it
saw): made against a game that has moved on, they are refused (ConflictError).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from pegboard.errors import PegboardError, RuleError
from pegboard.i18n import N_, Phrase
from pegboard.keeper import Change, Scorekeeper

SIM_STEPS = 30  # the most steps one on-screen turn of a simulated dial may take
MAX_TARGET = 999  # the panel's limit on a game's target
NAME_LENGTH = 20


class ArgumentError(PegboardError, ValueError):
    """An action's arguments are not what it takes (the request is wrong, not the entry)."""


class Args:
    """The JSON arguments of one action, read with their types checked."""

    def __init__(self, action: str, data: dict[str, Any], takes: tuple[str, ...]) -> None:
        unknown = sorted(set(data) - set(takes))
        if unknown:
            message = N_("{action} takes no {names}")
            raise ArgumentError(Phrase.of(message, action=action, names=", ".join(unknown)))
        self.action, self.data = action, data

    def get(self, name: str, kind: type | tuple[type, ...], default: Any = ...) -> Any:
        if name not in self.data or self.data[name] is None:
            if default is ...:
                message = N_("{action}: {name} is missing")
                raise ArgumentError(Phrase.of(message, action=self.action, name=name))
            return default
        value = self.data[name]
        kinds = kind if isinstance(kind, tuple) else (kind,)
        if not isinstance(value, kinds) or (isinstance(value, bool) and bool not in kinds):
            message = N_("{action}: {name} has the wrong type")
            raise ArgumentError(Phrase.of(message, action=self.action, name=name))
        return value

    def cards(self, name: str = "cards") -> list[str] | None:
        cards = self.get(name, list, None)
        if cards is not None and not all(isinstance(c, str) and len(c) < 8 for c in cards):
            message = N_("{action}: {name} must be a list of cards")
            raise ArgumentError(Phrase.of(message, action=self.action, name=name))
        return cards

    def version(self) -> int | None:
        """The game's version the phone saw, if it says."""
        return self.get("version", int, None)


Action = Callable[[Scorekeeper, Args], Change]
SETTINGS = (
    "players",
    "variant",
    "target",
    "muggins",
    "lessons",
    "first_go_ends",
    "over_count",
    "skunk",
    "match_games",
    "match_scoring",
    "colours",
)
KINDS = {"seat": int, "card": str, "points": int, "steps": int, "game": int}
SEEN = "version"  # the game's version the phone saw (entries that depend on it)


def _new_game(keeper: Scorekeeper, args: Args) -> Change:
    players = args.get("players", list)
    if not all(isinstance(p, str) and 0 < len(p.strip()) <= NAME_LENGTH for p in players):
        message = N_("each player needs a name of 1 to {most} characters")
        raise RuleError(Phrase.of(message, most=NAME_LENGTH))
    target = args.get("target", int, 0)
    if not 0 <= target <= MAX_TARGET:
        message = N_("a game is played to at most {most} (0: the variant's own)")
        raise RuleError(Phrase.of(message, most=MAX_TARGET))
    settings = {name: args.data[name] for name in SETTINGS if args.data.get(name) is not None} | {
        "players": [p.strip() for p in players]
    }
    return keeper.new_game(settings, dealer=args.get("dealer", int, None))


def _starter(keeper: Scorekeeper, args: Args) -> Change:
    card, heels = args.get("card", str, None), args.get("heels", bool, False)
    return keeper.turn_starter(card, heels=heels, version=args.version())


def _claim(keeper: Scorekeeper, args: Args) -> Change:
    return keeper.claim(
        args.get("seat", int),
        args.get("points", int),
        kind=args.get("kind", str, None),
        cards=args.cards(),
        version=args.version(),
    )


def _muggins(keeper: Scorekeeper, args: Args) -> Change:
    seat, points = args.get("seat", int), args.get("points", int)
    return keeper.muggins(seat, points, cards=args.cards(), version=args.version())


def _next_game(keeper: Scorekeeper, args: Args) -> Change:
    dealer, cuts = args.get("dealer", int, None), args.cards("cuts")
    return keeper.next_game(dealer=dealer, cuts=cuts, version=args.version())


def _dispute(keeper: Scorekeeper, args: Args) -> Change:
    return keeper.dispute_muggins(args.get("seat", int), args.cards(), version=args.version())


def _brightness(keeper: Scorekeeper, args: Args) -> Change:
    return keeper.set_brightness(args.get("level", (int, float)))


def _plain(method: str, *names: str) -> Action:
    """An action that calls the front door's ``method`` with ``names`` in order (and
    the version the phone saw, when ``names`` ends with it)."""

    def run(keeper: Scorekeeper, args: Args) -> Change:
        given = [args.get(name, KINDS[name]) for name in names if name != SEEN]
        seen = {"version": args.version()} if SEEN in names else {}
        return getattr(keeper, method)(*given, **seen)

    return run


def _dial(method: str, *names: str) -> Action:
    """An on-screen control of the simulated board: the same door as the real dials."""
    plain = _plain(method, *names)

    def run(keeper: Scorekeeper, args: Args) -> Change:
        if "steps" in names and not 0 < abs(args.get("steps", int)) <= SIM_STEPS:
            message = N_("turn the dial 1 to {most} steps at a time, either way")
            raise RuleError(Phrase.of(message, most=SIM_STEPS))
        return plain(keeper, args)

    return run


# name -> (the action, the arguments it takes)
ACTIONS: dict[str, tuple[Action, tuple[str, ...]]] = {
    "new_game": (_new_game, (*SETTINGS, "dealer")),
    "starter": (_starter, ("card", "heels", SEEN)),
    "name_starter": (_plain("name_starter", "card", SEEN), ("card", SEEN)),
    "lay": (_plain("lay", "card", "seat", SEEN), ("card", "seat", SEEN)),
    "go": (_plain("go", "seat", SEEN), ("seat", SEEN)),
    "claim": (_claim, ("seat", "points", "kind", "cards", SEEN)),
    "muggins": (_muggins, ("seat", "points", "cards", SEEN)),
    "advance": (_plain("press_advance", SEEN), (SEEN,)),
    "next_game": (_next_game, ("dealer", "cuts", SEEN)),
    "dispute": (_dispute, ("seat", "cards", SEEN)),
    "resume": (_plain("resume", "game"), ("game",)),
    "undo": (_plain("undo", SEEN), (SEEN,)),
    "redo": (_plain("redo", SEEN), (SEEN,)),
    "brightness": (_brightness, ("level",)),
}
SIM_ACTIONS: dict[str, tuple[Action, tuple[str, ...]]] = {
    "sim_turn": (_dial("turn_dial", "seat", "steps"), ("seat", "steps")),
    "sim_press": (_dial("peg_dial", "seat"), ("seat",)),
    "sim_hold": (_dial("undo_own", "seat"), ("seat",)),
    "sim_advance": (_dial("press_advance"), ()),
    "sim_repeat": (_dial("repeat"), ()),
}


def act(keeper: Scorekeeper, action: str, data: dict[str, Any], *, sim: bool) -> Change:
    """Make the change ``action`` asks for with the JSON object ``data``."""
    found = ACTIONS.get(action) or SIM_ACTIONS.get(action)
    if found is None:
        raise LookupError(action)
    if action in SIM_ACTIONS and not sim:
        raise RuleError(Phrase(N_("the on-screen dials work on the simulated board only")))
    run, takes = found
    return run(keeper, Args(action, data, takes))
