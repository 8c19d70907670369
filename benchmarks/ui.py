"""The web inspector's pages at a store of N memories: the time to the first byte and to
the whole page, beside the floor (a constant Starlette page served the same way).

    python -m benchmarks ui [--size 10000] [--requests 30] [--warmup 3] [--browser]

Everything is measured in one run: ``anchormem ui --repo REPO --db STORE --port 0`` on a
scratch copy of the experiments' shopfront repository and a copy of a store seeded with N
memories about it (``benchmarks/seed.py``, cached), as a person starts it; and the floor,
``python -m benchmarks.web_floor``. Each is its own process. A request is one
``GET`` on a connection already open, timed from its first byte sent to the answer's
first byte (first byte) and to its last (whole). Each timed request is followed by one
to the floor, so every figure has the floor's p50 from the same moments beside it.

Pages: the memories page (the first page, newest first; a search, recall's ranking; the
20th page; a filter the service does not take, ``kind=decision``, read from the newest
memories until the page is full), one memory, and the review page. The first request of
all, to the memories page right after the link is printed, is reported on its own
(cold). With ``--browser`` (and /usr/bin/chromium), the memories page is also loaded
in headless Chromium, and the browser's own navigation timing is printed: the first
byte, and the load event (the page laid out with its style sheet and script).

The targets (issue 35): the memories page of a 10,000-memory store whole within 1 s, its
first byte within 200 ms.
"""

from __future__ import annotations

import argparse
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote_plus, urlsplit

__all__ = ["Timing", "main", "run"]

DEFAULT_SIZE = 10_000
DEFAULT_REQUESTS = 30
TARGET_WHOLE_MS = 1000.0
TARGET_FIRST_BYTE_MS = 200.0
CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
_LABEL = 34


@dataclass(frozen=True)
class Timing:
    """One page's figures: p50 and p99 of each measure, in ms."""

    label: str
    requests: int
    first_byte: tuple[float, float]
    whole: tuple[float, float]
    size_kb: float
    floor_first_byte_p50: float

    def line(self) -> str:
        return (
            f"{self.label:<{_LABEL}}first byte p50 {self.first_byte[0]:7.1f} ms"
            f"  p99 {self.first_byte[1]:7.1f} ms   whole p50 {self.whole[0]:7.1f} ms"
            f"  p99 {self.whole[1]:7.1f} ms   ({self.size_kb:.0f} KB; floor beside it"
            f" p50 {self.floor_first_byte_p50:.1f} ms)"
        )


class _Site:
    """A page server on 127.0.0.1 (the inspector, or the floor) and one open connection."""

    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.port = int(parts.port or 80)
        token = parts.query.removeprefix("token=")
        self.cookie = f"anchormem_ui_{self.port}={token}" if token else ""
        self.sock = socket.create_connection(("127.0.0.1", self.port))

    def get(self, path: str) -> tuple[float, float, bytes]:
        """(seconds to the first byte, seconds to the whole answer, its body); the
        answer must be a 200 with a Content-Length (every page's is)."""
        head = f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
        if self.cookie:
            head += f"Cookie: {self.cookie}\r\n"
        started = time.perf_counter()
        self.sock.sendall((head + "\r\n").encode())
        data = self.sock.recv(1 << 16)
        first = time.perf_counter() - started
        while b"\r\n\r\n" not in data:
            data += self._more()
        header, _, body = data.partition(b"\r\n\r\n")
        lines = header.decode("latin-1").split("\r\n")
        if not lines[0].startswith("HTTP/1.1 200"):
            raise RuntimeError(f"GET {path}: {lines[0]}")
        fields = dict(line.lower().split(": ", 1) for line in lines[1:] if ": " in line)
        length = int(fields["content-length"])
        while len(body) < length:
            body += self._more()
        return first, time.perf_counter() - started, body[:length]

    def _more(self) -> bytes:
        data = self.sock.recv(1 << 16)
        if not data:
            raise RuntimeError("the server closed the connection")
        return data

    def close(self) -> None:
        self.sock.close()


def _p50_p99(samples: Sequence[float]) -> tuple[float, float]:
    if len(samples) == 1:
        return samples[0] * 1000, samples[0] * 1000
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def _env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_HOME"] = str(home)  # nothing of the person's data folder is touched
    return env


def _start(
    argv: Sequence[str], env: dict[str, str], log: Path
) -> tuple[subprocess.Popen[str], str]:
    """A server started by ``argv``, and the URL it prints first on stdout."""
    import select

    process = subprocess.Popen(
        list(argv), stdout=subprocess.PIPE, stderr=log.open("w"), text=True, env=env
    )
    assert process.stdout is not None
    ready, _, _ = select.select([process.stdout], [], [], 120)
    line = process.stdout.readline().strip() if ready else ""
    if not line.startswith("http://"):
        process.kill()
        raise RuntimeError(f"{argv[0]} printed no URL: {log.read_text()[-2000:]}")
    return process, line


def _stop(process: subprocess.Popen[str]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def _anchormem() -> str:
    script = Path(sys.executable).with_name("anchormem")
    return str(script) if script.exists() else "anchormem"


def _measure(
    label: str, path: str, page: _Site, floor: _Site, requests: int, warmup: int
) -> Timing:
    for _ in range(warmup):
        page.get(path)
        floor.get("/")
    firsts, wholes, floors, size = [], [], [], 0
    for _ in range(requests):
        first, whole, body = page.get(path)
        size = len(body)
        firsts.append(first)
        wholes.append(whole)
        floors.append(floor.get("/")[0])
    return Timing(
        label, requests, _p50_p99(firsts), _p50_p99(wholes), size / 1024, _p50_p99(floors)[0]
    )


def _browser(url: str, requests: int) -> tuple[float, float] | None:
    """The memories page loaded in headless Chromium: p50 of the navigation's first byte
    and of its load event, in ms; None without the system's Chromium or Selenium."""
    if not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()):
        return None
    try:
        from selenium import webdriver
        from selenium.webdriver.chrome.service import Service
    except ImportError:
        return None
    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)
    for arg in (
        "--headless=new",
        "--no-sandbox",
        "--disable-dev-shm-usage",
        "--window-size=1280,800",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        driver.get(url)  # the link: sets the cookie, then the page
        base = url.split("?", 1)[0]
        firsts, loads = [], []
        script = (
            "const n = performance.getEntriesByType('navigation')[0];"
            "return [n.responseStart - n.startTime, n.loadEventEnd - n.startTime];"
        )
        for _ in range(requests):
            driver.get(base)
            first, load = driver.execute_script(script)
            firsts.append(first / 1000)
            loads.append(load / 1000)
        return _p50_p99(firsts)[0], _p50_p99(loads)[0]
    finally:
        driver.quit()


def run(
    size: int,
    requests: int,
    warmup: int,
    browser: bool = False,
    cache: Path | None = None,
    out: Callable[[str], None] = print,
) -> list[Timing]:
    """Start the floor and ``anchormem ui`` on a seeded store of ``size`` memories, time
    each page; ``out`` gets each line."""
    from benchmarks.seed import Vocabulary, cached_store, queries
    from experiments.fixture import build_fixture

    def say(line: str) -> None:
        out(line)
        sys.stdout.flush()

    timings: list[Timing] = []
    with tempfile.TemporaryDirectory(prefix="anchormem-ui-bench-") as tmp:
        work = Path(tmp)
        repo = work / "repo"
        build_fixture(repo)
        db = work / "store" / "memory.duckdb"
        db.parent.mkdir(mode=0o700)
        shutil.copyfile(cached_store(size, repo, cache), db)
        env = _env(work / "home")
        floor_process, floor_url = _start(
            [sys.executable, "-I", "-m", "benchmarks.web_floor"], env, work / "floor.log"
        )
        ui_process = None
        try:
            ui_process, link = _start(
                [_anchormem(), "ui", "--repo", str(repo), "--db", str(db), "--port", "0"],
                env,
                work / "ui.log",
            )
            page, floor = _Site(link), _Site(floor_url)
            try:
                first, whole, listed = page.get("/")
                say(
                    f"anchormem ui at {size} memories, {requests} requests per page after"
                    f" {warmup} warm-up; {os.cpu_count()} CPUs, load average {_load()}"
                )
                say(
                    f"{'memories, first page, cold':<{_LABEL}}first byte {first * 1000:7.1f}"
                    f" ms   whole {whole * 1000:7.1f} ms   (the first request after the link)"
                )
                floor_timing = _measure("floor: a constant page", "/", floor, floor, requests, 0)
                timings.append(floor_timing)
                say(floor_timing.line())
                one = _first_id(listed)
                query = quote_plus(queries(Vocabulary.of(repo), 1)[0])
                for label, path in (
                    ("memories, first page", "/"),
                    (f"memories, search {query!r}", f"/?q={query}"),
                    ("memories, page 20", "/?page=20"),
                    ("memories, kind=decision", "/?kind=decision"),
                    ("one memory", f"/memories/{one}"),
                    ("review & conflicts", "/review"),
                ):
                    timing = _measure(label, path, page, floor, requests, warmup)
                    timings.append(timing)
                    say(timing.line())
            finally:
                page.close()
                floor.close()
            if browser:
                seen = _browser(link, requests)
                if seen is None:
                    say("browser: no /usr/bin/chromium with chromedriver and Selenium; skipped")
                else:
                    say(
                        f"{'memories, first page, Chromium':<{_LABEL}}first byte p50"
                        f" {seen[0]:7.1f} ms   load event p50 {seen[1]:7.1f} ms"
                    )
            main_page = next(t for t in timings if t.label == "memories, first page")
            met = (
                main_page.whole[0] <= TARGET_WHOLE_MS
                and main_page.first_byte[0] <= TARGET_FIRST_BYTE_MS
            )
            say(
                f"target: the memories page whole <= {TARGET_WHOLE_MS:.0f} ms, first byte <="
                f" {TARGET_FIRST_BYTE_MS:.0f} ms (p50): {'met' if met else 'NOT met'};"
                f" load average at the end {_load()}"
            )
        finally:
            if ui_process is not None:
                _stop(ui_process)
            _stop(floor_process)
            _stop_owner(db)
    return timings


def _first_id(page: bytes) -> str:
    """The id of the first memory a memories page lists."""
    marker = b'data-id="'
    at = page.index(marker) + len(marker)
    return page[at : page.index(b'"', at)].decode()


def _stop_owner(db: Path) -> None:
    """The store's owner outlives the inspector by its idle time: stop it now."""
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    OwnerLink(Files(db), None, env={}, wait_s=30, version="bench").stop_owner()


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks ui", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument("--size", type=int, default=DEFAULT_SIZE, help="memories in the store")
    parser.add_argument(
        "--requests", type=int, default=DEFAULT_REQUESTS, help="timed requests per page"
    )
    parser.add_argument("--warmup", type=int, default=3, help="untimed requests first")
    parser.add_argument(
        "--browser", action="store_true", help="also load the page in headless Chromium"
    )
    parser.add_argument(
        "--cache", type=Path, help="where seeded stores are kept (default ~/.cache/anchormem/bench)"
    )
    args = parser.parse_args(argv)
    if args.size < 1 or args.requests < 1 or args.warmup < 0:
        raise SystemExit("benchmarks ui: --size and --requests at least 1, --warmup at least 0")
    run(args.size, args.requests, args.warmup, args.browser, args.cache)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
