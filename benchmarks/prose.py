"""What reading anchors from a prose note costs in process, and whether two versions of the
code read the same: ``infer_anchors`` and ``resolve_subject`` over every note of
``benchmarks.prose_corpus`` (about 1,200), on the experiments' fixture and on any
``--repo``.

    python -m benchmarks prose [--repo PATH]... [--against DIR] [--rounds 3] [--passes 3]
                               [--salad N [--seed S]] [--limit N] [--clock cpu|wall]

Each round runs one worker process per version of the code: this checkout, and with
``--against DIR`` another checkout (main's, say) whose ``anchors`` package the worker
imports instead. Rounds alternate the versions, so that both see the same load on a shared
machine. A worker builds each fingerprint, reads every note once untimed (the vocabulary
and the indexes kept per fingerprint are built then; that first pass is printed as
``first pass``), then times ``--passes`` more. A note's cost is its fastest time over every
pass of every round, measured by default as the CPU time of the worker's thread
(``--clock wall``: elapsed time); both leave out most of what the machine's other work
adds, which on two shared cores moves single samples by ±30%. Printed are the p50 / p99 /
mean of those costs over the notes, in microseconds. With ``--against``, the workers'
readings (``reading``: every field of the inference and the subject's scope) are compared
note by note, and the differences printed.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from benchmarks.prose_corpus import ProseNote

if TYPE_CHECKING:
    from anchors.facts import Fingerprint

__all__ = ["fingerprint_of", "main", "reading"]

_HERE = Path(__file__).resolve().parent.parent  # this checkout


def reading(note: ProseNote, fp: Fingerprint) -> dict[str, Any]:
    """Everything anchormem reads from ``note`` against ``fp``, as JSON values: the scope
    ``resolve_subject`` gives, and every field of ``infer_anchors``' inference."""
    from anchors.extract import infer_anchors
    from anchors.subject import resolve_subject

    inference = infer_anchors(note.text, fp, note.subject)
    return {
        "subject_scope": resolve_subject(note.subject, note.text, fp),
        "scope": inference.scope,
        # render() is canonical: parse_anchor(a.render()) == a, every field included
        "anchors": [a.render() for a in inference.anchors],
        "origins": list(inference.origins),
        "dropped": [[d.candidate, str(d.reason), d.detail] for d in inference.dropped],
        "uncovered": list(inference.uncovered),
    }


def fingerprint_of(root: Path) -> Fingerprint:
    """The fingerprint of the git repository at ``root`` (HEAD and its work tree)."""
    from anchors.fingerprint import CodeSource, InMemoryFactsCache

    with CodeSource(root, InMemoryFactsCache()) as source:
        return source.fingerprint()


# -- the worker: one version of the code, every fingerprint ---------------------------------
def _percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    return {
        "p50": ordered[len(ordered) // 2],
        "p99": ordered[max(0, int(len(ordered) * 0.99) - 1)],
        "mean": statistics.fmean(ordered),
    }


_CLOCKS = {"cpu": time.thread_time_ns, "wall": time.perf_counter_ns}


def _work(notes: list[ProseNote], repos: dict[str, Path], passes: int, readings: bool,
          clock_name: str = "cpu") -> dict[str, Any]:  # fmt: skip
    """Time every note on every fingerprint (µs per note); the readings too, if asked."""
    import anchors
    from anchors.extract import infer_anchors
    from anchors.subject import resolve_subject

    out: dict[str, Any] = {"anchors": str(Path(anchors.__file__).parent), "fingerprints": {}}
    for name, root in repos.items():
        fp = fingerprint_of(root)
        started = time.perf_counter()
        for note in notes:  # untimed per note: the first pass builds what is kept
            infer_anchors(note.text, fp, note.subject)
        first = (time.perf_counter() - started) * 1000
        infer = [float("inf")] * len(notes)  # each note's fastest, in µs
        subject = [float("inf")] * len(notes)
        clock = _CLOCKS[clock_name]
        for _ in range(passes):
            for i, note in enumerate(notes):
                t0 = clock()
                infer_anchors(note.text, fp, note.subject)
                t1 = clock()
                resolve_subject(note.subject, note.text, fp)
                t2 = clock()
                infer[i] = min(infer[i], (t1 - t0) / 1000)
                subject[i] = min(subject[i], (t2 - t1) / 1000)
        out["fingerprints"][name] = {
            "files": len(fp.blobs),
            "first_pass_ms": first,
            "infer": infer,
            "subject": subject,
            "readings": [reading(n, fp) for n in notes] if readings else None,
        }
    return out


def _worker(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--notes", required=True)
    parser.add_argument("--repo", action="append", default=[], metavar="NAME=PATH")
    parser.add_argument("--code", help="the checkout whose anchors package is measured")
    parser.add_argument("--passes", type=int, default=3)
    parser.add_argument("--readings", action="store_true")
    parser.add_argument("--clock", choices=sorted(_CLOCKS), default="cpu")
    args = parser.parse_args(argv)
    if args.code:  # before anything imports anchors: this version's package comes first
        sys.path.insert(0, args.code)
    raw = json.loads(Path(args.notes).read_text(encoding="utf-8"))
    notes = [ProseNote(n["origin"], n["text"], n.get("subject")) for n in raw]
    repos = {spec.split("=", 1)[0]: Path(spec.split("=", 1)[1]) for spec in args.repo}
    json.dump(_work(notes, repos, args.passes, args.readings, args.clock), sys.stdout)
    return 0


# -- the parent: rounds of workers, the figures, the comparison -----------------------------
def _run_worker(code: Path, notes: Path, repos: dict[str, Path], passes: int,
                readings: bool, clock: str) -> dict[str, Any]:  # fmt: skip
    command = [sys.executable, "-m", "benchmarks.prose", "--worker", "--notes", str(notes),
               "--code", str(code), "--passes", str(passes), "--clock", clock]  # fmt: skip
    command += [arg for name, root in repos.items() for arg in ("--repo", f"{name}={root}")]
    if readings:
        command.append("--readings")
    env = dict(os.environ, PYTHONPATH=str(_HERE))
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=_HERE,
                          check=False)  # fmt: skip
    if done.returncode != 0:
        raise SystemExit(f"benchmarks.prose: the worker for {code} failed:\n{done.stderr}")
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _differences(notes: list[ProseNote], a: dict[str, Any], b: dict[str, Any]) -> list[str]:
    lines = []
    for name, found in a["fingerprints"].items():
        other = b["fingerprints"][name]["readings"]
        for note, mine, theirs in zip(notes, found["readings"], other, strict=True):
            if mine != theirs:
                lines.append(f"  {name} {note.origin} {note.text!r}:\n    {theirs}\n    {mine}")
    return lines


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    if args_list[:1] == ["--worker"]:
        return _worker(args_list[1:])
    parser = argparse.ArgumentParser(prog="python -m benchmarks prose",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--repo", action="append", default=[], metavar="PATH",
                        help="also time on this git repository (repeatable)")  # fmt: skip
    parser.add_argument("--against", metavar="DIR",
                        help="another checkout to time and compare with (e.g. main's)")  # fmt: skip
    parser.add_argument("--rounds", type=int, default=3, help="workers per version")
    parser.add_argument("--salad", type=int, default=0, metavar="N",
                        help="also N notes of random words (prose_corpus.salad)")  # fmt: skip
    parser.add_argument("--seed", type=int, default=0, help="the random words' seed")
    parser.add_argument("--limit", type=int, metavar="N", help="only the corpus' first N notes")
    parser.add_argument("--passes", type=int, default=3, help="timed passes per worker")
    parser.add_argument("--clock", choices=sorted(_CLOCKS), default="cpu",
                        help="cpu: the thread's CPU time (default), wall: elapsed")  # fmt: skip
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(args_list)
    if args.rounds < 1 or args.passes < 1:
        raise SystemExit("benchmarks.prose: --rounds and --passes must be at least 1")

    from benchmarks.prose_corpus import corpus, salad
    from experiments.fixture import build_fixture

    with tempfile.TemporaryDirectory(prefix="anchormem-prose-") as tmp:
        fixture = Path(tmp) / "fixture"
        build_fixture(fixture)
        notes = corpus(fixture)[: args.limit] + salad(args.salad, args.seed)
        notes_file = Path(tmp) / "notes.json"
        notes_file.write_text(json.dumps([n.__dict__ for n in notes]), encoding="utf-8")
        repos = {"fixture": fixture}
        repos.update({Path(p).resolve().name: Path(p).resolve() for p in args.repo})
        versions = {"this": _HERE}
        if args.against:
            versions = {"against": Path(args.against).resolve(), **versions}
        runs: dict[str, list[dict[str, Any]]] = {v: [] for v in versions}
        for round_ in range(args.rounds):
            for label, code in versions.items():
                runs[label].append(_run_worker(code, notes_file, repos, args.passes,
                                               round_ == 0, args.clock))  # fmt: skip
    report = _report(notes, versions, runs)
    report["clock"] = args.clock
    if args.json:
        print(json.dumps(report, indent=2))
    else:
        _print(report)
    return 1 if report.get("differences") else 0


def _report(notes: list[ProseNote], versions: dict[str, Path],
            runs: dict[str, list[dict[str, Any]]]) -> dict[str, Any]:  # fmt: skip
    report: dict[str, Any] = {"notes": len(notes), "versions": {}}
    for label, results in runs.items():
        per_fp: dict[str, Any] = {}
        for name in results[0]["fingerprints"]:
            parts = [r["fingerprints"][name] for r in results]
            per_fp[name] = {
                "files": parts[0]["files"],
                "first_pass_ms": statistics.median(p["first_pass_ms"] for p in parts),
                "infer_anchors": _percentiles(_fastest(p["infer"] for p in parts)),
                "resolve_subject": _percentiles(_fastest(p["subject"] for p in parts)),
            }
        report["versions"][label] = {"code": results[0]["anchors"], "fingerprints": per_fp}
    if "against" in runs:
        diffs = _differences(notes, runs["this"][0], runs["against"][0])
        report["compared"] = len(notes) * len(runs["this"][0]["fingerprints"])
        report["differences"] = diffs
    return report


def _fastest(runs: Iterable[list[float]]) -> list[float]:
    """Each note's fastest time over the workers' runs (one list per run, by note)."""
    return [min(times) for times in zip(*runs, strict=True)]


def _print(report: dict[str, Any]) -> None:
    clock = "CPU time of the thread" if report["clock"] == "cpu" else "elapsed time"
    print(
        f"notes: {report['notes']} (p50 / p99 / mean over the notes of each note's fastest "
        f"{clock}, µs)"
    )
    for label, version in report["versions"].items():
        print(f"{label}: {version['code']}")
        for name, fig in version["fingerprints"].items():
            for call in ("infer_anchors", "resolve_subject"):
                p = fig[call]
                print(f"  {name} ({fig['files']} files) {call:<16} "
                      f"{p['p50']:7.0f} / {p['p99']:7.0f} / {p['mean']:7.0f}")  # fmt: skip
            print(f"  {name} first pass over the notes: {fig['first_pass_ms']:.0f} ms")
    if "compared" in report:
        same = report["compared"] - len(report["differences"])
        print(f"identical readings: {same}/{report['compared']}")
        for line in report["differences"][:20]:
            print(line)


if __name__ == "__main__":
    raise SystemExit(main())
