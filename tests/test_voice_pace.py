"""The voice never drops a score: a whole deal laid at 0.3 s a card, faster than the
board can say its calls, through the real espeak-ng into WAV files paced as a speaker
plays them, in each of the six languages: every point of the play is said, with who
scored it."""

from __future__ import annotations

import tempfile
import threading
import time
from collections import Counter
from pathlib import Path

import pytest

from pegboard.board.layout import load_layout
from pegboard.game import Table
from pegboard.i18n import LANGUAGES
from pegboard.keeper import Scorekeeper
from pegboard.voice import Espeak, Files, Voice

CARD_SECONDS = 0.3
WAIT = 120.0  # seconds the voice may take to catch up on a busy machine
# Ann deals; Bob leads. Ann 2 (fifteen), Bob 2 (a pair), Ann 8 (a pair royal at 31);
# Bob leads again: Ann 2 (a pair), Bob 6 (a pair royal), Ann 3 (fifteen, the last card).
PLAY = [
    ("Bob", "7H"),
    ("Ann", "8C"),
    ("Bob", "8D"),
    ("Ann", "8S"),
    ("Bob", "4H"),
    ("Ann", "4C"),
    ("Bob", "4D"),
    ("Ann", "3S"),
]


def lay_a_deal(lang: str, folder: Path, heard: dict) -> None:
    table = Table(folder / "games.db")
    keeper = Scorekeeper(table, load_layout("two-track-121"))
    voice = Voice(keeper, Espeak(), Files(folder / "voice", paced=True), lang=lang)
    try:
        keeper.new_game({"players": ["Ann", "Bob"]}, dealer=0)
        keeper.turn_starter("KD")
        for seat, card in PLAY:
            keeper.lay(card, seat)
            time.sleep(CARD_SECONDS)  # the pace of the table, not a wait for the board
        assert voice.wait_quiet(WAIT)
        pegged = Counter()
        for entry in keeper.state.history:
            if entry.kind == "play":
                pegged[keeper.state.players[entry.seat]] += entry.points
        heard[lang] = (pegged, list(voice.spoken))
    finally:
        voice.close()
        table.close()


@pytest.mark.slow
def test_every_score_of_a_quick_play_is_said_with_who_scored_it():
    heard: dict = {}
    with tempfile.TemporaryDirectory() as root:
        threads = []
        for lang in LANGUAGES:
            folder = Path(root) / lang
            folder.mkdir()
            threads.append(threading.Thread(target=lay_a_deal, args=(lang, folder, heard)))
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    assert set(heard) == set(LANGUAGES)
    for lang, (pegged, spoken) in heard.items():
        assert pegged == {"Ann": 15, "Bob": 8}, lang
        said = Counter()
        for sentence in spoken:
            for name, points in sentence.scores:
                said[name] += points
                assert name in sentence.text, (lang, sentence.text)
        assert said == pegged, (lang, [s.text for s in spoken])
        assert all(sentence.whole for sentence in spoken), lang
        assert any(len(sentence.scores) > 1 for sentence in spoken), lang  # they piled up
