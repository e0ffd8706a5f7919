"""A whole deal, announced in each of the board's six languages through the real
espeak-ng into WAV files: each file is speech of a plausible length and level, not
clipped, and says the expected sentence in that language's voice (the phonemes
espeak-ng wrote while making that very file are its phonemes of the sentence)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from voicing import listen, note, play_a_deal, sentences

from pegboard.board.layout import load_layout
from pegboard.game import Table
from pegboard.i18n import LANGUAGES
from pegboard.keeper import Scorekeeper
from pegboard.voice import Espeak, Files, Voice, phonemes

WAIT = 60.0  # seconds the voice may take to say one entry on a busy machine

# The deal of voicing.play_a_deal, as each language says it (written from its rules and
# its catalogue, by hand): new game, heels, the play's scores with who scored them, a go, a
# run, the go that ends the count and its point, the last card, the refused 19, Bob's
# count as claimed (Muggins is on: its verdict waits), Muggins and what Bob's cards held,
# Ann's over-count into the game, told as claimed; her crib closes its window: what her
# cards held, and the win (at the target, 22: by fifteen).
DEAL = {
    "en": [
        "New game: Ann deals first.",
        "Ann: two for his heels",
        "Ann: fifteen for two",
        "Bob: twenty for two",
        "Bob says go.",
        "Ann: thirty for three",
        "Ann says go.",
        "Ann: one for the go",
        "Bob: twenty-two, and one for the last card",
        "no hand of four cards can score nineteen (a hand with nothing is called nineteen: peg 0)",
        "Bob's hand: four.",
        "Muggins! Ann takes five.",
        "Bob's hand held nine: five missed.",
        "Ann's hand: fourteen.",
        "Ann's hand held eight: six over, and it stands.",
        "Ann wins by fifteen.",
    ],
    "nl": [
        "Nieuw spel: Ann deelt eerst.",
        "Ann: twee voor his heels",
        "Ann: vijftien voor twee",
        "Bob: twintig voor twee",
        "Bob zegt Go.",
        "Ann: dertig voor drie",
        "Ann zegt Go.",
        "Ann: één voor de Go",
        "Bob: tweeëntwintig, en één voor de laatste kaart",
        "geen hand van vier kaarten kan negentien punten halen "
        "(een hand zonder punten heet negentien: pen 0)",
        "Bobs hand: vier.",
        "Muggins! Ann krijgt vijf.",
        "Bobs hand was negen waard: vijf gemist.",
        "Anns hand: veertien.",
        "Anns hand was acht waard: zes te veel, en het blijft staan.",
        "Ann wint met vijftien punten verschil.",
    ],
    "da": [
        "Nyt spil: Ann giver først.",
        "Ann: to for his heels",
        "Ann: femten for to",
        "Bob: tyve for to",
        "Bob siger go.",
        "Ann: tredive for tre",
        "Ann siger go.",
        "Ann: en for go",
        "Bob: toogtyve og en for sidste kort",
        "ingen hånd med fire kort kan give nitten (en hånd uden point: markér 0)",
        "Bobs hånd: fire.",
        "Muggins! Ann får fem.",
        "Bobs hånd gav ni: fem overset.",
        "Anns hånd: fjorten.",
        "Anns hånd gav otte: seks for meget, og det står ved magt.",
        "Ann vinder med femten.",
    ],
    "de": [
        "Neue Partie: Ann gibt zuerst.",
        "Ann: zwei für die Hacken",
        "Ann: fünfzehn macht zwei",
        "Bob: zwanzig macht zwei",
        "Bob sagt passe.",
        "Ann: dreißig macht drei",
        "Ann sagt passe.",
        "Ann: einen fürs Passen",
        "Bob: zweiundzwanzig und einen für die letzte Karte",
        "keine Hand aus vier Karten kann neunzehn Punkte bringen (eine Hand ohne Punkte: stecke 0)",
        "Bobs Hand: vier.",
        "Muggins! Ann bekommt fünf.",
        "Bobs Hand brachte neun: fünf übersehen.",
        "Anns Hand: vierzehn.",
        "Anns Hand brachte acht: sechs zu viel, und es bleibt stehen.",
        "Ann gewinnt mit fünfzehn Punkten Vorsprung.",
    ],
    "fi": [
        "Uusi peli: Ann jakaa ensin.",
        "Ann: kaksi pistettä his heelsistä",
        "Ann: viisitoista, kaksi pistettä",
        "Bob: kaksikymmentä, kaksi pistettä",
        "Bob sanoo go.",
        "Ann: kolmekymmentä, kolme pistettä",
        "Ann sanoo go.",
        "Ann: yksi gosta",
        "Bob: kaksikymmentäkaksi ja yksi viimeisestä kortista",
        "yksikään käsi, jossa on neljä korttia, ei voi antaa yhdeksäntoista pistettä "
        "(pisteetön käsi: merkitse 0)",
        "Bobin käsi: neljä.",
        "Muggins! Ann saa viisi.",
        "Bobin käsi antoi yhdeksän: viisi jäi huomaamatta.",
        "Annin käsi: neljätoista.",
        "Annin käsi antoi kahdeksan: kuusi liikaa, ja se jää voimaan.",
        "Ann voittaa, ero viisitoista.",
    ],
    "sv": [
        "Nytt parti: Ann ger först.",
        "Ann: två för vänd knekt",
        "Ann: femton, två poäng",
        "Bob: tjugo, två poäng",
        "Bob säger stopp.",
        "Ann: trettio, tre poäng",
        "Ann säger stopp.",
        "Ann: en för stopp",
        "Bob: tjugotvå och en för sistan",
        "ingen hand med fyra kort kan ge nitton poäng (en hand utan poäng: notera 0)",
        "Bobs hand: fyra.",
        "Muggins! Ann får fem.",
        "Bobs hand gav nio: fem missade.",
        "Anns hand: fjorton.",
        "Anns hand gav åtta: sex för mycket, och det står kvar.",
        "Ann vinner med femton.",
    ],
}
assert set(DEAL) == set(LANGUAGES)

# Speech at 160 words a minute: each word (and each pause) takes between these.
WORD_SECONDS = (0.12, 0.9)
LOUD_ENOUGH = 0.05  # RMS while speaking, of full scale, at the default volume
TAIL_SECONDS = 0.1  # a sentence ends with its last word: the next may follow at once


@pytest.fixture(scope="module")
def deals():
    """The deal announced in every language, each into its own folder."""
    folders = {}
    with tempfile.TemporaryDirectory() as root:
        for lang in LANGUAGES:
            folder = Path(root) / lang
            table = Table(Path(root) / f"{lang}.db")
            keeper = Scorekeeper(table, load_layout("two-track-121"))
            voice = Voice(keeper, Espeak(volume=0.8, phonemes=True), Files(folder), lang=lang)
            try:
                play_a_deal(keeper, lambda voice=voice: voice.wait_quiet(WAIT))
            finally:
                voice.close()
                table.close()
            folders[lang] = (folder, list(voice.spoken))
        yield folders


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_sentence_of_the_deal_is_said_whole_in_the_language(deals, lang):
    folder, spoken = deals[lang]
    assert [s.text for s in spoken] == DEAL[lang]
    assert all(s.whole for s in spoken)
    written = sentences(folder)
    assert [note(path)["text"] for path in written] == DEAL[lang]
    assert all(note(path)["lang"] == lang and note(path)["whole"] for path in written)


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_file_is_speech_of_its_sentence(deals, lang):
    folder, _ = deals[lang]
    for path, sentence in zip(sentences(folder), DEAL[lang], strict=True):
        heard = listen(path)
        words = len(sentence.split())
        low, high = (words * seconds for seconds in WORD_SECONDS)
        assert low <= heard.seconds <= high + 1.0, f"{path.name}: {heard} for {sentence!r}"
        assert heard.voiced >= 0.4 * low, f"{path.name}: mostly silence: {heard}"
        assert heard.rms >= LOUD_ENOUGH, f"{path.name}: too quiet: {heard}"
        assert heard.clipped == 0, f"{path.name}: clipped: {heard}"
        assert heard.tail <= TAIL_SECONDS, f"{path.name}: silence after the words: {heard}"


@pytest.mark.slow
@pytest.mark.parametrize("lang", LANGUAGES)
def test_the_voice_says_the_sentence_as_that_language_does(deals, lang):
    """The phonemes espeak-ng made while writing each file are its phonemes of the
    expected sentence in this language's voice; another voice would say it otherwise."""
    folder, _ = deals[lang]
    for path, sentence in zip(sentences(folder), DEAL[lang], strict=True):
        said = note(path)["phonemes"]
        assert said == phonemes(sentence, lang), f"{path.name}: {sentence!r}"
        if lang != "en":
            assert said != phonemes(sentence, "en"), f"{path.name}: said as English"


def test_a_longer_sentence_takes_longer_and_a_faster_rate_is_shorter(tmp_path):
    short, long = "fifteen two", "fifteen two, fifteen four, and a double run of three is ten"
    lengths = {}
    for rate in (120, 300):
        engine = Espeak(rate=rate)
        for text in (short, long):
            out = Files(tmp_path / f"{rate}-{len(text)}")
            out.play(engine.speak(text, "en"), "test")
            lengths[rate, text] = listen(out.written[0]).voiced
    assert lengths[120, long] > 2 * lengths[120, short]
    assert lengths[300, long] < 0.7 * lengths[120, long]


def test_the_volume_setting_sets_the_level(tmp_path):
    levels = []
    for volume in (0.3, 1.0):
        out = Files(tmp_path / str(volume))
        out.play(Espeak(volume=volume).speak("thirty-one for two", "en"), "test")
        levels.append(listen(out.written[0]))
    quiet, loud = levels
    assert quiet.rms < 0.5 * loud.rms
    assert loud.clipped == 0
