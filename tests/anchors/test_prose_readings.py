"""Reading anchors from prose gives the very readings recorded in ``data/prose_readings.jsonl``.

The file holds every note of ``benchmarks.prose_corpus.corpus`` (the experiments' facts,
the truth benchmark's facts, both sides of the contradiction pairs, ``benchmarks.seed``'s
notes and the texts of the anchoring tests) with what ``resolve_subject`` and
``infer_anchors`` read from it on three fingerprints: the experiments' fixture at HEAD
(``fixture``), the shop of ``test_claims_on_real_repos`` (``shop``) and the synthetic
fingerprint of ``test_extract`` (``extract``); a reading the same as on the fixture is left
out. Any change of output, down to a drop's detail, fails here: rewrite it with ``--write``
and review the diff.

A deliberate change of what is read is recorded again, and its diff reviewed:

    .venv/bin/python -m tests.anchors.test_prose_readings --write
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.subject import resolve_subject
from benchmarks.prose import fingerprint_of, reading
from benchmarks.prose_corpus import ProseNote, corpus
from experiments.fixture import build_fixture
from tests.conftest import GitRepo

GOLDEN = Path(__file__).parent / "data" / "prose_readings.jsonl"


def _fingerprints(root: Path) -> dict[str, Fingerprint]:
    """The three fingerprints the readings were recorded on, built under ``root``."""
    from tests.anchors.test_claims_on_real_repos import SHOP
    from tests.anchors.test_extract import FP

    build_fixture(root / "fixture")
    shop = GitRepo(root / "shop")
    shop.commit(SHOP, "the shop")
    return {"fixture": fingerprint_of(root / "fixture"), "shop": fingerprint_of(shop.root),
            "extract": FP}  # fmt: skip


def _compact(found: dict[str, Any]) -> dict[str, Any]:
    """A reading without its empty fields, as it is kept in the file."""
    return {key: value for key, value in found.items() if value not in (None, [])}


def _entries() -> Iterator[dict[str, Any]]:
    for line in GOLDEN.read_text(encoding="utf-8").splitlines():
        yield json.loads(line)


def _note(entry: dict[str, Any]) -> ProseNote:
    return ProseNote(entry["origin"], entry["text"], entry.get("subject"))


@pytest.fixture(scope="module")
def fingerprints(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Fingerprint]:
    return _fingerprints(tmp_path_factory.mktemp("prose"))


def test_the_recorded_corpus_has_every_source_of_notes() -> None:
    origins = {entry["origin"].split(":")[0].split("/")[0] for entry in _entries()}
    assert {"facts", "real", "conflicts", "seed", "tests"} <= origins
    assert sum(1 for _ in _entries()) >= 1000


def test_every_note_is_read_as_recorded_on_every_fingerprint(
    fingerprints: dict[str, Fingerprint],
) -> None:
    differences = []
    for entry in _entries():
        recorded = entry["readings"]
        for name in fingerprints:
            expected = recorded.get(name, recorded["fixture"])
            found = _compact(reading(_note(entry), fingerprints[name]))
            if found != expected:
                differences.append((entry["origin"], name, entry["text"], expected, found))
    assert not differences, f"{len(differences)} readings differ; first: {differences[:3]}"


def test_an_inference_given_the_resolved_scope_is_the_one_that_resolves_it(
    fingerprints: dict[str, Fingerprint],
) -> None:
    for entry in _entries():
        note = _note(entry)
        for fp in fingerprints.values():
            scope = resolve_subject(note.subject, note.text, fp)
            given = infer_anchors(note.text, fp, note.subject, scope=scope)
            assert given == infer_anchors(note.text, fp, note.subject), note.text


def write(path: Path = GOLDEN) -> int:
    """Record the readings of the current code; returns how many notes were written."""
    with tempfile.TemporaryDirectory(prefix="anchormem-prose-") as tmp:
        fps = _fingerprints(Path(tmp))
        notes = corpus(Path(tmp) / "fixture", Path(__file__).parent)
        lines = []
        for note in notes:
            entry: dict[str, Any] = {"origin": note.origin, "text": note.text}
            if note.subject is not None:
                entry["subject"] = note.subject
            found = {name: _compact(reading(note, fp)) for name, fp in fps.items()}
            entry["readings"] = {name: value for name, value in found.items()
                                 if name == "fixture" or value != found["fixture"]}  # fmt: skip
            lines.append(json.dumps(entry, ensure_ascii=False, sort_keys=False))
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return len(lines)


if __name__ == "__main__":
    if sys.argv[1:] != ["--write"]:
        sys.exit("usage: python -m tests.anchors.test_prose_readings --write")
    print(f"{write()} notes written to {GOLDEN}")
