"""``anchormem migrate``: copy one store's memories into another, e.g. this repository's
embedded store into a shared PostgreSQL store (``--to postgresql://...``) and back
(``--from postgresql://...``).

It is ``export`` read from the source's service and ``import`` into the destination's
(``store.transfer``), so a migration merges exactly as an import does: by id, then by claim,
retractions and forgets carried over, each added memory through the trust gate, and the
whole of it one write. The source is only read (a shared project that does not exist is
refused before anything would create it); running it again adds nothing and says so. The
connection to a shared store is tried before either store is opened, so a wrong address or
password is said at once, in libpq's words, with the password never shown.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from server.cli_tables import table, terminal_width
from store.errors import InvalidInput, StoreUnavailable
from store.pg.url import is_postgres_url, project_schema, reason, shown

if TYPE_CHECKING:
    from server.config import Settings
    from store.transfer import ImportReport

__all__ = ["run_migrate"]

EXIT_OK, EXIT_FAILURE = 0, 1
_CONNECT_TIMEOUT_S = 10


@dataclass(frozen=True)
class _End:
    """One side of a migration: its settings, and the project when it is a shared store."""

    settings: Settings
    project: str | None

    @property
    def label(self) -> str:
        if self.settings.pg_url is None:
            return str(self.settings.db)
        return f"{shown(self.settings.pg_url)} (project {self.project})"

    @property
    def key(self) -> str:
        """What names the store, to refuse a migration of a store into itself."""
        if self.settings.pg_url is None:
            return os.path.realpath(self.settings.db)
        return f"{shown(self.settings.pg_url)}#{self.project}"


def run_migrate(args: argparse.Namespace, as_json: bool) -> int:
    """``--to`` and ``--from`` name a store each (a ``postgresql://`` address or a DuckDB
    file); the one not named is this repository's embedded store (``--db``, else its
    default store)."""
    if args.target is None and args.source is None:
        raise InvalidInput("give --to STORE, --from STORE, or both")
    env = _environment(os.environ, args.project)
    source = _end(args, args.source, env)
    target = _end(args, args.target, env)
    if source.key == target.key:
        raise InvalidInput(f"{source.label} is both the source and the destination")
    _check_source(source)
    if target.settings.pg_url is not None and target.project is not None:
        _reach(target.settings.pg_url, target.project)
    every = max(0, int(args.progress_every))

    from server.runtime import open_runtime

    rt = open_runtime(source.settings)
    try:
        lines = list(_read(rt.service.export(None), source.label, every))
    finally:
        rt.close()
    memories = sum(1 for line in lines if line.startswith('{"type":"memory"'))
    if every and memories >= every:
        print(
            f"anchormem: importing {memories} memories into {target.label}, as one write",
            file=sys.stderr,
            flush=True,
        )
    rt = open_runtime(target.settings)
    try:
        report = rt.service.import_lines(lines)
    finally:
        rt.close()
    result = _result(report, source, target, memories)
    if as_json:
        print(json.dumps(result, indent=2, ensure_ascii=False))
    else:
        print(_text(result))
    return EXIT_FAILURE if result["refused"] else EXIT_OK


def _environment(env: Mapping[str, str], project: str | None) -> dict[str, str]:
    """The environment both ends are resolved in: ``--project`` over ``ANCHORMEM_PROJECT``;
    an ``ANCHORMEM_DB`` naming a shared store does not name the embedded end."""
    resolved = dict(env)
    if is_postgres_url(resolved.get("ANCHORMEM_DB")):
        del resolved["ANCHORMEM_DB"]
    if project is not None:
        resolved["ANCHORMEM_PROJECT"] = project
    return resolved


def _end(args: argparse.Namespace, named: str | None, env: Mapping[str, str]) -> _End:
    from server.config import Settings

    settings = Settings.resolve(args.repo, named or args.db, env=env, person=True)
    project = None
    if settings.pg_url is not None:
        from server.runtime import repository_project

        project = settings.project or repository_project(settings.repo)
    return _End(settings, project)


def _check_source(source: _End) -> None:
    """Refuse a source that does not exist, before anything is opened: opening would create
    it (an empty store file, or an empty project in the shared store)."""
    url = source.settings.pg_url
    if url is not None and source.project is not None:
        if not _reach(url, source.project):
            raise InvalidInput(
                f"the shared store {shown(url)} has no project {source.project}: nothing to"
                " migrate (--project NAME or ANCHORMEM_PROJECT names another)"
            )
        return
    db = source.settings.db
    if not db.is_file() and source.settings.default_store:
        source.settings.prepare_store_dir()  # an earlier version's store, moved to its place
    if not db.is_file():
        raise InvalidInput(f"there is no store at {db}: nothing to migrate")


def _reach(url: str, project: str) -> bool:
    """Connect to the shared store once, as a check: whether it holds ``project``. A
    failure is ``StoreUnavailable`` with libpq's reason, the password taken out."""
    try:
        import psycopg
    except ImportError:
        raise StoreUnavailable(
            "a postgresql:// store needs psycopg: pip install 'anchormem[postgresql]'"
        ) from None
    meta = f'"{project_schema(project)}".meta'
    try:
        with psycopg.connect(url, connect_timeout=_CONNECT_TIMEOUT_S, autocommit=True) as con:
            row = con.execute("SELECT to_regclass(%s)", [meta]).fetchone()
    except (psycopg.Error, ValueError) as exc:
        raise StoreUnavailable(
            f"cannot connect to the shared store {shown(url)}: {reason(exc, url)}"
        ) from None
    return bool(row and row[0] is not None)


def _read(lines: Iterable[str], label: str, every: int) -> Iterator[str]:
    """The source's export lines, saying on stderr every ``every`` memories how far it is."""
    total = done = 0
    for line in lines:
        if not total and line.startswith('{"type":"anchormem-export"'):
            total = int(json.loads(line).get("memories") or 0)
        elif line.startswith('{"type":"memory"'):
            done += 1
            if every and done % every == 0:
                print(
                    f"anchormem: read {done} of {total} memories from {label}",
                    file=sys.stderr,
                    flush=True,
                )
        yield line


def _result(report: ImportReport, source: _End, target: _End, read: int) -> dict[str, Any]:
    """``import --json``'s report, with both ends, how many memories were read and whether
    the destination changed; the memories already there as they are, counted, not listed."""
    from server.cli_transfer import import_report

    result = import_report(report)
    result["lines"] = [
        line for line in result["lines"] if line["outcome"] != "unchanged" or "detail" in line
    ]
    # A retraction or a forget of the source carried over to a memory already here (by id,
    # or by claim: merged) changes it; a merge alone adds nothing.
    carried = any(
        str(line.get("detail", "")).endswith("as in the file") for line in result["lines"]
    )
    changed = bool(carried or result["added"] or result["conflicts"])
    return {"from": source.label, "to": target.label, "read": read, "changed": changed, **result}


def _text(result: dict[str, Any]) -> str:
    """The result for a person: what was added, merged, already there, refused."""
    from server.cli_transfer import line_detail

    counts = (
        f"added {result['added']}, merged {result['merged']},"
        f" already present {result['unchanged']}, refused {result['refused']};"
        f" {result['conflicts']} conflict-log rows added"
    )
    if not result["changed"] and not result["refused"]:
        head = (
            f"nothing to add: the {result['read']} memories of {result['from']} are in"
            f" {result['to']} already"
        )
    else:
        head = f"migrated {result['from']} -> {result['to']}"
    head += f"\n{counts}"
    if result["downgraded"]:
        head += f"; {result['downgraded']} added with less trust than the source gave them"
    shown_lines = [
        line
        for line in result["lines"]
        if line["outcome"] != "added" or line.get("detail") or line.get("downgraded")
    ]
    if not shown_lines:
        return head
    rows = [
        [
            line.get("id", "-"),
            line["outcome"] if line["outcome"] != "unchanged" else "already present",
            line_detail(line),
        ]
        for line in shown_lines
    ]
    return head + "\n" + table(["ID", "OUTCOME", "DETAIL"], rows, terminal_width())
