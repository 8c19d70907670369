"""The real-repository truth benchmark: the contamination experiment over real projects.

``python -m experiments.truth_benchmark [--project NAME ...] [--out DIR] [--per-category N]``
(also ``anchormem experiment contamination --corpus real``) builds or reuses the corpus
(``experiments.corpus``: PyPI sdists, npm tarballs and Debian packages at two pinned
versions, one scratch git repository per project, HEAD the newer version), runs the
contamination experiment on each project with
its fact file (``experiments/data/real/NAME.jsonl``), sums the counts across projects and
prints one markdown table (every arm and agent). Progress goes to stderr. ``--out``
(default ``~/.cache/anchormem/results/truth-benchmark``, see ``experiments.results_dir``)
receives ``results.json``, ``results.md`` and one folder per project with that project's
full contamination outputs. Both also hold one table per language of the notes (their
``language`` field, ``python`` when absent; ``experiments.language_metrics``): false
served, false served VERIFIED, true refuted and true VERIFIED excluding convention and
drift, with the per-project definitions, summed over projects. Nothing else is written
outside the cache (``ANCHORMEM_CORPUS_CACHE``, default ``~/.cache/anchormem/corpus``).
It is not part of CI: the first run downloads the archives.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any

from anchors.errors import AnchormemError
from experiments.agents import AGENTS
from experiments.contamination import ARMS, Config, run
from experiments.corpus import Project, build, cache_dir, describe, load_manifest
from experiments.errors import EXIT_USAGE, ExperimentError, exit_code
from experiments.facts import load_facts
from experiments.language_metrics import LANGUAGE_COLUMNS, language_metrics, read_per_fact
from experiments.metrics import RATES, wilson
from experiments.results_dir import default_results_dir

__all__ = [
    "aggregate",
    "aggregate_languages",
    "language_tables",
    "main",
    "markdown",
    "run_benchmark",
    "run_cli",
]

_COLUMNS = (
    ("adoption_rate", "adoption"),
    ("served_rate", "served"),
    ("served_verified_rate", "served VERIFIED"),
    ("false_refutation_rate", "false refutation"),
    ("true_verified_rate", "true VERIFIED"),
    ("true_verified_checkable", "true VERIFIED excl. convention, drift"),
    ("missed_rate", "missed"),
)


def _sum_counts(entries: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
    """One agent's rates over several projects: the counts summed, rate and Wilson 95%
    interval recomputed."""
    out: dict[str, Any] = {"counts": {}, "ci95": {}}
    for name in RATES:
        pairs = [e["counts"][name] for e in entries if (e.get("counts") or {}).get(name)]
        if not pairs:
            out[name] = out["counts"][name] = out["ci95"][name] = None
            continue
        k, n = sum(p[0] for p in pairs), sum(p[1] for p in pairs)
        out["counts"][name] = [k, n]
        out[name] = round(k / n, 4) if n else None
        ci = wilson(k, n)
        out["ci95"][name] = [round(x, 4) for x in ci] if ci else None
    out["context_tokens"] = sum(int(e.get("context_tokens") or 0) for e in entries)
    return out


def aggregate(per_project: Mapping[str, Mapping[str, Any]]) -> dict[str, Any]:
    """Every arm and agent over all projects, overall and per category."""
    arms: dict[str, Any] = {}
    for arm in (a.name for a in ARMS):
        arms[arm] = {}
        for agent in AGENTS:
            entries = [r["arms"][arm][agent] for r in per_project.values()]
            entry = _sum_counts(entries)
            categories = sorted({c for e in entries for c in e.get("by_category", {})})
            entry["by_category"] = {
                c: _sum_counts([e["by_category"][c] for e in entries if c in e["by_category"]])
                for c in categories
            }
            arms[arm][agent] = entry
    return arms


def aggregate_languages(
    per_project: Mapping[str, Mapping[str, Mapping[str, Any]]],
) -> dict[str, dict[str, Any]]:
    """Every language over all projects (``per_project``: each project's
    ``language_metrics``): fact counts summed, every arm and agent's counts summed."""
    out: dict[str, dict[str, Any]] = {}
    languages = sorted({lang for by_lang in per_project.values() for lang in by_lang})
    for language in languages:
        parts = [by_lang[language] for by_lang in per_project.values() if language in by_lang]
        arms: dict[str, Any] = {}
        for arm in dict.fromkeys(a for p in parts for a in p["arms"]):  # run order
            agents = [g for g in AGENTS if any(g in p["arms"].get(arm, {}) for p in parts)]
            arms[arm] = {
                agent: _sum_counts(
                    [p["arms"][arm][agent] for p in parts if agent in p["arms"].get(arm, {})]
                )
                for agent in agents
            }
        out[language] = {
            "facts": {k: sum(p["facts"][k] for p in parts) for k in ("true", "false")},
            "arms": arms,
        }
    return out


def language_tables(by_language: Mapping[str, Mapping[str, Any]]) -> list[str]:
    """The markdown lines of the per-language tables (none without languages)."""
    if not by_language:
        return []
    lines = [
        "",
        "## Per language",
        "",
        "From each note's `language` (python when absent); the same definitions as above: "
        "false served / false served VERIFIED over false facts, true refuted (false "
        "refutation) and true VERIFIED excluding convention and drift over true facts.",
    ]
    for language, entry in by_language.items():
        facts = entry["facts"]
        lines += [
            "",
            f"### {language} ({facts['true'] + facts['false']} facts: {facts['true']} true, "
            f"{facts['false']} false)",
            "",
            "| arm | agent | " + " | ".join(t for _, t in LANGUAGE_COLUMNS) + " |",
            "|" + "---|" * (len(LANGUAGE_COLUMNS) + 2),
        ]
        for arm, by_agent in entry["arms"].items():
            for agent, metrics in by_agent.items():
                cells = " | ".join(_cell(metrics, name) for name, _ in LANGUAGE_COLUMNS)
                lines.append(f"| {arm} | {agent} | {cells} |")
    return lines


def _cell(entry: Mapping[str, Any], name: str) -> str:
    rate, pair = entry.get(name), (entry.get("counts") or {}).get(name)
    if rate is None or not pair:
        return "–"
    text = f"{rate:.2f} ({pair[0]}/{pair[1]})"
    interval = (entry.get("ci95") or {}).get(name)
    return text + (f" [{interval[0]:.2f}, {interval[1]:.2f}]" if interval else "")


def markdown(results: Mapping[str, Any]) -> str:
    projects = results["projects"]
    names = ", ".join(
        f"{p} {r['versions'][0]}→{r['versions'][-1]} ({r['facts']['scored']} facts)"
        for p, r in projects.items()
    )
    facts = results["facts"]
    lines = [
        "# Truth benchmark (real repositories)",
        "",
        f"Projects: {names}. Facts: {facts['scored']} scored ({facts['true']} true, "
        f"{facts['false']} false) of {facts['given']} given; {facts['excluded']} excluded by "
        f"label validation. Wall time {results['seconds']:.1f} s.",
        "",
        "Rates (k/n) [Wilson 95%], counts summed over projects. adoption: false facts "
        "accepted; served / served VERIFIED: false facts whose own memory recall returned "
        "(not REFUTED) / returned VERIFIED; false refutation: true facts REFUTED or rejected; "
        "true VERIFIED: true facts served VERIFIED (headline: excluding convention and drift); "
        "missed: true facts not accepted. memory_first accepts whatever is served and not "
        "REFUTED (published definition); careful only VERIFIED (or verification off).",
        "",
        "| arm | agent | " + " | ".join(t for _, t in _COLUMNS) + " |",
        "|" + "---|" * (len(_COLUMNS) + 2),
    ]
    for arm, by_agent in results["arms"].items():
        for agent, entry in by_agent.items():
            cells = " | ".join(_cell(entry, name) for name, _ in _COLUMNS)
            lines.append(f"| {arm} | {agent} | {cells} |")
    lines += language_tables(results.get("by_language") or {})
    excluded = [(p, e) for p, r in projects.items() for e in r["excluded"]]
    lines += ["", f"Excluded by label validation: {len(excluded)}."]
    lines += [f"- {p} {e['id']} ({e['category']}): {e['reason']}" for p, e in excluded]
    return "\n".join(lines) + "\n"


def _selected(manifest: Mapping[str, Project], names: Sequence[str]) -> list[Project]:
    unknown = [n for n in names if n not in manifest]
    if unknown:
        raise ExperimentError(
            f"unknown project {', '.join(unknown)} (the corpus has {', '.join(manifest)})",
            EXIT_USAGE,
        )
    chosen = [manifest[n] for n in names] if names else list(manifest.values())
    missing = [p.name for p in chosen if not p.facts.exists()]
    if names and missing:
        raise ExperimentError(
            f"no fact file for {', '.join(missing)} (expected {chosen[0].facts.parent})",
            EXIT_USAGE,
        )
    return [p for p in chosen if p.facts.exists()]


def run_benchmark(
    names: Sequence[str],
    out: Path,
    per_category: int | None = None,
    log: Callable[[str], None] = lambda _m: None,
    cache: Path | None = None,
) -> dict[str, Any]:
    """Build the corpus, run each project, aggregate, write ``out``; returns the results."""
    started = time.monotonic()
    cache = cache or cache_dir()
    manifest = load_manifest()  # CorpusError (an ExperimentError) for a bad corpus
    projects = _selected(manifest, names)
    skipped = [n for n in manifest if n not in {p.name for p in projects}]
    if skipped and not names:
        log(f"no fact file yet for {', '.join(skipped)}: skipped")
    if not projects:
        raise ExperimentError("no project of the corpus has a fact file", EXIT_USAGE)
    repos = {p.name: build(p, cache, log) for p in projects}
    out.mkdir(parents=True, exist_ok=True)
    per_project: dict[str, dict[str, Any]] = {}
    per_language: dict[str, dict[str, Any]] = {}
    for project in projects:
        log(f"{project.name}: running the contamination experiment")
        t0 = time.monotonic()
        result = run(
            Config(
                out=out / project.name,
                repo=repos[project.name],
                facts=project.facts,
                per_category=per_category,
                scratch=cache / "work",
            ),
            lambda m, name=project.name: log(f"{name}: {m}"),
        )
        result["versions"] = [v.version for v in project.versions]
        result["corpus"] = describe(project)
        per_project[project.name] = result
        rows = read_per_fact(out / project.name / "per_fact.jsonl")
        per_language[project.name] = language_metrics(load_facts(project.facts), rows)
        log(f"{project.name}: {time.monotonic() - t0:.1f}s")
    results: dict[str, Any] = {
        "experiment": "truth_benchmark",
        "cache": str(cache),
        "per_category": per_category,
        "projects": {
            name: {
                "versions": r["versions"],
                "corpus": r["corpus"],
                "head": r["repository"]["head"],
                "facts": r["facts"],
                "excluded": r["excluded"],
                "seconds": r["seconds"],
            }
            for name, r in per_project.items()
        },
        "facts": {
            key: sum(r["facts"][key] for r in per_project.values())
            for key in ("given", "scored", "true", "false")
        }
        | {"excluded": sum(len(r["excluded"]) for r in per_project.values())},
        "arms": aggregate(per_project),
        "per_project_arms": {name: r["arms"] for name, r in per_project.items()},
        "by_language": aggregate_languages(per_language),
        "per_project_by_language": per_language,
    }
    results["seconds"] = round(time.monotonic() - started, 1)
    (out / "results.json").write_text(json.dumps(results, indent=2) + "\n", encoding="utf-8")
    (out / "results.md").write_text(markdown(results), encoding="utf-8")
    return results


def run_cli(args: argparse.Namespace, as_json: bool = False) -> int:
    per = getattr(args, "per_category", None)
    if per is not None and per < 1:
        print("anchormem: --per-category must be at least 1", file=sys.stderr)
        return 2
    if getattr(args, "repo", None) or getattr(args, "facts", None):
        print("anchormem: --corpus real brings its own repositories and facts", file=sys.stderr)
        return 2
    out = Path(getattr(args, "out", None) or default_results_dir("truth-benchmark")).expanduser()

    def log(message: str) -> None:
        print(message, file=sys.stderr, flush=True)

    try:
        results = run_benchmark(list(getattr(args, "project", None) or []), out, per, log)
    except AnchormemError as exc:  # the experiment's boundary: one line, the exit code
        print(f"anchormem: {exc}", file=sys.stderr)
        return exit_code(exc)
    if as_json:
        print(json.dumps(results, indent=2))
    else:
        print(markdown(results), end="")
        print(f"\nwritten to {out}/ (results.json, results.md, one folder per project)")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m experiments.truth_benchmark",
        description="the contamination experiment over real repositories (PyPI sdists)",
    )
    parser.add_argument(
        "--project", action="append", metavar="NAME", help="a corpus project (repeatable)"
    )
    parser.add_argument(
        "--out", help="the results folder (default: ~/.cache/anchormem/results/truth-benchmark)"
    )
    parser.add_argument(
        "--per-category", type=int, metavar="N", help="at most N facts per category"
    )
    parser.add_argument("--json", action="store_true", help="print the JSON instead of the table")
    args = parser.parse_args(argv)
    return run_cli(args, args.json)


if __name__ == "__main__":
    sys.exit(main())
