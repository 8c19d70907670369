"""The technology vocabulary and the English word list (anchors.vocabulary), and the script
that regenerates them (scripts/refresh_vocabulary.py)."""

from __future__ import annotations

import fnmatch
import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from anchors import vocabulary
from anchors.vocabulary import TechKind, Vocabulary

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "scripts" / "refresh_vocabulary.py"
FIXTURE = Path(__file__).resolve().parent / "data" / "vocabulary"
IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(\.[A-Za-z_][A-Za-z0-9_]*)*\Z")


def refresh_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("refresh_vocabulary", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize(
    ("words", "name", "span", "common"),
    [
        (["Pulumi"], "pulumi", 1, False),
        (["pulumi", "stacks"], "pulumi", 1, False),
        (["HashiCorp", "Vault"], "hashicorp-vault", 2, False),
        (["vault"], "hashicorp-vault", 1, True),
        (["GitHub", "Actions"], "github-actions", 2, False),
        (["github"], "github", 1, False),
        (["new", "relic"], "new-relic", 2, False),
        (["read", "the", "docs"], "read-the-docs", 3, True),
        (["beautiful", "soup"], "beautifulsoup4", 2, True),
        (["k8s"], "kubernetes", 1, False),
        (["postgres"], "postgresql", 1, False),
        (["psycopg"], "postgresql", 1, False),
        (["psycopg2-binary"], "postgresql", 1, False),
        (["celery"], "celery", 1, False),
        (["redis"], "redis", 1, False),
        (["braintree"], "braintree", 1, False),
        (["Datadog"], "datadog", 1, False),
        (["ddtrace"], "datadog", 1, False),
        (["sentry-sdk"], "sentry", 1, False),
        (["ldclient"], "launchdarkly", 1, False),
        (["jinja"], "jinja2", 1, False),
        (["sklearn"], "scikit-learn", 1, False),
        (["scikit-learn"], "scikit-learn", 1, False),
        (["pytest-cov"], "pytest-cov", 1, False),
        (["PyYAML"], "pyyaml", 1, False),
        (["pyyaml"], "pyyaml", 1, False),
        (["tortoise-orm"], "tortoise-orm", 1, False),
        (["tortoise_orm"], "tortoise-orm", 1, False),
        (["falcon"], "falcon", 1, True),
        (["click"], "click", 1, True),
        (["requests"], "requests", 1, True),
    ],
    ids=lambda value: " ".join(value) if isinstance(value, list) else None,
)
def test_lookup_finds_the_longest_alias_and_says_whether_it_is_a_common_word(
    words: list[str], name: str, span: int, common: bool
) -> None:
    found = vocabulary.lookup(words)
    assert found is not None
    tech, got_span, got_common = found
    assert (tech.name, got_span, got_common) == (name, span, common)


@pytest.mark.parametrize(
    "words",
    [["gateway"], ["request"], ["handler"], ["accounts"], ["signing"], ["zorbdb"], []],
    ids=lambda words: " ".join(words) or "nothing",
)
def test_lookup_finds_nothing_for_ordinary_and_invented_words(words: list[str]) -> None:
    assert vocabulary.lookup(words) is None


def test_lookup_starts_where_it_is_told() -> None:
    words = ["metrics", "go", "to", "Datadog"]
    assert vocabulary.lookup(words, 0) is None
    found = vocabulary.lookup(words, 3)
    assert found is not None and found[0].name == "datadog"
    assert vocabulary.lookup(words, 4) is None


def test_a_multi_word_alias_needs_all_its_words() -> None:
    found = vocabulary.lookup(["hashicorp"])
    assert found is None or found[1] == 1  # "hashicorp" alone is no alias of two words
    assert vocabulary.lookup(["github", "pages"]) == (vocabulary.by_name("github"), 1, False)


@pytest.mark.parametrize(
    ("module", "name"),
    [
        ("bs4", "beautifulsoup4"),
        ("PIL", "pillow"),
        ("sklearn.linear_model", "scikit-learn"),
        ("cv2", "opencv-python"),
        ("yaml", "pyyaml"),
        ("dateutil.parser", "python-dateutil"),
        ("dotenv", "python-dotenv"),
        ("jwt", "pyjwt"),
        ("attr", "attrs"),
        ("attrs", "attrs"),
        ("google.protobuf", "protobuf"),
        ("google.protobuf.json_format", "protobuf"),
        ("google.cloud.storage", "gcs"),
        ("sentry_sdk", "sentry"),
        ("psycopg2", "postgresql"),
        ("asyncpg", "postgresql"),
        ("pymongo", "mongodb"),
        ("bson", "mongodb"),
        ("markdown_it", "markdown-it-py"),
        ("zmq", "zeromq"),
        ("Crypto.Cipher", "pycryptodome"),
        ("snowflake.connector", "snowflake"),
        ("ldclient", "launchdarkly"),
        ("hvac", "hashicorp-vault"),
        ("ddtrace", "datadog"),
        ("sqlite3", "sqlite"),
        ("airflow.providers.amazon", "airflow"),
        ("corsheaders", "django-cors-headers"),
        ("rest_framework", "djangorestframework"),
        ("boto3", "aws"),
    ],
    ids=lambda value: str(value),
)
def test_an_import_name_maps_to_its_technology(module: str, name: str) -> None:
    tech = vocabulary.for_import(module)
    assert tech is not None and tech.name == name


def test_an_unknown_import_maps_to_nothing() -> None:
    assert vocabulary.for_import("zorbdb") is None
    assert vocabulary.for_import("anchors.vocabulary") is None


@pytest.mark.parametrize(
    ("name", "canonical", "kind"),
    [
        ("pulumi", "pulumi", TechKind.SYSTEM),
        ("hashicorp-vault", "hashicorp-vault", TechKind.SYSTEM),
        ("PyYAML", "pyyaml", TechKind.PACKAGE),
        ("python_dateutil", "python-dateutil", TechKind.PACKAGE),
        ("psycopg2-binary", "postgresql", TechKind.SYSTEM),
        ("snowflake-connector-python", "snowflake", TechKind.SYSTEM),
        ("apache-airflow", "airflow", TechKind.SYSTEM),
    ],
)
def test_by_name_takes_a_canonical_or_distribution_name(
    name: str, canonical: str, kind: TechKind
) -> None:
    tech = vocabulary.by_name(name)
    assert tech is not None and (tech.name, tech.kind) == (canonical, kind)


def test_a_package_that_is_also_a_system_appears_once_as_the_system() -> None:
    for dist in ("redis", "celery", "stripe", "sentry-sdk", "datadog", "kubernetes"):
        tech = vocabulary.by_name(dist)
        assert tech is not None and tech.kind is TechKind.SYSTEM, dist
        assert dist in tech.dists
    names = [t.name for t in vocabulary.load().technologies()]
    assert "redis" in names and "sentry-sdk" not in names


def test_systems_carry_their_footprints_dists_and_mention_tokens() -> None:
    pulumi = vocabulary.by_name("pulumi")
    assert pulumi is not None
    assert pulumi.display == "Pulumi"
    assert {"Pulumi.yaml", "Pulumi.*.yaml"} <= set(pulumi.footprints)
    assert "pulumi" in pulumi.dists
    vault = vocabulary.by_name("hashicorp-vault")
    assert vault is not None and vault.display == "HashiCorp Vault"
    assert set(vault.mention_tokens) == {"hashicorp", "hvac"}
    assert "hashicorp vault" in vault.aliases
    actions = vocabulary.by_name("github-actions")
    assert actions is not None and ".github/workflows/*" in actions.footprints
    docker = vocabulary.by_name("docker")
    assert docker is not None
    assert fnmatch.fnmatch("Dockerfile", docker.footprints[0])


@pytest.mark.parametrize(
    ("token", "name"),
    [("datadog", "datadog"), ("ddtrace", "datadog"), ("hashicorp", "hashicorp-vault"),
     ("HVAC", "hashicorp-vault"), ("pyyaml", "pyyaml"), ("psycopg2", "postgresql")],
)
def test_a_mention_token_leads_to_its_technologies(token: str, name: str) -> None:
    assert token.lower() in vocabulary.mention_tokens()
    assert name in [t.name for t in vocabulary.technologies_for_token(token)]


@pytest.mark.parametrize("word", ["vault", "click", "requests", "gateway", "yaml", "python"])
def test_ordinary_words_are_no_mention_tokens(word: str) -> None:
    assert word not in vocabulary.mention_tokens()
    assert vocabulary.technologies_for_token(word) == ()


@pytest.mark.parametrize(
    ("word", "ordinary"),
    [
        ("gateway", True), ("accounts", True), ("signing", True), ("required", True),
        ("handler", True), ("request", True), ("models", True), ("deleted", True),
        ("unverified", True), ("Gateway", True),
        # technologies may be in the list too (the vocabulary takes precedence)...
        ("python", True), ("django", True),
        # ...or not
        ("pulumi", False), ("datadog", False), ("redis", False), ("sqlalchemy", False),
        # invented names are neither
        ("zorbdb", False), ("x", False),
    ],
)
def test_is_ordinary_word(word: str, ordinary: bool) -> None:
    assert vocabulary.is_ordinary_word(word) is ordinary


@pytest.mark.parametrize(
    ("alias", "common"),
    [("click", True), ("requests", True), ("rich", True), ("black", True), ("six", True),
     ("mock", True), ("falcon", True), ("vault", True), ("yaml", True),
     ("celery", False), ("django", False), ("redis", False), ("braintree", False),
     ("pulumi", False), ("scikit-learn", False)],
)
def test_an_alias_is_common_when_it_is_a_frequent_english_word(alias: str, common: bool) -> None:
    found = vocabulary.lookup([alias])
    assert found is not None and found[2] is common


def test_the_version_is_a_short_stable_hash_of_the_data() -> None:
    version = vocabulary.VOCABULARY_VERSION
    assert re.fullmatch(r"[0-9a-f]{12}", version)
    assert Vocabulary().version == version
    assert Vocabulary(FIXTURE / "expected").version != version


# ---------------------------------------------------------------- data-file integrity


def test_the_data_files_are_whole_and_consistent() -> None:
    techs = vocabulary.load().technologies()
    names = [t.name for t in techs]
    assert len(names) == len(set(names))
    assert sum(t.kind is TechKind.SYSTEM for t in techs) >= 150
    assert sum(t.kind is TechKind.PACKAGE for t in techs) >= 6000
    dists = [d for t in techs for d in t.dists]
    assert len(dists) == len(set(dists)), "a distribution belongs to one technology"
    for tech in techs:
        assert tech.name == tech.name.lower() and tech.display, tech
        assert tech.aliases and all(a and a == a.lower() and "  " not in a
                                    and a == a.strip() for a in tech.aliases), tech
        assert set(tech.common_aliases) <= set(tech.aliases), tech
        assert all(d == vocabulary.normalize_dist(d) for d in tech.dists), tech
        assert all(IDENT.match(m) for m in tech.imports), tech
        assert all(t and t == t.lower() and " " not in t for t in tech.mention_tokens), tech
        for glob in tech.footprints:
            assert glob and not glob.startswith("/") and ".." not in glob.split("/"), tech
            re.compile(fnmatch.translate(glob))
        if tech.kind is TechKind.PACKAGE:
            assert tech.rank is not None and not tech.footprints, tech


def test_the_english_list_is_sorted_lower_case_letters() -> None:
    lines = (vocabulary.DATA_DIR / "english.txt").read_text("utf-8").splitlines()
    assert lines == sorted(set(lines))
    assert all(re.fullmatch(r"[a-z]{2,}", w) for w in lines)
    assert len(lines) > 30000


def test_the_shipped_systems_are_the_scripts_systems() -> None:
    """Editing the curated tables without re-running the script fails here."""
    script = refresh_script()
    for system in script.SYSTEMS:
        tech = vocabulary.by_name(system.name)
        assert tech is not None and tech.kind is TechKind.SYSTEM, system.name
        attached = script.ATTACHED.get(system.name)
        extra = attached.footprints if attached else ()
        assert (tech.display, tech.footprints) == (system.display, (*system.footprints, *extra))
        assert tech.beside is (system.name in script.BESIDE_THE_CODE), system.name
        assert set(system.dists) <= set(tech.dists), system.name
    assert len(script.IMPORT_EXCEPTIONS) >= 150


# ---------------------------------------------------------------- the refresh script


def run_refresh(ranks: Path, out: Path) -> None:
    subprocess.run(
        [sys.executable, str(SCRIPT), str(ranks), "--out", str(out),
         "--frequencies", str(FIXTURE / "frequencies.tsv"), "--top", "100"],
        check=True, capture_output=True, timeout=120,
    )


@pytest.mark.parametrize("ranks", ["ranks.tsv", "ranks.json"])
def test_the_refresh_script_regenerates_byte_identical_data(ranks: str, tmp_path: Path) -> None:
    run_refresh(FIXTURE / ranks, tmp_path)
    for name in ("technologies.tsv", "english.txt"):
        assert (tmp_path / name).read_bytes() == (FIXTURE / "expected" / name).read_bytes()


def test_the_regenerated_data_loads() -> None:
    vocab = Vocabulary(FIXTURE / "expected")
    assert vocab.lookup(["PyYAML"]) == (vocab.by_name("pyyaml"), 1, False)
    assert vocab.lookup(["rich"]) == (vocab.by_name("rich"), 1, True)
    assert vocab.by_name("zorbdb") is None  # unranked rows are left out
    assert vocab.by_name("nvidia-cublas-cu12") is not None
    assert vocab.for_import("nvidia.cublas") == vocab.by_name("nvidia-cublas-cu12")
    assert vocab.for_import("zope.interface") == vocab.by_name("zope-interface")
    assert vocab.by_name("types-requests") is not None
    assert vocab.by_name("types-requests").imports == ()  # type: ignore[union-attr]
    assert vocab.is_ordinary_word("gateway") and not vocab.is_ordinary_word("obscure")


def test_the_common_flags_agree_with_wordfreq() -> None:
    wordfreq = pytest.importorskip("wordfreq")
    script = refresh_script()
    for word in ("click", "requests", "rich", "celery", "django", "redis", "braintree",
                 "falcon", "mock", "pulumi"):
        found = vocabulary.lookup([word])
        assert found is not None
        frequent = wordfreq.zipf_frequency(word, "en") >= script.COMMON_THRESHOLD
        assert found[2] is frequent, word
    for word in ("gateway", "unverified", "handler", "zorbdb"):
        ordinary = wordfreq.zipf_frequency(word, "en") >= script.ENGLISH_THRESHOLD
        assert vocabulary.is_ordinary_word(word) is ordinary, word


def test_one_word_and_several_word_lookups_answer_as_the_general_lookup() -> None:
    vocab = vocabulary.load()
    single, multi = vocab._aliases
    words = [*list(single)[::7], *multi, "Redis", "PyYAML", "tortoise_orm", "zorbdb", "", "a.b"]
    for word in words:
        assert vocab.lookup_word(word) == vocab.lookup([word]), word
    phrases = [["HashiCorp", "Vault"], ["GitHub", "Actions"], ["github", "actions", "x"],
               ["Google", "Cloud", "Storage"], ["hashicorp"], ["vault", "x"]]  # fmt: skip
    phrases += [[first, *rest] for first, entries in list(multi.items())[:200]
                for rest, _, _ in entries[:1]]  # fmt: skip
    for words_ in phrases:
        for start in range(len(words_)):
            hit = vocab.lookup(words_, start)
            several = vocab.lookup_several(words_, start)
            assert several == (hit if hit is not None and hit[1] > 1 else None), words_
            if several is not None:
                assert vocabulary.alias_key(words_[start]) in vocab.several_word_starts
    assert vocabulary.alias_keys(words) == [vocabulary.alias_key(w) for w in words]


@pytest.mark.parametrize(
    ("name", "beside"),
    [("linear", True), ("github-issues", True), ("notion", True), ("pagerduty", True),
     ("slack", True), ("ecs", True), ("heroku", True), ("figma", True), ("jenkins", True),
     ("github", True), ("github-actions", False), ("circleci", False), ("redis", False),
     ("celery", False), ("sentry", False), ("stripe", False), ("postgresql", False),
     ("requests", False)],
)  # fmt: skip
def test_the_vocabulary_says_which_technologies_are_used_beside_the_code(
    name: str, beside: bool
) -> None:
    tech = vocabulary.by_name(name)
    assert tech is not None and tech.beside is beside


def test_github_issues_and_github_actions_are_two_technologies() -> None:
    issues = vocabulary.lookup(["GitHub", "issues"])
    actions = vocabulary.lookup(["GitHub", "Actions"])
    assert issues is not None and issues[0].name == "github-issues" and issues[1] == 2
    assert actions is not None and actions[0].name == "github-actions"
