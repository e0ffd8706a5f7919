"""The card reader on decks it never saw: photos of shows spread and fanned, made from Debian's
decks (none of which trained it: ``tools/cards``), read as the board reads them.

Run: ``python -m benchmarks cards [--shows N]``. The decks are rendered once into
``.cache/cards`` (``python -m tools.cards decks``; done here if missing). Each show is five
distinct cards (a hand and its starter) of one deck, laid on felt, wood or cloth and
photographed badly (tilt, uneven light, colour cast, blur, noise, JPEG), the same kind of
scene the training drew from fonts. It prints, spread and fanned apart: cards read right,
shows exactly right (every card read, right and sure, nothing else), cards read wrong while
marked sure (the one mistake a player cannot see), cards left unsure, and ms per photo
(median, p99; and the CPU time, which a busy machine moves less). A deck's faces whose
render by id is not whole are left out of its shows.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from pegboard.errors import ReaderError
from pegboard.reader.corners import read_image
from pegboard.rules.cards import Card, Suit
from tools.cards.decks import CACHE, render_deck
from tools.cards.scenes import compose, faces_of_deck

# French-suited decks whose corner index is a rank above a suit pip (Ancient Egyptians and
# Oxygen Air print the rank alone; Future is no playing deck; the rest do not render whole).
HELD_OUT = (
    "svg-standard",
    "svg-nicu-white",
    "svg-nicu-ornamental",
    "svg-dondorf",
    "svg-gm-paris",
    "svg-tigullio-international",
)
SEED = 2032
SHOW = 5


def run(shows: int, fanned: bool, seed: int) -> dict[str, float]:
    rng = random.Random(seed)
    decks = {d: faces_of_deck(render_deck(d, CACHE)) for d in HELD_OUT}
    cards = right = exact = wrong_sure = unsure = 0
    times, cpu = [], []
    for i in range(shows):
        faces = decks[HELD_OUT[i % len(HELD_OUT)]]
        keys = sorted(k for k in faces if k[0] < 13)
        show = rng.sample(keys, SHOW)
        truth = {Card(r + 1, Suit(s)) for r, s in show}
        scene = compose(rng, [faces[k] for k in show], fanned)
        started, started_cpu = time.perf_counter(), time.process_time()
        try:
            seen = read_image(scene.rgb)
        except ReaderError:
            seen = ()
        times.append((time.perf_counter() - started) * 1000)
        cpu.append((time.process_time() - started_cpu) * 1000)
        cards += len(truth)
        right += sum(1 for s in seen if s.card in truth)
        wrong_sure += sum(1 for s in seen if s.sure and s.card not in truth)
        unsure += sum(1 for s in seen if not s.sure)
        exact += {s.card for s in seen} == truth and all(s.sure for s in seen)
    times.sort()
    cpu.sort()
    return {
        "cards right": right / cards,
        "shows exactly right": exact / shows,
        "wrong while sure (per card)": wrong_sure / cards,
        "unsure (per card)": unsure / cards,
        "ms median": statistics.median(times),
        "ms p99": times[min(len(times) - 1, round(0.99 * (len(times) - 1)))],
        "CPU ms median": statistics.median(cpu),
        "shows": shows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m benchmarks cards")
    parser.add_argument("--shows", type=int, default=300, help="photos of each kind")
    args = parser.parse_args()
    print(f"held-out decks: {', '.join(HELD_OUT)}; {SHOW} cards a show")
    results = {kind: run(args.shows, kind == "fanned", SEED) for kind in ("spread", "fanned")}
    names = list(results["spread"])
    print(f"{'':30} {'spread':>10} {'fanned':>10}")
    for name in names:
        row = [results[k][name] for k in ("spread", "fanned")]
        if "ms" in name or name == "shows":
            print(f"{name:30} {row[0]:>10.0f} {row[1]:>10.0f}")
        else:
            print(f"{name:30} {row[0]:>10.2%} {row[1]:>10.2%}")
