"""A throwaway git repository with one commit, for the harness scripts beside this file."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Mapping
from pathlib import Path


def make_repo(root: Path, files: Mapping[str, str]) -> None:
    """Write ``files`` under ``root`` and commit them with a fixed identity."""
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "anchormem-harness",
        "GIT_AUTHOR_EMAIL": "harness@example.com",
        "GIT_COMMITTER_NAME": "anchormem-harness",
        "GIT_COMMITTER_EMAIL": "harness@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
    }
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    for args in (["init", "-q", "-b", "main"], ["add", "-A"], ["commit", "-q", "-m", "init"]):
        subprocess.run(["git", *args], cwd=root, env=env, check=True, capture_output=True)
