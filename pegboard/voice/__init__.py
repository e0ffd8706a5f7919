"""The board's voice: says the counts, the verdicts, Muggins and the win aloud, in the
board's language, off the button-to-LED path.

- what is said of each change is pure and shared with the phones: it lives with the
  front door (:mod:`pegboard.keeper.aloud`: a Change -> announcements);
- ``engine``: text -> speech (:class:`Espeak`, espeak-ng; another engine plugs in
  behind :class:`Engine`);
- ``out``: where the samples go (the computer's audio, WAV files, or nowhere);
- ``speaker``: :class:`Voice`, which follows the front door from its own thread.

Importing this package plays nothing and starts no process.
"""

from pegboard.voice.engine import Engine, Espeak, Speech, VoiceError, phonemes
from pegboard.voice.out import KINDS, Files, Output, Player, Silent, open_output, save
from pegboard.voice.speaker import Spoken, Voice, open_voice

__all__ = [
    "KINDS",
    "Engine",
    "Espeak",
    "Files",
    "Output",
    "Player",
    "Silent",
    "Speech",
    "Spoken",
    "Voice",
    "VoiceError",
    "open_output",
    "open_voice",
    "phonemes",
    "save",
]
