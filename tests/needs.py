"""One skip policy for set-up a machine may lack (chromium, node's MicroPython, KiCad, a
Debian tool): a test without it skips on a developer's machine, and fails in CI, where
`scripts/test` installs everything and a skip would hide a missing feature (`.ci/run`
sets ``CI=true``)."""

from __future__ import annotations

import os

import pytest

IN_CI = os.environ.get("CI", "").lower() in ("true", "1")


def missing(what: str) -> None:
    """Skip for want of ``what`` here; fail in CI."""
    if IN_CI:
        pytest.fail(f"{what}: CI must run this test (scripts/test installs what it needs)")
    pytest.skip(what, allow_module_level=True)
