"""The truth benchmark's corpus builder (safe unpacking, sha256, the scratch repository),
its aggregation, its fact files, and its CLI errors. Nothing here downloads: archives are
built in tmp_path and fetched through file:// URLs; the real corpus is only checked when a
built copy is already in the cache."""

from __future__ import annotations

import hashlib
import io
import json
import os
import re
import subprocess
import sys
import tarfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from experiments.corpus import (
    CorpusError,
    Project,
    Version,
    build,
    cache_dir,
    corpus_git,
    fetch,
    load_manifest,
    safe_unpack,
)
from experiments.facts import load_facts
from experiments.truth_benchmark import aggregate, markdown
from tests.conftest import anchormem_env

REAL = Path(__file__).resolve().parents[2] / "experiments" / "data" / "real"


# -- archives --------------------------------------------------------------------------------
def make_tar(path: Path, members: list[tuple[str, str, bytes | str]]) -> Path:
    """members: (name, kind, data) with kind file / dir / symlink / hardlink / fifo / chr."""
    with tarfile.open(path, "w:gz") as archive:
        for name, kind, data in members:
            info = tarfile.TarInfo(name)
            info.mtime = 0
            if kind == "file":
                raw = data if isinstance(data, bytes) else data.encode()
                info.size = len(raw)
                info.mode = 0o644
                archive.addfile(info, io.BytesIO(raw))
                continue
            info.type = {
                "dir": tarfile.DIRTYPE,
                "symlink": tarfile.SYMTYPE,
                "hardlink": tarfile.LNKTYPE,
                "fifo": tarfile.FIFOTYPE,
                "chr": tarfile.CHRTYPE,
            }[kind]
            if kind in ("symlink", "hardlink"):
                info.linkname = str(data)
            archive.addfile(info)
    return path


def sdist(tmp: Path, name: str, version: str, files: dict[str, str]) -> Path:
    top = f"{name}-{version}"
    return make_tar(
        tmp / f"{top}.tar.gz",
        [(top, "dir", b"")] + [(f"{top}/{rel}", "file", text) for rel, text in files.items()],
    )


def version_of(path: Path, version: str) -> Version:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return Version(version, path.name, digest, path.as_uri())


def test_safe_unpack_strips_the_top_directory_and_keeps_inner_symlinks(tmp_path: Path):
    archive = make_tar(
        tmp_path / "p-1.tar.gz",
        [
            ("p-1/", "dir", b""),
            ("p-1/pkg/__init__.py", "file", "x = 1\n"),
            ("p-1/pkg/alias.py", "symlink", "__init__.py"),
            ("p-1/README", "file", "hello"),
        ],
    )
    into = tmp_path / "out"
    into.mkdir()
    assert safe_unpack(archive, into) == 2
    assert (into / "pkg" / "__init__.py").read_text() == "x = 1\n"
    assert os.readlink(into / "pkg" / "alias.py") == "__init__.py"
    assert not (into / "p-1").exists()


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ([("/etc/passwd", "file", "x")], "absolute path"),
        ([("p-1/../../evil", "file", "x")], "'..'"),
        ([("p-1/a", "file", "x"), ("q-1/b", "file", "x")], "outside the top-level"),
        ([("p-1/link", "symlink", "../../outside")], "leaves the tree"),
        ([("p-1/link", "symlink", "/etc/passwd")], "leaves the tree"),
        ([("p-1/a", "file", "x"), ("p-1/hard", "hardlink", "p-1/a")], "hard link"),
        ([("p-1/fifo", "fifo", b"")], "special file"),
        ([("p-1/tty", "chr", b"")], "special file"),
        ([("p-1/.git/config", "file", "[core]")], "git metadata"),
    ],
)
def test_safe_unpack_refuses_unsafe_members(
    tmp_path: Path, members: list[tuple[str, str, bytes | str]], message: str
):
    archive = make_tar(tmp_path / "p-1.tar.gz", members)
    into = tmp_path / "out"
    into.mkdir()
    with pytest.raises(CorpusError, match=message):
        safe_unpack(archive, into)
    assert not (tmp_path / "evil").exists() and not (tmp_path.parent / "evil").exists()


# -- fetching and building -------------------------------------------------------------------
def test_fetch_verifies_the_sha256_and_moves_a_mismatch_aside(tmp_path: Path):
    source = sdist(tmp_path, "p", "1", {"a.py": "a = 1\n"})
    good = version_of(source, "1")
    cache = tmp_path / "cache"
    fetched = fetch(good, cache)
    assert fetched == cache / "sdists" / source.name and fetched.read_bytes() == source.read_bytes()
    bad = Version("1", source.name, "0" * 64, source.as_uri())
    with pytest.raises(CorpusError, match=f"sha256 mismatch for {source.name}: expected 0000"):
        fetch(bad, cache)
    assert not fetched.exists() and fetched.with_name(fetched.name + ".mismatch").exists()


def test_fetch_without_the_file_or_the_network_says_so(tmp_path: Path):
    missing = Version("1", "p-1.tar.gz", "0" * 64, (tmp_path / "nowhere.tar.gz").as_uri())
    with pytest.raises(CorpusError, match=r"cannot download .*network access"):
        fetch(missing, tmp_path / "cache")
    assert not (tmp_path / "cache" / "sdists" / "p-1.tar.gz.part").exists()


def test_build_commits_each_version_tagged_and_reuses_the_repository(tmp_path: Path):
    old = sdist(tmp_path, "p", "1.0", {"p/core.py": "def f():\n    return 1\n", "gone.txt": "x"})
    new = sdist(tmp_path, "p", "2.0", {"p/core.py": "def f():\n    return 2\n", ".gitignore": "*"})
    project = Project("p", (version_of(old, "1.0"), version_of(new, "2.0")))
    cache = tmp_path / "cache"
    repo = build(project, cache)
    assert repo == cache / "repos" / "p"
    assert set(corpus_git(repo, "tag", "--list").split()) == {"1.0", "2.0"}
    assert corpus_git(repo, "rev-parse", "HEAD") == corpus_git(repo, "rev-parse", "2.0^{commit}")
    # the newer tree replaces the older one (a file removed upstream is gone), and a
    # .gitignore in the sdist does not hide the sources
    assert corpus_git(repo, "ls-tree", "-r", "--name-only", "2.0").split() == [
        ".gitignore",
        "p/core.py",
    ]
    assert "gone.txt" in corpus_git(repo, "ls-tree", "-r", "--name-only", "1.0")
    head = corpus_git(repo, "rev-parse", "HEAD")
    for archive in (cache / "sdists").iterdir():
        archive.unlink()  # a reused repository needs no sdist
    assert build(project, cache) == repo
    assert corpus_git(repo, "rev-parse", "HEAD") == head
    # a manifest with another sha256 is not the repository that was built: it is
    # rebuilt, and the archive (fetched again) fails the check
    changed = Project("p", (project.versions[0], Version("2.0", new.name, "f" * 64, new.as_uri())))
    with pytest.raises(CorpusError, match="sha256 mismatch"):
        build(changed, cache)


def test_the_cache_follows_the_environment(monkeypatch: pytest.MonkeyPatch, tmp_path: Path):
    monkeypatch.setenv("ANCHORMEM_CORPUS_CACHE", str(tmp_path / "c"))
    assert cache_dir() == tmp_path / "c"
    monkeypatch.delenv("ANCHORMEM_CORPUS_CACHE")
    assert cache_dir() == Path.home() / ".cache" / "anchormem" / "corpus"


# -- the manifest and the fact files -----------------------------------------------------------
def test_the_manifest_pins_two_versions_of_each_project_with_sha256():
    manifest = load_manifest()
    assert set(manifest) == {
        "requests", "click", "rich", "django", "isso", "wger", "kinto",
        "jupyterlab-git", "gorilla-mux", "env-logger",
    }  # fmt: skip
    assert [v.version for v in manifest["requests"].versions] == ["2.25.1", "2.31.0"]
    assert [v.version for v in manifest["django"].versions] == ["4.2.7", "5.0.1"]
    assert [v.version for v in manifest["isso"].versions] == ["0.13.2", "0.14.0"]
    assert [v.version for v in manifest["wger"].versions] == ["2.0", "2.1"]
    assert [v.version for v in manifest["kinto"].versions] == ["24.1.1", "26.5.0"]
    for project in manifest.values():
        assert len(project.versions) == 2
        for v in project.versions:
            assert len(v.sha256) == 64
            assert v.url.startswith(
                ("https://files.pythonhosted.org/", "http://deb.debian.org/debian/pool/")
            )


def test_a_bad_manifest_is_refused(tmp_path: Path):
    path = tmp_path / "corpus.json"
    path.write_text(json.dumps({"projects": [{"name": "p", "versions": []}]}))
    with pytest.raises(CorpusError, match="two versions"):
        load_manifest(path)
    v = {"version": "1", "filename": "p-1.tar.gz", "sha256": "xyz", "url": "u"}
    path.write_text(json.dumps({"projects": [{"name": "p", "versions": [v, v]}]}))
    with pytest.raises(CorpusError, match="64 hex"):
        load_manifest(path)


@pytest.mark.parametrize(
    ("name", "at_least"),
    [
        ("requests", 40),
        ("click", 40),
        ("rich", 40),
        ("django", 18),
        ("isso", 40),
        ("wger", 40),
        ("kinto", 40),
    ],
)
def test_our_fact_files_cover_every_category(name: str, at_least: int):
    facts = load_facts(REAL / f"{name}.jsonl")
    assert len(facts) >= at_least
    by = Counter((f.category, f.truth) for f in facts)
    for category in ("contradicted", "silent", "present_trap", "negation", "temporal", "drift"):
        assert by[(category, False)], category
    assert by[("true", True)] and by[("convention", True)] and by[("negation", True)]
    assert by[("present_trap", True)]
    versions = [v.version for v in load_manifest()[name].versions]
    assert all(f.commit == versions[0] for f in facts if f.category in ("temporal", "drift"))
    assert all(f.unmentioned for f in facts if f.category == "silent")
    assert all(f.check for f in facts if f.category not in ("silent", "convention"))
    anchored = sum(1 for f in facts if f.anchors)
    assert len(facts) // 6 <= anchored <= len(facts) // 2  # about a quarter


_APPLICATION_CLASSES = {
    "docker": r"Dockerfile|docker-compose",
    "settings": r"settings|\.cfg|\.tpl|__init__\.py|__main__\.py|constants\.py",
    "python versions": r"\.github/workflows|requires-python|Programming Language|python-version",
}


@pytest.mark.parametrize("name", ["isso", "wger", "kinto"])
def test_application_fact_files_state_values_both_true_and_false(name: str) -> None:
    """The applications' notes state values (Docker images and ports, settings and their
    environment defaults, supported Python versions), each class both true and false."""
    facts = load_facts(REAL / f"{name}.jsonl")
    for label, pattern in _APPLICATION_CLASSES.items():
        about = [f for f in facts if any(re.search(pattern, c) for c in f.check)]
        assert {f.truth for f in about} == {True, False}, label


def test_fact_ids_are_unique_across_the_corpus():
    ids = [f.id for path in sorted(REAL.glob("*.jsonl")) for f in load_facts(path)]
    assert len(ids) == len(set(ids))


@pytest.mark.slow  # a clone and a full validation of each real project: a minute or more
@pytest.mark.parametrize("name", ["requests", "click", "rich", "django", "isso", "wger", "kinto"])
def test_our_labels_agree_with_the_real_code(name: str, tmp_path: Path):
    """Only where the corpus is already built (the benchmark is not part of CI)."""
    from experiments.evidence import Workspace, validate_facts

    repo = cache_dir() / "repos" / name
    if not (repo / ".git").is_dir():
        pytest.skip(f"{name} is not built in {cache_dir()} (run the benchmark once)")
    ws = Workspace.clone(repo, tmp_path / "repo")
    try:
        _, excluded, _, _ = validate_facts(load_facts(REAL / f"{name}.jsonl"), ws)
    finally:
        ws.close()
    assert [e.view() for e in excluded] == []


# -- aggregation and the CLI ---------------------------------------------------------------------
def entry(adopted: int, false: int, served: int) -> dict[str, Any]:
    counts = {"adoption_rate": [adopted, false], "served_rate": [served, false]}
    return {"counts": counts, "context_tokens": 5, "by_category": {"silent": {"counts": counts}}}


def test_aggregate_sums_counts_across_projects_and_recomputes_intervals():
    from experiments.agents import AGENTS
    from experiments.contamination import ARMS
    from experiments.metrics import wilson

    def project(adopted: int, n: int) -> dict[str, Any]:
        return {"arms": {a.name: {g: entry(adopted, n, adopted) for g in AGENTS} for a in ARMS}}

    arms = aggregate({"a": project(1, 4), "b": project(3, 6)})
    mf = arms["verify_on_read"]["memory_first"]
    assert mf["counts"]["adoption_rate"] == [4, 10] and mf["adoption_rate"] == 0.4
    assert mf["ci95"]["adoption_rate"] == [round(x, 4) for x in wilson(4, 10) or ()]
    assert mf["by_category"]["silent"]["counts"]["served_rate"] == [4, 10]
    assert mf["context_tokens"] == 10
    assert mf["missed_rate"] is None
    results = {
        "projects": {
            "a": {"versions": ["1", "2"], "facts": {"scored": 4}, "excluded": []},
            "b": {"versions": ["3", "4"], "facts": {"scored": 6}, "excluded": []},
        },
        "facts": {"given": 10, "scored": 10, "true": 0, "false": 10, "excluded": 0},
        "arms": arms,
        "seconds": 1.0,
    }
    text = markdown(results)
    assert "| verify_on_read | careful | 0.40 (4/10)" in text
    assert text.count("\n| ") == 1 + len(ARMS) * len(AGENTS)  # one table


def run_cli(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = anchormem_env()
    env["ANCHORMEM_CORPUS_CACHE"] = str(cwd / "cache")
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=cwd, env=env, capture_output=True, text=True,
        timeout=60, check=False,
    )  # fmt: skip


def test_an_unknown_project_is_a_usage_error(tmp_path: Path):
    done = run_cli("experiments.truth_benchmark", "--project", "flask", cwd=tmp_path)
    assert done.returncode == 2
    assert "unknown project flask" in done.stderr
    script = Path(sys.executable).with_name("anchormem")
    done = subprocess.run(
        [str(script), "experiment", "contamination", "--corpus", "real", "--facts", "x.jsonl"],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2 and "brings its own repositories" in done.stderr
    assert (
        not (tmp_path / "cache").exists() and not (tmp_path / "anchormem-truth-benchmark").exists()
    )
