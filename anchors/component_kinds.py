"""A part of an application named by its kind: "the sync-exercises management command",
"the counters plugin", "the auth middleware", "the `Accounts` app".

Frameworks keep such parts in folders named for their kind (Django's
``management/commands/``, ``plugins/``, ``middleware/``, ``views/``, ``handlers/``). A name
followed by a kind word is the file or directory of that name (hyphens as underscores,
any case) directly inside a folder of that kind, when exactly one matches. Where none
matches but the project has exactly one folder of that kind, the part would be there
(``missing``): a note that says it exists is wrong about that place.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from anchors.facts import Fingerprint
from anchors.mentions import tool_area

__all__ = ["KIND_WORDS", "KindPath", "kind_path"]

# A kind, as a note names it (singular or plural), and the folders that hold that kind.
_FOLDERS = {
    "plugin": ("plugins", "plugin"),
    "command": ("commands",),
    "middleware": ("middleware", "middlewares"),
    "view": ("views",),
    "model": ("models",),
    "app": ("apps", "contrib"),
    "extension": ("extensions", "ext"),
    "handler": ("handlers",),
    "backend": ("backends",),
    "service": ("services",),
    "migration": ("migrations",),
    "task": ("tasks",),
    "hook": ("hooks",),
    "router": ("routers",),
    "route": ("routes",),
    "controller": ("controllers",),
    "component": ("components",),
    "page": ("pages",),
    "store": ("stores",),
    "serializer": ("serializers",),
    "schema": ("schemas",),
    "blueprint": ("blueprints",),
    "job": ("jobs",),
    "worker": ("workers",),
    "endpoint": ("endpoints",),
    "provider": ("providers",),
    "adapter": ("adapters",),
    "cog": ("cogs",),
}
KIND_WORDS = frozenset(_FOLDERS) | frozenset(f"{k}s" for k in _FOLDERS)
_SUFFIX = re.compile(r"\.(?:py|ts|tsx|js|jsx|mjs|go|rs|vue|svelte)$")


class KindPath(NamedTuple):
    """Where a named part of a kind is (``path``), or would be (``missing``: no such part
    in the one folder of that kind)."""

    path: str
    missing: bool


def _key(name: str) -> str:
    return name.lower().replace("-", "_")


def _index(fp: Fingerprint) -> dict[str, dict[str, set[str]]]:
    """Each kind folder's name to {child key: child paths}, from every tracked path."""
    index: dict[str, dict[str, set[str]]] = {}
    folders = {f for names in _FOLDERS.values() for f in names}
    for path in fp.blobs:
        parts = path.split("/")
        for i, part in enumerate(parts[:-1]):
            if part.lower() in folders:
                child = parts[i + 1]
                key = _key(_SUFFIX.sub("", child))
                place = "/".join(parts[: i + 2])
                if child.startswith(("_", ".")) or key == "__init__":
                    key, place = "", "/".join(parts[: i + 1])  # the folder itself, kept
                index.setdefault(part.lower(), {}).setdefault(key, set()).add(place)
    return index


def _outside_tests(places: set[str]) -> set[str]:
    """``places`` without those in tests or a sub-project (``tests/plugins/``), unless
    nothing else is left."""
    kept = {p for p in places if not tool_area(p)}
    return kept or places


def kind_path(name: str, kind: str, fp: Fingerprint) -> KindPath | None:
    """The one file or directory named ``name`` in a folder of ``kind`` ("plugin",
    "commands"), or where it would be; None when the kind is none the module knows, or
    several places match, or none does and the kind's folder is not one."""
    singular = kind.lower().removesuffix("s") if kind.lower() not in _FOLDERS else kind.lower()
    folders = _FOLDERS.get(singular)
    if folders is None:
        return None
    index = fp.derived("components.kinds", _index)
    key = _key(name)
    found = _outside_tests({p for f in folders for p in index.get(f, {}).get(key, ())})
    if len(found) == 1:
        return KindPath(found.pop(), False)
    if found:
        return None
    homes = {p for f in folders for p in index.get(f, {}).get("", ())}
    homes |= {p.rpartition("/")[0] for f in folders for paths in index.get(f, {}).values()
              for p in paths if p.count("/")}  # fmt: skip
    homes = _outside_tests({h for h in homes if h.rpartition("/")[2].lower() in folders})
    if len(homes) == 1:
        return KindPath(f"{homes.pop()}/{key}", True)
    return None


_KIND_ALT = "|".join(sorted(KIND_WORDS, key=len, reverse=True))
_NAME = r"`?(?P<name>[A-Za-z][\w-]*)`?"
# "kinto has no counters plugin", "the app ships a `sync-exercises` command", "there is no
# audit middleware", "doesn't have an accounts app"
_HAS = re.compile(
    rf"\b(?:(?P<not>does\s*n[o']t\s+have|do\s*n[o']t\s+have|lacks)\s+|(?:has|have|ships|"
    rf"provides|includes|contains|comes\s+with)\s+(?P<no>no\s+|not\s+(?:a|an|any)\s+)?)"
    rf"(?:(?:a|an|any|its\s+own|the)\s+)?{_NAME}\s+(?P<kind>{_KIND_ALT})\b"
    rf"|\bthere\s+(?:is|are)\s+(?P<none>no\s+)?(?:(?:a|an)\s+)?{_NAME.replace('name', 'name2')}\s+"
    rf"(?P<kind2>{_KIND_ALT})\b",
    re.IGNORECASE,
)
_NOT_A_NAME = frozenset({
    "custom", "new", "single", "separate", "own", "default", "builtin", "built-in", "extra",
    "simple", "small", "dedicated", "generic", "special", "few", "many", "several", "other",
    "second", "third", "first", "main", "real", "proper", "such", "same", "that", "this",
})  # fmt: skip


def part_claims(text: str, fp: Fingerprint) -> list[tuple[str, bool, KindPath, str]]:
    """Parts a note says the project has or lacks: (the words read, absent, where, name)."""
    found = []
    for m in _HAS.finditer(text):
        name = m.group("name") or m.group("name2")
        kind = m.group("kind") or m.group("kind2")
        if name.lower() in _NOT_A_NAME or name.lower() in KIND_WORDS:
            continue
        absent = bool(m.group("not") or m.group("no") or m.group("none"))
        where = kind_path(name, kind, fp)
        if where is None or (where.missing and not absent and not re.search(r"[-_`]", m.group())):
            # nothing to check; where a part would be is taken for a claim that it exists
            # only for a name written as code ("a tracing plugin" may be a description)
            continue
        found.append((m.group(), absent, where, name))
    return found
