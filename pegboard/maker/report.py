"""What the maker's tools say: one line of the doctor's report (a part, PASS, FAIL or
SKIP, and what was found), and the yes and no a person types, in their language.

The markers PASS, FAIL and SKIP stay as they are in every language (scripts and tests
read them; the exit status says whether anything failed); the rest is said in the
language of whoever reads it.

>>> from pegboard.i18n import N_, Phrase
>>> result = Result(Phrase(N_("link")), PASS, Phrase.as_is("synced"))
>>> print(result.line()); print(result.line("de"))
PASS  link: synced
PASS  Verbindung: synced
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from pegboard.i18n import SOURCE, translations

PASS, FAIL, SKIP = "PASS", "FAIL", "SKIP"


class Sayable(Protocol):
    def say(self, lang: str = ...) -> str: ...


@dataclass(frozen=True)
class Result:
    """One line of the report."""

    name: Sayable
    status: str
    detail: Sayable

    def line(self, lang: str = SOURCE) -> str:
        return f"{self.status}  {self.name.say(lang)}: {self.detail.say(lang)}"


def answers(lang: str = SOURCE) -> tuple[str, str]:
    """The words for yes and no in ``lang``, as a person types them.

    >>> answers(), answers("de"), answers("fi")
    (('yes', 'no'), ('ja', 'nein'), ('kyllä', 'ei'))
    """
    t = translations(lang)
    # Translators: typed on a terminal to say yes (an LED is lit); its first letter is
    # taken too, so the first letters of yes and no must differ.
    yes = t.pgettext("answer", "yes")
    # Translators: typed on a terminal to say no; its first letter is taken too.
    no = t.pgettext("answer", "no")
    return yes, no


def heard(typed: str, lang: str = SOURCE) -> bool | None:
    """What a person typed: True for yes, False for no, None for anything else. The
    language's own words and their first letters count, and y, yes, n, no in any.

    >>> [heard(typed, "de") for typed in ("J", "nein", "y", "no", "vielleicht")]
    [True, False, True, False, None]
    >>> heard("k", "fi"), heard("ei", "fi"), heard("nee", "nl")
    (True, False, False)
    """
    said = typed.strip().lower()
    for meaning, english, own in zip((True, False), answers(SOURCE), answers(lang), strict=True):
        if said in {english, own, english[0], own[0]}:
            return meaning
    return None
