"""What a note's negations and the repository's silence can and cannot check.

Two rules of issue #31, as plain functions over a candidate and what it resolved to:

* **Absence by kind.** A technology that must leave a footprint in the code that uses it
  (a library, an SDK, a datastore, a queue) is refuted by its absence. A tool people use
  beside the code (``Technology.beside``: an issue tracker, a wiki, paging, chat, a
  hosting console) is not: a note naming one the repository does not name is "not
  checkable from this repository", an uncovered part, never REFUTED and never VERIFIED.
  The same holds for a capitalised product name neither the vocabulary nor the code knows,
  when the note says it is *not* used ("we no longer use Wrike"): what is unknown
  might be a tool beside the code, so its absence from the code proves nothing.
* **Negations bind.** A negated clause the reader cannot turn into an absent anchor
  ("nothing imports it at runtime", "the API doesn't use SQLAlchemy") leaves the names it
  negates without a positive anchor, and the note names the claim about them as not
  checked. A claim that a name is not imported at run time ("only a type-checking
  dependency", "only used in tests") is checked against the files that run.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from anchors.candidates import _Cand, _Form, _Mode
from anchors.facts import Fingerprint
from anchors.mentions import runs
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.subject import Spans
from anchors.technology import BESIDE_DETAIL, find_technology

__all__ = ["beside_part", "contrasted", "declared_unused", "negation_part", "runtime_import"]

# A sentence saying a name is imported only where nothing runs it: for type checking, by
# the tests, or "not at runtime".
_NOT_AT_RUNTIME = re.compile(
    r"\b(?:not|never|n[’']t|nothing|no\s+[a-z]+)\b[^.;]{0,60}?\bat\s+run[\s-]?time\b"
    r"|\bonly\s+(?:(?:a|an|for|used|imported|needed|required|as)\s+){0,3}"
    r"type[\s-]?(?:checking|hints?|annotations?)\b|\btype[\s-]?checking[\s-]only\b"
    r"|\bonly\s+(?:(?:used|imported|needed|required)\s+)?(?:in|by|from)\s+(?:the\s+|our\s+)?"
    r"(?:tests?|test\s+suite)\b|\btests?[\s-]only\b",
    re.IGNORECASE,
)


def negation_part(c: _Cand) -> str:
    """The uncovered part a negated name no anchor checks leaves in the note."""
    if c.tech is not None and c.tech.beside:
        return f"{c.tech.display} ({BESIDE_DETAIL})"
    return f"the claim about {c.text}"


def beside_part(c: _Cand, outcome: list[Anchor], fp: Fingerprint) -> str | None:
    """The uncovered part when ``c`` names what the repository cannot answer for: a tool
    people use beside the code that the repository does not use (present or negated), or
    a negated capitalised name unknown to the vocabulary and to the code. None when the
    anchors in ``outcome`` can check the candidate."""
    tech = c.tech
    if tech is not None:
        if not tech.beside or any(a.kind is not AnchorKind.TECH or a.value != tech.name
                                  for a in outcome):  # fmt: skip
            return None  # "slack_sdk", "pdpyras": a package of it, which must be imported
        if c.mode is _Mode.ABSENT:
            return f"{tech.display} ({BESIDE_DETAIL})"
        unanswered = any(not find_technology(a.value, a.scope, fp).answerable for a in outcome)
        return f"{tech.display} ({BESIDE_DETAIL})" if unanswered else None
    if c.mode is not _Mode.ABSENT or c.form is not _Form.WORD or c.code:
        return None
    if any(a.version for a in outcome):
        return None  # "no longer supports Python 2": a version claim, checked as one
    if not (c.text[:1].isupper() and not c.text.isupper()):
        return None  # "zorbdb", "PBKDF2": a package's spelling, or an acronym
    if any(a.expect is not Expect.ABSENT or _present(a, fp) for a in outcome):
        return None  # the code has it: the negation is checked, and refuted
    return f"{c.text} ({BESIDE_DETAIL})"


def _present(anchor: Anchor, fp: Fingerprint) -> bool:
    if anchor.kind is AnchorKind.IMPORT:
        return bool(fp.importers(anchor.value))
    if anchor.kind is AnchorKind.DEP:
        return bool(fp.dependency(anchor.value))
    return True  # a kind this rule does not read: leave the anchor as it is


def runtime_import(c: _Cand, text: str, spans: Spans, fp: Fingerprint) -> Anchor | None:
    """A name said not to be imported at run time ("X is only a type-checking dependency;
    nothing imports it at runtime"). When a file that runs imports X (``runs``: not a
    test, and the import not under ``if TYPE_CHECKING:``): an absent import anchor on the
    first such file, which breaks and says where. Else None, and the claim stays an
    uncovered part: no anchor can check "nowhere at run time". ``c`` is a name its clause
    left unclear; its sentence and the next one are read."""
    if c.form not in (_Form.WORD, _Form.TECH, _Form.IMPORT, _Form.DOTTED):
        return None
    at = next((i for i, (start, end, _) in enumerate(spans) if start <= c.start < end), None)
    if at is None:
        return None
    start, end = spans[at][0], spans[min(at + 1, len(spans) - 1)][1]
    if not _NOT_AT_RUNTIME.search(text, start, end):
        return None
    modules = c.tech.imports if c.tech is not None else (c.text.strip("`"),)
    for module in modules:
        for path, fact in fp.importers(module):
            if not fact.typing and runs(path):
                return Anchor(AnchorKind.IMPORT, module, Expect.ABSENT, scope=path)
    return None


# "...; only regexp.go does", "..., but route.go does": a path doing what the negated
# clause before it says another path does not do.
_ELLIPSIS = re.compile(
    r"\s*(?:,\s*)?(?:but\s+|whereas\s+|while\s+)?(?:only\s+)?(?:the\s+)?`?"
    r"(?P<path>[\w./-]+?)`?\s+(?:does|do|did|is|are)(?:\s+(?:so|instead|though))?\W*",
    re.IGNORECASE,
)

_TRAILING = re.compile(
    r",\s*(?:but|whereas|while)\s+(?:only\s+)?(?:the\s+)?`?(?P<path>[\w./-]+?)`?\s+"
    r"(?:does|do|did)(?:\s+(?:so|instead|though))?\W*$",
    re.IGNORECASE,
)


def contrasted(text: str, spans: Spans, absent: list[Anchor], fp: Fingerprint,
               resolve: Callable[[str], str | None]) -> list[Anchor]:  # fmt: skip
    """The positive anchors an elliptical contrast states: "mux.go doesn't import regexp;
    only regexp.go does" says regexp.go imports it. ``absent``: the absent anchors the text
    scoped to one path; ``resolve``: a name to the one path it denotes. Only a sentence that
    is nothing but "(only|but) PATH does" after one holding such an anchor counts."""
    out: list[Anchor] = []
    scoped = [a for a in absent if a.scope is not None and a.expect is Expect.ABSENT
              and a.kind in (AnchorKind.IMPORT, AnchorKind.TECH, AnchorKind.ENV)]  # fmt: skip
    if not scoped:
        return out
    for start, end, question in spans:
        m = _ELLIPSIS.fullmatch(text, start, end) if start > 0 else None
        m = m or _TRAILING.search(text, start, end)
        if question or m is None:
            continue
        path = resolve(m.group("path"))
        if path is None or not (fp.has_path(path) or fp.has_directory(path)):
            continue
        for a in scoped:
            if a.scope != path:
                moved = Anchor(a.kind, a.value, Expect.PRESENT, scope=path)
                if moved not in out:
                    out.append(moved)
    return out


# Right after a name: "X is declared but never used", "X is listed as a dependency but not
# imported by the source": declared (a positive claim) and not imported (a negative one).
_DECLARED_UNUSED = re.compile(
    r"[\s`'\"]*(?:is|are)\s+(?:still\s+)?(?:declared|listed|required|pinned|a\s+(?:declared\s+)?"
    r"dependency)\b[^.;]{0,60}?\bbut\s+(?:is\s+|are\s+)?(?:never|not|nowhere)\s+(?:actually\s+)?"
    r"(?:used|imported|referenced|called)\b",
    re.IGNORECASE,
)


def declared_unused(text: str, c: _Cand, spans: Spans) -> bool:
    """Whether the sentence says ``c`` is declared but never used (imported) by the code."""
    end = next((e for s, e, _q in spans if s <= c.start < e), len(text))
    return c.mode is _Mode.PRESENT and _DECLARED_UNUSED.match(text, c.end, end) is not None
