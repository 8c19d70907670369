"""How a value a note states compares with what an infrastructure file says (issue #31).

Each rule is a function of two texts giving ``Match``: SAME, DIFFERENT, or UNKNOWN when the
file's value cannot be compared (a build argument, a digest, ``latest``, an alias). A note's
value is never compared as a string where the thing has a structure:

- images: ``python:3.11-slim`` is a ``python:3.11`` (and a ``python:3``), not a
  ``python:3.9`` nor a ``python:3.11-alpine``; ``docker.io/library/`` is ignored;
- versions: ``3.8`` is the series (``3.8.10`` is in it); a range ``3.10-3.12`` or a floor
  ``>=3.8`` is judged against every version a CI matrix lists (``versions_cover``); a file
  that states a range (``engines.node`` ``>=18``, node-semver syntax) holds a stated
  version when the whole series is in the range (Node 20 of ``>=18``), not when none of
  it is (Node 14); Go's ``go1.21.3`` is ``1.21.3``. The same rule serves Python, Node, Go
  and Rust versions (``VERSION_KEYS``);
- ports: ``8000``, ``8000/tcp``, compose's ``"8080:8000"`` (either side is "port 8000" or
  "port 8080"; a stated mapping must match both sides); ``127.0.0.1:8080`` is port 8080
  published on that address only (a mapping with no address publishes on every one);
- users: ``app`` is ``app:app``'s user, ``root`` is uid 0, ``!root`` any other user; a
  uid against a name cannot be told;
- commands: the stated words appear, in order, in the command.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from enum import StrEnum

from anchors.literals import same_value
from anchors.program_files import backend_family
from anchors.semver import allowed, relate
from anchors.versions import Relation

__all__ = [
    "NOT_ROOT",
    "VERSION_KEYS",
    "Match",
    "compare_action",
    "compare_backend",
    "compare_command",
    "compare_compiler_option",
    "compare_image",
    "compare_package_manager",
    "compare_plain",
    "compare_port",
    "compare_range",
    "compare_runner",
    "compare_user",
    "compare_version",
    "comparison_for",
    "image_repository",
    "is_list_key",
    "missing_versions",
    "versions_cover",
]


class Match(StrEnum):
    SAME = "same"
    DIFFERENT = "different"
    UNKNOWN = "unknown"


_S, _D, _U = Match.SAME, Match.DIFFERENT, Match.UNKNOWN
_VARIABLE = re.compile(r"\$\{?\{?\s*[A-Za-z_]")


def _computed(text: str | None) -> bool:
    return text is None or _VARIABLE.search(text) is not None


# -- images -----------------------------------------------------------------------------------
_REGISTRY_PREFIXES = ("docker.io/library/", "index.docker.io/library/", "library/",
                      "docker.io/", "index.docker.io/")  # fmt: skip
_TAG_PARTS = re.compile(r"^v?(?P<version>\d+(?:\.\d+)*)?(?:[-_.]?(?P<variant>[A-Za-z].*))?$")


def _image(text: str) -> tuple[str, str | None, bool]:
    """(repository, tag or None, has a digest), the Docker Hub prefixes removed."""
    ref = text.strip().strip("`'\"").lower()
    ref, at, _ = ref.partition("@")
    for prefix in _REGISTRY_PREFIXES:
        if ref.startswith(prefix):
            ref = ref[len(prefix) :]
            break
    head, colon, tag = ref.rpartition(":")
    if colon and "/" not in tag:
        return head, tag, bool(at)
    return ref, None, bool(at)


def image_repository(text: str) -> str:
    """An image reference's repository, lower-cased, without Docker Hub's prefixes, a tag
    or a digest: ``python`` of ``docker.io/library/python:3.11``, ``ghcr.io/org/app``."""
    return _image(text)[0]


def _version(text: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(p) for p in text.split("."))
    except ValueError:
        return None


def _series(stated: tuple[int, ...], actual: tuple[int, ...]) -> Match:
    """A stated version names a series: ``3.11`` holds ``3.11.4``; ``3.11.4`` against a
    floating ``3.11`` cannot be told."""
    if actual[: len(stated)] == stated:
        return _S
    if stated[: len(actual)] == actual:
        return _U
    return _D


def compare_image(stated: str, actual: str | None) -> Match:
    """A stated image (``python:3.11``, ``postgres``) against a file's image reference."""
    if _computed(actual) or _computed(stated):
        return _U
    assert actual is not None
    s_repo, s_tag, _ = _image(stated)
    a_repo, a_tag, a_digest = _image(actual)
    if s_repo != a_repo:
        return _D
    if s_tag is None:
        return _S
    if a_tag is None or a_tag == "latest":
        return _U if a_digest or a_tag == "latest" or s_tag != "latest" else _S
    if s_tag == a_tag:
        return _S
    s, a = _TAG_PARTS.match(s_tag), _TAG_PARTS.match(a_tag)
    if s is not None and a is not None and s["variant"] and a["variant"]:
        # "-slim" against "-alpine3.23": another family of image, whatever the version
        stems = re.findall(r"[a-z]+", a["variant"].lower())
        first = re.findall(r"[a-z]+", s["variant"].lower())[:1]
        if first and stems and first[0] not in stems:
            return _D
    if s is None or a is None or not s["version"] or not a["version"]:
        return _U  # an alias (lts, stable, bookworm): which version it is cannot be told
    version = _series(_version(s["version"]) or (), _version(a["version"]) or ())
    if version is not _S:
        return version
    s_variant, a_variant = s["variant"] or "", a["variant"] or ""
    s_stems, a_stems = _stems(s_variant), _stems(a_variant)
    if not s_variant:
        return _S
    if s_stems <= a_stems:
        s_numbers, a_numbers = _numbers(s_variant), _numbers(a_variant)
        if s_numbers <= a_numbers:
            return _S  # "-alpine" of "-alpine3.19"; "-slim" of "-slim-bookworm"
        return _D if a_numbers else _U  # "-alpine3.18" is not "-alpine3.19"
    if a_variant and s_stems & a_stems:
        return _U  # "-slim-bookworm" of "-slim": which release the image is cannot be told
    return _D


def _stems(variant: str) -> set[str]:
    return set(re.findall(r"[a-z]+", variant.lower()))


def _numbers(variant: str) -> set[str]:
    return set(re.findall(r"\d+(?:\.\d+)*", variant))


# -- versions ---------------------------------------------------------------------------------
_ACTUAL_VERSION = re.compile(r"^(?P<impl>pypy-?|cpython-?)?v?(?P<v>\d+(?:\.\d+)*)"
                             r"(?P<rest>[-.+]?(?:x|\*|dev|rc|alpha|beta|a|b)[\w.\-]*)?$",
                             re.IGNORECASE)  # fmt: skip


# The keys whose values are toolchain versions (``anchors.infra_facts``,
# ``anchors.toolchain_files``): compared by ``compare_version``, listed by CI matrices.
VERSION_KEYS = ("python-version", "node-version", "go-version", "go-toolchain", "rust-version",
                "go", "package.rust-version", "version", "package.version")
_GO_PREFIX = re.compile(r"^go(?=\d)", re.IGNORECASE)
_RANGE_ACTUAL = re.compile(r"^[\^~<>=]|\s-\s|\|\||\s")


def compare_version(stated: str, actual: str | None) -> Match:
    """One stated version (``3.8``) against one a file gives (``3.8.10``, ``3.x``,
    ``pypy3.9``, ``go1.21.3``, a range ``>=18``): the series, as ``_series`` says; an
    implementation other than CPython or a wildcard is never the same, at most unknown."""
    if _computed(actual):
        return _U
    assert actual is not None
    stated = _GO_PREFIX.sub("", stated.strip())
    actual = _GO_PREFIX.sub("", actual.strip().strip("'\""))
    if _RANGE_ACTUAL.search(actual):
        return _in_range(stated, actual)
    want = _version(stated.strip().lstrip("vV"))
    m = _ACTUAL_VERSION.match(actual)
    if want is None or m is None:
        return _U
    have = _version(m["v"])
    if have is None:
        return _U
    if (m["rest"] or "").lower().lstrip("-.+") in ("x", "*"):  # "3.x": any 3
        if want == have:  # "Node 18" of "18.x": the same series
            return _S
        return _U if want[: len(have)] == have else _D
    match = _series(want, have)
    if (m["impl"] or "").lower().startswith("pypy"):  # the language version, not CPython
        return _D if match is _D else _U
    return match


def _in_range(stated: str, actual: str) -> Match:
    """A stated version (its series: ``18`` is every 18.x) against a range a file states
    (``>=18``, ``^18.17 || >=20``): SAME when all of the series is in it, DIFFERENT when
    none of it is, else (``18`` of ``>=18.17``) unknown."""
    if _version(stated.lstrip("vV")) is None:
        return _U
    series, spans = allowed(stated, "npm"), allowed(actual, "npm")
    if series is None or spans is None:
        return _U
    return {Relation.SUBSET: _S, Relation.DISJOINT: _D}.get(relate(spans, series), _U)


_RANGE = re.compile(r"^(?P<lo>\d+(?:\.\d+)+)\s*(?:-|–|to|through|\.\.)\s*(?P<hi>\d+(?:\.\d+)+)$")
_FLOOR = re.compile(r"^(?:>=\s*(?P<a>\d+(?:\.\d+)*)|(?P<b>\d+(?:\.\d+)*)\s*\+)$")
_BOUNDED = re.compile(r"^>=\s*(?P<lo>\d+(?:\.\d+)+)\s*,\s*<=\s*(?P<hi>\d+(?:\.\d+)+)$")


def _needed(stated: str) -> list[str] | None:
    """The versions a stated set names, each of which must be tested: ``3.10-3.12`` gives
    3.10, 3.11, 3.12; ``>=3.8`` gives 3.8; ``3.8`` gives 3.8. None: not a version set."""
    s = stated.strip()
    m = _RANGE.match(s) or _BOUNDED.match(s)
    if m:
        lo, hi = _version(m["lo"]), _version(m["hi"])
        if lo is None or hi is None or len(lo) != 2 or len(hi) != 2 or lo[0] != hi[0]:
            return None
        if hi[1] < lo[1] or hi[1] - lo[1] > 20:
            return None
        return [f"{lo[0]}.{minor}" for minor in range(lo[1], hi[1] + 1)]
    floor = _FLOOR.match(s)
    if floor:
        return [floor["a"] or floor["b"]]
    return [s.lstrip("vV")] if _version(s.lstrip("vV")) is not None else None


def versions_cover(stated: str, actuals: Sequence[str | None]) -> Match:
    """Whether the versions a file lists (a CI matrix) include what ``stated`` names: every
    version of a range, the floor of ``>=3.8`` / ``3.8+``, or the one version. DIFFERENT
    when one named version is surely in no entry; UNKNOWN when an entry cannot be read."""
    needed = _needed(stated)
    if needed is None or not actuals:
        return _U
    verdicts = []
    for want in needed:
        matches = [compare_version(want, a) for a in actuals]
        verdicts.append(_S if _S in matches else _U if _U in matches else _D)
    if _D in verdicts:
        return _D
    return _S if all(v is _S for v in verdicts) else _U


def missing_versions(stated: str, actuals: Sequence[str | None]) -> list[str]:
    """The versions ``stated`` names that are surely in none of ``actuals``."""
    return [want for want in _needed(stated) or ()
            if all(compare_version(want, a) is _D for a in actuals)]  # fmt: skip


# -- ports, users, commands, runners, plain values ------------------------------------------
_PORT = re.compile(r"^(?P<port>\d+(?:-\d+)?)(?:/(?P<proto>tcp|udp|sctp))?$", re.I)


_IP = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}|localhost", re.I)


def _ports(text: str) -> tuple[str | None, str | None, str, str | None] | None:
    """(address, host port, container port, protocol) of ``8000``, ``8000/tcp``,
    ``8080:8000``, ``127.0.0.1:8080:8000`` or (stated) ``127.0.0.1:8080``, the port
    published on that address; None for any other form."""
    parts = text.strip().strip("`'\"").split(":")
    address = None
    if len(parts) >= 2 and _IP.fullmatch(parts[0]):
        address = "127.0.0.1" if parts[0].lower() == "localhost" else parts[0]
        parts = parts[1:]
    if len(parts) > 2:
        return None
    last = _PORT.match(parts[-1])
    host = parts[-2] if len(parts) == 2 else None
    if last is None or (host is not None and not re.fullmatch(r"\d+(?:-\d+)?", host)):
        return None
    return address, host, last["port"], last["proto"]


def _in(port: str, spec: str | None) -> bool:
    if spec is None:
        return False
    lo, _, hi = spec.partition("-")
    return int(lo) <= int(port) <= int(hi or lo)


def compare_port(stated: str, actual: str | None) -> Match:
    """``8000`` / ``8000/tcp`` / ``8080:8000`` against an EXPOSE or a compose mapping."""
    if _computed(actual):
        return _U
    assert actual is not None
    s, a = _ports(stated), _ports(actual)
    if s is None or a is None:
        return _U
    (s_address, s_host, s_port, s_proto), (a_address, a_host, a_port, a_proto) = s, a
    if s_proto and (a_proto or "tcp").lower() != s_proto.lower():
        return _D
    if s_address is not None and s_address != (a_address or "0.0.0.0"):
        return _D  # "on 127.0.0.1 only" against every interface, or another address
    if s_address is not None and s_host is None:
        return _S if _in(s_port, a_host or a_port) else _D  # the port published there
    if "-" in s_port or "-" in (s_host or ""):
        return _S if s == a else _U
    if s_host is not None:
        return _S if _in(s_host, a_host) and _in(s_port, a_port) else _D
    return _S if _in(s_port, a_port) or _in(s_port, a_host) else _D


NOT_ROOT = "!root"  # a USER value a note states: any user but root ("drops root")
_ROOT = ("root", "0")


def compare_user(stated: str, actual: str | None) -> Match:
    """``app`` against ``USER app:app``; ``root`` is uid ``0``; ``!root`` (``NOT_ROOT``) is
    any user but root; a numeric uid against a name cannot be told."""
    if _computed(actual):
        return _U
    assert actual is not None
    s = stated.strip().strip("`'\"").partition(":")[0]
    a = actual.strip().partition(":")[0]
    if s.startswith("!"):  # "!" is in no user's name: the user is anyone but that one
        return {_S: _D, _D: _S}.get(compare_user(s[1:], a), _U)
    if s == a:
        return _S
    if s in _ROOT or a in _ROOT:
        return _S if s in _ROOT and a in _ROOT else _D
    if s.isdigit() != a.isdigit():
        return _U
    return _D


def _words(text: str) -> list[str]:
    words = [w.strip("'\"") for w in text.replace(",", " ").split() if w.strip("'\"[]")]
    # "--port=8000" is "--port 8000"
    return [p for w in words for p in (w.split("=", 1) if w.startswith("--") else (w,))]


_WHOLE_VARIABLE = re.compile(r"^\$(?:\{[^}]*\}|[A-Za-z_@*]\w*)$")


def compare_command(stated: str, actual: str | None) -> Match:
    """The stated command's words appear, in order and together, in the file's command;
    ``!program`` is different where the command runs that program, and otherwise unknown.
    Where the command holds variables, an option it never passes is still different
    (``--host`` beside ``--port $PORT``), unless a variable stands for whole arguments
    (``$GUNICORN_ARGS``); any other difference may be the variables' doing."""
    if actual is None:
        return _U
    if stated.startswith("!"):  # "doesn't run gunicorn": different where the command does
        program = stated[1:].strip("`").casefold()
        ran = {w.rpartition("/")[2].casefold() for w in _words(actual)}
        return _D if program in ran else _U  # a script it runs may: never the same
    want, have = _words(stated.strip("`[]")), _words(actual)
    if not want:
        return _U
    n = len(want)
    if any(have[i : i + n] == want for i in range(len(have) - n + 1)):
        return _S
    if not _computed(actual):
        return _D
    if any(_WHOLE_VARIABLE.match(w) and not (i and have[i - 1].startswith("-"))
           for i, w in enumerate(have)):  # fmt: skip
        return _U  # "$ARGS" may be options; "--port $PORT" is the option's value
    options = {w for w in have if w.startswith("-")}
    return _D if any(w.startswith("-") and w not in options for w in want) else _U


def compare_runner(stated: str, actual: str | None) -> Match:
    """A CI runner: ``ubuntu`` is every ``ubuntu-*``; ``ubuntu-22.04`` against the
    moving ``ubuntu-latest`` cannot be told."""
    if _computed(actual):
        return _U
    assert actual is not None
    s, a = stated.strip().strip("`'\"").casefold(), actual.strip().casefold()
    if s == a or a.startswith(f"{s}-"):
        return _S
    if s.partition("-")[0] == a.partition("-")[0] and "latest" in (s + a):
        return _U
    return _D


def compare_path(stated: str, actual: str | None) -> Match:
    """A directory: the same path, whatever trailing slash either writes."""
    if _computed(actual):
        return _U
    assert actual is not None
    clean = stated.strip().strip("`'\"")
    return _S if clean.rstrip("/") == actual.strip().rstrip("/") else _D


def compare_plain(stated: str, actual: str | None) -> Match:
    """An environment value or a build argument: typed values (``anchors.literals``)."""
    if _computed(actual):
        return _U
    assert actual is not None
    return _S if same_value(actual, stated) else _D


Comparison = Callable[[str, str | None], Match]


def comparison_for(key: str) -> Comparison:
    """The rule that compares a value stated for ``key`` (see ``anchors.infra_facts``)."""
    last = key.rpartition(".")[2]
    if key == "FROM" or key.startswith("FROM.") or last == "image":
        return compare_image
    if key == "EXPOSE" or last == "ports":
        return compare_port
    if key in VERSION_KEYS:
        return compare_version
    if key == "USER":
        return compare_user
    if key == "WORKDIR":
        return compare_path
    if key in ("CMD", "ENTRYPOINT", "RUN") or last == "command":
        return compare_command
    if key == "runs-on":
        return compare_runner
    if key == "uses":
        return compare_action
    if key.startswith("engines."):
        return compare_range
    if key == "packageManager":
        return compare_package_manager
    if key.startswith("compilerOptions."):
        return compare_compiler_option
    if key == "build-system.build-backend":
        return compare_backend
    return compare_plain


def compare_backend(stated: str, actual: str | None) -> Match:
    """A build tool said ("setuptools", "poetry-core") and the backend the file names
    (``setuptools.build_meta``, ``poetry.core.masonry.api``): the same tool or not."""
    if actual is None:
        return _U
    return _S if backend_family(stated) == backend_family(actual) else _D


_FLOOR_OF = re.compile(r"^\s*>=?\s*v?(?P<major>\d+)")


def compare_range(stated: str, actual: str | None) -> Match:
    """A stated ``engines`` range (``>=18``, or a version: its series) against the one a
    ``package.json`` writes: SAME when they allow the same versions; DIFFERENT when they
    share none, or both are floors of different major versions (``>=18`` is not
    ``>=20``); else unknown (``>=18`` of ``>=18.12``: the note may round)."""
    if _computed(actual):
        return _U
    assert actual is not None
    stated = stated.strip().strip("`'\"")
    if _version(stated.lstrip("vV")) is not None:  # "engines.node is 20": the series
        return _in_range(stated, actual.strip())
    said, have = allowed(stated, "npm"), allowed(actual.strip(), "npm")
    if said is None or have is None:
        return _U
    if said == have:
        return _S
    if relate(said, have) is Relation.DISJOINT:
        return _D
    s, a = _FLOOR_OF.match(stated), _FLOOR_OF.match(actual)
    if s and a and "||" not in actual and s["major"] != a["major"]:
        return _D
    return _U


_MANAGER = re.compile(r"^(?P<tool>[a-z][\w.-]*)@v?(?P<v>\d+(?:\.(?:\d+|x|\*))*)", re.IGNORECASE)


def compare_package_manager(stated: str, actual: str | None) -> Match:
    """``yarn@4`` / ``yarn@4.x`` against ``packageManager``'s ``yarn@3.5.0+sha512...``: the
    same tool, and the stated version's series."""
    if _computed(actual):
        return _U
    assert actual is not None
    s, a = _MANAGER.match(stated.strip().strip("`'\"")), _MANAGER.match(actual.strip())
    if s is None or a is None:
        return _U
    if s["tool"].lower() != a["tool"].lower():
        return _D
    want = _version(re.sub(r"(?:\.(?:x|\*))+$", "", s["v"]))
    have = _version(a["v"])
    if want is None or have is None:
        return _U
    return _series(want, have)


# The same ECMAScript edition under two names
_ES_ALIASES = {"es6": "es2015", "es7": "es2016", "es8": "es2017", "es9": "es2018",
               "es10": "es2019", "es11": "es2020", "es12": "es2021", "es13": "es2022"}  # fmt: skip


def compare_compiler_option(stated: str, actual: str | None) -> Match:
    """A tsconfig compiler option: names compared case-blind (``ES2020`` is ``es2020``,
    ``ES6`` is ``ES2015``)."""
    if _computed(actual):
        return _U
    assert actual is not None

    def norm(text: str) -> str:
        low = text.strip().strip("`'\"").lower()
        return _ES_ALIASES.get(low, low)

    return _S if norm(stated) == norm(actual) else _D


def compare_action(stated: str, actual: str | None) -> Match:
    """A CI step's action: ``actions/setup-python`` is every ref of it; a stated ref
    (``@v5``) must be the same."""
    if _computed(actual):
        return _U
    assert actual is not None
    s_name, s_at, s_ref = stated.strip().strip("`'\"").casefold().partition("@")
    a_name, _, a_ref = actual.strip().casefold().partition("@")
    if s_name != a_name:
        return _D
    return _S if not s_at or s_ref == a_ref else _D


def is_list_key(key: str) -> bool:
    """Whether a file gives ``key`` several values of which a stated one need be only one
    (ports, a matrix of versions or runners, the CI jobs' images, the actions their steps
    run, a variable the jobs set)."""
    return key in ("EXPOSE", *VERSION_KEYS, "runs-on", "image", "uses", "RUN",
                   "build-tools") or key.endswith(
        ".ports") or key.startswith("env.") or _cargo_feature(key)


def _cargo_feature(key: str) -> bool:
    """``features.unstable-kv``: what a Cargo feature enables, one value each; not the
    default set (``features.default``, compared whole) nor one of its members."""
    return key.startswith("features.") and key.count(".") == 1 and key != "features.default"
