"""The embedded store (DuckDB) beside the shared one (PostgreSQL), in one run, each figure
beside a floor measured in the same run (issue #36).

    python -m benchmarks shared-store [--sizes 10000,100000] [--calls 200]
        [--servers 8] [--server-calls 100] [--shared-size 10000]

The PostgreSQL server is a throwaway one this run starts (``benchmarks.pg_cluster``:
127.0.0.1, ``fsync`` and ``synchronous_commit`` off) and stops. Two parts:

* **one process** (a): ``remember`` and ``recall`` through the memory service in this
  process (``server.runtime.open_runtime``: no MCP, no owner), at each of ``--sizes``
  memories, DuckDB opened embedded, PostgreSQL through ``PgDatabase``; p50/p99 of
  ``--calls`` timed calls each after a few untimed ones. Each timed call is followed by a
  trivial query, timed, so the floor is taken at the same moments: ``SELECT 1`` on an
  in-memory DuckDB connection, and one ``SELECT 1`` round trip to the PostgreSQL server.
* **many servers** (b): ``--servers`` ``anchormem serve`` processes (MCP stdio), every one
  driven from one thread (``benchmarks.rawclient.LoopClients``), ``--server-calls`` mixed
  calls each (remember, recall, remember, retract of the first of the two), all at once,
  on a store of ``--shared-size`` memories: calls/s together, p50/p99 of one call, errors,
  and whether every acknowledged write is there afterwards (each remembered id stored, each
  retracted id refuted by its retraction), read from the store once the servers are gone.
  DuckDB: the servers share one store file the way they do today, through the store's
  owner process (adr/0012), all in the clone at HEAD, since the owner refuses a server of
  another repository: the run tries one from the other clone and prints what it is told.
  PostgreSQL, one project, each run on a fresh copy of the seeded memories: all servers in
  the clone at HEAD (DuckDB's setting), then half there and half in a clone at an older
  commit (``v3``). The floor: as many ``benchmarks.floor`` processes (a trivial tool),
  driven the same way.

Both stores hold the same memories: a DuckDB store is seeded once per size
(``benchmarks.seed.cached_store``, cached) and its tables are copied into a new
PostgreSQL project with ``COPY`` (``seed_postgres``), which takes seconds where seeding
through ``remember`` would take minutes. Figures are printed, never asserted on.
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

__all__ = ["Mixed", "main", "run", "seed_postgres"]

DEFAULT_SIZES = (10000, 100000)
DEFAULT_CALLS = 200
WARMUP = 5
OLD_TAG = "v3"  # the second clone's commit: older than the fixture's HEAD (v4)
_NEW_NOTES = 10_000_000  # index of the first note written by the run: past any seeded one
_WARM_LINE = "anchormem: conflict check warm:"
_COL = 34
_LABEL = 34


# -- seeding PostgreSQL from a seeded DuckDB store ------------------------------------------
def seed_postgres(duckdb_path: Path, url: str, project: str) -> dict[str, int]:
    """A new project ``project`` at ``url`` holding ``duckdb_path``'s memories: the schema
    made by ``PgDatabase`` (as a server would make it), then every table but ``meta``
    copied with ``COPY`` (the tables have the same columns), then analysed. Returns the
    rows copied per table."""
    import duckdb
    import psycopg

    from store.pg.database import PgDatabase
    from store.pg.url import project_schema

    PgDatabase(url, project).close()
    schema = project_schema(project)
    copied: dict[str, int] = {}
    source = duckdb.connect(str(duckdb_path), read_only=True)
    try:
        with psycopg.connect(url) as con:
            con.execute(f'SET search_path TO "{schema}"')
            con.execute("SET TIME ZONE 'UTC'")
            tables = [
                str(r[0])
                for r in con.execute(
                    "SELECT table_name FROM information_schema.tables WHERE table_schema = %s"
                    " AND table_name NOT IN ('meta', 'changes') ORDER BY table_name",
                    [schema],
                ).fetchall()
            ]
            for table in tables:
                columns = [
                    str(r[0])
                    for r in con.execute(
                        "SELECT column_name FROM information_schema.columns"
                        " WHERE table_schema = %s AND table_name = %s ORDER BY ordinal_position",
                        [schema, table],
                    ).fetchall()
                ]
                names = ", ".join(columns)
                result = source.execute(f"SELECT {names} FROM {table}")
                count = 0
                with con.cursor() as cur, cur.copy(f"COPY {table} ({names}) FROM STDIN") as copy:
                    while rows := result.fetchmany(10_000):
                        for row in rows:
                            copy.write_row(row)
                        count += len(rows)
                copied[table] = count
            con.commit()
        with psycopg.connect(url, autocommit=True) as con:
            con.execute(f'SET search_path TO "{schema}"')
            con.execute("ANALYZE")
    finally:
        source.close()
    return copied


# -- figures --------------------------------------------------------------------------------
def _percentiles(samples: Sequence[float]) -> tuple[float, float]:
    """p50 and p99, in ms, of samples in seconds."""
    if not samples:
        return float("nan"), float("nan")
    if len(samples) == 1:
        return samples[0] * 1000, samples[0] * 1000
    cuts = statistics.quantiles(samples, n=100, method="inclusive")
    return cuts[49] * 1000, cuts[98] * 1000


def _p(samples: Sequence[float]) -> str:
    p50, p99 = _percentiles(samples)
    return f"p50 {p50:.2f} ms  p99 {p99:.2f} ms"


def _row(label: str, duck: str, pg: str) -> str:
    return f"  {label:<{_LABEL}}{duck:<{_COL}}{pg}"


def _load() -> str:
    try:
        return " ".join(f"{x:.2f}" for x in os.getloadavg())
    except OSError:
        return "unknown"


# -- (a) one process ------------------------------------------------------------------------
@dataclass
class Timings:
    remember: list[float] = field(default_factory=list)
    recall: list[float] = field(default_factory=list)
    floor: list[float] = field(default_factory=list)
    empty_recalls: int = 0
    opened_s: float = 0.0


def _floor_query(pg_url: str | None) -> tuple[Callable[[], object], Callable[[], None]]:
    """A trivial query and how to close it: one ``SELECT 1`` round trip to the server, or
    ``SELECT 1`` on an in-memory DuckDB connection."""
    if pg_url is not None:
        import psycopg

        con: Any = psycopg.connect(pg_url, autocommit=True)
        return (lambda: con.execute("SELECT 1").fetchone()), con.close
    import duckdb

    duck = duckdb.connect(":memory:")
    return (lambda: duck.execute("SELECT 1").fetchone()), duck.close


def _one_process(
    repo: Path, db: str, env: dict[str, str], calls: int, vocab: Any, start: int
) -> Timings:
    """``calls`` remembers and recalls through ``open_runtime``'s service, each followed by
    a timed floor query; ``start``: the index of the first note remembered."""
    from benchmarks.seed import notes, queries
    from server.config import Settings
    from server.runtime import open_runtime

    pg_url = db if db.startswith("postgresql") else None
    timings = Timings()
    opening = time.perf_counter()
    runtime = open_runtime(Settings.resolve(str(repo), db, env=env))
    floor, close_floor = _floor_query(pg_url)
    try:
        # As a server starts: the copy read and the contradiction check warmed, untimed.
        runtime.start_background(load_now=True)
        for thread in list(runtime._background):
            if thread.name == "anchormem-warm":
                thread.join(timeout=600)
        timings.opened_s = time.perf_counter() - opening
        service = runtime.service
        written = list(notes(vocab, start, calls + WARMUP))
        asked = queries(vocab, calls + WARMUP, seed=start % 997)

        def timed(call: Callable[[], Any], into: list[float] | None) -> Any:
            began = time.perf_counter()
            result = call()
            if into is not None:
                into.append(time.perf_counter() - began)
                began = time.perf_counter()
                floor()
                timings.floor.append(time.perf_counter() - began)
            return result

        for i, (item, query) in enumerate(zip(written, asked, strict=True)):
            warm = i < WARMUP
            remember = functools.partial(
                service.remember,
                item.text,
                subject=item.subject,
                kind=item.kind,
                source=item.source,
                origin="bench",
                anchors=list(item.anchors) or None,
                scope=item.scope,
            )
            timed(remember, None if warm else timings.remember)
            found = timed(
                functools.partial(service.recall, query), None if warm else timings.recall
            )
            if not warm and not found.readings:
                timings.empty_recalls += 1
    finally:
        close_floor()
        runtime.close()
    return timings


# -- (b) many servers -----------------------------------------------------------------------
@dataclass
class Mixed:
    """What the servers of one run were told and answered."""

    latencies: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    remembered: set[str] = field(default_factory=set)
    retracted: set[str] = field(default_factory=set)
    wall_s: float = 0.0
    present: int = 0  # acknowledged remembers found stored afterwards
    refuted: int = 0  # acknowledged retractions found refuted by retraction afterwards
    calls: int = 0

    def line(self) -> str:
        p50, p99 = _percentiles(self.latencies)
        rate = self.calls / self.wall_s if self.wall_s else float("nan")
        return (
            f"{self.calls} calls, {rate:.1f} calls/s, p50 {p50:.1f} ms, p99 {p99:.1f} ms;"
            f" {len(self.errors)} errors; remembers acknowledged {len(self.remembered)},"
            f" present {self.present}; retracts acknowledged {len(self.retracted)},"
            f" present {self.refuted}"
        )


class _MixedCalls:
    """Server ``n``'s calls: two untimed first (a recall, then a remember: the store's copy
    and the code read), then, timed, remember, recall, remember, retract (the memory the
    first remember of the four stored), over and over; the notes distinct per server."""

    def __init__(self, vocab: Any, tally: Mixed, floor: bool) -> None:
        from benchmarks.seed import queries

        self._vocab = vocab
        self._queries = queries(vocab, 64, seed=7)
        self._tally = tally
        self._floor = floor
        self._last: dict[int, str] = {}  # server -> the id its last remember acknowledged

    def _remember(self, n: int, i: int) -> tuple[str, dict[str, Any]]:
        from benchmarks.seed import note

        args = note(self._vocab, _NEW_NOTES + n * 100_000 + i).arguments()
        args["origin"] = f"bench-{n}"
        return "remember", args

    def warm_pick(self, n: int, i: int) -> tuple[str, dict[str, Any]]:
        if self._floor:
            return self.pick(n, i)
        if i % 2 == 0:
            return "recall", {"query": self._queries[n % len(self._queries)]}
        return self._remember(n, 90_000 + i)

    def pick(self, n: int, i: int) -> tuple[str, dict[str, Any]]:
        if self._floor:
            from benchmarks.floor import TOOL

            return TOOL, {}
        step = i % 4
        if step == 3 and n in self._last:
            return "retract", {"id": self._last.pop(n), "reason": "benchmark: retracted"}
        if step in (0, 2):
            return self._remember(n, i)
        return "recall", {"query": self._queries[(n * 31 + i) % len(self._queries)]}

    def warm_answered(self, n: int, i: int, tool: str, seconds: float, result: Any) -> None:
        self._acknowledged(n, i, tool, result, keep=False)

    def answered(self, n: int, i: int, tool: str, seconds: float, result: Any) -> None:
        self._tally.latencies.append(seconds)
        self._tally.calls += 1
        self._acknowledged(n, i, tool, result, keep=i % 4 == 0)

    def _acknowledged(self, n: int, i: int, tool: str, result: Any, keep: bool) -> None:
        if result.is_error:
            self._tally.errors.append(f"{tool}: {str(result.content)[:200]}")
            return
        content = result.structured_content or {}
        if tool == "remember" and content.get("id"):
            memory_id = str(content["id"])
            self._tally.remembered.add(memory_id)
            if keep:
                self._last[n] = memory_id
        elif tool == "retract":
            self._tally.retracted.add(str(content.get("id")))


def _script() -> str:
    return str(Path(sys.executable).with_name("anchormem"))


def _base_env(home: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("ANCHORMEM_")}
    env["ANCHORMEM_HOME"] = str(home)
    return env


WARM_CALLS = 2


def _drive(
    clones: Sequence[tuple[Path, dict[str, str]]],
    command: Sequence[str],
    servers: int,
    calls: int,
    vocab: Any,
    log: TextIO,
    ready: Callable[[], None],
    floor: bool = False,
) -> Mixed:
    """``servers`` processes of ``command``, spread evenly over ``clones`` (each a work tree
    and its environment), ``WARM_CALLS`` untimed calls each, then ``ready()``, then
    ``calls`` timed calls each, all servers at once, all driven from this thread."""
    from benchmarks.rawclient import LoopClients, RawClient

    tally = Mixed()
    mixed = _MixedCalls(vocab, tally, floor)
    per = [servers // len(clones) + (k < servers % len(clones)) for k in range(len(clones))]
    (first_cwd, first_env), rest = clones[0], clones[1:]
    clients = LoopClients(
        command[0], command[1:], per[0], cwd=str(first_cwd), env=first_env, errlog=log
    )
    # The servers of the other clones join the same loop (LoopClients takes one work tree).
    for (cwd, env), count in zip(rest, per[1:], strict=True):
        clients._clients += [
            RawClient(command[0], command[1:], cwd=str(cwd), env=env, errlog=log)
            for _ in range(count)
        ]
    with clients:
        clients.run(WARM_CALLS, mixed.warm_pick, mixed.warm_answered)
        ready()
        tally.wall_s = clients.run(calls, mixed.pick, mixed.answered)
    return tally


def _check_stored(tally: Mixed, rows: Sequence[tuple[Any, ...]]) -> None:
    status = {str(r[0]): (str(r[1]), r[2]) for r in rows}
    tally.present = len([i for i in tally.remembered if i in status])
    tally.refuted = len(
        [i for i in tally.retracted if status.get(i, ("", None)) == ("REFUTED", "retraction")]
    )


def _wait_lines(path: Path, count: int, within: float = 600.0) -> None:
    """Until ``path`` holds ``count`` warm lines (each server's, or the owner's)."""
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        if path.exists() and path.read_text(errors="replace").count(_WARM_LINE) >= count:
            return
        time.sleep(0.05)
    raise RuntimeError(f"{count} warm-up lines did not appear in {path} within {within:g} s")


def _many_duckdb(
    work: Path, clone_a: Path, clone_b: Path, seeded: Path, servers: int, calls: int, vocab: Any
) -> tuple[Mixed, str]:
    """The DuckDB run, and what a server of the other clone is told by the owner."""
    import duckdb

    from server.store_location import repository_store
    from store.sharing.client import OwnerLink
    from store.sharing.protocol import Files

    env = _base_env(work / "duckdb-home")

    store = repository_store(clone_a, env)
    store.parent.mkdir(mode=0o700, parents=True)
    shutil.copyfile(seeded, store)
    log_path = work / "duckdb-servers.log"
    owner_log = Path(f"{store}.owner.log")
    with log_path.open("w") as log:
        tally = _drive(
            [(clone_a, env)], [_script(), "serve"], servers, calls, vocab, log,
            lambda: _wait_lines(owner_log, 1),
        )  # fmt: skip
    # A server in the other clone, pointed at the same file, while the owner still runs.
    other = subprocess.run(
        [_script(), "recall", "checkout", "--json", "--db", str(store)],
        cwd=clone_b, env=env, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    told = (other.stderr.strip().splitlines() or ["(nothing)"])[-1]
    told = f"exit {other.returncode}: {told[:200]}" if other.returncode else "served (exit 0)"
    OwnerLink(Files(store), None, env={}, wait_s=60, version="bench").stop_owner()
    con = duckdb.connect(str(store))  # replays the journal
    try:
        rows = con.execute("SELECT id, status, refuted_by FROM memories").fetchall()
    finally:
        con.close()
    _check_stored(tally, rows)
    return tally, told


def _many_postgres(
    work: Path,
    clones: Sequence[Path],
    url: str,
    project: str,
    servers: int,
    calls: int,
    vocab: Any,
) -> Mixed:
    import psycopg

    from store.pg.url import project_schema

    env = _base_env(work / "pg-home")
    env["ANCHORMEM_DB"] = url
    env["ANCHORMEM_PROJECT"] = project
    log_path = work / f"pg-servers-{project}.log"
    with log_path.open("w") as log:
        tally = _drive(
            [(clone, env) for clone in clones], [_script(), "serve"], servers, calls, vocab, log,
            lambda: _wait_lines(log_path, servers),
        )  # fmt: skip
    with psycopg.connect(url) as con:
        con.execute(f'SET search_path TO "{project_schema(project)}"')
        rows = con.execute("SELECT id, status, refuted_by FROM memories").fetchall()
    _check_stored(tally, rows)
    return tally


def _floor_servers(work: Path, clone: Path, servers: int, calls: int, vocab: Any) -> Mixed:
    with (work / "floor-servers.log").open("w") as log:
        command = [sys.executable, "-I", "-m", "benchmarks.floor"]
        clones = [(clone, _base_env(work / "floor-home"))]
        return _drive(clones, command, servers, calls, vocab, log, lambda: None, floor=True)


# -- the run --------------------------------------------------------------------------------
@contextlib.contextmanager
def _cluster() -> Iterator[Any]:
    from benchmarks.pg_cluster import start_cluster

    cluster = start_cluster()
    try:
        yield cluster
    finally:
        cluster.close()


def run(
    sizes: Sequence[int],
    calls: int,
    servers: int,
    server_calls: int,
    shared_size: int,
    cache: Path | None = None,
    out: Callable[[str], None] = print,
) -> dict[str, Any]:
    """Every figure, printed through ``out`` as it is measured; returned as well."""
    import psycopg

    from benchmarks.seed import Vocabulary, cache_dir, cached_store, store_key
    from experiments.fixture import build_fixture
    from experiments.scratch import git

    def say(line: str) -> None:
        out(line)
        sys.stdout.flush()

    results: dict[str, Any] = {"one_process": {}, "many": {}}
    with tempfile.TemporaryDirectory(prefix="anchormem-shared-store-") as tmp, _cluster() as pg:
        work = Path(tmp)
        clone_a, clone_b = work / "clone-a", work / "clone-b"
        build_fixture(clone_a)
        git(work, "clone", "-q", str(clone_a), str(clone_b))
        git(clone_b, "checkout", "-q", OLD_TAG)
        heads = [git(c, "rev-parse", "--short", "HEAD") for c in (clone_a, clone_b)]
        vocab = Vocabulary.of(clone_a)
        url = pg.url()
        with psycopg.connect(url) as con:
            version = str(con.execute("SHOW server_version").fetchone()[0])  # type: ignore[index]
        say(
            f"DuckDB beside PostgreSQL {version} (a throwaway server on 127.0.0.1 started by"
            f" this run: fsync and synchronous_commit off); {os.cpu_count()} CPUs,"
            f" load average {_load()}"
        )
        say(
            f"(a) one process: the memory service in-process (no MCP), {calls} timed calls"
            f" per figure after {WARMUP} untimed; each call followed by a floor query"
        )
        say(_row("", "DuckDB (embedded file)", "PostgreSQL (TCP 127.0.0.1)"))
        for k, size in enumerate(sizes):
            was_cached = (
                (cache or cache_dir()).joinpath(f"{size}-{store_key(clone_a)}.duckdb").is_file()
            )
            began = time.perf_counter()
            seeded = cached_store(size, clone_a, cache)
            seed_s = time.perf_counter() - began
            duck_db = work / f"a-{size}.duckdb"
            shutil.copyfile(seeded, duck_db)
            project = f"bench_a_{size}"
            began = time.perf_counter()
            copied = seed_postgres(seeded, url, project)
            copy_s = time.perf_counter() - began
            start = _NEW_NOTES + 1_000_000 * (k + 1)
            duck = _one_process(
                clone_a, str(duck_db), {"ANCHORMEM_SHARE": "0"}, calls, vocab, start
            )
            shared = _one_process(clone_a, url, {"ANCHORMEM_PROJECT": project}, calls, vocab, start)
            head = f"{size} memories"
            say(
                _row(
                    f"{head}: seeded",
                    "from the seed cache" if was_cached else f"seeded in {seed_s:.1f} s",
                    f"COPY {copy_s:.1f} s ({copied.get('memories', 0)} rows)",
                )
            )
            say(
                _row(
                    f"{head}: opened + warmed", f"{duck.opened_s:.1f} s", f"{shared.opened_s:.1f} s"
                )
            )
            say(_row(f"{head}: floor (SELECT 1)", _p(duck.floor), _p(shared.floor)))
            say(_row(f"{head}: remember", _p(duck.remember), _p(shared.remember)))
            say(_row(f"{head}: recall", _p(duck.recall), _p(shared.recall)))
            if duck.empty_recalls or shared.empty_recalls:
                say(
                    _row(
                        f"{head}: recalls finding none",
                        str(duck.empty_recalls),
                        str(shared.empty_recalls),
                    )
                )
            results["one_process"][size] = {"duckdb": duck, "postgresql": shared, "copy_s": copy_s}
            duck_db.unlink()

        say(
            f"(b) {servers} `anchormem serve` processes (MCP stdio, all driven from one thread:"
            f" benchmarks.rawclient.LoopClients) x {server_calls} mixed calls each (remember,"
            f" recall, remember, retract), after 2 untimed each, on {shared_size} memories"
        )
        seeded = cached_store(shared_size, clone_a, cache)
        floor = _floor_servers(work, clone_a, servers, server_calls, vocab)
        say(f"  floor      {servers} trivial-tool servers: {floor.line().split(';')[0]}")
        duck_many, told = _many_duckdb(work, clone_a, clone_b, seeded, servers, server_calls, vocab)
        say(f"  DuckDB     {servers} servers in clone a ({heads[0]}), one file, its owner:")
        say(f"             {duck_many.line()}")
        say(f"             a server in clone b ({heads[1]}) on the same file: {told}")
        half = servers // 2
        runs = (
            ("one", (clone_a,), f"{servers} servers in clone a ({heads[0]})"),
            (
                "two",
                (clone_a, clone_b),
                f"{servers - half} servers in clone a ({heads[0]}) + {half} in clone b"
                f" ({heads[1]})",
            ),
        )
        pg_many: dict[str, Mixed] = {}
        for name, clones, what in runs:
            project = f"bench_b_{name}"
            began = time.perf_counter()
            seed_postgres(seeded, url, project)
            copy_s = time.perf_counter() - began
            pg_many[name] = _many_postgres(work, clones, url, project, servers, server_calls, vocab)
            say(f"  PostgreSQL {what}, one project (seeded by COPY in {copy_s:.1f} s):")
            say(f"             {pg_many[name].line()}")
        for label, tally in (("DuckDB", duck_many), *(("PostgreSQL", t) for t in pg_many.values())):
            for error in tally.errors[:3]:
                say(f"  {label} error: {error}")
        results["many"] = {"floor": floor, "duckdb": duck_many, "postgresql": pg_many, "told": told}
    say(f"load average at the end {_load()}")
    return results


def _sizes(text: str) -> list[int]:
    try:
        sizes = [int(part) for part in text.split(",") if part.strip()]
    except ValueError:
        raise SystemExit(f"shared-store: --sizes must be numbers, not {text!r}") from None
    if not sizes or any(size < 1 for size in sizes):
        raise SystemExit("shared-store: every store size must be at least 1")
    return sizes


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks shared-store", description=(__doc__ or "").split("\n\n")[0]
    )
    parser.add_argument(
        "--sizes",
        default=",".join(map(str, DEFAULT_SIZES)),
        help="store sizes (memories) of the one-process figures, comma-separated"
        f" (default {','.join(map(str, DEFAULT_SIZES))})",
    )
    parser.add_argument(
        "--calls", type=int, default=DEFAULT_CALLS,
        help=f"timed remembers and recalls per size and store (default {DEFAULT_CALLS})",
    )  # fmt: skip
    parser.add_argument("--servers", type=int, default=8, help="servers at once (default 8)")
    parser.add_argument(
        "--server-calls", type=int, default=100, help="timed calls per server (default 100)"
    )
    parser.add_argument(
        "--shared-size", type=int, default=10000,
        help="memories in the store the servers share (default 10000)",
    )  # fmt: skip
    parser.add_argument(
        "--cache",
        type=Path,
        help="where seeded DuckDB stores are kept (default ANCHORMEM_BENCH_CACHE or"
        " ~/.cache/anchormem/bench)",
    )
    args = parser.parse_args(argv)
    if args.calls < 1 or args.servers < 2 or args.server_calls < 4 or args.shared_size < 1:
        raise SystemExit(
            "shared-store: --calls at least 1, --servers at least 2 (two clones),"
            " --server-calls at least 4 (one remember, recall, remember, retract)"
        )
    run(
        _sizes(args.sizes),
        args.calls,
        args.servers,
        args.server_calls,
        args.shared_size,
        args.cache,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
