"""False alarms of secret redaction: how many of the project's own texts ``redact`` changes.

None of these texts holds a real secret, so every text changed is a false alarm, unless it
shows a redaction on purpose (a documented example); ``--show`` prints each one to judge.
The texts, in four sets:

- ``notes``: the prose corpus of ``benchmarks.prose_corpus`` (facts, the truth benchmark,
  both sides of every contradiction pair, the seed notes on the experiments' fixture, the
  anchoring tests' texts), each text and each subject;
- ``docs``: every paragraph of the repository's Markdown files;
- ``commits``: every commit message of the checkout;
- ``code``: every non-blank line of the non-test Python sources and of the fixture's files
  (code an agent may paste into a note: the harshest set).

Beside ``redact``, each ``detect-secrets`` plugin is counted on the same texts, on its
patterns alone (``analyze_string``, never ``analyze_line``, which may call a service to
verify a match): what enabling it would cost. ``--module FILE`` measures another version of
``store/redaction.py`` (``git show REV:store/redaction.py > FILE``), to compare.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import json
import pkgutil
import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

__all__ = ["main", "texts"]

_ROOT = Path(__file__).resolve().parent.parent
_SOURCES = ("store", "anchors", "server", "experiments", "benchmarks")
_SKIPPED_DIRS = {".venv", "node_modules", ".git", ".anchormem"}
# The redaction's own sources show what it replaces, on purpose.
_SKIPPED_FILES = {"store/redaction.py", "benchmarks/redaction.py"}


def _notes(fixture: Path) -> Iterator[tuple[str, str]]:
    from benchmarks.prose_corpus import corpus

    for note in corpus(fixture):
        yield f"{note.origin}", note.text
        if note.subject:
            yield f"{note.origin} (subject)", note.subject


def _docs(root: Path) -> Iterator[tuple[str, str]]:
    for path in sorted(root.rglob("*.md")):
        if _SKIPPED_DIRS.isdisjoint(path.relative_to(root).parts):
            paragraphs = re.split(r"\n\s*\n", path.read_text(encoding="utf-8", errors="replace"))
            for i, paragraph in enumerate(paragraphs):
                if paragraph.strip():
                    yield f"{path.relative_to(root)} ¶{i}", paragraph.strip()


def _commits(root: Path) -> Iterator[tuple[str, str]]:
    done = subprocess.run(["git", "log", "--format=%H%x00%B%x01"], cwd=root,
                          capture_output=True, text=True, check=False)  # fmt: skip
    for entry in done.stdout.split("\x01"):
        commit, sep, body = entry.strip().partition("\x00")
        if sep and body.strip():
            yield f"commit {commit[:10]}", body.strip()


def _code(root: Path) -> Iterator[tuple[str, str]]:
    files = [p for d in _SOURCES for p in sorted((root / d).rglob("*.py"))]
    files += sorted(
        p for p in (root / "experiments" / "data" / "fixture").rglob("*") if p.is_file()
    )
    for path in files:
        if str(path.relative_to(root)) in _SKIPPED_FILES:
            continue
        lines = path.read_text(encoding="utf-8", errors="replace").splitlines()
        for number, line in enumerate(lines, 1):
            if line.strip():
                yield f"{path.relative_to(root)}:{number}", line.strip()


def texts(root: Path, fixture: Path) -> dict[str, dict[str, str]]:
    """The four sets of texts, each ``{where: text}``."""
    return {
        "notes": dict(_notes(fixture)),
        "docs": dict(_docs(root)),
        "commits": dict(_commits(root)),
        "code": dict(_code(root)),
    }


def _plugins() -> dict[str, Callable[[str], list[str]]]:
    """Each detect-secrets plugin as a function: the values its patterns find in a text."""
    import detect_secrets.plugins as package
    from detect_secrets.plugins.base import BasePlugin
    from detect_secrets.plugins.high_entropy_strings import HighEntropyStringsPlugin

    found: dict[str, Callable[[str], list[str]]] = {}
    for info in pkgutil.iter_modules(package.__path__):
        module = importlib.import_module(f"detect_secrets.plugins.{info.name}")
        for name, cls in vars(module).items():
            if _concrete(cls, BasePlugin) and cls.__module__ == module.__name__:
                plugin = cls()
                entropy = isinstance(plugin, HighEntropyStringsPlugin)
                found[f"{info.name}.{name}"] = (_entropy_finder if entropy else _finder)(plugin)
    return found


def _concrete(cls: object, base: type) -> bool:
    abstract = getattr(cls, "__abstractmethods__", ())  # not every type has the attribute
    return isinstance(cls, type) and issubclass(cls, base) and not abstract


def _finder(plugin: Any) -> Callable[[str], list[str]]:
    return lambda text: [s for line in text.splitlines() for s in plugin.analyze_string(line)]


def _entropy_finder(plugin: Any) -> Callable[[str], list[str]]:
    """As a scan of a line would (``analyze_line``): quoted or not, above its limit."""

    def find(text: str) -> list[str]:
        with plugin.non_quoted_string_regex(is_exact_match=False):
            values = [s for line in text.splitlines() for s in plugin.analyze_string(line)]
        return [v for v in values if plugin.calculate_shannon_entropy(v) > plugin.entropy_limit]

    return find


def _redactor(module_file: str | None) -> Callable[[str], Any]:
    if module_file is None:
        from store.redaction import redact

        return redact
    spec = importlib.util.spec_from_file_location("redaction_under_test", module_file)
    if spec is None or spec.loader is None:
        raise SystemExit(f"benchmarks.redaction: cannot load {module_file}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # its dataclasses look their module up there
    spec.loader.exec_module(module)
    return module.redact


def measure(sets: dict[str, dict[str, str]], module_file: str | None) -> dict[str, Any]:
    """Per set: the texts ``redact`` changes (where, kinds, the redacted text), and how
    many texts each detect-secrets plugin matches."""
    redact = _redactor(module_file)
    out: dict[str, Any] = {"sizes": {name: len(items) for name, items in sets.items()}}
    out["redact"] = {}
    for name, items in sets.items():
        changed = []
        for where, text in items.items():
            result = redact(text)
            if result.kinds:
                changed.append({"where": where, "kinds": list(result.kinds), "text": result.text})
        out["redact"][name] = changed
    out["plugins"] = {
        plugin: {name: sum(1 for t in items.values() if find(t)) for name, items in sets.items()}
        for plugin, find in sorted(_plugins().items())
    }
    return out


def _print(result: dict[str, Any], show: bool) -> None:
    names = list(result["sizes"])
    print("texts: " + ", ".join(f"{n} {result['sizes'][n]}" for n in names))
    print(f"\n{'detect-secrets plugin':<52}" + "".join(f"{n:>9}" for n in names))
    for plugin, counts in result["plugins"].items():
        print(f"{plugin:<52}" + "".join(f"{counts[n]:>9}" for n in names))
    print(f"\n{'redact(): texts changed':<52}"
          + "".join(f"{len(result['redact'][n]):>9}" for n in names))  # fmt: skip
    if show:
        for name in names:
            for hit in result["redact"][name]:
                print(f"  [{name}] {hit['where']} {hit['kinds']}: {hit['text'][:160]!r}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m benchmarks redaction",
                                     description=__doc__.split("\n\n")[0])  # fmt: skip
    parser.add_argument("--module", metavar="FILE",
                        help="measure this copy of store/redaction.py instead")  # fmt: skip
    parser.add_argument("--show", action="store_true", help="print every text changed")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))

    from experiments.fixture import build_fixture

    with tempfile.TemporaryDirectory(prefix="anchormem-redaction-") as tmp:
        fixture = Path(tmp) / "fixture"
        build_fixture(fixture)
        result = measure(texts(_ROOT, fixture), args.module)
    if args.json:
        print(json.dumps(result, indent=1))
    else:
        _print(result, args.show)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
