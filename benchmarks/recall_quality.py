"""How well recall finds what a user asks for: paraphrased questions over the experiments'
notes, each with the memory it should find (``experiments/data/recall_queries.json``).

    python -m benchmarks recall-quality            # through the memory service
    python -m benchmarks recall-quality --offline  # the recall index alone (fast)

Definitions (one line per corpus, then all):

* recall@5: the share of queries whose target memory (any of its targets) is among the
  first 5 recalled;
* MRR: the mean over queries of 1/rank of the first target recalled, 0 when none is in
  the first 10.

Each corpus is its own store, as each repository has its own: ``fixture`` holds the
shopfront facts (``experiments/data/facts.jsonl``) remembered in the shopfront repository
(``experiments/fixture.py``) with verify-on-read on, so that statuses (and the refuted
notes left out) are the real ones; ``click``, ``requests``, ``rich`` and ``django`` hold
the truth benchmark's notes about those projects (``experiments/data/real/``), remembered
with verification off (their repositories are downloads, ``experiments/corpus.py``; the
ranking does not need them). ``--offline`` ranks with the index and the prior alone
(every memory ACTIVE at confidence 5), without a store: the tokeniser, BM25 and synonyms.
Lexical only; there is no semantic search. Nothing is written outside a temporary
directory.
"""

from __future__ import annotations

import argparse
import json
import tempfile
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["Quality", "load_notes", "load_queries", "main", "measure", "offline_ranker"]

CUT = 10  # MRR counts a target only within the first CUT
Ranker = Callable[[str], list[str]]  # query -> note ids, best first


@dataclass(frozen=True)
class Quality:
    corpus: str
    queries: int
    recall_at_5: float
    mrr: float
    misses: tuple[str, ...]  # queries whose target is not in the top 5

    def line(self) -> str:
        return (
            f"{self.corpus:<9} {self.queries:>4} queries  recall@5 {self.recall_at_5:.3f}  "
            f"MRR {self.mrr:.3f}"
        )


def _data() -> Path:
    return Path(str(resources.files("experiments") / "data"))


def load_queries() -> list[dict[str, Any]]:
    doc = json.loads((_data() / "recall_queries.json").read_text(encoding="utf-8"))
    return list(doc["queries"])


def load_notes(corpus: str) -> list[dict[str, Any]]:
    path = _data() / ("facts.jsonl" if corpus == "fixture" else f"real/{corpus}.jsonl")
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


def score(corpus: str, queries: Sequence[Mapping[str, Any]], rank: Ranker) -> Quality:
    found = 0
    reciprocal = 0.0
    misses = []
    for q in queries:
        ranked = rank(q["query"])[:CUT]
        positions = [ranked.index(t) + 1 for t in q["targets"] if t in ranked]
        best = min(positions, default=0)
        if best and best <= 5:
            found += 1
        else:
            misses.append(q["query"])
        reciprocal += 1.0 / best if best else 0.0
    n = len(queries) or 1
    return Quality(corpus, len(queries), found / n, reciprocal / n, tuple(misses))


def offline_ranker(notes: Sequence[Mapping[str, Any]]) -> Ranker:
    """The recall index over ``notes`` (text, subject, given anchors), every note ACTIVE
    at confidence 5: the ranking without a store."""
    from anchors.spec import parse_anchor
    from store.model import Status
    from store.search import TermIndex, memory_terms, prior, query_terms, query_tokens, search_text

    index = TermIndex()
    for note in notes:
        anchors = [parse_anchor(a) for a in note.get("anchors", [])]
        index.add(
            note["id"], memory_terms(search_text(note["claim"], note.get("subject"), anchors))
        )
    factor = prior(Status.ACTIVE, 5.0)

    def rank(query: str) -> list[str]:
        hits = index.top(query_terms(query_tokens(query)), CUT)
        return [i for i, s in sorted(hits, key=lambda h: (-h[1] * factor, h[0]))]

    return rank


def _service_ranker(work: Path, corpus: str, notes: Sequence[Mapping[str, Any]]) -> Ranker:
    """A store of ``notes`` remembered through the memory service; recall through it."""
    from experiments.fixture import build_fixture
    from experiments.scratch import ScratchRepo
    from server.config import Settings
    from server.runtime import open_runtime

    repo = work / corpus
    env: dict[str, str] = {"ANCHORMEM_VERIFY_BUDGET_MS": "10000"}
    if corpus == "fixture":
        build_fixture(repo)
    else:
        ScratchRepo(repo).commit({"README.md": f"{corpus}\n"}, "initial")
        env["ANCHORMEM_VERIFY"] = "0"
    settings = Settings.resolve(repo=str(repo), db=str(work / f"{corpus}.duckdb"), env=env)
    runtime = open_runtime(settings)
    ids: dict[str, str] = {}
    for note in notes:
        made = runtime.service.remember(
            note["claim"], subject=note.get("subject"), anchors=note.get("anchors")
        )
        ids[made.reading.id] = note["id"]
    runtime.service.verify()

    def rank(query: str) -> list[str]:
        found = runtime.service.recall(query, CUT)
        return [ids.get(r.id, r.id) for r in found.readings]

    rank.close = runtime.close  # type: ignore[attr-defined]
    return rank


def measure(offline: bool = False, corpora: Sequence[str] | None = None) -> list[Quality]:
    """recall@5 and MRR per corpus, and over all queries (corpus ``all``)."""
    queries = load_queries()
    names = list(dict.fromkeys(q["corpus"] for q in queries))
    names = [n for n in names if corpora is None or n in corpora]
    results = []
    with tempfile.TemporaryDirectory(prefix="anchormem-recall-quality-") as tmp:
        for name in names:
            notes = load_notes(name)
            rank = offline_ranker(notes) if offline else _service_ranker(Path(tmp), name, notes)
            try:
                results.append(score(name, [q for q in queries if q["corpus"] == name], rank))
            finally:
                getattr(rank, "close", lambda: None)()
    total = sum(r.queries for r in results) or 1
    results.append(
        Quality(
            "all",
            sum(r.queries for r in results),
            sum(r.recall_at_5 * r.queries for r in results) / total,
            sum(r.mrr * r.queries for r in results) / total,
            tuple(m for r in results for m in r.misses),
        )
    )
    return results


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks recall-quality", description=__doc__
    )
    parser.add_argument("--offline", action="store_true", help="the recall index alone")
    parser.add_argument("--misses", action="store_true", help="print the queries missed")
    args = parser.parse_args(argv)
    results = measure(args.offline)
    for quality in results:
        print(quality.line())
    if args.misses:
        for miss in results[-1].misses:
            print(f"  missed: {miss}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
