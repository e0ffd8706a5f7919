"""The doctor's voice check: the board says a test phrase, in its language, the way the
config's [voice] table tells it to (the speaker, WAV files), and a person listens. The
phrase is said in the board's language; the report of it in the reader's.

>>> test_phrase("de")
'Das Brett spricht: fünfzehn zwei, fünfzehn vier und ein Paar macht sechs.'
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pegboard.config import Config
from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.maker.report import FAIL, PASS, SKIP, Result
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import score_show
from pegboard.rules.speech import show_call
from pegboard.voice import Espeak, Silent, open_output

# "fifteen two, fifteen four, and a pair is six": numbers, a call and the language at once.
SHOW = ("4H 4C 7D 8S", "KD")
AUDIO_SECTION = "Audio"  # the maker's guide's heading on sound (hardware/README.md), as it stands


def test_phrase(lang: str) -> str:
    hand, starter = SHOW
    call = show_call(score_show(parse_cards(hand.split()), Card.parse(starter)), lang)
    return Phrase.of(N_("The board speaks: {call}."), call=call).say(lang)


VOICE = Phrase(N_("voice"))


def check_voice(config: Config, sim: bool) -> Result:
    """Say the test phrase; PASS when the engine and the output took all of it."""
    settings = config.voice
    if not settings["enabled"]:
        off = Phrase.of(N_("off ({setting})"), setting="[voice] enabled = false")
        return Result(VOICE, SKIP, off)
    if settings["out"] == "silent":
        silent = Phrase.of(N_("silent ({setting})"), setting='[voice] out = "silent"')
        return Result(VOICE, SKIP, silent)
    folder = Path(settings["folder"] or Path(tempfile.gettempdir()) / "pegboard-voice")
    lang = config.board["language"]
    try:
        engine = Espeak(rate=settings["rate"], volume=settings["volume"]).check()
        out = open_output(settings["out"], folder)
    except PegboardError as error:
        return Result(VOICE, FAIL, phrase_of(error))
    if isinstance(out, Silent):  # auto, with no audio output here
        nowhere = Phrase.of(N_("no audio output: see the guide, {section}"), section=AUDIO_SECTION)
        return Result(VOICE, SKIP if sim else FAIL, nowhere)
    phrase = test_phrase(lang)
    try:
        whole = out.play(engine.speak(phrase, lang), "doctor")
    except PegboardError as error:
        return Result(VOICE, FAIL, phrase_of(error))
    finally:
        out.close()
    if not whole:
        cut = Phrase.of(N_("the test phrase was cut short {where}"), where=out.where)
        return Result(VOICE, FAIL, cut)
    said = N_("said {phrase} {where}: did you hear it?")
    return Result(VOICE, PASS, Phrase.of(said, phrase=repr(phrase), where=out.where))
