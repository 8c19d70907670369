"""The copy of detect-secrets' patterns (``store.secret_patterns``) is detect-secrets' own:
every plugin ``store.redaction`` uses, pattern for pattern and flag for flag, as the
installed version has them; and a JWT is taken as detect-secrets takes it."""

from __future__ import annotations

import base64
import importlib
import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from store.redaction import _PLUGINS, _jwt_valid, redact
from store.secret_patterns import PLUGIN_PATTERNS


def _installed(plugin: str) -> list[tuple[str, int]]:
    module, _, name = plugin.rpartition(".")
    detector = getattr(importlib.import_module(f"detect_secrets.plugins.{module}"), name)
    return [(p.pattern, p.flags & ~re.UNICODE) for p in detector.denylist]


def test_every_pattern_is_the_installed_detect_secrets_one():
    copied: dict[str, list[tuple[str, int]]] = {}
    for plugin, source, flags in PLUGIN_PATTERNS:
        copied.setdefault(plugin, []).append((source, flags))
    assert set(copied) == set(_PLUGINS)
    for plugin in _PLUGINS:
        assert copied[plugin] == _installed(plugin), plugin


def _part(value: object) -> str:
    return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")


_B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_="
TOKENS = st.one_of(
    st.builds(
        lambda h, p, sig: f"{_part(h)}.{_part(p)}.{sig}",
        st.dictionaries(st.text(max_size=5), st.integers(), max_size=3),
        st.dictionaries(st.text(max_size=5), st.text(max_size=8), max_size=3),
        st.text(_B64, max_size=30),
    ),
    st.builds(
        lambda a, b: f"eyJ{a}.{b}", st.text(_B64, max_size=40), st.text(_B64 + ".", max_size=40)
    ),
    st.text(_B64 + ".é", max_size=60),
)


@settings(max_examples=400, deadline=None)
@given(TOKENS)
def test_a_jwt_is_checked_as_detect_secrets_checks_it(token: str):
    from detect_secrets.plugins.jwt import JwtTokenDetector

    assert _jwt_valid(token) == JwtTokenDetector.is_formally_valid(token), token


def test_a_jwt_is_redacted_and_a_word_beginning_eyj_is_not():
    jwt = f"{_part({'alg': 'HS256'})}.{_part({'sub': 'alice'})}.c2lnbmF0dXJl"
    assert redact(f"the session token is {jwt} today").kinds == ("jwt",)
    assert redact("eyJhbGciOi.not-json-at-all.x is a made-up word").kinds == ()
