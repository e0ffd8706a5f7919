"""The speech engine: text in a language -> 16-bit mono samples, as they are made.

:class:`Engine` is the small interface; :class:`Espeak` the real one, espeak-ng (the
Debian and Raspberry Pi OS package), run once per sentence with its audio streamed
back: the first samples come long before the sentence is done. A better engine (say
Piper) would be another subclass of :class:`Engine`.

>>> speech = Espeak().speak("fifteen two", "en")
>>> samples = b"".join(speech)
>>> speech.sample_rate, 0.5 < len(samples) / 2 / speech.sample_rate < 2  # seconds
(22050, True)
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import IO

from pegboard.errors import PegboardError
from pegboard.i18n import LANGUAGES, N_, Phrase, check_language

COMMAND = "espeak-ng"
# espeak-ng's voice for each language the board speaks.
VOICES = {"en": "en", "nl": "nl", "da": "da", "de": "de", "fi": "fi", "sv": "sv"}
assert set(VOICES) == set(LANGUAGES)
RATES = (80, 450)  # words per minute espeak-ng can speak
# The cribbage words a language keeps in English that its espeak-ng voice reads by its own
# spelling, and what it is given instead: its own phonemes ([[...]], the voice's phoneme
# mnemonics) or a respelling. Dutch reads "go" with its fricative g ("gho"), "heels" as
# "hayls" and the gg of "muggins" as a g too; Swedish "flush" as s then h; Finnish the
# "ee" of "heelsistä" as a long e.
SAYS = {
    "nl": ((r"\bgo\b", "[[g'o:]]"), (r"\bheels\b", "[[h'i:ls]]"), (r"\bmuggins\b", "[[m'8gIns]]")),
    "sv": ((r"\bflush\b", "flasch"),),
    "fi": ((r"\bheels", "hiils"),),
}
_SAYS = {
    lang: [(re.compile(word, re.IGNORECASE), said) for word, said in words]
    for lang, words in SAYS.items()
}
WAV_HEADER = 44  # espeak-ng --stdout writes a plain RIFF header, then the samples
CHUNK = 4096
SILENCE_LEVEL = 100  # of 32767: quieter samples after the last word are silence
FADE_SECONDS = 0.04  # of that silence kept, for the last word to fade out
FULL = 90  # espeak-ng's amplitude at volume 1: at its own 100 the loudest vowels touch full scale


class VoiceError(PegboardError, OSError):
    """The board cannot speak: no engine, a voice missing, or audio that cannot be written."""


NOT_INSTALLED = Phrase.of(
    N_("{engine} is not installed: install it ({command}) to hear the board"),
    engine=COMMAND,
    command=f"apt-get install {COMMAND}",
)


class Speech:
    """One sentence being spoken: iterate for its samples (16-bit signed, little-endian,
    mono, ``sample_rate`` per second), in chunks as the engine makes them.

    ``phonemes`` are the engine's own phonemes for the sentence, once it is spoken
    whole (when the engine was asked to keep them). :meth:`close` stops the engine."""

    def __init__(
        self,
        text: str,
        lang: str,
        voice: str,
        sample_rate: int,
        chunks: Iterator[bytes],
        stop: Callable[[], None] = lambda: None,
    ) -> None:
        self.text, self.lang, self.voice = text, lang, voice
        self.sample_rate = sample_rate
        self.phonemes: str | None = None
        self.chunks, self._stop = chunks, stop

    def __iter__(self) -> Iterator[bytes]:
        return self.chunks

    def close(self) -> None:
        """Stop making samples (safe twice)."""
        close = getattr(self.chunks, "close", None)
        if close is not None:
            close()
        self._stop()

    def __repr__(self) -> str:
        return f"<Speech {self.lang} {self.text!r}>"


class Engine:
    """Turns a sentence into speech in one of the board's languages.

    A back-end *must* override :meth:`speak`; ``rate`` is words per minute and
    ``volume`` 0..1 (at 1 as loud as it goes without clipping)."""

    name = "engine"

    def __init__(self, *, rate: int = 160, volume: float = 1.0) -> None:
        low, high = RATES
        if not low <= rate <= high:
            raise VoiceError(f"a speaking rate is {low} to {high} words a minute, not {rate}")
        if not 0 <= volume <= 1:
            raise VoiceError(f"a volume is between 0 and 1, not {volume}")
        self.rate, self.volume = rate, volume

    def speak(self, text: str, lang: str) -> Speech:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} rate={self.rate} volume={self.volume}>"


class Espeak(Engine):
    """espeak-ng, one process a sentence. ``phonemes=True`` keeps its phonemes for each
    sentence (``Speech.phonemes``): what the voice really said, for the tests."""

    name = COMMAND

    def __init__(
        self, *, rate: int = 160, volume: float = 1.0, phonemes: bool = False, command: str = ""
    ) -> None:
        super().__init__(rate=rate, volume=volume)
        self.command = command or COMMAND
        self.keep_phonemes = phonemes

    def check(self) -> Espeak:
        """Raise VoiceError unless the engine is installed; return it."""
        if shutil.which(self.command) is None:
            raise VoiceError(NOT_INSTALLED)
        return self

    def args(self, lang: str) -> list[str]:
        """The command line for a sentence in ``lang`` (the text goes to its stdin)."""
        voice = VOICES[check_language(lang)]
        amplitude = round(self.volume * FULL)
        speed, level = str(self.rate), str(amplitude)
        return [self.command, "-v", voice, "-s", speed, "-a", level, "--stdout", "--stdin"]

    def speak(self, text: str, lang: str) -> Speech:
        args = self.args(lang)
        phonout = None
        if self.keep_phonemes:
            handle, phonout = tempfile.mkstemp(prefix="pegboard-", suffix=".pho")
            os.close(handle)
            args += ["-x", f"--phonout={phonout}"]
        try:
            process = subprocess.Popen(
                args, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
            )
        except FileNotFoundError:
            raise VoiceError(NOT_INSTALLED) from None
        stdin, stdout, stderr = process.stdin, process.stdout, process.stderr
        assert stdin is not None and stdout is not None and stderr is not None  # all piped
        running = _Running(process, stdout, stderr)
        try:
            stdin.write(voiced(text, lang).encode("utf-8"))
            stdin.close()
            header = _read(running, WAV_HEADER)
            if len(header) < WAV_HEADER or header[:4] != b"RIFF":
                raise VoiceError(_failed(running))
        except BaseException:
            process.kill()
            process.wait()
            _remove(phonout)
            raise
        (sample_rate,) = struct.unpack_from("<I", header, 24)
        stop = partial(_stop, running, phonout)
        speech = Speech(text, lang, args[2], sample_rate, iter(()), stop)
        speech.chunks = _samples(running, speech, phonout)
        return speech


@dataclass(frozen=True)
class _Running:
    """espeak-ng speaking one sentence, with the pipes from its stdout and stderr."""

    process: subprocess.Popen[bytes]
    stdout: IO[bytes]
    stderr: IO[bytes]


def _samples(running: _Running, speech: Speech, phonout: str | None) -> Iterator[bytes]:
    """The samples as espeak-ng writes them, but for the silence it leaves after the last
    word (a sentence ends when it is said: the next may follow at once); the process
    ends with the last of them."""
    odd = held = b""  # a chunk may end mid-sample; silence is held until a sound follows
    try:
        while chunk := os.read(running.stdout.fileno(), CHUNK):
            chunk, odd = _whole(odd + chunk)
            end = _sounding(chunk)
            if end:
                yield held + chunk[:end]
                held = chunk[end:]
            else:
                held += chunk
        if held:  # the last word's own fade, no more
            yield held[: 2 * round(speech.sample_rate * FADE_SECONDS)]
        if running.process.wait() != 0:
            raise VoiceError(_failed(running))
        if phonout is not None:
            speech.phonemes = Path(phonout).read_text(encoding="utf-8").strip()
    finally:
        _stop(running, phonout)


def _stop(running: _Running, phonout: str | None) -> None:
    """Kill espeak-ng if it still runs, and tidy up after it (safe twice)."""
    process = running.process
    if process.poll() is None:
        process.kill()
        process.wait()
    running.stdout.close()
    running.stderr.close()
    _remove(phonout)


def _sounding(chunk: bytes) -> int:
    """Where the last sound in ``chunk`` ends (in bytes): 0 when it is all silence."""
    samples = array("h", chunk)
    if sys.byteorder == "big":
        samples.byteswap()
    for index in range(len(samples) - 1, -1, -1):
        if abs(samples[index]) > SILENCE_LEVEL:
            return 2 * (index + 1)
    return 0


def _whole(data: bytes) -> tuple[bytes, bytes]:
    """``data`` split into whole samples and the odd byte left over."""
    cut = len(data) - len(data) % 2
    return data[:cut], data[cut:]


def _read(running: _Running, size: int) -> bytes:
    data = b""
    while len(data) < size and (chunk := os.read(running.stdout.fileno(), size - len(data))):
        data += chunk
    return data


def _failed(running: _Running) -> Phrase:
    running.process.wait()
    said = running.stderr.read().decode("utf-8", "replace").strip().splitlines()
    reason = said[-1] if said else f"exit status {running.process.returncode}"
    return Phrase.of(N_("{engine} failed: {reason}"), engine=COMMAND, reason=reason)


def _remove(path: str | None) -> None:
    if path is not None:
        Path(path).unlink(missing_ok=True)


def voiced(text: str, lang: str) -> str:
    """``text`` as ``lang``'s voice is given it: the words it would say wrong respelled
    (see :data:`SAYS`).

    >>> voiced("Bob zegt Go.", "nl"), voiced("en flush på fyra", "sv")
    ("Bob zegt [[g'o:]].", 'en flasch på fyra')
    """
    for word, said in _SAYS.get(check_language(lang), ()):
        text = word.sub(said, text)
    return text


def phonemes(text: str, lang: str, command: str = COMMAND) -> str:
    """espeak-ng's phonemes for ``text`` in ``lang``'s voice, without speaking it.

    >>> phonemes("fünfzehn zwei", "de"), phonemes("fünfzehn zwei", "en")
    ("f'ynftse:n tsv'aI", "f'u:nfzeIn zw'eI")
    >>> phonemes("Bob zegt Go.", "nl")  # a plosive g, as the table says it
    "b'Op z'Ext g'o:"
    """
    args = [command, "-q", "-x", "-v", VOICES[check_language(lang)], "--stdin"]
    try:
        done = subprocess.run(
            args, input=voiced(text, lang), capture_output=True, text=True, timeout=30
        )
    except FileNotFoundError:
        raise VoiceError(NOT_INSTALLED) from None
    return done.stdout.strip()
