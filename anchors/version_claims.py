"""Versions stated in prose: the constraint after a package name ("httpx>=0.27", "the
pygments requirement is ^2.6.0", "idna is pinned below 3"), and the Python versions a
project is said to support ("requires Python 3.8+", "Python 2 support was dropped").
"""

from __future__ import annotations

import dataclasses
import re

from anchors.candidates import _I, _Cand, _Mode
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.subject import Spans
from anchors.versions import poetry_to_pep440

_OP = r"(?:===|==|~=|!=|<=|>=|<|>)"
_SPEC_AFTER = re.compile(rf"\s*(?P<spec>{_OP}\s*v?\d[\w.*+!-]*(?:\s*,\s*{_OP}\s*v?\d[\w.*+!-]*)*)")
_WORDED = (
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:below|under|before|older\s+than)\s+v?(\d[\w.]*)",
                _I), "<"),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:above|after|newer\s+than)\s+v?(\d[\w.]*)",
                _I), ">"),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:at\s+least|from)\s+v?(\d[\w.]*)", _I), ">="),
    (re.compile(r"\s+(?:is\s+)?(?:pinned\s+)?(?:at\s+most|up\s+to)\s+v?(\d[\w.]*)", _I), "<="),
    (re.compile(r"\s+v?(\d[\w.]*)\s+or\s+(?:newer|later|higher|above|up)\b", _I), ">="),
    (re.compile(r"\s+(?:is\s+)?pinned\s+(?:to|at)\s+v?(\d[\w.]*)", _I), "=="),
    # "pflag is required at v1.0.5 in go.mod": the version a manifest names
    (re.compile(r"\s+(?:is\s+)?(?:required|declared|locked)\s+(?:at|as)\s+v?(\d[\w.\-+]*\w)",
                _I), "=="),
)  # fmt: skip


_POETRY_AFTER = re.compile(
    r"\s+(?:requirement|dependency|pin|version|constraint)?\s*(?:is|of|at|=)?\s*`?"
    r"(?P<spec>[\^~]\s*\d[\w.*]*)", _I
)


_EXACT_VERSION = re.compile(
    r"\s+(?:requirement|dependency|pin|version|constraint)?\s*(?:is|=)?\s*`?[\^~]"
    r"|\s+(?:is\s+)?pinned\s+(?:to|at)\b", _I
)


# "bleach is pinned to ~=3.3", "django is constrained to >=4.2,<5": a specifier after a verb
_PINNED_SPEC = re.compile(
    r"\s+(?:is\s+|are\s+)?(?:pinned|constrained|locked|capped|declared|required)\s+"
    r"(?:to|at|as|with)\s+`?(?=[<>=!~])", _I
)


def _version_after(text: str, at: int) -> str | None:
    """A version constraint stated right after a package name: ``httpx>=0.27``, Poetry's
    ``^2.6.0`` ("the pygments requirement is ^2.6.0"), or in words ("idna is pinned below 3",
    "pytest 8 or newer", "bleach is pinned to ~=3.3"), as a PEP 440 specifier."""
    pinned = _PINNED_SPEC.match(text, at)
    m = _SPEC_AFTER.match(text, pinned.end() - 1 if pinned else at)
    if m:  # (not the full stop ending the sentence: "pinned to ~=3.3.")
        return re.sub(r"\s+", "", m.group("spec")).rstrip(".") + _upper_bound(text, m.end())
    p = _POETRY_AFTER.match(text, at)
    if p:
        return poetry_to_pep440(re.sub(r"\s+", "", p.group("spec")).rstrip(".")) or ""
    for pattern, op in _WORDED:
        w = pattern.match(text, at)
        if w:
            bound = _upper_bound(text, w.end()) if op.startswith(">") else ""
            return f"{op}{w.group(1).rstrip('.').removesuffix('.x')}{bound}"
    return None


# "urllib3>=1.21 and below 3", "at least 2.0, but under 3": the upper bound said after
_AND_BELOW = re.compile(
    r"\s*(?:,\s*)?(?:and|but)?\s+(?:below|under|before|less\s+than|lower\s+than)\s+"
    r"v?(\d+(?:\.\d+)*)", _I
)


def _upper_bound(text: str, at: int) -> str:
    m = _AND_BELOW.match(text, at)
    return f",<{m.group(1)}" if m else ""


def _with_version(outcome: list[Anchor], spec: str, c: _Cand) -> list[Anchor]:
    """The claim is about the declared version: the package's dependency anchor with it."""
    out = []
    for anchor in outcome:
        if anchor.kind is AnchorKind.DEP:
            out.append(dataclasses.replace(anchor, version=spec))
        elif anchor.kind is AnchorKind.TECH and c.tech is not None and c.tech.dists:
            out.append(Anchor(AnchorKind.DEP, c.tech.dists[0], version=spec))
        else:
            out.append(anchor)
    return out


_BARE_VERSION = re.compile(r"\s+v?(?P<v>\d+(?:\.\d+){0,2})(?P<plus>\+)?(?!\w|\.\d)")
# The next version of a list or a range after the first: ", 3.9", " and 3.12", " to 3.12"
_MORE_VERSIONS = re.compile(
    r"(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through|to|until)\s+|\s*[-–]\s*)"
    r"(?:python\s+)?v?(?P<v>\d+\.\d+)(?!\w|\.\d)", _I
)
_DROPPED_SUPPORT = re.compile(
    r"\b(?:dropped|removed|ended|no\s+longer|(?:does|do)\s*(?:not|n[’']t))\s+(?:\w+\s+){0,2}"
    r"support|\bsupport\b[^.;]{0,30}\b(?:was|is|has\s+been|got)\s+(?:dropped|removed|ended)"
    r"|\bno\s+longer\s+supported\b|\bnot\s+supported\b|\bunsupported\b", _I
)


_CLASSIFIERS = re.compile(r"\bclassifiers?\b[^.;]*$", _I)
_REQUIREMENT_NAMED = re.compile(r"requires[-_]python|python[-_]requires", _I)
# "Python 3.8+", and the keys that declare it: "setup.py declares python_requires >= 3.7"
PYTHON_NAMES = frozenset({"python", "python_requires", "requires_python"})
# What joins such a key to its value: "`requires-python` is >=3.10", "set to >=3.10"
_KEY_JOIN = re.compile(r"`?\s*(?:is|was|=|:|to|at|as)(?=\s*[<>=!~])", _I)


def _python_claim(text: str, c: _Cand, spans: Spans, by_classifiers: bool = False
                  ) -> list[Anchor] | None:  # fmt: skip
    """"Requires Python 3.8+", "supports Python 3.6", "Python 2 support was dropped": the
    Python versions the project declares (``requires-python``, ``python_requires``), as a
    dependency on ``python``. A bare version means that series (``==3.6.*``). ``spans``: the
    text's ``sentence_spans``. None: no such claim; empty: the versions the trove
    classifiers list, set against the declared requirement, which no anchor checks
    unless the classifiers are all the project declares of Python (``by_classifiers``)."""
    if (c.text.lower().replace("-", "_") not in PYTHON_NAMES
            or c.mode not in (_Mode.PRESENT, _Mode.ABSENT, _Mode.UNCLEAR)):  # fmt: skip
        return None
    spec = _version_after(text, c.end)
    if not spec and c.text.lower() != "python":  # "`requires-python` is >=3.10", "... to >=3.10"
        joined = _KEY_JOIN.match(text, c.end)
        spec = _version_after(text, joined.end()) if joined else None
    more: list[str] = []
    if not spec:
        bare = _BARE_VERSION.match(text, c.end)
        if bare is None:
            return None
        spec = f">={bare['v']}" if bare["plus"] else f"=={bare['v']}.*"
        at = bare.end()
        while not bare["plus"] and (listed := _MORE_VERSIONS.match(text, at)):
            more.append(f"=={listed['v']}.*")  # "3.8, 3.9 and 3.12": each one is claimed
            at = listed.end()
    sentence = next((text[a:b] for a, b, _ in spans if a <= c.start < b), "")
    if (not by_classifiers and _CLASSIFIERS.search(text, max(0, c.start - 60), c.start)
            and _REQUIREMENT_NAMED.search(sentence)):  # fmt: skip
        # "requires-python is >=3.10 even though the classifiers still list Python 3.9":
        # what they list, set against the requirement, is not the requirement's
        return []
    dropped = bool(_DROPPED_SUPPORT.search(sentence))
    if c.mode is _Mode.UNCLEAR and not dropped:
        return None
    absent = c.mode is _Mode.ABSENT or dropped
    expect = Expect.ABSENT if absent else Expect.PRESENT
    if not absent and _SUPPORTED.search(sentence):
        # "supports Python 3.8": every release of 3.8 is one the project allows, which
        # ``>=3.8`` says too ("we test on 3.12" is no such claim: ``==3.12.*``)
        spec, *more = [_supported(v) for v in (spec, *more)]
    return [Anchor(AnchorKind.DEP, "python", expect, version=v) for v in (spec, *more)]


_SUPPORTED = re.compile(r"\bsupport(?:s|ed)?\b|\bcompatible\b|\binstall(?:ed|able)\s+on\b"
                        r"|\bworks\s+(?:on|with)\b", _I)  # fmt: skip
_SERIES = re.compile(r"==(?P<v>\d+\.\d+)\.\*")


def _supported(spec: str) -> str:
    """A minor series stated as supported (``==3.8.*``) as the releases it holds
    (``~=3.8.0``), which a declared range can be seen to include."""
    series = _SERIES.fullmatch(spec)
    return f"~={series['v']}.0" if series else spec

