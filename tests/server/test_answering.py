"""The owner's relayed calls run in one thread (server/answering.py, adr/0017): one at a
time, each connection's in order and the connections in turn; a long call does not hold
the others up past ``help_after_s``."""

from __future__ import annotations

import threading
import time

import pytest

from server.answering import Answerer


def _recorder(log: list[str], inside: list[int], overlaps: list[int], guard: threading.Lock):
    def work(name: str, seconds: float = 0.0):
        def run() -> None:
            with guard:
                inside[0] += 1
                overlaps[0] += inside[0] > 1
            time.sleep(seconds)
            with guard:
                inside[0] -= 1
                log.append(name)

        return run

    return work


def _wait_for(predicate, within: float = 10.0) -> None:
    deadline = time.monotonic() + within
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("not within the time")
        time.sleep(0.005)


def test_works_run_one_at_a_time_each_source_in_order_the_sources_in_turn():
    log: list[str] = []
    inside, overlaps, guard = [0], [0], threading.Lock()
    work = _recorder(log, inside, overlaps, guard)
    answerer = Answerer(help_after_s=5.0)
    for name in ("a1", "a2", "a3"):
        answerer.submit("a", work(name))
    answerer.submit("b", work("b1"))
    answerer.start()
    _wait_for(lambda: len(log) == 4)
    # a first (it was ready first), then b, whose turn came before a's next.
    assert log == ["a1", "b1", "a2", "a3"]

    # Many sources at once, from many threads: never two works at once, each in order.
    log.clear()

    def client(n: int) -> None:
        for i in range(25):
            answerer.submit(n, work(f"{n}:{i}", 0.0002))

    threads = [threading.Thread(target=client, args=(n,)) for n in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    _wait_for(lambda: len(log) == 150)
    assert overlaps == [0]
    for n in range(6):
        assert [x for x in log if x.startswith(f"{n}:")] == [f"{n}:{i}" for i in range(25)]
    assert answerer.helped == 0
    answerer.close()


def test_a_long_call_has_the_others_answered_by_the_helper_and_its_own_next_wait():
    log: list[str] = []
    inside, overlaps, guard = [0], [0], threading.Lock()
    work = _recorder(log, inside, overlaps, guard)
    running, release = threading.Event(), threading.Event()

    def long_call() -> None:
        running.set()
        release.wait(30)
        with guard:
            log.append("slow1")

    answerer = Answerer(help_after_s=0.1)
    answerer.start()
    answerer.submit("slow", long_call)
    answerer.submit("slow", work("slow2"))
    assert running.wait(10)
    answerer.submit("other", work("o1"))
    answerer.submit("other", work("o2"))
    _wait_for(lambda: "o2" in log)
    # Answered while the long call still runs (it waits for ``release``), by the helper.
    assert log == ["o1", "o2"] and answerer.helped == 2
    release.set()
    _wait_for(lambda: "slow2" in log)
    assert log == ["o1", "o2", "slow1", "slow2"]  # the slow source's own order kept
    answerer.close()


def test_a_work_that_fails_is_reported_and_the_next_one_runs(capsys: pytest.CaptureFixture[str]):
    ran: list[str] = []

    def broken() -> None:
        raise RuntimeError("a bug in one call")

    answerer = Answerer()
    answerer.start()
    answerer.submit("a", broken)
    answerer.submit("a", lambda: ran.append("next"))
    _wait_for(lambda: ran == ["next"])
    assert "RuntimeError: a bug in one call" in capsys.readouterr().err
    answerer.close()


def test_closing_lets_what_was_submitted_run_then_the_threads_end():
    ran: list[int] = []
    answerer = Answerer()
    for i in range(20):
        answerer.submit(i % 3, lambda i=i: ran.append(i))
    answerer.close()
    answerer.start()
    assert answerer.join(10.0)
    assert sorted(ran) == list(range(20))
