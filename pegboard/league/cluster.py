"""A PostgreSQL cluster of the league's own, in a folder: made with Debian's ``initdb``
the first time, started and stopped with ``pg_ctl``. It listens on no network, only on
a socket in its folder (kept to its user): the league reaches it by that socket, nobody
else does, and it trusts whoever reaches it.

PostgreSQL refuses to run as root; run as root (a container, CI), the cluster runs as
the ``postgres`` user Debian's package makes (else ``nobody``), in a folder given to it.
"""

from __future__ import annotations

import os
import pwd
import shutil
import socket
import subprocess
from pathlib import Path

from pegboard.errors import PegboardError
from pegboard.i18n import N_, Phrase

DATABASE = "league"
SECONDS = 120  # pg_ctl waits this long for the server to start or stop (a busy machine)
NOT_INSTALLED = N_(
    "PostgreSQL is not installed here ({command}), or give the league's database with "
    "--db postgresql://…"
)
INSTALL = "apt-get install postgresql"
FAILED = N_("the league's database in {folder}: {step} failed: {error}")  # {step}: a program


class DatabaseError(PegboardError, OSError):
    """The league's database cannot be made, started or reached."""


def binaries() -> Path:
    """The folder of PostgreSQL's programs (Debian keeps them out of PATH)."""
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).resolve().parent
    kept = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"), key=_version, reverse=True)
    if kept:
        return kept[0].parent
    raise DatabaseError(Phrase.of(NOT_INSTALLED, command=INSTALL))


def _version(path: Path) -> tuple[int, ...]:
    name = path.parent.parent.name
    return tuple(int(p) for p in name.split(".") if p.isdigit())


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class Cluster:
    """The cluster in ``folder`` (its data, its socket, its log), on ``port`` (the
    socket's number; none on the network)."""

    def __init__(self, folder: Path, port: int = 5432) -> None:
        self.folder, self.port = folder.resolve(), port
        self.data, self.socket, self.log = (self.folder / n for n in ("data", "socket", "log"))
        self._user = _unprivileged() if os.geteuid() == 0 else None

    @property
    def url(self) -> str:
        return f"postgresql:///{DATABASE}?host={self.socket}&port={self.port}&user={DATABASE}"

    def start(self) -> str:
        """Make the cluster if it is not there, start it if it is not running: its URL."""
        self.folder.mkdir(parents=True, exist_ok=True)
        self.socket.mkdir(exist_ok=True)
        if self._user is not None:
            for path in (self.folder, self.socket):
                os.chown(path, self._user.pw_uid, self._user.pw_gid)
        self.socket.chmod(0o700)
        if not (self.data / "PG_VERSION").is_file():
            self._run("initdb", "-D", str(self.data), "-U", DATABASE, "-A", "trust",
                      "-E", "UTF8", "--locale=C.UTF-8", "--no-instructions")  # fmt: skip
        if not self.running():
            options = f"-c listen_addresses='' -k {self.socket} -p {self.port}"
            self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-w",
                      "-t", str(SECONDS), "-o", options, "start")  # fmt: skip
        self._create_database()
        return self.url

    def running(self) -> bool:
        command = [str(binaries() / "pg_ctl"), "-D", str(self.data), "status"]
        return self._call(command).returncode == 0

    def stop(self) -> None:
        """Stop the server (fast: open transactions are rolled back); safe twice."""
        if (self.data / "postmaster.pid").is_file():
            self._run("pg_ctl", "-D", str(self.data), "-m", "fast", "-w",
                      "-t", str(SECONDS), "stop")  # fmt: skip

    def _create_database(self) -> None:
        psql = [str(binaries() / "psql"), "-h", str(self.socket), "-p", str(self.port)]
        psql += ["-U", DATABASE, "-d", "postgres", "-tAc"]
        found = self._call([*psql, f"SELECT 1 FROM pg_database WHERE datname = '{DATABASE}'"])
        if found.stdout.strip() != "1":
            self._run("createdb", "-h", str(self.socket), "-p", str(self.port),
                      "-U", DATABASE, DATABASE)  # fmt: skip

    def _run(self, program: str, *args: str) -> None:
        done = self._call([str(binaries() / program), *args])
        step = f"{program} {args[-1]}" if program == "pg_ctl" else program  # "pg_ctl start"
        if done.returncode != 0:
            said = (done.stderr or done.stdout).strip().splitlines()
            error = said[-1] if said else str(done.returncode)
            message = Phrase.of(FAILED, folder=str(self.folder), step=step, error=error)
            raise DatabaseError(message)

    def _call(self, command: list[str]) -> subprocess.CompletedProcess[str]:
        user = self._user
        return subprocess.run(
            command,
            capture_output=True,
            text=True,
            timeout=SECONDS + 30,
            cwd=self.folder,
            user=user.pw_uid if user else None,
            group=user.pw_gid if user else None,
            extra_groups=[] if user else None,
            env={**os.environ, "LC_ALL": "C.UTF-8"},
        )


def _unprivileged() -> pwd.struct_passwd:
    for name in ("postgres", "nobody"):
        try:
            return pwd.getpwnam(name)
        except KeyError:
            continue
    raise DatabaseError(Phrase.of(NOT_INSTALLED, command=INSTALL))
