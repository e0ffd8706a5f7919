"""The cribbage words each language keeps in English, said as its players say them: the
board's espeak-ng voices are given their own phonemes or a respelling where they would
read the word by their own spelling (pegboard.voice.engine.SAYS), and the phonemes
espeak-ng makes show it: Dutch "Go" with a g, not the fricative of "goed"; Swedish
"flush" with the sj-sound, not an s and an h."""

from __future__ import annotations

import shutil

import pytest
from needs import missing

from pegboard.voice import Espeak
from pegboard.voice.engine import SAYS, phonemes


@pytest.fixture(autouse=True)
def espeak():
    if shutil.which("espeak-ng") is None:
        missing("espeak-ng (apt-get install espeak-ng)")


def raw(text: str, lang: str) -> str:
    """What the voice would say of ``text`` as it is spelled (no respelling)."""
    import subprocess

    from pegboard.voice.engine import VOICES

    args = ["espeak-ng", "-q", "-x", "-v", VOICES[lang], "--stdin"]
    return subprocess.run(
        args, input=text, capture_output=True, text=True, check=True
    ).stdout.strip()


@pytest.mark.parametrize(
    ("lang", "sentence", "wrong", "right"),
    [
        ("nl", "Bob zegt Go.", "Q'o:", "g'o:"),  # a plosive g, as English says it
        ("nl", "Ann: één voor de Go", "Q'o:", "g'o:"),
        ("nl", "twee voor his heels", "h'e:ls", "h'i:ls"),
        ("nl", "Muggins! Ann krijgt vijf.", "m'8QIns", "m'8gIns"),
        ("sv", "Anns krubba ger flush", "fl'8sh", "fl'aS"),  # sj, not s then h
        ("fi", "kaksi pistettä his heelsistä", "h'e:ls", "h'i:ls"),
    ],
)
@pytest.mark.subprocess
def test_a_kept_english_word_is_said_as_the_table_says_it(lang, sentence, wrong, right):
    assert wrong in raw(sentence, lang)  # the voice alone gets it wrong
    said = phonemes(sentence, lang)
    assert right in said and wrong not in said


def test_the_voice_speaks_the_respelled_words(tmp_path):
    """The board's own speech, not just the phonemes helper, gets the respelling."""
    speech = Espeak(phonemes=True).speak("Bob zegt Go.", "nl")
    b"".join(speech)
    assert "g'o:" in speech.phonemes and "Q'o:" not in speech.phonemes


def test_every_respelling_is_of_a_word_the_catalogue_uses():
    """Nothing is respelled that the language's catalogue never says."""
    import re

    from pegboard.i18n import translations

    for lang, words in SAYS.items():
        catalogue = " ".join(str(m) for m in translations(lang)._catalog.values())
        for word, _ in words:
            assert re.search(word, catalogue, re.IGNORECASE), (lang, word)
