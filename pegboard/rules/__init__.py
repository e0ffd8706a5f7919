"""The rules core: cards, the show, the play, the calls and discard advice.

Pure functions and small immutable values: no I/O, no clock, no globals, nothing
imported from above (checked by the import contracts in pyproject.toml).
"""
