"""``anchormem ui`` run as a person runs it, for the inspector's tests: a subprocess on a
real repository, its printed link, and plain HTTP requests to it (``http.client``, so
that a test can send any Host, Origin or cookie)."""

from __future__ import annotations

import http.client
import json
import re
import select
import subprocess
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urlsplit

from tests.conftest import anchormem_env

ANCHORMEM = str(Path(sys.executable).with_name("anchormem"))
_CSRF = re.compile(r'name="csrf" value="([^"]+)"')


def cli(repo: Path, *args: str, db: Path | None = None, **env: str) -> Any:
    """``anchormem ARGS --json`` in ``repo`` (on the store ``db`` if given); its JSON."""
    where = ["--db", str(db)] if db is not None else []
    done = subprocess.run(
        [ANCHORMEM, *args, *where, "--json"],
        cwd=repo,
        capture_output=True,
        text=True,
        env=anchormem_env(**env),
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


class UiServer:
    """``anchormem ui --port 0`` in ``repo``: started at once, stopped by ``close``."""

    def __init__(self, repo: Path, log: Path, timeout_s: float = 60.0) -> None:
        self.log = log.open("w")
        self.process = subprocess.Popen(
            [ANCHORMEM, "ui", "--port", "0"],
            cwd=repo,
            stdout=subprocess.PIPE,
            stderr=self.log,
            text=True,
            env=anchormem_env(),
        )
        assert self.process.stdout is not None
        ready, _, _ = select.select([self.process.stdout], [], [], timeout_s)
        line = self.process.stdout.readline().strip() if ready else ""
        if not line.startswith("http://"):
            self.close()
            raise AssertionError(f"anchormem ui printed no link: {log.read_text()[-2000:]}")
        self.url = line
        parts = urlsplit(line)
        self.port = int(parts.port or 0)
        self.token = parts.query.removeprefix("token=")
        self.base = f"http://127.0.0.1:{self.port}"
        self.cookie = f"anchormem_ui_{self.port}={self.token}"

    def request(
        self,
        method: str,
        path: str,
        *,
        form: dict[str, str] | None = None,
        cookie: bool = True,
        headers: dict[str, str] | None = None,
    ) -> tuple[int, dict[str, str], str]:
        """One request; (status, headers with lower-case names, body). The Host is
        ``127.0.0.1:PORT`` unless ``headers`` names another."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        sent = {"Host": f"127.0.0.1:{self.port}", **(headers or {})}
        if cookie:
            sent["Cookie"] = self.cookie
        body = None
        if form is not None:
            body = urlencode(form)
            sent["Content-Type"] = "application/x-www-form-urlencoded"
            sent["Content-Length"] = str(len(body.encode()))
        try:
            conn.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in sent.items():
                conn.putheader(name, value)
            conn.endheaders(body.encode() if body is not None else None)
            answer = conn.getresponse()
            text = answer.read().decode("utf-8", "replace")
            return answer.status, {k.lower(): v for k, v in answer.getheaders()}, text
        finally:
            conn.close()

    def csrf(self, path: str) -> str:
        """The CSRF token in the forms of the page at ``path`` (a memory's page has
        some)."""
        status, _, body = self.request("GET", path)
        assert status == 200, body
        found = _CSRF.search(body)
        assert found, "no form with a CSRF token on the page"
        return found.group(1)

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if self.process.stdout is not None:
            self.process.stdout.close()
        self.log.close()


def wait_for(check: Any, timeout_s: float = 30.0, every_s: float = 0.1) -> Any:
    """``check()`` once it is truthy; fails the test after ``timeout_s``."""
    deadline = time.monotonic() + timeout_s
    while True:
        got = check()
        if got:
            return got
        if time.monotonic() > deadline:
            raise AssertionError(f"still not true after {timeout_s} s")
        time.sleep(every_s)


# The notes both stores of a test get, by name: two anchored and verified, one the code
# refutes, a pair the rules cannot decide (an open conflict), and one that agents
# contradict three times (ASK in the review queue).
NOTES: dict[str, tuple[str, ...]] = {
    "duckdb": ("The store layer opens DuckDB in store/db.py", "--subject", "store/db.py",
               "--anchor", "import:duckdb@store/db.py"),
    "httpx": ("Billing calls the payment API with httpx",
              "--anchor", "import:httpx@billing/client.py"),
    "redis": ("We cache sessions in Redis", "--anchor", "dep:redis"),
    "short": ("Access tokens live for 15 minutes.", "--scope", "external"),
    "long": ("Access tokens live for one hour.", "--scope", "external"),
    "jwt": ("Auth checks tokens against JWT_SECRET in auth/jwt.py",
            "--anchor", "env:JWT_SECRET"),
}  # fmt: skip


def fill(repo: Path, db: Path | None = None) -> dict[str, str]:
    """Write ``NOTES`` through the CLI into the store of ``repo`` (or ``db``), and three
    agents' contradictions of ``jwt``; each note's id by name."""
    ids = {name: cli(repo, "remember", *args, db=db)["id"] for name, args in NOTES.items()}
    for n in range(3):
        cli(
            repo,
            "observe",
            ids["jwt"],
            "--contradicts",
            "--source",
            "agent",
            "--origin",
            f"session-{n}",
            "--note",
            "it reads AUTH_KEY now",
            db=db,
        )
    return ids


_ID = re.compile(r"\b[mr][0-9a-hjkmnp-tv-z]{8}\b")
_TIMES = frozenset({"at", "created_at", "last_confirmed_at", "evidence_at", "seq"})


def comparable(value: Any, names: dict[str, str]) -> Any:
    """``value`` (a command's JSON) with what differs between two stores given the same
    calls taken out: times and sequence numbers dropped, each memory id replaced by its
    name in ``names`` and each receipt id by ``r*``."""
    if isinstance(value, dict):
        return {k: comparable(v, names) for k, v in value.items() if k not in _TIMES}
    if isinstance(value, list):
        return [comparable(v, names) for v in value]
    if isinstance(value, str):
        return _ID.sub(lambda m: names.get(m.group(0), "r*"), value)
    return value
