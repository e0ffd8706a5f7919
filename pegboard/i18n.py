"""Languages: gettext catalogues for the board's calls, the command line and the panel.

The catalogues live in ``pegboard/locale/<lang>/LC_MESSAGES/messages.po`` (the source a
translator edits) next to ``messages.mo`` (compiled, committed: nothing to build at install).
That is Flask-Babel's own layout with its default domain ``messages``, so the panel needs
only ``BABEL_TRANSLATION_DIRECTORIES = str(LOCALE_DIR)`` (an absolute path is used as is).
English is the source language: the msgids are the English text, and ``en``'s catalogue
carries only its header (an empty msgstr falls back to the msgid).

Adding or changing a message (Babel's ``pybabel``; its mapping is ``[tool.babel]`` in
pyproject.toml, extracting Python from pegboard/, templates and scripts from web/)::

    pybabel extract -F pyproject.toml -c Translators: --add-location=file --no-wrap \\
        --sort-by-file --project pegboard --version 0.1.0 \\
        --copyright-holder "the pegboard developers" -o pegboard/locale/messages.pot pegboard web
    pybabel update -i pegboard/locale/messages.pot -d pegboard/locale --no-wrap --ignore-obsolete
    # translate every new or fuzzy entry in the five .po files, then
    pybabel compile -d pegboard/locale

Pure code holds no language of its own: it takes a ``lang`` and looks the catalogue up
with :func:`translations` (cached, read once). Messages use ``str.format`` placeholders
(``"fifteen {total}"``), filled in after translation; where a count changes the words,
``ngettext``. What the board keeps to say later to every phone (a history line, the last
verdict) is a :class:`Phrase`: each phone hears it in its own language.

The panel reads each phone's language with Flask-Babel (see :mod:`pegboard.panel`); its
page carries its words in the template, so its script needs no catalogue of its own.

>>> translations("de").gettext("a pair")
'ein Paar'
>>> negotiate("fr-CH, fr;q=0.9, de-DE;q=0.8, en;q=0.5"), negotiate(None, default="sv")
('de', 'sv')
>>> language_of("de_DE.UTF-8"), language_of("C.UTF-8")
('de', None)
"""

from __future__ import annotations

import gettext
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

from pegboard.errors import ConfigError

SOURCE = "en"
LANGUAGES = ("en", "nl", "da", "de", "fi", "sv")
# Each language by its own name, for a language switch.
NAMES = {
    "en": "English",
    "nl": "Nederlands",
    "da": "Dansk",
    "de": "Deutsch",
    "fi": "Suomi",
    "sv": "Svenska",
}
DOMAIN = "messages"  # Flask-Babel's default domain
LOCALE_DIR = Path(__file__).with_name("locale")
# Where the command line looks for a language, first hit wins (POSIX order after our own).
ENVIRONMENT = ("PEGBOARD_LANG", "LC_ALL", "LC_MESSAGES", "LANG")


def N_(message: str) -> str:
    """Mark ``message`` for extraction; translate it later where the language is known."""
    return message


@dataclass(frozen=True, slots=True)
class Phrase:
    """A message said later, in the language of whoever hears it: the board keeps one
    phrase and each phone hears it in its own language.

    ``message`` is a msgid (mark it with :func:`N_` where it is written), ``params`` its
    placeholders: numbers, names, cards, or anything sayable (a phrase, a call) in turn.

    >>> play = Phrase(N_("the play"))
    >>> said = Phrase.of(N_("{count} has not been counted yet"), count=play)
    >>> str(said), said.say("de")
    ('the play has not been counted yet', 'das Auslegen ist noch nicht gezählt')
    """

    message: str
    params: tuple[tuple[str, Any], ...] = ()

    @classmethod
    def of(cls, message: str, **params: Any) -> Phrase:
        return cls(message, tuple(params.items()))

    @classmethod
    def as_is(cls, text: str) -> Phrase:
        """``text`` said as it stands (no template: its braces are not placeholders).

        >>> Phrase.as_is("a {brace} of no template").say("de")
        'a {brace} of no template'
        """
        return cls(text.replace("{", "{{").replace("}", "}}"))

    def say(self, lang: str = SOURCE) -> str:
        """The phrase in ``lang``, its placeholders said in ``lang`` too."""
        if not self.message:  # silence (gettext("") would be the catalogue's header)
            return ""
        words = {name: _said(value, lang) for name, value in self.params}
        return translations(lang).gettext(self.message).format(**words)

    def __str__(self) -> str:
        return self.say(SOURCE)


def phrase_of(error: BaseException) -> Phrase:
    """What an error says, in any language: its :class:`Phrase`, or a plain sentence
    said as it stands.

    >>> from pegboard.errors import RuleError
    >>> error = RuleError(Phrase.of(N_("{card} is given twice"), card="5♥"))
    >>> str(error), phrase_of(error).say("de")
    ('5♥ is given twice', '5♥ ist doppelt angegeben')
    >>> phrase_of(RuleError("a {sentence} of no template")).say("fi")
    'a {sentence} of no template'
    """
    said = error.args[0] if len(error.args) == 1 else None
    return said if isinstance(said, Phrase) else Phrase.as_is(str(error))


def _said(value: Any, lang: str) -> Any:
    return value.say(lang) if hasattr(value, "say") else value


def language_of(tag: str | None) -> str | None:
    """The supported language of a tag like ``de``, ``de-AT``, ``fi_FI.UTF-8``, or None."""
    if not tag:
        return None
    primary = tag.strip().split(".")[0].replace("_", "-").split("-")[0].lower()
    return primary if primary in LANGUAGES else None


def check_language(lang: str) -> str:
    """``lang`` as a supported language code, or a ConfigError that lists them."""
    found = language_of(lang)
    if found is None:
        message = N_("language {lang} is not one of {languages}")
        raise ConfigError(Phrase.of(message, lang=repr(lang), languages=", ".join(LANGUAGES)))
    return found


@cache
def translations(lang: str = SOURCE) -> gettext.NullTranslations:
    """The catalogue of ``lang`` (read once); ``gettext``, ``ngettext``, ``pgettext`` on it."""
    return gettext.translation(DOMAIN, LOCALE_DIR, [check_language(lang)])


def negotiate(header: str | None, default: str = SOURCE) -> str:
    """The best supported language for an ``Accept-Language`` header, else ``default``.

    >>> negotiate("da, en-GB;q=0.8"), negotiate("en;q=0, nl;q=0.1"), negotiate("*")
    ('da', 'nl', 'en')
    """
    wanted: list[tuple[float, int, str]] = []
    for order, part in enumerate((header or "").split(",")):
        tag, _, params = part.partition(";")
        quality = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        lang = language_of(tag)
        if lang is not None and quality > 0:
            wanted.append((-quality, order, lang))
    return min(wanted)[2] if wanted else check_language(default)


def from_environment(environ: Mapping[str, str]) -> str:
    """The command line's language: ``PEGBOARD_LANG``, then the locale, else English.

    A ``PEGBOARD_LANG`` the board does not speak is an error; a system locale it does
    not speak (``C``, ``ja_JP``) falls back to English.

    >>> from_environment({"LANG": "sv_SE.UTF-8"}), from_environment({"LC_ALL": "C"})
    ('sv', 'en')
    """
    chosen = environ.get("PEGBOARD_LANG", "").strip()
    if chosen:
        try:
            return check_language(chosen)
        except ConfigError as error:
            said = Phrase.of(
                N_("{variable}: {problem}"), variable="PEGBOARD_LANG", problem=phrase_of(error)
            )
            raise ConfigError(said) from None
    for name in ENVIRONMENT[1:]:
        if environ.get(name):  # the first locale variable set decides, as in POSIX
            return language_of(environ[name]) or SOURCE
    return SOURCE
