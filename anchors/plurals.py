"""A plural brought to its singular, where the anchors and the store both compare words."""

from __future__ import annotations

__all__ = ["singular"]


def singular(w: str) -> str:
    """A folded word's plural brought to its singular (tests -> test, retries -> retry,
    boxes -> box); words ending in ss, us, is (class, status, redis) stay whole."""
    if len(w) > 4 and w.endswith("ies"):
        return w[:-3] + "y"
    if w.endswith(("sses", "xes", "ches", "shes", "zes")):
        return w[:-2]
    if len(w) > 3 and w.endswith("s") and not w.endswith(("ss", "us", "is")):
        return w[:-1]
    return w
