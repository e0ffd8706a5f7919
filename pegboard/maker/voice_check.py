"""The doctor's voice check: the board says a test phrase, in its language, the way the
config's [voice] table tells it to (the speaker, WAV files), and a person listens.

>>> test_phrase("de")
'Das Brett spricht: fünfzehn zwei, fünfzehn vier und ein Paar macht sechs.'
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from pegboard.config import Config
from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase
from pegboard.maker.report import FAIL, PASS, SKIP, Result
from pegboard.rules.cards import Card, parse_cards
from pegboard.rules.scoring import score_show
from pegboard.rules.speech import show_call
from pegboard.voice import Espeak, Silent, open_output

# "fifteen two, fifteen four, and a pair is six": numbers, a call and the language at once.
SHOW = ("4H 4C 7D 8S", "KD")


def test_phrase(lang: str) -> str:
    hand, starter = SHOW
    call = show_call(score_show(parse_cards(hand.split()), Card.parse(starter)), lang)
    return Phrase.of(N_("The board speaks: {call}."), call=call).say(lang)


def check_voice(config: Config, sim: bool) -> Result:
    """Say the test phrase; PASS when the engine and the output took all of it."""
    settings = config.voice
    if not settings["enabled"]:
        return Result("voice", SKIP, "off ([voice] enabled = false)")
    if settings["out"] == "silent":
        return Result("voice", SKIP, 'silent ([voice] out = "silent")')
    folder = Path(settings["folder"] or Path(tempfile.gettempdir()) / "pegboard-voice")
    lang = config.board["language"]
    try:
        engine = Espeak(rate=settings["rate"], volume=settings["volume"]).check()
        out = open_output(settings["out"], folder)
    except PegboardError as error:
        return Result("voice", FAIL, str(error))
    if isinstance(out, Silent):  # auto, with no audio output here
        return Result("voice", SKIP if sim else FAIL, "no audio output: see the guide, Audio")
    phrase = test_phrase(lang)
    try:
        whole = out.play(engine.speak(phrase, lang), "doctor")
    except PegboardError as error:
        return Result("voice", FAIL, str(error))
    finally:
        out.close()
    if not whole:
        return Result("voice", FAIL, f"the test phrase was cut short {out.where}")
    return Result("voice", PASS, f"said {phrase!r} {out.where}: did you hear it?")
