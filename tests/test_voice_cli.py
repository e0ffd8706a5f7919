"""`pegboard score … --wav FILE` and `pegboard play … --wav FILE` speak the call into a
WAV file in the chosen language; a file that cannot be written, or no espeak-ng, is one
line and exit status 2, and leaves nothing behind."""

from __future__ import annotations

import wave

import pytest
from voicing import listen

from pegboard.cli import main
from pegboard.voice import Espeak


def run(capsys, *argv):
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def samples(path) -> bytes:
    with wave.open(str(path)) as wav:
        return wav.readframes(wav.getnframes())


def spoken(*texts: str, lang: str) -> bytes:
    """What espeak-ng says of ``texts``, one after another, at the command's settings."""
    engine = Espeak()
    return b"".join(b"".join(engine.speak(text, lang)) for text in texts)


def test_score_speaks_the_call_in_the_language(capsys, tmp_path):
    path = tmp_path / "call.wav"
    code, out, err = run(capsys, "--lang", "nl", "score", "4H", "4C", "7D", "8S", "-s", "KD")
    assert (code, err) == (0, "")
    code, out_with_wav, err = run(
        capsys, "--lang", "nl", "score", "4H", "4C", "7D", "8S", "-s", "KD", "--wav", str(path)
    )
    assert (code, err, out_with_wav) == (0, "", out)  # the table and call as without it
    call = "vijftien twee, vijftien vier, en een paar is zes"
    assert out.splitlines()[-1] == call
    assert samples(path) == spoken(call, lang="nl")
    heard = listen(path)
    assert 1.5 < heard.voiced < 6 and heard.rms > 0.05 and heard.clipped == 0


def test_play_speaks_each_call_in_turn(capsys, tmp_path):
    path = tmp_path / "play.wav"
    code, _, err = run(capsys, "--lang", "de", "play", "10H", "5C", "5S", "--wav", str(path))
    assert (code, err) == (0, "")
    calls = ("zehn", "fünfzehn macht zwei", "zwanzig macht zwei")
    assert samples(path) == spoken(*calls, lang="de")


def test_a_file_that_cannot_be_written_is_one_line_and_exit_2(capsys, tmp_path):
    path = tmp_path / "no such folder" / "call.wav"
    code, out, err = run(capsys, "score", "5H", "5C", "5S", "JD", "-s", "5D", "--wav", str(path))
    assert code == 2 and out == ""
    assert err == f"pegboard: cannot write {path}: No such file or directory\n"
    code, out, err = run(
        capsys, "--lang", "sv", "play", "10H", "5C", "--wav", str(tmp_path)
    )  # a folder, not a file
    assert code == 2 and out == ""
    assert err.startswith(f"pegboard: kan inte skriva {tmp_path}: ") and err.count("\n") == 1


def test_without_espeak_the_command_says_how_to_get_it(capsys, tmp_path, monkeypatch):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    path = tmp_path / "call.wav"
    code, out, err = run(capsys, "score", "5H", "5C", "5S", "JD", "-s", "5D", "--wav", str(path))
    assert (code, out) == (2, "")
    assert err == (
        "pegboard: espeak-ng is not installed: install it (apt-get install espeak-ng) "
        "to hear the board\n"
    )
    assert not path.exists()


@pytest.mark.parametrize("argv", [["score", "5H", "5C", "5S", "XX", "-s", "5D"], ["play", "ZZ"]])
def test_bad_cards_write_no_file(capsys, tmp_path, argv):
    path = tmp_path / "call.wav"
    code, out, err = run(capsys, *argv, "--wav", str(path))
    assert code == 2 and out == "" and err.count("\n") == 1
    assert not path.exists()
