"""A file said never to touch a concept: "src/logger.rs never touches the environment
itself", "route.go doesn't touch regular expressions".

Such a note names no package, so no anchor of use is read from it; yet one occurrence in
the file refutes it. A short list of concepts says what each is in each language:

- **the environment** ("the environment", "environment variables", "env vars"): the
  file's environment reads in every language, and ``std::env`` in Rust;
- **regular expressions** ("regular expressions", "regexes", "regexps"): ``re`` and
  ``regex`` in Python, ``regexp`` in Go, the ``regex`` crates in Rust; nothing in
  JavaScript or TypeScript.

A file's environment reads are the variables the fingerprint records it reading
(``os.environ``/``getenv``, ``os.Getenv``/``LookupEnv``, ``std::env::var``,
``process.env``). A regular-expression literal in JavaScript imports nothing, so that
language has no anchor for the concept.

Only a negation is read, as absent anchors for that one file ("FILE never / doesn't /
does not touch | use | read | call CONCEPT"): absence is refuted by a single occurrence,
while the presence of a concept has many more forms than these. The anchors never make the
note VERIFIED: the negated clause stays an uncovered part (a file may reach the concept
through code of another file), so a true note is served as partly checked.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.subject import CLAUSE_BREAK, CODE_FILE, clause_before, resolve_name

__all__ = ["CONCEPTS", "Concept", "concept_negations"]


@dataclass(frozen=True)
class Concept:
    """One concept a note may say a file never touches: ``prose`` matches how notes name it,
    ``modules`` are the imports that are the concept in each language, ``env_reads`` whether
    the file's environment reads are."""

    name: str
    prose: str
    modules: Mapping[str, tuple[str, ...]]
    env_reads: bool = False


CONCEPTS: tuple[Concept, ...] = (
    Concept(
        "the environment",
        r"(?:the\s+)?(?:process(?:['’]s)?\s+)?environment(?:\s+variables?)?|env\s+vars?",
        {"rust": ("std::env",)},
        env_reads=True,
    ),
    Concept(
        "regular expressions",
        r"regular\s+expressions?|regex(?:es|ps)?|regexps?",
        {
            "python": ("re", "regex"),
            "go": ("regexp",),
            "rust": ("regex", "regex_lite", "fancy_regex"),
        },
    ),
)

_NEGATION = (r"never|no\s+longer|(?:does|do|did|will|can)\s+not|cannot|"
             r"(?:does|do|did|wo|ca)n[’']t")  # fmt: skip
_ADVERB = r"(?:(?:itself|ever|directly|actually|even)\s+)?"
_VERB = r"touch(?:es)?|uses?|reads?|calls?"
_CLAIM = re.compile(
    rf"\b(?:{_NEGATION})\s+{_ADVERB}(?:{_VERB})\s+(?:(?:any|the)\s+)?"
    rf"(?P<concept>{'|'.join(f'(?P<c{i}>{c.prose})' for i, c in enumerate(CONCEPTS))})"
    r"(?![\w-])",
    re.IGNORECASE,
)
# A word every concept's prose holds, searched before the whole pattern.
_HINT = re.compile(r"environment|env\s+var|regex|regular\s+expression", re.IGNORECASE)
# What stands between the file and the negation: a plan, a rule or a wish is no fact.
_NOT_PLAIN = re.compile(r"\b(?:should|must|ought|shall|may|might|could|would|if|when|unless)\b",
                        re.IGNORECASE)  # fmt: skip
# What may follow the concept in its clause; anything else narrows what is denied
# ("other than RUST_LOG", "at import time", "for host matching") and leaves it unread.
_BARE_TAIL = re.compile(r"\s*(?:(?:itself|directly|at\s+all|anywhere|ever|whatsoever)\s*)*$",
                        re.IGNORECASE)  # fmt: skip
_MAX_READS = 3  # a file's environment reads named as anchors at most


def concept_negations(
    text: str, fp: Fingerprint, spans: Sequence[tuple[int, int, bool]], scope: str | None
) -> list[tuple[Anchor, str]]:
    """The absent anchors of each "FILE never touches CONCEPT" in ``text``, each with the
    words it was read from; ``scope``, the note's own path, stands for a clause that names
    no file."""
    if not _HINT.search(text):
        return []  # no concept named: most notes
    found: list[tuple[Anchor, str]] = []
    for start, end, question in spans:
        if question:
            continue
        for m in _CLAIM.finditer(text, start, end):
            clause = clause_before(text, start, m.start())
            if _NOT_PLAIN.search(clause) or not _BARE_TAIL.match(_clause_after(text, m.end(), end)):
                continue  # "never reads the environment at import time": not all of it
            path = _file_of(clause, fp, scope)
            facts = fp.code.get(path) if path is not None else None
            if path is None or facts is None or not facts.parsed:
                continue
            concept = CONCEPTS[next(i for i in range(len(CONCEPTS)) if m[f"c{i}"])]
            # a name the file only states as a constant (``FILTER_ENV = "RUST_LOG"``) counts as
            # read for the name's sake; whether the file itself reads it cannot be told
            stated = {c.text.strip("\"'`") for c in facts.constants if c.text}
            reads = [name for name in facts.env_reads if name not in stated]
            for anchor in _anchors(concept, path, facts.language, reads):
                found.append((anchor, m["concept"]))
    return list(dict.fromkeys(found))


def _clause_after(text: str, at: int, end: int) -> str:
    """The words after ``at`` up to the end of its clause (or sentence)."""
    stop = CLAUSE_BREAK.search(text, at, end)
    return text[at : stop.start() if stop else end].rstrip(" .")


def _file_of(clause: str, fp: Fingerprint, scope: str | None) -> str | None:
    """The one file the clause names as its subject, or the note's file when it names none."""
    named = [m["path"] for m in CODE_FILE.finditer(clause)]
    if len(named) > 1:
        return None
    if named:
        return resolve_name(named[0], fp)
    if scope is not None and scope in fp.code and not re.search(r"\b(?:we|they|it)\b", clause,
                                                                re.IGNORECASE):  # fmt: skip
        return scope
    return None


def _anchors(concept: Concept, path: str, language: str, reads: Sequence[str]) -> list[Anchor]:
    anchors = [Anchor(AnchorKind.IMPORT, module, Expect.ABSENT, scope=path)
               for module in concept.modules.get(language, ())]  # fmt: skip
    if concept.env_reads:
        anchors += [Anchor(AnchorKind.ENV, name, Expect.ABSENT, scope=path)
                    for name in sorted(set(reads))[:_MAX_READS]]  # fmt: skip
    return anchors
