"""The doctor's camera check: with ``[camera] enabled`` (else there is nothing to check,
and the report says nothing of a camera), the board's camera takes a photo of a card held
under it and the card reader reads it; the report names the cards read, or says in one
line what is wrong (no picamera2, no camera, a failed shot, a photo with no card read).

A person at the terminal is asked to hold a card under the camera and press Enter; with no
one to ask (``--sim``, a script) the photo is taken at once.
"""

from __future__ import annotations

from typing import TextIO

from pegboard.camera import open_camera
from pegboard.config import Config
from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase, phrase_of
from pegboard.maker.report import FAIL, PASS, Result
from pegboard.maker.sight import Keyboard

CAMERA = Phrase(N_("camera"))


def check_camera(
    config: Config, sim: bool, out: TextIO, lang: str, keyboard: Keyboard | None = None
) -> Result | None:
    """A photo of a card held under the camera, read: PASS naming the cards read (an
    unsure one marked ``?``); None when the board has no camera enabled."""
    from pegboard.reader import read

    if not config.camera["enabled"]:
        return None
    hold = Phrase(N_("hold a card under the camera")).say(lang)
    try:
        camera = open_camera(config.camera, sim=sim)
        assert camera is not None  # enabled: a camera, or a CameraError
        with camera:
            if keyboard is None:
                print(f"      {hold}", file=out, flush=True)
            else:
                ask = Phrase.of(N_("{hold}, then press Enter"), hold=hold).say(lang)
                keyboard.ask(ask, lambda typed: True, ask)
            reading = read(camera.shoot(), photo="camera")
    except PegboardError as error:
        return Result(CAMERA, FAIL, phrase_of(error))
    cards = " ".join(f"{seen.card}{'' if seen.sure else '?'}" for seen in reading.cards)
    said = Phrase.of(N_("read {cards} ({where})"), cards=cards, where=camera.where)
    return Result(CAMERA, PASS, said)
