"""The finding for a ``config:`` anchor: what the infrastructure files say of one key,
compared with the value the anchor states (``anchors.infra_compare``), with a receipt that
quotes the file and line ("Dockerfile:1 says FROM python:3.11-slim, not python:3.9").

Unknown (never broken) when the files in scope were not read, state no value for the key,
state one the repository computes (``${TAG}``, an unexpanded expression) or disagree with
each other; a Dockerfile whose built image differs but an earlier stage matches cannot
tell which stage a note means.

A Dockerfile that states no USER runs as its base image's user: root for an official
image known to set none (``default_user``), so "USER=root" holds and any other user is
broken, with the file quoted; for any other base image, or an entrypoint that changes
user itself (``gosu``), it cannot be told.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from anchors.facts import Fingerprint
from anchors.finding import Finding, listed
from anchors.infra_compare import (
    NOT_ROOT,
    VERSION_KEYS,
    Match,
    compare_user,
    comparison_for,
    image_repository,
    is_list_key,
    missing_versions,
    versions_cover,
)
from anchors.infra_facts import InfraKind, InfraValue, infra_kind
from anchors.spec import Anchor
from anchors.toolchain_files import absence_settles, compared_text

__all__ = ["default_user", "find_config", "quoted"]

_VERSION_KEYS = VERSION_KEYS
_NONE_READ = "no Dockerfile, compose file, CI workflow, toolchain file or manifest"


def quoted(key: str, value: InfraValue) -> str:
    """How the file states it: ``FROM python:3.11-slim``, ``ENV DEBUG=0``,
    ``services.db.image: postgres:15``."""
    text = value.text if value.text is not None else "(computed)"
    head, dot, name = key.partition(".")
    if key.isupper() and not dot:
        return f"{key} {text}"
    if head in ("ENV", "ARG") and dot:
        return f"{head} {name}={text}"
    if head == "FROM" and dot:
        return f"FROM {text} AS {name}"
    return f"{key}: {text}"


def _files(anchor: Anchor, fp: Fingerprint) -> list[str] | Finding:
    """The infrastructure files the anchor is about, or the finding when there are none."""
    scope = anchor.scope
    if scope is None:
        files = sorted(fp.infra)
        if not files:
            return Finding((), None, f"the repository has {_NONE_READ}; cannot tell", False)
        return files
    tracked = fp.tracked_path(scope)
    if tracked is not None:
        files = [tracked] if tracked in fp.infra else []
    else:
        directory = fp.tracked_directory(scope)
        if directory is None:
            return Finding((), None, f"{scope} is not in the repository")
        files = sorted(p for p in fp.infra if p.startswith(f"{directory}/"))
    if not files:
        detail = f"{scope} is not a file that states {anchor.value} ({_NONE_READ}); cannot tell"
        return Finding((), None, detail, False)
    return files


def find_config(anchor: Anchor, fp: Fingerprint) -> Finding:
    """What ``fp``'s infrastructure files say of ``anchor.value`` (the key), compared with
    ``anchor.version`` (the stated value) when there is one; a program's option
    (``--port``) is its declaration's default (``anchors.option_binding``)."""
    if anchor.value.startswith("-"):
        from anchors.option_binding import find_option

        return find_option(anchor, fp)
    files = _files(anchor, fp)
    if isinstance(files, Finding):
        return files
    key, stated = anchor.value, anchor.version
    where = listed(files)
    unread = [p for p in files if fp.infra[p] is None]
    found = [(p, v) for p in files for v in fp.infra[p] or () if v.key == key]
    if not found:
        if unread:
            detail = f"{listed(unread)} could not be read (too large or not valid); cannot tell"
            return Finding((), None, detail, False)
        if key == "USER" and stated is not None:
            return _no_user(stated, files, fp)
        if stated is None:
            root = _no_user("root", files, fp) if key == "USER" else None
            if root is not None and root.found_in:  # what the absence means: root
                return Finding((), None, root.detail)
            return Finding((), None, f"{where} states no {key}")
        if key == "EXPOSE" and (said := _no_port(files, fp)) is not None:
            return Finding((), None, f"{said}, not {stated}")
        if absence_settles(key, [(infra_kind(p), fp.infra[p] or ()) for p in files]):
            return Finding((), None, f"{where} states no {key}, not {stated}")  # engines.node
        return Finding((), None, f"{where} states no {key}; cannot tell whether it is {stated}",
                       False)  # fmt: skip
    if stated is None:
        path, value = found[0]
        paths = tuple(sorted({p for p, _ in found}))
        return Finding(paths, None, f"{path}:{value.line} says {quoted(key, value)}")
    if key in _VERSION_KEYS:
        return _versions(key, stated, found)
    rule = comparison_for(key)
    judged = [(p, v, rule(stated, v.text)) for p, v in found]
    same = [(p, v) for p, v, m in judged if m is Match.SAME]
    different = [(p, v) for p, v, m in judged if m is Match.DIFFERENT]
    if same and (is_list_key(key) or len(same) == len(judged)):
        path, value = same[0]
        more = f" (and {len(same) - 1} more)" if len(same) > 1 and not is_list_key(key) else ""
        paths = tuple(sorted({p for p, _ in same}))
        return Finding(paths, None, f"{path}:{value.line} says {quoted(key, value)}{more}")
    if different and len(different) == len(judged):
        for path, value in different if key == "FROM" else ():
            stage = _matching_stage(stated, path, fp)
            if stage is not None:
                detail = (f"{path}:{value.line} builds the image FROM {value.text}, but "
                          f"{path}:{stage.line} says {quoted(stage.key, stage)}; cannot tell "
                          "which stage is meant")  # fmt: skip
                return Finding((), None, detail, False)
        said = "; ".join(f"{p}:{v.line} says {quoted(key, v)}" for p, v in different[:3])
        return Finding((), None, f"{said}, not {_shown(key, stated)}")
    if same and different:
        (p1, v1), (p2, v2) = same[0], different[0]
        detail = (f"{p1}:{v1.line} says {quoted(key, v1)}, but {p2}:{v2.line} says "
                  f"{quoted(key, v2)}; cannot tell which applies")  # fmt: skip
        return Finding((), None, detail, False)
    path, value = next((p, v) for p, v, m in judged if m is Match.UNKNOWN)
    detail = f"{path}:{value.line} says {quoted(key, value)}; cannot tell whether it is {stated}"
    return Finding((), None, detail, False)


def _shown(key: str, stated: str) -> str:
    """The stated value as a receipt says it: ``!root`` is "a user other than root",
    ``!gunicorn`` of a command "a command that does not run gunicorn"."""
    if key == "USER" and stated == NOT_ROOT:
        return "a user other than root"
    if key in ("CMD", "ENTRYPOINT") and stated.startswith("!"):
        return f"a command that does not run {stated[1:]}"
    return stated


# Official Docker Hub images that set no USER: a container of one runs as root unless the
# Dockerfile says otherwise. Any other base image (a distroless ``nonroot``, bitnami's, an
# organisation's own, or one of the official images that do set a user, such as
# elasticsearch or odoo) may set one: what it runs as cannot be told from the Dockerfile.
_ROOT_BY_DEFAULT = frozenset({
    "alpine", "almalinux", "amazonlinux", "archlinux", "busybox", "centos", "debian",
    "fedora", "oraclelinux", "rockylinux", "ubuntu", "buildpack-deps", "scratch",
    "python", "pypy", "node", "golang", "rust", "ruby", "php", "perl", "openjdk",
    "eclipse-temurin", "amazoncorretto", "gcc", "erlang", "elixir", "haskell", "julia",
    "swift", "nginx", "httpd", "tomcat",
})  # fmt: skip
# An entrypoint that changes the user itself: the image's USER is not the process's.
_DROPS_PRIVILEGES = re.compile(
    r"(?:^|[\s/])(?:gosu|su-exec|setpriv|runuser|setuidgid|s6-setuidgid|chpst|su|sudo)\s"
)


def default_user(image: str | None) -> str | None:
    """The user a container of ``image`` runs as when no USER says otherwise: ``root`` for
    an official image known to set none (``python:3.11-slim``, ``ubuntu:22.04``,
    ``docker.io/library/node:20``); None when it cannot be told (another image, a
    computed reference)."""
    if image is None or "$" in image:
        return None
    return "root" if image_repository(image) in _ROOT_BY_DEFAULT else None


# Official images that expose no port of their own: an image built FROM one of them exposes
# what its Dockerfile says, and nothing when that says nothing (a server image, nginx or
# httpd, exposes its own).
_NO_PORT_BY_DEFAULT = _ROOT_BY_DEFAULT - {"nginx", "httpd", "tomcat", "php"}


def _no_port(files: list[str], fp: Fingerprint) -> str | None:
    """What says that the Dockerfiles in scope, none of which states EXPOSE, expose no port:
    each builds FROM an official image that exposes none. None when that cannot be told
    (another base image, inherited EXPOSE)."""
    said = []
    for path in files:
        built = next((v for v in fp.infra[path] or () if v.key == "FROM"), None)
        if (infra_kind(path) is not InfraKind.DOCKERFILE or built is None or built.text is None
                or image_repository(built.text) not in _NO_PORT_BY_DEFAULT):  # fmt: skip
            return None
        said.append(f"{path} states no EXPOSE and {path}:{built.line} says "
                    f"{quoted('FROM', built)}, an image that exposes no port")  # fmt: skip
    return "; ".join(said[:3]) if said else None


def _no_user(stated: str, files: list[str], fp: Fingerprint) -> Finding:
    """A stated USER where the Dockerfiles in scope state none: the image runs as its base
    image's user, root for an official image that sets none (``default_user``)."""
    dockerfiles = [p for p in files if infra_kind(p) is InfraKind.DOCKERFILE]
    where = listed(files)
    if not dockerfiles:
        return Finding((), None, f"{where} states no USER; cannot tell whether it is "
                       f"{_shown('USER', stated)}", False)  # fmt: skip
    bases: list[str] = []
    for path in dockerfiles:
        values = fp.infra[path] or ()
        built = next((v for v in values if v.key == "FROM"), None)
        if built is None:
            return Finding((), None, f"{path} builds no image; cannot tell", False)
        said = f"{path} states no USER and {path}:{built.line} says {quoted('FROM', built)}"
        if default_user(built.text) != "root":
            detail = f"{said}, an image that may set its own user; cannot tell"
            return Finding((), None, detail, False)
        command = [v for v in values if v.key in ("ENTRYPOINT", "CMD") and v.text is not None
                   and _DROPS_PRIVILEGES.search(f" {v.text} ")]  # fmt: skip
        if command:
            run = command[0]
            detail = (f"{said}, but {path}:{run.line} says {quoted(run.key, run)}, which "
                      "changes user; cannot tell")  # fmt: skip
            return Finding((), None, detail, False)
        bases.append(said)
    said = "; ".join(bases[:3]) + ", so the image runs as root"
    if compare_user(stated, "root") is Match.SAME:
        return Finding(tuple(dockerfiles), None, said)
    return Finding((), None, said if stated == NOT_ROOT else f"{said}, not as {stated}")


def _matching_stage(stated: str, path: str, fp: Fingerprint) -> InfraValue | None:
    """An earlier stage of the Dockerfile at ``path`` whose base image is ``stated``."""
    compare = comparison_for("FROM")
    stages = [v for v in fp.infra.get(path) or () if v.key.startswith("FROM.")]
    return next((v for v in stages[:-1] if compare(stated, v.text) is Match.SAME), None)


def _versions(key: str, stated: str, found: Sequence[tuple[str, InfraValue]]) -> Finding:
    """A version or a set of versions against every one the files list (a CI matrix)."""
    # a go.mod's ``go 1.21`` and a Cargo.toml's rust-version are minimums (``>=1.21``)
    texts = [compared_text(infra_kind(p), v) for p, v in found]
    match = versions_cover(stated, texts)
    listed: dict[str, list[InfraValue]] = {}
    for path, value in found:
        listed.setdefault(path, []).append(value)
    said = "; ".join(
        f"{path}:{values[0].line} lists {key} "
        + ", ".join(dict.fromkeys(v.text or "(computed)" for v in values))
        for path, values in listed.items()
    )
    if match is Match.SAME:
        return Finding(tuple(listed), None, said)
    if match is Match.DIFFERENT:
        missing = missing_versions(stated, texts)
        gap = "" if missing == [stated] else f" ({', '.join(missing)} in none)"
        return Finding((), None, f"{said}, not {stated}{gap}")
    return Finding((), None, f"{said}; cannot tell whether it covers {stated}", False)
