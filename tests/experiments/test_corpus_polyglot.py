"""The truth benchmark's polyglot corpus: Debian binary packages and npm tarballs unpacked
safely, the manifest's ``root``, the notes of the Python/TypeScript, Go and Rust projects,
and the rates per language of the notes. Nothing here downloads: packages and tarballs are
built in tmp_path (an ``ar`` archive written byte by byte, as dpkg-deb writes it) and
fetched through file:// URLs; the real projects are only checked when the corpus is built."""

from __future__ import annotations

import hashlib
import io
import json
import re
import tarfile
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from experiments.agents import AGENTS, FactOutcome
from experiments.contamination import ARMS
from experiments.corpus import (
    CorpusError,
    Project,
    Version,
    build,
    cache_dir,
    corpus_git,
    describe,
    load_manifest,
    safe_unpack,
)
from experiments.evidence import SUPPORTS, Evidence
from experiments.facts import Fact, load_facts
from experiments.language_metrics import fact_language, language_metrics, read_per_fact
from experiments.metrics import agent_metrics
from experiments.truth_benchmark import aggregate_languages, language_tables, markdown

REAL = Path(__file__).resolve().parents[2] / "experiments" / "data" / "real"
POLYGLOT = ("jupyterlab-git", "gorilla-mux", "env-logger")
LANGUAGES = {"python", "typescript", "go", "rust", "infra"}
GO_ROOT = "usr/share/gocode/src/github.com/example/router"


# -- archives --------------------------------------------------------------------------------
def tar_bytes(members: list[tuple[str, str, bytes | str]], mode: str = "w:xz") -> bytes:
    """A tar archive in memory; members: (name, kind, data), kind file/dir/symlink/hardlink."""
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode=mode) as archive:  # type: ignore[call-overload]
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
            }[kind]
            if kind in ("symlink", "hardlink"):
                info.linkname = str(data)
            archive.addfile(info)
    return buffer.getvalue()


def ar_archive(members: list[tuple[str, bytes]]) -> bytes:
    """An ``ar`` archive as dpkg-deb writes it: 60-byte headers, data padded to even."""
    out = bytearray(b"!<arch>\n")
    for name, data in members:
        header = (
            f"{name:<16}{0:<12}{0:<6}{0:<6}{'100644':<8}{len(data):<10}".encode("ascii") + b"`\n"
        )
        assert len(header) == 60
        out += header + data + (b"\n" if len(data) % 2 else b"")
    return bytes(out)


def make_deb(path: Path, data: list[tuple[str, str, bytes | str]], member: str = "") -> Path:
    tar = tar_bytes(data)
    path.write_bytes(
        ar_archive(
            [
                ("debian-binary", b"2.0\n"),
                ("control.tar.xz", tar_bytes([("./control", "file", "Package: x\n")])),
                (member or "data.tar.xz", tar),
            ]
        )
    )
    return path


def go_package(tmp: Path, version: str, files: dict[str, str]) -> Path:
    data: list[tuple[str, str, bytes | str]] = [
        ("./", "dir", b""),
        ("./usr/share/doc/golang-router-dev/copyright", "file", "BSD"),
        (f"./{GO_ROOT}/", "dir", b""),
    ]
    data += [(f"./{GO_ROOT}/{rel}", "file", text) for rel, text in files.items()]
    return make_deb(tmp / f"golang-router-dev_{version}-1_all.deb", data)


def version_of(path: Path, version: str, root: str = "") -> Version:
    digest = hashlib.sha256(path.read_bytes()).hexdigest()
    return Version(version, path.name, digest, path.as_uri(), root)


def test_a_debian_package_unpacks_its_project_directory_only(tmp_path: Path) -> None:
    deb = go_package(
        tmp_path,
        "1.0",
        {"go.mod": "module github.com/example/router\n\ngo 1.20\n", "mux/mux.go": "package mux\n"},
    )
    into = tmp_path / "out"
    into.mkdir()
    assert safe_unpack(deb, into, GO_ROOT) == 2
    assert (into / "go.mod").read_text().endswith("go 1.20\n")
    assert (into / "mux" / "mux.go").read_text() == "package mux\n"
    assert not (into / "usr").exists()  # the documentation outside the root is skipped


def test_a_gzip_data_member_is_read_too(tmp_path: Path) -> None:
    members: list[tuple[str, str, bytes | str]] = [(f"./{GO_ROOT}/a.go", "file", "package a\n")]
    deb = tmp_path / "p_1_all.deb"
    deb.write_bytes(
        ar_archive([("debian-binary", b"2.0\n"), ("data.tar.gz", tar_bytes(members, "w:gz"))])
    )
    into = tmp_path / "out"
    into.mkdir()
    assert safe_unpack(deb, into, GO_ROOT) == 1 and (into / "a.go").exists()


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ([("./usr/../../evil", "file", "x")], "'..'"),
        ([(f"/{GO_ROOT}/a.go", "file", "x")], "absolute path"),
        ([(f"./{GO_ROOT}/link", "symlink", "../../../../../../etc/passwd")], "leaves the tree"),
        ([(f"./{GO_ROOT}/link", "symlink", "/etc/passwd")], "leaves the tree"),
        (
            [(f"./{GO_ROOT}/a.go", "file", "x"), (f"./{GO_ROOT}/b.go", "hardlink", "a.go")],
            "hard link",
        ),
        ([(f"./{GO_ROOT}/.git/config", "file", "[core]")], "git metadata"),
        ([("./usr/share/doc/x/copyright", "file", "BSD")], "nothing under"),
    ],
)
def test_an_unsafe_or_empty_debian_package_is_refused(
    tmp_path: Path, members: list[tuple[str, str, bytes | str]], message: str
) -> None:
    deb = make_deb(tmp_path / "p_1_all.deb", members)
    into = tmp_path / "out"
    into.mkdir()
    with pytest.raises(CorpusError, match=message):
        safe_unpack(deb, into, GO_ROOT)
    assert not (tmp_path / "evil").exists() and not (into / "link").exists()


def test_a_debian_package_needs_a_root_and_an_ar_archive_with_data(tmp_path: Path) -> None:
    deb = go_package(tmp_path, "1.0", {"a.go": "package a\n"})
    into = tmp_path / "out"
    into.mkdir()
    with pytest.raises(CorpusError, match="needs the project's directory"):
        safe_unpack(deb, into)
    not_ar = tmp_path / "q_1_all.deb"
    not_ar.write_bytes(b"PK\x03\x04 a zip, not a package")
    with pytest.raises(CorpusError, match="no ar header"):
        safe_unpack(not_ar, into, GO_ROOT)
    no_data = tmp_path / "r_1_all.deb"
    no_data.write_bytes(ar_archive([("debian-binary", b"2.0\n")]))
    with pytest.raises(CorpusError, match=r"no data\.tar"):
        safe_unpack(no_data, into, GO_ROOT)
    truncated = tmp_path / "s_1_all.deb"
    truncated.write_bytes(deb.read_bytes()[:200])
    with pytest.raises(CorpusError, match="runs past the end"):
        safe_unpack(truncated, into, GO_ROOT)
    odd = make_deb(tmp_path / "t_1_all.deb", [(f"./{GO_ROOT}/a.go", "file", "x")], "data.tar.lz4")
    with pytest.raises(CorpusError, match="compressed in a way"):
        safe_unpack(odd, into, GO_ROOT)


def test_an_npm_tarball_unpacks_below_its_package_directory(tmp_path: Path) -> None:
    tgz = tmp_path / "left-pad-1.3.0.tgz"
    tgz.write_bytes(
        tar_bytes(
            [
                ("package/package.json", "file", '{"name": "left-pad", "version": "1.3.0"}'),
                ("package/index.js", "file", "module.exports = leftPad;\n"),
            ],
            "w:gz",
        )
    )
    into = tmp_path / "out"
    into.mkdir()
    assert safe_unpack(tgz, into) == 2
    assert json.loads((into / "package.json").read_text())["version"] == "1.3.0"


def test_build_commits_debian_packages_whose_root_changes_between_versions(
    tmp_path: Path,
) -> None:
    """A Rust crate's directory names its version (usr/share/cargo/registry/CRATE-VER)."""
    roots = {v: f"usr/share/cargo/registry/demo-{v}" for v in ("0.9.0", "0.11.0")}
    versions = []
    for version, root in roots.items():
        manifest = f'[package]\nname = "demo"\nversion = "{version}"\n'
        deb = make_deb(
            tmp_path / f"librust-demo-dev_{version}-1_amd64.deb",
            [(f"./{root}/Cargo.toml", "file", manifest), (f"./{root}/src/lib.rs", "file", "")],
        )
        versions.append(version_of(deb, version, root))
    project = Project("demo", tuple(versions))
    repo = build(project, tmp_path / "cache")
    assert corpus_git(repo, "ls-tree", "-r", "--name-only", "0.11.0").split() == [
        "Cargo.toml",
        "src/lib.rs",
    ]
    assert 'version = "0.9.0"' in corpus_git(repo, "show", "0.9.0:Cargo.toml")
    assert describe(project)["versions"][1]["root"] == roots["0.11.0"]


def test_the_manifest_checks_a_package_root(tmp_path: Path) -> None:
    path = tmp_path / "corpus.json"
    good = {"version": "1", "filename": "p_1_all.deb", "sha256": "a" * 64, "url": "u"}

    def write(*versions: dict[str, str]) -> None:
        path.write_text(json.dumps({"projects": [{"name": "p", "versions": list(versions)}]}))

    write(good, good)
    with pytest.raises(CorpusError, match="needs a 'root'"):
        load_manifest(path)
    write(good | {"root": "usr/../etc"}, good | {"root": "usr/share"})
    with pytest.raises(CorpusError, match="leaves the package"):
        load_manifest(path)
    sdist = {"version": "1", "filename": "p-1.tar.gz", "sha256": "a" * 64, "url": "u"}
    write(sdist | {"root": "src"}, sdist)
    with pytest.raises(CorpusError, match=r"only a \.deb takes one"):
        load_manifest(path)
    write(good | {"root": "/usr/share/gocode/"}, good | {"root": "usr/share/gocode"})
    assert [v.root for v in load_manifest(path)["p"].versions] == ["usr/share/gocode"] * 2


def test_the_manifest_pins_the_polyglot_projects() -> None:
    manifest = load_manifest()
    jg, mux, logger = (manifest[name] for name in POLYGLOT)
    assert [v.version for v in jg.versions] == ["0.44.0", "0.51.4"]
    assert all(v.url.startswith("https://files.pythonhosted.org/") for v in jg.versions)
    assert [v.version for v in mux.versions] == ["1.8.0", "1.8.1"]
    assert [v.version for v in logger.versions] == ["0.9.3", "0.11.6"]
    for v in (*mux.versions, *logger.versions):
        assert v.url.startswith("http://deb.debian.org/debian/pool/main/")
        assert v.url.endswith("/" + v.filename) and v.filename.endswith(".deb")
    assert {v.root for v in mux.versions} == {"usr/share/gocode/src/github.com/gorilla/mux"}
    assert [v.root for v in logger.versions] == [
        f"usr/share/cargo/registry/env_logger-{v.version}" for v in logger.versions
    ]


# -- the notes -------------------------------------------------------------------------------
@pytest.mark.parametrize("name", POLYGLOT)
def test_polyglot_notes_cover_every_category_and_say_their_language(name: str) -> None:
    facts = load_facts(REAL / f"{name}.jsonl")
    assert 50 <= len(facts) <= 75
    by = Counter((f.category, f.truth) for f in facts)
    for category in ("contradicted", "silent", "present_trap", "negation", "temporal", "drift"):
        assert by[(category, False)], category
    assert by[("true", True)] and by[("convention", True)] and by[("negation", True)]
    assert by[("present_trap", True)] and by[("drift", True)]
    versions = [v.version for v in load_manifest()[name].versions]
    assert all(f.commit == versions[0] for f in facts if f.category in ("temporal", "drift"))
    assert all(f.unmentioned for f in facts if f.category == "silent")
    assert all(f.check for f in facts if f.category not in ("silent", "convention"))
    assert all(f.extra.get("language") in LANGUAGES for f in facts)
    anchored = sum(1 for f in facts if f.anchors)
    assert len(facts) // 5 <= anchored <= len(facts) // 2  # about a third


def _checks(facts: list[Fact], pattern: str) -> list[Fact]:
    return [f for f in facts if any(re.search(pattern, c) for c in f.check)]


@pytest.mark.parametrize(
    ("name", "language", "toolchain"),
    [
        ("jupyterlab-git", "python", r"requires-python"),
        ("jupyterlab-git", "typescript", r'"engines"|"target"|"typescript"'),
        ("jupyterlab-git", "infra", r"packageManager|rev: "),
        ("gorilla-mux", "go", r"^grep:go\.mod::\^go "),
        ("env-logger", "rust", r"rust-version|edition"),
    ],
)
def test_each_language_states_toolchain_versions_true_and_false(
    name: str, language: str, toolchain: str
) -> None:
    facts = [f for f in load_facts(REAL / f"{name}.jsonl") if fact_language(f) == language]
    assert {f.truth for f in _checks(facts, toolchain)} == {True, False}
    kinds = {c.split(":", 1)[0].lstrip("!") for f in facts for c in f.check}
    assert "grep" in kinds and (language == "infra" or {"import", "symbol"} <= kinds)


def test_the_application_notes_cross_its_two_languages() -> None:
    """Python backend and TypeScript frontend: imports, dependencies vs devDependencies,
    environment reads, a negation a TypeScript import contradicts, and present-traps that
    put a backend module in the frontend."""
    facts = load_facts(REAL / "jupyterlab-git.jsonl")
    ts = [f for f in facts if fact_language(f) == "typescript"]
    py = [f for f in facts if fact_language(f) == "python"]
    for notes in (ts, py):
        assert _checks(notes, r"^!?import:") and _checks(notes, r"^symbol:")
        assert {f.truth for f in notes if f.category == "contradicted"} == {False}
    assert {f.truth for f in _checks(ts, "devDependencies")} == {True}
    assert {f.truth for f in _checks(ts, r'\\n    "dependencies"')} == {True, False}
    assert {f.truth for f in _checks(facts, r"^env:")} == {True, False}
    assert any(
        f.category == "negation" and not f.truth and f.check[0].startswith("!import:") for f in ts
    )
    crossing = [
        f
        for f in facts
        if f.category == "present_trap" and not f.truth and (f.subject or "").startswith("src/")
        for c in f.check
        if c.startswith("import:") and c.split(":")[1].split("@")[0] in ("pexpect", "nbformat")
    ]
    assert len(crossing) == 2


@pytest.mark.slow  # a clone and a full validation of each real project
@pytest.mark.parametrize("name", POLYGLOT)
def test_polyglot_labels_agree_with_the_real_code(name: str, tmp_path: Path) -> None:
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


# -- per language ----------------------------------------------------------------------------
def fact(fid: str, truth: bool, category: str, language: str | None) -> Fact:
    extra = {"language": language} if language else {}
    return Fact(fid, f"claim {fid}", truth, category, extra=extra)


def outcome(answer: str, served: str, final: str) -> dict[str, Any]:
    return FactOutcome(answer, "memory", served, final=final).view()


def row(f: Fact, served: str, final: str = "ACTIVE") -> dict[str, Any]:
    agents = {agent: outcome("accept", served, final) for agent in AGENTS}
    return {
        "id": f.id,
        "evidence": SUPPORTS,
        "evidence_detail": "",
        "arms": {arm.name: agents for arm in ARMS},
    }


FACTS = [
    fact("a", False, "contradicted", "typescript"),
    fact("b", False, "negation", "typescript"),
    fact("c", True, "true", "typescript"),
    fact("d", True, "drift", "typescript"),
    fact("e", False, "contradicted", None),  # python when absent
    fact("f", True, "true", "python"),
]
SERVED = {"a": "VERIFIED", "b": "ACTIVE", "c": "REFUTED", "d": "VERIFIED", "e": "absent"}


def test_rates_per_language_follow_the_per_project_definitions(tmp_path: Path) -> None:
    path = tmp_path / "per_fact.jsonl"
    rows = [row(f, SERVED.get(f.id, "VERIFIED")) for f in FACTS]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    assert read_per_fact(path) == rows and read_per_fact(tmp_path / "missing.jsonl") == []
    by = language_metrics(FACTS, read_per_fact(path))
    assert set(by) == {"python", "typescript"}
    assert by["typescript"]["facts"] == {"true": 2, "false": 2}
    ts = by["typescript"]["arms"][ARMS[0].name]["memory_first"]["counts"]
    assert ts["served_rate"] == [2, 2] and ts["served_verified_rate"] == [1, 2]
    assert ts["false_refutation_rate"] == [0, 2]
    assert ts["true_verified_checkable"] == [0, 1]  # the drift note is not counted
    py = by["python"]["arms"][ARMS[0].name]["careful"]["counts"]
    assert py["served_rate"] == [0, 1] and py["true_verified_checkable"] == [1, 1]
    assert by["python"]["arms"][ARMS[0].name]["B"]["served_rate"] is None
    # each language's counts add up to the project's
    evidence = {f.id: Evidence(SUPPORTS, "") for f in FACTS}
    outcomes = {
        f.id: FactOutcome(**r["arms"][ARMS[0].name]["memory_first"])
        for f, r in zip(FACTS, rows, strict=True)
    }
    whole = agent_metrics(FACTS, outcomes, evidence, True, outcomes)["counts"]
    for name in ("served_rate", "served_verified_rate", "true_verified_checkable"):
        parts = [b["arms"][ARMS[0].name]["memory_first"]["counts"][name] for b in by.values()]
        assert [sum(p[0] for p in parts), sum(p[1] for p in parts)] == whole[name]


def test_languages_are_summed_over_projects_and_tabled() -> None:
    one = language_metrics(FACTS, [row(f, SERVED.get(f.id, "VERIFIED")) for f in FACTS])
    other = language_metrics(FACTS[:2], [row(f, "ACTIVE") for f in FACTS[:2]])
    summed = aggregate_languages({"p": one, "q": other})
    assert summed["typescript"]["facts"] == {"true": 2, "false": 4}
    mf = summed["typescript"]["arms"][ARMS[0].name]["memory_first"]
    assert mf["counts"]["served_rate"] == [4, 4] and mf["counts"]["served_verified_rate"] == [1, 4]
    assert summed["python"]["facts"] == {"true": 1, "false": 1}
    lines = language_tables(summed)
    assert "### typescript (6 facts: 2 true, 4 false)" in lines
    header = "| arm | agent | false served | false served VERIFIED | true refuted | "
    assert header + "true VERIFIED excl. convention, drift |" in lines
    assert f"| {ARMS[0].name} | memory_first | 1.00 (4/4)" in "\n".join(lines)
    assert language_tables({}) == []
    results = {
        "projects": {"p": {"versions": ["1", "2"], "facts": {"scored": 6}, "excluded": []}},
        "facts": {"given": 6, "scored": 6, "true": 2, "false": 4, "excluded": 0},
        "arms": {},
        "seconds": 1.0,
        "by_language": summed,
    }
    text = markdown(results)
    assert text.index("## Per language") < text.index("Excluded by label validation")
    assert text.count("\n### ") == 2
