"""Who signed it: an Ed25519 key pair kept in a private file, for a board (its identity
towards the club's director) and for a director (its signature over a night's file).

The private key never leaves its file; the public key travels, and people compare its
fingerprint (:attr:`Identity.fingerprint`: the first 80 bits of its SHA-256 in groups
of four, readable aloud) between a board's screen and the director's. Signing and
checking are the `cryptography` package's Ed25519; nothing here is home-made crypto.

>>> import tempfile
>>> path = Path(tempfile.mkdtemp()) / "identity"
>>> me = Identity.made(path)                 # made once, kept from then on
>>> Identity.made(path).public == me.public
True
>>> signature = me.sign(b"table 3, game 1, head 9f2c")
>>> verify(me.public, signature, b"table 3, game 1, head 9f2c")
True
>>> verify(me.public, signature, b"table 3, game 1, head 9f2d")
False
>>> len(me.fingerprint), me.fingerprint.count("-")
(24, 4)
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import (
    Ed25519PrivateKey,
    Ed25519PublicKey,
)

from pegboard.files import read_private, write_private

FILE = "identity"  # a board's, in its data folder (pegboard.startup, pegboard doctor)
PUBLIC_BYTES = 32  # an Ed25519 public key
SIGNATURE_BYTES = 64


@dataclass(frozen=True, slots=True)
class Identity:
    """A key pair: ``public`` (32 bytes) may be shown to anyone, the private half signs."""

    _private: Ed25519PrivateKey
    public: bytes

    @classmethod
    def generate(cls) -> Identity:
        return cls.of(Ed25519PrivateKey.generate())

    @classmethod
    def of(cls, private: Ed25519PrivateKey) -> Identity:
        return cls(private, private.public_key().public_bytes_raw())

    @classmethod
    def from_hex(cls, text: str) -> Identity:
        """The key pair whose private half is ``text`` (64 hex digits); ValueError else."""
        try:
            raw = bytes.fromhex(text)
        except ValueError:
            raw = b""
        if len(raw) != 32:
            raise ValueError("not an Ed25519 private key (64 hex digits)")
        return cls.of(Ed25519PrivateKey.from_private_bytes(raw))

    @classmethod
    def read(cls, path: Path) -> Identity | None:
        """The key pair kept in ``path`` (None: none yet); ValueError when the file holds
        none (start-up refuses it and leaves it as found)."""
        text = read_private(path)
        return None if text is None else cls.from_hex(text)

    @classmethod
    def made(cls, path: Path) -> Identity:
        """The key pair kept in ``path``, or a new one, kept there from now on."""
        kept = cls.read(path)
        if kept is not None:
            return kept
        made = cls.generate()
        write_private(path, made.private_hex())
        return made

    def private_hex(self) -> str:
        return self._private.private_bytes_raw().hex()

    def sign(self, data: bytes) -> bytes:
        return self._private.sign(data)

    @property
    def fingerprint(self) -> str:
        return fingerprint(self.public)

    def __repr__(self) -> str:  # never the private half
        return f"<Identity {self.fingerprint}>"


def verify(public: bytes, signature: bytes, data: bytes) -> bool:
    """Whether ``signature`` is ``public``'s over ``data`` (a malformed key or signature
    is simply not a valid one)."""
    if len(public) != PUBLIC_BYTES or len(signature) != SIGNATURE_BYTES:
        return False
    try:
        Ed25519PublicKey.from_public_bytes(public).verify(signature, data)
    except (InvalidSignature, ValueError):
        return False
    return True


def fingerprint(public: bytes) -> str:
    """A public key as people compare it: 20 hex digits in five groups of four.

    >>> fingerprint(bytes(32))
    '6668-7aad-f862-bd77-6c8f'
    """
    digest = hashlib.sha256(public).hexdigest()[:20]
    return "-".join(digest[i : i + 4] for i in range(0, 20, 4))
