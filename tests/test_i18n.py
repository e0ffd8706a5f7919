"""The catalogues: complete, compiled from their source, in step with the code, and
loadable the way the panel (Flask-Babel) and the core (gettext) load them."""

import io
import re
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog
from babel.messages.mofile import read_mo, write_mo
from babel.messages.pofile import read_po

from pegboard.errors import ConfigError
from pegboard.i18n import (
    LANGUAGES,
    LOCALE_DIR,
    NAMES,
    SOURCE,
    check_language,
    from_environment,
    language_of,
    negotiate,
    translations,
)

ROOT = Path(__file__).resolve().parent.parent
TRANSLATED = [lang for lang in LANGUAGES if lang != SOURCE]
PLACEHOLDER = re.compile(r"\{(\w+)\}")
PYBABEL = [sys.executable, "-m", "babel.messages.frontend", "-q"]


def po(lang: str) -> Catalog:
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po").open("rb") as file:
        return read_po(file, locale=lang)


def entries(catalogue: Catalog) -> dict:
    """(context, msgid) -> msgstr of every message but the header."""
    return {(m.context, _key(m.id)): _key(m.string) for m in catalogue if m.id}


def _key(text):
    return text if isinstance(text, str) else tuple(text)


def compiled(catalogue: Catalog) -> tuple[dict, dict]:
    """The messages and headers (less the compiler's version) of a compiled catalogue."""
    headers = {k: v for k, v in catalogue.mime_headers if k != "Generated-By"}
    return entries(catalogue), headers


@pytest.mark.parametrize("lang", LANGUAGES)
def test_each_mo_is_a_fresh_compile_of_its_po(lang):
    fresh = io.BytesIO()
    write_mo(fresh, po(lang))
    fresh.seek(0)
    with (LOCALE_DIR / lang / "LC_MESSAGES" / "messages.mo").open("rb") as shipped:
        assert compiled(read_mo(shipped)) == compiled(read_mo(fresh)), (
            f"{lang}: messages.mo is stale: run `pybabel compile -d pegboard/locale`"
        )


@pytest.mark.parametrize("lang", TRANSLATED)
def test_every_message_has_a_translation(lang):
    catalogue = po(lang)
    assert catalogue.plural_forms == "nplurals=2; plural=(n != 1);"
    missing = [m.id for m in catalogue if m.id and (m.fuzzy or not all(_forms(m.string)))]
    assert missing == [], f"{lang}: untranslated or fuzzy: {missing}"
    assert not catalogue.obsolete, f"{lang}: obsolete entries: {list(catalogue.obsolete)}"


def _forms(string) -> tuple:
    return string if isinstance(string, tuple) else (string,)


@pytest.mark.parametrize("lang", TRANSLATED)
def test_translations_keep_their_placeholders(lang):
    """A translation names the placeholders its msgid names (else .format() breaks or
    drops a number); a singular may spell out its count, as English "one" does."""
    for message in po(lang):
        if not message.id:
            continue
        ids = _forms(message.id)
        wanted = set(PLACEHOLDER.findall(ids[-1]))
        for i, form in enumerate(_forms(message.string)):
            names = set(PLACEHOLDER.findall(form))
            required = set(PLACEHOLDER.findall(ids[min(i, len(ids) - 1)]))
            assert required <= names <= wanted, f"{lang}: {message.id!r} -> {form!r}"


def test_english_is_the_source_and_needs_no_translation():
    assert all(not any(_forms(m.string)) for m in po(SOURCE) if m.id)
    english = translations(SOURCE)
    assert english.gettext("a pair royal") == "a pair royal"
    assert (
        english.ngettext("{count} for {points}", "{count} for {points}", 2)
        == "{count} for {points}"
    )


@pytest.mark.slow
@pytest.mark.subprocess
def test_catalogues_hold_exactly_the_messages_in_the_code(tmp_path):
    """Extract afresh from pegboard/ and web/: every message is in every catalogue, and no
    catalogue keeps one the code no longer says."""
    template = tmp_path / "messages.pot"
    subprocess.run(
        [*PYBABEL, "extract", "-F", "pyproject.toml", "-o", str(template), "pegboard", "web"],
        cwd=ROOT,
        check=True,
        capture_output=True,
    )
    with template.open("rb") as file:
        in_code = set(entries(read_po(file)))
    assert in_code, "nothing extracted"
    for lang in (*LANGUAGES, "messages.pot"):
        path = (
            LOCALE_DIR / lang
            if lang.endswith(".pot")
            else LOCALE_DIR / lang / "LC_MESSAGES" / "messages.po"
        )
        with path.open("rb") as file:
            held = set(entries(read_po(file)))
        assert held == in_code, (
            f"{path.name} ({lang}): missing {sorted(in_code - held, key=str)}, "
            f"stale {sorted(held - in_code, key=str)}: run the pybabel steps in pegboard/i18n.py"
        )


def test_translations_are_read_once_and_refuse_unknown_languages():
    assert translations("de") is translations("de")
    assert translations("de-DE").gettext("a pair") == "ein Paar"
    with pytest.raises(ConfigError, match="'fr' is not one of en, nl, da, de, fi, sv"):
        translations("fr")
    assert check_language("SV_se.UTF-8") == "sv"
    assert set(NAMES) == set(LANGUAGES)


@pytest.mark.parametrize(
    ("header", "default", "chosen"),
    [
        ("nl-BE,nl;q=0.9,en;q=0.8", "en", "nl"),
        ("fr-FR, fr;q=0.9, fi;q=0.4, de;q=0.7", "en", "de"),  # by quality, not by order
        ("en;q=0.5, sv;q=0.5", "en", "en"),  # a tie keeps the phone's order
        ("ja, zh-CN", "da", "da"),  # nothing we speak: the board's default
        ("de;q=0, da;q=0.2", "en", "da"),  # q=0 means "not this one"
        ("de;q=bogus, fi", "en", "fi"),  # a broken quality counts for nothing
        ("", "fi", "fi"),
        (None, "sv", "sv"),
        ("*", "de", "de"),
    ],
)
def test_negotiate_picks_the_phones_best_language(header, default, chosen):
    assert negotiate(header, default) == chosen


@pytest.mark.parametrize(
    ("environ", "lang"),
    [
        ({"PEGBOARD_LANG": "fi", "LANG": "de_DE.UTF-8"}, "fi"),
        ({"LANG": "de_DE.UTF-8"}, "de"),
        ({"LC_ALL": "nl_NL.UTF-8", "LANG": "de_DE.UTF-8"}, "nl"),
        ({"LC_MESSAGES": "da_DK.UTF-8", "LANG": "de_DE.UTF-8"}, "da"),
        ({"LC_ALL": "C.UTF-8", "LANG": "de_DE.UTF-8"}, "en"),  # LC_ALL decides, even as C
        ({"LANG": "ja_JP.UTF-8"}, "en"),
        ({"PEGBOARD_LANG": " "}, "en"),
        ({}, "en"),
    ],
)
def test_command_line_language_from_the_environment(environ, lang):
    assert from_environment(environ) == lang


def test_a_wrong_pegboard_lang_is_an_error_not_a_silent_fallback():
    with pytest.raises(ConfigError, match="PEGBOARD_LANG: language 'klingon'"):
        from_environment({"PEGBOARD_LANG": "klingon", "LANG": "de_DE.UTF-8"})


def test_language_of_reads_tags_and_locales():
    assert [language_of(t) for t in ("de", "de-AT", "fi_FI.UTF-8", "EN", "pt-BR", "", None)] == [
        "de",
        "de",
        "fi",
        "en",
        None,
        None,
        None,
    ]


def test_flask_babel_serves_the_same_catalogues_to_the_panel():
    """The wiring the panel will use: Flask-Babel pointed at LOCALE_DIR, the phone's
    Accept-Language negotiated, gettext and pgettext in a template."""
    from flask import Flask, render_template_string, request
    from flask_babel import Babel

    app = Flask(__name__)
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(LOCALE_DIR)
    Babel(app, locale_selector=lambda: negotiate(request.headers.get("Accept-Language"), "en"))

    @app.get("/")
    def page():
        return render_template_string(
            "{{ _('a pair') }}|{{ pgettext('rank', 'jack') }}|"
            "{{ ngettext('{count} for {points}', '{count} for {points}', 2) }}"
        )

    client = app.test_client()
    said = {
        lang: client.get("/", headers={"Accept-Language": f"{lang};q=0.9"}).get_data(as_text=True)
        for lang in LANGUAGES
    }
    assert said == {
        "en": "a pair|jack|{count} for {points}",
        "nl": "een paar|boer|{count} voor {points}",
        "da": "et par|knægt|{count} for {points}",
        "de": "ein Paar|Bube|{count} macht {points}",
        "fi": "pari|sotamies|{count}, {points} pistettä",
        "sv": "ett par|knekt|{count}, {points} poäng",
    }
