"""The fingerprint's per-blob facts, persisted in the store so that every process and
every later session shares the parsing work (blob ids are content hashes, so entries
never go stale)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from anchors.facts import FileFacts
from anchors.fingerprint import facts_from_json, facts_to_json
from store.backend import Store

__all__ = ["StoreFactsCache"]


class StoreFactsCache:
    """``anchors.fingerprint.BlobFactsCache`` backed by the ``blob_facts`` table."""

    def __init__(self, db: Store) -> None:
        self._db = db

    def load(self, blob_ids: Sequence[str]) -> dict[str, FileFacts]:
        rows = self._db.load_blob_facts(blob_ids)
        found = {}
        for blob, text in rows.items():
            try:
                found[blob] = facts_from_json(text)
            except ValueError:
                continue  # from an older anchormem: parsed again, and the new facts replace it
        return found

    def save(self, facts: Mapping[str, FileFacts]) -> None:
        self._db.save_blob_facts({blob: facts_to_json(f) for blob, f in facts.items()})
