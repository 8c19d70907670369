"""Which string constants declare the name of an environment variable.

Programs often name a variable once, in a constant (env_logger's
``pub const DEFAULT_FILTER_ENV: &str = "RUST_LOG";``), and read it elsewhere: through a
struct field, a builder method or another file (``Env::default().filter(DEFAULT_FILTER_ENV)``),
where no extractor can follow the value to an ``env::var`` call. A constant whose name says
it holds an environment variable's name and whose value looks like one is the declared name
of a variable the program reads; the Go, Rust and JavaScript/TypeScript extractors count it
as an environment read.
"""

from __future__ import annotations

import re

__all__ = ["declares_env_name"]

_ENV_VALUE = re.compile(r"[A-Z][A-Z0-9_]*")
# ``DEFAULT_FILTER_ENV``, ``envKey``, ``HTTPProxyEnv``: the words of a name, lower case.
_WORD = re.compile(r"[A-Z]+(?![a-z])|[A-Z]?[a-z]+|[0-9]+")
_ENV_WORDS = frozenset({"env", "envs", "environ", "environment", "envvar", "envvars"})
_LAST_WORDS = frozenset({"var", "variable"})


def declares_env_name(name: str, value: str) -> bool:
    """Whether the string constant ``name = value`` names an environment variable: its
    name has an ``env`` word (``FILTER_ENV``, ``ENV_LOG_STYLE``, ``envKey``) or ends in
    ``_VAR`` / ``Var``, and its value is upper case (``^[A-Z][A-Z0-9_]*$``: ``RUST_LOG``)."""
    if not _ENV_VALUE.fullmatch(value):
        return False
    words = [word.lower() for word in _WORD.findall(name)]
    if not words:
        return False
    return words[-1] in _LAST_WORDS or any(word in _ENV_WORDS for word in words)
