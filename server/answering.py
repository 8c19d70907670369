"""The owner's hot calls, answered by one thread (adr/0017).

Every serving process's session (``server.sessions``) has a thread that receives its
frames; none of them answers a hot call. They hand each such frame's work to an
``Answerer``, whose one thread runs the works one at a time: the connections in turn,
each connection's works in the order they came (a connection's answers must go back in
its frames' order). One interpreter answering in one thread
stays warm; threads that take turns hand the interpreter to each other on every call,
and four clients' calls then cost ~20% more each (4 servers × 300 alternating calls: 308
calls/s against 259, eight runs each way).

A call that runs long (a cold fingerprint, a journal drain) must not hold up the others:
once the answering thread has been on one work ``help_after_s`` while other connections
have work waiting, a helper thread runs theirs, one at a time, until the long one ends.
"""

from __future__ import annotations

import sys
import threading
import time
import traceback
from collections import deque
from collections.abc import Callable, Hashable

__all__ = ["HELP_AFTER_S", "Answerer"]

HELP_AFTER_S = 0.1

Work = Callable[[], None]


class Answerer:
    def __init__(self, help_after_s: float = HELP_AFTER_S, name: str = "anchormem-answer") -> None:
        self._help_after_s = help_after_s
        self._name = name
        self._lock = threading.Lock()
        self._work = threading.Condition(self._lock)  # the answering thread waits here
        self._watch = threading.Condition(self._lock)  # the helper waits here
        self._queues: dict[Hashable, deque[Work]] = {}  # a source's works not yet run
        self._ready: deque[Hashable] = deque()  # sources with work, none of it running
        self._busy_since: float | None = None  # when the answering thread's work started
        self._closed = False
        self._threads: list[threading.Thread] = []
        self.helped = 0  # works the helper ran (a long call was holding the others up)

    def start(self) -> None:
        with self._lock:
            if self._threads:
                return
            for target, suffix in ((self._answer, ""), (self._help, "-help")):
                thread = threading.Thread(target=target, name=self._name + suffix, daemon=True)
                self._threads.append(thread)
        for thread in self._threads:
            thread.start()

    def submit(self, source: Hashable, work: Work) -> None:
        """Run ``work`` after the works ``source`` submitted before it."""
        with self._lock:
            queue = self._queues.get(source)
            if queue is None:  # nothing of it waits or runs: it is ready now
                queue = self._queues[source] = deque()
                self._ready.append(source)
            queue.append(work)
            self._work.notify()
            self._watch.notify()

    def close(self) -> None:
        """Stop once every work submitted has run (the threads are daemons: a stuck work
        does not keep the process alive)."""
        with self._lock:
            self._closed = True
            self._work.notify_all()
            self._watch.notify_all()

    def join(self, timeout: float) -> bool:
        """Wait (at most ``timeout``) for the threads to end after ``close``; whether they
        have."""
        deadline = time.monotonic() + timeout
        for thread in self._threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        return not any(thread.is_alive() for thread in self._threads)

    # -- the threads -------------------------------------------------------------------
    def _next(self) -> tuple[Hashable, Work] | None:
        """A ready source's next work (the lock held); ``None``: none is ready."""
        if not self._ready:
            return None
        source = self._ready.popleft()
        return source, self._queues[source].popleft()

    def _finished(self, source: Hashable) -> None:
        """``source``'s work is done (the lock held): ready again if it has more."""
        if self._queues[source]:
            self._ready.append(source)
            self._work.notify()
            self._watch.notify()
        else:
            del self._queues[source]

    def _answer(self) -> None:
        while True:
            with self._lock:
                taken = self._next()
                while taken is None:
                    if self._closed:
                        return
                    self._work.wait()
                    taken = self._next()
                self._busy_since = time.monotonic()
                self._watch.notify()
            source, work = taken
            _run(work)
            with self._lock:
                self._busy_since = None
                self._finished(source)

    def _help(self) -> None:
        while True:
            with self._lock:
                while True:
                    if self._closed and not self._ready:
                        return
                    since = self._busy_since
                    if since is None or not self._ready:
                        self._watch.wait()
                        continue
                    left = since + self._help_after_s - time.monotonic()
                    if left <= 0:
                        break
                    self._watch.wait(left)
                taken = self._next()
            if taken is None:
                continue
            source, work = taken
            self.helped += 1
            _run(work)
            with self._lock:
                self._finished(source)


def _run(work: Work) -> None:
    """A work's own errors are its own (it answers or closes its connection); one that
    escapes is printed, and the thread goes on with the next."""
    try:
        work()
    except Exception:  # the top-level safety net of a thread that serves every client
        traceback.print_exc(file=sys.stderr)
