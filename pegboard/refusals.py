"""The rules' refusals, in the language of the player who meets them.

The rules refuse an entry with an English sentence (a RuleError from
:mod:`pegboard.game.commands`, a CardError from :mod:`pegboard.cards`). Each sentence a
player meets at the table has its English template here, which is also its message id:
:func:`refusal` reads the sentence back into that message and its parts, so each phone
says it in its own language. A refusal raised with a :class:`~pegboard.i18n.Phrase` is
said as it is; a sentence without a template here stays English.

>>> from pegboard.errors import RuleError
>>> said = refusal(RuleError("out of order: Bob's hand counts now, not Ann's crib"))
>>> said.say("de")
'Falsche Reihenfolge: Jetzt zählt Hand von Bob, nicht Krippe von Ann'
>>> str(said)
"out of order: Bob's hand counts now, not Ann's crib"
"""

from __future__ import annotations

import re
from functools import cache

from pegboard.i18n import N_, Phrase
from pegboard.speech import count_name

# Placeholders by name: a whole number, whose count ("Ann's hand"), or a refusal in turn;
# any other name is said as it stands (a player's name, a card).
NUMBERS = {"points", "size", "given_size", "most", "total", "least"}
COUNTS = {"count", "due", "given"}
REASONS = {"reason"}
_COUNT = re.compile(r"(?P<name>.+)'s (?P<kind>hand|crib|play|starter)|the play")

# Translators: the rules refusing an entry. The English text is the refusal itself;
# {count}, {due} and {given} are whose count ("Ann's hand"), {card} a card like 5♥.
REFUSALS = (
    N_("no game yet: start one"),
    N_("turn the starter first"),
    N_("the starter is turned already"),
    N_("the play is over: the show is on"),
    N_("the play is not over: end it before the show"),
    N_("the game is over: {winner} won ({scores}); only undo is possible"),
    N_("the game is not over yet"),
    N_("the match is over: {winner} won it; start a new game"),
    N_("it is {name}'s turn to lay"),
    N_("{name} leads: any card can be laid on a count of 0"),
    N_("{card} would make the count {total}: it may not pass {most}"),
    N_("{card} was laid already"),
    N_("{card} is the starter"),
    N_("{card} is in {count}"),
    N_("this play is scored from the cards laid: lay cards, not points"),
    N_("this play is pegged by hand: enter points, not cards"),
    N_("cards of the play are laid one by one"),
    N_("the cards of the play cannot be checked after it"),
    N_("one card scores 1 to {most} in the play, not {points}"),
    N_("one card scores at most {most} in the play"),
    N_("out of order: {due} counts now, not {given}"),
    N_("the show is done: advance to the next deal"),
    N_("{count} has not been counted yet"),
    N_("no hand of {size} cards can score {points}"),
    N_(
        "no hand of {size} cards can score {points} (a hand with nothing is called nineteen: peg 0)"
    ),
    N_("no crib can score {points}"),
    N_("no crib can score {points} (a hand with nothing is called nineteen: peg 0)"),
    N_("{count} has {size} cards, not {given_size}"),
    N_("{count} laid {laid} in the play, not {cards}"),
    N_("{count} was {was}, not {cards}"),
    N_("the starter was not entered: the cards cannot be checked"),
    N_("his heels follows from the starter: give the card or heels, not both"),
    N_("Muggins is off in this game"),
    N_("nothing to mug: call Muggins after a count is pegged and before the next one"),
    N_("{name} cannot mug their own side"),
    N_("{count} cannot have missed {points}: {reason}"),
    N_("nothing to undo"),
    N_("nothing to redo"),
    N_("no player {who} at this table ({names})"),
    N_("a game has 2, 3 or 4 players, not {n}"),
    N_("every player needs a name"),
    N_("two players have the same name"),
    N_("the game moved on to version {version}: look again and retry"),
    N_("empty card: type a rank and a suit, like 5H or 10♠"),
    N_("card {token} has no suit: add one of C D H S (or ♣ ♦ ♥ ♠)"),
    N_("card {token}: {suit} is not a suit (use C D H S or ♣ ♦ ♥ ♠)"),
    N_("card {token} has no rank: use A 2-10 J Q K"),
    N_("card {token}: {rank} is not a rank (use A 2-10 J Q K)"),
    N_("{card} is given twice"),
)


def refusal(error: BaseException | str) -> Phrase:
    """What ``error`` (or its text) says, as a phrase any phone can say.

    >>> refusal("no crib can score 19 (a hand with nothing is called nineteen: peg 0)").say("nl")
    'geen crib kan 19 punten halen (een hand zonder punten heet negentien: pen 0)'
    >>> refusal("a sentence of no template").say("fi")
    'a sentence of no template'
    """
    said = error.args[0] if isinstance(error, BaseException) and error.args else error
    if isinstance(said, Phrase):
        return said
    text = str(said)
    for pattern, message in _patterns():
        found = pattern.fullmatch(text)
        if found:
            params = {name: _part(name, value) for name, value in found.groupdict().items()}
            return Phrase.of(message, **params)
    return Phrase(text.replace("{", "{{").replace("}", "}}"))  # untranslated: as it stands


def _part(name: str, value: str):
    if name in NUMBERS:
        return int(value)
    if name in COUNTS:
        count = _COUNT.fullmatch(value)
        return count_name(count["name"], count["kind"] or "play")
    if name in REASONS:
        return refusal(value)
    return value


@cache
def _patterns() -> tuple[tuple[re.Pattern, str], ...]:
    """Each template as a pattern that reads a sentence back; the longest first, so a
    sentence with the nineteen hint is not read as one without it."""
    patterns = []
    for message in sorted(REFUSALS, key=len, reverse=True):
        parts = re.split(r"\{(\w+)\}", message)
        regex = ""
        for i, part in enumerate(parts):
            if i % 2 == 0:
                regex += re.escape(part)
            elif part in NUMBERS:
                regex += rf"(?P<{part}>\d+)"
            elif part in COUNTS:
                regex += rf"(?P<{part}>.+?'s (?:hand|crib|play|starter)|the play)"
            else:
                regex += rf"(?P<{part}>.+?)"
        patterns.append((re.compile(regex, re.DOTALL), message))
    return tuple(patterns)
