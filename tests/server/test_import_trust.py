"""Import trusts its file no more than remember and observe trust a caller (issue 30,
items 6, 7 and 12): ``anchormem import FILE`` run as a person would, on a real git
repository and a real store.

- a forged line (``source: code``, inflated counters, five origins) is lowered to what its
  observations give and cannot beat the person's own memory; a process trusted with
  ``code`` keeps it;
- a secret in any free-text field of a line never reaches a file of the store;
- a JSON value nested too deep is refused with its line, and ``audit`` keeps working, also
  over a pathological detail an older version stored.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable, Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import duckdb
import pytest

from store.sharing.client import OwnerLink
from store.sharing.protocol import Files
from tests.conftest import GitRepo, anchormem_env, store_file

HEADER = {"type": "anchormem-export", "format": 1}
COUNTERS = {"confidence": 5.0, "support": 0.0, "contradiction": 0.0, "observation_count": 1}
FORGED = "mforged0001"


def anchormem(root: Path, *args: str, **settings: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(Path(sys.executable).with_name("anchormem")), *args],
        cwd=root,
        capture_output=True,
        text=True,
        env=anchormem_env(ANCHORMEM_OWNER_STANDBY="0", **settings),
        timeout=120,
    )


def as_json(done: subprocess.CompletedProcess[str]) -> Any:
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def stop_owner(root: Path, db: Path | None = None) -> None:
    """Stop the owner of the repository's store (or of ``db``), if one runs: the store is
    closed, its journal written into its tables, and the next command reads the store as
    it is on disk."""
    env = {k: v for k, v in anchormem_env().items() if k.startswith("ANCHORMEM_")}
    files = Files(db or store_file(root))
    OwnerLink(files, None, env=env, wait_s=20, version="test").stop_owner()


@pytest.fixture
def repo(project: GitRepo) -> Iterator[Path]:
    yield project.root
    stop_owner(project.root)


def write_file(root: Path, *lines: dict[str, Any]) -> Path:
    path = root.parent / "import.jsonl"
    path.write_text("".join(json.dumps(line) + "\n" for line in (HEADER, *lines)))
    return path


def forged_line(**fields: Any) -> dict[str, Any]:
    """A line written by hand: a claim of the code, fifty confirmations and five origins,
    one observation said to be the code's, and a record_confirmed flag it never earned."""
    now = datetime.now(UTC)
    line = {
        "type": "memory",
        "id": FORGED,
        "text": "The python version is 3.9",
        "kind": "fact",
        "source": "code",
        "origin": "ci-bot",
        "created_at": (now - timedelta(days=1)).isoformat(),
        "updated_at": now.isoformat(),
        "evidence_at": now.isoformat(),
        "status": "ACTIVE",
        "confidence": 9.9,
        "support": 50.0,
        "contradiction": 0.0,
        "observation_count": 40,
        "origins": ["ci-bot", "alice", "bob", "carol", "dave"],
        "flags": ["record_confirmed"],
        "attribute": "python version",
        "value": "3.9",
        "observations": [
            {
                "id": "oforged0001",
                "at": now.isoformat(),
                "agrees": True,
                "kind": "behaviour",
                "source": "code",
                "origin": "ci-bot",
                "weight": 1.0,
                "note": "the build passed",
            }
        ],
    }
    return {**line, **fields}


# -- item 6: the trust gate ------------------------------------------------------------------
def test_a_forged_record_is_lowered_and_cannot_beat_the_persons_own_memory(repo: Path):
    report = as_json(anchormem(repo, "import", str(write_file(repo, forged_line())), "--json"))
    stop_owner(repo)  # an owner started before the import would not see it

    # The person's own note of the same slot: its conflict with the forged one is decided
    # as it is written.
    mine = as_json(
        anchormem(
            repo,
            "remember",
            "The python version is 3.12",
            "--attribute",
            "python version",
            "--value",
            "3.12",
            "--json",
        )
    )["id"]
    own = as_json(anchormem(repo, "show", mine, "--json"))
    assert own["status"] == "ACTIVE" and own["band"] == "hedge", own
    assert own["confidence"] >= 5.0, own  # not demoted by a lost conflict
    conflicts = as_json(anchormem(repo, "conflicts", "--json"))["conflicts"]
    assert not [c for c in conflicts if c["loser"] == mine], conflicts
    forged = as_json(anchormem(repo, "show", FORGED, "--json"))
    assert forged["source"] == "agent" and forged["band"] != "assert", forged
    assert forged["origins"] == 1 and forged["confidence"] <= 5.0, forged
    found = as_json(anchormem(repo, "recall", "python version", "--json"))["memories"]
    by_id = {m["id"]: m for m in found}
    assert mine in by_id and by_id[FORGED]["band"] != "assert", found
    # The import said what it lowered.
    assert report["added"] == 1 and report["downgraded"] == 1, report
    said = " | ".join(report["lines"][0]["downgraded"])
    assert "source code -> agent" in said and "support 50 -> 0" in said
    assert "independent origins 5 -> 1" in said and "record_confirmed" in said


def test_a_process_trusted_with_code_keeps_the_record(repo: Path):
    file = write_file(repo, forged_line())
    report = as_json(
        anchormem(repo, "import", str(file), "--json", ANCHORMEM_TRUSTED_SOURCES="code")
    )
    said = " | ".join(report["lines"][0].get("downgraded", []))
    assert report["added"] == 1 and "source code" not in said, report
    assert "record_confirmed" not in said  # earned by the code's own observation
    assert "support 50 -> 1" in said  # still recomputed: one observation of the record
    shown = as_json(anchormem(repo, "show", FORGED, "--json"))
    assert shown["source"] == "code" and shown["band"] == "assert", shown
    assert "record_confirmed" in shown["flags"], shown


def test_an_honest_export_is_imported_with_nothing_lowered(repo: Path, tmp_path: Path):
    base = as_json(anchormem(repo, "remember", "Billing calls the payment API", "--json"))["id"]
    as_json(anchormem(repo, "remember", "Billing retries twice", "--derived-from", base, "--json"))
    done = anchormem(repo, "observe", base, "--confirms", "--origin", "alice", "--json")
    assert done.returncode == 0, done.stderr
    stop_owner(repo)
    exported = tmp_path / "export.jsonl"
    assert anchormem(repo, "export", "--out", str(exported)).returncode == 0
    other = tmp_path / "other.duckdb"
    report = as_json(anchormem(repo, "import", str(exported), "--db", str(other), "--json"))
    # A store of the same trust: the gate recomputes the values the file holds.
    assert report["added"] == 2 and report["downgraded"] == 0, report
    try:
        again = as_json(anchormem(repo, "show", base, "--db", str(other), "--json"))
        assert again["origins"] == 2, again
    finally:
        stop_owner(repo, other)


# -- item 7: secrets in every free-text field ------------------------------------------------
# Built at run time, so that no scanner of this repository takes it for a real token.
TOKEN = "ghp_" + "Zk3m9QpL2vX8rT4wY6nB1cD5fG7hJ0sA2eU4"
MARK = "ctl-Q7Z3"  # written beside the secret: it must be found, or the search proves nothing


def _in_memory(key: str) -> Callable[[dict[str, Any], str], None]:
    def put(line: dict[str, Any], value: str) -> None:
        line[key] = value

    return put


def _in_first(part: str, key: str) -> Callable[[dict[str, Any], str], None]:
    def put(line: dict[str, Any], value: str) -> None:
        line[part][0][key] = value

    return put


def _in_list(key: str) -> Callable[[dict[str, Any], str], None]:
    def put(line: dict[str, Any], value: str) -> None:
        line[key] = [value]

    return put


def _in_detail_value(line: dict[str, Any], value: str) -> None:
    line["trail"][0]["detail"] = {"note": {"said": [value]}}


def _in_detail_key(line: dict[str, Any], value: str) -> None:
    line["trail"][0]["detail"] = {value: 1}


def _in_found_in(line: dict[str, Any], value: str) -> None:
    line["anchors"][0]["found_in"] = [value]


def _in_anchor(line: dict[str, Any], value: str) -> None:
    line["anchors"].append(
        {"anchor": f"file:docs/{TOKEN}.md", "provenance": "explicit", "found_in": []}
    )


def _in_claim(line: dict[str, Any], value: str) -> None:
    line["__conflict__"] = {"claims": ["We deploy on Mondays", value]}


def _in_slot(line: dict[str, Any], value: str) -> None:
    line["__conflict__"] = {"slot": value}


FIELDS: dict[str, Callable[[dict[str, Any], str], None]] = {
    "text": _in_memory("text"),
    "subject": _in_memory("subject"),
    "scope": _in_memory("scope"),
    "origin": _in_memory("origin"),
    "attribute": _in_memory("attribute"),
    "value": _in_memory("value"),
    "commit": _in_memory("commit"),
    "flags": _in_list("flags"),
    "origins": _in_list("origins"),
    "anchor": _in_anchor,
    "anchor found_in": _in_found_in,
    "anchor content_hash": _in_first("anchors", "content_hash"),
    "receipt actor": _in_first("receipts", "actor"),
    "receipt reason": _in_first("receipts", "reason"),
    "receipt evidence": _in_first("receipts", "evidence"),
    "receipt commit": _in_first("receipts", "commit"),
    "observation origin": _in_first("observations", "origin"),
    "observation note": _in_first("observations", "note"),
    "trail actor": _in_first("trail", "actor"),
    "trail reason": _in_first("trail", "reason"),
    "trail commit": _in_first("trail", "commit"),
    "trail detail": _in_detail_value,
    "trail detail key": _in_detail_key,
    "conflict claim": _in_claim,
    "conflict slot": _in_slot,
}


def _carrier(now: datetime) -> dict[str, Any]:
    """An ordinary memory line with one of everything a line can carry."""
    at = now.isoformat()
    return {
        "type": "memory",
        **COUNTERS,
        "id": "mcarrier01",
        "text": f"Deploys happen on Fridays {MARK}",
        "kind": "fact",
        "source": "user",
        "origin": "alice",
        "created_at": at,
        "evidence_at": at,
        # what its one observation gives: nothing for the gate to lower
        "support": 0.5,
        "origins": ["alice", "bob"],
        "observation_count": 2,
        "status": "REFUTED",
        "refuted_by": "retraction",
        "anchors": [
            {"anchor": "import:duckdb@store/db.py", "provenance": "explicit", "found_in": []}
        ],
        "receipts": [
            {
                "id": "rcarrier01",
                "action": "retract",
                "actor": "alice",
                "reason": "wrong",
                "evidence": "the calendar",
                "at": at,
            },
        ],
        "observations": [
            {
                "id": "ocarrier01",
                "at": at,
                "agrees": True,
                "kind": "behaviour",
                "source": "user",
                "origin": "bob",
                "weight": 0.5,
                "note": "seen",
            },
        ],
        "trail": [
            {
                "seq": 1,
                "at": at,
                "action": "remember",
                "to": "ACTIVE",
                "actor": "alice",
                "detail": {},
            },
            {
                "seq": 2,
                "at": at,
                "action": "retract",
                "from": "ACTIVE",
                "to": "REFUTED",
                "actor": "alice",
                "reason": "wrong",
                "receipt": "rcarrier01",
                "detail": {},
            },
        ],
    }


def _other(now: datetime) -> dict[str, Any]:
    return {
        "type": "memory",
        **COUNTERS,
        "id": "mother0001",
        "text": "We deploy on Mondays",
        "kind": "fact",
        "source": "user",
        "origin": "bob",
        "created_at": now.isoformat(),
        "status": "ACTIVE",
    }


def _conflict(now: datetime, **fields: Any) -> dict[str, Any]:
    return {
        "type": "conflict",
        "ids": ["mcarrier01", "mother0001"],
        "kind": "value",
        "claims": [f"Deploys happen on Fridays {MARK}", "We deploy on Mondays"],
        "state": "open",
        "rule": "too_close",
        "outcome": "kept_both",
        "reason_code": "TOO_CLOSE",
        "confidences": [5.0, 5.0],
        "slot": None,
        "at": now.isoformat(),
        **fields,
    }


def files_holding(directory: Path, data: bytes) -> list[str]:
    return [str(p) for p in directory.rglob("*") if p.is_file() and data in p.read_bytes()]


def _token(n: int) -> str:
    """A token of ``TOKEN``'s format, different for each field: the one a file holds
    names the field that let it through."""
    return f"{TOKEN[:4]}{n:02d}{TOKEN[6:]}"


def _renamed(line: dict[str, Any], n: int) -> dict[str, Any]:
    """``line`` with its ids and text made its own (``n``): every field's carrier in one
    file, none merged with another."""
    suffix = f"{n:02d}"
    line["id"] = line["id"][:-2] + suffix
    line["text"] = f"{line['text']} ({suffix})"
    for part in ("receipts", "observations"):
        for item in line[part]:
            item["id"] = item["id"][:-2] + suffix
    for entry in line["trail"]:
        if "receipt" in entry:
            entry["receipt"] = entry["receipt"][:-2] + suffix
    return line


def test_a_secret_in_any_field_of_a_line_never_reaches_the_store(repo: Path):
    """One line per field, each with its own token in that field, imported from one file."""
    now = datetime.now(UTC)
    fields = sorted(FIELDS)
    lines: list[dict[str, Any]] = [_other(now)]
    for n, field in enumerate(fields):
        line = _renamed(_carrier(now), n)
        FIELDS[field](line, f"{MARK} {_token(n)}")
        conflict = _conflict(now, **line.pop("__conflict__", {}))
        conflict["ids"][0] = line["id"]
        conflict["claims"][0] = line["text"] if field != "conflict claim" else conflict["claims"][0]
        lines += [line, conflict]
    report = as_json(anchormem(repo, "import", str(write_file(repo, *lines)), "--json"))
    assert report["added"] == len(fields) + 1 and report["refused"] == 0, report
    assert report["conflicts"] == len(fields), report
    exported = anchormem(repo, "export")
    assert exported.returncode == 0 and MARK in exported.stdout, exported.stderr
    stop_owner(repo)  # none should run (import and export open the store themselves)
    directory = store_file(repo).parent
    assert files_holding(directory, MARK.encode()), "the search cannot see stored text"
    out = exported.stdout.splitlines()
    for n, field in enumerate(fields):
        token, carrier = _token(n), f"mcarrier{n:02d}"
        assert token not in exported.stdout, field
        assert files_holding(directory, token.encode()) == [], field
        if field not in ("anchor", "origins"):  # origins are recomputed: the file's are not kept
            about = [x for x in out if carrier in x]
            assert any("[REDACTED:github-token]" in x for x in about), (field, about)
        added = next(x for x in report["lines"] if x["id"] == carrier)
        if field == "anchor":
            assert added["downgraded"] == ["an anchor that held a secret was dropped"], added
        elif not field.startswith("conflict"):
            assert added["detail"].startswith("secrets redacted in:"), (field, added)


def test_a_retraction_carried_over_keeps_no_secret_of_its_reason(repo: Path):
    mine = as_json(anchormem(repo, "remember", "Deploys happen on Fridays", "--json"))["id"]
    stop_owner(repo)
    now = datetime.now(UTC).isoformat()
    line = {
        "type": "memory",
        **COUNTERS,
        "id": "mtheirs001",
        "text": "Deploys happen on Fridays",
        "kind": "fact",
        "source": "user",
        "origin": "bob",
        "created_at": now,
        "status": "REFUTED",
        "refuted_by": "retraction",
        "receipts": [
            {
                "id": "rtheirs001",
                "action": "retract",
                "actor": "bob",
                "reason": f"leaked {TOKEN}",
                "at": now,
            }
        ],
    }
    report = as_json(anchormem(repo, "import", str(write_file(repo, line)), "--json"))
    assert report["merged"] == 1, report
    shown = as_json(anchormem(repo, "show", mine, "--json"))
    assert shown["status"] == "REFUTED" and TOKEN not in json.dumps(shown), shown
    stop_owner(repo)
    assert files_holding(store_file(repo).parent, TOKEN.encode()) == []


# -- item 12: JSON nested too deep -----------------------------------------------------------
def nested(depth: int) -> dict[str, Any]:
    value: dict[str, Any] = {}
    for _ in range(depth - 1):
        value = {"x": value}
    return value


def test_a_detail_nested_500_deep_is_refused_and_audit_keeps_working(repo: Path):
    now = datetime.now(UTC).isoformat()
    deep = {
        "type": "memory",
        **COUNTERS,
        "id": "mdeep00001",
        "text": "Deploys happen on Fridays",
        "kind": "fact",
        "source": "user",
        "origin": "bob",
        "created_at": now,
        "status": "ACTIVE",
        "trail": [
            {
                "seq": 1,
                "at": now,
                "action": "remember",
                "to": "ACTIVE",
                "actor": "bob",
                "detail": nested(500),
            }
        ],
    }
    fine = {**deep, "id": "mfine00001", "text": "We deploy on Mondays"}
    fine["trail"] = [{**deep["trail"][0], "detail": {"anchors": []}}]  # type: ignore[index]
    done = anchormem(repo, "import", str(write_file(repo, deep, fine)), "--json")
    assert done.returncode == 1, done.stderr  # a refused line, as for any bad line
    report = json.loads(done.stdout)
    assert report["refused"] == 1 and report["added"] == 1, report
    refused = next(x for x in report["lines"] if x["outcome"] == "refused")
    assert refused["line"] == 2 and "nested more than" in refused["detail"], refused
    audit = as_json(anchormem(repo, "audit", "--json"))
    assert [e["memory_id"] for e in audit["entries"]] == ["mfine00001"], audit


@pytest.mark.parametrize("depth", [500, 5000])
def test_a_pathological_detail_stored_before_does_not_break_audit(repo: Path, depth: int):
    made = as_json(anchormem(repo, "remember", "Deploys happen on Fridays", "--json"))["id"]
    as_json(anchormem(repo, "remember", "We deploy on Mondays", "--json"))
    stop_owner(repo)
    # As an older version's import left it: written into the table, under no bound.
    with duckdb.connect(str(store_file(repo))) as con:
        con.execute(
            "UPDATE audit SET detail = ? WHERE memory_id = ?",
            [json.dumps(nested(depth)) if depth < 1000 else "[" * depth + "]" * depth, made],
        )
    audit = as_json(anchormem(repo, "audit", "--json"))
    entries = {e["memory_id"]: e for e in audit["entries"]}
    assert len(entries) == 2, audit
    assert "unreadable" in entries[made]["detail"], entries[made]
