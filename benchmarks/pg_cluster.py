"""A throwaway PostgreSQL server for the tests and benchmarks of the shared store
(store/pg): ``initdb`` into a new temporary directory, ``pg_ctl start`` on a free local
port, stopped and deleted afterwards. Nothing is downloaded: the server is the system's
(Debian's ``postgresql`` package; ``ANCHORMEM_PG_BIN`` names another binaries folder).

PostgreSQL refuses to run as root, so as root the cluster belongs to the ``postgres`` user
and every server command runs as that user (``runuser``). Connections go over TCP with a
password (scram-sha-256), as a team's would; local socket connections are trusted, for the
cluster's owner only.
"""

from __future__ import annotations

import os
import secrets
import shutil
import socket
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Cluster", "PgUnavailable", "find_bin", "start_cluster"]

_DEFAULT_BINS = (
    "/usr/lib/postgresql/17/bin",
    "/usr/lib/postgresql/16/bin",
    "/usr/lib/postgresql/15/bin",
)


class PgUnavailable(RuntimeError):
    """No PostgreSQL server can be started here (the binaries are missing)."""


def find_bin() -> Path:
    given = os.environ.get("ANCHORMEM_PG_BIN")
    for folder in ([given] if given else []) + list(_DEFAULT_BINS):
        if (Path(folder) / "initdb").is_file() and (Path(folder) / "pg_ctl").is_file():
            return Path(folder)
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    raise PgUnavailable(
        "no PostgreSQL server binaries (initdb, pg_ctl) were found: install Debian's"
        " `postgresql` package or set ANCHORMEM_PG_BIN"
    )


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Cluster:
    """A running throwaway server; ``url`` connects as its superuser."""

    folder: Path
    bin: Path
    port: int
    password: str
    as_user: list[str]

    @property
    def data(self) -> Path:
        return self.folder / "data"

    def url(self, user: str = "postgres", password: str | None = None, db: str = "postgres") -> str:
        secret = self.password if password is None else password
        return f"postgresql://{user}:{secret}@127.0.0.1:{self.port}/{db}"

    def _ctl(self, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [*self.as_user, str(self.bin / "pg_ctl"), "-D", str(self.data), *args],
            capture_output=True,
            text=True,
            timeout=120,
            check=check,
        )

    def start(self) -> None:
        self._ctl("-w", "-l", str(self.folder / "server.log"), "start")

    def stop(self, mode: str = "fast") -> None:
        self._ctl("-w", "-m", mode, "stop", check=False)

    def restart(self) -> None:
        self._ctl("-w", "-m", "fast", "-l", str(self.folder / "server.log"), "restart")

    def close(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.folder, ignore_errors=True)

    def create_database(self, name: str) -> str:
        """A new empty database; its URL (as the superuser)."""
        import psycopg

        with psycopg.connect(self.url(), autocommit=True) as con:
            con.execute(f'CREATE DATABASE "{name}"')
        return self.url(db=name)

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def start_cluster() -> Cluster:
    """initdb and start a server in a new temporary folder; ``PgUnavailable`` without the
    binaries. The caller closes it (``Cluster.close`` or ``with``)."""
    bin_dir = find_bin()
    folder = Path(tempfile.mkdtemp(prefix="anchormem-pg-"))
    as_user: list[str] = []
    if os.geteuid() == 0:  # initdb and postgres refuse root
        runuser = shutil.which("runuser")
        if runuser is None:
            raise PgUnavailable("running as root, and there is no runuser to drop to postgres")
        as_user = [runuser, "-u", "postgres", "--"]
        shutil.chown(folder, "postgres", "postgres")
    password = secrets.token_hex(12)
    pwfile = folder / "pw"
    pwfile.write_text(password + "\n")
    if as_user:
        shutil.chown(pwfile, "postgres", "postgres")
    os.chmod(pwfile, 0o600)
    cluster = Cluster(folder, bin_dir, _free_port(), password, as_user)
    try:
        subprocess.run(
            [
                *as_user, str(bin_dir / "initdb"), "-D", str(cluster.data), "-U", "postgres",
                "--pwfile", str(pwfile), "--auth-local=trust", "--auth-host=scram-sha-256",
                "-E", "UTF8", "--locale=C.UTF-8", "--no-sync",
            ],
            capture_output=True, text=True, timeout=180, check=True,
        )  # fmt: skip
        pwfile.unlink()
        with open(cluster.data / "postgresql.conf", "a") as conf:
            conf.write(
                f"\nport = {cluster.port}\nlisten_addresses = '127.0.0.1'\n"
                f"unix_socket_directories = '{cluster.folder}'\n"
                "fsync = off\nsynchronous_commit = off\nfull_page_writes = off\n"
                "max_connections = 200\nshared_buffers = 64MB\n"
            )
        cluster.start()
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(folder, ignore_errors=True)
        raise PgUnavailable(f"PostgreSQL could not start: {exc.stderr or exc.stdout}") from exc
    except BaseException:
        cluster.close()
        raise
    return cluster
