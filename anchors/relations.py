"""Relations and roles a note states about a part of the project, and whether any anchor
can check them (issue #31, adr/0025).

"Encoding detection uses chardet" claims a relation between a component and a technology:
the project using chardet somewhere does not make it true. The component is read from the
sentence (the words before its verb) and, when it names one path of the repository (a
file, a module, a definition, a directory: "the settings loader" is ``app/settings.py``
when that is the one file of that name), the technology is checked there instead; that
binding is taken only when it holds, since a loose name may miss where the code really
is. Otherwise the relation is an uncovered part ("that encoding detection uses chardet"):
the note is never VERIFIED on project-wide use. Subjects that are the project itself ("we",
"the app", "our API", the package's own name) or its tooling ("CI", "the image", "tests")
are not components.

"`MailBackend` in `accounts/backends.py` is the SMTP backend that sends our mail" claims a
role: the class existing does not check it, so the role is an uncovered part. Saying what
kind of thing a name is ("`ping` is a function") is not a role.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from anchors.facts import Fingerprint
from anchors.manifests import manifest_kind
from anchors.npm_application import application_sources
from anchors.projects import FRONTEND_WORDS, holds_python, named_project, projects
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.subject import resolve_name
from anchors.vocabulary import lookup_word
from anchors.wordlists import SUBJECT_VERBS

__all__ = ["RelationReading", "bases_checked", "read_relation", "role_parts"]

_PIECES = re.compile(
    r"[,:;]\s+(?:(?:and|but|while|whereas|although|though|so|yet)\s+)?"
    r"|\s(?:and|but|while|whereas|although|though)\s",
    re.IGNORECASE,
)
_TOKEN = re.compile(r"`[^`\n]+`|[A-Za-z0-9_./-]+")


def _words(text: str) -> frozenset[str]:
    return frozenset(text.split())


_DETERMINERS = frozenset({"the", "our", "a", "an", "this", "its", "their", "my", "all"})
_SUBJECT_OPENERS = _DETERMINERS | frozenset({"we", "i", "it", "they", "these", "those"})
# A subject made only of these words (or of technology names and the project's own
# packages) is the project itself: "the web app uses Flask", "our API is built on FastAPI".
_PROJECT_WORDS = _words(
    """project codebase code repo repository app apps application service server backend crate
    api system package library tool cli stack product team site website webapp everything
    whole entire main web rest http python django flask fastapi this our its"""
)
# A subject naming the project's tooling: its technology is checked by its own files
# ("CI runs on GitHub Actions" by .github/workflows), not by a component's imports.
_TOOLING_WORDS = _words(
    """ci cd build builds image images docker container containers deployment deployments
    deploy production prod staging pipeline pipelines workflow workflows release releases
    test tests testing docs documentation lint linting formatting typing packaging
    development dev local infra infrastructure hosting cluster"""
)
# Words that open no subject: "there is ...", "which uses ...", "when it runs ...".
_NOT_SUBJECT = frozenset({"there", "here", "what", "which", "who", "how", "when", "where"})
_AUXILIARIES = _words("is are was were has have had does do did will can should must gets get")
_PATHS = re.compile(r"[\w.-]+(?:/[\w.-]+)+|[\w-]+\.py\b")
_MAX_SUBJECT_WORDS = 5
_MAX_PART = 80


@dataclass(frozen=True)
class RelationReading:
    """How a candidate object of a usage verb is read: ``scoped`` the anchors that check it
    in the component the subject names (empty when none holds), ``part`` the relation in
    words when nothing checks it (else "")."""

    scoped: tuple[Anchor, ...]
    part: str
    subject: int = 0  # where the subject starts: one part per subject


def _pieces(text: str, start: int, end: int) -> Iterator[tuple[int, int]]:
    pos = start
    for m in _PIECES.finditer(text, start, end):
        yield pos, m.start()
        pos = m.end()
    yield pos, end


def _subject(text: str, start: int, end: int) -> tuple[list[str], int] | None:
    """The words of a piece's subject (up to its verb) and where the verb starts, or None
    when the piece does not open with a subject and a verb."""
    words: list[str] = []
    tokens = list(_TOKEN.finditer(text, start, end))
    for i, m in enumerate(tokens):
        token = m.group()
        low = token.strip("`").lower()
        after = tokens[i + 1].group().lower() if i + 1 < len(tokens) else ""
        # "the uploads are written": a verb's form before an auxiliary is a noun
        if words and low in SUBJECT_VERBS and (low in _AUXILIARIES or after not in _AUXILIARIES):
            return words, m.start()
        if len(words) >= _MAX_SUBJECT_WORDS or low in _NOT_SUBJECT:
            return None
        words.append(token)
    return None


def _the_project(words: Sequence[str], own: frozenset[str]) -> bool:
    """Whether a subject is the project itself, or its tooling (not a component)."""
    plain = [w.strip("`").lower() for w in words]
    if plain[0] in ("we", "i", "us", "it", "they", "these", "those", "this", "that"):
        return True
    if any(w in _TOOLING_WORDS or manifest_kind(w) is not None for w in plain):
        return True  # "setup.py requires chardet": a declaration, checked as one
    rest = [w for w in plain if w not in _DETERMINERS]
    return all(w in _PROJECT_WORDS or w in own or lookup_word(w) is not None for w in rest)


def _component_paths(words: Sequence[str], fp: Fingerprint) -> tuple[list[str], set[str]]:
    """The paths a component's words may name, most literal first: the whole phrase, the
    phrase without its last word ("settings loader": ``settings``), its last word
    ("payment gateway": ``gateway``), one code name's defining file ("the `Client` class").
    Each is only a candidate: the caller takes it where what is claimed of it holds. The
    second set: the defining files of names that are also a method of some type
    (``SetLevel`` and ``Logger.SetLevel``), taken only where the claim holds there."""
    plain = [w.strip("`") for w in words if w.lower() not in _DETERMINERS]
    loose: set[str] = set()
    if not plain:
        return [], loose
    tries = [" ".join(plain)]
    if len(plain) > 1:  # "the settings loader": settings; "the payment gateway": gateway
        tries += [" ".join(plain[:-1]), plain[-1]]
    if len(plain) > 2:  # "agent config files": agent
        tries.append(plain[0])
    # "the uploads": ``uploads.py`` or ``upload.py``; "password hashing": ``passwords.py``
    tries += [t[:-1] if t.endswith("s") else f"{t}s" for t in list(tries) if " " not in t]
    paths: list[str] = []
    for name in tries:
        # "the frontend", "the web UI": the browser's project; else a path of that name
        path = named_project(name.lower(), fp) or resolve_name(name, fp)
        if path is None and name.lower() in FRONTEND_WORDS:
            path = application_sources(fp)  # the JavaScript application's running sources
        if path is not None and path not in paths:
            paths.append(path)
    for given, word in zip([w for w in words if w.lower() not in _DETERMINERS], plain,
                           strict=True):  # fmt: skip
        code = given.startswith("`") or not word.islower()
        if code and re.fullmatch(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*", word):
            defined = {path for path, _ in fp.definitions(word)}
            if len(defined) == 1:
                paths.append(path := defined.pop())
                members = fp.derived("relations.member_names", _member_names)
                if "." not in word and word in members:
                    loose.add(path)
    return paths, loose


def _member_names(fp: Fingerprint) -> frozenset[str]:
    """The names types of the repository give their members (``SetLevel`` of
    ``Logger.SetLevel``): a bare name among them may mean a method, not the function."""
    return frozenset(d.qualname.rpartition(".")[2] for facts in fp.code.values()
                     for d in facts.definitions if "." in d.qualname)  # fmt: skip


def read_relation(
    text: str,
    spans: Sequence[tuple[int, int, bool]],
    at: int,
    end: int,
    anchors: Sequence[Anchor],
    fp: Fingerprint,
    own: frozenset[str],
    scoped: Callable[[str], list[Anchor] | None],
    holds: Callable[[Anchor], bool],
    library: bool = True,
) -> RelationReading | None:
    """The relation a technology named at ``text[at:end]`` (the object of a verb of use,
    with project-wide ``anchors``) stands in, or None when its subject is the project, its
    tooling, a pronoun or no subject at all. ``scoped(path)``: the anchors the name gives
    when the note is about ``path``; ``holds``: whether an anchor holds now. ``library``:
    the name is a library the code imports; a system (a datastore, a hosted service) the
    project's code talks to is checked in the component when that holds, and otherwise
    as before: which part of the code talks to it is seldom what such a note is about."""
    if not anchors or any(a.scope is not None or a.expect is Expect.ABSENT for a in anchors):
        return None
    if not all(a.kind in (AnchorKind.TECH, AnchorKind.IMPORT, AnchorKind.DEP) for a in anchors):
        return None
    sentence = next(((s, e) for s, e, _q in spans if s <= at < e), None)
    if sentence is None:
        return None
    pieces = list(_pieces(text, *sentence))
    index = next(i for i, (s, e) in enumerate(pieces) if s <= at < e or i == len(pieces) - 1)
    found = None
    for i in range(index, -1, -1):  # a piece with no subject of its own continues one before
        found = _subject(text, pieces[i][0], pieces[i][1])
        if found is not None:
            first = text[pieces[i][0] : pieces[i][1]].split(maxsplit=1)
            opener = first[0] if first else ""
            # "..., then parses it with yaml" continues the subject before it; "...: setup.py
            # requires chardet" has its own
            if (i == 0 or opener.lower() in _SUBJECT_OPENERS or opener[:1] in "`"
                    or opener[:1].isupper() or "/" in opener or "." in opener):  # fmt: skip
                break
            found = None
    if found is None:
        return None
    words, verb_at = found
    subject_at = text.find(words[0].strip(), pieces[i][0])
    if at <= verb_at:
        return None  # the name is (in) the subject, or the verb: "Redis caches sessions"
    if _the_project(words, own):
        return None
    # a path the sentence names ("... with bcrypt (kinto/plugins/accounts/utils.py)") is
    # the likeliest place, then what the subject's words name
    named = [resolve_name(p.rstrip(".,)"), fp) for p in _PATHS.findall(text, *sentence)]
    components, loose = _component_paths(words, fp)
    places = [p for p in named if p is not None] + components
    # A sub-project with its own manifest ("the frontend": ``web/`` and its package.json),
    # or a path that holds no Python ("src/git.ts ... through pexpect", the frontend's
    # sources), is a firm binding: what it does not use, the note is wrong about. Python
    # code may use a package through a module it imports, so a loose name or a Python path
    # is taken only where what it claims holds.
    firm_places = {p for p in places if not holds_python(p, fp)} - loose
    firm_places |= {p.directory for p in projects(fp) if p.directory}
    for path in dict.fromkeys(places):
        there = scoped(path)
        firm = path in firm_places
        if there and all(a.scope is not None and (firm or holds(a)) for a in there):
            return RelationReading(tuple(there), "", subject_at)
    if not library:
        return None
    said = " ".join(text[subject_at:end].split())
    lead = said.split(" ", 1)[0]
    if said[:1].isupper() and not any(c.isupper() for c in lead[1:]) and "`" not in said[:1]:
        said = said[:1].lower() + said[1:]  # "Encoding detection", not "SetLevel"
    return RelationReading((), f"that {said}"[:_MAX_PART], subject_at)


# -- roles ------------------------------------------------------------------------------
_ROLE = re.compile(
    r"(?P<name>`[^`\n]+`|\b[A-Z][a-z0-9]+[A-Z]\w*|\b[a-z][a-z0-9]*_\w+)"
    # only what says which thing it is: "`X` class in `app/x.py` is ..."
    r"(?:\s+(?:class|function|method|module|view|model|constant|handler))?"
    r"(?:\s+(?:in|from|at|under|of)\s+(?:the\s+)?(?:`[^`\n]+`|[\w./-]+))?"
    r"\s+(?:is|are)\s+(?P<role>(?:the|a|an|our|their|its)\s+(?:`[^`\n]*`|[^.;`])+)",
)
# "is a function", "is the class": what kind of thing the name is, not a role.
_KIND_WORDS = _words(
    """class function method module file package constant variable decorator dataclass
    helper type enum alias attribute property script coroutine generator
    callable object instance entry point main small simple thin plain single new public
    private internal async sync python top-level module-level"""
)
_UNASSERTED = re.compile(
    r"\b(?:if|when|whether|unless|should|could|would|might|maybe|perhaps|plan|todo|once)\b",
    re.IGNORECASE,
)
_SUBCLASS = re.compile(
    r"(?:the|a|an|our|its)\s+(?:`(?P<base>[\w.]+)`\s+(?:subclass|sub-class|child\s+class)"
    r"|subclass\s+of\s+`(?P<of>[\w.]+)`)"
)


_PLACED = re.compile(r"(?:in|inside|within|under|from|at|defined)\b")


def _derives(name: str, base: str | None, fp: Fingerprint) -> bool:
    """Whether the one class defined as ``name`` names ``base`` among its bases."""
    found = fp.definitions(name.strip("`"))
    if base is None or len(found) != 1:
        return False
    bases = found[0][1].bases
    return bases is not None and base.rsplit(".", 1)[-1] in bases


# What follows a role's noun: where ("a function in app/x.py"), or what it does.
_ROLE_HEAD = re.compile(r"\s(?P<w>in|inside|within|under|from|at|of|defined|for|that|which|who)\s")
_ROLE_END = re.compile(r",\s|\s[-–—]\s|\s(?:and|but|while|which|so|because)\s(?=\w)")


def role_parts(text: str, spans: Sequence[tuple[int, int, bool]],
               fp: Fingerprint | None = None) -> list[str]:  # fmt: skip
    """The roles the text gives code names ("that `MailBackend` is the SMTP backend that
    sends our mail"), each an uncovered part: nothing checks what a definition is for. A
    base class ("`BadParameter` is a `UsageError` subclass") is checked against ``fp``:
    the one class of that name deriving from it covers the part."""
    return [part for part, _base in _roles(text, spans, fp) if part]


def bases_checked(text: str, spans: Sequence[tuple[int, int, bool]], fp: Fingerprint) -> list[str]:
    """The base classes ``role_parts`` found named by the class statement (checked there,
    though the repository may not define them: ``ModelBackend`` from a library)."""
    return [base for _part, base in _roles(text, spans, fp) if base]


def _roles(text: str, spans: Sequence[tuple[int, int, bool]],
           fp: Fingerprint | None) -> Iterator[tuple[str, str]]:  # fmt: skip
    """(part, "") for each role nothing checks, ("", base) for a base class checked."""
    for start, end, question in spans:
        if question:
            continue
        for m in _ROLE.finditer(text, start, end):
            if _UNASSERTED.search(text, start, m.start()):
                continue  # "if `X` is the ...": a condition, a plan, a question
            role = m.group("role")
            cut = _ROLE_END.search(role)
            role = role[: cut.start()] if cut else role
            after = _ROLE_HEAD.search(role)
            head = role[: after.start()] if after else role
            words = [w.lower().strip("`'\"()") for w in head.split()[1:]]
            does = after is not None and after.group("w") in ("for", "that", "which", "who")
            plain = [w for w, given in zip(words, head.split()[1:], strict=True)
                     if not given.startswith("`")]  # fmt: skip
            if not words or (all(w in _KIND_WORDS for w in plain) and not does):
                continue  # "a function in app/x.py": what it is and where, not what it does
            if words[0] in ("same", "only", "one") or re.search(r"\d", role):
                continue  # "is the same as ...", a value or a count: not a role
            base = _SUBCLASS.match(role)
            rest = role[base.end() :].strip() if base else ""
            placed = not rest or _PLACED.match(rest) is not None  # "... in exceptions.py"
            named = (base.group("base") or base.group("of")) if base else None
            if named and placed and fp is not None and _derives(m.group("name"), named, fp):
                yield "", named
                continue
            yield f"that {m.group('name')} is {' '.join(role.split())}"[:_MAX_PART], ""
