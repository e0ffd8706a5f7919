"""``python -m tools.cards train [--scenes N] [--epochs N]``: render synthetic table scenes from
fonts (fixed seed), cut every proposal the reader would make, label it by the scene's truth,
train the classifier (torch, CPU) and write ``pegboard/reader/weights.npz`` (numpy arrays, the
batch norms folded in: the board reads with numpy alone).
"""

from __future__ import annotations

import argparse
import math
import random
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np

from pegboard.reader.ink import PATCH_H, PATCH_W, Proposal, patches, prepare, proposals
from tools.cards.faces import HELD_OUT_FONTS, JOKER, NONE, TRAIN_FONTS, fonts, make_face
from tools.cards.label import match
from tools.cards.scenes import compose

SEED = 32
WEIGHTS = Path(__file__).resolve().parents[2] / "pegboard" / "reader" / "weights.npz"
JITTERS = 2
CHUNKS = Path(__file__).resolve().parents[2] / ".cache" / "cards" / "train"
VERSION = 2  # of the scenes and proposals: a new one makes its chunks anew


def scene_faces(rng: random.Random, font_list: list[Path]) -> tuple[list, bool]:
    roll = rng.random()
    fanned = roll < 0.45
    n = rng.choice([1, 2, 3, 4, 4, 5, 5, 5, 6, 6]) if roll < 0.95 else rng.randint(0, 3)
    cards = rng.sample(range(52), n)
    faces = []
    for c in cards:
        kind = rng.random()
        if roll >= 0.95 and kind < 0.5:
            faces.append(make_face(rng, font_list, NONE, 0))
        elif kind < 0.02:
            faces.append(make_face(rng, font_list, JOKER, 0))
        else:
            faces.append(make_face(rng, font_list, c // 4, c % 4))
    return faces, fanned


def _jitter(rng: random.Random, p: Proposal) -> Proposal:
    turn = math.radians(rng.uniform(-8, 8))
    dx, dy = p.down
    down = (dx * math.cos(turn) - dy * math.sin(turn), dx * math.sin(turn) + dy * math.cos(turn))
    d = p.d * rng.uniform(0.88, 1.12)
    cx, cy = p.centre
    centre = (cx + rng.uniform(-0.12, 0.12) * p.d, cy + rng.uniform(-0.12, 0.12) * p.d)
    return Proposal(p.glyph, p.pip, centre, down, d)


def make_chunk(args: tuple[int, int, bool]) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Patches, rank labels and suit labels from ``count`` scenes of seed ``seed``."""
    seed, count, held_out = args
    rng = random.Random(seed)
    font_list = fonts(HELD_OUT_FONTS if held_out else TRAIN_FONTS)
    xs, ranks, suits = [], [], []
    cards_seen = cards_total = 0
    for _ in range(count):
        faces, fanned = scene_faces(rng, font_list)
        scene = compose(rng, faces, fanned)
        sheet = prepare(scene.rgb)
        props = proposals(sheet)
        pos, neg = [], []
        found = set()
        for prop in props:
            rank, suit, card = match(prop, scene.truths)
            if rank == NONE:
                neg.append(prop)
            else:
                found.add(card)
                pos.append((prop, rank, suit))
                if not held_out:
                    pos.extend((_jitter(rng, prop), rank, suit) for _ in range(JITTERS))
        cards_total += len({t.card for t in scene.truths})
        cards_seen += len(found)
        rng.shuffle(neg)
        neg = neg[: max(8, 2 * len(pos))] if not held_out else neg
        chosen = [p for p, _, _ in pos] + neg
        if not chosen:
            continue
        xs.append(patches(sheet, chosen))
        ranks.extend([r for _, r, _ in pos] + [NONE] * len(neg))
        suits.extend([s for _, _, s in pos] + [0] * len(neg))
    x = np.concatenate(xs) if xs else np.zeros((0, 2, PATCH_H, PATCH_W), np.float32)
    return x, np.array(ranks, np.int64), np.array(suits, np.int64), cards_seen, cards_total


def dataset(scenes: int, seed: int, held_out: bool, workers: int) -> tuple[np.ndarray, ...]:
    """The patches of ``scenes`` scenes, made in chunks of 50 kept in ``.cache/cards/train``
    (a run stopped half-way takes up where it stopped; the same seed makes the same chunk)."""
    chunk = 50
    jobs = [
        (seed * 100_000 + i, min(chunk, scenes - i * chunk), held_out)
        for i in range(math.ceil(scenes / chunk))
    ]
    CHUNKS.mkdir(parents=True, exist_ok=True)
    with Pool(workers) as pool:
        parts = pool.map(_cached_chunk, jobs)
    seen = sum(int(p[3]) for p in parts)
    total = sum(int(p[4]) for p in parts)
    print(f"  {scenes} scenes: cards with an index proposed {seen}/{total}", flush=True)
    return tuple(np.concatenate([p[i] for p in parts]) for i in range(3))


def _cached_chunk(job: tuple[int, int, bool]) -> tuple[Any, ...]:
    path = CHUNKS / f"{VERSION}-{job[0]}-{job[1]}-{int(job[2])}.npz"
    if path.exists():
        with np.load(path) as kept:
            return tuple(kept[k] for k in ("x", "ranks", "suits", "seen", "total"))
    x, ranks, suits, seen, total = make_chunk(job)
    np.savez(path, x=x.astype(np.float16), ranks=ranks, suits=suits, seen=seen, total=total)
    return x.astype(np.float16), ranks, suits, np.int64(seen), np.int64(total)


def build_net() -> Any:
    import torch
    from torch import nn

    def block(i: int, o: int) -> list[nn.Module]:
        return [
            nn.Conv2d(i, o, 3, padding=1, bias=False),
            nn.BatchNorm2d(o),
            nn.ReLU(),
            nn.MaxPool2d(2),
        ]

    class Net(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.features = nn.Sequential(*block(2, 16), *block(16, 32), *block(32, 64))
            self.fc = nn.Linear(64 * (PATCH_H // 8) * (PATCH_W // 8), 128)
            self.drop = nn.Dropout(0.2)
            self.rank = nn.Linear(128, 15)
            self.suit = nn.Linear(128, 4)

        def forward(self, x: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
            h = self.features(x).flatten(1)
            h = self.drop(torch.relu(self.fc(h)))
            return self.rank(h), self.suit(h)

    return Net()


def export(net: Any, path: Path) -> None:
    """The weights as numpy arrays, each convolution's batch norm folded into it."""
    arrays = {}
    convs = [m for m in net.features if m.__class__.__name__ == "Conv2d"]
    norms = [m for m in net.features if m.__class__.__name__ == "BatchNorm2d"]
    for i, (conv, bn) in enumerate(zip(convs, norms, strict=True)):
        scale = (bn.weight / (bn.running_var + bn.eps).sqrt()).detach().numpy()
        arrays[f"conv{i}_w"] = conv.weight.detach().numpy() * scale[:, None, None, None]
        arrays[f"conv{i}_b"] = bn.bias.detach().numpy() - bn.running_mean.numpy() * scale
    for name in ("fc", "rank", "suit"):
        layer = getattr(net, name)
        arrays[f"{name}_w"] = layer.weight.detach().numpy()
        arrays[f"{name}_b"] = layer.bias.detach().numpy()
    np.savez_compressed(path, **{k: v.astype(np.float32) for k, v in arrays.items()})


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.cards train")
    parser.add_argument("--scenes", type=int, default=2800)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--out", type=Path, default=WEIGHTS)
    args = parser.parse_args(argv)
    import torch

    started = time.monotonic()
    torch.manual_seed(SEED)
    torch.set_num_threads(args.workers)
    print("rendering training scenes (fonts held out: Linux Libertine, Biolinum)", flush=True)
    x, ranks, suits = dataset(args.scenes, SEED, False, args.workers)
    vx, vranks, vsuits = dataset(max(100, args.scenes // 12), SEED + 1, True, args.workers)
    print(
        f"  {len(x)} training patches ({int((ranks != NONE).sum())} indices), "
        f"{len(vx)} held-out; {time.monotonic() - started:.0f} s",
        flush=True,
    )
    net = build_net()
    opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=1e-4)
    steps = args.epochs * math.ceil(len(x) / 256)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=steps)
    xt = torch.from_numpy(x.astype(np.float32))
    rt, st = torch.from_numpy(ranks), torch.from_numpy(suits)
    gen = torch.Generator().manual_seed(SEED)
    for epoch in range(args.epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        total = 0.0
        for i in range(0, len(x), 256):
            idx = order[i : i + 256]
            xb = xt[idx]
            # Contrast and brightness jitter of each patch (a photo's ink is never the same).
            xb = xb * (0.75 + 0.5 * torch.rand(len(idx), 1, 1, 1, generator=gen))
            rl, sl = net(xb)
            has_suit = rt[idx] < JOKER
            loss = torch.nn.functional.cross_entropy(rl, rt[idx], label_smoothing=0.02)
            if has_suit.any():
                loss = loss + torch.nn.functional.cross_entropy(sl[has_suit], st[idx][has_suit])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += float(loss.detach()) * len(idx)
        print(
            f"  epoch {epoch + 1}: loss {total / len(x):.4f}; {time.monotonic() - started:.0f} s",
            flush=True,
        )
        export(net, args.out)  # each epoch's: a run stopped early still leaves weights
    net.eval()
    with torch.no_grad():
        rl, sl = net(torch.from_numpy(vx.astype(np.float32)))
        rp, sp = rl.softmax(1).numpy(), sl.softmax(1).numpy()
    is_index = vranks != NONE
    guess_rank = rp.argmax(1)
    right = (guess_rank == vranks) & ((sp.argmax(1) == vsuits) | (vranks >= JOKER))
    print(
        f"held-out fonts: patches right {right.mean():.4f}; "
        f"indices right {right[is_index].mean():.4f}; "
        f"not-index kept out {(guess_rank[~is_index] == NONE).mean():.4f}"
    )
    export(net, args.out)
    print(
        f"wrote {args.out} ({args.out.stat().st_size // 1024} kB) "
        f"in {time.monotonic() - started:.0f} s"
    )
