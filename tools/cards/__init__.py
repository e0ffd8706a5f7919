"""The card reader's training: ``python -m tools.cards decks`` renders Debian's decks once into
``.cache/cards`` (they are held out: the benchmark's and the tests' photos);
``python -m tools.cards train`` renders synthetic table scenes from fonts and trains the reader's
classifier with a fixed seed, writing ``pegboard/reader/weights.npz``. Torch is needed for
training only (``pip install torch==2.13.0``); the board reads with numpy."""
