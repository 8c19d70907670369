"""Short ids that are easy to copy: a letter for the kind of thing and 8 base-32 characters."""

from __future__ import annotations

import secrets

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford: no i, l, o, u


def new_id(prefix: str) -> str:
    """A fresh id like ``m4k9x2qab``; 40 random bits make a clash at 100k memories
    about one in ten million, and inserts retry on one. The 40 bits are read at once
    (``secrets.choice`` per character read the system's randomness eight times)."""
    bits = secrets.randbits(40)
    return prefix + "".join(_ALPHABET[(bits >> shift) & 31] for shift in range(35, -5, -5))
