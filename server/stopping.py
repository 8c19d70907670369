"""How a serving process stops (``server.serve``, ``server.pipe``): on SIGTERM, SIGINT or
SIGHUP, or when the process that started it is gone, it stops taking input and answers
what it owes for ``GRACE_S``; ``HARD_EXIT_S`` after the first signal it ends regardless
(the store's locks die with it, and the next open replays the journal)."""

from __future__ import annotations

import os
import signal
import sys
import threading
import time

__all__ = [
    "GRACE_S",
    "HARD_EXIT_S",
    "PARENT_POLL_S",
    "SIGNALS",
    "exit_later",
    "say",
    "watch_parent",
]

GRACE_S = 2.0  # after the first signal, cancel what still runs
HARD_EXIT_S = 4.0  # after the first signal, end the process regardless
PARENT_POLL_S = 0.5  # how often a stdio server checks that its parent is alive
SIGNALS = tuple(
    sig for sig in (signal.SIGTERM, signal.SIGINT, getattr(signal, "SIGHUP", None)) if sig
)


def say(message: str) -> None:
    print(f"anchormem: {message}", file=sys.stderr, flush=True)


def watch_parent() -> None:
    """In a daemon thread: when the parent process goes away, stop like on SIGTERM."""
    parent = os.getppid()
    if parent <= 1:  # started by init (or a container's first process): nothing to watch
        return

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_POLL_S)
        say(f"the parent process ({parent}) is gone; stopping")
        os.kill(os.getpid(), signal.SIGTERM)

    threading.Thread(target=watch, name="anchormem-parent", daemon=True).start()


def exit_later(delay: float) -> None:
    """End the process ``delay`` seconds from now, whatever still runs."""

    def hard_exit() -> None:
        time.sleep(delay)
        say(f"not stopped {delay:.0f} s after the signal; exiting now")
        os._exit(1)

    threading.Thread(target=hard_exit, name="anchormem-exit", daemon=True).start()
