"""The types a note says a function takes or returns, checked against its signature
(issues #31 and #32).

"`glob` returns a `Vec<PathBuf>`", "`Pattern::matches` takes a `&Path`", "Operation takes
a context.Context argument", "NewConstantBackOff takes a time.Duration": the names exist,
so only the signature can tell whether the note is true. Each statement is read into
``param:[PATH::]F(-> T)`` (F returns T) or ``param:[PATH::]F(: T)`` (a parameter of F is
a T; ``F(: one T)``, "one T per call": a T that is no variadic parameter), and checked on
every read against the signatures the fingerprint keeps.

A statement is read only where

- it is plain: "F takes/accepts/receives/expects (a|an|the|one) T", "F returns (a|an|the)
  (new) T", "F takes the length as a T", with nothing of a condition, a plan or the past
  before it;
- T is written as a type: a capital (``PathBuf``), a path (``time.Duration``,
  ``io::Error``), a sigil (``&str``, ``*Entry``, ``[]byte``, ``...string``), generics
  (``Vec<T>``), or the function's language's own scalar type (``error``, ``usize``);
- F is a function, method or function type the repository defines with a signature.

The verdict compares the identifiers of T, in order, with those of the written types:
found, the anchor holds, but where "only T" is said of several results (``(*Watcher,
error)``) or a Rust ``Option<T>`` is said to be a T. Not found, it breaks only where the
language makes every type explicit (Go, Rust; Python and TypeScript where every
parameter, or the result, is annotated) and none of the written types could stand for T
unseen: a generic parameter (``P``, ``impl``), or a type the repository defines with no
member of its own (an alias, ``type GlobResult = Result<PathBuf, GlobError>``). ``Self``
is the method's own type.
"""

from __future__ import annotations

import re

from anchors.facts import Fingerprint, Signature
from anchors.finding import Finding
from anchors.parameters import ParamKind
from anchors.spec import Anchor, AnchorKind
from anchors.tooling_dirs import built_copy

__all__ = ["RETURNS", "TAKES", "find_typed", "read_type_claims", "typed"]

RETURNS, TAKES = "->", ":"
_ONE = "one "  # ``param:F(: one T)``: exactly one T per call, no variadic T
_ONLY = "only "  # ``param:F(-> only T)``: T and nothing beside it (no error with it)

_ID = r"[A-Za-z_]\w*"
# A type as written: sigils, a path, generics (one level of nesting), a Go slice or map.
_TYPE = (rf"(?P<type>(?:&(?:mut\s+)?|\*|\.\.\.|\[\]|map\[[^\]\s`]{{1,40}}\])*{_ID}"
         rf"(?:(?:\.|::){_ID})*(?:<[^<>`]*(?:<[^<>`]*>[^<>`]*)*>)?)")  # fmt: skip
_FUNC = rf"`?(?P<func>{_ID}(?:(?:\.|::){_ID})*)(?:\(\))?`?"
# "takes the length as a usize", "returns the watched paths as a []string": what is passed
# or returned, then its type
_AS = r"(?:(?:the|its|their|an?)\s+(?:[a-z]+\s+){0,6}?[a-z]+\s+as\s+)?"
_TAKES = re.compile(
    rf"{_FUNC}\s+(?:(?:always|only)\s+)?(?P<verb>takes|accepts|receives|expects)\s+{_AS}"
    rf"(?:(?:an?|the|one|its)\s+)?(?:(?:new|single|optional)\s+)?`?{_TYPE}`?"
    r"(?P<after>(?:\s+(?:argument|parameter|param|arg|value|object|instance))?"
    r"(?:\s+per\s+call)?)"
)
# "takes the `*core.Core` as its first argument": the type first, then what it is
_TAKES_AS = re.compile(
    rf"{_FUNC}\s+(?:(?:always|only)\s+)?(?P<verb>takes|accepts|receives|expects)\s+"
    rf"(?:(?:an?|the|one)\s+)?`{_TYPE}`\s+as\s+(?:its|the|an?)\s+"
    r"(?:(?:first|second|third|last|only|sole)\s+)?(?P<after>argument|parameter|param|arg)\b"
)
_RETURNS = re.compile(
    rf"{_FUNC}\s+(?:(?:always|only)\s+)?(?P<verb>returns)\s+(?P<only>only\s+|just\s+)?{_AS}"
    rf"(?:(?:an?|the)\s+)?(?:(?:new|fresh|single)\s+)?`?{_TYPE}`?"
)
# "one MiddlewareFunc per call": a parameter that is no variadic one
_SINGLE = re.compile(r"\bper\s+call|\bsingle\b|\bone\s")
# A scalar type in lower case is one only as code or as the clause's last word
_TICKED_OR_ENDS = re.compile(r"`|\s*(?:[.,;:)]|$)")
_LISTED_AFTER = re.compile(r"`?\s*,\s*`?[a-z]\w*`?\s*(?:,|\band\b|\bor\b)")
# "a URL object", "a UUID value": a name in capitals said to be a type
_KIND_NOUN = re.compile(r"`?\s+(?:object|instance|type|value)\b")
_PLAIN_BEFORE = re.compile(r"\b(?:if|unless|when|whether|should|would|could|might|must|will|"
                           r"used\s+to|was|were|previously|formerly|no\s+longer|not|never|"
                           r"planned|maybe)\b", re.IGNORECASE)  # fmt: skip
# A language's own scalar types, written in lower case like prose.
_SCALARS = {
    "go": frozenset({"error", "string", "int", "int64", "int32", "uint", "uint64", "bool",
                     "byte", "rune", "float64", "float32", "any"}),
    "rust": frozenset({"str", "usize", "isize", "u8", "u16", "u32", "u64", "i8", "i16", "i32",
                       "i64", "f32", "f64", "bool", "char"}),
    "typescript": frozenset({"string", "number", "boolean", "bigint", "unknown", "void"}),
    "python": frozenset({"str", "int", "bool", "bytes", "float"}),
}  # fmt: skip
_WORD = re.compile(r"[A-Za-z_]\w*")
_GENERIC = re.compile(r"^(?:[A-Z]\d?|impl)$")
# Where each language writes every type: a parameter or a result written without one is
# another kind of thing (Go's and Rust's are always written).
_EXPLICIT = frozenset({"go", "rust"})


def typed(anchor: Anchor) -> bool:
    """Whether ``anchor`` is a type claim (``F(-> T)``, ``F(: T)``)."""
    return anchor.kind is AnchorKind.PARAM and anchor.argument[1] in (RETURNS, TAKES)


def read_type_claims(sentence: str, fp: Fingerprint
                     ) -> list[tuple[Anchor, str, str, tuple[int, int]]]:  # fmt: skip
    """(anchor, function, type as written, span) for each type statement of ``sentence``."""
    found: list[tuple[Anchor, str, str, tuple[int, int]]] = []
    if not any(verb in sentence for verb in ("takes", "accepts", "receives", "expects",
                                             "returns")):  # fmt: skip
        return found
    for pattern, mark in ((_TAKES, TAKES), (_TAKES_AS, TAKES), (_RETURNS, RETURNS)):
        for m in pattern.finditer(sentence):
            read = _read(sentence, m, mark, fp)
            if read is not None:
                found.append((read[0], read[1], m["type"], m.span()))
    return found


def _read(sentence: str, m: re.Match[str], mark: str,
          fp: Fingerprint) -> tuple[Anchor, str] | None:  # fmt: skip
    if _PLAIN_BEFORE.search(sentence, 0, m.start("verb")):
        return None
    single = mark == TAKES and _SINGLE.search(m.group()) is not None
    func = m["func"].replace("::", ".")
    signatures = _sources(fp.signatures_of(func), fp)
    if not signatures and "." in func:  # "`tun.New`": Go's ``New`` of the package ``tun``
        package, _, member = func.rpartition(".")
        signatures = [(p, s) for p, s in _sources(fp.signatures_of(member), fp)
                      if s.language == "go" and (p.rpartition("/")[0].endswith(f"/{package}")
                                                 or p.rpartition("/")[0] == package)]  # fmt: skip
        func = member if signatures else func
    if not signatures:
        return None
    languages = {s.language for _, s in signatures}
    if m["type"][:1].islower() and not (_TICKED_OR_ENDS.match(sentence, m.end("type"))
                                        or m.groupdict().get("after")):  # fmt: skip
        return None  # "takes any number of handlers": a word, not Go's ``any``
    if m["type"][:1].islower() and _LISTED_AFTER.match(sentence, m.end("type")):
        return None  # "accepts error, warn, info, debug": values, not Go's ``error``
    if m["type"].isupper() and not (m.group().endswith("`") or _KIND_NOUN.match(
            sentence, m.end("type"))):  # fmt: skip
        return None  # "returns HTTP 404", "MAX_SIZE": a word or a constant, not a ``URL``
    if not _type_shaped(m["type"], languages) or fp.constant_values(m["type"]):
        return None  # (``SkipRouter``, a value the code defines: "returns SkipRouter")
    paths = {p for p, _ in signatures}
    scope = paths.pop() if len(paths) == 1 else None
    stated = f"{_ONE}{m['type']}" if single else m["type"]
    if mark == RETURNS and m["only"]:
        stated = f"{_ONLY}{m['type']}"
    return Anchor(AnchorKind.PARAM, f"{func}({mark})", scope=scope, version=stated), func


def _sources(found: list[tuple[str, Signature]], fp: Fingerprint) -> list[tuple[str, Signature]]:
    """The signatures of the sources, where a build's copies (``dist/``) are among them."""
    return [(p, s) for p, s in found if not built_copy(p, fp)] or found


def _type_shaped(written: str, languages: set[str]) -> bool:
    if "_" in written and written.isupper():
        return False  # ``MAX_SIZE``: a constant
    if any(ch in written for ch in "&*<[.:") or written.startswith("..."):
        return True
    if written[:1].isupper():
        return True
    return any(written in _SCALARS.get(language, ()) for language in languages)


def find_typed(anchor: Anchor, fp: Fingerprint) -> Finding:
    """The verdict's finding for ``param:[PATH::]F(-> T)`` or ``F(: T)`` (module docstring)."""
    function, mark = anchor.argument
    stated = anchor.version or ""
    found = [(p, s) for p, s in _sources(fp.signatures_of(function), fp)
             if anchor.scope is None or p == anchor.scope]  # fmt: skip
    if not found:
        if fp.definitions(function):
            return Finding((), None, f"no signature of {function} was read; cannot tell", False)
        return Finding((), None, f"no file defines {function}")
    judged = [_judge(path, sig, mark, stated, fp) for path, sig in found]
    holding = [j for j in judged if j.found_in]
    if holding:
        return holding[0]
    unknown = next((j for j in judged if not j.answerable), None)
    return unknown or judged[0]


def _judge(path: str, sig: Signature, mark: str, stated: str, fp: Fingerprint) -> Finding:
    where = f"{path}:{sig.line} defines {sig.render()}"
    owner = sig.function.rpartition(".")[0].rpartition(".")[2]
    single = stated.startswith(_ONE)
    alone = stated.startswith(_ONLY)
    stated = stated.removeprefix(_ONE).removeprefix(_ONLY)
    wanted = _words(stated, owner)
    if single:  # one per call: the parameter of that type is no variadic one
        many = [p for p in sig.params if p.kind is ParamKind.ARGS
                and _contains(_words(p.annotation or "", owner), wanted)]  # fmt: skip
        if many:
            return Finding((), None, f"{where}: it takes any number of {stated}")
    if mark == RETURNS:
        written = [sig.returns] if sig.returns else []
        explicit = sig.language in _EXPLICIT or bool(sig.returns)
        what = "returns"
    else:
        if sig.text is None:
            return Finding((), None, f"{where}: its parameters were not kept; cannot tell", False)
        if sig.language in _EXPLICIT:
            written = [p.annotation for p in sig.params if p.annotation]
            explicit = True
        else:  # ``x: int = 5``, ``options?: SignalOptions``: each part's annotation
            parts = _parts(sig.text)
            written = [part.partition(":")[2].partition("=")[0].strip() for part in parts
                       if ":" in part]  # fmt: skip
            explicit = bool(parts) and len(written) == len(parts)
        what = "takes"
    marked = _MARKS.search(stated) is not None  # "map[string][]string": its brackets count
    tokens = _tokens(stated, owner) if marked else wanted
    for text in written:
        if not _contains(_tokens(text, owner) if marked else _words(text, owner), tokens):
            continue
        if alone and _several(text):
            return Finding((), None, f"{where}: it returns {text}, not only {stated}")
        if mark == RETURNS and sig.language == "rust" and _optional(text, stated):
            # "length returns a u64" of ``-> Option<u64>``: it may return none
            return Finding((), None, f"{where}: it returns {text}, not always {stated}")
        return Finding((path,), None, where)
    if not explicit:
        return Finding((), None, f"{where}: its types are not all written; cannot tell", False)
    unseen = _could_stand_for(written, owner, fp)
    if unseen is None and sig.language in ("typescript", "javascript"):
        unseen = _structural(written, stated, fp)
    if unseen is not None:
        return Finding((), None, f"{where}: {unseen} may be {stated}; cannot tell", False)
    if not written:
        said = "returns nothing" if mark == RETURNS else "takes no parameter"
        return Finding((), None, f"{where}: it {said}, not {stated}")
    return Finding((), None, f"{where}: it {what} no {stated}")


def _several(text: str) -> bool:
    """Whether a written result is several values (Go's ``(*Watcher, error)``, a tuple)."""
    inner = text.strip()
    if not (inner.startswith("(") and inner.endswith(")")):
        return False
    depth = 0
    for ch in inner[1:-1]:
        depth += ch in "([{<"
        depth -= ch in ")]}>"
        if ch == "," and depth == 0:
            return True
    return False


def _optional(text: str, stated: str) -> bool:
    """Whether a Rust result is an ``Option`` the stated type leaves out."""
    return text.strip().startswith("Option<") and "Option" not in stated


def _words(text: str, owner: str) -> list[str]:
    """The identifiers of a type, lower case, ``Self`` as the method's own type."""
    return [(owner if w == "Self" and owner else w).lower() for w in _WORD.findall(text)
            if w not in ("mut", "dyn", "const")]  # fmt: skip


# A type's punctuation that tells types apart: ``[]string`` / ``string``, ``*T`` / ``T``,
# ``&str`` / ``str``, ``Vec<u8>`` / ``Vec``
_MARKS = re.compile(r"[\[\]*&<>]")
_TOKEN = re.compile(r"[A-Za-z_]\w*|[\[\]*&<>]")
_LIFETIME = re.compile(r"'\w+\s*")


def _tokens(text: str, owner: str) -> list[str]:
    """A type's identifiers (as ``_words``) and its brackets, pointers and references, a
    Rust lifetime left out (``&'a str`` is ``& str``)."""
    return [(owner if t == "Self" and owner else t).lower()
            for t in _TOKEN.findall(_LIFETIME.sub("", text))
            if t not in ("mut", "dyn", "const")]  # fmt: skip


def _contains(words: list[str], wanted: list[str]) -> bool:
    """Whether ``wanted`` appears in ``words`` in order, one after another."""
    n = len(wanted)
    return n > 0 and any(words[i : i + n] == wanted for i in range(len(words) - n + 1))


def _could_stand_for(written: list[str], owner: str, fp: Fingerprint) -> str | None:
    """A written type that may be the stated one under another name: one whose core (the
    type inside wrappers such as ``Result``, ``Option``, ``Promise``) is a generic parameter
    or a type the repository defines with no member and no signature of its own (an alias,
    ``type GlobResult = Result<PathBuf, GlobError>``); None where there is none."""
    for text in written:
        core = _core(text)
        if core is None or core in ("Self", owner):
            continue
        if _GENERIC.match(core):
            return core
        if (core[:1].isupper() and fp.definitions(core) and not fp.signatures_of(core)
                and core not in fp.derived("type_claims.owners", _owners)):  # fmt: skip
            return core
    return None


def _structural(written: list[str], stated: str, fp: Fingerprint) -> str | None:
    """A written TypeScript type of the repository that a stated type of the repository
    may satisfy (``getLocal(): Mockttp`` returning a ``MockttpClient``): types match by
    shape there, which no fact records; None where either is not the repository's."""
    said = _core(stated)
    if said is None or not fp.definitions(said):
        return None
    for text in written:
        core = _core(text)
        if core is not None and core != said and core[:1].isupper() and fp.definitions(core):
            return core
    return None


# Types that hold the one a function means: "returns the paths" of ``Result<Paths, E>``.
_WRAPPERS = frozenset({"Result", "Option", "Promise", "Box", "Arc", "Rc", "Cow", "Pin",
                       "Optional", "Awaitable", "Coroutine", "Iterator", "Generator"})  # fmt: skip
_LIFETIME = re.compile(r"'\w+")


def _core(text: str) -> str | None:
    """The first identifier of a type once its wrappers are stripped (``Result<P, E>``:
    ``P``), lifetimes and ``mut``/``dyn``/``const`` left out."""
    words = [w for w in _WORD.findall(_LIFETIME.sub("", text)) if w not in ("mut", "dyn",
                                                                           "const", "io")]
    while len(words) > 1 and words[0] in _WRAPPERS:
        words = words[1:]
    return words[0] if words else None


def _owners(fp: Fingerprint) -> frozenset[str]:
    """The names of the definitions with members of their own (a struct's fields, a class's
    methods): types of their own, never an alias of another."""
    return frozenset(name for facts in fp.code.values() for d in facts.definitions
                     for name in d.qualname.split(".")[:-1])  # fmt: skip


def _parts(text: str) -> list[str]:
    """A Python or TypeScript parameter list's items, ``self``/``this`` and ``*`` left out."""
    depth, start, parts = 0, 0, []
    for i, ch in enumerate(text):
        if ch in "([{<":
            depth += 1
        elif ch in ")]}>":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts
            if p.strip() and p.strip() not in ("self", "cls", "*", "/", "this")]  # fmt: skip
