"""What a note says one name of the code does to another: the relation, never its ends.

"`TextFormatter` wraps `JSONFormatter`", "`Entry.WithField` returns a new `Logger`",
"`JSONFormatter` implements the `Hook` interface": both names exist, so their symbol
anchors hold, and a note built on them was VERIFIED while what it says of them (wrapping,
returning, implementing) was never looked at. Each such relation is an uncovered part
("that TextFormatter wraps JSONFormatter"): the note stays ACTIVE.

Read where a clause opens with a name the note's anchors resolved as a definition
(optionally "the", and a kind word: "the Entry struct embeds ..."), followed by a verb of
relation between pieces of code. Checked, and so covered, where the facts say it:

- a base class ("extends", "inherits from", "derives from", "subclasses"): the subject's
  bases name it;
- a Go struct's embedded type ("embeds"): the struct has the type as a field of its name;
- a module's member called ("calls `os.Exit`", "`atomic.StoreUint32`"): the subject's
  file writes it (``FileFacts.references``); a call a call anchor of the note checks.

Other verbs (wraps, returns, implements, delegates to, creates, holds ...) are only named,
and so are properties of the code ("the Logger struct is safe for concurrent use",
"`Cache.get` is idempotent", "... is deprecated") and when or how often it does something
("`dotenv::var` re-reads the file on every call", "... runs only once").
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from anchors.facts import FileFacts, Fingerprint
from anchors.languages import language_of
from anchors.pyfacts import body_hash
from anchors.spec import Anchor, AnchorKind, Expect
from anchors.type_claims import typed

__all__ = ["bases_said", "code_relation_parts"]

_KIND = r"(?:\s+(?:struct|class|type|function|func|method|trait|interface|enum|module))?"
_VERB = (
    r"(?P<verb>returns|wraps|embeds|implements|extends|inherits\s+from|subclasses|"
    r"derives\s+from|is\s+derived\s+from|"
    r"delegates\s+to|calls|invokes|instantiates|constructs|creates|overrides|decorates|"
    r"holds|contains|includes|lists|is\s+an?\s+(?:thin\s+)?(?:subclass|wrapper|alias)\s+"
    r"(?:of|for|around))"
)
_VERB_ONLY = re.compile(_VERB)
_CLAUSE = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
    rf"{_KIND}\s+(?:(?:also|only|always|now|still|just)\s+)?{_VERB}\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
    re.IGNORECASE,
)
# "The Logger struct is safe for concurrent use", "`Cache.get` is idempotent": a property
# of the code that its existing says nothing of
_PROPERTY = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
    rf"{_KIND}\s+(?:is|are)\s+(?:(?:always|fully|entirely|now|also|completely)\s+)?"
    r"(?P<object>(?:thread-?safe|goroutine-safe|concurrency-safe|safe\s+(?:for|to|across|under)"
    r"\s[^.;\n]{1,60}|immutable|mutable|idempotent|deprecated|asynchronous|async|synchronous|"
    r"blocking|non-blocking|lazy|lazily\s+\w+|cached|memoi[sz]ed|stateless|reentrant|pure|"
    r"a\s+singleton|a\s+no-op|side-effect[\s-]free|allocation-free|zero-copy|lock-free)\b)"
    r"(?=[^.;\n]{0,80}(?:[.;\n]|$))",
    re.IGNORECASE,
)
# "`dotenv::var` re-reads the file on every call", "`load` runs only once": when or how
# often the code does something, which no definition's existence says
_TIMED = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
    rf"{_KIND}\s+(?P<object>[a-z](?:[^.;\n]|\.(?=\w)){{0,100}}?\b(?:on\s+(?:every|each)\s+(?:call|request|"
    r"read|access|use|invocation|iteration)|every\s+time|each\s+time|(?:only|exactly|at\s+most|"
    r"just)\s+once|once\s+per\s+\w+|on\s+(?:the\s+)?first\s+(?:use|call|access)|lazily|eagerly|"
    r"in\s+the\s+background|in\s+(?:a|its\s+own)\s+(?:background\s+)?(?:thread|goroutine|task)|"
    r"concurrently|in\s+parallel)\b(?:[^.;\n]|\.(?=\w)){0,60}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
    re.IGNORECASE,
)
# "focusManager listens to the window focus event", "`Iter::load` skips keys already
# set": what a definition does, in any verb; its existing says nothing of it. Verbs that
# say where or what it is, or that other anchors of the note check (a package it uses, a
# variable it reads, a name it imports), are not actions.
_ACTION = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
    rf"{_KIND}\s+(?:(?:also|only|always|now|still|just|never|automatically|first)\s+)?"
    r"(?P<verb>[a-z][a-z-]{2,}(?<!ss)s)\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
# "src/index.ts exports a default persister": what a source file is said to export or
# define, where no anchor of the note names it; the file's existing says nothing of it
_FILE_EXPORTS = re.compile(
    r"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*`?(?P<name>[\w.\-]+(?:/[\w.\-]+)*\.[A-Za-z]{1,4})`?\s+"
    r"(?:(?:also|only|now|still)\s+)?(?P<verb>exports|re-exports|defines|declares)\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
_NOT_ACTION_WORDS = """
    is has lives sits exists defines declares belongs resides appears comes goes imports
    uses reads depends requires needs takes accepts expects wants lists includes contains
    holds keeps stores gets sets exports re-exports means equals matches does supports
    provides exposes owns registers mounts serves runs defaults falls points refers
    stands"""
_NOT_ACTIONS = frozenset(_NOT_ACTION_WORDS.split())
_BASES = ("extends", "inherits from", "subclasses", "is a subclass of", "is an subclass of",
          "derives from", "is derived from")
_CODE_WORD = re.compile(r"`?(?P<w>[A-Za-z_]\w*(?:(?:\.|::)[A-Za-z_]\w*)*)`?")
_ARTICLES = frozenset({
    "a", "an", "the", "new", "its", "their", "another", "one", "pointer", "to", "interface",
    "struct", "class", "type", "trait", "instance", "of",
})  # fmt: skip


def code_relation_parts(
    text: str,
    spans: Sequence[tuple[int, int, bool]],
    anchors: Iterable[tuple[Anchor, str]],
    fp: Fingerprint,
) -> list[str]:
    """The relations ``text`` states between a definition its ``anchors`` found (by the
    words they were read from) and another piece of code, that the facts do not check."""
    anchors = list(anchors)
    defined = {origin.strip("`").removesuffix("()"): a for a, origin in anchors
               if a.kind is AnchorKind.SYMBOL and a.expect is Expect.PRESENT}  # fmt: skip
    parts = _file_exports(text, spans, anchors, fp)
    if not defined:
        return parts
    # "`get_json` calls `client.get` with `follow_redirects=True`": a call anchor checks it
    called = [a.value.partition("(")[0] for a, _ in anchors if a.kind is AnchorKind.CALL]
    # "glob returns a `Result<Paths, PatternError>`": a type anchor checks it whole
    types = {(a.argument[0], a.version) for a, _ in anchors if typed(a)}
    origins = {origin.strip("`") for _, origin in anchors}
    for start, end, question in spans:
        if question:
            continue
        found = [*_CLAUSE.finditer(text, start, end), *_PROPERTY.finditer(text, start, end),
                 *_TIMED.finditer(text, start, end)]
        found += [m for m in _ACTION.finditer(text, start, end)
                  if m["verb"] not in _NOT_ACTIONS and not _VERB_ONLY.fullmatch(m["verb"])
                  and not any(o in m["object"] for o in origins if o != m["name"])
                  and not any(f.start("name") == m.start("name") for f in found)]  # fmt: skip
        for m in found:
            anchor = defined.get(m["name"].strip("`"))
            if anchor is None:
                continue
            verb = " ".join((m.groupdict().get("verb") or "is").lower().split())
            said_type = _KIND_AFTER.sub("", _ARTICLE.sub("", m["object"].strip().strip("`."))
                                        ).strip("`")  # fmt: skip
            if (anchor.value, _AS_TYPE.sub("", said_type)) in types:
                continue  # (also "the watched paths as a []string", "*Watcher and an error")
            target = _first_code_word(m["object"])
            if verb in ("calls", "invokes") and target in called:
                continue
            if _checked(anchor, verb, m["object"], fp):
                continue
            begin = m.start("name") - (text[m.start("name") - 1 : m.start("name")] == "`")
            said = " ".join(text[begin : m.end("object")].split())
            parts.append(f"that {said}")
    return parts


def bases_said(text: str, spans: Sequence[tuple[int, int, bool]],
               anchors: Iterable[tuple[Anchor, str]], fp: Fingerprint) -> list[str]:  # fmt: skip
    """The base classes a clause says a definition of ``anchors`` derives from that its
    bases name ("`ValidationError` derives from `ValueError`": checked there, though the
    repository does not define ``ValueError``)."""
    defined = {origin.strip("`"): a for a, origin in anchors
               if a.kind is AnchorKind.SYMBOL and a.expect is Expect.PRESENT}  # fmt: skip
    found = []
    for start, end, question in spans if defined else ():
        for m in () if question else _CLAUSE.finditer(text, start, end):
            anchor = defined.get(m["name"].strip("`"))
            verb = " ".join(m["verb"].lower().split())
            target = _first_code_word(m["object"])
            if anchor is not None and verb in _BASES and target and _checked(
                    anchor, verb, m["object"], fp):  # fmt: skip
                found.append(target)
    return found


# "graphql is re-exported from the root entry (src/core/index.ts)": a name said to be
# exported by a source file the sentence names
_EXPORTED_FROM = re.compile(
    r"`?(?P<name>[A-Za-z_$][\w$]*)`?\s+(?:is|are)\s+(?:also\s+)?(?:re-?)?exported\s+(?:from|by)\b"
    r"(?P<rest>(?:[^.;\n]|\.(?=\w)){0,120})", re.IGNORECASE)
_SOURCE_PATH = re.compile(r"[\w.\-]+(?:/[\w.\-]+)*\.(?:ts|tsx|js|mjs|cjs|py|go|rs)\b")


def _file_exports(text: str, spans: Sequence[tuple[int, int, bool]],
                  anchors: Sequence[tuple[Anchor, str]], fp: Fingerprint) -> list[str]:  # fmt: skip
    """What a note says a source file it names exports or defines, where no other anchor
    of the note was read from that part and the file's own names do not say it all ("src/
    index.ts exports a default persister"; "re-exports persist and retryStrategies" is
    said by ``export * from './persist'`` and ``'./retryStrategies'``)."""
    files = {a.value for a, _ in anchors if a.kind is AnchorKind.FILE
             and a.expect is Expect.PRESENT and language_of(a.value) is not None}  # fmt: skip
    if not files:
        return []
    said = []
    for start, end, question in spans:
        for m in () if question else _EXPORTED_FROM.finditer(text, start, end):
            paths = (fp.tracked_path(f.group()) for f in _SOURCE_PATH.finditer(m["rest"]))
            named = [p for p in paths if p in files]
            if len(named) == 1 and not _names_all(m["name"], fp.code.get(named[0])):
                said.append(f"that {m['name']} is exported from {named[0]}")
    origins = [origin.strip("`") for a, origin in anchors if a.kind is not AnchorKind.FILE]
    parts = []
    for start, end, question in spans:
        for m in () if question else _FILE_EXPORTS.finditer(text, start, end):
            if (m["name"] in files and not any(o and o in m["object"] for o in origins)
                    and not _WRITTEN_AS_CODE.search(m["object"])
                    and not _names_all(m["object"], fp.code.get(m["name"]))):  # fmt: skip
                parts.append(f"that {' '.join(m.group().split())}")
    return said + parts


# (a name written as code is another reader's: a symbol anchor, or an uncovered name)
_WRITTEN_AS_CODE = re.compile(r"`|::|\w\.\w")
_LIST_WORDS = frozenset({"and", "or", "a", "an", "the", "its", "from", "as", "both", "all"})


def _names_all(said: str, facts: FileFacts | None) -> bool:
    """Whether every word of ``said`` is a name the file defines, imports or re-exports
    (a module by its last part: ``./persist`` is ``persist``)."""
    if facts is None:
        return False
    own = {d.qualname for d in facts.definitions}
    for imp in facts.imports:
        own.update(imp.names)
        last = imp.module.rstrip("/").rpartition("/")[2]  # ``./persist.ts``: ``persist``
        own.add(last.split(".")[0] or last)
    words = [w for w in re.findall(r"[A-Za-z_$][\w$]*", said) if w.lower() not in _LIST_WORDS]
    return bool(words) and all(w in own for w in words)


_KIND_AFTER = re.compile(r"`?\s+(?:object|instance|value|type)$", re.IGNORECASE)
_ARTICLE = re.compile(r"^(?:an?|the|one)\s+(?:(?:new|fresh|single|optional)\s+)?`?",
                      re.IGNORECASE)


def _checked(anchor: Anchor, verb: str, said: str, fp: Fingerprint) -> bool:
    """Whether the facts say what the relation claims of the subject's definition."""
    target = _first_code_word(said)
    if target is None:
        return False
    found = [(p, d) for p, d in fp.definitions(anchor.value)
             if anchor.scope is None or p == anchor.scope]  # fmt: skip
    if verb in _BASES:
        short = target.rpartition(".")[2]
        return any(d.bases is not None and {target, short} & set(d.bases) for _, d in found)
    if verb == "embeds":
        hashes = {body_hash(f"{star}{target}".encode()) for star in ("", "*")}
        return any(d.body_hash in hashes for path, _ in found
                   for d in fp.code[path].definitions
                   if d.qualname == f"{anchor.value}.{target.rpartition('.')[2]}")  # fmt: skip
    if verb in ("calls", "invokes") and "." in target:
        return any(target in (fp.code[path].references or ()) for path, _ in found)
    return False


# What is said around a type a type anchor checks: what is passed or returned before it,
# Go's error returned beside it
_AS_TYPE = re.compile(r"^(?:\w+\s+){1,7}?as\s+(?:an?\s+)?|\s+and\s+an?\s+error$")


def _first_code_word(said: str) -> str | None:
    """The first name in the object that is not an article or a kind word ("a new
    `Logger`": ``Logger``; "the Hook interface": ``Hook``)."""
    for m in _CODE_WORD.finditer(said):
        word = m["w"]
        if word.lower() not in _ARTICLES:
            return word.replace("::", ".")
    return None
