"""`pegboard doctor` says a test phrase in the board's language, through the voice the
config asks for, and reports what it could not do."""

from __future__ import annotations

import io
import shutil

import pytest
from voicing import listen, note, sentences

from pegboard.config import load_config
from pegboard.maker import doctor
from pegboard.maker.voice_check import VOICE

FAST = "[pins.settings]\nbounce_time = 0.002\nhold_time = 0.15\n"


def run(text: str, lang: str = "en") -> tuple[int, list[str]]:
    out = io.StringIO()
    code = doctor.run(load_config(text=text + FAST), sim=True, out=out, lang=lang)
    voice = VOICE.say(lang)
    return code, [line for line in out.getvalue().splitlines() if f"  {voice}:" in line]


@pytest.mark.slow
def test_the_doctor_says_the_test_phrase_into_the_configured_wav_files(tmp_path):
    folder = tmp_path / "voice"
    code, said = run(f'[board]\nlanguage = "sv"\n[voice]\nout = "files"\nfolder = "{folder}"\n')
    phrase = "Brädet talar: femton två, femton fyra och ett par är sex."
    assert said == [f"PASS  voice: said {phrase!r} into WAV files in {folder}: did you hear it?"]
    assert code == 0
    [wav] = sentences(folder)
    assert note(wav)["text"] == phrase and note(wav)["lang"] == "sv"
    heard = listen(wav)
    assert heard.voiced > 1.5 and heard.rms > 0.05 and heard.clipped == 0


@pytest.mark.slow
def test_the_test_phrase_is_in_the_boards_language_and_the_report_in_the_readers(tmp_path):
    board = f'[board]\nlanguage = "sv"\n[voice]\nout = "files"\nfolder = "{tmp_path}"\n'
    code, said = run(board, lang="de")
    assert code == 0
    phrase = "Brädet talar: femton två, femton fyra och ett par är sex."
    assert said == [
        f"PASS  Sprachausgabe: {phrase!r} in WAV-Dateien in {tmp_path} gesagt: hast du es gehört?"
    ]


def test_without_espeak_the_voice_fails_and_says_how_to_get_it(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    code, said = run(f'[voice]\nout = "files"\nfolder = "{tmp_path}"\n')
    assert said == [
        "FAIL  voice: espeak-ng is not installed: install it (apt-get install espeak-ng) "
        "to hear the board"
    ]
    assert code == 1


def test_a_voice_turned_off_or_with_nowhere_to_speak_is_skipped(tmp_path, monkeypatch):
    assert run("[voice]\nenabled = false\n")[1] == ["SKIP  voice: off ([voice] enabled = false)"]
    only_espeak = tmp_path / "bin"  # espeak-ng, and no audio player at all
    only_espeak.mkdir()
    (only_espeak / "espeak-ng").symlink_to(shutil.which("espeak-ng"))
    monkeypatch.setenv("PATH", str(only_espeak))
    code, said = run("")  # out = auto
    assert said == ["SKIP  voice: no audio output: see the guide, Audio"]
    assert code == 0
