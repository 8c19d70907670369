"""The fingerprint of the code at HEAD: a commit's tree listing plus per-blob facts.

Facts are keyed by blob id, so a new commit only parses the files whose content changed;
they are kept in process and in a ``BlobFactsCache`` shared by every process. A build runs
on one background thread (one build per commit at a time), so the read path can wait a
bounded time and move on. Cold builds of many files parse in a 2-process pool: tree-sitter
holds the GIL, so threads would not help. The readers of files (the grammars, manifests,
infrastructure files, mentions) are imported by the first build, not with this module: a
process that answers from verdicts already cached never builds one.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from concurrent.futures import CancelledError, Future, ThreadPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

from anchors.errors import CodeError
from anchors.facts import (
    CallFact,
    Definition,
    Dependency,
    EnvCall,
    EnvWrapper,
    FileFacts,
    Fingerprint,
    ImportFact,
    NotRead,
    Signature,
    StatusFact,
    ValueFact,
    derive_indexes,
)
from anchors.gitrepo import GitError, GitRepository, HeadInfo, Overlay, RepoStatus, git_blob_id
from anchors.shell_env import shell_env_reads, shell_script
from anchors.vocabulary import VOCABULARY_VERSION

if TYPE_CHECKING:
    from anchors.infra_facts import InfraValue

__all__ = [
    "POOL_THRESHOLD",
    "BlobFactsCache",
    "CodeSource",
    "FingerprintUnavailable",
    "InMemoryFactsCache",
    "facts_from_json",
    "facts_to_json",
]

Progress = Callable[[int, int], None]

# The shape of cached facts: an entry cached by another version lacks fields (the values
# of constants and environment defaults, 2; the HTTP statuses functions set, 8; arithmetic
# of number literals kept as a value, 10; the default a class field is declared with, 11;
# reads through a name ``os.environ`` is given and the messages string literals hold, 12;
# whether a file touches the environment at all, 13; a Python file's prose left out of its
# mentions, 14; whether it reads the whole environment, 15; the members of imported
# modules it writes, 17; a name given to ``os.environ.get``, 18; a Python constant naming
# a variable and a Go constant of arithmetic, 19; a Python name given another's literal
# and a Go name given a package's, the fields a Rust ``new`` sets, a Python ``timedelta``,
# a JavaScript object's keys, Go ``New...`` struct literals, shifts, 20; the signatures
# of Go and Rust functions, every signature's result type, a TypeScript interface's
# members and arithmetic of numbers, 21; the ``default=`` a call declaring a class
# attribute passes, 22; Rust paths used in place, ``pub use`` aliases, 23; a bundler's
# output read for mentions only, 28; an application's YAML settings files, 29) and is
# extracted again.
FACTS_VERSION = 29
# Files to parse before two worker processes pay for their start-up: on two idle cores the
# pool breaks even at 300-400 files (adr/0003; `python -m benchmarks.fingerprint --sweep`).
POOL_THRESHOLD = 500
_POOL_WORKERS = 2
_CHUNK = 128  # files per pool task and per cache save: small enough to stop soon on close()
_FINGERPRINTS_KEPT = 4
_FACTS_KEPT = 200_000
# Bytes of uncommitted files read for one overlaid fingerprint: what an agent is editing
# fits; a work tree of huge untracked files does not fill the server's memory.
MAX_OVERLAY_CONTENT_BYTES = 16 * 1024 * 1024


class BlobFactsCache(Protocol):
    """Persistent facts by blob id. Called only from the fingerprint build thread."""

    def load(self, blob_ids: Sequence[str]) -> dict[str, FileFacts]: ...

    def save(self, facts: Mapping[str, FileFacts]) -> None: ...


class InMemoryFactsCache:
    """A ``BlobFactsCache`` in a dict, recording which blob ids were saved (for tests)."""

    def __init__(self) -> None:
        self.facts: dict[str, FileFacts] = {}
        self.saved: list[str] = []

    def load(self, blob_ids: Sequence[str]) -> dict[str, FileFacts]:
        return {b: self.facts[b] for b in blob_ids if b in self.facts}

    def save(self, facts: Mapping[str, FileFacts]) -> None:
        self.facts.update(facts)
        self.saved.extend(facts)


class FingerprintUnavailable(CodeError):
    """No fingerprint can be built; ``status`` says why (see ``RepoStatus``)."""

    def __init__(self, status: RepoStatus, detail: str) -> None:
        super().__init__(detail or status.value)
        self.status = status


def facts_to_json(facts: FileFacts) -> str:
    """A compact JSON text for ``facts``; ``facts_from_json`` reverses it. Why a file was
    not read (``r``), its size (``s``) and its words (``w``) are written only for such
    files; entries cached before they existed decode with reason ``UNRECORDED`` and no
    words, which can only make a check say unknown."""
    data: dict[str, Any] = {
        # an import under ``if TYPE_CHECKING:`` carries a fifth item 1, a Rust path used in
        # place a sixth item 1
        "i": [[i.module, list(i.names), i.within, i.line, *_import_flags(i)]
              for i in facts.imports],
        # a class carries its base names as a fourth item
        "d": [[d.qualname, d.body_hash, d.line, *([list(d.bases)] if d.bases is not None else [])]
              for d in facts.definitions],
        "e": list(facts.env_reads),
        # a value the language derives (Go's ``iota``) carries a fourth item 1
        "c": [[v.name, v.text, v.line, *([1] if v.derived else [])] for v in facts.constants],
        "v": [[v.name, v.text, v.line] for v in facts.env_defaults],
        "p": facts.parsed,
        "m": list(facts.mentions),
        **({"l": facts.language} if facts.language != "python" else {}),
        "mv": VOCABULARY_VERSION,
        "fv": FACTS_VERSION,
    }
    if facts.signatures:
        data["g"] = [[g.function, g.line, g.text, *([g.returns] if g.returns else [])]
                     for g in facts.signatures]
    if facts.calls:
        data["k"] = [[c.callee, [list(kw) for kw in c.keywords], c.line] for c in facts.calls]
    if facts.env_wrappers:
        data["ew"] = [[w.callee, w.default_at, w.default_kw, w.fallback, w.has_fallback]
                      for w in facts.env_wrappers]  # fmt: skip
    if facts.env_calls:
        data["ec"] = [[c.callee, c.name, list(c.args), [list(kw) for kw in c.keywords], c.line]
                      for c in facts.env_calls]  # fmt: skip
    if facts.statuses:
        data["hs"] = [[h.function, h.status, h.line, h.written] for h in facts.statuses]
    if facts.strings:
        data["sl"] = list(facts.strings)
    if facts.keys is not None:
        data["sk"] = list(facts.keys)
    if facts.paths:
        data["pl"] = list(facts.paths)
    if facts.camel_names != ():  # (None: too many to keep)
        data["at"] = None if facts.camel_names is None else list(facts.camel_names)
    if facts.env_access:
        data["ea"] = facts.env_access
    if facts.references is not None:
        data["rf"] = list(facts.references)
    if facts.not_read is not None:
        data["r"] = facts.not_read.value
        data["s"] = facts.size
        data["w"] = None if facts.words is None else list(facts.words)
    return json.dumps(data, separators=(",", ":"))


def _import_flags(imp: ImportFact) -> list[int]:
    if imp.qualified:
        return [int(imp.typing), 1]
    return [1] if imp.typing else []


def _import_fact(item: list[Any]) -> ImportFact:
    """One cached import: module, names, within, line, then 1 when under TYPE_CHECKING and
    1 when a Rust path used in place."""
    typing = len(item) > 4 and bool(item[4])
    qualified = len(item) > 5 and bool(item[5])
    return ImportFact(str(item[0]), tuple(item[1]), str(item[2]), int(item[3]), typing,
                      qualified)  # fmt: skip


def _camel_names(data: dict[str, Any]) -> tuple[str, ...] | None:
    """The names read after a dot: absent is none, ``null`` too many to keep."""
    if "at" in data and data["at"] is None:
        return None
    return tuple(str(a) for a in data.get("at", ()))


def facts_from_json(text: str) -> FileFacts:
    """Decode ``facts_to_json`` output; raises ValueError for anything else, and for facts
    whose mentions were searched with another vocabulary (they must be searched again)."""
    try:
        data: Any = json.loads(text)
        if data.get("mv") != VOCABULARY_VERSION:
            raise ValueError("facts from another vocabulary version")
        if data.get("fv") != FACTS_VERSION:
            raise ValueError("facts extracted by another version (fields are missing)")
        return FileFacts(
            imports=tuple(_import_fact(i) for i in data["i"]),
            definitions=tuple(Definition(str(d[0]), str(d[1]), int(d[2]),
                                         tuple(d[3]) if len(d) > 3 else None)
                              for d in data["d"]),
            env_reads=tuple(data["e"]),
            constants=tuple(ValueFact(c[0], c[1], int(c[2]), len(c) > 3 and bool(c[3]))
                            for c in data["c"]),
            env_defaults=tuple(ValueFact(n, t, int(ln)) for n, t, ln in data["v"]),
            parsed=bool(data["p"]),
            mentions=tuple(str(m) for m in data["m"]),
            not_read=NotRead(data["r"]) if data.get("r") is not None else None,
            size=int(data.get("s", 0)),
            words=None if data.get("w") is None else tuple(str(w) for w in data["w"]),
            signatures=tuple(
                Signature(str(g[0]), None if g[2] is None else str(g[2]), int(g[1]),
                          str(data.get("l", "python")), str(g[3]) if len(g) > 3 else None)
                for g in data.get("g", ())
            ),
            calls=tuple(
                CallFact(c, tuple((str(k), v) for k, v in kws), int(ln))
                for c, kws, ln in data.get("k", ())
            ),
            env_wrappers=tuple(
                EnvWrapper(str(c), int(at), str(kw), fb, bool(has))
                for c, at, kw, fb, has in data.get("ew", ())
            ),
            env_calls=tuple(
                EnvCall(str(c), str(n), tuple(a), tuple((str(k), v) for k, v in kws), int(ln))
                for c, n, a, kws, ln in data.get("ec", ())
            ),
            language=str(data.get("l", "python")),
            statuses=tuple(
                StatusFact(str(f), int(s), int(ln), str(w)) for f, s, ln, w in data.get("hs", ())
            ),
            strings=tuple(str(t) for t in data.get("sl", ())),
            keys=None if data.get("sk") is None else tuple(str(k) for k in data["sk"]),
            paths=tuple(str(p) for p in data.get("pl", ())),
            camel_names=_camel_names(data),
            env_access=int(data.get("ea", 0)),
            references=None if data.get("rf") is None else tuple(str(r) for r in data["rf"]),
        )
    except (AttributeError, KeyError, TypeError, ValueError) as exc:
        raise ValueError(f"not serialised FileFacts: {exc}") from exc


class _Closed(Exception):
    pass


class CodeSource:
    """The code of the repository at (or above) ``root``, as fingerprints of HEAD.

    ``head_ttl`` seconds lets HEAD resolutions be reused (0: resolve on every call).
    ``watch``: follow the work tree's edits with inotify where possible (adr/0018).
    Close it (or use ``with``) to stop the build thread, the pool, git processes and the
    work tree's watcher.
    """

    def __init__(
        self,
        root: Path,
        cache: BlobFactsCache,
        head_ttl: float = 0.0,
        pool_threshold: int = POOL_THRESHOLD,
        watch: bool = True,
    ) -> None:
        self.repo = GitRepository(root, head_ttl, watch=watch)
        self.pool_threshold = pool_threshold
        self.parsed_count = 0  # blobs parsed by this source, for tests and the benchmark
        self._cache = cache
        self._lock = threading.Lock()
        self._pinned = threading.local()  # HEAD resolved once for a call (``one_head``)
        self._closing = threading.Event()
        self._executor = ThreadPoolExecutor(1, thread_name_prefix="anchormem-fingerprint")
        self._builds: dict[str, Future[Fingerprint]] = {}
        self._bases: OrderedDict[str, Fingerprint] = OrderedDict()
        self._overlaid: OrderedDict[tuple[str, str], Fingerprint] = OrderedDict()
        self._facts: dict[str, FileFacts] = {}
        # (path, blob) -> (dependencies, env keys) of a manifest or .env.example file
        self._declared: dict[tuple[str, str], tuple[tuple[Dependency, ...], tuple[str, ...]]] = {}
        # (path, blob) -> the values of an infrastructure file (None: not readable)
        self._infra_read: dict[tuple[str, str], tuple[InfraValue, ...] | None] = {}
        # path -> what reads it, for the paths of the last tree built (``_roles``)
        self._path_roles: dict[str, PathRole] = {}

    def __enter__(self) -> CodeSource:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Stop a running build at its next chunk, then the thread, pool and git process."""
        self._closing.set()
        self._executor.shutdown(wait=True, cancel_futures=True)
        self.repo.close()

    def head(self) -> HeadInfo:
        """HEAD now: a commit, or a ``RepoStatus`` saying why there is none; inside
        ``one_head``, the HEAD it resolved."""
        pinned: HeadInfo | None = getattr(self._pinned, "head", None)
        return pinned if pinned is not None else self.repo.head()

    @contextmanager
    def one_head(self) -> Iterator[HeadInfo]:
        """HEAD resolved once for the block, in this thread: one call (a recall, a
        remember) checks every memory against the same commit, and reads the ref files
        once instead of at every step. The work tree's edits are read once in it too (the
        first time they are needed): one call sees one state of the code. Nested blocks
        share the outer one's."""
        pinned: HeadInfo | None = getattr(self._pinned, "head", None)
        if pinned is not None:
            yield pinned
            return
        self._pinned.head = head = self.repo.head()
        self._pinned.overlays = {}
        try:
            yield head
        finally:
            self._pinned.head = None
            self._pinned.overlays = None

    def edited(self, commit: str) -> bool:
        """Whether the work tree has edits against ``commit`` (read once inside ``one_head``)."""
        return bool(self._overlay_of(commit, len(commit) == 64).key)

    def _overlay_of(self, commit: str, sha256: bool) -> Overlay:
        """The work tree's edits against ``commit``: read once inside ``one_head``."""
        pinned: dict[tuple[str, bool], Overlay] | None = getattr(self._pinned, "overlays", None)
        if pinned is None:
            return self.repo.overlay(sha256=sha256, commit=commit)
        found = pinned.get((commit, sha256))
        if found is None:
            found = pinned[(commit, sha256)] = self.repo.overlay(sha256=sha256, commit=commit)
        return found

    def fingerprint(self, overlay: bool = True, progress: Progress | None = None) -> Fingerprint:
        """The fingerprint of HEAD (plus uncommitted edits when ``overlay``), building it if
        needed and waiting for it. ``progress(done, total)`` reports files parsed.
        Raises ``FingerprintUnavailable`` when the repository cannot give one."""
        fingerprint = self._finish(self._base_build(progress), None, overlay)
        assert fingerprint is not None  # no timeout: the build finished or raised
        return fingerprint

    def fingerprint_within(
        self, timeout_s: float, overlay: bool = True, progress: Progress | None = None
    ) -> Fingerprint | None:
        """Like ``fingerprint``, but gives up after ``timeout_s`` and returns None; the build
        goes on in the background and a later call picks it up."""
        return self._finish(self._base_build(progress), max(timeout_s, 0.0), overlay)

    # -- building ----------------------------------------------------------------------
    def _base_build(self, progress: Progress | None) -> Future[Fingerprint]:
        head = self.head()
        if head.commit is None:
            raise FingerprintUnavailable(head.status, head.detail)
        commit = head.commit
        with self._lock:
            if commit in self._bases:
                self._bases.move_to_end(commit)
                done: Future[Fingerprint] = Future()
                done.set_result(self._bases[commit])
                return done
            future = self._builds.get(commit)
            if future is None:
                try:
                    future = self._executor.submit(self._build, commit, progress)
                except RuntimeError:  # the executor is shut down: close() was called
                    raise FingerprintUnavailable(RepoStatus.GIT_ERROR, _CLOSED) from None
                self._builds[commit] = future
            return future

    def _finish(
        self, future: Future[Fingerprint], timeout: float | None, overlay: bool
    ) -> Fingerprint | None:
        try:
            base = future.result(timeout)
            return self._with_overlay(base) if overlay else base
        except FutureTimeout:
            return None
        except (_Closed, CancelledError):
            raise FingerprintUnavailable(RepoStatus.GIT_ERROR, _CLOSED) from None
        except GitError as exc:
            raise FingerprintUnavailable(exc.status, str(exc)) from exc

    def _build(self, commit: str, progress: Progress | None) -> Fingerprint:
        """The fingerprint of ``commit`` without overlay; runs on the build thread."""
        from anchors.pyfacts import facts_key, resolve_relative_imports

        try:
            tree = self.repo.ls_tree(commit)
            readable = {p: b for p, b in tree.blobs.items() if p not in tree.symlinks}
            roles = self._path_roles = self._roles(readable)
            with self._lock:
                previous = next(reversed(self._bases.values()), _EMPTY)
            # Files unchanged since the last build keep their resolved facts: re-resolving
            # every file would cost more than the whole update of a 10-file commit.
            code: dict[str, FileFacts] = {}
            changed: dict[str, str] = {}  # path -> facts key (``facts_key``)
            for path, blob in readable.items():
                dialect = roles[path].dialect
                if dialect is None:
                    continue
                kept = previous.code.get(path)
                if kept is not None and previous.blobs.get(path) == blob:
                    code[path] = kept
                else:
                    changed[path] = facts_key(dialect, blob)
            facts = self._facts_for_commit(sorted(set(changed.values())), progress)
            for path, key in changed.items():
                code[path] = resolve_relative_imports(facts.get(key, _UNREADABLE), path)
            dependencies, env_example = self._declarations(readable, {}, roles)
            settings: dict[str, FileFacts] = {}
            texts = self._texts(readable, previous, settings, roles)
            fingerprint = Fingerprint(
                commit, tree.blobs, code, dependencies, env_example, texts=texts,
                infra=self._infra_files(readable, {}, roles), settings=settings,
            )
            # Here, not on the first read: that read has a verification budget to keep.
            derive_indexes(fingerprint, previous)
            _ = fingerprint._mentions, fingerprint._by_basename, fingerprint._directories
            with self._lock:
                self._bases[commit] = fingerprint
                while len(self._bases) > _FINGERPRINTS_KEPT:
                    self._bases.popitem(last=False)
            return fingerprint
        finally:
            with self._lock:
                self._builds.pop(commit, None)

    def _facts_for_commit(
        self, blob_ids: list[str], progress: Progress | None
    ) -> dict[str, FileFacts]:
        """Facts for every blob: from memory, then the shared cache, then parsing."""
        with self._lock:
            found = {b: self._facts[b] for b in blob_ids if b in self._facts}
        missing = [b for b in blob_ids if b not in found]
        if missing:
            loaded = self._cache.load(missing)
            found.update(loaded)
            self._remember(loaded)
        todo = [b for b in missing if b not in found]
        done = 0
        if progress is not None:
            progress(0, len(todo))
        for parsed in self._parse_blobs(todo):
            self._cache.save(parsed)
            self._remember(parsed)
            found.update(parsed)
            done += len(parsed)
            if progress is not None:
                progress(done, len(todo))
        return found

    def _roles(self, readable: Mapping[str, str]) -> dict[str, PathRole]:
        """What reads each path: the last tree's roles for paths it had (a commit keeps
        nearly every path: classifying them all again would cost most of an update)."""
        known = self._path_roles
        return {path: known.get(path) or path_role(path) for path in readable}

    def _texts(
        self,
        readable: Mapping[str, str],
        previous: Fingerprint,
        settings: dict[str, FileFacts],
        roles: Mapping[str, PathRole],
    ) -> dict[str, tuple[str, ...]]:
        """Mention tokens of every text file that is not source code: kept from the previous
        build for unchanged blobs, else from memory or the shared cache (keyed ``t:<blob>``, or
        ``c:<blob>`` when comment lines are left out), else read and searched here."""
        from anchors.mentions import reads_comments, scan_mentions
        from anchors.settings_schemas import schema_defaults

        texts: dict[str, tuple[str, ...]] = {}
        todo: dict[str, list[str]] = {}
        for path, blob in readable.items():
            if not roles[path].text:
                continue
            if previous.blobs.get(path) == blob and path in previous.texts:
                texts[path] = previous.texts[path]
                if path in previous.settings:  # a JSON settings schema's defaults, kept
                    settings[path] = previous.settings[path]
            else:  # a comment is searched in prose and data only (``t:``), not code (``c:``)
                todo.setdefault(f"{'t' if reads_comments(path) else 'c'}:{blob}", []).append(path)
        if not todo:
            return texts
        keys = list(todo)
        with self._lock:
            found = {k: self._facts[k] for k in keys if k in self._facts}
        missing = [k for k in keys if k not in found]
        if missing:
            loaded = self._cache.load(missing)
            found.update(loaded)
            self._remember(loaded)
        unread = [k for k in keys if k not in found]
        for start in range(0, len(unread), _CHUNK):
            self._check_open()
            chunk = unread[start : start + _CHUNK]
            data = self.repo.read_blobs([k[2:] for k in chunk])
            scanned = {k: FileFacts(mentions=scan_mentions(data.get(k[2:], b""), k[0] == "t"),
                                    constants=schema_defaults(data.get(k[2:], b"")))
                       for k in chunk}  # fmt: skip
            self._cache.save(scanned)
            self._remember(scanned)
            found.update(scanned)
        for key, paths in todo.items():
            for path in paths:
                texts[path] = found[key].mentions
                if found[key].constants:
                    settings[path] = found[key]
        return texts

    def _parse_blobs(self, blob_ids: list[str]) -> Iterator[dict[str, FileFacts]]:
        """Parse in chunks, yielding each chunk's facts; a pool only for large cold builds."""
        from anchors.pyfacts import ParsePool, extract_many

        done: set[str] = set()
        if len(blob_ids) >= self.pool_threshold:
            try:
                with ParsePool(_POOL_WORKERS) as pool:
                    for result in pool.map(self._read_chunks(blob_ids)):
                        self._check_open()
                        done.update(blob for blob, _ in result)
                        self.parsed_count += len(result)
                        yield dict(result)
                return
            except (EOFError, OSError):  # a worker failed to start or died: parse here
                pass
        remaining = [blob for blob in blob_ids if blob not in done]
        for chunk in self._read_chunks(remaining):
            self._check_open()
            self.parsed_count += len(chunk)
            yield dict(extract_many(chunk))

    def _read_chunks(self, keys: list[str]) -> Iterator[list[tuple[str, bytes]]]:
        """(facts key, bytes of its blob) in chunks (``facts_key``)."""
        from anchors.pyfacts import blob_of

        for start in range(0, len(keys), _CHUNK):
            chunk = keys[start : start + _CHUNK]
            data = self.repo.read_blobs(sorted({blob_of(key) for key in chunk}))
            yield [(key, data[blob_of(key)]) for key in chunk if blob_of(key) in data]

    def _check_open(self) -> None:
        if self._closing.is_set():
            raise _Closed

    def _remember(self, facts: Mapping[str, FileFacts]) -> None:
        with self._lock:
            self._facts.update(facts)
            while len(self._facts) > _FACTS_KEPT:
                del self._facts[next(iter(self._facts))]

    # -- declarations and overlay ------------------------------------------------------
    def _declarations(
        self,
        readable: Mapping[str, str],
        contents: Mapping[str, bytes],
        roles: Mapping[str, PathRole],
    ) -> tuple[tuple[Dependency, ...], dict[str, str]]:
        """Dependencies from manifests at any depth, ``.env.example`` keys (any depth), and
        the variables shell scripts read (``anchors.shell_env``).
        ``contents`` holds work-tree bytes of overlaid blobs, which git does not have."""
        from anchors.manifests import parse_env_example, parse_manifest

        wanted = {p: b for p, b in readable.items() if roles[p].declaration}
        with self._lock:
            known = {p: self._declared[p, b] for p, b in wanted.items() if (p, b) in self._declared}
        missing = [b for p, b in wanted.items() if p not in known and b not in contents]
        data = {**self.repo.read_blobs(missing), **contents} if missing else contents
        for path, blob in wanted.items():
            if path not in known:
                raw = data.get(blob, b"")
                if _env_example(path):
                    known[path] = ((), tuple(parse_env_example(raw)))
                elif shell_script(path):
                    known[path] = ((), tuple(shell_env_reads(raw)))
                else:
                    known[path] = (tuple(parse_manifest(raw, path)), ())
                with self._lock:
                    self._declared[(path, blob)] = known[path]
        dependencies = tuple(dep for path in sorted(known) for dep in known[path][0])
        env_example: dict[str, str] = {}
        # The root first, then by depth; .env.example before .env.sample: the first one
        # that declares a key is where it is said to be declared.
        examples = sorted((p for p in known if _env_example(p)), key=_env_example_order)
        # ... then the shell scripts that read it (an entrypoint's ``$USE_GUNICORN``)
        examples += sorted((p for p in known if shell_script(p)), key=lambda p: (p.count("/"), p))
        for path in examples:
            for key in known[path][1]:
                env_example.setdefault(key, path)
        return dependencies, env_example

    def _infra_files(
        self,
        readable: Mapping[str, str],
        contents: Mapping[str, bytes],
        roles: Mapping[str, PathRole],
    ) -> dict[str, tuple[InfraValue, ...] | None]:
        """The values of every Dockerfile, compose file and CI workflow, by path: kept per
        (path, blob), so a new commit reads only the ones that changed. ``contents``: as
        for ``_declarations``."""
        from anchors.infra_facts import read_infra

        wanted = {p: b for p, b in readable.items() if roles[p].infra}
        with self._lock:
            known = {p: self._infra_read[p, b] for p, b in wanted.items()
                     if (p, b) in self._infra_read}  # fmt: skip
        missing = [b for p, b in wanted.items() if p not in known and b not in contents]
        data = {**self.repo.read_blobs(missing), **contents} if missing else contents
        for path, blob in wanted.items():
            if path not in known:
                raw = data.get(blob)
                known[path] = None if raw is None else read_infra(raw, path)
                with self._lock:
                    self._infra_read[(path, blob)] = known[path]
        return known

    def _with_overlay(self, base: Fingerprint) -> Fingerprint:
        """``base`` with uncommitted edits laid over it (``base`` itself when clean)."""
        sha256 = len(base.commit) == 64
        overlay = self._overlay_of(base.commit, sha256)
        if not overlay.key:
            return base
        from anchors.infra_facts import infra_kind
        from anchors.languages import dialect_of
        from anchors.mentions import reads_comments, scan_mentions
        from anchors.pyfacts import facts_key, resolve_relative_imports
        from anchors.settings_schemas import schema_defaults
        from anchors.worktree import content_limit

        key = (base.commit, overlay.key)
        with self._lock:
            if key in self._overlaid:
                self._overlaid.move_to_end(key)
                return self._overlaid[key]
        blobs, code = dict(base.blobs), dict(base.code)
        contents: dict[str, bytes] = {}
        texts, settings = dict(base.texts), dict(base.settings)
        symlinks: set[str] = set()
        budget = MAX_OVERLAY_CONTENT_BYTES
        for entry in overlay.entries:
            blobs.pop(entry.path, None)
            code.pop(entry.path, None)
            texts.pop(entry.path, None)
            settings.pop(entry.path, None)
            if entry.blob_id is None:
                continue
            blobs[entry.path] = entry.blob_id
            if entry.symlink:
                symlinks.add(entry.path)
                continue
            # Read only what is parsed, and at most the budget over all overlaid files.
            content = None
            if entry.readable and budget > 0:
                content = self.repo.read_worktree_file(entry.path, limit=content_limit(entry.path))
                budget -= len(content or b"")
            dialect = dialect_of(entry.path)
            if dialect is not None:
                facts = _UNREADABLE
                if content is not None:
                    contents[entry.blob_id] = content
                    # Edited again since it was hashed: parsed, but not kept under that id.
                    exact = git_blob_id(content, sha256) == entry.blob_id
                    facts = self._overlay_facts(facts_key(dialect, entry.blob_id), content, exact)
                code[entry.path] = resolve_relative_imports(facts, entry.path)
            elif content is not None:
                if _is_declaration(entry.path) or infra_kind(entry.path) is not None:
                    contents[entry.blob_id] = content
                texts[entry.path] = scan_mentions(content, reads_comments(entry.path))
                if declared := schema_defaults(content):
                    settings[entry.path] = FileFacts(constants=declared)
        dependencies, env_example, infra = base.dependencies, base.env_example, base.infra
        declaration_edited = any(_is_declaration(entry.path) for entry in overlay.entries)
        infra_edited = any(infra_kind(entry.path) is not None for entry in overlay.entries)
        if declaration_edited or infra_edited:
            readable = {p: b for p, b in blobs.items() if p not in symlinks}
            roles = self._roles(readable)
            if declaration_edited:
                dependencies, env_example = self._declarations(readable, contents, roles)
            if infra_edited:
                infra = self._infra_files(readable, contents, roles)
        fingerprint = Fingerprint(
            base.commit, blobs, code, dependencies, env_example, overlay.key, texts, infra=infra,
            settings=settings,
        )
        derive_indexes(fingerprint, base)
        with self._lock:
            self._overlaid[key] = fingerprint
            while len(self._overlaid) > _FINGERPRINTS_KEPT:
                self._overlaid.popitem(last=False)
        return fingerprint

    def _overlay_facts(self, key: str, content: bytes, exact: bool = True) -> FileFacts:
        """Facts of a work-tree file (``key``: ``facts_key``), parsed in the caller's thread
        (overlaid files are few: what the agent is editing) and kept in memory only, not in
        the shared cache."""
        with self._lock:
            facts = self._facts.get(key) if exact else None
        if facts is None:
            from anchors.languages import extract_facts
            from anchors.pyfacts import dialect_of_key

            facts = extract_facts(content, dialect_of_key(key))
            if exact:
                self._remember({key: facts})
        return facts


_UNREADABLE = FileFacts(parsed=False, not_read=NotRead.UNREADABLE)
_EMPTY = Fingerprint("", {}, {})
_CLOSED = "the code source is closed"


@dataclass(frozen=True, slots=True)
class PathRole:
    """What reads a tracked path, from its name alone."""

    dialect: str | None  # the grammar's dialect (``anchors.languages``), None: no code
    text: bool  # not code, and searched for mentions
    declaration: bool  # a manifest, a ``.env.example``, a shell script (``_declarations``)
    infra: bool  # a Dockerfile, a compose file, a CI workflow (``anchors.infra_facts``)


def path_role(path: str) -> PathRole:
    from anchors.infra_facts import infra_kind
    from anchors.languages import dialect_of
    from anchors.mentions import is_text_path

    dialect = dialect_of(path)
    return PathRole(dialect, dialect is None and is_text_path(path), _is_declaration(path),
                    infra_kind(path) is not None)  # fmt: skip


def _is_declaration(path: str) -> bool:
    from anchors.manifests import manifest_kind

    return manifest_kind(path) is not None or _env_example(path) or shell_script(path)


def _env_example(path: str) -> bool:
    """A ``.env.example`` / ``.env.sample`` / ``.env.template`` at any depth."""
    from anchors.manifests import ENV_EXAMPLE_NAMES

    return path.rpartition("/")[2] in ENV_EXAMPLE_NAMES


def _env_example_order(path: str) -> tuple[int, int, str]:
    from anchors.manifests import ENV_EXAMPLE_NAMES

    return path.count("/"), ENV_EXAMPLE_NAMES.index(path.rpartition("/")[2]), path
