"""``python -m benchmarks overlay``: a smoke run of both ways (the lstat pass and the
watcher) in one run; the figures themselves are adr/0018's."""

from __future__ import annotations

import sys

import pytest

from benchmarks.overlay import main


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the watcher is Linux's")
def test_the_overlay_benchmark_times_both_ways_and_the_watcher_makes_one_full_pass(
    capsys: pytest.CaptureFixture[str],
):
    assert main(["--runs", "20", "--files", "300"]) == 0
    figures = dict(line.split(": ", 1) for line in capsys.readouterr().out.splitlines())
    for name in ("overlay_clean", "overlay_edited", "overlay_store_written", "generated_clean",
                 "generated_one_edit"):  # fmt: skip
        for way in ("lstat", "watched"):
            assert float(figures[f"{name}_{way}_p50_us"]) > 0
    assert figures["overlay_watched"] == "True"
    assert figures["overlay_full_passes_watched"] == "1"  # every later call: its events only
    assert figures["generated_full_passes_watched"] == "1"
    assert int(figures["generated_full_passes_lstat"]) > 20
