"""Mentions in C-like source code: comments left out, string literals kept whole."""

from __future__ import annotations

from anchors.mentions import MAX_TEXT_BYTES, scan_code_mentions, scan_mentions

HANDLER_TS = b"""\
/**
 * Formerly backed by redis; see the migration notes.
 */
import axios from "axios"; // replaced lodash here
const url = "https://postgres.example.com/db"; // not mongodb
const tpl = `kafka://broker
// nats stays: this line is inside a template string`;
const quote = 'it\\'s celery // still a string';
let ratio = a / b; /* sentry */ let other = c / d;
"""


def test_block_and_trailing_comments_are_dropped_strings_are_kept() -> None:
    found = set(scan_code_mentions(HANDLER_TS))
    assert {"axios", "postgres", "kafka", "nats", "celery"} <= found
    assert not {"redis", "lodash", "mongodb", "sentry"} & found


def test_whole_line_comments_go_as_with_scan_mentions_without_comments() -> None:
    source = b"// uses redis\nimport 'axios';\n"
    assert scan_code_mentions(source) == scan_mentions(source, comments=False) == ("axios",)


def test_rust_lifetimes_and_chars_do_not_hide_code_or_swallow_comments() -> None:
    source = (
        b"fn f<'a>(x: &'a str) -> Redis<'a> { x } // celery\n"
        b'let q = \'"\'; let k = "kafka"; // mongodb\n'
    )
    found = set(scan_code_mentions(source))
    assert {"redis", "kafka"} <= found
    assert not {"celery", "mongodb"} & found


def test_go_raw_strings_and_rune_literals_are_strings() -> None:
    source = b"var dsn = `postgres://x // redis`\nvar r = '/' // kafka\n"
    found = set(scan_code_mentions(source))
    assert {"postgres", "redis"} <= found and "kafka" not in found


def test_an_unclosed_block_comment_or_string_does_not_raise() -> None:
    assert "kafka" not in scan_code_mentions(b"let a = 1; /* kafka never closes\n")
    assert "redis" in scan_code_mentions(b'let s = "redis never closes\n// mongodb\n')


def test_binary_or_oversized_content_has_no_mentions() -> None:
    assert scan_code_mentions(b"\0redis") == ()
    assert scan_code_mentions(b"redis " * (MAX_TEXT_BYTES // 6 + 1)) == ()


def test_a_line_of_unclosed_quotes_is_scanned_once() -> None:
    # Each unclosed quote scanned again to the line's end would take hours on this line
    # (the suite's per-test timeout fails it); scanned once, it is read like any other.
    line = b"'\\'" * 200_000 + b" redis"
    assert scan_code_mentions(line + b"\n") == ("redis",)
    assert scan_code_mentions(b'"\\"' * 200_000 + b"\nimport 'kafka'\n") == ("kafka",)


def test_a_urls_path_names_nothing_its_scheme_and_host_do() -> None:
    """``https://github.com/tokio-rs/tracing`` is an organisation's page, not a use of tokio;
    ``redis://`` and ``o1.ingest.sentry.io`` are what the code talks to."""
    found = scan_mentions(
        b'logo = "https://raw.githubusercontent.com/tokio-rs/tracing/master/logo.png"\n'
        b'BROKER = "redis://localhost:6379/0"\nDSN = "https://key@o1.ingest.sentry.io/42"\n'
        b"docs: https://docs.example.org/celery/stable\n"
    )
    assert "tokio" not in found and "celery" not in found
    assert {"redis", "sentry"} <= set(found)
