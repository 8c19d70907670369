"""Settings: command-line flags over ``ANCHORMEM_*`` environment variables over defaults.

ANCHORMEM_REPO            the repository (default: the one containing the cwd)
ANCHORMEM_DB              the store file (default: this user's data folder, below), or a
                          shared store: postgresql://user@host/db (store/pg, adr/0034; the
                          password from the URL or libpq's PGPASSWORD / ~/.pgpass)
ANCHORMEM_ORIGIN          who this server's notes and observations are from when a caller
                          names no one (default: the source, "agent"); in a shared store,
                          each person's or agent's identity counts as an independent origin
ANCHORMEM_PROJECT         a shared store's project: its memories' schema (default: taken
                          from the repository's first commit, the same in every clone)
ANCHORMEM_HOME            this user's anchormem data folder, where each repository's store
                          lives (default: $XDG_DATA_HOME/anchormem, ~/.local/share/anchormem;
                          server/store_location.py, adr/0022)
ANCHORMEM_VERIFY_BUDGET_MS  verification budget of one recall (default 50)
ANCHORMEM_HEAD_TTL        seconds to reuse a resolved HEAD (default 0: checked every call,
                          read again when one of its files changed)
ANCHORMEM_LOCK_WAIT       seconds to wait for a store another process holds (default 60)
ANCHORMEM_SYNC_MS         how soon an acknowledged write is on the disk (default 100; 0:
                          before it is acknowledged; store/journal.py)
ANCHORMEM_SHARE           0: each process opens the store itself, sharing it through the lease
                          (adr/0002) instead of through the store's owner (default 1; adr/0012)
ANCHORMEM_OWNER_IDLE      seconds the store's owner stays without a client (default 60)
ANCHORMEM_OWNER_STANDBY   1: every owner keeps a standby process ready to take over if it is
                          killed; 0: none does (default: only an owner that replaced a killed
                          one; server/standby.py, adr/0016)
ANCHORMEM_STANDBY_AFTER   seconds an owner serves before it starts a standby process (default
                          10: a one-off CLI call never pays for one); on Linux it forks one
                          as it starts, at no cost, and this is for when that one is gone
ANCHORMEM_ACTOR           who retractions are attributed to (default "agent")
ANCHORMEM_VERIFY          0 turns verify-on-read off: memories are served as stored, with
                          verification "off" (default 1; the experiment's add-only arm)
ANCHORMEM_CONFLICTS       0 turns contradiction checks on remember off (default 1)
ANCHORMEM_TRUSTED_SOURCES comma-separated systems of record (code, ci) this process's callers
                          may speak for, e.g. ci for a CI job's ``anchormem observe`` (default
                          none: a tool caller claiming code or ci is refused)
ANCHORMEM_CONFLICT_<KIND> the order conflicts of that kind are resolved in: default,
                          recency_first or confidence_first (e.g. ANCHORMEM_CONFLICT_FACT)
ANCHORMEM_HTTP_TOKEN      the bearer token HTTP clients must send (read by ``serve`` from the
                          variable ``--token-env`` names; never kept in Settings)
ANCHORMEM_ALLOWED_HOSTS   comma-separated Host values HTTP requests may carry (added to the
                          loopback defaults on a loopback bind; required on any other)
ANCHORMEM_ALLOWED_ORIGINS comma-separated origins (http(s)://host[:port]) browsers may send
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from server.store_location import (
    migrate_legacy_store,
    prepare_folder,
    repository_store,
    tracked_files,
)
from store.errors import InvalidInput, RepositoryError, StoreUnavailable
from store.evidence.confidence import DEFAULT_HALF_LIVES
from store.evidence.observations import DEFAULT_SOURCE_WEIGHTS, RECORD_SOURCES
from store.evidence.settings import EvidenceSettings
from store.pg.url import is_postgres_url, project_schema, shown
from store.safe_files import SIDE_SUFFIXES, check_folder, check_store_files

__all__ = ["AGENT", "PERSON", "Settings", "find_repository_root"]

# Who a change is recorded as when ANCHORMEM_ACTOR names no one: the agent for an MCP
# tool call, the person for a command typed at the CLI (adr/0024).
AGENT, PERSON = "agent", "user"


def find_repository_root(start: Path) -> Path | None:
    """The nearest directory at or above ``start`` holding a ``.git`` (dir or file)."""
    here = start.resolve()
    for candidate in (here, *here.parents):
        if (candidate / ".git").exists():
            return candidate
    return None


def _float(env: Mapping[str, str], name: str, default: float) -> float:
    raw = env.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = float(raw)
    except ValueError:
        raise InvalidInput(f"{name} must be a number, not {raw[:40]!r}") from None
    if value < 0:
        raise InvalidInput(f"{name} must not be negative")
    return value


def _flag(env: Mapping[str, str], name: str, default: bool) -> bool:
    raw = (env.get(name) or "").strip().lower()
    if raw == "":
        return default
    if raw in ("1", "true", "yes", "on"):
        return True
    if raw in ("0", "false", "no", "off"):
        return False
    raise InvalidInput(f"{name} must be 0 or 1, not {raw[:40]!r}")


def _optional_flag(env: Mapping[str, str], name: str) -> bool | None:
    """``_flag`` where unset means neither: the default is decided later."""
    return _flag(env, name, True) if (env.get(name) or "").strip() else None


def _list(env: Mapping[str, str], name: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in (env.get(name) or "").split(",") if part.strip())


def _evidence_settings(env: Mapping[str, str]) -> EvidenceSettings:
    half_lives = dict(DEFAULT_HALF_LIVES)
    for kind in half_lives:
        raw = env.get(f"ANCHORMEM_HALF_LIFE_{kind.upper()}")
        if raw is not None and raw.strip().lower() in ("none", "off", "0"):
            half_lives[kind] = None
        elif raw:
            half_lives[kind] = _float(env, f"ANCHORMEM_HALF_LIFE_{kind.upper()}", 0.0) or None
    weights = {
        name: _float(env, f"ANCHORMEM_WEIGHT_{name.upper()}", default)
        for name, default in DEFAULT_SOURCE_WEIGHTS.items()
    }
    if any(w > 1.0 for w in weights.values()):
        raise InvalidInput("ANCHORMEM_WEIGHT_* must be between 0 and 1")
    order = {}
    # Imported only when asked for: the CLI's path to the store's owner reads its settings
    # without loading the claim rules (and tree-sitter behind them).
    named = any(k.startswith("ANCHORMEM_CONFLICT_") for k in env)
    if named:
        from store.contradictions.outcomes import Strategy
        from store.model import Kind
    for kind in Kind if named else ():
        name = f"ANCHORMEM_CONFLICT_{kind.value.upper()}"
        raw = (env.get(name) or "").strip().lower()
        if not raw:
            continue
        try:
            order[kind] = Strategy(raw)
        except ValueError:
            allowed = ", ".join(s.value for s in Strategy)
            raise InvalidInput(f"{name} must be one of {allowed}, not {raw[:40]!r}") from None
    hide = _float(env, "ANCHORMEM_HIDE_BELOW", 3.5)
    if hide > 10.0:
        raise InvalidInput("ANCHORMEM_HIDE_BELOW must be between 0 and 10")
    trusted = frozenset(s.lower() for s in _list(env, "ANCHORMEM_TRUSTED_SOURCES"))
    if not trusted <= RECORD_SOURCES:
        raise InvalidInput("ANCHORMEM_TRUSTED_SOURCES may name only code and ci")
    return EvidenceSettings(
        trusted_sources=trusted,
        hide_below=hide,
        strict=env.get("ANCHORMEM_STRICT", "").strip().lower() in ("1", "true", "yes"),
        half_lives=half_lives,
        source_weights=weights,
        stale_after_days=_float(env, "ANCHORMEM_STALE_DAYS", 90.0),
        conflict_order=order,
    )


@dataclass(frozen=True)
class Settings:
    repo: Path | None
    db: Path
    verify_budget_s: float = 0.050
    head_ttl_s: float = 0.0
    watch: bool = True
    lock_wait_s: float = 60.0
    sync_interval_s: float = 0.1
    actor: str = AGENT
    evidence: EvidenceSettings = field(default_factory=EvidenceSettings)
    verify: bool = True
    conflicts: bool = True
    http_allowed_hosts: tuple[str, ...] = ()
    http_allowed_origins: tuple[str, ...] = ()
    share: bool = True
    default_store: bool = False
    relay: bool = True
    owner_idle_s: float = 60.0
    owner_standby: bool | None = None  # None: once an owner was killed (server/standby.py)
    standby_after_s: float = 10.0
    pg_url: str | None = None  # a shared store (never printed: ``store_label``)
    project: str | None = None  # a shared store's project; None: from the first commit
    origin: str | None = None  # ANCHORMEM_ORIGIN

    @property
    def store_label(self) -> str:
        """The store, for messages: a path, or a shared store's address without secrets."""
        if self.pg_url is None:
            return str(self.db)
        return shown(self.pg_url) + (f" (project {self.project})" if self.project else "")

    @classmethod
    def resolve(
        cls,
        repo: str | None = None,
        db: str | None = None,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
        person: bool = False,
    ) -> Settings:
        """Work out the repository and the store (nothing is created: ``prepare_store_dir``
        does that). ``person``: a person's command (the CLI), whose changes are recorded
        as ``PERSON``'s unless ``ANCHORMEM_ACTOR`` names someone; an MCP client's are the
        agent's."""
        env = os.environ if env is None else env
        cwd = cwd or Path.cwd()
        repo_arg = repo or env.get("ANCHORMEM_REPO") or None
        db_arg = db or env.get("ANCHORMEM_DB") or None
        root: Path | None
        if repo_arg:
            given = Path(repo_arg).expanduser()
            if not given.is_dir():
                raise RepositoryError(f"--repo {repo_arg!r} is not a directory")
            root = find_repository_root(given)
            if root is None:
                raise RepositoryError(f"--repo {repo_arg!r} is not inside a git repository")
        else:
            root = find_repository_root(cwd)
        default = repository_store(root, env) if root is not None else None
        pg_url = None
        if is_postgres_url(db_arg):
            pg_url, db_arg = db_arg, None
            if root is None and not env.get("ANCHORMEM_PROJECT"):
                raise RepositoryError(
                    "a shared store needs a project: run anchormem inside a git repository,"
                    " or set ANCHORMEM_PROJECT"
                )
        if pg_url is not None:
            path = default if default is not None else Path(os.devnull)
        elif db_arg:
            path = Path(db_arg).expanduser()
            path = path if path.is_absolute() else (cwd / path)
            if path == default:  # the owner is started with --db naming the default store
                pass
            elif not path.parent.is_dir():
                raise StoreUnavailable(f"the directory for --db does not exist: {path.parent}")
            if path.is_dir():
                raise StoreUnavailable(f"--db {db_arg!r} is a directory; name a file")
        elif default is not None:
            path = default
        else:
            raise RepositoryError(
                "not inside a git repository: run anchormem inside one, or pass --repo or --db"
            )
        project = (env.get("ANCHORMEM_PROJECT") or "").strip() or None
        if project is not None:
            project_schema(project)  # refused now if it cannot name a schema
        return cls(
            repo=root,
            db=path,
            pg_url=pg_url,
            project=project,
            origin=(env.get("ANCHORMEM_ORIGIN") or "").strip() or None,
            default_store=path == default and pg_url is None,
            verify_budget_s=_float(env, "ANCHORMEM_VERIFY_BUDGET_MS", 50.0) / 1000.0,
            head_ttl_s=_float(env, "ANCHORMEM_HEAD_TTL", 0.0),
            watch=_flag(env, "ANCHORMEM_WATCH", True),
            lock_wait_s=_float(env, "ANCHORMEM_LOCK_WAIT", 60.0),
            sync_interval_s=_float(env, "ANCHORMEM_SYNC_MS", 100.0) / 1000.0,
            actor=env.get("ANCHORMEM_ACTOR") or (PERSON if person else AGENT),
            evidence=_evidence_settings(env),
            verify=_flag(env, "ANCHORMEM_VERIFY", True),
            conflicts=_flag(env, "ANCHORMEM_CONFLICTS", True),
            http_allowed_hosts=_list(env, "ANCHORMEM_ALLOWED_HOSTS"),
            http_allowed_origins=_list(env, "ANCHORMEM_ALLOWED_ORIGINS"),
            # a shared store has no owner process: every server talks to it directly
            share=_flag(env, "ANCHORMEM_SHARE", True) and pg_url is None,
            relay=_flag(env, "ANCHORMEM_RELAY", True),
            owner_idle_s=_float(env, "ANCHORMEM_OWNER_IDLE", 60.0),
            owner_standby=_optional_flag(env, "ANCHORMEM_OWNER_STANDBY"),
            standby_after_s=_float(env, "ANCHORMEM_STANDBY_AFTER", 10.0),
        )

    def prepare_store_dir(self) -> str | None:
        """Make the store's folder ready, or refuse it: the default store's folder is
        created private in this user's data folder (an earlier version's store in the work
        tree is copied there first); a store named with ``--db`` must not be tracked by
        git, a link or another user's (adr/0022). The sentence to tell the user about a
        store moved or left behind, if any."""
        said = None
        if self.pg_url is not None:
            return None  # nothing on this machine: the store is the server's
        if self.default_store and self.repo is not None:
            prepare_folder(self.db.parent)
            if not os.path.lexists(self.db):
                said = migrate_legacy_store(self.repo, self.db)
        else:
            folder = self.db.parent
            if self.repo is not None:
                _no_links_below(self.repo, folder)
            check_folder(Path(os.path.realpath(folder)))
            if self.repo is not None:
                own = [self.db, *(Path(f"{self.db}{s}") for s in SIDE_SUFFIXES)]
                tracked = tracked_files(self.repo, own)
                if tracked:
                    raise StoreUnavailable(
                        f"git tracks {tracked[0]}: a store file that came with the repository"
                        " is never opened; name a store outside the work tree (adr/0022)"
                    )
        check_store_files(self.db)
        return said


def _no_links_below(root: Path, folder: Path) -> None:
    """A store folder named inside the work tree must be reached through real
    directories: a link there may have come with the repository."""
    try:
        inside = folder.absolute().relative_to(root)
    except ValueError:
        return
    here = root
    for part in inside.parts:
        here = here / part
        if here.is_symlink():
            raise StoreUnavailable(
                f"{here} is a symbolic link inside the work tree: anchormem does not follow"
                " it to a store (adr/0022); name the store's real path"
            )
