"""A throwaway PostgreSQL for the league's tests: Debian's postgresql, a cluster made with
initdb in a temporary folder on a free port (run as an unprivileged user when the tests
run as root: PostgreSQL refuses root), stopped and removed at the end; each test gets a
database of its own. Without PostgreSQL the tests skip here and fail in CI
(`tests/needs.py`): `scripts/test` installs it."""

from __future__ import annotations

import secrets
import shutil
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from pegboard.league.cluster import Cluster, DatabaseError, binaries, free_port
from tests.needs import missing


@pytest.fixture(scope="module", name="postgres")
def postgres_fixture() -> Iterator[Cluster]:
    try:
        binaries()
    except DatabaseError:
        missing("PostgreSQL (apt-get install postgresql)")
    folder = Path(tempfile.mkdtemp(prefix="pegboard-pg-"))  # reachable by the postgres user
    cluster = Cluster(folder, free_port())
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.stop()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(name="league_url")
def league_url_fixture(postgres: Cluster) -> str:
    """The URL of a new, empty database in the throwaway cluster."""
    import psycopg

    name = f"league_{secrets.token_hex(4)}"
    with psycopg.connect(postgres.url.replace("/league?", "/postgres?"), autocommit=True) as db:
        db.execute(f"CREATE DATABASE {name}".encode())
    return postgres.url.replace("/league?", f"/{name}?")
