"""The prose notes that reading anchors is measured and checked on, and what it reads.

``corpus(fixture_root)`` gathers the notes anchormem's own data already has: the facts of
the contamination experiment (``experiments/data/facts.jsonl``), the truth benchmark's facts
(``experiments/data/real/*.jsonl``), both sides of every contradiction pair
(``experiments/data/conflicts/pairs.jsonl``), the benchmark notes of ``benchmarks.seed`` on
the experiments' fixture, and, when the checkout has them, the texts the tests of
``tests/anchors/`` pass to ``infer_anchors``, ``resolve_subject`` and ``remember`` (read
with ``ast``, never imported). Each note keeps the subject it was written with.
``benchmarks.prose`` times reading them and compares what two versions of the code read.
"""

from __future__ import annotations

import ast
import json
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

__all__ = ["ProseNote", "corpus", "salad", "test_texts"]

SEED_NOTES = 50  # seed.py's shapes repeat every 10 notes: 5 of each, on other paths and names
_TEST_FILES = ("test_extract.py", "test_claims_on_real_repos.py", "test_verify_on_read.py")


@dataclass(frozen=True)
class ProseNote:
    """One note: where it comes from (``origin``), its text and the subject given with it."""

    origin: str
    text: str
    subject: str | None = None


def _data() -> Path:
    return Path(str(resources.files("experiments") / "data"))


def _jsonl(path: Path) -> Iterator[dict[str, Any]]:
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.strip():
            yield json.loads(line)


def _facts(path: Path, origin: str) -> Iterator[ProseNote]:
    for fact in _jsonl(path):
        yield ProseNote(f"{origin}:{fact['id']}", fact["claim"], fact.get("subject"))


def corpus(fixture_root: Path | None = None, tests_dir: Path | None = None) -> list[ProseNote]:
    """Every note of the corpus, in a fixed order, duplicates (same text and subject) once.

    ``fixture_root``: the experiments' fixture repository, for ``benchmarks.seed``'s notes
    (left out without it); ``tests_dir``: ``tests/anchors`` of a checkout (found beside
    this package when not given; left out when missing)."""
    data = _data()
    notes: list[ProseNote] = [*_facts(data / "facts.jsonl", "facts")]
    for path in sorted((data / "real").glob("*.jsonl")):
        notes.extend(_facts(path, f"real/{path.stem}"))
    for pair in _jsonl(data / "conflicts" / "pairs.jsonl"):
        notes += [ProseNote(f"conflicts:{pair['id']}a", pair["a"]),
                  ProseNote(f"conflicts:{pair['id']}b", pair["b"])]  # fmt: skip
    if fixture_root is not None:
        from benchmarks.seed import Vocabulary
        from benchmarks.seed import notes as seed_notes

        vocab = Vocabulary.of(fixture_root)
        notes += [ProseNote(f"seed:{i}", n.text, n.subject)
                  for i, n in enumerate(seed_notes(vocab, 0, SEED_NOTES))]  # fmt: skip
    tests = tests_dir or Path(__file__).resolve().parent.parent / "tests" / "anchors"
    if tests.is_dir():
        notes += test_texts(tests)
    seen: set[tuple[str, str | None]] = set()
    unique = []
    for note in notes:
        if (note.text, note.subject) not in seen:
            seen.add((note.text, note.subject))
            unique.append(note)
    return unique


# -- the texts of the tests ----------------------------------------------------------------
def _literal(node: ast.expr | None) -> Any:
    try:
        return ast.literal_eval(node) if node is not None else None
    except ValueError:  # not a literal: an f-string, a name
        return None


def _subject_of(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, dict) and isinstance(value.get("subject"), str):
        return str(value["subject"])
    return None


def _from_parametrize(call: ast.Call) -> Iterator[tuple[str, str | None]]:
    """``pytest.mark.parametrize(("text", "subject", ...), [...])``: the text and subject of
    each row."""
    names, rows = _literal(call.args[0]) if call.args else None, call.args[1:2]
    if isinstance(names, str):
        names = tuple(n.strip() for n in names.split(","))
    if not isinstance(names, tuple) or "text" not in names or not rows:
        return
    if not isinstance(rows[0], ast.List | ast.Tuple):
        return
    for row in rows[0].elts:
        values = _literal(row)
        if isinstance(values, tuple) and len(values) == len(names):
            text = values[names.index("text")]
            subject = values[names.index("subject")] if "subject" in names else None
            if isinstance(text, str) and text:
                yield text, _subject_of(subject)


def _from_call(call: ast.Call) -> Iterator[tuple[str, str | None]]:
    name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
    args = [_literal(a) for a in call.args]
    kwargs = {k.arg: _literal(k.value) for k in call.keywords if k.arg}
    if name == "parametrize":
        yield from _from_parametrize(call)
    elif name in ("R", "param") and args and isinstance(args[0], str):
        yield args[0], _subject_of(args[1]) if len(args) > 1 else None  # a table row
    elif name == "infer_anchors" and args and isinstance(args[0], str):
        yield args[0], _subject_of(args[2]) if len(args) > 2 else _subject_of(kwargs.get("subject"))
    elif name == "resolve_subject" and len(args) > 1 and isinstance(args[1], str):
        yield args[1], _subject_of(args[0])
    elif name in ("remember_full", "remember") and isinstance(kwargs.get("text"), str):
        yield kwargs["text"], _subject_of(kwargs.get("subject"))


def test_texts(tests_dir: Path) -> list[ProseNote]:
    """The literal note texts (and subjects) of the anchoring tests, in file order."""
    found: list[ProseNote] = []
    for name in _TEST_FILES:
        path = tests_dir / name
        if not path.is_file():
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        calls = sorted((n for n in ast.walk(tree) if isinstance(n, ast.Call)),
                       key=lambda n: (n.lineno, n.col_offset))  # fmt: skip
        for call in calls:
            for text, subject in _from_call(call):
                found.append(ProseNote(f"tests/{path.stem}:{call.lineno}", text, subject))
    return found


test_texts.__test__ = False  # type: ignore[attr-defined]  # a helper, not a pytest test


# -- word salad: notes no one would write, to compare two versions of the code on -----------
_SALAD_WORDS = (
    "we use uses used using no longer not never don't doesn't isn't n't without instead of "
    "rather than replaced with by from to in for over the a an our its their they my friend's "
    "upstream might could should plan if when maybe dropped removed deleted was were is are "
    "been got rid of phased out there no more neither nor and or but while because so "
    "compatible with similar unlike chose prefer depends on requires required pinned package "
    "dependency module imports imported import from defines lives in reads loads env "
    "httpx requests redis celery duckdb click rich Django PostgreSQL Flask sqlite3 yaml "
    "pyyaml fastmcp HashiCorp Vault GitHub Actions Pulumi Datadog python Python 3.8 2.7 "
    ">=1.2 ^2.6.0 below 3 or newer app/billing.py shop/db/session.py auth/jwt.py::verify "
    "Store.open verify() `verify` `Store` JWT_SECRET DATABASE_URL README.md Dockerfile "
    "billing service store module tests docs the billing module it this that which "
    "compute_discount getLogger HTTPAdapter ../x /etc/passwd C:\\x\\y https://x.io/a/b "
    "www.example.com \u2019 \u017f \u0131 \u0130 \u212a caf\u00e9 \u2215 \u2024 na\u00efve"
)
_SALAD = tuple(_SALAD_WORDS.split())
_GLUE = (" ", " ", " ", " ", ", ", ". ", "; ", " - ", " (", ") ", "? ", "\n", ": ", "`", "'",
         "\u2019", " \u2014 ", "\x00", "\t")  # fmt: skip


def salad(count: int, seed: int = 0) -> list[ProseNote]:
    """``count`` notes of random cue words, names, paths and punctuation (some upper-cased,
    some with non-ASCII letters that fold like ASCII ones, newlines or control characters):
    not prose, but every branch of the reader, for comparing two versions of the code."""
    import random

    rng = random.Random(seed)
    subjects = (None, None, None, "billing", "store", "app/billing.py", "nowhere", "auth")
    notes = []
    for i in range(count):
        words = [rng.choice(_SALAD) for _ in range(rng.randint(1, 16))]
        if rng.random() < 0.2:
            words = [w.upper() if rng.random() < 0.5 else w.capitalize() for w in words]
        text = "".join(w + rng.choice(_GLUE) for w in words).strip()
        notes.append(ProseNote(f"salad:{seed}:{i}", text, rng.choice(subjects)))
    return notes
