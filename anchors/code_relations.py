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

_KIND = (r"(?:\s+(?:struct|class|type|function|func|method|trait|interface|enum|module|"
         r"constructor))?")
_VERB = (
    r"(?P<verb>returns|wraps|embeds|implements|extends|inherits\s+from|subclasses|"
    r"derives\s+from|is\s+derived\s+from|"
    r"delegates\s+to|calls|invokes|instantiates|constructs|creates|overrides|decorates|"
    r"holds|contains|includes|lists|is\s+an?\s+(?:thin\s+)?(?:subclass|wrapper|alias)\s+"
    r"(?:of|for|around))"
)
_VERB_ONLY = re.compile(_VERB)
_COPULA_FIRST = re.compile(r"(?:is|are|was|were|has|have|had)\b")
# ("Progress bars live in ...", "Count flags are ...": the "verb" was a plural noun)
_PLURAL_VERB = re.compile(r"(?:are|were|have|had|live|sit|stay|belong|exist|come|go|get|"
                          r"need|use|do|don't|can|cannot|can't|must|should|will|would|may)\b")
# A subject written as a name of code: capitalised, camelCase or with ``_``, ``.``, ``::``
_CODE_SUBJECT = re.compile(r"[A-Z][a-z0-9]+[A-Z]\w*|[a-z]+[A-Z]\w*|\w+(?:\.|::)\w[\w.:]*"
                           r"|[\w.\-]+(?:/[\w.\-]+)+\.[a-z]{1,4}")  # (or a source file)
# "When no `sequence` is given, the RestServer constructor binds ...": a condition first
_LEAD = (r"(?:(?:[Ww]hen|[Ii]f|[Uu]nless|[Oo]nce|[Ww]henever|[Aa]fter|[Bb]efore)"
         r"\s(?:[^,;.\n]|\.(?=\w)){1,80},\s*)?")
# "`Handler` (hooks/logs.py) subclasses ...", "`UserError` in app/exceptions.py derives
# from ...", "`Base`, the base of every group, subclasses ...": where the name is defined
# or what it is, said beside it
_PLACED = (r"(?:\s+\([^()\n]{1,80}\)|\s+in\s+`?[\w./\-]+\.\w{1,4}`?"
           r"|,\s+(?:the|a|an|our|its)\s+(?:[^,;.\n]|\.(?=\w)){1,80},)?")
_CLAUSE = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*{_LEAD}(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?{_PLACED}"
    rf"{_KIND}\s+(?:(?:also|only|always|now|still|just)\s+)?{_VERB}\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
    re.IGNORECASE,
)
# "The Logger struct is safe for concurrent use", "`Cache.get` is idempotent": a property
# of the code that its existing says nothing of
_PROPERTY = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*{_LEAD}(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
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
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*{_LEAD}(?:the\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?"
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
_ACTION = re.compile(  # ("The library's `ParseRecipients` ...": whose it is, before it)
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*{_LEAD}(?:[Tt]he\s+)?(?:[\w.\-]+['’]s\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*"
    r"|[\w.\-]+(?:/[\w.\-]+)+)(?:\(\))?`?"
    rf"{_PLACED}{_KIND}\s+(?:(?:also|only|always|now|still|just|never|automatically|first)\s+)?"
    r"(?P<verb>[a-z][a-z-]{2,}(?<!s)s)\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
# "`tun.New` takes the `*core.Core` as its first argument and wraps it in an ipv6rwc": a
# second verb of the same subject, an action as much as a first one would be
_AND_ACTION = re.compile(
    rf"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*{_LEAD}(?:[Tt]he\s+)?(?:[\w.\-]+['’]s\s+)?`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*"
    r"|[\w.\-]+(?:/[\w.\-]+)+)(?:\(\))?`?"
    rf"{_PLACED}{_KIND}\s+[a-z][a-z-]{{2,}}s\s+(?:[^.;\n]|\.(?=\w)){{1,120}}?,?\s+and\s+"
    r"(?:(?:also|then|always|never|just)\s+)?(?P<verb>[a-z][a-z-]{2,}(?<!s)s)\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
# "src/index.ts exports a default persister": what a source file is said to export or
# define, where no anchor of the note names it; the file's existing says nothing of it
_FILE_EXPORTS = re.compile(
    r"(?:^|(?<=[.;:!?]\s)|(?<=\n))\s*`?(?P<name>[\w.\-]+(?:/[\w.\-]+)*\.[A-Za-z]{1,4})`?\s+"
    r"(?:(?:also|only|now|still)\s+)?(?P<verb>exports|re-exports|defines|declares)\s+"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){1,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
# "An invalid regex makes `Builder::init` panic", "a 'Unchanged' response makes
# loadSupergraphSdl throw an UplinkFetcherError": what a definition is made to do, which
# its existing says nothing of
_CAUSED = re.compile(
    r"\b(?:makes?|made|causes?|caused|forces?|forced|lets?)\s+(?:the\s+)?"
    r"`?(?P<name>[A-Za-z_][\w.]*(?:::\w+)*)(?:\(\))?`?\s+"
    r"(?:(?:to|not|never|always)\s+)?(?P<verb>(?!an?\b|the\b|and\b|or\b)[a-z][a-z-]{2,})\b"
    r"(?P<object>(?:[^.;\n]|\.(?=\w)){0,120}?)(?=\s*(?:\.(?:\s|$)|[;\n]|$))",
)
_NOT_ACTION_WORDS = """
    is has lives sits exists defines declares belongs resides appears comes goes imports
    uses reads depends requires needs takes wants lists includes contains
    holds keeps stores gets sets exports re-exports means equals matches does
    provides exposes owns registers mounts serves defaults falls points refers
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
    code_files = {origin.strip("`") for a, origin in anchors if a.kind is AnchorKind.FILE
                  and a.expect is Expect.PRESENT and language_of(a.value) is not None
                  and language_of(origin.strip("`")) is not None}  # (a file, as written)
    # what those files are checked for: a use scoped to one of them, a name, a variable
    placed = {origin.strip("`") for a, origin in anchors
              if a.kind in (AnchorKind.SYMBOL, AnchorKind.ENV, AnchorKind.CONFIG)
              or (a.kind in (AnchorKind.IMPORT, AnchorKind.TECH) and a.scope is not None)}
    parts = _file_exports(text, spans, anchors, fp)
    if not defined and not code_files:
        return parts
    # "`get_json` calls `client.get` with `follow_redirects=True`": a call anchor checks it
    called = [a.value.partition("(")[0] for a, _ in anchors if a.kind is AnchorKind.CALL]
    # "glob returns a `Result<Paths, PatternError>`": a type anchor checks it whole
    types = {(a.argument[0], a.version) for a, _ in anchors if typed(a)}
    # (what another anchor checks of the object: a package used, a variable read; a name's
    # existence says nothing of how the subject relates to it)
    # (a file's existence says nothing of it either: "... to a WebSocket (server.go)")
    origins = {origin.strip("`") for a, origin in anchors if a.kind is not AnchorKind.FILE
               and (a.kind is not AnchorKind.SYMBOL or a.version is not None)}  # fmt: skip
    # (a value anchor on ``GYM_SETTINGS.ALLOW_UPLOADS`` checks "GYM_SETTINGS ALLOW_UPLOADS")
    origins |= {o.rpartition(".")[2] for o in origins if "." in o}
    for start, end, question in spans:
        if question:
            continue
        found = [*_CLAUSE.finditer(text, start, end), *_PROPERTY.finditer(text, start, end),
                 *_TIMED.finditer(text, start, end), *_CAUSED.finditer(text, start, end)]
        found += [m for m in (*_ACTION.finditer(text, start, end),
                              *_AND_ACTION.finditer(text, start, end))
                  if m["verb"] not in _NOT_ACTIONS and not _VERB_ONLY.fullmatch(m["verb"])
                  and not _PLURAL_VERB.match(m["object"])  # ("Count flags are ...": a noun)
                  and not (any(o in m["object"] for o in origins if o != m["name"])
                           and _little_else(m["object"], origins))
                  and not any(f.start("name") == m.start("name") for f in found)]  # fmt: skip
        for m in found:
            anchor = defined.get(m["name"].strip("`"))
            if (anchor is None and m.re in (_ACTION, _AND_ACTION)
                    and m["verb"] not in _NOT_ACTIONS and m["name"].strip("`") in code_files
                    and not any(o in m["object"] for o in placed)):  # fmt: skip
                # "standalone_python.py verifies the build against a checksum": what a
                # source file does, which its being tracked says nothing of ("... formats
                # timestamps with humantime": the file's use of it, which its anchor checks)
                said = " ".join(text[m.start("name") : m.end("object")].split())
                parts.append(f"that {said}")
                continue
            if anchor is None:
                # "Error stores its value in a Box<ErrorImpl>": what a name of code does to
                # a definition the note found, which its existing says nothing of
                if (m.re in (_ACTION, _AND_ACTION) and _CODE_SUBJECT.fullmatch(m["name"])
                        and not _COPULA_FIRST.match(m["object"])
                        and any(o in m["object"] for o in defined)):  # fmt: skip
                    said = " ".join(text[m.start("name") : m.end("object")].split())
                    parts.append(f"that {said}")
                continue
            verb = " ".join((m.groupdict().get("verb") or "is").lower().split())
            said_type = _KIND_AFTER.sub("", _ARTICLE.sub("", m["object"].strip().strip("`."))
                                        ).strip("`")  # fmt: skip
            if (anchor.value, _AS_TYPE.sub("", said_type)) in types:
                continue  # (also "the watched paths as a []string", "*Watcher and an error")
            target = _first_code_word(m["object"])
            if verb in ("calls", "invokes") and target in called:
                continue
            if _checked(anchor, verb, m["object"], fp) or _by_means_it_has(anchor, m["object"],
                                                                          defined, fp):
                continue
            begin = m.start("name") - (text[m.start("name") - 1 : m.start("name")] == "`")
            if m.re is _CAUSED:  # (what makes it do so, from where the sentence starts)
                begin = start + len(text[start:m.start()]) - len(text[start:m.start()].lstrip())
            said = " ".join(text[begin : m.end("object")].split())
            if m.re is _CAUSED and said[:1].isupper() and said[1:2].islower():
                said = said[0].lower() + said[1:]  # ("that an invalid regex makes ...")
            parts.append(f"that {said}")
    return parts


_OBJECT_WORD = re.compile(r"[A-Za-z][\w'-]*")
_FILLERS = frozenset({
    "a", "an", "the", "its", "their", "it", "them", "with", "by", "from", "to", "in", "on",
    "of", "for", "via", "through", "using", "and", "or", "as", "at", "into", "module",
    "package", "library", "crate", "variable", "environment", "env", "var", "value", "when",
    "is", "are", "that", "which", "most", "least", "per", "only", "up", "than", "more",
    "less", "each", "every", "all", "any", "default",
})  # fmt: skip


def _little_else(said: str, origins: set[str]) -> bool:
    """Whether what an action is said to do names little beside what other anchors check
    ("sends the message with smtplib"), rather than how it does it ("starts its workers
    with the multiprocessing 'spawn' context to avoid fork issues")."""
    checked = {w.lower() for o in origins for w in _OBJECT_WORD.findall(o)}
    rest = [w for w in _OBJECT_WORD.findall(said)
            if w.lower() not in _FILLERS and w.lower() not in checked]  # fmt: skip
    return len(rest) <= 3


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
            # ("convert/__init__.py" for open_web_calendar/convert/__init__.py)
            paths = [f.group() for f in _SOURCE_PATH.finditer(m["rest"])]
            named = [f for f in files if any(f == p or f.endswith("/" + p) for p in paths)]
            if len(named) == 1 and not _names_all(m["name"], fp.code.get(named[0]),
                                                  named[0], fp):  # fmt: skip
                said.append(f"that {m['name']} is exported from {named[0]}")
    origins = [origin.strip("`") for a, origin in anchors if a.kind is not AnchorKind.FILE]
    # (what an import or a variable anchor checks is theirs; a definition's existence says
    # nothing of what a file exports)
    checking = [origin.strip("`") for a, origin in anchors
                if a.kind not in (AnchorKind.FILE, AnchorKind.SYMBOL)]  # fmt: skip
    parts = []
    for start, end, question in spans:
        for m in () if question else _FILE_EXPORTS.finditer(text, start, end):
            # (a name written as code is another reader's, a symbol anchor, except what a
            # file exports: "src/index.ts re-exports `X`" is said by its exports alone)
            exports = m["verb"].endswith("exports")
            if (m["name"] in files
                    and not any(o and o in m["object"] for o in (checking if exports
                                                                  else origins))
                    and (exports or not _WRITTEN_AS_CODE.search(m["object"]))
                    and not _names_all(m["object"], fp.code.get(m["name"]), m["name"],
                                       fp)):  # fmt: skip
                parts.append(f"that {' '.join(m.group().split())}")
    return said + parts


# (a name written as code is another reader's: a symbol anchor, or an uncovered name)
_WRITTEN_AS_CODE = re.compile(r"`|::|\w\.\w")
_LIST_WORDS = frozenset({"and", "or", "a", "an", "the", "its", "from", "as", "both", "all",
                        "alongside", "along", "with", "plus", "together"})  # fmt: skip


def _names_all(said: str, facts: FileFacts | None, path: str, fp: Fingerprint) -> bool:
    """Whether every word of ``said`` is a name the file defines, imports or re-exports
    (a module by its last part: ``./persist`` is ``persist``; ``export * from './x'``:
    what x defines)."""
    if facts is None:
        return False
    own = {d.qualname for d in facts.definitions}
    for imp in facts.imports:
        own.update(imp.names)
        last = imp.module.rstrip("/").rpartition("/")[2]  # ``./persist.ts``: ``persist``
        own.add(last.split(".")[0] or last)
        if "*" in imp.names and (star := _relative_source(path, imp.module, fp)) is not None:
            own.update(d.qualname for d in fp.code[star].definitions)
    words = [w for w in re.findall(r"[A-Za-z_$][\w$]*", said) if w.lower() not in _LIST_WORDS]
    return bool(words) and all(w in own for w in words)


def _relative_source(path: str, module: str, fp: Fingerprint) -> str | None:
    """The source file a relative JavaScript or TypeScript specifier of ``path`` names
    (``./spec-enhancers/info.spec-enhancer`` -> ``src/spec-enhancers/info.spec-enhancer.ts``)."""
    if not module.startswith("."):
        return None
    parts = [*path.split("/")[:-1]]
    for part in module.split("/"):
        if part == "..":
            if not parts:
                return None
            parts.pop()
        elif part not in (".", ""):
            parts.append(part)
    base = "/".join(parts)
    for candidate in (base, *(f"{base}{s}" for s in (".ts", ".tsx", ".js", ".mjs", "/index.ts",
                                                      "/index.js"))):  # fmt: skip
        if candidate in fp.code:
            return candidate
    if base.endswith(".js") and base[:-3] + ".ts" in fp.code:
        return base[:-3] + ".ts"  # ``./x.js`` in TypeScript's ESM: ``x.ts``
    return None


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
        # every base it names ("derives from Error and RuntimeError"), by its last part
        wanted = [w for item in _BASE_LIST.split(said) if (w := _base_named(item))] or [target]
        return any(d.bases is not None and all(
            {w, w.rpartition(".")[2]} & set(d.bases) for w in wanted) for _, d in found)
    if verb == "embeds":
        hashes = {body_hash(f"{star}{target}".encode()) for star in ("", "*")}
        return any(d.body_hash in hashes for path, _ in found
                   for d in fp.code[path].definitions
                   if d.qualname == f"{anchor.value}.{target.rpartition('.')[2]}")  # fmt: skip
    if verb in ("calls", "invokes") and "." in target:
        return any(target in (fp.code[path].references or ()) for path, _ in found)
    if (decorator := _DECORATOR.search(said)) is not None:
        # "charge retries failed calls with the with_retries decorator": the subject's file
        # has the decorator by its name (defines or imports it)
        name = (decorator["d"] or decorator["e"]).rpartition(".")[2]
        return any(name in {d.qualname for d in fp.code[path].definitions}
                   or any(name in imp.names for imp in fp.code[path].imports)
                   for path, _ in found)  # fmt: skip
    return False


_DECORATOR = re.compile(r"`?@?(?P<d>[A-Za-z_][\w.]*)`?\s+decorator\b|\bdecorated\s+(?:with|by)\s+"
                        r"`?@?(?P<e>[A-Za-z_][\w.]*)")


# "renders through `rich.json.JSON`", "via `make_session`": the means a definition uses
_MEANS = re.compile(
    r"\b(?:through|via|using|with)\s+(?:the\s+|a\s+|an\s+)?`?(?P<w>[A-Za-z_][\w.]*)")


def _by_means_it_has(anchor: Anchor, said: str, defined: dict[str, Anchor],
                     fp: Fingerprint) -> bool:  # fmt: skip
    """Whether ``said`` names a definition of the note as the means the subject works by
    ("through `rich.json.JSON`") and the subject has it: its file defines it, or imports it
    at the top or inside the subject."""
    m = _MEANS.search(said)
    if m is None or m["w"].strip("`") not in defined:
        return False
    name = m["w"].rpartition(".")[2]
    for path, _ in fp.definitions(anchor.value):
        if anchor.scope is not None and path != anchor.scope:
            continue
        facts = fp.code[path]
        if any(d.qualname == name for d in facts.definitions) or any(
                name in imp.names and (not imp.within or anchor.value.startswith(imp.within))
                for imp in facts.imports):  # fmt: skip
            return True
    return False


# What is said around a type a type anchor checks: what is passed or returned before it,
# Go's error returned beside it
_AS_TYPE = re.compile(r"^(?:\w+\s+){1,7}?as\s+(?:an?\s+)?|\s+and\s+an?\s+error$")


_BASE_LIST = re.compile(r",\s*(?:and\s+)?|\s+and\s+")


def _base_named(item: str) -> str | None:
    """The class one item of a list of bases names: its last capitalised or dotted word
    ("pydantic BaseSettings", "CherryPy's `SimplePlugin`"; "the built-in Error class")."""
    item = _WHERE_FROM.split(item, 1)[0]  # "`CoreError` in `app/exceptions.py`"
    if _CLAUSE_VERB.search(item):
        return None  # a clause of its own ("and `app.py` imports `run`"), no base
    words = [m["w"] for m in _CODE_WORD.finditer(item) if m["w"].lower() not in _ARTICLES]
    if len(words) > 4:
        return None  # a clause of its own ("and `app.py` imports `run` from ..."), no base
    named = [w for w in words if w[:1].isupper() or "." in w]
    return named[-1] if named else (words[0] if words else None)


_WHERE_FROM = re.compile(r"\s+(?:in|from|of)\s+")
_CLAUSE_VERB = re.compile(r"\b(?:is|are|has|have|imports|uses|calls|defines|reads|writes|"
                          r"returns|runs|takes|sets)\b")


def _first_code_word(said: str) -> str | None:
    """The first name in the object that is not an article or a kind word ("a new
    `Logger`": ``Logger``; "the Hook interface": ``Hook``)."""
    for m in _CODE_WORD.finditer(said):
        word = m["w"]
        if word.lower() not in _ARTICLES:
            return word.replace("::", ".")
    return None
