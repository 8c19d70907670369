"""The values code states for names (``ValueFact``: constants and environment variables'
defaults) and the environment reads that give them (``EnvCall``, ``EnvWrapper``), as the
fingerprint keeps them.

Its own module, below both of its users: ``anchors.env_wrappers`` builds these records, and
``anchors.facts`` keeps them per file and joins them over the fingerprint through
``anchors.env_wrappers``.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["EnvCall", "EnvWrapper", "ValueFact"]


@dataclass(frozen=True)
class ValueFact:
    """A value the code states for a name: a constant (``MAX_PAGE_SIZE = 100``, qualified
    ``Class.ATTR`` in a class body) or an environment variable's default
    (``os.getenv("PAGE_SIZE", "20")``). ``text`` is the literal's source text, or None when
    the code computes it (a call, a name, an expression): a value anchor cannot judge that."""

    name: str
    text: str | None
    line: int
    # The value is the language's, not a literal written for the name: Go's ``iota`` in a
    # ``const`` block (``regexpTypeHost`` after ``regexpTypePath = iota`` is 1).
    derived: bool = False


@dataclass(frozen=True)
class EnvWrapper:
    """A function of this file that reads the environment variable its caller names by its
    first argument (``def env_int(name, default=0): return int(os.getenv(name, default))``),
    or a settings-library object (django-environ's or environs' ``env``, decouple's
    ``config``). ``callee`` is how a call names it: ``env_int``, ``Settings.env`` for a
    method, ``env.*`` for every method of an object (``env.int``). The caller's default is
    the argument at ``default_at`` (the name is at 0; -1: none by position) or the keyword
    ``default_kw``; when the call passes neither, the wrapper's own default (``fallback``
    source text, None when computed) applies if ``has_fallback``."""

    callee: str
    default_at: int
    default_kw: str
    fallback: str | None = None
    has_fallback: bool = False


@dataclass(frozen=True)
class EnvCall:
    """A call whose first argument is a literal environment-like name
    (``env_int("PAGE_SIZE", 20)``): the callee as written, the name, the literal source text
    of its other positional arguments and of its keyword arguments (None: computed or
    splatted), and its line. An environment read only when the callee resolves to an
    ``EnvWrapper`` (``anchors.env_wrappers``)."""

    callee: str
    name: str
    args: tuple[str | None, ...]
    keywords: tuple[tuple[str, str | None], ...]
    line: int
