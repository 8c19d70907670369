"""The contamination experiment: fact loading, label validation, metrics, the chart, and a
reduced run through the CLI (a subprocess, the agents talking to real `anchormem serve`
processes over stdio)."""

from __future__ import annotations

import json
import struct
import subprocess
import sys
import zlib
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from anchors.gitrepo import find_repository_root
from experiments.agents import (
    ACCEPT,
    REJECT,
    UNKNOWN,
    FactOutcome,
    established,
    served_not_refuted,
)
from experiments.contamination import Config, _subset, run
from experiments.errors import ExperimentError, exit_code
from experiments.evidence import Workspace, parse_check, validate_facts
from experiments.facts import Fact, FactsError, default_facts_path, load_facts
from experiments.fixture import FIXTURE_TAGS
from experiments.metrics import agent_metrics, wilson
from experiments.png import Canvas
from experiments.report import markdown, write_chart
from tests.conftest import anchormem_env, settings_env

ARMS = ("add_only", "retraction", "verify_on_read")
AGENTS = ("B", "code_first", "memory_first", "careful")
RATES = ("adoption_rate", "false_refutation_rate", "missed_rate", "persistent_contamination")


# -- metrics -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        (0, 22, 0.0, 0.1487),
        (3, 25, 0.0417, 0.2996),
        (5, 10, 0.2366, 0.7634),
        (10, 10, 0.7225, 1.0),
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_matches_known_values(k: int, n: int, low: float, high: float):
    interval = wilson(k, n)
    assert interval is not None
    assert interval[0] == pytest.approx(low, abs=5e-4)
    assert interval[1] == pytest.approx(high, abs=5e-4)


def test_wilson_interval_of_nothing_is_none_and_bad_counts_are_refused():
    assert wilson(0, 0) is None
    with pytest.raises(ValueError):
        wilson(3, 2)


def test_metrics_count_what_the_readme_defines():
    facts = [
        Fact("t1", "a", True, "true"),
        Fact("t2", "b", True, "true"),
        Fact("f1", "c", False, "contradicted"),
        Fact("f2", "d", False, "silent"),
    ]
    from experiments.evidence import Evidence

    evidence = {
        "t1": Evidence("supports", ""),
        "t2": Evidence("silent", ""),
        "f1": Evidence("contradicts", ""),
        "f2": Evidence("silent", ""),
    }
    outcomes = {
        "t1": FactOutcome(ACCEPT, "code", final="VERIFIED", tokens=3),
        "t2": FactOutcome(UNKNOWN, "none", final="REFUTED/code", tokens=4),
        "f1": FactOutcome(REJECT, "code", final="REFUTED/retraction"),
        "f2": FactOutcome(ACCEPT, "memory", final="ACTIVE/off", final_established=True),
    }
    m = agent_metrics(facts, outcomes, evidence, has_memory=True)
    assert m["adoption_rate"] == 0.5 and m["counts"]["adoption_rate"] == [1, 2]
    assert m["false_refutation_rate"] == 0.5  # t2's memory is REFUTED
    assert m["missed_rate"] == 0.5
    assert m["correction_capability"] == 1.0 and m["counts"]["correction_capability"] == [1, 1]
    assert m["persistent_contamination"] == 0.5 and m["persistent_established"] == 0.5
    assert m["context_tokens"] == 7
    assert m["ci95"]["adoption_rate"] == [round(x, 4) for x in wilson(1, 2) or ()]
    no_memory = agent_metrics(facts, outcomes, evidence, has_memory=False)
    assert no_memory["persistent_contamination"] is None
    assert m["served_rate"] is None  # no recall record given


def test_served_metrics_read_what_recall_returned_for_each_facts_memory():
    facts = [
        Fact("t1", "a", True, "true"),
        Fact("t2", "b", True, "convention"),
        Fact("t3", "c", True, "drift"),
        Fact("t4", "d", True, "true"),
        Fact("f1", "e", False, "contradicted"),
        Fact("f2", "f", False, "silent"),
        Fact("f3", "g", False, "temporal"),
    ]
    from experiments.evidence import Evidence

    evidence = {f.id: Evidence("silent", "") for f in facts}
    recall = {
        "t1": FactOutcome(ACCEPT, "memory", served="VERIFIED"),
        "t2": FactOutcome(ACCEPT, "memory", served="ACTIVE/inconclusive"),
        "t3": FactOutcome(ACCEPT, "memory", served="VERIFIED"),
        "t4": FactOutcome(UNKNOWN, "none", served="REFUTED/code"),
        "f1": FactOutcome(UNKNOWN, "none", served="REFUTED/code"),
        "f2": FactOutcome(ACCEPT, "memory", served="ACTIVE/inconclusive"),
        "f3": FactOutcome(ACCEPT, "memory", served="VERIFIED"),
    }
    m = agent_metrics(facts, recall, evidence, has_memory=True, recall=recall)
    assert m["counts"]["served_rate"] == [2, 3]  # f2 and f3; f1 was served REFUTED
    assert m["counts"]["served_verified_rate"] == [1, 3]
    assert m["counts"]["true_verified_rate"] == [2, 4]
    # the headline leaves out convention and drift: t1 of t1, t4
    assert m["counts"]["true_verified_checkable"] == [1, 2]
    assert m["ci95"]["served_rate"] == [round(x, 4) for x in wilson(2, 3) or ()]
    absent = {f.id: FactOutcome(UNKNOWN, "none", served="absent") for f in facts}
    none = agent_metrics(facts, absent, evidence, has_memory=True, recall=absent)
    assert none["served_rate"] == 0.0 and none["true_verified_rate"] == 0.0


def test_memory_first_takes_what_is_served_and_careful_only_what_is_established():
    served = [
        {"status": "VERIFIED", "verification": "verified"},
        {"status": "ACTIVE", "verification": "off"},
        {"status": "ACTIVE", "verification": "inconclusive: no checkable anchor"},
        {"status": "ACTIVE", "verification": "drifted"},
        {"status": "REFUTED", "verification": "off"},
        None,
    ]
    assert [served_not_refuted(m) for m in served] == [True, True, True, True, False, False]
    assert [m is not None and established(m) for m in served] == [
        True, True, False, False, False, False,
    ]  # fmt: skip


def test_established_means_verified_or_served_by_a_server_that_does_not_verify():
    assert established({"status": "VERIFIED", "verification": "verified"})
    assert established({"status": "ACTIVE", "verification": "off"})
    assert not established({"status": "ACTIVE", "verification": "inconclusive: no anchor"})
    assert not established({"status": "ACTIVE", "verification": "drifted"})
    assert not established({"status": "REFUTED", "verification": "off"})


# -- facts and label validation ------------------------------------------------------------
def test_the_default_fact_set_meets_the_issue():
    facts = load_facts(default_facts_path())
    assert len(facts) >= 120
    assert sum(f.truth for f in facts) >= 50
    false_categories = {f.category for f in facts if not f.truth}
    assert {"contradicted", "silent", "present_trap", "negation", "temporal", "drift"} <= (
        false_categories
    )
    by = Counter((f.category, f.truth) for f in facts)
    assert by[("present_trap", True)] and by[("negation", True)] and by[("negation", False)]
    assert by[("convention", True)]  # true facts the code cannot check
    assert all(f.commit in FIXTURE_TAGS for f in facts if f.category in ("temporal", "drift"))


def test_load_facts_refuses_malformed_lines(tmp_path: Path):
    path = tmp_path / "facts.jsonl"
    for bad, message in [
        ('{"id": "a", "claim": "x", "truth": "yes", "category": "true"}', "truth"),
        ('{"id": "a", "claim": "x", "truth": true}', "missing category"),
        ("not json", "not JSON"),
        ('{"id": "a", "claim": "x", "truth": true, "category": "c", "anchors": "dep:x"}', "list"),
        ('{"id": "a", "claim": "x", "truth": true, "category": "c", "kind": "rumour"}', "kind"),
        ('{"id": "a", "claim": "x", "truth": true, "category": "c", "scope": ""}', "scope"),
    ]:
        path.write_text(bad + "\n")
        with pytest.raises(FactsError, match=message):
            load_facts(path)
    path.write_text(
        '{"id": "a", "claim": "x", "truth": true, "category": "c", "kind": "decision", '
        '"scope": "production"}\n'
    )
    (loaded,) = load_facts(path)
    assert (loaded.kind, loaded.scope) == ("decision", "production")
    line = '{"id": "a", "claim": "x", "truth": true, "category": "true"}\n'
    path.write_text(line + line)
    with pytest.raises(FactsError, match="duplicate id"):
        load_facts(path)


def test_subset_takes_the_first_facts_of_each_category_and_label():
    facts = [Fact(str(i), f"c{i}", i % 2 == 0, "true" if i < 6 else "drift") for i in range(10)]
    chosen = _subset(facts, 1)
    assert [f.id for f in chosen] == ["0", "1", "6", "7"]
    assert _subset(facts, None) == facts


def test_checks_parse_anchors_and_greps():
    assert parse_check("!dep:redis").anchor is not None
    grep = parse_check("grep:shop/orders::MAX_DISCOUNT = 0")
    assert grep.path == "shop/orders" and grep.pattern is not None
    assert parse_check("!grep:.::celery").negated


@pytest.fixture(scope="module")
def fixture_ws(tmp_path_factory: pytest.TempPathFactory) -> Any:
    ws = Workspace.fixture(tmp_path_factory.mktemp("fixture") / "repo")
    yield ws
    ws.close()


def fact(fid: str, claim: str, truth: bool, category: str, **more: Any) -> Fact:
    for key in ("anchors", "check", "unmentioned"):
        if key in more:
            more[key] = tuple(more[key])
    return Fact(fid, claim, truth, category, **more)


def test_label_validation_excludes_what_the_code_contradicts_with_reasons(fixture_ws: Any):
    facts = [
        fact("ok", "Billing uses httpx.", True, "true",
             subject="shop/billing/client.py", check=["import:httpx"]),
        fact("wrong-false", "The API uses FastAPI.", False, "contradicted",
             check=["import:fastapi@shop/app.py"]),
        fact("wrong-true", "We use Celery.", True, "true", check=["dep:celery"]),
        fact("same", "billing uses  HTTPX.", True, "true", check=["dep:httpx"]),
        fact("loud", "Logs go to Redis.", False, "silent", unmentioned=["redis"]),
        fact("early", "Billing uses aiohttp.", False, "temporal", commit="v1",
             check=["import:aiohttp@shop/billing/client.py"]),
        fact("steady", "money helpers", False, "drift", commit="v1",
             check=["symbol:shop/utils/money.py::to_cents", "grep:shop/utils/money.py::NOPE"]),
        fact("nowhere", "x", False, "contradicted", commit="v9", check=["dep:nope"]),
        fact("notrap", "invoices use aiohttp", False, "present_trap",
             subject="shop/billing/invoices.py", check=["import:aiohttp"]),
        fact("badcheck", "y", True, "true", check=["grep:shop/app.py::("]),
        fact("undecided", "z", True, "true", check=["dep:anything"], anchors=["nope:x"]),
    ]  # fmt: skip
    kept, excluded, commits, evidence = validate_facts(facts, fixture_ws)
    assert [f.id for f in kept] == ["ok"]
    assert evidence["ok"].verdict == "supports"
    assert commits["ok"] == fixture_ws.head
    reasons = {e.fact.id: e.reason for e in excluded}
    assert "labelled false, but the code supports it" in reasons["wrong-false"]
    assert "labelled true, but the code contradicts it" in reasons["wrong-true"]
    assert "same claim as fact ok" in reasons["same"]
    assert "mentions 'redis'" in reasons["loud"]
    assert "temporal, but not true at v1" in reasons["early"]
    assert "no symbol it names was rewritten" in reasons["steady"]
    assert "not a revision" in reasons["nowhere"]
    assert "not a present-trap" in reasons["notrap"]
    assert "invalid check" in reasons["badcheck"]
    assert "invalid anchor" in reasons["undecided"]
    view = excluded[0].view()
    assert set(view) == {"id", "category", "truth", "claim", "reason"}


def test_the_default_labels_all_agree_with_the_fixture(fixture_ws: Any):
    facts = load_facts(default_facts_path())
    kept, excluded, _, evidence = validate_facts(facts, fixture_ws)
    assert [e.view() for e in excluded] == []
    by = Counter((f.category, evidence[f.id].verdict) for f in kept)
    assert by[("silent", "silent")] == sum(1 for f in facts if f.category == "silent")
    assert by[("convention", "silent")] == sum(1 for f in facts if f.category == "convention")


def test_a_clone_of_another_repository_resolves_its_tags(fixture_ws: Any, tmp_path: Path):
    copy = Workspace.clone(fixture_ws.root, tmp_path / "copy")
    try:
        assert copy.head == fixture_ws.head
        assert copy.resolve("v2") == fixture_ws.tags["v2"]
        assert copy.resolve("--all") is None and copy.resolve("nope") is None
    finally:
        copy.close()


def test_the_server_switches_of_the_baseline_arms(fixture_ws: Any):
    from server.config import Settings
    from store.errors import InvalidInput

    on = Settings.resolve(
        repo=str(fixture_ws.root), db=str(fixture_ws.root / "x.db"), env=settings_env()
    )
    assert on.verify and on.conflicts
    env = {"ANCHORMEM_VERIFY": "0", "ANCHORMEM_CONFLICTS": "off"}
    off = Settings.resolve(repo=str(fixture_ws.root), db=str(fixture_ws.root / "x.db"), env=env)
    assert not off.verify and not off.conflicts
    with pytest.raises(InvalidInput, match="ANCHORMEM_VERIFY"):
        Settings.resolve(
            repo=str(fixture_ws.root), db=str(fixture_ws.root / "x.db"),
            env={"ANCHORMEM_VERIFY": "maybe"},
        )  # fmt: skip


@pytest.mark.parametrize(
    ("text", "subject", "wrong"),
    [
        ("Structured logs are rendered as JSON by structlog.", "shop/utils/logging.py", "json"),
        ("Secrets are stored in HashiCorp Vault and injected at deploy time.", None, "secrets"),
        ("Database access uses the Peewee ORM.", None, "sqlalchemy.orm"),
    ],
)
def test_prose_words_are_not_read_as_the_modules_they_spell(
    fixture_ws: Any, text: str, subject: str | None, wrong: str
):
    # Found by the experiment: these anchors refuted a true memory and verified false ones.
    from anchors.extract import infer_anchors

    fp = fixture_ws.snapshot(fixture_ws.head).fp
    found = infer_anchors(text, fp, subject).anchors
    assert all(a.value != wrong for a in found), found
    lower = infer_anchors("The daily report writes its output with the csv module.", fp, None)
    # the component ("the daily report") resolves to shop/reports, where csv is imported
    assert [a.render() for a in lower.anchors] == ["import:csv@shop/reports"]


# -- the chart -----------------------------------------------------------------------------
def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])
    idat = data.index(b"IDAT")
    length = struct.unpack(">I", data[idat - 4 : idat])[0]
    raw = zlib.decompress(data[idat + 4 : idat + 4 + length])
    assert len(raw) == (width * 3 + 1) * height
    assert all(raw[row * (width * 3 + 1)] == 0 for row in range(height))
    return width, height


def test_the_canvas_clips_and_writes_a_valid_png(tmp_path: Path):
    canvas = Canvas(40, 20)
    canvas.rect(-10, -10, 100, 5, (255, 0, 0))
    canvas.rect(60, 0, 30, 10, (0, 255, 0))  # reversed and off the right edge
    canvas.text(2, 8, "ab;%?", (0, 0, 0), 1)
    path = tmp_path / "x.png"
    canvas.save(path)
    assert png_size(path.read_bytes()) == (40, 20)


# -- a reduced run through the CLI ----------------------------------------------------------
WITH_KIND_AND_SCOPE = {
    "id": "X-kind-scope",
    "claim": "Releases to production are approved by two maintainers.",
    "truth": True,
    "category": "convention",
    "kind": "decision",
    "scope": "production",
}
MISLABELLED = [
    {
        "id": "X-mislabelled",
        "claim": "The payment client talks to the payment API with httpx.",
        "truth": False,
        "category": "contradicted",
        "subject": "shop/billing/client.py",
        "check": ["import:httpx@shop/billing/client.py"],
    },
    {
        "id": "X-not-silent",
        "claim": "Cached pages live in Redis.",
        "truth": False,
        "category": "silent",
        "unmentioned": ["redis"],
    },
]


@pytest.fixture(scope="module")
def reduced_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[dict[str, Any], Path]:
    """One fact of each category and label from the default set, plus two mislabelled
    ones, run as a user would: `anchormem experiment contamination --facts F --json`."""
    work = tmp_path_factory.mktemp("experiment")
    facts = _subset(load_facts(default_facts_path()), 1)
    lines = [json.loads(line) for line in default_facts_path().read_text().splitlines()]
    chosen = {f.id for f in facts}
    facts_file = work / "facts.jsonl"
    rows = [r for r in lines if r["id"] in chosen] + [WITH_KIND_AND_SCOPE, *MISLABELLED]
    facts_file.write_text("".join(json.dumps(r) + "\n" for r in rows))
    # No --out: the results go to the user's cache, never into the folder it is run from.
    env = {**anchormem_env(), "XDG_CACHE_HOME": str(work / "cache")}
    script = Path(sys.executable).with_name("anchormem")
    done = subprocess.run(
        [str(script), "experiment", "contamination", "--json", "--facts", str(facts_file)],
        cwd=work, env=env, capture_output=True, text=True, timeout=240, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert {p.name for p in work.iterdir()} == {"facts.jsonl", "cache"}
    return json.loads(done.stdout), work / "cache" / "anchormem" / "results" / "contamination"


def test_the_reduced_run_reports_every_arm_agent_and_rate(reduced_run: Any):
    results, out = reduced_run
    assert set(results["arms"]) == set(ARMS)
    categories = set(results["facts"]["by_category"])
    for arm in ARMS:
        assert set(results["arms"][arm]) == set(AGENTS)
        for agent in AGENTS:
            entry = results["arms"][arm][agent]
            for rate in (*RATES, "context_tokens", "correction_capability"):
                assert rate in entry
            assert set(entry["by_category"]) == categories
            for per in entry["by_category"].values():
                assert {"adoption_rate", "false_refutation_rate", "missed_rate"} <= set(per)
            assert entry["ci95"]["false_refutation_rate"][0] == 0.0
    assert results["arms"]["add_only"]["B"]["context_tokens"] == 0
    assert results["arms"]["add_only"]["memory_first"]["context_tokens"] > 0
    assert {p.name for p in out.iterdir()} >= {
        "results.json",
        "results.md",
        "chart.png",
        "per_fact.jsonl",
    }
    assert json.loads((out / "results.json").read_text())["arms"] == results["arms"]
    assert png_size((out / "chart.png").read_bytes()) == (1000, 600)
    assert "| verify_on_read | memory_first |" in (out / "results.md").read_text()


def test_the_reduced_run_lists_the_mislabelled_facts_with_reasons(reduced_run: Any):
    results, _ = reduced_run
    reasons = {e["id"]: e["reason"] for e in results["excluded"]}
    assert set(reasons) == {"X-mislabelled", "X-not-silent"}
    assert "labelled false, but the code supports it" in reasons["X-mislabelled"]
    assert "mentions 'redis'" in reasons["X-not-silent"]
    assert results["facts"]["given"] == results["facts"]["scored"] + 2


def test_add_only_reproduces_the_published_pattern(reduced_run: Any):
    arms = reduced_run[0]["arms"]
    assert arms["add_only"]["memory_first"]["adoption_rate"] == 1.0
    assert arms["add_only"]["memory_first"]["persistent_contamination"] == 1.0
    assert arms["add_only"]["B"]["adoption_rate"] == 0.0
    # code_first adopts only what the code is silent about.
    silent = arms["add_only"]["code_first"]["by_category"]["silent"]
    assert silent["adoption_rate"] == 1.0
    assert arms["add_only"]["code_first"]["by_category"]["contradicted"]["adoption_rate"] == 0.0
    # the retraction session removes what the code contradicts, not what it is silent on
    retraction = arms["retraction"]["memory_first"]["by_category"]
    assert retraction["contradicted"]["adoption_rate"] == 0.0
    assert retraction["silent"]["adoption_rate"] == 1.0
    assert arms["retraction"]["code_first"]["retractions"] > 0


def test_verify_on_read_stops_contamination_for_the_careful_agent(reduced_run: Any):
    results = reduced_run[0]
    verify = results["arms"]["verify_on_read"]["careful"]
    for category in ("contradicted", "present_trap", "negation", "temporal", "silent"):
        assert verify["by_category"][category]["adoption_rate"] == 0.0, category
    assert verify["false_refutation_rate"] == 0.0
    served = results["served_to_memory_first"]["verify_on_read"]["silent"]["false"]
    assert "VERIFIED" not in served
    # the cost of caution is reported beside it
    assert verify["by_category"]["convention"]["missed_rate"] is not None


def test_the_published_memory_first_takes_whatever_is_served(reduced_run: Any):
    arms = reduced_run[0]["arms"]
    for arm in ARMS:
        lazy, careful = arms[arm]["memory_first"], arms[arm]["careful"]
        # the code never accepts a false fact, so a false fact is adopted exactly when its
        # memory was served (memory_first) or served established (careful)
        assert lazy["counts"]["adoption_rate"] == lazy["counts"]["served_rate"], arm
        assert lazy["counts"]["adoption_rate"][0] >= careful["counts"]["adoption_rate"][0]
        assert lazy["counts"]["served_rate"] == careful["counts"]["served_rate"]
        assert arms[arm]["code_first"]["served_rate"] is None
        assert arms[arm]["B"]["served_rate"] is None
    verify = arms["verify_on_read"]
    assert (
        verify["careful"]["counts"]["adoption_rate"]
        == verify["careful"]["counts"]["served_verified_rate"]
    )
    # silent false facts name systems the repository never mentions: refuted by absence,
    # so not even the lazy agent adopts them
    silent = verify["memory_first"]["by_category"]["silent"]
    assert silent["adoption_rate"] == 0.0 and silent["served_rate"] == 0.0
    assert verify["careful"]["by_category"]["silent"]["adoption_rate"] == 0.0
    headline = verify["memory_first"]["counts"]["true_verified_checkable"]
    by_category = reduced_run[0]["facts"]["by_category"]
    assert headline[1] == sum(
        n["true"] for c, n in by_category.items() if c not in ("convention", "drift")
    )


def test_markdown_names_every_arm(reduced_run: Any, tmp_path: Path):
    results = reduced_run[0]
    text = markdown(results)
    for arm in ARMS:
        assert f"| {arm} | memory_first |" in text
        assert f"| {arm} | careful |" in text
    assert "served VERIFIED" in text and "true VERIFIED (excl. convention, drift)" in text
    write_chart(results, tmp_path / "c.png")
    assert png_size((tmp_path / "c.png").read_bytes()) == (1000, 600)


def test_repo_without_facts_is_a_usage_error(tmp_path: Path):
    script = Path(sys.executable).with_name("anchormem")
    done = subprocess.run(
        [str(script), "experiment", "contamination", "--repo", str(tmp_path), "--out",
         str(tmp_path / "out")],
        cwd=tmp_path, capture_output=True, text=True, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert "--repo needs --facts" in done.stderr


def test_a_bad_facts_file_or_a_repo_that_is_not_git_stops_the_run_as_a_usage_error(
    tmp_path: Path,
):
    bad = tmp_path / "facts.jsonl"
    bad.write_text("not json\n")
    with pytest.raises(FactsError, match="not JSON") as facts_error:
        run(Config(out=tmp_path / "out", repo=tmp_path, facts=bad))
    assert facts_error.value.code == 2
    plain = tmp_path / "plain"
    plain.mkdir()
    if find_repository_root(plain) is not None:
        pytest.skip("the temporary directory is inside a git repository")
    with pytest.raises(ExperimentError, match="not a git repository") as not_git:
        run(Config(out=tmp_path / "out", repo=plain, facts=default_facts_path()))
    assert not_git.value.code == 2


def test_the_exit_code_of_an_experiment_follows_the_error_tree():
    from store.errors import InvalidInput, StoreBusy

    assert exit_code(ExperimentError("x")) == 1
    assert exit_code(ExperimentError("x", 2)) == 2
    assert exit_code(FactsError("x")) == 2
    assert exit_code(InvalidInput("x")) == 2
    assert exit_code(StoreBusy("x")) == 1
