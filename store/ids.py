"""Short ids that are easy to copy: a letter for the kind of thing and 8 base-32 characters."""

from __future__ import annotations

import secrets

_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz"  # Crockford: no i, l, o, u


def new_id(prefix: str) -> str:
    """A fresh id like ``m4k9x2qab``; 40 random bits make a clash at 100k memories
    about one in ten million, and inserts retry on one."""
    return prefix + "".join(secrets.choice(_ALPHABET) for _ in range(8))
