"""The voice never gets in the way: it follows the front door from its own thread, drops
what play has left behind, cuts what an undo takes back, repeats on a long press, and
keeps quiet where it was told to. Real espeak-ng, real WAV files, a real game file."""

from __future__ import annotations

import json
import os
import re
import signal
import stat
import subprocess
import sys
import threading
import urllib.request
from http.cookiejar import CookieJar
from pathlib import Path

import pytest
from conftest import FAST_PINS
from voicing import listen, note, play_a_deal, sentences
from waiting import eventually

from pegboard.config import load_config
from pegboard.voice import Espeak, Files, Player, Silent, Voice, VoiceError, open_voice
from pegboard.voice.out import find_player

WAIT = 60.0  # seconds the voice may take on a busy machine


class Stalling(Files):
    """A sound card that stalls on the first samples of a kind of sentence until let go."""

    def __init__(self, folder: Path, on: str) -> None:
        super().__init__(folder)
        self.on, self.label = on, ""
        self.stalled, self.go = threading.Event(), threading.Event()

    def _begin(self, speech, label):
        self.label = label
        super()._begin(speech, label)

    def _write(self, samples):
        if self.label == self.on and not self.go.is_set():
            self.stalled.set()
            assert self.go.wait(WAIT), "never let go"
        super()._write(samples)


@pytest.fixture
def speaking(keeper, tmp_path):
    """Build a voice on ``keeper`` (closed after the test)."""
    made = []

    def speaking(out, **options):
        made.append(Voice(keeper, Espeak(), out, **options))
        return made[-1]

    yield speaking
    for voice in made:
        voice.close()


def said(voice):
    return [(s.text, s.whole) for s in voice.spoken]


@pytest.mark.subprocess
def test_entries_never_wait_for_the_voice_and_piled_up_scores_are_said_together(
    keeper, speaking, tmp_path
):
    out = Stalling(tmp_path / "voice", on="game")
    voice = speaking(out)
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    assert out.stalled.wait(WAIT)
    # The voice is stuck in its first sentence; the game goes on without it.
    keeper.turn_starter("JH")  # his heels
    keeper.lay("10C", "Bob")
    keeper.lay("5D", "Ann")  # fifteen for two: not yet said when the next card is laid
    keeper.lay("5S", "Bob")  # twenty for two
    keeper.go("Ann")  # a go is stale once play moves on; a score never is
    keeper.lay("5H", "Bob")  # twenty-five for six
    assert keeper.state.scores == (4, 8)
    assert not voice.spoken, "an entry waited for the voice"
    out.go.set()
    assert voice.wait_quiet(WAIT)
    assert said(voice) == [
        ("New game: Ann deals first.", True),
        ("Ann: two for his heels", True),
        ("Ann two, Bob two, and Bob six", True),
    ]
    assert [note(path)["text"] for path in sentences(out.folder)] == [t for t, _ in said(voice)]


@pytest.mark.subprocess
def test_an_undo_cuts_what_it_takes_back_even_mid_sentence(keeper, speaking, tmp_path):
    out = Stalling(tmp_path / "voice", on="counts")
    voice = speaking(out)
    keeper.new_game({"players": ["Ann", "Bob"], "over_count": "penalise"}, dealer=1)
    keeper.turn_starter("2C")
    keeper.advance()
    keeper.claim("Ann", 10, cards="5D 6H 4H 3C")  # 9 with the 2♣: over, and Bob pegs 1
    assert out.stalled.wait(WAIT)  # saying Ann's count; Bob's penalty waits its turn
    keeper.undo()
    out.go.set()
    assert voice.wait_quiet(WAIT)
    assert said(voice) == [
        ("New game: Bob deals first.", True),
        ("Ann's hand: ten… over by one, nine pegged.", False),
        ("Undone.", True),
    ]
    cut = sentences(out.folder)[1]
    assert not note(cut)["whole"]
    assert listen(cut).seconds < 1.0  # the first samples only


@pytest.mark.subprocess
def test_an_undo_leaves_what_is_still_true(keeper, speaking, tmp_path):
    out = Stalling(tmp_path / "voice", on="heels")
    voice = speaking(out)
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=1)
    keeper.turn_starter("JD")  # two for his heels: stalls
    assert out.stalled.wait(WAIT)
    keeper.lay("10C", "Ann")
    keeper.undo()  # takes back the card, not the heels
    out.go.set()
    assert voice.wait_quiet(WAIT)
    assert said(voice) == [
        ("New game: Bob deals first.", True),
        ("Bob: two for his heels", True),
        ("Undone.", True),
    ]


@pytest.mark.subprocess
def test_a_repeat_says_the_last_sentence_again(keeper, speaking, tmp_path):
    voice = speaking(Files(tmp_path / "voice"))
    assert not voice.repeat()  # nothing said yet
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    keeper.turn_starter("JH")
    assert voice.wait_quiet(WAIT)
    assert voice.repeat()
    assert voice.wait_quiet(WAIT)
    assert [text for text, _ in said(voice)][-2:] == ["Ann: two for his heels"] * 2
    assert len(sentences(tmp_path / "voice")) == 3


@pytest.mark.subprocess
def test_only_the_chosen_announcements_are_said(keeper, speaking, tmp_path):
    voice = speaking(Files(tmp_path / "voice"), events=["counts", "win"], lang="de")
    play_a_deal(keeper, lambda: voice.wait_quiet(WAIT))
    assert [text for text, _ in said(voice)] == [
        "Bobs Hand: vier.",  # Muggins is on: the verdict waits for the call
        "Anns Hand: vierzehn.",  # over, and into the game: kept until the crib
        "Ann gewinnt mit fünfzehn Punkten Vorsprung.",
    ]


def test_a_player_who_cannot_see_the_cards_hears_each_by_its_name_when_asked(keeper, speaking):
    """Off unless asked (the players say their own cards); asked ([voice] events naming
    "cards"), the board says the starter, each lay and each show by the cards' names."""
    plain = speaking(Silent())
    heard = speaking(Silent(), events=["cards", "counts"], lang="nl")
    play_a_deal(keeper, lambda: plain.wait_quiet(WAIT) and heard.wait_quiet(WAIT))
    assert not any("ten of clubs" in text for text, _ in said(plain))
    told = [text for text, _ in said(heard)]
    assert told[:2] == ["De starterkaart: hartenboer.", "Bob legt klaverentien: tien."]
    assert "Ann legt ruitenvijf: vijftien voor twee." in told
    shows = [text for text in told if " toont " in text]
    assert shows == [
        "Bobs hand toont klaverentien, schoppenvijf, ruitennegen en ruitenheer; de starterkaart, "
        "hartenboer.",
        "Anns hand toont ruitenvijf, hartenzes, hartenvier en klaverendrie; de starterkaart, "
        "hartenboer.",
    ]  # the crib, made after the win stood, is not counted: nor shown


def test_a_silent_voice_makes_no_sound_but_knows_what_it_would_say(keeper, speaking):
    voice = speaking(Silent())
    keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    keeper.turn_starter("JH")
    assert voice.wait_quiet(WAIT)
    assert said(voice) == [("New game: Ann deals first.", True), ("Ann: two for his heels", True)]
    assert voice.repeat()


VOICE = {"enabled": True, "out": "files", "folder": "", "volume": 0.8, "rate": 160}
EVERYTHING = {**VOICE, "events": ["counts"]}


def without_espeak(monkeypatch, tmp_path):
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))


def test_a_voice_that_must_speak_without_espeak_is_a_clear_error(keeper, tmp_path, monkeypatch):
    without_espeak(monkeypatch, tmp_path)
    with pytest.raises(VoiceError, match=r"espeak-ng is not installed: install it \(apt-get"):
        open_voice(keeper, EVERYTHING, "en", tmp_path / "voice")


def test_auto_without_espeak_or_audio_keeps_quiet(keeper, tmp_path, monkeypatch):
    without_espeak(monkeypatch, tmp_path)
    voice = open_voice(keeper, {**EVERYTHING, "out": "auto"}, "en", tmp_path / "voice")
    try:
        assert isinstance(voice.out, Silent)
    finally:
        voice.close()
    assert open_voice(keeper, {**EVERYTHING, "enabled": False}, "en", tmp_path) is None


def test_audio_insisted_on_where_there_is_none_is_a_clear_error(keeper, tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))  # no sound server here
    monkeypatch.setenv("PATH", str(tmp_path))  # and no player
    monkeypatch.delenv("PULSE_SERVER", raising=False)
    with pytest.raises(VoiceError, match="no audio output"):
        open_voice(keeper, {**EVERYTHING, "out": "audio"}, "en", tmp_path)


def fake_player(folder: Path, name: str) -> Path:
    """A stand-in for the system's audio player: keeps its arguments and what it was fed."""
    script = folder / name
    script.write_text(
        f'#!/bin/sh\necho "$@" > {folder}/args\ncat > {folder}/fed\n', encoding="utf-8"
    )
    script.chmod(script.stat().st_mode | stat.S_IEXEC)
    return script


@pytest.mark.subprocess
def test_the_computers_audio_gets_the_samples_through_its_player(tmp_path, monkeypatch):
    """With a PulseAudio server for this user and its player on the PATH, the voice speaks
    through it: raw 16-bit mono samples at espeak-ng's rate, on the player's stdin."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    fake_player(bin_dir, "paplay")
    (tmp_path / "pulse").mkdir()
    (tmp_path / "pulse" / "native").touch()
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(tmp_path))
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert find_player() == "paplay"
    speech = Espeak().speak("thirty-one for two", "en")
    assert Player("paplay").play(speech, "pegging")
    args = (bin_dir / "args").read_text().split()
    assert args == ["--raw", "--format=s16le", "--channels=1", f"--rate={speech.sample_rate}"]
    fed = (bin_dir / "fed").read_bytes()
    assert 0.5 < len(fed) / 2 / speech.sample_rate < 5  # seconds of samples


def test_the_voice_speaks_of_a_change_once_the_leds_show_it(keeper, speaking):
    asked = []  # (the change's version, sentences said so far) each time the voice asks

    def shown(version: int, timeout: float) -> bool:
        asked.append((version, len(voice.spoken)))
        return True

    voice = speaking(Silent(), shown=shown)
    started = keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
    assert voice.wait_quiet(WAIT)
    heels = keeper.turn_starter("JC")
    assert voice.wait_quiet(WAIT)
    assert said(voice) == [("New game: Ann deals first.", True), ("Ann: two for his heels", True)]
    assert asked == [(started.version, 0), (heels.version, 1)]  # each before its sentence


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_board_speaks_its_dial_refusals_and_a_long_press_repeats(tmp_path):
    """The running board: the voice wired to the door, the advance button's long press
    through the door to the voice (and the simulated board's button on a phone), the WAV
    files in the data folder."""
    from pegboard.panel.actions import act
    from pegboard.service import Board

    text = f'[board]\nlanguage = "nl"\n[voice]\nout = "files"\n{FAST_PINS}'
    with Board(load_config(text=text), tmp_path, sim=True) as board:
        board.keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
        board.controls.sim_turn(0, 1)
        board.controls.sim_press(0)  # the starter: heels is 2 or nothing, not 1
        assert board.keeper.settle(WAIT) and board.voice.wait_quiet(WAIT)
        board.controls.sim_advance(hold=True)  # say it again
        assert board.keeper.settle(WAIT) and board.voice.wait_quiet(WAIT)
        assert board.keeper.state.starter is None  # the long press moved nothing on
        act(board.keeper, "sim_repeat", {}, sim=True)  # "Say it again" on a phone
        assert board.voice.wait_quiet(WAIT)
    refusal = "de starterkaart geeft de deler twee voor his heels, of niets"
    texts = [note(path)["text"] for path in sentences(tmp_path / "voice")]
    assert texts == ["Nieuw spel: Ann deelt eerst.", refusal, refusal, refusal]


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_short_press_on_advance_still_moves_on(tmp_path):
    from pegboard.service import Board

    text = f'[voice]\nout = "files"\n{FAST_PINS}'
    with Board(load_config(text=text), tmp_path, sim=True) as board:
        board.controls.sim_advance()  # no game yet: a game of the house rules
        assert board.keeper.settle(WAIT)
        assert board.keeper.state is not None
        assert board.voice.wait_quiet(WAIT)
    assert [note(path)["text"] for path in sentences(tmp_path / "voice")] == [
        "New game: Player 1 deals first."
    ] or [note(path)["text"] for path in sentences(tmp_path / "voice")] == [
        "New game: Player 2 deals first."
    ]


@pytest.mark.slow
@pytest.mark.subprocess
def test_the_simulated_board_writes_its_voice_into_wav_files_when_asked(tmp_path):
    """`pegboard serve --sim --wav DIR`: a game started from a phone is announced into DIR."""
    folder = tmp_path / "spoken"
    config = tmp_path / "config.toml"
    config.write_text('[board]\npin = "1357"\nlanguage = "fi"\n')
    command = [sys.executable, "-m", "pegboard.cli", "serve", "--sim", "--port", "0"]
    command += ["--data", str(tmp_path / "data"), "--config", str(config), "--wav", str(folder)]
    process = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = [process.stdout.readline()]
        while lines[-1] and not lines[-1].startswith("pegboard: the board speaks"):
            lines.append(process.stdout.readline())
        assert lines[-1] == f"pegboard: the board speaks into WAV files in {folder}\n", lines
        port = re.search(r"panel at http://\S+:(\d+)/", lines[0]).group(1)
        base = f"http://127.0.0.1:{port}"
        opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(CookieJar()))

        def call(path, body=None, csrf=""):
            data = None if body is None else json.dumps(body).encode()
            headers = {"Content-Type": "application/json", "X-CSRF-Token": csrf}
            request = urllib.request.Request(base + path, data=data, headers=headers)
            with opener.open(request, timeout=10) as response:
                return json.load(response)

        csrf = call("/api/session")["csrf"]
        call("/api/login", {"pin": "1357"}, csrf)
        csrf = call("/api/session")["csrf"]
        call("/api/act/new_game", {"players": ["Ann", "Bob"], "dealer": 1}, csrf)
        eventually(lambda: any(folder.glob("*.json")), timeout=WAIT)
        [spoken] = sentences(folder)
        eventually(lambda: spoken.with_suffix(".json").stat().st_size > 0, timeout=WAIT)
        assert note(spoken)["text"] == "Uusi peli: Bob jakaa ensin."
        assert listen(spoken).voiced > 0.5
    finally:
        process.send_signal(signal.SIGTERM)
        process.wait(timeout=30)
