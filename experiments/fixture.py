"""The experiment's own repository: a small, realistic Python service with a history.

``build_fixture(root)`` writes *shopfront* (an online-shop backend: FastAPI, SQLAlchemy,
Redis, httpx, boto3, Jinja) into ``root`` as a git repository of six commits in which
things are added, renamed, rewritten and removed, and tags four of them ``v1`` .. ``v4``
(``v4`` is HEAD). The default fact set (``experiments/data/facts.jsonl``) refers to its
paths, symbols, dependencies and environment variables, and to the tags as the commits
at which temporal and drift memories were written.

History:
  v1  initial service: billing over ``requests``, signed tokens with ``itsdangerous``,
      marshmallow schemas in ``shop/api/views.py``, an in-process ``MemoryCache``, stdlib
      logging, CSV export in ``shop/reports/csv_export.py``, ``DB_URL``/``SECRET_KEY``.
  v2  Redis cache (``MemoryCache`` removed), order events and a job queue on Redis, SMS
      receipts through Twilio, pydantic schemas, ``views.py`` renamed ``routes.py``.
  v3  billing on ``httpx`` with ``tenacity`` retries (``requests`` dropped), structlog,
      a SQLite FTS product-search index, ``DB_URL`` renamed ``DATABASE_URL``.
  --  tiered discounts: ``apply_discount`` rewritten, the cap lowered from 50% to 30%.
  --  SMS and Twilio dropped; tokens become JWTs (``pyjwt``), ``SECRET_KEY`` -> ``JWT_SECRET``.
  v4  receipts rendered from a Jinja template (``send_receipt`` rewritten), CSV export
      renamed ``shop/reports/export.py``, ``Order.total`` renamed ``Order.grand_total``.

The files are data, in ``experiments/data/fixture/``: ``commits.json`` lists the commits in
order (message, tag, date, the directory of the files it writes, the paths it deletes), and
each commit's directory holds the files that commit adds or rewrites, as they are in it,
under their repository path with ``.txt`` appended (``1-v1/shop/app.py.txt`` is
``shop/app.py`` at ``v1``), so that no tool takes them for the project's own code.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from importlib import resources
from pathlib import Path

from experiments.scratch import ScratchRepo

__all__ = ["FIXTURE_TAGS", "build_fixture"]

FIXTURE_TAGS = ("v1", "v2", "v3", "v4")

IDENTITY = ("Shopfront Developer", "dev@shopfront.example")


# -- files ---------------------------------------------------------------------------------
_SUFFIX = ".txt"


def _data() -> Path:
    return Path(str(resources.files("experiments") / "data" / "fixture"))


def _files(directory: Path) -> dict[str, str | None]:
    """The files under ``directory``, by repository path (``_SUFFIX`` taken off)."""
    files: dict[str, str | None] = {}
    for path in sorted(directory.rglob("*")):
        if path.is_file():
            rel = path.relative_to(directory).as_posix().removesuffix(_SUFFIX)
            files[rel] = path.read_text(encoding="utf-8")
    return files


def _commits() -> list[tuple[str, str | None, str, dict[str, str | None]]]:
    """(message, tag, date, changes); a change of None deletes the file."""
    data = _data()
    manifest = json.loads((data / "commits.json").read_text(encoding="utf-8"))
    commits: list[tuple[str, str | None, str, dict[str, str | None]]] = []
    for commit in manifest["commits"]:
        changes = _files(data / commit["files"])
        changes.update(dict.fromkeys(commit["delete"]))
        commits.append((commit["message"], commit["tag"], commit["date"], changes))
    return commits


def _write(root: Path, files: Mapping[str, str | None]) -> None:
    for rel, content in files.items():
        path = root / rel
        if content is None:
            path.unlink()
            continue
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(content)


def build_fixture(root: Path) -> dict[str, str]:
    """Create the shopfront repository in ``root`` (an empty or missing directory) and
    return its tags mapped to commit ids. Commits are reproducible: fixed author, dates."""
    repo = ScratchRepo(root, IDENTITY)
    repo.git("config", "tag.gpgsign", "false")
    tags: dict[str, str] = {}
    for message, tag, date, files in _commits():
        _write(root, files)
        repo.git("add", "-A")
        repo.git("commit", "-q", "-m", message, date=date)
        if tag is not None:
            repo.git("tag", tag)
            tags[tag] = repo.head()
    return tags
