"""``python -m pegboard.inputs [PINS.toml] [--write]``: print or write hardware/PINS.md."""

from pegboard.inputs.pins import main

raise SystemExit(main())
