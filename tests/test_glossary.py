"""The words natives use: each language's catalogue names every cribbage concept with the
term its seed uses (pegboard/locale/glossary.toml), in every message whose English names
it, and never with a word the glossary rules out ("crib'en", "startkort", "passi")."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pegboard.i18n import LANGUAGES, LOCALE_DIR, SOURCE

SEEDS = Path("/work/shared/seeds")
SEED_OF = {
    "nl": "000_7e9fd9c052e9aa2a.txt",
    "da": "001_a3f7c4a31d69a780.txt",
    "de": "002_307ece67e5a82fa7.txt",
    "fi": "003_fc71b3536cc67b43.txt",
    "sv": "004_cdef7274d13ddce5.txt",
}
# Each concept, and how its English is found in a message (placeholders and command-line
# arguments like starter=CARD set aside): "to go" and "go on" are no go.
CONCEPTS = {
    "fifteen": r"\bfifteens?\b",
    "pair royal": r"(?<!double )pair royal",
    "double pair royal": r"double pair royal",
    "run": r"\bruns? of\b|^runs?$",
    "flush": r"\bflush",
    "nobs": r"\bnobs\b",
    "heels": r"\bheels\b",
    "go": r"(?<!to )\bgo\b(?! on| round)",
    "last card": r"last card",
    "crib": r"\bcrib\b",
    "starter": r"\bstarter\b",
    "muggins": r"muggins",
    "skunk": r"skunk",
    "dealer": r"\bdealer",
    "pone": r"\bpone\b",
    "the show": r"\bthe show\b",
    "the play": r"\bthe play\b",
}
GLOSSARY = tomllib.loads((LOCALE_DIR / "glossary.toml").read_text(encoding="utf-8"))
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]


def catalogue(lang: str):
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file)


def texts(value) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def naming(cat, concept: str):
    """The messages whose English names ``concept``: (English, translations)."""
    english = re.compile(CONCEPTS[concept], re.IGNORECASE)
    for message in cat:
        if not message.id:
            continue
        ids = [re.sub(r"\{\w*\}|\b\w+=\S*", "", text) for text in texts(message.id)]
        if any(english.search(text) for text in ids):
            yield texts(message.id)[0], [s for s in texts(message.string) if s]


def test_the_glossary_names_every_concept_in_every_language():
    assert set(GLOSSARY) == set(TRANSLATED)
    for lang, terms in GLOSSARY.items():
        assert set(terms) == set(CONCEPTS), lang


@pytest.mark.parametrize("lang", TRANSLATED)
def test_each_term_is_in_the_seeds_words_or_says_why_not(lang):
    for concept, entry in GLOSSARY[lang].items():
        if entry["seed"]:
            assert re.search(entry["term"], entry["seed"], re.IGNORECASE), (lang, concept)
        else:
            assert entry.get("why"), (lang, concept)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_the_seeds_words_are_quoted_as_they_stand(lang):
    """The quotes are the seed's own (the seeds sit beside the project, not in it)."""
    if not SEEDS.is_dir():
        pytest.skip(f"the seeds are not on this machine ({SEEDS})")
    seed = (SEEDS / SEED_OF[lang]).read_text(encoding="utf-8").casefold()
    for concept, entry in GLOSSARY[lang].items():
        assert entry["seed"].casefold() in seed, (lang, concept, entry["seed"])


@pytest.mark.parametrize("lang", TRANSLATED)
@pytest.mark.parametrize("concept", CONCEPTS)
def test_the_catalogue_says_each_concept_as_the_seed_does(lang, concept):
    entry = GLOSSARY[lang][concept]
    term = re.compile(entry["term"], re.IGNORECASE)
    cat = catalogue(lang)
    named = list(naming(cat, concept))
    assert named, f"no message names {concept}"
    wrong = {
        english: said
        for english, translations in named
        for said in translations
        if not term.search(said)
    }
    assert wrong == {}, f"{lang}: {concept} is not said as {entry['term']!r}"
    for avoid in entry.get("avoid", []):
        found = [s for message in cat for s in texts(message.string) if s and re.search(avoid, s)]
        assert found == [], f"{lang}: {avoid!r} is not the seed's word"


def test_the_check_sees_a_word_the_seed_does_not_use():
    """The check above can fail: a Danish message with crib'en, a Swedish startkort."""
    danish, swedish = GLOSSARY["da"]["crib"], GLOSSARY["sv"]["starter"]
    assert any(
        re.search(avoid, "Runde 1: Ann giver, crib'en er Anns.") for avoid in danish["avoid"]
    )
    assert any(re.search(avoid, "ett startkort") for avoid in swedish["avoid"])
    assert not re.search(GLOSSARY["de"]["go"]["term"], "Bob sagt go.", re.IGNORECASE)
