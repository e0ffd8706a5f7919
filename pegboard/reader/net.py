"""The classifier, run with numpy alone: three 3x3 convolutions (each with its batch norm
folded in, a ReLU and a 2x2 max pool), a dense layer, and two heads: the rank (13 ranks, a
joker, or no index at all) and the suit. Its weights (``weights.npz``, written by
``python -m tools.cards train``) ship inside the package and load on first use.

>>> net = Net.load()
>>> ranks, suits = net(np.zeros((2, 2, 36, 24), np.float32))
>>> ranks.shape, suits.shape, bool(np.allclose(ranks.sum(axis=1), 1))
((2, 15), (2, 4), True)
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from importlib import resources

import numpy as np
import numpy.typing as npt
from numpy.lib.stride_tricks import sliding_window_view

Floats = npt.NDArray[np.float32]
LAYERS = 3
PATCH_H, PATCH_W = 36, 24  # as pegboard.reader.ink cuts them


def _conv_relu_pool(x: Floats, w: Floats, b: Floats) -> Floats:
    """3x3 convolution (padding 1) as one matrix product, then ReLU and 2x2 max pool; x and
    the result are (n, h, w, c), ``w`` (9 * c_in, c_out) with the taps row-major."""
    n, h, width, _ = x.shape
    padded = np.pad(x, ((0, 0), (1, 1), (1, 1), (0, 0)))
    taps = sliding_window_view(padded, (3, 3), axis=(1, 2))  # (n, h, w, c, dy, dx), no copy
    cols: Floats = np.ascontiguousarray(taps.transpose(0, 1, 2, 4, 5, 3))  # one copy, row-major
    out = cols.reshape(n * h * width, -1) @ w
    out += b
    np.maximum(out, 0, out=out)
    out = out.reshape(n, h, width, -1)[:, : h // 2 * 2, : width // 2 * 2]
    pooled: Floats = np.maximum(
        np.maximum(out[:, 0::2, 0::2], out[:, 1::2, 0::2]),
        np.maximum(out[:, 0::2, 1::2], out[:, 1::2, 1::2]),
    )
    return pooled


def _softmax(z: Floats) -> Floats:
    z = z - z.max(axis=1, keepdims=True)
    e = np.exp(z)
    shares: Floats = e / e.sum(axis=1, keepdims=True)
    return shares


@dataclass(frozen=True)
class Net:
    arrays: dict[str, Floats]

    @classmethod
    @cache
    def load(cls) -> Net:
        with (
            resources.files(__package__).joinpath("weights.npz").open("rb") as f,
            np.load(f) as data,
        ):
            return cls.of({name: data[name].astype(np.float32) for name in data.files})

    @classmethod
    def of(cls, arrays: dict[str, Floats]) -> Net:
        """The net of the arrays training wrote (torch's layout: NCHW, (out, in, 3, 3)),
        laid out for numpy's matrix products (NHWC)."""
        laid = dict(arrays)
        for k in range(LAYERS):
            w = arrays[f"conv{k}_w"]
            laid[f"conv{k}_w"] = np.ascontiguousarray(
                w.transpose(2, 3, 1, 0).reshape(-1, w.shape[0])
            )
        fc = arrays["fc_w"]
        channels = arrays[f"conv{LAYERS - 1}_w"].shape[0]
        h, w = PATCH_H // 2**LAYERS, PATCH_W // 2**LAYERS
        laid["fc_w"] = np.ascontiguousarray(
            fc.reshape(len(fc), channels, h, w).transpose(0, 2, 3, 1).reshape(len(fc), -1).T
        )
        for head in ("rank", "suit"):
            laid[f"{head}_w"] = np.ascontiguousarray(arrays[f"{head}_w"].T)
        return cls(laid)

    def __call__(self, x: Floats, batch: int = 512) -> tuple[Floats, Floats]:
        """The rank and suit probabilities of each patch (n, 2, 36, 24)."""
        a = self.arrays
        ranks, suits = [], []
        for i in range(0, max(len(x), 1), batch):
            h = np.ascontiguousarray(x[i : i + batch].transpose(0, 2, 3, 1))
            for k in range(LAYERS):
                h = _conv_relu_pool(h, a[f"conv{k}_w"], a[f"conv{k}_b"])
            hidden = np.maximum(h.reshape(len(h), -1) @ a["fc_w"] + a["fc_b"], 0)
            ranks.append(_softmax(hidden @ a["rank_w"] + a["rank_b"]))
            suits.append(_softmax(hidden @ a["suit_w"] + a["suit_b"]))
        return np.concatenate(ranks), np.concatenate(suits)
