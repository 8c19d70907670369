"""Relayed calls take turns in the store's owner (server/owner.py, adr/0017): one at a
time, and a call kept waiting too long runs anyway."""

from __future__ import annotations

import threading
import time

from server.owner import taking_turns


def test_calls_taking_turns_never_overlap():
    turn = threading.Lock()
    inside, overlaps = [0], [0]
    guard = threading.Lock()

    def call() -> None:
        for _ in range(50):
            with taking_turns(turn, 5.0):
                with guard:
                    inside[0] += 1
                    overlaps[0] += inside[0] > 1
                time.sleep(0.0005)
                with guard:
                    inside[0] -= 1

    threads = [threading.Thread(target=call) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert overlaps == [0]


def test_a_call_kept_waiting_past_its_limit_runs_without_its_turn():
    turn = threading.Lock()
    long_call_in = threading.Event()
    release = threading.Event()

    def long_call() -> None:
        with taking_turns(turn, 1.0) as held:
            assert held
            long_call_in.set()
            release.wait(10)

    holder = threading.Thread(target=long_call)
    holder.start()
    assert long_call_in.wait(5)
    start = time.monotonic()
    with taking_turns(turn, 0.1) as held:
        waited = time.monotonic() - start
    assert not held and 0.09 <= waited < 2.0
    release.set()
    holder.join()
    with taking_turns(turn, 0.1) as held:  # given back: the next call has its turn
        assert held
