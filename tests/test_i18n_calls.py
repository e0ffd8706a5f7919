"""The count in every language: the calls, the numbers, the cards and the command line,
in the words of the seed rule texts, with no English left but the terms the seeds keep."""

import itertools
import json
import re

import pytest

from pegboard.cli import main
from pegboard.errors import CardError
from pegboard.i18n import LANGUAGES, LOCALE_DIR, SOURCE
from pegboard.rules.cards import DECK, Card, Suit, card_name, parse_cards, rank_word, suit_name
from pegboard.rules.play import score_play
from pegboard.rules.scoring import score_show
from pegboard.rules.speech import (
    go_call,
    go_point_call,
    heels_call,
    kind_name,
    muggins_call,
    number_words,
    play_call,
    show_call,
    skunk_name,
    three_for_last_call,
)

TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]

# English words a translation may still say: the terms its seed text keeps in English, and
# words that are that language's own too. Everything else English is a missing translation.
KEPT = {
    "nl": {"his", "heels", "nobs", "flush", "go", "muggins", "crib", "skunk", "skunks", "royal"}
    | {"triple"}
    | {"show"}  # "de show" in the seed
    | {"is", "hand", "in", "of", "was", "won", "start", "score", "variant", "past"}  # Dutch
    | {"map", "over", "open", "per", "even"}  # Dutch: folder, over (across), open, per, equally
    | {"club", "clubs", "later", "camera"},  # Dutch: club, clubs, later, camera
    "da": {"his", "heels", "nobs", "flush", "go", "muggins", "crib"}
    | {"skunk"}  # no Danish term: the loan the Dutch and Finnish seeds use
    | {"for", "to", "at", "under", "give", "have", "side", "start", "send"}  # Danish words
    | {"version", "match", "variant"}
    | {"over", "hold", "log", "end"}  # Danish: over (across), team, log (ud: out), end (than)
    | {"format", "database"}  # Danish: format, database
    | {"set"},  # Danish: seen
    "de": {"muggins"}  # no German term: the rule's name
    | {"hand", "in", "was", "version", "teams", "minute", "an", "lies", "so", "name", "format"}
    | {"still"},  # German: still (calm)
    "fi": {"his", "heels", "nobs", "muggins", "go"}  # "his heelsistä", "nobsina", "gosta"
    | {"skunk"}  # "skunkattu" in the seed
    | {"on", "version"},  # Finnish: is, of the version
    "sv": {"flush", "muggins", "skunk", "starter"}  # "startern" in the seed
    | {"hand", "in", "under", "given", "version", "match", "variant", "per", "format"},  # Swedish
}


def show(hand, starter, crib=False):
    return score_show(parse_cards(hand.split()), Card.parse(starter), crib=crib)


# One show for each thing a show can call: every run, set and flush name, nobs, nothing.
SHOWS = [
    ("2C 3D 10H 7S", "KH"),  # fifteens
    ("4H 4C 7D 2S", "KD"),  # a pair
    ("4H 4C 4D 2S", "KD"),  # a pair royal
    ("4H 4C 4D 4S", "KD"),  # a double pair royal
    ("JD 4C 6D 9H", "KD"),  # nobs
    ("QH KC AS 9D", "7C"),  # nothing: nineteen
    ("2H 4H 6H 8H", "QH"),  # flush of five
    ("2H 4H 6H 8H", "QC"),  # flush of four
    ("2H 4H 6H", "QC"),  # flush of three (five-card game)
    ("2H 4H 6H 8H QH", "KC"),  # flush of five, hand of five
    ("2H 4H 6H 8H QH KH", "AC"),  # flush of six (shotgun)
    ("2H 4H 6H 8H QH KH", "AH"),  # flush of seven
    ("AC 2D 3H", "8S"),  # run of three
    ("AC 2D 3H 4S", "9S"),  # run of four
    ("AC 2D 3H 4S", "5S"),  # run of five
    ("AC 2D 3H 4S 5C", "6S"),  # run of six
    ("AC 2D 3H 4S 5C 6D", "7S"),  # run of seven
    ("4H 5C 5S 6D", "KD"),  # double run of three
    ("4H 5C 5S 6D", "7D"),  # double run of four
    ("4H 5C 5S 6D 7C", "8D"),  # double run of five
    ("4H 5C 5S 6D 7C 8C", "9D"),  # double run of six
    ("3H 4S 5C 5D", "5S"),  # triple run of three
    ("3H 4S 5C 5D 6C", "5S"),  # triple run of four
    ("3H 4S 5C 5D 6C 7C", "5S"),  # triple run of five
    ("5H 6C 6S 7D", "7H"),  # double double run of three
    ("5H 6C 6S 7D 8C", "7H"),  # double double run of four
    ("5H 6C 6S 7D 8C 9D", "7H"),  # double double run of five
    ("3S 3H 4H 4S 5D 5S", "2C"),  # too tangled to name: runs and pairs apart
    ("5H 5C 5S JD", "5D"),  # twenty-nine
]


# Not words: placeholders (with what a language glues to them, "{name}s"), parameters of
# the API ("hand=5H"), abbreviations (PIN, JSON, ACC), the letters of ranks and suits,
# the command line's options ("--games"), a config table's name ("[camera]"), millimetres (mm).
NOT_WORDS = re.compile(
    r"\w*\{\w+\}\w*|\{\"[^}]*\}|\b[a-z_]+=\S*|\b[A-Z]{2,}s?\b|A 2-10 J Q K|C D H S"
    r"|\bhttps?://\S*|(?<!\S)/\S+|%\(\w+\)[ds]"  # an address, a path, a placeholder
    r"|\b(?:10|[2-9AJQK])[CDHS]\b|--[a-z][a-z-]*|\[[a-z_.]+\]|\bmm\b"
)
# Names, the same in every language: the game, a rule's author, a variant, the board's own name, the
# computer it runs on (a Raspberry Pi), its LED controller (a Raspberry Pi Pico), the Python
# that runs on that, the tool that copies files onto it, and the libraries of the Pi's pins.
NAMES = {
    "grand",  # a Grand Slam: the ACC's award for winning every game of a club night
    "slam",
    "grass",  # Grass Roots: the ACC's programme of club points, named as the ACC names it
    "roots",
    "cribbage",
    "hoyle",
    "shotgun",
    "pegboard",
    "raspberry",
    "pi",
    "pico",
    "micropython",
    "mpremote",
    "gpiozero",
    "spidev",
    "picamera",  # picamera2, the Pi camera's library
    "postgresql",  # the league's database
    "enter",  # the key
    "kb",  # kilobytes, the unit
    "pixels",  # the word in every language of the board
    "joker",  # the card's name in every language of the board
    "jokers",
}


def english_words() -> set[str]:
    """Every word of every English msgid (what is not a word, as in the text checked,
    left out: abbreviations like DIN or GND are no English words)."""
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / "messages.pot").open("rb") as file:
        catalogue = read_po(file)
    words = set()
    for message in catalogue:
        for text in message.id if isinstance(message.id, tuple) else [message.id]:
            words |= set(re.findall(r"[a-z]+", NOT_WORDS.sub(" ", text).lower()))
    return {word for word in words if len(word) > 1 or word == "a"}  # not "s" of "board's"


ENGLISH = english_words()


def english_left(text: str, lang: str) -> set[str]:
    words = set(re.findall(r"[a-zäöåæøüßéë-]+", NOT_WORDS.sub(" ", text).lower()))
    return words & ENGLISH - KEPT[lang] - NAMES


def every_call(lang: str) -> list[str]:
    """Every kind of call the board says, in ``lang``."""
    calls = [show_call(show(hand, starter), lang) for hand, starter in SHOWS]
    laid = parse_cards("10H 5C 5S 5D AC 5H".split())
    calls += [play_call(score_play(laid[:i], card), lang) for i, card in enumerate(laid)]
    calls += [
        play_call(score_play(parse_cards("KH QC JD".split()), Card.parse("AS")), lang, last=1)
    ]
    calls += [go_call(lang), go_point_call(lang), heels_call(lang), three_for_last_call(lang)]
    calls += [muggins_call("Ann", lang), muggins_call("Ann", lang, false=True)]
    calls += [skunk_name(level, lang) for level in (1, 2, 3)]
    calls += [
        kind_name(kind, lang) for kind in ("fifteen", "thirty-one", "pair", "run", "flush", "nobs")
    ]
    return calls


def test_the_shows_cover_every_name_a_show_can_call():
    from pegboard.rules.speech import _FLUSHES, _RUNS, _SETS, _show_phrases

    said = {phrase for hand, starter in SHOWS for phrase, _ in _show_phrases(show(hand, starter))}
    assert said >= {*_RUNS.values(), *_FLUSHES.values(), *_SETS.values()}


def test_english_calls_are_the_traditional_ones():
    assert [show_call(show(h, s)) for h, s in SHOWS[:6]] == [
        "fifteen two, fifteen four",
        "fifteen two, and a pair is four",
        "a pair royal is six",
        "a double pair royal is twelve",
        "fifteen two, and one for his nobs is three",
        "nineteen: nothing to peg",
    ]
    laid = parse_cards("KH QC JD".split())
    peg = score_play(laid, Card.parse("AS"))
    assert play_call(peg, last=1) == "thirty-one for two, and one for the last card"
    assert (
        play_call(score_play(laid[:1], Card.parse("5S")), last=1)
        == "fifteen for two, and one for the last card"
    )
    # the game's own words (pegboard/game/fold.py) for these
    assert (heels_call(), three_for_last_call(), go_point_call(), go_call()) == (
        "two for his heels",
        "three for last",
        "one for the go",
        "go",
    )
    assert muggins_call("Ann") == "muggins on Ann"
    assert muggins_call("Ann", false=True) == "false muggins on Ann"
    assert [skunk_name(n) for n in (1, 2, 3)] == ["skunk", "double skunk", "triple skunk"]


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_call_is_said_in_the_language_with_no_english_left(lang):
    english = every_call("en")
    for call, said in zip(english, every_call(lang), strict=True):
        assert not english_left(said, lang), f"{lang}: {said!r} (for {call!r})"
    assert sum(a != b for a, b in zip(english, every_call(lang), strict=True)) > 0.9 * len(english)


@pytest.mark.slow
@pytest.mark.parametrize("lang", TRANSLATED)
def test_no_catalogue_entry_is_english_left_untranslated(lang):
    from babel.messages.pofile import read_po

    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        catalogue = read_po(file)
    for message in catalogue:
        for text in message.string if isinstance(message.string, tuple) else [message.string]:
            if message.id:
                assert not english_left(text, lang), f"{lang}: {text!r}"


# The calls as the seed texts say them (their words, our numbers).
@pytest.mark.parametrize(
    ("lang", "hand", "starter", "call"),
    [
        ("nl", "4H 4C 7D 8S", "KD", "vijftien twee, vijftien vier, en een paar is zes"),
        ("nl", "JD 4C 6D 9H", "KD", "vijftien twee, en His Nobs is drie"),
        ("nl", "QH KC AS 9D", "7C", "negentien: niets te pennen"),
        ("de", "4H 4C 7D 8S", "KD", "fünfzehn zwei, fünfzehn vier und ein Paar macht sechs"),
        (
            "de",
            "6C 7H 7S 8D",
            "KC",
            "fünfzehn zwei, fünfzehn vier und eine doppelte Dreierfolge macht zwölf",
        ),
        ("da", "4H 4C 7D 8S", "KD", "femten to, femten fire og et par er seks"),
        ("da", "4H 4C 4D 2S", "KD", "tre ens er seks"),
        (
            "fi",
            "8C 7H 7S 6D",
            "2C",
            "viisitoista kaksi, viisitoista neljä, viisitoista kuusi, "
            "viisitoista kahdeksan ja kolmen kortin tuplasuora on kuusitoista",
        ),
        ("sv", "4H 4C 7D 8S", "KD", "femton två, femton fyra och ett par är sex"),
        (
            "sv",
            "JS 10H 10C 9D",
            "9S",
            "en dubbel dubbelsekvens på tre är sexton och en för knekten är sjutton",
        ),
    ],
)
def test_calls_in_the_words_of_the_seeds(lang, hand, starter, call):
    assert show_call(show(hand, starter), lang) == call


def test_a_five_card_run_and_the_plays_in_german_and_finnish():
    laid = parse_cards("4H 2C 3D 5S".split())
    pegs = [score_play(laid[:i], card) for i, card in enumerate(laid)]
    assert [play_call(p, "de") for p in pegs] == [
        "vier",
        "sechs",
        "neun macht drei",
        "vierzehn macht vier",
    ]
    assert play_call(pegs[-1], "fi") == "neljätoista, neljä pistettä"
    one = score_play(parse_cards(["10H", "4C"]), Card.parse("AD"))
    assert play_call(one, "fi") == "viisitoista, kaksi pistettä"
    assert (
        play_call(score_play([], Card.parse("AS")), "fi", last=1)
        == "yksi ja yksi viimeisestä kortista"
    )
    assert play_call(score_play([], Card.parse("AS")), "sv", last=1) == "ett och en för sistan"


@pytest.mark.parametrize(
    ("lang", "words"),
    [  # numbers as the seed texts write them
        ("nl", {7: "zeven", 13: "dertien", 15: "vijftien", 19: "negentien", 31: "eenendertig"}),
        ("de", {4: "vier", 7: "sieben", 17: "siebzehn", 19: "neunzehn", 31: "einunddreißig"}),
        (
            "sv",
            {3: "tre", 13: "tretton", 15: "femton", 17: "sjutton", 19: "nitton", 31: "trettioett"},
        ),
        ("da", {2: "to", 6: "seks", 12: "tolv", 16: "seksten", 29: "niogtyve", 31: "enogtredive"}),
        ("fi", {2: "kaksi", 3: "kolme", 4: "neljä", 5: "viisi", 6: "kuusi", 16: "kuusitoista"}),
        ("en", {0: "zero", 15: "fifteen", 31: "thirty-one", 121: "one hundred twenty-one"}),
    ],
)
def test_number_words_as_the_seeds_write_them(lang, words):
    assert {n: number_words(n, lang) for n in words} == words


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_number_to_999_has_its_own_words(lang):
    said = [number_words(n, lang) for n in range(1000)]
    assert len(set(said)) == 1000 and all(said)
    if lang in ("nl", "de", "fi", "sv"):  # written as one word
        assert not any(" " in words for words in said)
    with pytest.raises(ValueError, match="1000 is not a number from 0 to 999"):
        number_words(1000, lang)


@pytest.mark.parametrize(
    ("lang", "n", "words"),
    [
        ("nl", 22, "tweeëntwintig"),
        ("nl", 23, "drieëntwintig"),
        ("nl", 101, "honderdeen"),
        ("nl", 121, "honderdeenentwintig"),
        ("nl", 200, "tweehonderd"),
        ("da", 50, "halvtreds"),
        ("da", 91, "enoghalvfems"),
        ("da", 121, "hundrede og enogtyve"),
        ("de", 21, "einundzwanzig"),
        ("de", 61, "einundsechzig"),
        ("de", 121, "hunderteinundzwanzig"),
        ("de", 600, "sechshundert"),
        ("fi", 11, "yksitoista"),
        ("fi", 90, "yhdeksänkymmentä"),
        ("fi", 91, "yhdeksänkymmentäyksi"),
        ("fi", 200, "kaksisataa"),
        ("sv", 18, "arton"),
        ("sv", 40, "fyrtio"),
        ("sv", 61, "sextioett"),
        ("sv", 121, "hundratjugoett"),
    ],
)
def test_number_words_of_the_awkward_numbers(lang, n, words):
    assert number_words(n, lang) == words


@pytest.mark.parametrize(
    ("lang", "names"),
    [
        ("en", ["ace of spades", "jack of hearts", "queen of diamonds", "ten of clubs"]),
        ("nl", ["schoppenaas", "hartenboer", "ruitendame", "klaverentien"]),
        ("da", ["spar es", "hjerter knægt", "ruder dame", "klør ti"]),
        ("de", ["Pik-Ass", "Herz-Bube", "Karo-Dame", "Kreuz-Zehn"]),
        ("fi", ["pataässä", "herttasotamies", "ruuturouva", "ristikymppi"]),
        ("sv", ["spader ess", "hjärter knekt", "ruter dam", "klöver tia"]),
    ],
)
def test_card_names_in_each_language(lang, names):
    assert [card_name(Card.parse(c), lang) for c in ("AS", "JH", "QD", "10C")] == names


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_has_its_own_name(lang):
    assert len({card_name(card, lang) for card in DECK}) == 52


def test_court_cards_and_suits_as_the_seeds_name_them():
    assert [rank_word(r, "nl") for r in (1, 11, 12, 13)] == ["aas", "boer", "dame", "heer"]
    assert [rank_word(r, "de") for r in (1, 11, 12, 13)] == ["Ass", "Bube", "Dame", "König"]
    assert [rank_word(r, "da") for r in (1, 11, 12, 13)] == ["es", "knægt", "dame", "konge"]
    assert [rank_word(r, "fi") for r in (1, 11, 12, 13)] == [
        "ässä",
        "sotamies",
        "rouva",
        "kuningas",
    ]
    assert [rank_word(r, "sv") for r in (1, 11, 12, 13)] == ["ess", "knekt", "dam", "kung"]
    assert [suit_name(s, "de") for s in Suit] == ["Kreuz", "Karo", "Herz", "Pik"]
    with pytest.raises(CardError, match="rank 14"):
        rank_word(14)


# --- the command line ----------------------------------------------------------------------


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(autouse=True)
def english_machine(monkeypatch):
    """A machine whose own locale says nothing: each test sets what it means."""
    for name in ("PEGBOARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(name, raising=False)


def test_the_command_line_counts_in_german(capsys):
    code, out, _ = run(capsys, "--lang", "de", "score", "5H", "5C", "5S", "JD", "--starter", "5D")
    lines = out.splitlines()
    assert code == 0
    assert lines[0] == "Hand 5♥ 5♣ 5♠ J♦  Startkarte 5♦"
    assert lines[1].split()[0] == "Fünfzehn" and lines[-3].split()[0] == "Kopf"
    assert lines[-2].split() == ["Summe", "29"]
    assert lines[-1].endswith("und einen für den Kopf macht neunundzwanzig")
    assert lines[-1].startswith("fünfzehn zwei, fünfzehn vier, fünfzehn sechs")


@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_breakdown_stays_a_table_in_every_language(capsys, lang):
    _, out, _ = run(capsys, "--lang", lang, "score", "4H", "5C", "5S", "6D", "-s", "2C", "--crib")
    rows = out.splitlines()[1:-1]  # the items and the total, between heading and call
    assert len({len(row) for row in rows}) == 1, out  # the points line up
    assert rows[-1].split()[-1] == "12"
    assert not english_left(out, lang) if lang != "en" else "fifteen" in out


def test_json_keeps_english_keys_and_says_the_call_in_the_language(capsys):
    _, out, _ = run(capsys, "--lang", "sv", "score", "4H", "4C", "7D", "8S", "-s", "KD", "--json")
    data = json.loads(out)
    assert data["call"] == "femton två, femton fyra och ett par är sex"
    assert [item["kind"] for item in data["items"]] == ["fifteen", "fifteen", "pair"]
    assert {
        "hand",
        "starter",
        "crib",
        "total",
        "fifteens",
        "pairs",
        "runs",
        "flush",
        "nobs",
    } <= set(data)


def test_the_play_in_danish(capsys):
    code, out, _ = run(capsys, "--lang", "da", "play", "4H", "2C", "3D", "5S", "5H")
    assert code == 0
    assert out.splitlines()[2] == " 3♦  tælling  9   3  række 3"
    assert out.splitlines()[4] == " 5♥  tælling 19   2  par 2"
    _, out, _ = run(capsys, "--lang", "da", "play", "--json", "KH", "QC", "AD")
    assert json.loads(out)[-1]["call"] == "enogtyve"


def test_the_language_comes_from_the_environment(capsys, monkeypatch):
    monkeypatch.setenv("LANG", "fi_FI.UTF-8")
    _, out, _ = run(capsys, "score", "4H", "4C", "7D", "8S", "-s", "KD")
    assert out.splitlines()[-1] == "viisitoista kaksi, viisitoista neljä ja pari on kuusi"
    monkeypatch.setenv("PEGBOARD_LANG", "nl")
    _, out, _ = run(capsys, "score", "4H", "4C", "7D", "8S", "-s", "KD")
    assert out.splitlines()[-1] == "vijftien twee, vijftien vier, en een paar is zes"
    _, out, _ = run(capsys, "--lang", "en", "score", "4H", "4C", "7D", "8S", "-s", "KD")
    assert out.splitlines()[-1] == "fifteen two, fifteen four, and a pair is six"


def test_a_language_the_board_does_not_speak_is_refused(capsys, monkeypatch):
    monkeypatch.setenv("PEGBOARD_LANG", "fr")
    code, out, err = run(capsys, "score", "4H", "4C", "7D", "8S", "-s", "KD")
    assert (code, out) == (2, "")
    assert err == "pegboard: PEGBOARD_LANG: language 'fr' is not one of en, nl, da, de, fi, sv\n"
    with pytest.raises(SystemExit) as refused:
        main(["--lang", "fr", "score", "4H", "4C", "7D", "8S", "-s", "KD"])
    assert refused.value.code == 2
    assert "invalid choice: 'fr'" in capsys.readouterr().err


def test_random_hands_call_in_every_language_without_error():
    import random

    rng = random.Random(9)
    for size, lang in itertools.product((3, 4, 5, 6), LANGUAGES):
        for _ in range(40):
            cards = rng.sample(DECK, size + 1)
            said = show_call(score_show(cards[:-1], cards[-1]), lang)
            assert said and "{" not in said
