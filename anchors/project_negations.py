"""What a note denies of the whole project: "mux never reads environment variables", "the
crate has no third-party dependencies", "go.mod has no require block", "only the tests and
examples import log".

Each is checked by a wildcard anchor over the code that runs (``anchors.running_code``):
``!env:*``, ``!dep:*``, ``!import:X@*``. Unlike a file said never to touch a concept
(``anchors.concept_negations``), which may reach it through another file, the whole of
the running code is in view, so these anchors can verify as well as refute.

A clause is read only when what it is said of is the project: its own name (the crate,
the Go module, the npm or Python package), a word for it ("the library", "the app", "the
code", "we"; not "it", which may stand for any part), the note's directory (``scope``), the
frontend (the JavaScript application's running sources), or, for dependencies, one
manifest named ("go.mod has no require block"). A clause that names
a file is another reader's; one whose denial is narrowed ("no environment variables other
than RUST_LOG", "no dependencies besides colorama", "no dev dependencies") is left to the
uncovered parts.
Plans and rules ("should never read the environment") are no facts.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import NamedTuple

from anchors.codenames import own_names
from anchors.development import application_package
from anchors.facts import Fingerprint
from anchors.manifests import manifest_kind
from anchors.npm_application import application_sources
from anchors.spec import WILDCARD, Anchor, AnchorKind, Expect
from anchors.subject import CODE_FILE, clause_before

__all__ = ["ProjectNegation", "of_project", "project_negations"]

_I = re.IGNORECASE
_NOT = (r"(?:never|no\s+longer|(?:does|do|did|will|can)\s+not|cannot|"
        r"(?:does|do|did|wo|ca)n[’']t)")  # fmt: skip
_ADVERB = r"(?:(?:itself|ever|directly|actually|even|at\s+runtime)\s+)?"
_ENVIRONMENT = (r"(?:(?:any|the)\s+)?(?:environment\s+variables?|env(?:ironment)?\s+vars?"
                r"|(?:the\s+)?(?:process(?:['’]s)?\s+)?environment"
                r"|`?(?:process\.env|import\.meta\.env|os\.environ)`?)")  # fmt: skip
_ENV_FORMS = re.compile(
    rf"\b{_NOT}\s+{_ADVERB}(?:reads?|uses?|touch(?:es)?|consults?|looks?\s+at|relies\s+on|"
    rf"rel(?:y|ies)\s+on|depends?\s+on)\s+(?P<what>{_ENVIRONMENT})"
    rf"|\b(?:reads|uses|needs|takes|has)\s+no\s+(?P<what2>environment\s+variables?|env\s+vars?)",
    _I,
)
_QUALIFIER = (r"(?:third[\s-]party|external|run-?\s?time|outside|non-std(?:lib)?|direct|other|"
              r"extra|additional|production|crates?|go|npm|pypi|python)")  # fmt: skip
_DEPENDENCIES = r"(?:dependencies|deps|requirements)"
_DEP_FORMS = re.compile(
    # "has no third-party dependencies", "needs zero runtime deps"
    rf"\b(?:has|have|needs?|declares?|requires?|pulls?\s+in|brings?\s+in|comes\s+with)\s+"
    rf"(?:no|zero)\s+(?P<what>(?:{_QUALIFIER}[\s,]+)*{_DEPENDENCIES})\b"
    # "depends on nothing but the standard library", "depends only on the standard library"
    r"|\b(?P<what2>(?:depends|relies)\s+(?:on\s+nothing|only\s+on\s+the\s+standard\s+library"
    r"|solely\s+on\s+the\s+standard\s+library|on\s+the\s+standard\s+library\s+(?:only|alone))"
    r"|(?:is|are)\s+dependency[\s-]free|uses\s+only\s+the\s+standard\s+library)"
    # "go.mod has no require block", "Cargo.toml has no [dependencies] table"
    r"|\b(?:has|have)\s+no\s+(?P<what3>require\s+(?:block|directives?|lines?)|"
    r"\[dependencies\]\s*(?:table|section)?)",
    _I,
)
# After a dependency denial: "besides X", "other than X" narrow it, unless X is the
# standard library.
_EXCEPT = re.compile(r"\s*,?\s*(?:besides|except(?:\s+for)?|other\s+than|apart\s+from|"
                     r"beyond|but|save|aside\s+from|outside(?:\s+of)?)\s+(?P<rest>[^.;:]*)",
                     _I)  # fmt: skip
_STDLIB = re.compile(r"(?:the\s+)?(?:(?:go|rust|python)(?:['’]s)?\s+)?(?:standard\s+library|"
                     r"stdlib|std)\b", _I)  # fmt: skip
# A dependency denial that reaches beyond run time: development, tests, the build.
_ANY_ROLE = re.compile(r"\b(?:any\s+kind|at\s+all|even|dev|development|tests?|testing|build|"
                       r"dev-dependencies|devDependencies)\b", _I)  # fmt: skip
# After an environment denial, what may follow; anything else narrows it.
_BARE_TAIL = re.compile(r"\s*(?:(?:itself|directly|at\s+all|anywhere|ever|whatsoever|either)"
                        r"\s*)*(?:$|[.;:!?)]|,\s*(?:and|but|so|which)\b)", _I)  # fmt: skip
_IMPORT_FORMS = re.compile(
    # "only the tests and examples import log", "only tests use testify"
    r"\bonly\s+(?:the\s+)?(?P<who>(?:(?:unit\s+|integration\s+)?tests?|test\s+(?:files|suite|code)"
    r"|examples?|benchmarks?|benches)"
    r"(?:\s*(?:,|and|or|&)\s*(?:the\s+)?(?:tests?|examples?|benchmarks?|benches|docs|fixtures))*)"
    r"\s+(?:imports?|uses?|pulls?\s+in)\s+(?P<name>`[^`\s]+`|[\w./:@-]*\w)"
    # "no code that runs imports log", "nothing outside the tests imports log"
    r"|\b(?:no\s+(?:running|production|library|non-test)\s+code|no\s+code\s+that\s+runs|"
    r"nothing\s+(?:outside|but|except|other\s+than)\s+(?:the\s+)?tests?)\s+(?:imports?|uses?)\s+"
    r"(?P<name3>`[^`\s]+`|[\w./:@-]*\w)"
    # "log is imported only by the tests", "log is only imported in tests and examples"
    r"|(?P<name2>`[^`\s]+`|[\w./:@-]*\w)\s+is\s+(?:only\s+)?imported\s+(?:only\s+)?(?:by|in|from)"
    r"\s+(?:the\s+)?(?:tests?|test\s+files|examples?)\b",
    _I,
)
_GO_MODULE = re.compile(r"^(?:the\s+|this\s+)?(?:go\s+)?module\s*$", _I)
_PROJECT_WORDS = re.compile(
    r"^(?:(?:and|but|so|also|then|still|today|now|currently)\s+)*(?:the\s+|our\s+|this\s+)?"
    r"(?:(?:whole|entire|main|core|running)\s+)?"
    r"(?:library|lib|crate|package|app|application|project|program|codebase|code|code\s+base|"
    r"library\s+code|we)(?:\s+(?:itself|code))?\s*$",
    _I,
)
# A manifest named in a clause, with its directory when written ("web/package.json").
_MANIFEST_NAME = re.compile(r"(?<![\w./-])(?:[\w.-]+/)*(?:package\.json|go\.mod|Cargo\.toml|"
                            r"pyproject\.toml|setup\.cfg|requirements[\w.-]*\.txt)(?![\w/])")
_FRONTEND = re.compile(r"^(?:the\s+|our\s+)?(?:frontend|front-end|web\s+client|client|ui|web\s+ui)"
                       r"(?:\s+(?:source|sources|code|app|application|bundle))?\s*$",
                       _I)  # fmt: skip
_NOT_PLAIN = re.compile(r"\b(?:should|must|ought|shall|may|might|could|would|if|when|unless|"
                        r"want|plan|aim|try)\b", _I)  # fmt: skip


# A word every form above holds, searched before them.
_HINT = re.compile(r"environ|env\b|\bdepend|\bdeps\b|\brequire|standard\s+library|dependency|"
                   r"\bonly\b|\bno\s+(?:code|running|production|library|non-test)|nothing", _I)


class ProjectNegation(NamedTuple):
    """An anchor read from a denial of the whole project, the words it was read from (the
    clause's own, so its negation counts as checked) and the match's span."""

    anchor: Anchor
    origin: str
    span: tuple[int, int]


def project_negations(
    text: str, fp: Fingerprint, spans: Sequence[tuple[int, int, bool]], scope: str | None
) -> list[ProjectNegation]:
    """The wildcard anchors of each denial of the whole project in ``text`` (see the
    module). ``scope``: the note's directory, which a project word stands for."""
    if not _HINT.search(text):
        return []  # no word any denial of the project holds: most notes
    found: list[ProjectNegation] = []
    for start, end, question in spans:
        if question:
            continue
        for m in _ENV_FORMS.finditer(text, start, end):
            whole, where = _project(text, start, m.start(), fp, scope)
            if whole and _BARE_TAIL.match(text, m.end()):
                anchor = Anchor(AnchorKind.ENV, WILDCARD, Expect.ABSENT, scope=where)
                found.append(ProjectNegation(anchor, m["what"] or m["what2"], m.span()))
        for m in _DEP_FORMS.finditer(text, start, end):
            rest = _EXCEPT.match(text, m.end())
            if rest is not None and not _STDLIB.match(rest["rest"].strip()):
                continue  # "no dependencies besides colorama": which ones, not none
            if _ANY_ROLE.search(text, m.start(), end):
                continue  # "no dependencies of any kind, not even for tests": not run time alone
            what = m["what"] or m["what2"] or m["what3"]
            where = _manifest(text, start, m.start(), fp)
            whole = where is not None
            if not whole:
                whole, where = _project(text, start, m.start(), fp, scope)
            if whole:
                anchor = Anchor(AnchorKind.DEP, WILDCARD, Expect.ABSENT, scope=where)
                found.append(ProjectNegation(anchor, what, m.span()))
        for m in _IMPORT_FORMS.finditer(text, start, end):
            name = (m["name"] or m["name2"] or m["name3"]).strip("`")
            if _NOT_PLAIN.search(clause_before(text, start, m.start())) or (
                    not m["name3"] and not fp.importers(name)):  # fmt: skip
                continue  # "only tests use X" of a module nothing imports: a word, not one
            anchor = Anchor(AnchorKind.IMPORT, name, Expect.ABSENT, scope=WILDCARD)
            found.append(ProjectNegation(anchor, name, m.span()))
    unique: dict[Anchor, ProjectNegation] = {}
    for negation in found:
        unique.setdefault(negation.anchor, negation)
    return list(unique.values())


def _project(
    text: str, start: int, at: int, fp: Fingerprint, scope: str | None
) -> tuple[bool, str | None]:
    """Whether the clause before ``at`` speaks of a whole project, and of which directory's
    (None: the repository's); not of a file, a part of it or a plan."""
    clause = clause_before(text, start, at).strip()
    if _NOT_PLAIN.search(clause) or CODE_FILE.search(clause):
        return False, None
    if _PROJECT_WORDS.match(clause):
        return True, scope if scope is not None and fp.has_directory(scope) else None
    if _GO_MODULE.match(clause) and fp.has_path("go.mod"):
        return True, None  # "the module has no dependencies": a Go module is the project
    if _FRONTEND.match(clause) and (sources := application_sources(fp)) is not None:
        return True, sources  # "the frontend (source) never reads process.env"
    words = re.sub(r"^the\s+", "", clause.strip("`*_ "), flags=_I).strip("`")
    # "the env package", "the mux library": the project's name with a noun for it
    words = re.sub(r"`?\s+(?:package|library|lib|crate|module|app|application|project)$", "",
                   words, flags=_I).strip("`")  # fmt: skip
    return bool(words) and words.lower() in {n.lower() for n in _own_names(fp)}, None


def of_project(text: str, start: int, at: int, fp: Fingerprint) -> bool:
    """Whether the clause of ``text`` from ``start`` to ``at`` names the whole project ("the
    crate", "we", its own name): a denial said of it is said of its manifests."""
    return _project(text, start, at, fp, None)[0]


def _manifest(text: str, start: int, at: int, fp: Fingerprint) -> str | None:
    """The one manifest the clause before ``at`` is said of ("go.mod has no ...", "the
    frontend's package.json has no ..."), or None."""
    named = _MANIFEST_NAME.findall(clause_before(text, start, at))
    if len(named) != 1:
        return None
    path = fp.tracked_path(named[0]) or (
        paths[0] if len(paths := fp.basename_paths(named[0])) == 1 else None)  # fmt: skip
    return path if path is not None and manifest_kind(path) is not None else None


def _own_names(fp: Fingerprint) -> frozenset[str]:
    """The names the project goes by: its crates, Go modules and npm packages (a scoped
    one by its own name too), and the Python package the application runs from."""
    package = application_package(fp)
    python = {package.rpartition("/")[2]} if package else set()
    # an npm scope's package by its own name: "query-core never reads process.env"
    scoped = {n.rpartition("/")[2] for n in own_names(fp) if n.startswith("@")}
    return own_names(fp) | python | scoped
