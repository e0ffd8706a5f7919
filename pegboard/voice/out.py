"""Where spoken samples go, behind one small interface (:class:`Output`):

- :class:`Player`: the computer's audio, through whichever player is there
  (``aplay`` for ALSA, as on the Pi; ``paplay`` for PulseAudio; ``pw-play`` for PipeWire);
- :class:`Files`: a WAV file per sentence in a folder, each with a JSON note of what
  was said (``--sim`` on a computer with no audio, or to listen later);
- :class:`Silent`: nothing at all (no samples are even made).

:func:`open_output` picks one at start-up; importing this module plays nothing.
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import shutil
import subprocess
import time
import wave
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from pegboard.errors import ConfigError
from pegboard.i18n import N_, Phrase
from pegboard.voice.engine import Speech, VoiceError

log = logging.getLogger(__name__)

KINDS = ("auto", "audio", "files", "silent")  # also the values of the config's voice.out
# Each player reading 16-bit mono samples on its stdin; {rate} is the sample rate.
PLAYERS = {
    "pw-play": ("pw-play", "--format=s16", "--channels=1", "--rate={rate}", "-"),
    "paplay": ("paplay", "--raw", "--format=s16le", "--channels=1", "--rate={rate}"),
    "aplay": ("aplay", "-q", "-t", "raw", "-f", "S16_LE", "-c", "1", "-r", "{rate}", "-"),
}
POLL_SECONDS = 0.05  # while a player finishes, a cut is seen this soon


class Output:
    """Takes sentences as they are spoken. A back-end overrides ``_begin``, ``_write``
    and ``_end``; ``wants_audio`` False means it needs no samples (none are made)."""

    wants_audio = True
    where = Phrase(N_("somewhere"))  # for people: "through aplay", "into WAV files in …"

    def play(self, speech: Speech, label: str, stop: Callable[[], bool] = lambda: False) -> bool:
        """Hand ``speech``'s samples over as they come, until ``stop()`` says otherwise
        (checked between chunks). True if all of it went out."""
        self._begin(speech, label)
        whole = False
        try:
            for chunk in speech:
                if stop():
                    break
                self._write(chunk)
            else:
                whole = True
        finally:
            speech.close()
            whole = self._end(speech, whole, stop) and whole
        return whole

    def _begin(self, speech: Speech, label: str) -> None:
        pass

    def _write(self, samples: bytes) -> None:
        pass

    def _end(self, speech: Speech, whole: bool, stop: Callable[[], bool]) -> bool:
        return whole

    def close(self) -> None:
        """Release the output (safe twice)."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__}>"


class Silent(Output):
    """Says nothing; the voice still keeps what it would have said."""

    wants_audio = False
    where = Phrase.of(
        N_("to nobody (silent: no audio output, or {setting})"), setting="[voice] out = silent"
    )


class Player(Output):
    """The computer's audio through ``player`` (a key of :data:`PLAYERS`), one player
    process a sentence: a cut stops it at once."""

    def __init__(self, player: str) -> None:
        if player not in PLAYERS:
            raise ConfigError(f"no audio player {player!r}; known: {', '.join(PLAYERS)}")
        self.player = player
        self.where = Phrase.of(N_("through {player}"), player=player)
        self._playing: _Playing | None = None

    def __repr__(self) -> str:
        return f"<Player {self.player}>"

    def _begin(self, speech: Speech, label: str) -> None:
        args = [arg.format(rate=speech.sample_rate) for arg in PLAYERS[self.player]]
        try:
            process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE
            )
        except OSError as error:
            raise VoiceError(f"{self.player}: {error.strerror}") from error
        assert process.stdin is not None and process.stderr is not None  # both piped
        self._playing = _Playing(process, process.stdin, process.stderr)

    def _sentence(self) -> _Playing:
        assert self._playing is not None  # play() begins a sentence before it writes or ends
        return self._playing

    def _write(self, samples: bytes) -> None:
        playing = self._sentence()
        try:
            playing.stdin.write(samples)
        except BrokenPipeError:
            raise VoiceError(_gone(playing, self.player)) from None

    def _end(self, speech: Speech, whole: bool, stop: Callable[[], bool]) -> bool:
        playing, self._playing = self._sentence(), None
        process = playing.process
        with contextlib.suppress(BrokenPipeError):
            playing.stdin.close()
        while whole and process.poll() is None:  # the player plays what it was handed
            try:
                process.wait(POLL_SECONDS)
            except subprocess.TimeoutExpired:
                whole = not stop()
        if process.poll() is None:
            process.kill()
            process.wait()
        elif whole and process.returncode != 0:
            raise VoiceError(_gone(playing, self.player))
        playing.stderr.close()
        return whole

    def close(self) -> None:
        if self._playing is not None and self._playing.process.poll() is None:
            self._playing.process.kill()


@dataclass(frozen=True)
class _Playing:
    """The player process of one sentence, with the pipes to its stdin and from its stderr."""

    process: subprocess.Popen[bytes]
    stdin: IO[bytes]
    stderr: IO[bytes]


def _gone(playing: _Playing, player: str) -> str:
    playing.process.wait()
    said = playing.stderr.read().decode("utf-8", "replace").strip().splitlines()
    return f"{player}: {said[-1] if said else f'exit status {playing.process.returncode}'}"


class Files(Output):
    """A WAV file per sentence in ``folder``: ``0001-counts.wav`` and ``0001-counts.json``
    (the text, the language, the engine's voice, its phonemes when kept, and whether
    the sentence was spoken whole). ``paced``, each sentence takes as long to write as
    it takes to say, as through a speaker: the voice keeps up with the game as the
    board's does (and an undo cuts a sentence short in the same place)."""

    def __init__(self, folder: Path, *, paced: bool = False) -> None:
        self.folder, self.paced = Path(folder), paced
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise VoiceError(cannot_write(self.folder, error)) from error
        self.written: list[Path] = []
        self.where = Phrase.of(N_("into WAV files in {folder}"), folder=str(self.folder))
        self._wav: Wav | None = None

    def __repr__(self) -> str:
        return f"<Files {self.folder}>"

    def _begin(self, speech: Speech, label: str) -> None:
        number = len(self.written) + 1
        self._wav = Wav(self.folder / f"{number:04d}-{label}.wav", speech.sample_rate)

    def _sentence(self) -> Wav:
        assert self._wav is not None  # play() begins a sentence before it writes or ends
        return self._wav

    def _write(self, samples: bytes) -> None:
        wav = self._sentence()
        wav.write(samples)
        if self.paced:
            time.sleep(len(samples) / 2 / wav.sample_rate)

    def _end(self, speech: Speech, whole: bool, stop: Callable[[], bool]) -> bool:
        wav, self._wav = self._sentence(), None
        wav.close()
        note = {
            "text": speech.text,
            "lang": speech.lang,
            "voice": speech.voice,
            "phonemes": speech.phonemes,
            "whole": whole,
        }
        made = wav.path.with_suffix(".json.new")  # whole or not there: a reader never
        made.write_text(json.dumps(note, ensure_ascii=False), "utf-8")  # sees half a note
        made.replace(wav.path.with_suffix(".json"))
        self.written.append(wav.path)
        return whole


class Wav:
    """A 16-bit mono WAV file being written (its header is made right on :meth:`close`)."""

    def __init__(self, path: Path, sample_rate: int) -> None:
        try:
            self._file = open(path, "wb")  # noqa: SIM115 (closed by close())
        except OSError as error:
            raise VoiceError(cannot_write(path, error)) from error
        self.path, self.sample_rate = path, sample_rate
        self._wav = wave.open(self._file, "wb")  # noqa: SIM115 (closed by close())
        self._wav.setnchannels(1)
        self._wav.setsampwidth(2)
        self._wav.setframerate(sample_rate)

    def write(self, samples: bytes) -> None:
        self._wav.writeframes(samples)

    def close(self) -> None:
        """Finish the file (safe twice)."""
        try:
            self._wav.close()
        finally:
            self._file.close()


def save(speeches: Iterable[Speech], path: Path) -> Path:
    """Write ``speeches``, one after another, to the WAV file ``path`` (none is left
    behind half-written)."""
    wav = None
    try:
        for speech in speeches:
            try:
                wav = wav or Wav(path, speech.sample_rate)
                for chunk in speech:
                    wav.write(chunk)
            finally:
                speech.close()
        if wav is not None:
            wav.close()
    except BaseException as error:
        if wav is not None:
            wav.close()
            path.unlink(missing_ok=True)
        if isinstance(error, OSError) and not isinstance(error, VoiceError):
            raise VoiceError(cannot_write(path, error)) from error
        raise
    return path


def cannot_write(path: Path, error: OSError) -> Phrase:
    reason = error.strerror or str(error)
    return Phrase.of(N_("cannot write {path}: {reason}"), path=str(path), reason=reason)


def find_player(environ: Mapping[str, str] = os.environ) -> str | None:
    """The player for this computer's audio, or None when it has none: PipeWire or
    PulseAudio when their server runs for this user, else ALSA when a sound card is there."""
    runtime = Path(environ.get("XDG_RUNTIME_DIR") or f"/run/user/{os.getuid()}")
    servers = {
        "pw-play": (runtime / "pipewire-0").exists(),
        "paplay": bool(environ.get("PULSE_SERVER")) or (runtime / "pulse" / "native").exists(),
        "aplay": _sound_card(),
    }
    for player, running in servers.items():
        if running and shutil.which(player):
            return player
    return None


def _sound_card(cards: Path = Path("/proc/asound/cards")) -> bool:
    try:
        return "no soundcards" not in cards.read_text() and bool(cards.read_text().strip())
    except OSError:
        return False


def open_output(kind: str, folder: Path | None = None) -> Output:
    """The output ``kind`` (one of :data:`KINDS`): ``auto`` is the computer's audio when
    it has some, else silence; ``audio`` insists; ``files`` writes to ``folder``."""
    if kind == "silent":
        return Silent()
    if kind == "files":
        if folder is None:
            needs = N_("{key} = {value} needs a folder for the WAV files")
            raise ConfigError(Phrase.of(needs, key="voice.out", value="files"))
        return Files(folder, paced=True)
    if kind in ("auto", "audio"):
        player = find_player()
        if player is not None:
            return Player(player)
        if kind == "audio":
            raise VoiceError(Phrase(N_("there is no audio output here to speak through")))
        log.info("voice: no audio output here; the board stays silent")
        return Silent()
    one_of = N_("{key} is one of {choices}; not {value}")  # as the game's settings say it
    raise ConfigError(
        Phrase.of(one_of, key="voice.out", choices=", ".join(KINDS), value=repr(kind))
    )
