"""A Python program's command-line options and their defaults (anchors.cli_options), read
from argparse, optparse, click and typer declarations, never run."""

from __future__ import annotations

import pytest

from anchors.pyfacts import extract_file_facts
from anchors.spec import AnchorSyntaxError, parse_anchor

CLI = b'''\
import argparse
import click
import typer

parser = argparse.ArgumentParser()
parser.add_argument("-p", "--port", type=int, default=8080, help="port")
parser.add_argument("--debug", action="store_true")
parser.add_argument("--quiet", action="store_false")
parser.add_argument("--name")
parser.add_argument("--tags", action="append")
parser.add_argument("--workers", default=os.cpu_count())
parser.add_argument("path")
options.add_option("-H", "--host", dest="host", default="127.0.0.1")


@click.command()
@click.option("--retries", default=4)
@click.option("--reload", is_flag=True)
def main(retries, reload):
    pass


def cli(size: int = typer.Option(10, "--size", "-s")):
    pass
'''


def test_each_declared_option_is_named_by_its_long_flag_with_its_default() -> None:
    """A literal default as written; a stored flag's False or True; None where argparse,
    optparse and click give none; computed (None) where the code computes it or an action
    collects values; a positional argument is no option."""
    found = {c.name: (c.text, c.line) for c in extract_file_facts(CLI).constants
             if c.name.startswith("-")}  # fmt: skip
    assert found == {
        "--port": ("8080", 6), "--debug": ("False", 7), "--quiet": ("True", 8),
        "--name": ("None", 9), "--tags": (None, 10), "--workers": (None, 11),
        "--host": ('"127.0.0.1"', 13), "--retries": ("4", 17), "--reload": ("False", 18),
        "--size": ("10", 23),
    }  # fmt: skip


def test_an_options_value_anchor_parses_and_renders_back() -> None:
    for text in ("config:app/cli.py::--port=8080", "config:--host=127.0.0.1", "config:-v"):
        assert parse_anchor(text).render() == text


def test_only_a_config_key_may_start_with_a_dash() -> None:
    """Nothing else that starts with ``-`` is an anchor: a value never reaches a command as
    an option (``file:--output=x``), and a config key is an option's name, not a path."""
    for text in ("file:--output=x", "symbol:-x", "config:--port::x", "config:---=1"):
        with pytest.raises(AnchorSyntaxError):
            parse_anchor(text)


def test_an_option_read_from_the_environment_too_is_a_read_with_the_options_default() -> None:
    facts = extract_file_facts(
        b"import click\nimport configargparse\n\np = configargparse.ArgumentParser()\n"
        b'p.add_argument("--web-port", type=int, default=8089, env_var="APP_WEB_PORT")\n'
        b'p.add_argument("--headless", action="store_true", env_var="APP_HEADLESS")\n\n\n'
        b'@click.option("--workers", envvar="APP_WORKERS", default=4)\ndef main(workers):\n'
        b"    return workers\n"
    )
    assert facts.env_reads == ("APP_WEB_PORT", "APP_HEADLESS", "APP_WORKERS")
    assert [(v.name, v.text) for v in facts.env_defaults] == [
        ("APP_WEB_PORT", "8089"), ("APP_HEADLESS", "False"), ("APP_WORKERS", "4")]
