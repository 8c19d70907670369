"""One error tree: every exception class anchormem defines derives from ``AnchormemError``,
and the tree drawn in ``store.errors`` is the tree the code has."""

from __future__ import annotations

import importlib
import inspect
import pkgutil
import re

import pytest

import store.errors
from anchors.errors import AnchormemError

PACKAGES = ("anchors", "store", "experiments", "server")

# Exception classes that stay outside the tree, each with the reason.
OUTSIDE: dict[str, str] = {
    # A signal from the build thread to CodeSource._finish, which turns it into
    # FingerprintUnavailable: it never leaves anchors.fingerprint.
    "anchors.fingerprint._Closed": "internal signal, mapped to FingerprintUnavailable",
    # A signal inside OwnerLink.connect: an older owner was asked to stop, try again.
    "store.sharing.client._OlderOwner": "internal signal, never leaves OwnerLink.connect",
    # Signals from the inotify watcher to WorkTree, which falls back to the full pass on
    # either: they never leave anchors.worktree (adr/0018).
    "anchors.watcher.WatchLost": "internal signal, caught by WorkTree (full pass)",
    "anchors.watcher.WatchUnavailable": "internal signal, caught by WorkTree (no watcher)",
    # An OSError on purpose: the readers of files already handle OSError; where it leaves
    # them it becomes GitError (anchors.gitrepo), SetupError or StoreUnavailable.
    "anchors.worktree_files.SpecialFile": "an OSError for file readers, mapped where it leaves",
}


def _modules() -> list[str]:
    names = []
    for package in PACKAGES:
        root = importlib.import_module(package)
        names.append(package)
        names.extend(m.name for m in pkgutil.walk_packages(root.__path__, f"{package}."))
    return names


def _defined_exceptions() -> dict[str, type[BaseException]]:
    found: dict[str, type[BaseException]] = {}
    for name in _modules():
        module = importlib.import_module(name)
        for _, value in inspect.getmembers(module, inspect.isclass):
            if issubclass(value, BaseException) and value.__module__ == name:
                found[f"{name}.{value.__qualname__}"] = value
            # Classes nested in a class (rare) are found through their owner.
            if value.__module__ == name:
                for _, inner in inspect.getmembers(value, inspect.isclass):
                    if issubclass(inner, BaseException) and inner.__module__ == name:
                        found[f"{name}.{inner.__qualname__}"] = inner
    return found


DEFINED = _defined_exceptions()


def test_the_walk_finds_the_errors_of_every_package():
    found = {name.split(".", 1)[0] for name in DEFINED}
    assert {"anchors", "store", "experiments"} <= found
    assert "anchors.spec.AnchorSyntaxError" in DEFINED
    assert "experiments.facts.FactsError" in DEFINED


@pytest.mark.parametrize("name", sorted(DEFINED))
def test_every_exception_class_derives_from_anchormem_error(name: str):
    cls = DEFINED[name]
    if name in OUTSIDE:
        assert not issubclass(cls, AnchormemError), f"{name} is in the tree: drop the exception"
        return
    assert issubclass(cls, AnchormemError), (
        f"{name} derives from {[b.__name__ for b in cls.__mro__[1:]]}, not AnchormemError: put"
        " it under a branch of the tree (store/errors.py draws it), or list it in OUTSIDE"
        " with the reason"
    )


def test_the_exceptions_listed_outside_the_tree_still_exist():
    assert set(OUTSIDE) <= set(DEFINED)


def _drawn_tree() -> dict[str, str | None]:
    """``{class name: parent name}`` from the tree in the ``store.errors`` docstring."""
    parents: dict[str, str | None] = {}
    stack: list[str] = []
    for line in (store.errors.__doc__ or "").splitlines():
        if line.strip() == "AnchormemError" or line.strip().startswith("AnchormemError "):
            parents["AnchormemError"] = None
            stack = ["AnchormemError"]
            continue
        match = re.match(r"^([ │]*)[├└]── (\w+)", line)
        if match is None:
            continue
        depth = len(match.group(1)) // 4  # the root's column, then 4 columns a level
        stack = stack[:depth]
        parents[match.group(2)] = stack[-1]
        stack.append(match.group(2))
    return parents


def test_the_tree_in_store_errors_is_the_tree_of_the_code():
    drawn = _drawn_tree()
    assert drawn.get("AnchormemError", "missing") is None, "the drawing lost its root"
    in_tree = {cls.__name__: cls for cls in DEFINED.values() if issubclass(cls, AnchormemError)}
    in_tree["AnchormemError"] = AnchormemError
    assert set(drawn) == set(in_tree), "store/errors.py must draw every class of the tree"
    for name, parent in drawn.items():
        if parent is not None:
            bases = {b.__name__ for b in in_tree[name].__bases__}
            assert parent in bases, f"{name} is drawn under {parent} but derives from {bases}"


def test_store_errors_re_exports_the_root_and_the_input_and_code_branches():
    import anchors.errors

    for name in ("AnchormemError", "InvalidInput", "CodeError", "RepositoryError"):
        assert getattr(store.errors, name) is getattr(anchors.errors, name)
