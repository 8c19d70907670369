"""``python -m benchmarks redaction``: its counts on a few texts, without the repository's."""

from __future__ import annotations

from benchmarks.redaction import measure


def test_it_counts_the_texts_redaction_changes_and_what_each_plugin_would_flag():
    sets = {
        "notes": {"plain": "We use DuckDB", "assigned": 'password = "' + "Zq8#xL2vR9" + '"'},
        "code": {"ip": "uvicorn.run(app, host='8.8.4.4')"},
    }
    result = measure(sets, None)
    assert result["sizes"] == {"notes": 2, "code": 1}
    assert [hit["where"] for hit in result["redact"]["notes"]] == ["assigned"]
    assert result["redact"]["code"] == []
    assert result["plugins"]["ip_public.IPPublicDetector"] == {"notes": 0, "code": 1}
    assert result["plugins"]["keyword.KeywordDetector"]["notes"] == 1
