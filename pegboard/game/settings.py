"""Settings of a game: who plays, which variant, and the house rules.

>>> s = Settings(players=("Ann", "Bob", "Cat", "Dan"))
>>> s.sides, s.side_names, s.target, s.colours
(2, ('Ann & Cat', 'Bob & Dan'), 121, ('#0072B2', '#E69F00'))
>>> Settings(variant="five-card").target, Settings(variant="five-card").variant_rules.hand
(61, 3)
>>> Settings(players=("Ann", "Bob", "Cat"), variant="five-card")
Traceback (most recent call last):
...
pegboard.errors.ConfigError: the five-card game is for 2 players, not 3
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import asdict, dataclass, field, fields
from typing import Any

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase
from pegboard.rules.deals import PLAYERS, VARIANTS, Variant
from pegboard.shape import Source, at_least, between, one_of

OVER_COUNT_RULES = ("correct", "penalise")  # ACC: take the excess back; Hoyle: opponent pegs it too
SKUNK_RULES = ("none", "single", "double", "triple")  # how many skunk lines count
MATCH_SCORING = ("home", "acc")  # home: skunk 2 games, double 4; ACC: win 2, skunk 3
# The editions of the board's rules. 2: with Muggins on an over-count is kept for a call
# and a claim of game waits for its window; the first deal passes on from game to game.
# A game is replayed by the edition it was started under (one stored without: 1).
EDITIONS = (1, 2)
EDITION = EDITIONS[-1]

# Okabe-Ito: told apart with every common colour-vision deficiency.
PALETTE = ("#0072B2", "#E69F00", "#0000A0", "#E0F0E0")
_COLOUR = re.compile(r"#[0-9A-Fa-f]{6}")


@dataclass(frozen=True, slots=True)
class Settings:
    """Everything fixed when a game starts.  Players sit clockwise in the order given;
    with four players, seats 0 and 2 play against seats 1 and 3."""

    players: tuple[str, ...] = ("Player 1", "Player 2")
    variant: str = "standard"
    target: int = 0  # 0: the variant's own (121; 61 five-card; 181 seven-card)
    # Muggins: a player of another side may peg points a count missed, before the next
    # count.  With the cards known, the cards decide (the lesser of the call and what was
    # missed; nothing missed: the call goes to the mugged side).  A call made without them
    # stands as made unless the mugged side disputes it by showing the cards in time.
    muggins: bool = False
    # With Muggins on, what a count missed is shown once its Muggins window closes
    # without a call (people learn from it); off, it stays unsaid until the game ends.
    lessons: bool = True
    first_go_ends: bool = False  # the play ends when its first count ends: at the first go or 31
    over_count: str = "correct"
    skunk: str = "double"
    match_games: int = 1  # best of N
    match_scoring: str = "home"
    colours: tuple[str, ...] = field(default=())  # one per side; () picks from PALETTE
    edition: int = EDITION  # of the board's rules the game is played by (see EDITIONS)

    def __post_init__(self) -> None:
        set_ = object.__setattr__
        rules, given = Source(RULES), {f.name: getattr(self, f.name) for f in fields(self)}
        if not isinstance(self.players, list | tuple):  # a string is no list of names
            value, example = shown(repr(self.players)), '["Ann", "Bob"]'
            raise ConfigError(Phrase.of(NOT_A_LIST, key="players", example=example, value=value))
        set_(self, "players", tuple(self.players))
        set_(self, "colours", tuple(self.colours))
        names = self.players
        if len(names) not in PLAYERS:
            raise ConfigError(Phrase.of(N_("a game has 2, 3 or 4 players, not {n}"), n=len(names)))
        for name in names:
            check_name(name)
        if len(set(names)) != len(names):
            raise ConfigError(Phrase(N_("two players have the same name")))
        rules.value(given, "variant", str, check=one_of(*VARIANTS))
        if len(names) not in self.variant_rules.players:
            raise ConfigError(
                Phrase.of(
                    N_("the {variant} game is for {players} players, not {n}"),
                    variant=self.variant,
                    players=", ".join(map(str, self.variant_rules.players)),
                    n=len(names),
                )
            )
        rules.value(given, "over_count", str, check=one_of(*OVER_COUNT_RULES))
        rules.value(given, "skunk", str, check=one_of(*SKUNK_RULES))
        rules.value(given, "match_scoring", str, check=one_of(*MATCH_SCORING))
        rules.value(given, "target", int, check=at_least(0))
        if self.target == 0:
            set_(self, "target", self.variant_rules.target)
        rules.value(given, "match_games", int, check=at_least(1))
        rules.value(given, "edition", int, check=between(EDITIONS[0], EDITIONS[-1]))
        if self.match_games % 2 == 0:
            odd = N_("a match is best of an odd number of games, not {n}")
            raise ConfigError(Phrase.of(odd, n=self.match_games))
        for key in ("muggins", "lessons", "first_go_ends"):
            rules.value(given, key, bool)
        if not self.colours:
            set_(self, "colours", PALETTE[: self.sides])
        if len(self.colours) != self.sides or not all(
            isinstance(c, str) and _COLOUR.fullmatch(c) for c in self.colours
        ):
            colours = N_("give {n} colours like {example}, one per side")
            raise ConfigError(Phrase.of(colours, n=self.sides, example=PALETTE[0]))

    @property
    def variant_rules(self) -> Variant:
        return VARIANTS[self.variant]

    @property
    def sides(self) -> int:
        """Scores kept: one per player, or two for partners."""
        return 2 if len(self.players) == 4 else len(self.players)

    def side_of(self, seat: int) -> int:
        return seat % self.sides

    @property
    def side_names(self) -> tuple[str, ...]:
        return tuple(" & ".join(self.players[side :: self.sides]) for side in range(self.sides))

    def as_dict(self) -> dict[str, Any]:
        return {**asdict(self), "players": list(self.players), "colours": list(self.colours)}

    @property
    def kept_over(self) -> bool:
        """Whether an over-count is the opponents' to catch (Muggins on, edition 2): it is
        pegged as claimed and kept for a call, and a claim of game waits for its window."""
        return self.muggins and self.edition >= 2

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Settings:
        """Read settings as written by :meth:`as_dict`; unknown keys are an error."""
        Source(RULES).only(data, (f.name for f in fields(cls)))
        return cls(**data)

    @classmethod
    def stored(cls, data: dict[str, Any]) -> Settings:
        """Read the settings of a stored game: one stored before editions is played by
        the first."""
        return cls.from_dict({"edition": EDITIONS[0], **data})


RULES = Phrase(N_("the game's rules"))  # where a game's settings are read, to people
# Translators: the house rules refused; {key} is a setting as typed in the config (muggins),
# {true} and {false} its values as typed.
NOT_A_LIST = N_("{key} is a list of 2 to 4 names, like {example}, not {value}")
UNPRINTABLE = N_(
    "the name {name} holds {code}, which is not printable text (no control characters, "
    "text-direction controls or halves of characters)"
)
# Unicode's Bidi_Control characters: they reorder the text around them on a screen.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def check_name(name: object) -> None:
    r"""A player's name is printable text: not empty, no control characters (a terminal's
    escape sequences), no text-direction controls, no lone surrogates. The one rule for
    every way a name comes in: the config, the panel, a stored game.

    >>> check_name("Zoë 🃏")
    >>> check_name("Ann\x1b[2J")
    Traceback (most recent call last):
    ...
    pegboard.errors.ConfigError: the name Ann\x1b[2J holds U+001B, which is not printable text...
    """
    if not isinstance(name, str) or not name.strip():
        raise ConfigError(Phrase(N_("every player needs a name")))
    bad = next((char for char in name if unprintable(char)), None)
    if bad is not None:
        raise ConfigError(Phrase.of(UNPRINTABLE, name=shown(name), code=f"U+{ord(bad):04X}"))


def unprintable(char: str) -> bool:
    """True for a character a name must not hold (see :func:`check_name`)."""
    category = unicodedata.category(char)
    return category in ("Cc", "Cs", "Co", "Cn", "Zl", "Zp") or char in BIDI_CONTROLS


def shown(text: str) -> str:
    r"""``text`` with every character a name must not hold written as an escape, safe to
    print on a terminal.

    >>> print(shown("Ann\x1b[2J\u202eboB"))
    Ann\x1b[2J\u202eboB
    """
    return "".join(
        char.encode("unicode_escape").decode() if unprintable(char) else char for char in text
    )
