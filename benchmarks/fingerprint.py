"""Fingerprint timings: ``python -m benchmarks.fingerprint [--repo PATH] [--files 3000] [--sweep]``.

Prints plain ``name: value`` lines. The generated repository is a real git repository in a
temporary directory; "update" is the fingerprint of a new commit touching 10 files, with
every other blob's facts already known. ``--sweep`` times serial parsing against the
process pool at several file counts, which is how ``POOL_THRESHOLD`` was chosen.
"""

from __future__ import annotations

import argparse
import os
import random
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

from anchors.fingerprint import POOL_THRESHOLD, CodeSource, InMemoryFactsCache
from experiments.scratch import ScratchRepo, git

__all__ = ["IDENTITY", "generate_repository", "main"]

IDENTITY = ("bench", "bench@example.com")
_STDLIB = ("os", "json", "re", "typing", "dataclasses", "pathlib", "logging", "itertools")


def _module_source(rng: random.Random, package: int, index: int, revision: int = 0) -> str:
    """A plausible ~150-line module: imports, a few classes with methods, functions."""
    lines = [f'"""Module {index} of package {package}, revision {revision}."""', ""]
    lines += [f"import {m}" for m in rng.sample(_STDLIB, 3)]
    lines.append(f"from . import mod_{(index + 1) % 100}")
    lines.append("from ..pkg_0 import mod_0 as base")
    lines.append("")
    for c in range(3):
        lines.append(f"class Thing{c}(base.Base):")
        lines.append(f'    """Thing {c}."""')
        for m in range(4):
            lines.append(f"    def method_{m}(self, value: int) -> int:")
            lines.append(f"        total = value * {rng.randint(1, 99)} + {revision}")
            lines.append("        for item in range(value):")
            lines.append("            total += item % 7")
            lines.append("        return total")
            lines.append("")
    for f in range(6):
        lines.append(f"def helper_{f}(data: dict[str, int]) -> list[int]:")
        if f == 0 and index % 10 == 0:
            lines.append(f'    limit = int(os.environ.get("LIMIT_{package}", "10"))')
        else:
            lines.append(f"    limit = {rng.randint(1, 50)}")
        lines.append("    result = [v for v in data.values() if v < limit]")
        lines.append("    result.sort()")
        lines.append("    return result")
        lines.append("")
    return "\n".join(lines) + "\n"


def _ts_source(rng: random.Random, package: int, index: int) -> str:
    """A plausible ~120-line TypeScript module: imports, an interface, a class with
    methods, exported functions, an environment read."""
    lines = [
        'import axios from "axios";',
        'import { ref, computed } from "vue";',
        f'import {{ helper{(index + 1) % 100} }} from "./mod{(index + 1) % 100}";',
        f'import type {{ Shape{package} }} from "../types";',
        "",
        f"export const LIMIT_{index} = {rng.randint(1, 500)};",
        f'const base = import.meta.env.VITE_API_{package} ?? "/api";',
        "",
        f"export interface Item{index} {{",
        "  id: string;",
        "  count: number;",
        "}",
        "",
    ]
    for c in range(2):
        lines.append(f"export class Store{c} {{")
        lines.append("  private items = new Map<string, number>();")
        for m in range(4):
            lines.append(f"  method{m}(value: number): number {{")
            lines.append(f"    let total = value * {rng.randint(1, 99)};")
            lines.append("    for (const [key, item] of this.items) {")
            lines.append("      total += item % 7 + key.length;")
            lines.append("    }")
            lines.append("    return total;")
            lines.append("  }")
        lines.append("}")
        lines.append("")
    for f in range(5):
        lines.append(f"export async function helper{index}_{f}(id: string): Promise<number[]> {{")
        lines.append("  const response = await axios.get<number[]>(`${base}/items/${id}`);")
        lines.append("  const seen = ref(0);")
        lines.append("  const total = computed(() => seen.value + response.data.length);")
        lines.append("  return response.data.filter((v) => v < total.value);")
        lines.append("}")
        lines.append("")
    return "\n".join(lines) + "\n"


def generate_repository(
    root: Path, files: int, seed: int = 7, typescript: int = 0
) -> list[Path]:
    """Write and commit ``files`` modules (100 per package) under ``root``: the first
    ``typescript`` of them TypeScript modules of a frontend under ``web/`` (with its
    ``package.json``), the rest Python modules under ``src/``."""
    rng = random.Random(seed)
    repo = ScratchRepo(root, IDENTITY)
    written = []
    for n in range(files):
        package, index = divmod(n, 100)
        if n < typescript:
            path = root / "web" / "src" / f"pkg_{package}" / f"mod{index}.ts"
            source = _ts_source(rng, package, index)
        else:
            path = root / "src" / f"pkg_{package}" / f"mod_{index}.py"
            source = _module_source(rng, package, index)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source)
        written.append(path)
    if typescript:
        (root / "web" / "package.json").write_text(
            '{"name": "web", "dependencies": {"axios": "^1.6.0", "vue": "^3.4.0"},\n'
            ' "devDependencies": {"typescript": "~5.3.0"}}\n'
        )
    (root / "pyproject.toml").write_text(
        '[project]\nname = "generated"\ndependencies = ["duckdb>=1.1", "httpx"]\n'
    )
    (root / ".env.example").write_text("LIMIT_0=10\n")
    repo.git("add", "-A")
    repo.git("commit", "-q", "-m", "generated")
    return written


def _cold(root: Path, pool_threshold: int | None = None) -> tuple[float, int]:
    threshold = POOL_THRESHOLD if pool_threshold is None else pool_threshold
    with CodeSource(root, InMemoryFactsCache(), pool_threshold=threshold) as source:
        start = time.perf_counter()
        source.fingerprint(overlay=False)
        return time.perf_counter() - start, source.parsed_count


def _bench_generated(files: int, out: list[str]) -> None:
    with tempfile.TemporaryDirectory(prefix="anchormem-bench-") as tmp:
        root = Path(tmp) / "repo"
        written = generate_repository(root, files)
        with CodeSource(root, InMemoryFactsCache()) as source:
            start = time.perf_counter()
            source.fingerprint()
            elapsed = time.perf_counter() - start
            out.append(f"cold_fingerprint_generated_{files}_files_s: {elapsed:.2f}")
            start = time.perf_counter()
            for _ in range(100):
                source.fingerprint()
            out.append(f"warm_fingerprint_same_commit_ms: {(time.perf_counter() - start) * 10:.2f}")
            rng = random.Random(11)
            for path in rng.sample(written, 10):
                package, index = int(path.parent.name[4:]), int(path.stem[4:])
                path.write_text(_module_source(rng, package, index, revision=1))
            git(root, "commit", "-q", "-a", "-m", "touch 10 files", identity=IDENTITY)
            before = source.parsed_count
            start = time.perf_counter()
            source.fingerprint()
            elapsed = time.perf_counter() - start
            out.append(f"update_after_10_file_commit_ms: {elapsed * 1000:.1f}")
            out.append(f"update_parsed_files: {source.parsed_count - before}")


def _sweep(out: list[str], sizes: Sequence[int] = (200, 400, 600, 800, 1600, 3000)) -> None:
    for size in sizes:
        with tempfile.TemporaryDirectory(prefix="anchormem-sweep-") as tmp:
            root = Path(tmp) / "repo"
            generate_repository(root, size)
            serial, _ = _cold(root, pool_threshold=10**9)
            pooled, _ = _cold(root, pool_threshold=0)
            out.append(f"sweep_{size}_files_serial_s: {serial:.2f}")
            out.append(f"sweep_{size}_files_pool_s: {pooled:.2f}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the benchmarks named by ``argv`` and print one ``name: value`` line each."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.fingerprint")
    parser.add_argument("--repo", type=Path, help="also time a cold fingerprint of this repo")
    parser.add_argument("--files", type=int, default=3000, help="size of the generated repo")
    parser.add_argument("--sweep", action="store_true", help="time serial parsing vs the pool")
    args = parser.parse_args(argv)
    out: list[str] = [f"cpus: {os.cpu_count()}"]
    if args.repo is not None:
        seconds, parsed = _cold(args.repo)
        out.append(f"cold_fingerprint_repo_s: {seconds:.2f}")
        out.append(f"cold_fingerprint_repo_python_files: {parsed}")
    if args.files > 0:
        _bench_generated(args.files, out)
    if args.sweep:
        _sweep(out)
    for line in out:
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
