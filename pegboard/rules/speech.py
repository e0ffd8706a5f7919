"""How the board speaks cribbage: the traditional calls, in each language the board speaks.

Every phrase is a whole message in the gettext catalogue (pegboard/locale), with named
placeholders filled in after translation; numbers are spoken by :func:`number_words`.
Each function takes ``lang`` (default English) and keeps no state.

>>> number_words(29), number_words(121)
('twenty-nine', 'one hundred twenty-one')
>>> number_words(31, "de"), number_words(31, "sv"), number_words(121, "fi")
('einunddreißig', 'trettioett', 'satakaksikymmentäyksi')
>>> heels_call("nl"), go_call("de"), skunk_name(2, "fi")
('twee voor his heels', 'passe', 'tuplaskunkattu')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache
from math import prod

from pegboard.i18n import N_, Phrase, translations
from pegboard.rules.cards import Card
from pegboard.rules.play import Peg, score_play
from pegboard.rules.scoring import Item, Show, runs_of

# --- numbers -------------------------------------------------------------------------------
# Spoken numbers 0..999, a few words and two joining rules per language: the rules are
# regular, and neither gettext nor Babel spells numbers out.


def _words(text: str) -> tuple[str, ...]:
    return tuple(text.split())


@dataclass(frozen=True, slots=True)
class _Numbers:
    """How one language says 0..999: its words for 0..19 and the tens, and how it joins
    tens and ones (21..99) and the hundreds to the rest."""

    ones: tuple[str, ...]  # 0..19
    tens: tuple[str, ...]  # [2] twenty .. [9] ninety
    compound: Callable[[str, str], str]  # (tens, ones) -> 21..99
    hundreds: Callable[[int, str, str], str]  # (hundreds, its word, the rest or "") -> 100..999

    def say(self, n: int) -> str:
        if n < 20:
            return self.ones[n]
        if n < 100:
            tens, ones = divmod(n, 10)
            return self.compound(self.tens[tens], self.ones[ones]) if ones else self.tens[tens]
        hundreds, rest = divmod(n, 100)
        return self.hundreds(hundreds, self.ones[hundreds], self.say(rest) if rest else "")


def _dutch_compound(tens: str, one: str) -> str:
    """Ones en tens, ë after an e: eenentwintig, tweeëntwintig."""
    one = "een" if one == "één" else one
    return one + ("ën" if one.endswith("e") else "en") + tens


_FI = _words("nolla yksi kaksi kolme neljä viisi kuusi seitsemän kahdeksan yhdeksän kymmenen")

_NUMBERS = {
    "en": _Numbers(
        _words(
            "zero one two three four five six seven eight nine ten eleven twelve thirteen "
            "fourteen fifteen sixteen seventeen eighteen nineteen"
        ),
        _words("_ _ twenty thirty forty fifty sixty seventy eighty ninety"),
        lambda tens, one: f"{tens}-{one}",
        lambda _, word, rest: f"{word} hundred" + (f" {rest}" if rest else ""),
    ),
    "nl": _Numbers(
        _words(
            "nul één twee drie vier vijf zes zeven acht negen tien elf twaalf dertien veertien "
            "vijftien zestien zeventien achttien negentien"
        ),
        _words("_ _ twintig dertig veertig vijftig zestig zeventig tachtig negentig"),
        _dutch_compound,
        lambda n, word, rest: (
            ("" if n == 1 else word) + "honderd" + ("een" if rest == "één" else rest)
        ),
    ),
    "da": _Numbers(
        _words(
            "nul en to tre fire fem seks syv otte ni ti elleve tolv tretten fjorten femten "
            "seksten sytten atten nitten"
        ),
        _words("_ _ tyve tredive fyrre halvtreds tres halvfjerds firs halvfems"),
        lambda tens, one: f"{one}og{tens}",
        lambda n, word, rest: (
            ("hundrede" if n == 1 else f"{word} hundrede") + (f" og {rest}" if rest else "")
        ),
    ),
    "de": _Numbers(
        _words(
            "null eins zwei drei vier fünf sechs sieben acht neun zehn elf zwölf dreizehn "
            "vierzehn fünfzehn sechzehn siebzehn achtzehn neunzehn"
        ),
        _words("_ _ zwanzig dreißig vierzig fünfzig sechzig siebzig achtzig neunzig"),
        lambda tens, one: ("ein" if one == "eins" else one) + "und" + tens,
        lambda n, word, rest: ("" if n == 1 else word) + "hundert" + rest,
    ),
    "fi": _Numbers(
        _FI + tuple(one + "toista" for one in _FI[1:10]),
        ("_", "_", *(ten + "kymmentä" for ten in _FI[2:10])),
        lambda tens, one: tens + one,
        lambda n, word, rest: ("sata" if n == 1 else word + "sataa") + rest,
    ),
    "sv": _Numbers(
        _words(
            "noll ett två tre fyra fem sex sju åtta nio tio elva tolv tretton fjorton femton "
            "sexton sjutton arton nitton"
        ),
        _words("_ _ tjugo trettio fyrtio femtio sextio sjuttio åttio nittio"),
        lambda tens, one: tens + one,
        lambda n, word, rest: ("" if n == 1 else word) + "hundra" + rest,
    ),
}


def number_words(n: int, lang: str = "en") -> str:
    """``n`` (0..999) in words, as said at the table.

    >>> [number_words(n, "nl") for n in (1, 22, 31)]
    ['één', 'tweeëntwintig', 'eenendertig']
    >>> number_words(121, "da"), number_words(101, "de")
    ('hundrede og enogtyve', 'hunderteins')
    """
    from pegboard.i18n import check_language

    if not 0 <= n <= 999:
        raise ValueError(f"{n} is not a number from 0 to 999")
    return _NUMBERS[check_language(lang)].say(n)


# --- the show ------------------------------------------------------------------------------

_FIFTEEN = "fifteen"
_SETS = {2: N_("a pair"), 3: N_("a pair royal"), 4: N_("a double pair royal")}
# A run with its repeated ranks, called as one: (multiplicities above 1, length) names it.
_RUNS = {
    ((), 3): N_("a run of three"),
    ((), 4): N_("a run of four"),
    ((), 5): N_("a run of five"),
    ((), 6): N_("a run of six"),
    ((), 7): N_("a run of seven"),
    ((2,), 3): N_("a double run of three"),
    ((2,), 4): N_("a double run of four"),
    ((2,), 5): N_("a double run of five"),
    ((2,), 6): N_("a double run of six"),
    ((3,), 3): N_("a triple run of three"),
    ((3,), 4): N_("a triple run of four"),
    ((3,), 5): N_("a triple run of five"),
    ((2, 2), 3): N_("a double double run of three"),
    ((2, 2), 4): N_("a double double run of four"),
    ((2, 2), 5): N_("a double double run of five"),
}
_FLUSHES = {
    3: N_("a flush of three"),
    4: N_("a flush of four"),
    5: N_("a flush of five"),
    6: N_("a flush of six"),
    7: N_("a flush of seven"),
}
_NOBS = N_("one for his nobs")


def _show_phrases(show: Show) -> list[tuple[str, int]]:
    """The named parts of a show (message ids), in calling order, each with its points."""
    phrases = [(_FIFTEEN, 2)] * (show.fifteens // 2)
    ranks = Counter(card.rank for card in (*show.hand, show.starter))
    runs: list[tuple[str, int]] = []
    in_runs: set[int] = set()
    for low, length in runs_of(ranks):
        segment = range(low, low + length)
        repeats = tuple(sorted(ranks[r] for r in segment if ranks[r] > 1))
        if (repeats, length) not in _RUNS:  # too tangled to name: call runs and pairs apart
            runs += [(_RUNS[(), length], length)] * prod(ranks[r] for r in segment)
            continue
        in_runs.update(segment)
        points = length * prod(ranks[r] for r in segment) + sum(n * (n - 1) for n in repeats)
        runs.append((_RUNS[repeats, length], points))
    phrases += [
        (_SETS[n], n * (n - 1))
        for rank, n in sorted(ranks.items())
        if n >= 2 and rank not in in_runs
    ]
    phrases += runs
    if show.flush:
        phrases.append((_FLUSHES[show.flush], show.flush))
    if show.nobs:
        phrases.append((_NOBS, 1))
    return phrases


def show_call(show: Show, lang: str = "en") -> str:
    """ "fifteen two, fifteen four, and a pair is six"; a zero hand is "nineteen".

    >>> from pegboard.rules.scoring import score_show
    >>> from pegboard.rules.cards import Card, parse_cards
    >>> show = score_show(parse_cards("4H 4C 7D 8S".split()), Card.parse("KD"))
    >>> show_call(show, "de")
    'fünfzehn zwei, fünfzehn vier und ein Paar macht sechs'
    """
    t = translations(lang)
    call, total = "", 0
    for phrase, points in _show_phrases(show):
        total += points
        said = number_words(total, lang)
        if phrase == _FIFTEEN:
            # Translators: the show's call: {call} is the call so far, {total} the running
            # total in words ("fifteen two, fifteen four"); the call is said, not written.
            template = (
                t.gettext("{call}, fifteen {total}") if call else t.gettext("fifteen {total}")
            )
            call = template.format(call=call, total=said)
        else:
            template = (
                # Translators: {what} is one of the named parts ("a pair royal", "a run of
                # three", "one for his nobs"); {total} the running total in words.
                t.gettext("{call}, and {what} is {total}")
                if call
                else t.gettext("{what} is {total}")
            )
            call = template.format(call=call, what=t.gettext(phrase), total=said)
    return call or t.gettext("nineteen: nothing to peg")


# --- the play ------------------------------------------------------------------------------


def play_call(peg: Peg, lang: str = "en", last: int = 0) -> str:
    """What the player says laying the card: "fifteen for two", "thirty-one for four";
    ``last`` adds the point for the last card.

    >>> from pegboard.rules.play import score_play
    >>> from pegboard.rules.cards import Card, parse_cards
    >>> peg = score_play(parse_cards(["10H", "4C"]), Card.parse("AD"))
    >>> play_call(peg), play_call(peg, "fi")
    ('fifteen for two', 'viisitoista, kaksi pistettä')
    >>> play_call(peg, "de", last=1)
    'fünfzehn macht zwei und einen für die letzte Karte'
    """
    t = translations(lang)
    call = number_words(peg.count, lang)
    if peg.points:
        # Translators: the play: {count} is the running count, {points} what the card scored,
        # both in words ("fifteen for two", "thirty-one for four").
        template = t.ngettext("{count} for {points}", "{count} for {points}", peg.points)
        call = template.format(count=call, points=number_words(peg.points, lang))
    if last:
        template = t.ngettext(
            "{call}, and one for the last card", "{call}, and {last} for the last card", last
        )
        call = template.format(call=call, last=number_words(last, lang))
    return call


# The game's own words for what it pegs (its history says them too).
GO = N_("go")
GO_POINT = N_("one for the go")
HEELS = N_("two for his heels")
THREE_FOR_LAST = N_("three for last")
MUGGINS = N_("muggins on {owner}")
FALSE_MUGGINS = N_("false muggins on {owner}")


def go_call(lang: str = "en") -> str:
    """What a player says who cannot lay a card."""
    return translations(lang).gettext(GO)


def go_point_call(lang: str = "en") -> str:
    """The point for the go, pegged by the last to lay when nobody can go on."""
    return translations(lang).gettext(GO_POINT)


def heels_call(lang: str = "en") -> str:
    """The dealer's two when the starter is a jack."""
    return translations(lang).gettext(HEELS)


def three_for_last_call(lang: str = "en") -> str:
    """The pone's three at the start of the five-card game."""
    return translations(lang).gettext(THREE_FOR_LAST)


def muggins_call(owner: str, lang: str = "en", false: bool = False) -> str:
    """A Muggins claim on ``owner``'s count; ``false``: one that named points not there."""
    return Phrase.of(FALSE_MUGGINS if false else MUGGINS, owner=owner).say(lang)


@dataclass(frozen=True, slots=True)
class LaidCall:
    """The call of the last card of ``pile`` as it was laid, with ``last`` for the last
    card: kept in a game's history and said in each phone's language.

    >>> from pegboard.rules.cards import parse_cards
    >>> said = LaidCall(tuple(parse_cards(["10H", "5C"])), last=1)
    >>> said.say(), said.say("sv")
    ('fifteen for two, and one for the last card', 'femton, två poäng och en för sistan')
    """

    pile: tuple[Card, ...]
    last: int = 0

    def say(self, lang: str = "en") -> str:
        return play_call(score_play(self.pile[:-1], self.pile[-1]), lang, self.last)


_COUNTS = {
    # Translators: a player's count in the show ("Ann's hand"); {whose} is the player's
    # name made possessive as your language does it (Ann's, Anns, Thomas', Annin): see
    # Whose in pegboard/rules/speech.py.
    "hand": N_("{whose} hand"),
    "crib": N_("{whose} crib"),
    "play": N_("{whose} play"),
    "starter": N_("{whose} starter"),
}


def _ends(name: str, *endings: str) -> bool:
    return name.lower().endswith(endings)


# A name made possessive, per language: the s of the genitive (an apostrophe alone after
# an s sound; Dutch 's after a vowel; Swedish adds nothing after one), or the Finnish
# genitive (Annan, Bobin).
_POSSESSIVES: dict[str, Callable[[str], str]] = {
    "en": lambda name: f"{name}'s",
    "nl": lambda name: (
        f"{name}'"
        if _ends(name, "s", "x", "z", "sch")
        else f"{name}'s"
        if _ends(name, "a", "i", "o", "u", "y", "é")
        else f"{name}s"
    ),
    "da": lambda name: f"{name}'" if _ends(name, "s", "x", "z") else f"{name}s",
    "de": lambda name: f"{name}'" if _ends(name, "s", "ß", "x", "z", "ce") else f"{name}s",
    "fi": lambda name: f"{name}n" if _ends(name, *"aeiouyäö") else f"{name}in",
    "sv": lambda name: name if _ends(name, "s", "x", "z") else f"{name}s",
}


@dataclass(frozen=True, slots=True)
class Whose:
    """A player's name made possessive in the hearer's language.

    >>> [Whose(name).say(lang) for name, lang in
    ...  [("Ann", "de"), ("Klaus", "de"), ("Anna", "nl"), ("Bob", "fi"), ("Anna", "fi"),
    ...   ("Lars", "sv"), ("Bob", "en")]]
    ['Anns', "Klaus'", "Anna's", 'Bobin', 'Annan', 'Lars', "Bob's"]
    """

    name: str

    def say(self, lang: str = "en") -> str:
        from pegboard.i18n import check_language

        return _POSSESSIVES[check_language(lang)](self.name)


def count_name(name: str | None, kind: str) -> Phrase:
    """Whose count it is: "Ann's hand", "Bob's crib"; a play pegged by hand (nobody's
    turn) is "the play".

    >>> count_name("Ann", "crib").say("sv"), count_name("Bob", "hand").say("fi")
    ('Anns krubba', 'Bobin käsi')
    >>> count_name(None, "play").say("de")
    'das Auslegen'
    """
    if name is None:
        return Phrase(N_("the play"))
    return Phrase.of(_COUNTS[kind], whose=Whose(name))


_SKUNKS = {1: N_("skunk"), 2: N_("double skunk"), 3: N_("triple skunk")}


def skunk_name(level: int, lang: str = "en") -> str:
    """The loser's skunk, 1 (below 91) to 3 (triple, below 31)."""
    if level not in _SKUNKS:
        raise ValueError(f"skunk level {level} is not 1, 2 or 3")
    return translations(lang).gettext(_SKUNKS[level])


def kind_name(kind: str, lang: str = "en") -> str:
    """The label of an Item kind in a breakdown ("fifteen", "pair", "run", ...).

    >>> kind_name("run", "de"), kind_name("fifteen", "fi")
    ('Folge', 'viisitoista')
    """
    return _kind_names(lang)[kind]


def item_name(item: Item, lang: str = "en") -> str:
    """An item of a score by the name the table gives it: a pair of three cards laid in
    a row in the play is a pair royal, of four a double pair royal (every seed names
    them so), not a "pair".

    >>> from pegboard.rules.play import score_play
    >>> from pegboard.rules.cards import Card, parse_cards
    >>> [item_name(i, "de") for i in score_play(parse_cards(["7H", "7C"]), Card.parse("7D")).items]
    ['Drilling']
    """
    if item.kind == "pair" and len(item.cards) > 2:
        t = translations(lang)
        sets = {3: t.pgettext("kind", "pair royal"), 4: t.pgettext("kind", "double pair royal")}
        return sets[len(item.cards)]
    return kind_name(item.kind, lang)


@cache
def _kind_names(lang: str) -> dict[str, str]:
    """The kinds of Item the show and the play score, labelled in ``lang``."""
    t = translations(lang)
    return {
        "fifteen": t.pgettext("kind", "fifteen"),
        "thirty-one": t.pgettext("kind", "thirty-one"),
        "pair": t.pgettext("kind", "pair"),
        "run": t.pgettext("kind", "run"),
        "flush": t.pgettext("kind", "flush"),
        "nobs": t.pgettext("kind", "nobs"),
    }
