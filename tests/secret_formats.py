"""Secrets of the formats redaction once missed (issue 30, item 8), well-formed but fake.

Each is built at run time from a seeded generator, so that no secret scanner of this
repository takes a literal in it for a real secret, and each has bytes no other text of
a test holds, so a search of the store's files for them proves what it says.
"""

from __future__ import annotations

import random
import string
from dataclasses import dataclass

__all__ = ["ANCHOR_CASES", "FORMATS", "Planted", "tail"]

ALNUM = string.ascii_letters + string.digits


def tail(length: int, seed: int, alphabet: str = ALNUM) -> str:
    """``length`` characters of ``alphabet``, the same for the same seed."""
    rng = random.Random(seed)
    return "".join(rng.choice(alphabet) for _ in range(length))


@dataclass(frozen=True)
class Planted:
    """A secret as a caller writes it: ``text`` holds it in context, ``needles`` are the
    bytes that must never be stored, ``kind`` the placeholder's kind. ``anchor``: an anchor
    holding it, given with the note; ``in_text``: whether ``text`` holds it (an anchor
    case's text may not)."""

    name: str
    kind: str
    text: str
    needles: tuple[str, ...]
    anchor: str | None = None
    in_text: bool = True


def _token(name: str, kind: str, secret: str, context: str) -> Planted:
    return Planted(name, kind, context.format(secret), (secret,), anchor=f"env:{secret}")


def _ssh2_block() -> Planted:
    body = [tail(64, 70 + i, ALNUM + "+/") for i in range(3)] + [tail(20, 79, ALNUM) + "=="]
    block = "\n".join(
        [
            "---- BEGIN SSH2 ENCRYPTED PRIVATE KEY ----",
            'Comment: "2048-bit rsa, deploy@bastion"',
            *body,
            "---- END SSH2 ENCRYPTED PRIVATE KEY ----",
        ]
    )
    text = f"The bastion's deploy key (RFC 4716):\n{block}\nIt is rotated every quarter."
    return Planted("ssh2-private-key", "private-key", text, tuple(body))


_BEARER = tail(40, 50)
_REDIS_PASSWORD = tail(14, 60, ALNUM + "#%!")
_PG_PASSWORD = tail(12, 61)

FORMATS: tuple[Planted, ...] = (
    _token(
        "github-fine-grained",
        "github-token",
        "github_pat_" + tail(22, 1) + "_" + tail(59, 2),
        "The release job pushes tags with {0} (fine-grained, contents: write).",
    ),
    _token(
        "openai-project",
        "openai-key",
        "sk-proj-" + tail(156, 3, ALNUM + "-_"),
        "The summariser calls OpenAI with {0} on staging.",
    ),
    _token(
        "anthropic",
        "anthropic-key",
        "sk-ant-api03-" + tail(93, 4, ALNUM + "-_") + "AA",
        "The review bot's Anthropic key is {0} for now.",
    ),
    _token(
        "huggingface",
        "huggingface-token",
        "hf_" + tail(34, 5, string.ascii_letters),
        "Model downloads authenticate with {0} in CI.",
    ),
    Planted(
        "authorization-header",
        "bearer-token",
        f"curl -H 'Authorization: Bearer {_BEARER}' https://api.example.com/v1/charges",
        (_BEARER,),
    ),
    Planted(
        "bare-bearer",
        "bearer-token",
        f"The webhook sends Bearer {_BEARER[::-1]} with each delivery.",
        (_BEARER[::-1],),
    ),
    Planted(
        "redis-url-no-user",
        "url-password",
        f"The cache is redis://:{_REDIS_PASSWORD}@cache.internal:6379/0 in staging.",
        (_REDIS_PASSWORD,),
    ),
    Planted(
        "postgresql-url-no-user",
        "url-password",
        f"Reports read postgresql://:{_PG_PASSWORD}@db/reports directly.",
        (_PG_PASSWORD,),
    ),
    _ssh2_block(),
)

_ANT = "sk-ant-api03-" + tail(93, 6, ALNUM + "-_") + "AA"
_GHP = "ghp_" + tail(36, 7)
_GHP_INFERRED = "ghp_" + tail(36, 8)

ANCHOR_CASES: tuple[Planted, ...] = (
    Planted(
        "explicit-env-anchor",
        "anthropic-key",
        "The review bot reads its Anthropic key from the environment.",
        (_ANT,),
        anchor=f"env:{_ANT}",
        in_text=False,
    ),
    Planted(
        "explicit-file-anchor",
        "github-token",
        "The release job keeps its token in a file under config/.",
        (_GHP,),
        anchor=f"file:config/{_GHP}.txt",
        in_text=False,
    ),
    Planted(
        "inferred-anchor",
        "github-token",
        f"The release job reads its token from config/{_GHP_INFERRED}.txt in store/db.py.",
        (_GHP_INFERRED,),
    ),
)
