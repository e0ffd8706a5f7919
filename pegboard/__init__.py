"""pegboard: a Raspberry Pi companion for playing cribbage with real cards."""

__version__ = "0.1.0"
