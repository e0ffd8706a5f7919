"""Listening to what the voice wrote: a WAV file's length and level, and a deal played
through a real front door so that the voice has something to say."""

from __future__ import annotations

import json
import math
import wave
from array import array
from dataclasses import dataclass
from pathlib import Path

FULL_SCALE = 32767
SILENCE = 300  # |sample| below this is silence (about -40 dB)


@dataclass(frozen=True)
class Heard:
    """What a WAV file holds: seconds of audio, seconds above silence, the loudness
    while speaking (RMS, of full scale), the loudest sample, how many are clipped, and
    the seconds of silence after the last sound."""

    seconds: float
    voiced: float
    rms: float
    peak: int
    clipped: int
    tail: float


def listen(path: Path) -> Heard:
    with wave.open(str(path)) as wav:
        assert (wav.getnchannels(), wav.getsampwidth()) == (1, 2), f"{path}: not 16-bit mono"
        rate = wav.getframerate()
        samples = array("h", wav.readframes(wav.getnframes()))
    loud = [s for s in samples if abs(s) >= SILENCE]
    rms = math.sqrt(sum(s * s for s in loud) / len(loud)) / FULL_SCALE if loud else 0.0
    return Heard(
        seconds=len(samples) / rate,
        voiced=len(loud) / rate,
        rms=rms,
        peak=max((abs(s) for s in samples), default=0),
        tail=next((i for i, s in enumerate(reversed(samples)) if abs(s) >= SILENCE), 0) / rate,
        clipped=sum(1 for s in samples if s >= FULL_SCALE or s <= -FULL_SCALE - 1),
    )


def note(path: Path) -> dict:
    """The JSON written beside a sentence's WAV file: text, lang, voice, phonemes, whole."""
    return json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))


def sentences(folder: Path) -> list[Path]:
    return sorted(folder.glob("*.wav"))


def play_a_deal(keeper, settle) -> None:
    """One whole deal of Ann (dealer) and Bob, Muggins on, to 22 points, calling
    ``settle()`` after every entry (the voice says each before the next is made).

    Starter J♥: his heels, Ann 2. Play: Bob 10♣, Ann 5♦ (fifteen for two: Ann 4), Bob 5♠
    (a pair, twenty for two: Bob 2), Ann 6♥, Bob says go, Ann 4♥ (the run 5-6-4, thirty
    for three: Ann 7) and go (one for the go: Ann 8); Bob 9♦, Ann 3♣, Bob K♦ (twenty-two,
    and one for the last card: Bob 3). Show: Bob's dial pegs 19 (refused: no hand scores
    it), Bob claims 4 of his 9 (Bob 7), Ann calls Muggins for 5 (Ann 13), Ann claims 14 of
    her 8 (over, and into the game: kept, and the win held for its window), her crib (2)
    closes the window: nobody challenged, the win stands, by 15."""
    keeper.new_game({"players": ["Ann", "Bob"], "muggins": True, "target": 22}, dealer=0)
    settle()
    keeper.turn_starter("JH")  # his heels: Ann 2
    settle()
    for seat, card in [("Bob", "10C"), ("Ann", "5D"), ("Bob", "5S"), ("Ann", "6H")]:
        keeper.lay(card, seat)
        settle()
    keeper.go("Bob")
    settle()
    keeper.lay("4H", "Ann")
    settle()
    keeper.go("Ann")
    settle()
    for seat, card in [("Bob", "9D"), ("Ann", "3C"), ("Bob", "KD")]:
        keeper.lay(card, seat)
        settle()
    keeper.turn_dial(1, 19)
    try:
        keeper.peg_dial(1)
    except ValueError:
        pass
    else:
        raise AssertionError("a hand of 19 was pegged")
    settle()
    keeper.claim("Bob", 4, cards="10C 5S 9D KD")
    settle()
    keeper.muggins("Ann", 5)
    settle()
    keeper.claim("Ann", 14, cards="5D 6H 4H 3C")
    settle()
    keeper.claim("Ann", 2, kind="crib", cards="2S QS AH AD")
    settle()
