"""``benchmarks.store_sharing``'s two ways of driving many servers at once (the SDK's
client in one event loop, the lean client a thread each), run on the floor's trivial
servers: every call is counted once, none fails, and the figures are positive numbers.
How fast is never checked here."""

from __future__ import annotations

from pathlib import Path

import pytest

from benchmarks.store_sharing import Bench


@pytest.mark.slow  # ~10 s: six floor servers started (the other benchmark tests are slow too)
@pytest.mark.parametrize("client", ["sdk", "raw"])
def test_many_servers_driven_by_either_client_count_every_call(tmp_path: Path, client: str) -> None:
    (tmp_path / "repo").mkdir()
    seeded = tmp_path / "seeded.duckdb"
    seeded.write_bytes(b"")  # the floor's servers never open a store
    with (tmp_path / "servers.stderr").open("w") as log:
        figures = Bench(tmp_path, seeded, log).many(True, 3, 7, True, client=client, floor=True)
    assert figures["calls"] == 21 and figures["errors"] == 0, figures
    assert figures["calls_per_s"] > 0 and 0 < figures["p50_ms"] <= figures["p99_ms"]
    assert figures["max_ms"] >= figures["p99_ms"]
    assert (figures["acknowledged"], figures["lost"]) == (0, 0)  # no remember on a floor
