"""What an infrastructure file states, as the fingerprint keeps it: the kind of file
(``InfraKind``) and each value read from it (``InfraValue``).

Its own module because the readers and the records that hold their values both need it:
``anchors.infra_facts`` and ``anchors.toolchain_files`` produce these values, and
``anchors.facts`` (which the manifest readers behind ``anchors.toolchain_files`` import)
keeps them in the fingerprint.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

__all__ = ["InfraKind", "InfraValue"]


class InfraKind(StrEnum):
    DOCKERFILE = "dockerfile"
    COMPOSE = "compose"
    GITHUB_WORKFLOW = "github_workflow"
    GITLAB_CI = "gitlab_ci"
    NODE_VERSION_FILE = "node_version_file"  # .nvmrc, .node-version
    TOOL_VERSIONS = "tool_versions"  # asdf's and mise's .tool-versions
    RUST_TOOLCHAIN = "rust_toolchain"  # rust-toolchain, rust-toolchain.toml
    PACKAGE_JSON = "package_json"
    GO_MOD = "go_mod"
    CARGO_TOML = "cargo_toml"
    TSCONFIG = "tsconfig"  # tsconfig.json, tsconfig.*.json, jsconfig.json
    INI = "ini"  # an application's own settings file: ``*.cfg``, ``*.ini``, ``*.conf``
    YAML_SETTINGS = "yaml_settings"  # one in YAML: ``config.yaml``, ``example-config.yml``
    PYPROJECT = "pyproject"  # its console scripts and build backend


@dataclass(frozen=True)
class InfraValue:
    """One value an infrastructure file states: ``text`` as written (None: computed)."""

    key: str
    text: str | None
    line: int
