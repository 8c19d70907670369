"""What CI runs: "CI lints the code with flake8" is checked in the CI configuration.

A tool the project uses somewhere (``[tool.flake8]`` in ``pyproject.toml``) does not make
the sentence true: CI may lint with ruff. When the sentence's subject is CI (``CI``, ``the
CI job``, ``GitHub Actions``, ``the pipeline``, "in CI, ..."), the tool is looked for in
the CI files (``.github/workflows/*``, ``.gitlab-ci.yml`` and the like): named there, the
anchor is scoped to them and holds; named nowhere in them, the relation is an uncovered
part (CI often runs a tool through ``tox``, ``make``, ``nox`` or ``pre-commit``, which the
fingerprint does not follow), so the note is served partly checked, never VERIFIED on the
project using the tool elsewhere, and never refuted for it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.vocabulary import by_name

__all__ = ["CiReading", "ci_files", "read_ci_claim"]

# The subject of a sentence about CI, at the start of the clause or after "in/on CI,".
_CI_SUBJECT = re.compile(
    r"(?:^|[.;:]\s+)(?:(?:in|on|during)\s+(?:the\s+)?(?:ci|continuous\s+integration),?\s+"
    r"|(?:the\s+|our\s+)?(?:ci|ci/cd|continuous\s+integration|github\s+actions?|gitlab\s+ci"
    r"|(?:ci|github|gitlab)?\s*(?:pipelines?|workflows?|jobs?)|ci\s+(?:pipelines?|workflows?"
    r"|jobs?|runs?|builds?))\b)",
    re.IGNORECASE,
)
# Systems that are CI itself: checked by their own files, not as a tool CI runs.
_CI_SYSTEMS = frozenset(
    {"github-actions", "gitlab", "gitlab-ci", "circleci", "travis-ci", "travis", "jenkins",
     "azure-pipelines", "buildkite", "drone", "woodpecker", "github"}
)  # fmt: skip
_CI_NAMES = frozenset(
    {".gitlab-ci.yml", ".travis.yml", "azure-pipelines.yml", "jenkinsfile",
     "bitbucket-pipelines.yml", ".drone.yml", ".woodpecker.yml", "appveyor.yml",
     ".appveyor.yml", "cloudbuild.yaml", "cloudbuild.yml"}
)  # fmt: skip
_CI_FOLDERS = (".github/workflows/", ".circleci/", ".woodpecker/", ".buildkite/")


class CiReading(NamedTuple):
    """The anchors that check a tool CI is said to run (scoped to the CI files), or the
    uncovered part when the CI files do not name it."""

    anchors: list[Anchor]
    part: str | None


def ci_files(fp: Fingerprint) -> frozenset[str]:
    """The CI configuration files of the repository (found once per fingerprint)."""
    return fp.derived("ci_binding.files", _ci_files)


def _ci_files(fp: Fingerprint) -> frozenset[str]:
    return frozenset(p for p in fp.blobs if p.lower() in _CI_NAMES or p.startswith(_CI_FOLDERS))


def read_ci_claim(
    text: str, spans: Sequence[tuple[int, int, bool]], at: int, name: str,
    outcome: Sequence[Anchor], fp: Fingerprint,
) -> CiReading | None:  # fmt: skip
    """For a technology named at ``text[at:]`` (``name`` as written, with the project-wide
    ``outcome`` anchors) in a sentence whose subject is CI: its check in the CI files.
    None when the sentence is not about CI, or the thing named is CI itself."""
    techs = [a for a in outcome if a.kind is AnchorKind.TECH and a.expect is Expect.PRESENT
             and a.scope is None]  # fmt: skip
    if not techs or len(techs) != len(outcome):
        return None
    sentence = next(((s, e) for s, e, _q in spans if s <= at < e), None)
    if sentence is None or not _about_ci(text, sentence[0], at):
        return None
    tech = by_name(techs[0].value)
    if tech is None or tech.name in _CI_SYSTEMS:
        return None
    files = ci_files(fp)
    tokens = {t.lower() for t in (*tech.mention_tokens, *tech.dists, tech.name)}
    named = sorted({p for t in tokens for p in fp.mentioned_in(t) if p in files})
    if named:
        folder = next((f.rstrip("/") for f in _CI_FOLDERS if named[0].startswith(f)), named[0])
        return CiReading([Anchor(AnchorKind.TECH, tech.name, scope=folder)], None)
    return CiReading(list(outcome), f"that CI runs {name}")


def _about_ci(text: str, start: int, at: int) -> bool:
    """Whether the clause before position ``at`` opens with CI as its subject."""
    head = text[start:at]
    return any(m.end() <= len(head) for m in _CI_SUBJECT.finditer(head))
