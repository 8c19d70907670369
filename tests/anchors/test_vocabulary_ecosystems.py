"""Technologies from npm, Go modules and crates: the vocabulary's ``packages`` column and
``for_package`` (anchors.vocabulary), the script's curated tables and npm selection
(scripts/vocabulary_ecosystems.py), and ``tech:NAME`` checked in each ecosystem
(anchors.technology)."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

from anchors import vocabulary
from anchors.facts import Dependency, FileFacts, Fingerprint, ImportFact
from anchors.technology import find_technology
from anchors.vocabulary import TechKind, Vocabulary

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = Path(__file__).resolve().parent / "data" / "vocabulary"


def refresh_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location(
        "refresh_vocabulary", ROOT / "scripts" / "refresh_vocabulary.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


# ---------------------------------------------------------------- reading prose names


@pytest.mark.parametrize(
    ("words", "name", "span", "common"),
    [
        (["Pinia"], "pinia", 1, False),
        (["Vue.js"], "vue", 1, False),
        (["Vue", "3"], "vue", 2, False),
        (["vuejs"], "vue", 1, False),
        (["Next.js"], "nextjs", 1, False),
        (["React"], "react", 1, True),
        (["TypeScript"], "typescript", 1, False),
        (["axios"], "axios", 1, False),
        (["go-redis"], "redis", 1, False),
        (["ioredis"], "redis", 1, False),
        (["pgx"], "postgresql", 1, False),
        (["gin"], "gin", 1, True),
        (["gorilla/mux"], "gorilla-mux", 1, False),
        (["golang"], "golang", 1, False),
        (["tokio"], "tokio", 1, False),
        (["serde_json"], "serde", 1, False),
        (["actix-web"], "actix-web", 1, False),
        (["Rust"], "rust", 1, True),
        (["bootstrap"], "bootstrap", 1, True),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_npm_go_and_crate_names_are_read_like_pypi_names(
    words: list[str], name: str, span: int, common: bool
) -> None:
    found = vocabulary.lookup(words)
    assert found is not None
    tech, n, is_common = found
    assert (tech.name, n, is_common) == (name, span, common)


@pytest.mark.parametrize(
    "word", ["debug", "chalk", "glob", "ms", "commander", "less", "echo", "tracing", "next",
             "go", "validator", "express", "remix"],
)  # fmt: skip
def test_ordinary_english_words_name_no_technology_outside_a_technology_context(
    word: str,
) -> None:
    found = vocabulary.lookup([word])
    assert found is None or found[2], found


def test_a_pypi_name_keeps_its_meaning_beside_an_npm_twin() -> None:
    uuid = vocabulary.by_name("uuid")
    assert uuid is not None and uuid.kind is TechKind.PACKAGE and uuid.packages == ()
    assert vocabulary.lookup(["uuid"]) == (uuid, 1, False)
    requests = vocabulary.by_name("requests")
    assert requests is not None and requests.packages == ()
    assert vocabulary.for_package("npm", "request") is not requests


@pytest.mark.parametrize(
    ("ecosystem", "package", "name"),
    [
        ("npm", "vue", "vue"),
        ("npm", "Vue", "vue"),
        ("npm", "lodash/fp", "lodash"),
        ("npm", "@tanstack/react-query", "tanstack-query"),
        ("npm", "pg", "postgresql"),
        ("npm", "typescript", "typescript"),
        ("npm", "jest", "jest"),
        ("npm", "@playwright/test", "playwright"),
        ("go", "github.com/gin-gonic/gin", "gin"),
        ("go", "github.com/gin-gonic/gin/binding", "gin"),
        ("go", "github.com/redis/go-redis/v9", "redis"),
        ("go", "github.com/IBM/sarama", "kafka"),
        ("go", "google.golang.org/grpc", "grpcio"),
        ("cargo", "tokio", "tokio"),
        ("cargo", "serde_json", "serde"),
        ("cargo", "serde-json", "serde"),
        ("cargo", "serde_json::Value", "serde"),
        ("cargo", "actix_web", "actix-web"),
    ],
)
def test_a_package_leads_to_its_technology(ecosystem: str, package: str, name: str) -> None:
    tech = vocabulary.for_package(ecosystem, package)
    assert tech is not None and tech.name == name


@pytest.mark.parametrize(
    ("ecosystem", "package"),
    [("npm", "zorbdb-client"), ("pypi", "vue"), ("go", "github.com/gin-gonic"),
     ("cargo", "tokio-zorb"), ("npm", "")],
)  # fmt: skip
def test_an_unknown_package_leads_nowhere(ecosystem: str, package: str) -> None:
    assert vocabulary.for_package(ecosystem, package) is None


def test_technologies_of_other_ecosystems_have_no_pypi_distributions_or_imports() -> None:
    techs = vocabulary.all_technologies()
    seen: dict[tuple[str, str], str] = {}
    npm_only = 0
    for tech in techs:
        for entry in tech.packages:
            ecosystem, _, package = entry.partition(":")
            assert ecosystem in ("npm", "go", "cargo") and package == package.strip(), tech
            key = (ecosystem, package.lower().replace("_", "-"))
            assert key not in seen, (entry, seen.get(key), tech.name)
            seen[key] = tech.name
        if tech.packages and tech.rank is None and not tech.dists:
            assert tech.kind is TechKind.SYSTEM and tech.imports == (), tech
            npm_only += 1
    assert npm_only >= 200
    for name in ("vue", "pinia", "gin", "tokio", "serde", "axios", "react"):
        found = vocabulary.by_name(name)
        assert found is not None and found.dists == () and found.imports == (), name


@pytest.mark.parametrize(
    ("name", "globs"),
    [
        ("typescript", {"tsconfig.json", "*.ts", "*.tsx"}),
        ("vue", {"*.vue"}),
        ("svelte", {"*.svelte"}),
        ("golang", {"go.mod", "*.go"}),
        ("rust", {"Cargo.toml", "*.rs"}),
        ("nodejs", {"package.json", ".nvmrc"}),
    ],
)
def test_languages_and_frameworks_leave_footprints(name: str, globs: set[str]) -> None:
    tech = vocabulary.by_name(name)
    assert tech is not None and globs <= set(tech.footprints)


def test_a_file_without_the_packages_column_still_loads(tmp_path: Path) -> None:
    header = "# name\tdisplay\tkind\trank\tdists\timports\tmore_aliases\tcommon_aliases"
    (tmp_path / "technologies.tsv").write_text(
        f"{header}\tfootprints\tmention_tokens\tuse\n"
        "redis\tRedis\tsystem\t143\tredis\tredis\t\t\t\tredis\t\n"
        "vue\tVue.js\tsystem\t\t\t\tvue.js\t\t*.vue\tvue\t\tnpm:vue\n",
        encoding="utf-8",
    )
    (tmp_path / "english.txt").write_text("the\n", encoding="utf-8")
    vocab = Vocabulary(tmp_path)
    redis = vocab.by_name("redis")
    assert redis is not None and redis.packages == ()
    assert vocab.for_package("npm", "vue") == vocab.by_name("vue")
    assert vocab.lookup(["Vue.js"]) == (vocab.by_name("vue"), 1, False)


# ---------------------------------------------------------------- the refresh script


NPM_LIST = """name\tversion\tdownloads_a_month\tsummary
debug\t4.0.0\t2000000000\tSmall debugging utility
zorbstate\t1.0.0\t90000000\tState management for React apps
@zorb/core\t1.0.0\t80000000\tThe core of the zorb framework
zorb-linux-x64-gnu\t1.0.0\t70000000\tThe zorb framework binary for Linux
click\t1.0.0\t60000000\tA router for web servers
vue\t3.0.0\t50000000\tThe progressive framework
abc\t1.0.0\t40000000\tA tiny state store
zorbcss\t1.0.0\t1000\tA css framework few use
quietpkg\t1.0.0\t30000000\tDoes one thing
"""


def test_the_npm_list_gives_the_popular_packages_of_each_keyword(tmp_path: Path) -> None:
    script = refresh_script()
    listed = tmp_path / "npm.tsv"
    listed.write_text(NPM_LIST, encoding="utf-8")
    names = [name for name, _ in script.npm_popular(listed)]
    # scoped, platform binaries, 3 letters or fewer, too rare, or no keyword: left out
    assert names == ["zorbstate", "click"]


def test_popular_npm_packages_become_technologies_unless_a_word_or_taken(
    tmp_path: Path,
) -> None:
    script = refresh_script()
    freq, _ = script.file_source(FIXTURE / "frequencies.tsv")
    ranks = script.read_ranks(FIXTURE / "ranks.tsv")
    npm = [("zorbstate", 9), ("click", 8), ("vue", 7), ("debug", 6), ("read", 5)]
    rows = {r.name: r for r in script.build(ranks, 100, freq, npm)}
    zorb = rows["zorbstate"]
    assert (zorb.kind, zorb.dists, zorb.imports, zorb.packages) == (
        "system", [], [], ["npm:zorbstate"]
    )
    assert rows["click"].kind == "package" and rows["click"].packages == []  # PyPI's click
    assert rows["vue"].packages == ["npm:vue"] and rows["vue"].display == "Vue.js"
    assert "read" not in rows  # an ordinary English word
    assert rows["typescript"].packages == ["npm:typescript"]
    assert "*.ts" in rows["typescript"].footprints
    line = zorb.line().split("\t")
    assert len(line) == len(script.HEADER.split("\t")) and line[-1] == "npm:zorbstate"


def test_the_curated_tables_are_consistent() -> None:
    script = refresh_script()
    eco = sys.modules["vocabulary_ecosystems"]
    for tech in eco.ECOSYSTEM_TECHS:
        assert tech.aliases and all(a == a.lower().strip() for a in tech.aliases), tech
        for entry in tech.packages:
            eco.package_key(entry)  # raises on a malformed entry
    systems = {s.name for s in script.SYSTEMS}
    for name, attached in eco.ATTACHED.items():
        for entry in attached.packages:
            eco.package_key(entry)
        assert name in systems or vocabulary.by_name(name) is not None, name
    with pytest.raises(ValueError):
        eco.package_key("pypi:requests")


# ---------------------------------------------------------------- tech:NAME in each ecosystem


def fingerprint(
    files: dict[str, FileFacts],
    dependencies: tuple[Dependency, ...] = (),
    texts: dict[str, tuple[str, ...]] | None = None,
) -> Fingerprint:
    tracked = {**{p: "b" for p in files}, **{p: "t" for p in texts or {}}}
    tracked.update({d.source: "m" for d in dependencies})
    fp = Fingerprint("c" * 40, tracked, files, dependencies)
    object.__setattr__(fp, "texts", texts or {})
    return fp


def ts(*modules: str) -> FileFacts:
    return FileFacts(imports=tuple(ImportFact(m) for m in modules), language="typescript")


def test_a_typescript_import_uses_an_npm_technology() -> None:
    fp = fingerprint({"web/src/store.ts": ts("pinia", "vue"), "app/main.py": FileFacts()})
    found = find_technology("pinia", None, fp)
    assert found.found_in == ("web/src/store.ts",) and "imports pinia" in found.detail
    assert find_technology("vue", "web", fp).found_in == ("web/src/store.ts",)


def test_a_single_file_component_is_typescript_and_a_footprint() -> None:
    fp = fingerprint({"web/App.vue": ts("vue-router")})
    assert find_technology("vue-router", None, fp).found_in == ("web/App.vue",)
    assert find_technology("vue", None, fp).found_in == ("web/App.vue",)  # *.vue is tracked


def test_a_python_import_is_not_an_npm_package_nor_a_javascript_import_a_pypi_one() -> None:
    fp = fingerprint({
        "tools/pinia.py": FileFacts(imports=(ImportFact("pinia"),)),
        "web/config.ts": ts("yaml", "uuid"),
    })  # fmt: skip
    assert find_technology("pinia", None, fp).found_in == ()
    assert find_technology("pyyaml", None, fp).found_in == ()
    assert find_technology("uuid", None, fp).found_in == ()
    python = fingerprint({"app/config.py": FileFacts(imports=(ImportFact("yaml"),))})
    assert find_technology("pyyaml", None, python).found_in == ("app/config.py",)


def test_a_manifest_declares_for_its_own_ecosystem_only() -> None:
    npm = Dependency("uuid", "^9.0.0", "web/package.json", True, "npm")
    axios = Dependency("axios", "^1.6.0", "web/package.json", True, "npm")
    fp = fingerprint({}, (npm, axios))
    assert find_technology("uuid", None, fp).found_in == ()  # the PyPI uuid
    assert find_technology("axios", None, fp).found_in == ("web/package.json",)
    pypi = fingerprint({}, (Dependency("uuid", "", "requirements.txt"),))
    assert find_technology("uuid", None, pypi).found_in == ("requirements.txt",)


def test_a_mention_in_another_ecosystems_manifest_is_no_use() -> None:
    texts: dict[str, tuple[str, ...]] = {"web/package.json": ("uuid", "vue")}
    fp = fingerprint({}, texts=texts)
    assert find_technology("uuid", None, fp).found_in == ()
    assert find_technology("vue", None, fp).found_in == ("web/package.json",)
    pyproject = fingerprint({}, texts={"pyproject.toml": ("uuid",)})
    assert find_technology("uuid", None, pyproject).found_in == ("pyproject.toml",)


def test_go_modules_are_used_by_path_with_any_major_version() -> None:
    go = FileFacts(imports=(ImportFact("github.com/redis/go-redis/v9"),), language="go")
    fp = fingerprint({"cmd/worker/main.go": go})
    found = find_technology("redis", None, fp)
    assert "cmd/worker/main.go" in found.found_in and "imports" in found.detail
    assert find_technology("golang", None, fp).found_in == ("cmd/worker/main.go",)  # *.go
    gin = Dependency("github.com/gin-gonic/gin", "v1.10.0", "go.mod", True, "go")
    pgx = Dependency("github.com/jackc/pgx/v5", "v5.5.0", "go.mod", True, "go")
    declared = fingerprint({}, (gin, pgx))
    assert find_technology("gin", None, declared).found_in == ("go.mod",)
    assert find_technology("postgresql", None, declared).found_in == ("go.mod",)
    other = Dependency("github.com/gin-gonic/gin-contrib", "v1.0.0", "go.mod", True, "go")
    assert find_technology("gin", None, fingerprint({}, (other,))).found_in == ()


def test_crates_are_imported_with_underscores_and_declared_with_hyphens() -> None:
    rust = FileFacts(imports=(ImportFact("serde_json", ("Value",)),), language="rust")
    fp = fingerprint({"src/main.rs": rust})
    assert "src/main.rs" in find_technology("serde", None, fp).found_in
    assert find_technology("rust", None, fp).found_in == ("src/main.rs",)  # *.rs
    actix = Dependency("actix-web", "4", "Cargo.toml", True, "cargo")
    declared = fingerprint({}, (actix,))
    assert find_technology("actix-web", None, declared).found_in == ("Cargo.toml",)
    python = fingerprint({"svc.py": FileFacts(imports=(ImportFact("serde_json"),))})
    assert find_technology("serde", None, python).found_in == ()


def test_an_unknown_name_is_looked_for_in_every_ecosystem() -> None:
    dep = Dependency("zorbdb-client", "1", "web/package.json", True, "npm")
    fp = fingerprint({"web/db.ts": ts("zorbdb-client")}, (dep,))
    found = find_technology("zorbdb-client", None, fp)
    assert found.found_in == ("web/db.ts", "web/package.json")
