"""Modules a Django settings module names as dotted strings, which Django imports.

``MIDDLEWARE = ["whitenoise.middleware.WhiteNoiseMiddleware"]``, ``INSTALLED_APPS =
["django_extensions"]``, ``REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES":
["rest_framework.authentication.TokenAuthentication"]}``, ``DEFAULT_FILE_STORAGE =
"storages.backends.s3boto3.S3Boto3Storage"``: Django loads each with ``import_string`` or
as an application, so the settings module uses those packages as surely as an import
statement would. They become ``ImportFact``s of the file marked ``SETTINGS_STRING``, so
``import:whitenoise`` and ``tech:whitenoise`` hold.

Only a settings module is read: one whose top level assigns ``INSTALLED_APPS`` or
``MIDDLEWARE``. Only strings that can only be module paths count: a dotted path ending in
a class name (``a.b.ClassName``) anywhere in a top-level assignment; any dotted or plain
module name inside ``INSTALLED_APPS``; a dotted module name as the value of an ``ENGINE`` or
``BACKEND`` key or of a setting named ``*_BACKEND``, ``*_ENGINE``, ``ROOT_URLCONF`` or
``*_APPLICATION``. Host names (``"example.com"``), time zones and the like never match.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from tree_sitter import Node

from anchors.facts import SETTINGS_STRING, ImportFact
from anchors.python_literals import string_value

__all__ = ["settings_imports"]

_SETTINGS = re.compile(rb"^(?:INSTALLED_APPS|MIDDLEWARE)\s*(?::[^=\n]*)?\+?=", re.MULTILINE)
_CLASS_PATH = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+\.[A-Z][A-Za-z0-9_]*")
_MODULE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)*")
_DOTTED_MODULE = re.compile(r"[a-z_][a-z0-9_]*(?:\.[a-z_][a-z0-9_]*)+")
_MODULE_SETTING = re.compile(r"(?:[A-Z_]+_BACKEND|[A-Z_]+_ENGINE|ROOT_URLCONF|[A-Z_]*APPLICATION)")
_MODULE_KEYS = frozenset({"ENGINE", "BACKEND"})
_CONTAINERS = frozenset({"list", "tuple", "set", "dictionary", "parenthesized_expression"})
_MAX_DEPTH = 6
MAX_STRINGS = 300


def settings_imports(source: bytes, root: Node) -> list[ImportFact]:
    """The modules the settings module ``source`` names (none when it is not one)."""
    if (b"INSTALLED_APPS" not in source and b"MIDDLEWARE" not in source) or not _SETTINGS.search(
        source
    ):
        return []
    found: list[ImportFact] = []
    for node in root.children:
        if node.type != "expression_statement" or not node.named_children:
            continue
        assign = node.named_children[0]
        if assign.type not in ("assignment", "augmented_assignment"):
            continue
        left, right = assign.child_by_field_name("left"), assign.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier":
            continue
        setting = (left.text or b"").decode()
        for text, key, line in _strings(right, "", 0):
            module = _module_of(text, setting, key)
            if module is not None:
                found.append(ImportFact(*module, SETTINGS_STRING, line))
        if len(found) >= MAX_STRINGS:
            break
    return found[:MAX_STRINGS]


def _module_of(text: str, setting: str, key: str) -> tuple[str, tuple[str, ...]] | None:
    """(module, imported names) a string names, or None when it may be anything else."""
    if _CLASS_PATH.fullmatch(text):
        module, _, name = text.rpartition(".")
        return module, (name,)
    if setting == "INSTALLED_APPS" and _MODULE.fullmatch(text):
        return text, ()
    if _DOTTED_MODULE.fullmatch(text) and (key in _MODULE_KEYS or (
            not key and _MODULE_SETTING.fullmatch(setting))):  # fmt: skip
        if setting.endswith("APPLICATION"):  # "config.wsgi.application": an attribute
            module, _, name = text.rpartition(".")
            return module, (name,)
        return text, ()
    return None


def _strings(node: Node, key: str, depth: int) -> Iterator[tuple[str, str, int]]:
    """(value, the dict key it sits under or "", line) of the plain strings in ``node``."""
    if node.type == "string":
        text = string_value(node)
        if text is not None:
            yield text, key, node.start_point[0] + 1
        return
    if depth >= _MAX_DEPTH:
        return
    if node.type == "pair":
        pair_key = node.child_by_field_name("key")
        value = node.child_by_field_name("value")
        name = string_value(pair_key) if pair_key is not None else None
        if value is not None:
            yield from _strings(value, name or "", depth + 1)
        return
    if node.type == "binary_operator" or node.type in _CONTAINERS:
        for child in node.named_children:
            yield from _strings(child, key if node.type != "dictionary" else "", depth + 1)
    elif node.type == "call":  # dict(ENGINE="...") and the like
        arguments = node.child_by_field_name("arguments")
        for arg in arguments.named_children if arguments is not None else ():
            if arg.type == "keyword_argument":
                name_node, value = arg.child_by_field_name("name"), arg.child_by_field_name("value")
                if name_node is not None and value is not None:
                    yield from _strings(value, (name_node.text or b"").decode(), depth + 1)
            else:
                yield from _strings(arg, key, depth + 1)
