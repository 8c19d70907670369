"""Anchors inferred from memory text, kept only when they resolve unambiguously.

A wrong anchor is worse than none: a present anchor that does not hold refutes a true
memory, and a negated fact stored as its positive is precisely inverted. So every candidate
is read in its clause (negated, hypothetical, someone else's, or a plain statement);
present anchors must resolve against the fingerprint, while absent ones ("we no longer use
redis") are kept unresolved, because absence is the claim.

The steps have modules of their own: the text's candidates (``anchors.candidates``), how
their clause reads them (``anchors.clauses``), what a name denotes in the code
(``anchors.codenames``) and versions stated in prose (``anchors.version_claims``); this
module resolves each candidate and settles what the text states both ways.
"""

from __future__ import annotations

import builtins
import itertools
import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, replace
from enum import Enum

from anchors.absence import (
    beside_part,
    contrasted,
    declared_unused,
    negation_part,
    runtime_import,
)
from anchors.absent_definitions import absent_definitions
from anchors.argument_claims import read_arguments
from anchors.backend_negation import backend_denial, backend_subject
from anchors.candidates import _SNAKE, _Cand, _Form, _Mode, _Neg, _scan
from anchors.cargo_toml import crate_name
from anchors.ci_binding import read_ci_claim
from anchors.clauses import _narrowed_by_subject, _negated_references, _read_modes
from anchors.code_relations import bases_said, code_relation_parts
from anchors.codenames import ENV_MEMBER, CodeNames, DropReason, Outcome, Pref, own_names
from anchors.component_kinds import part_claims
from anchors.concept_negations import concept_negations
from anchors.declared_specs import as_go_requirement, as_wanted, bare_version, declared_specs
from anchors.dependency_words import (
    DependencyWord,
    affirmed_dependency,
    denial_at,
    dependency_word,
)
from anchors.development import (
    RUNTIME_AFTER,
    about_development,
    claims_run_time,
    development_only,
    development_role_unchecked,
    optional_only,
    role_unchecked,
    run_time_import,
    tool_like,
)
from anchors.durations import restated_in_seconds, same_duration
from anchors.ecosystem_words import ecosystem_library
from anchors.facts import Fingerprint
from anchors.go_paths import GO_STD_PACKAGES, imported_package, own_go_member, words_joined
from anchors.infra_binding import bind_infra
from anchors.infra_facts import infra_kind
from anchors.infra_values import InfraKind
from anchors.literals import same_value
from anchors.manifest_binding import bind_manifest
from anchors.manifest_claims import MANIFEST_KEYS, manifest_claim
from anchors.member_claims import missing_member, recorded_names
from anchors.mentions import in_area, runs
from anchors.message_claims import find_quotes, header_names, message_anchor
from anchors.messages import header_literal, said_in_code
from anchors.name_contexts import (
    content_unread,
    import_manner,
    named_otherwise,
    names_listed,
    no_repository_file,
    placed_where_said,
    quoted_in_code,
    read_by_dependency,
    reread_in_context,
    written_keys,
)
from anchors.negated_parts import Negated, negated_clauses
from anchors.npm_application import npm_development_only, npm_peer_only, npm_run_time_import
from anchors.npm_negation import frontend_denial, frontend_subject
from anchors.option_binding import bind_option_names, bind_option_values
from anchors.parameter_words import read_parameter_words
from anchors.project_negations import of_project, project_negations
from anchors.projects import holds_python
from anchors.relations import bases_checked, read_relation, role_parts
from anchors.requirement_strings import development_group
from anchors.role_negations import declaration_denial, names_a_manifest, run_time_denial
from anchors.routes import read_routes
from anchors.run_time_files import command_of, command_program, in_command, users_file, written_path
from anchors.running_code import code_runs, package_run_time_import
from anchors.rust_defaults import bind_rust_defaults
from anchors.rust_paths import own_item, written_item
from anchors.setting_values import bind_setting_values
from anchors.spec import (
    Anchor,
    AnchorKind,
    AnchorSyntaxError,
    Expect,
    normalize_dist_name,
    parse_anchor,
)
from anchors.status_claims import read_statuses
from anchors.subject import CODE_FILE, Spans, resolve_name, resolve_subject, sentence_spans
from anchors.target_deps import target_claim
from anchors.tooling_dirs import built_copy
from anchors.type_claims import typed
from anchors.unread_parts import unread_parts
from anchors.value_binding import bind_values
from anchors.value_claims import (
    bare_value,
    in_call_expression,
    stated_as_default,
    stated_values,
    uncovered_values,
    version_span,
)
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from anchors.version_claims import (
    _EXACT_VERSION,
    PYTHON_NAMES,
    _python_claim,
    _version_after,
    _with_version,
)
from anchors.vocabulary import TechKind, Technology, by_name, for_import, lookup_word
from anchors.wordlists import COMMON_WORDS

__all__ = [
    "DropReason",
    "DroppedCandidate",
    "Inference",
    "beside_given",
    "disagreements",
    "infer_anchors",
    "read_given",
    "unchecked_code",
    "unchecked_words",
]


@dataclass(frozen=True)
class DroppedCandidate:
    """A candidate from the text that is not an anchor: ``reason`` is a stable code,
    ``detail`` a sentence for people."""

    candidate: str
    reason: DropReason
    detail: str


@dataclass(frozen=True)
class Inference:
    """What the text anchors: ``anchors`` (scope applied), what was left out and why, the
    memory's ``scope``, and ``origins[i]``, the text ``anchors[i]`` was read from."""

    anchors: tuple[Anchor, ...]
    dropped: tuple[DroppedCandidate, ...]
    scope: str | None
    origins: tuple[str, ...] = ()
    # What the note asserts that no anchor covers (a name neither the vocabulary nor the
    # code knows, code found nowhere): such a note is never VERIFIED, only not contradicted.
    uncovered: tuple[str, ...] = ()
    # Of those, the relations of a component and the roles of a definition
    # (``anchors.relations``): what given anchors do not check either.
    relations: tuple[str, ...] = ()
    roles: tuple[str, ...] = ()
    # ... and what it says of parameters and calls that no anchor checks, and the
    # packages that are also words a file is said to use and does not import.
    arguments: tuple[str, ...] = ()
    words: tuple[str, ...] = ()
    # ... and the negated clauses no absent anchor checks (``anchors.negated_parts``).
    negations: tuple[str, ...] = ()


# -- resolving ---------------------------------------------------------------------------
_MODE_DROP = {
    _Mode.HYPOTHETICAL: (DropReason.HYPOTHETICAL, "stated as a plan, question or condition"),
    _Mode.OTHER_PARTY: (DropReason.OTHER_PARTY, "about someone else's code"),
    _Mode.UNCLEAR: (DropReason.UNCLEAR_POLARITY, "negated clause, not plainly what it negates"),
    _Mode.NOT_A_USE: (DropReason.NOT_A_USE, "named as an alternative or a comparison, not a use"),
}


# "a file called config.json", "defaults to redocly.yaml", `NAME = "pelicanconf.py"`
_NAMED_FILE = re.compile(
    r"(?:\b(?:named|called|file\s?name|defaults?\s+to|falls?\s+back\s+to|(?:is|are)\s+set\s+to)"
    r"\s+[\"'“]?"
    r"|=\s*[\"']|`[A-Za-z_][\w.]*`\s+(?:is|=)\s+)`?$", re.IGNORECASE)
_NAMING_NOUN = re.compile(r"\s+`[^`\n]+`")
# The words that name a literal written after them ("the regex `^a+$`")
_NAMING_WORDS = frozenset({
    "regex", "regexp", "pattern", "template", "format", "glob", "expression", "string", "command",
    "prefix", "suffix", "header", "key", "value", "query",
})  # fmt: skip
_ARTICLE_BEFORE = re.compile(r"\b(?:the|a|an)\s+$", re.IGNORECASE)
# A verb of what a program does with files as it runs: the files are its, not the tree's
_RUNTIME_FILE = re.compile(
    r"\b(?:deletes|removes|writes|creates|generates|saves|stores|caches|dumps|downloads|"
    r"produces|emits|outputs|rotates|appends\s+to|written\s+to|saved\s+(?:to|as|in)|"
    r"stored\s+(?:in|as)|looks\s+for|searches\s+(?:for|up)|precedence|project\s+files?|"
    r"user(?:-global)?\s+config(?:uration)?)\b", re.IGNORECASE)
_KEY_AFTER = re.compile(r"[\"']\s*:\s*\S")
_EXTRA_BEFORE = re.compile(r"\b(?:the\s+|an?\s+)?extra\s+[`'\"]?$", re.IGNORECASE)
_EXTRA_AFTER = re.compile(r"[`'\"]?\s+extra\b(?!\s+(?:argument|arg|field|key|option|flag))",
                          re.IGNORECASE)
_A_KIND_OF = re.compile(r"\b(?:a|an|any|each|every|some)\s+[`'\"]?$", re.IGNORECASE)
# ``==3.1.9``: one version, which only a declaration of that version satisfies
_PIN = re.compile(r"==\s*\d[\w.+\-]*")
_RUST_PATH = re.compile(r"[a-z_][a-z0-9_]*(?:::[A-Za-z_][A-Za-z0-9_]*)+")
# "the module path", "the package name": a noun before a word makes a compound, no cue.
_COMPOUND = re.compile(r"\b(?:module|package|library|crate)\s+$", re.IGNORECASE)


def _resolve(c: _Cand, names: CodeNames, fp: Fingerprint, absent: bool) -> Outcome:
    text = c.text
    removal = c.neg is _Neg.REMOVAL
    if c.form is _Form.UNSAFE_PATH:
        return DropReason.UNSAFE, "backslash paths are not repository paths"
    if _VERSION_WORD.fullmatch(text):  # "validator/v10 v10.10.0": a version's first part
        return DropReason.COMMON_WORD, f"{text!r} is a major version, not a named thing"
    if (c.form is _Form.PATH_SYMBOL and _RUST_PATH.fullmatch(text) and _has_rust(fp)
            and text.split("::", 1)[0] in ("std", "core", "alloc", *names.foreign)):  # fmt: skip
        # "through std::env", "serde::de": a Rust module path, imported (or not);
        # "anstream::AutoStream": an item of it, where the code writes it
        expect = Expect.ABSENT if absent else Expect.PRESENT
        written = text if text.count("::") == 1 and text.islower() else written_item(text, fp)
        if absent and written not in (None, text):
            return DropReason.UNRESOLVED, f"a file writes {written}, not said to be {text}"
        if not absent and written is None:
            return DropReason.UNRESOLVED, f"no file writes {text}: the item is unchecked"
        return [Anchor(AnchorKind.IMPORT, written or text, expect, scope=names.scope)]
    # "uses spf13/viper", "hashes from golang.org/x/crypto/bcrypt": the code's module
    hosted = "/" in text and _HOST.fullmatch(text.split("/", 1)[0]) is not None
    used = (c.instrument or c.strong or hosted) and not c.developing
    if c.form is _Form.PATH and (module := _go_module(
            text, names, fp, absent, c.pref, used, c.modifies)) is not None:
        return module  # "uses spf13/pflag", "doesn't use gorilla/context any more"
    if absent and not removal and c.form in (_Form.PATH, _Form.PATH_SYMBOL):
        # "we no longer use auth/legacy.py" does not say the file is gone.
        return DropReason.UNCLEAR_POLARITY, "only removal ('X was deleted') negates a path"
    if absent and c.neg is _Neg.WEAK and c.form is _Form.ENV:
        # "starts without DATABASE_URL" does not say the code never reads it.
        return DropReason.UNCLEAR_POLARITY, "'no/not/without' negates only package names"
    if c.form is _Form.IMPORT:
        return names.import_phrase(text, absent)
    if c.form is _Form.PATH_SYMBOL:
        head = text.split("::", 1)[0]
        if (head[:1].isupper() and "/" not in head and "." not in head
                and names.scope is not None and _has_rust(fp)):  # fmt: skip
            # "Logger::matches is in src/logger.rs": a Rust type's method, as a dotted name,
            # where the note states a place (else it would be pinned to the file that
            # defines it now, and a later move would refute a note that named no file)
            dotted = replace(c, text=text.replace("::", "."), form=_Form.DOTTED)
            return _resolve(dotted, names, fp, absent)
        dotted_name = text.replace("::", ".")
        if (head[:1].isupper() and "/" not in head and "." not in head and not absent
                and _has_rust(fp) and fp.definitions(dotted_name)):  # fmt: skip
            # "EnvFilter::DEFAULT_ENV" in a note that states no place: the type's member
            # wherever it is defined (a move does not refute it)
            return [Anchor(AnchorKind.SYMBOL, dotted_name)]
        owner, _, part = text.partition("::")
        if not absent and (lacked := missing_member(fp, owner, part)) is not None:
            return [lacked.anchor()]  # "Builder::parse_default_filters": a type lacking it
        if not absent and _has_rust(fp) and head in ("crate", *own_names(fp)):
            return own_item(text, fp)  # "env_logger::fmt::Formatter": the crate's own
        return names.path_symbol(text, absent)
    if c.form is _Form.SCOPED_PACKAGE:
        if text in own_names(fp):  # "@trpc/server has no runtime dependencies": the subject
            return DropReason.OWN_PACKAGE, f"{text} is this repository's own package"
        return names.scoped_package(text, absent, c.pref)
    if c.form is _Form.PATH:
        found = names.path(text, absent, code=c.code)
        if isinstance(found, tuple) and text in names.foreign:  # "net/http", "@lumino/widgets"
            expect = Expect.ABSENT if absent else Expect.PRESENT
            return [Anchor(AnchorKind.IMPORT, names.foreign[text], expect, scope=names.scope)]
        return found
    # A two-letter word in capitals ("CI", "DB", "OS") is prose unless written as code.
    if (c.form is _Form.ENV and not absent and not c.reads and not fp.env_sources(text)
            and (placed := {p for p, _ in fp.constant_values(text)})):  # fmt: skip
        # "(ENV_VAR_PREFIX in flower/command.py)": a module's constant, not a variable of
        # the environment
        inside = {p for p in placed if names.scope is not None and in_area(p, names.scope)}
        if c.claimed and not inside and names.scope is not None and fp.has_path(names.scope):
            # "DEFAULT_NAME is defined in app/settings.py": the stated place is the claim
            return [Anchor(AnchorKind.SYMBOL, text, scope=names.scope)]
        if len(inside or placed) != 1:
            return DropReason.AMBIGUOUS, f"{text} is assigned in {len(placed)} files"
        return [Anchor(AnchorKind.SYMBOL, text, scope=(inside or placed).pop())]
    if not absent and _constant_among_env(c, fp):
        # "split on commas into TWO_FA_EXEMPT_USERS" among variables of the environment: a
        # constant the code assigns, which the environment may or may not set
        return DropReason.UNTYPED, f"{text} is a constant of the code; no code reads it by name"
    if c.form is _Form.ENV or (c.form is _Form.WORD and text.isupper() and text in fp.env_names()
                          and (len(text) > 2 or c.code or c.reads)):  # fmt: skip
        return names.env(text, absent, claimed=c.reads)
    if c.form is _Form.TECH and c.tech is not None:
        return _technology(c, c.tech, names, absent)
    if c.form is _Form.DOTTED and (not absent or removal) and (
            tracked := fp.tracked_path(text)) is not None:  # fmt: skip
        # "ships radicale.wsgi": a file of the repository named like a module
        return [Anchor(AnchorKind.FILE, tracked, Expect.ABSENT if absent else Expect.PRESENT)]
    if c.form is _Form.DOTTED and (variable := ENV_MEMBER.fullmatch(text)) is not None:
        return names.env(variable["name"], absent, claimed=True)  # process.env.NODE_ENV
    if c.form in (_Form.DOTTED, _Form.CALL):
        name = text.removesuffix("()")
        if absent:
            return names.absent_dotted(name, removal)
        if "." in name and (member := _go_package_member(name, fp, names.scope)) is not None:
            return [member]  # "limits.ExpectedFDs": the constant of the repository's package
        if "." in name:
            found = names.dotted(name, claimed=c.claimed, loose=True)
            if isinstance(found, tuple) and (variant := _variant_method(name, fp)) is not None:
                return [variant]  # "Tool::Lld.rust_exec()": the method of the enum
            sure = c.code or c.form is _Form.CALL or name != name.lower() or "_" in name
            if isinstance(found, tuple) and (member := names.package_member(name)):
                return [member]  # "mux.go joins them with strings.Join"
            if isinstance(found, tuple) and names.unused_member(name):
                # "os.Stderr" where the files importing os never write it; "traceback.install"
                # in rich: rich/traceback.py's
                return [own] if (own := names.file_member(name)) else found
            if sure and isinstance(found, tuple):
                return names.missing_in_scope(name, _lacking(name, names, fp))
            return found
        return names.missing_in_scope(name, names.symbol(name, claimed=c.claimed))
    if c.code and c.pref == "import" and re.fullmatch(r"[A-Za-z_]\w*", text):
        return [names.import_claim(text, absent)]  # "imports pallets_sphinx_themes"
    if c.code and (text not in COMMON_WORDS or c.defined):  # `verify`, `Store`: maybe a symbol
        # ("the SameSite modes are declared in csrf.go": a name qualifying a noun other than
        # a kind of definition is not what the clause places)
        if (c.claimed and not absent and c.qualifies and not (c.defined or c.ticked)
                and c.tech is None and lookup_word(text) is None
                and fp.definitions(text)):  # fmt: skip
            detail = f"{text!r} qualifies the word after it: what the clause places is unnamed"
            return DropReason.UNTYPED, detail  # (an unchecked part of the claim)
        found = names.symbol(text, claimed=c.claimed and not absent)
        if (isinstance(found, tuple) and _SNAKE.fullmatch(text)
                and names.declares(text)):  # fmt: skip
            # "depends on env_filter": no definition, a declared dependency (a crate's
            # name as code writes it); where the scope imports it, that import
            there = names.scope is not None and any(p == names.scope for p, _ in fp.importers(text))
            pref: Pref = "import" if there else "dep"
            return names.absent_word(text, pref) if absent else names.word(text, pref, True)
        if absent and isinstance(found, list) and not removal:
            return DropReason.UNCLEAR_POLARITY, "only removal negates a definition"
        if isinstance(found, list) or found[0] is not DropReason.UNRESOLVED:
            return [a.negated() for a in found] if absent and isinstance(found, list) else found
        if (not absent and (c.instrument or c.pref == "import") and _SNAKE.fullmatch(text)
                and "_" in text and for_import(text)):  # fmt: skip
            # "finds the default config through pkg_resources": a known package's module
            return [names.module_claim(text)]
        if not absent and _SNAKE.fullmatch(text) and said_in_code(text, fp):
            return found  # "(default_page_size)": a setting's key the code spells as a string
        if not absent and _SNAKE.fullmatch(text):
            return names.missing_in_scope(text, found)
    outcome = _word(c, text, names, absent)
    head, _, tail = text.partition("-")
    if (isinstance(outcome, tuple) and tail.lower() in ("py", "python") and len(head) > 2
            and by_name(head.lower()) is not None):  # fmt: skip
        # "redis-py", "docker-py": the Python client of a system, imported by its name
        expect = Expect.ABSENT if absent else Expect.PRESENT
        return [Anchor(AnchorKind.IMPORT, head.lower(), expect)]
    if ("-" in text and isinstance(outcome, tuple) and len(head) > 2 and c.tech is None
            and lookup_word(tail.partition("-")[0]) is None and not c.packaged
            and ((second := tail.partition("-")[0].lower()) in _COMPOUND_TAILS
                 or (second.endswith("ed") and len(second) > 4))):  # fmt: skip
        # "a duckdb-backed store": the compound names duckdb ("jest-puppeteer", of two
        # technologies, and "node-fetch" are packages of their own)
        outcome = _word(c, head, names, absent)
    return outcome


# The second half of a compound that says how a thing relates to the first, besides a past
# participle ("duckdb-backed", "gzip-compressed"); a likeness ("syslog-style",
# "redis-compatible", "unix-like") names no use of the thing
_COMPOUND_TAILS = frozenset({
    "specific", "native", "only", "aware", "friendly", "side",
    "first", "centric", "free", "level", "wide", "safe", "time", "scoped", "bound", "facing",
    "grade", "ready", "heavy", "light", "global", "local", "internal", "second", "minute",
    "hour", "day", "week", "month", "year",
})  # fmt: skip


_MEMBER_OF = re.compile(
    r"`?(?P<member>[A-Za-z_]\w*)`?\s+is\s+(?:an?\s+|the\s+)?(?:(?:private|public|exported|"
    r"unexported|static|async)\s+)?(?:method|field|member|attribute|variant)\s+(?:of|on)\s+"
    r"(?:the\s+)?"
    r"`?(?P<owner>[A-Z]\w*)`?(?:\s+(?:type|struct|class|trait|interface))?"
)
# "JSONFormatter has a PrettyPrint option", "the Log trait has a flush method", "Error has
# a NotFound variant"
_HAS_MEMBERS = re.compile(  # (a type of any case: Go's unexported ``timeFormat``)
    r"(?<![\w`])`?(?P<owner>[A-Za-z_]\w*)`?(?:\s+(?:type|struct|class|trait|interface))?\s+"
    r"(?:has|provides|exposes|defines)\s+(?:the\s+)?(?P<members>`?[A-Za-z_]\w*`?"
    r"(?:,\s+`?[A-Za-z_]\w*`?){0,8},?\s+and\s+`?[A-Za-z_]\w*`?)\s+"
    r"(?:methods|fields|members|attributes|options|properties|variants|cases)\b"
)
_IDENT = re.compile(r"(?<![\w`])`?([A-Za-z_]\w*)`?(?![\w`])")
_FIELDS = re.compile(r"\bfields?\b")  # "has len and buf fields": members said to be fields
_HAS_MEMBER = re.compile(
    r"(?<![\w`])`?(?P<owner>[A-Z]\w*)`?(?:\s+(?:type|struct|class|trait|interface))?\s+"
    r"(?:has|provides|exposes|defines)\s+(?:an?\s+)?`?(?P<member>[A-Za-z_]\w*)`?\s+"
    r"(?:method|field|member|attribute|option|property|variant|case)\b"
)


def _members_of(text: str, names: CodeNames, fp: Fingerprint,
                unchecked: list[str]) -> list[tuple[Anchor, str, tuple[int, int]]]:  # fmt: skip
    """"isOriginAllowed is a method of Cors", "Cors has an isOriginAllowed method":
    ``symbol:Cors.isOriginAllowed`` where the repository defines the owner (broken where it
    is sure the owner lacks the member, ``_lacking``), with the words it was read from and
    their span. A method said to be a field ("SmallVec has len and buf fields") is added to
    ``unchecked``: no anchor says what kind of member it is."""
    found: list[tuple[Anchor, str, tuple[int, int]]] = []
    stated = [(m, [m["member"]]) for m in (*_MEMBER_OF.finditer(text), *_HAS_MEMBER.finditer(text))]
    # "Event has Name and Op fields": each member of the list
    stated += [(m, [w for w in _IDENT.findall(m["members"]) if w != "and"])
               for m in _HAS_MEMBERS.finditer(text)]  # fmt: skip
    for m, members in stated:
        if not fp.definitions(m["owner"]):
            continue
        fields = _FIELDS.search(m.group()) is not None
        for member in members:
            qual = f"{m['owner']}.{member}"
            methods = {(p, s.line) for p, s in fp.signatures_of(qual)} if fields else set()
            if methods and all((p, d.line) in methods for p, d in fp.definitions(qual)):
                unchecked.append(f"that {qual} is a field")  # ``len`` is a method only
                continue
            outcome = names.symbol(qual)
            if isinstance(outcome, tuple):
                outcome = _lacking(qual, names, fp, variant="variant" in m.group())
            if isinstance(outcome, list):
                found += [(a, qual, m.span()) for a in outcome]
    return found


_WRITTEN_IN = re.compile(r"\b(?:written|implemented|coded)\s+(?:(?:entirely|mostly|fully)\s+)?"
                         r"in\s+`?$", re.IGNORECASE)  # fmt: skip
# The languages a note may say the code is written in, by technology, and their dialects
_LANGUAGE_DIALECTS = {"typescript": ("typescript", "tsx"), "rust": ("rust",)}


def _not_written_in(c: _Cand, text: str, outcome: Sequence[Anchor], fp: Fingerprint) -> bool:
    """"commander is written in TypeScript" where no code of that language runs (only its
    typings, or a compiler among the devDependencies): the technology is found, the
    language of the code is not."""
    if _WRITTEN_IN.search(text, max(0, c.start - 40), c.start) is None:
        return False
    dialects = next((_LANGUAGE_DIALECTS[a.value] for a in outcome if a.kind is AnchorKind.TECH
                     and a.value in _LANGUAGE_DIALECTS), None)  # fmt: skip
    if dialects is None:
        return False
    return not any(f.language in dialects and code_runs(p, f, fp) for p, f in fp.code.items())


def _only_on_targets(c: _Cand, text: str, spans: Sequence[tuple[int, int, bool]],
                     fp: Fingerprint) -> list[Anchor]:  # fmt: skip
    """"libc is only a dependency on Unix targets": a crate's declaration and the targets
    it is for (``anchors.target_deps``), which the restriction "only" is about."""
    name = next((d.name for d in fp.dependency(crate_name(c.text)) if d.ecosystem == "cargo"),
                None)  # fmt: skip
    if name is None:
        return []
    targets = target_claim(_sentence_of(c, text, spans), name, fp)
    return [Anchor(AnchorKind.DEP, name), targets] if targets is not None else []


def _project_dependency(c: _Cand, text: str, spans: Sequence[tuple[int, int, bool]],
                        fp: Fingerprint) -> Anchor | None:  # fmt: skip
    """"The crate depends on dirs-next": a dependency the project is said to have, that no
    other reading resolved; checked in its manifests. Said of a part, no claim of them."""
    found = affirmed_dependency(text, c.start, c.end, fp)
    start = max((a for a, _, _ in spans if a <= c.start), default=0)
    if found is None or not of_project(text, start, found[0], fp):
        return None
    return Anchor(AnchorKind.DEP, found[1])


def _project_denial(c: _Cand, text: str, spans: Sequence[tuple[int, int, bool]],
                    fp: Fingerprint) -> DependencyWord | None:  # fmt: skip
    """"The crate no longer depends on X", "we do not depend on X": a dependency the
    project denies, where the clause reader could not tell what is negated. Said of a part
    ("the finder does not depend on regex") it is no claim about the manifests."""
    at = denial_at(text, c.start)
    start = max((a for a, _, _ in spans if a <= c.start), default=0)
    if at is None or not of_project(text, start, at, fp):
        return None
    return dependency_word(text, c.start, c.end, True, fp, any_name=True)


def _lacking(name: str, names: CodeNames, fp: Fingerprint, variant: bool = False) -> Outcome:
    """``Type.member`` that no definition has: broken where the type is one whose members
    the facts see in full and nothing names the member (``anchors.member_claims``);
    left alone where the type may get it from outside (``Muscle.objects`` from Django's
    ``Model``). A module's missing name stays ``missing_member``'s."""
    found = names.missing_member(name)
    owner, _, member = name.partition(".")
    if not fp.definitions(owner) or "." in member:
        return found
    if isinstance(found, list) and not (len(found) == 1 and found[0].value == name):
        return found  # a name of a module (``pkg.module.Name``), not a type's member
    if isinstance(found, list) and check_anchor(found[0], None, fp).verdict is not Verdict.BROKEN:
        return found  # ``Order.total = Column(...)``: assigned in the class's file
    if isinstance(found, list) and names.scope is not None and found[0].scope == names.scope:
        return found  # "Order.total in shop/db/models.py": the stated file is the claim
    missing = missing_member(fp, owner, member, variant)
    if missing is not None:
        return [missing.anchor()]
    return DropReason.AMBIGUOUS, f"{owner} may have {member} from outside what the code defines"


def _ordinary(word: str, names: CodeNames) -> bool:
    """Whether ``word`` is an English word (as the vocabulary or the word lists know it)."""
    hit = lookup_word(word)
    return names.is_ordinary(word) or (hit is not None and hit[2])


# ``gopkg.in/yaml.v3``, ``github.com/spf13/pflag`` (a host), ``spf13/pflag`` (its owner on)
_GO_MODULE = re.compile(r"(?:[a-z0-9\-]+(?:\.[a-z0-9\-]+)+/)?[\w.\-]+/[\w.\-]+(?:/[\w.\-]+)*")
_GO_MAJOR_SUFFIX = re.compile(r"(?:/v\d+|\.v\d+)$")


_HOST = re.compile(r"[a-z0-9\-]+(?:\.[a-z0-9\-]+)*\.[a-z]{2,}")  # "golang.org", "github.com"


def _go_module(text: str, names: CodeNames, fp: Fingerprint, absent: bool,
               pref: Pref = None, used: bool = False,
               modifying: bool = False) -> Outcome | None:  # fmt: skip
    """A Go module a note names by its path in a repository with Go code, which is no path
    of the repository: the import of it. Absent ("doesn't use gorilla/context"), it holds
    while nothing imports it. Present, it is checked only where the note places it in Go
    code or the code imports another major version of it (``gopkg.in/yaml.v3`` for a
    note's ``yaml.v2``): a tool the project runs is named the same way and never imported.
    A sentence that says which ("imports github.com/pkg/errors", "depends on
    golang.org/x/sys": ``pref``) is checked as it says, and so is the means of what the code
    does ("flags are parsed with github.com/alecthomas/kong": ``used``), where no module of
    the repository requires it. None elsewhere."""
    if (not _GO_MODULE.fullmatch(text) or text.endswith((".go", ".mod", ".sum"))
            or not _has_go(fp) or fp.has_path(text) or fp.has_directory(text)):  # fmt: skip
        return None
    if words_joined(text, modifying):
        return None  # "other than debug/release/test": words, no package of Go's
    expect = Expect.ABSENT if absent else Expect.PRESENT
    if (member := own_go_member(text, fp)) is not None:
        return [replace(member, expect=expect)]
    text = imported_package(text, fp)  # "crypto/subtle.ConstantTimeCompare": its package
    if pref == "dep" and not absent and names.scope is None:
        return [Anchor(AnchorKind.DEP, text, expect)]  # "go.mod requires X": its manifest
    if absent or fp.importers(text):
        return [Anchor(AnchorKind.IMPORT, text, expect, scope=names.scope)]
    scope = names.scope
    in_go = scope is not None and (scope.endswith(".go") or (fp.has_directory(scope) and any(
        p.startswith(scope.rstrip("/") + "/") and p.endswith(".go") for p in fp.code)))
    base = _GO_MAJOR_SUFFIX.sub("", text)
    sibling = (base != text and bool(fp.importers(base))) or any(
        _GO_MAJOR_SUFFIX.sub("", d) == base for d in fp.dependency_names())
    if pref == "dep":
        return [Anchor(AnchorKind.DEP, text, expect)]
    required = any(_GO_MAJOR_SUFFIX.sub("", d) == base for d in fp.dependency_names())
    if (in_go or sibling or pref == "import" or text in GO_STD_PACKAGES
            or (used and not required)):  # fmt: skip
        # ("sync/atomic", "net/http": a package of Go's own, which no tool is named by)
        return [Anchor(AnchorKind.IMPORT, text, expect, scope=scope)]
    return None




# Modules of Python's standard library whose names are also words, which a note names as
# the means of what the code does ("persisted with pickle", "compressed with gzip")
_STDLIB_MEANS = frozenset({
    "pickle", "shelve", "marshal", "secrets", "csv", "glob", "socket", "signal", "queue",
    "heapq", "bisect", "zlib", "gzip", "bz2", "lzma", "hashlib", "hmac", "uuid", "tempfile",
    "shutil", "sched", "selectors", "struct", "json", "sqlite3", "threading",
})  # fmt: skip


# 'virtual:msw', "node:fs": a specifier in quotes, whose words are its own
_SPECIFIER = re.compile(r"(['\"])[\w.\-]+:[\w./@\-]+\1")


# Files known by their name wherever they are: "ships a Dockerfile", "has a go.mod"
_ONE_OF_A_KIND = (InfraKind.DOCKERFILE, InfraKind.COMPOSE, InfraKind.GO_MOD,
                  InfraKind.CARGO_TOML, InfraKind.PACKAGE_JSON, InfraKind.PYPROJECT)  # fmt: skip


def _depth(path: str) -> tuple[int, str]:
    return path.count("/"), path


def _declared_elsewhere(word: str, tech: Technology, names: CodeNames) -> str | None:
    """The package of another ecosystem than Python's that a manifest declares as
    ``word``, where no manifest declares the Python distribution ``tech`` names."""
    if any(d.ecosystem == "pypi" for dist in tech.dists for d in names.fp.dependency(dist)):
        return None
    found = [d for d in names.fp.dependency(word) if d.ecosystem != "pypi"]
    return found[0].name if found else None


def _go_package_member(name: str, fp: Fingerprint, scope: str | None) -> Anchor | None:
    """``pkg.Name`` where ``pkg`` is a Go package of the repository (its folder's name) and
    its files define ``Name``: that definition, in the one file (or the note's scope, or
    any file: ``limits.go`` and ``limits_windows.go`` each define it for a platform)."""
    package, _, member = name.partition(".")
    if not _has_go(fp) or "." in member or not member[:1].isupper():
        return None
    def in_package(path: str) -> bool:
        return path.endswith(".go") and path.rpartition("/")[0].rpartition("/")[2] == package

    found = [p for p, _ in fp.definitions(member) if in_package(p)] or [
        p for p, _ in fp.constant_values(member) if in_package(p)]  # fmt: skip
    if not found:
        return None
    place = found[0] if len(set(found)) == 1 else scope if scope in found else None
    return Anchor(AnchorKind.SYMBOL, member, scope=place)


def _variant_method(name: str, fp: Fingerprint) -> Anchor | None:
    """``Type.Variant.method`` (Rust's ``Tool::Lld.rust_exec()``, an enum's member then a
    method called on it): the method the one type defines, where it defines the member."""
    parts = name.split(".")
    if len(parts) != 3 or not fp.definitions(f"{parts[0]}.{parts[1]}"):
        return None
    found = fp.definitions(f"{parts[0]}.{parts[2]}")
    return Anchor(AnchorKind.SYMBOL, f"{parts[0]}.{parts[2]}", scope=found[0][0]) if len(
        found) == 1 else None


def _has_python(fp: Fingerprint) -> bool:
    return fp.derived("extract.python", lambda f: any(x.language == "python"
                                                      for x in f.code.values()))


def _has_go(fp: Fingerprint) -> bool:
    return fp.derived("extract.go", lambda f: any(x.language == "go" for x in f.code.values()))


def _has_rust(fp: Fingerprint) -> bool:
    return fp.derived("extract.rust", lambda f: any(x.language == "rust" for x in f.code.values()))


def _imported_in_scope(tech: Technology, names: CodeNames) -> Anchor | None:
    """An import of ``tech`` by the note's scope (a file or a directory), when there is one:
    a word that is also a package is the package where the subject imports it."""
    scope = names.scope
    if scope is None or tech.kind is not TechKind.PACKAGE:
        return None
    for module in tech.imports:
        if any(path == scope or path.startswith(f"{scope.rstrip('/')}/")
               for path, _ in names.fp.importers(module)):  # fmt: skip
            return Anchor(AnchorKind.IMPORT, module, scope=scope)
    return None


def _means_in_file(tech: Technology, names: CodeNames) -> Anchor | None:
    """An ordinary word that names a package the project's own running code imports, given
    as the means of what one source file does ("utils.py decodes tokens with jwt"): that
    file's import of it, broken when it does not import it. Nothing for a directory, a word
    the project never imports (then it is only a word), or a package whose code is not the
    file's language."""
    scope = names.scope
    facts = names.fp.code.get(scope) if scope else None
    if facts is None or facts.language != "python" or tech.kind is not TechKind.PACKAGE:
        return None
    for module in tech.imports:
        if any(runs(path) for path, _ in names.fp.importers(module)):
            return Anchor(AnchorKind.IMPORT, module, scope=scope)
    return None


def _technology(c: _Cand, tech: Technology, names: CodeNames, absent: bool) -> Outcome:
    if names.own_package(tech):
        return DropReason.OWN_PACKAGE, f"{tech.display} is this repository's own package"
    word = c.text.lower()
    if (c.pref == "dep" or c.packaged) and (other := _declared_elsewhere(word, tech, names)):
        # "graphql is a peer dependency" in an npm package: npm's graphql, not graphql-core
        return [Anchor(AnchorKind.DEP, other, Expect.ABSENT if absent else Expect.PRESENT)]
    # "a throttler runs": one who throttles, as much as the package so named
    common = c.common or (c.text.islower() and names.agent_noun(word))
    if tech.kind is TechKind.PACKAGE and c.text.isupper() and len(c.text) > 1 and not c.pref:
        # "PBKDF2", "JSON", "ORM": an acronym names an algorithm or a format, not a package
        return DropReason.COMMON_WORD, f"{c.text!r} is an acronym, not a package name"
    by_import = (tech.kind is TechKind.PACKAGE and word in tech.imports
                 and normalize_dist_name(word) not in tech.dists)  # fmt: skip
    proper = c.text[:1].isupper() and not c.initial  # "payments go through Stripe"
    if common and absent and c.neg is _Neg.WEAK and c.modifies and not (c.code or c.pref):
        # "the crate has no build script": the word qualifies a noun, it names no package
        return DropReason.COMMON_WORD, f"{c.text!r} qualifies the word after it here"
    # "uses Stripe", "a React app": capitalised as a name, as the object or before a noun
    named = proper and (c.object or c.builds)
    # "WebSocket keep-alive" in a TypeScript library: the common word in capitals, not the
    # Python package it also names (websocket-client) where no Python code could use it
    code = c.code and (c.ticked or "_" in c.text or word not in tech.common_aliases
                       or bool(tech.packages) or bool(names.fp.python))
    ordinary = (common or by_import) and not (c.strong or named or code or c.pref or absent)
    if ordinary:
        scoped = _imported_in_scope(tech, names) if c.object and not absent else None
        if scoped is not None:  # "shop/cli.py is written with click": it imports click
            return [scoped]
        if c.instrument and not absent and (means := _means_in_file(tech, names)) is not None:
            return [means]  # "ical.py fetches data with requests": it would import requests
        if ((c.instrument or c.object or (proper and c.complement))
                and not (absent or c.modifies) and _runs_with(tech, names)):  # fmt: skip
            # "folders are watched with watchdog", "the web server is Tornado": a runtime
            # dependency the code imports
            return names.technology(tech, c.text, absent, c.pref)
    if (c.instrument and c.developing and not (absent or c.modifies or c.pref)
            and names.scope is None and (tool := _development_tool(tech, names))):  # fmt: skip
        # "the tests run with jest", "the bundle is transpiled with Babel": what its
        # manifest declares (a note about a part of the repository is checked there, as
        # any technology)
        return tool
    if ordinary:
        detail = (f"{c.text!r} is an ordinary word as well as {tech.display}; write it in "
                  "backticks, say 'the X package', or pass an anchor")  # fmt: skip
        return DropReason.COMMON_WORD, detail
    if (tech.kind is TechKind.PACKAGE and not tech.packages and names.fp.code
            and not names.fp.python and not (c.packaged or c.pref) and word not in names.foreign
            and not any(d.ecosystem == "pypi" for dist in tech.dists
                        for d in names.fp.dependency(dist))):  # fmt: skip
        # "`config.Load`", "the old `interface` key" in a Go repository, "`socks` to false"
        # in a TypeScript one: a word only a Python package is named, where no code is
        # Python and nothing calls it a package
        return DropReason.UNTYPED, f"{c.text!r} names a Python package; no code here is Python"
    return names.technology(tech, c.text, absent, c.pref, c.runtime)


def _own_definition(text: str, tech: Technology, names: CodeNames,
                    c: _Cand) -> list[Anchor] | None:  # fmt: skip
    """A technology's name that the repository defines itself (``export let nanoid = ...``
    in ``src/nanoid.ts``) while it neither declares nor imports the technology, said as
    code or of the file that defines it: that definition. None otherwise ("we use click"
    in a project with a ``click`` function of its own still names the package)."""
    if text.lower() in own_names(names.fp) or text.lower() in names.first_party:
        return None  # "pino is an ES module package": the project itself
    places = sorted({p for p, _ in names.fp.definitions(text)})
    sources = [p for p in places if not built_copy(p, names.fp)]
    if not sources or not (c.code or names.scope in sources):
        return None
    packages = {*tech.dists, *(p.partition(":")[2] for p in tech.packages)}
    if any(names.fp.dependency(p) for p in packages) or any(
            names.fp.importers(m) for m in (*tech.imports, *packages)):  # fmt: skip
        return None
    scope = sources[0] if len(sources) == 1 else None
    return [Anchor(AnchorKind.SYMBOL, text, scope=scope)]


def _development_tool(tech: Technology, names: CodeNames) -> list[Anchor] | None:
    """A tool of development a project declares in its manifest: the npm package of it,
    where the repository's JavaScript has a manifest (``dep:jest``); the technology for a
    Python one; None for anything else."""
    npm = [p.removeprefix("npm:") for p in tech.packages if p.startswith("npm:")]
    declared = [p for p in npm if names.fp.dependency(p)]
    python = tech.kind is TechKind.PACKAGE and any(names.declares(d) for d in tech.dists)
    if npm and (declared or not python) and any(d.ecosystem == "npm"
                                                for d in names.fp.dependencies):  # fmt: skip
        if not declared:  # configured or imported all the same (``vitest.config.ts``)?
            found = names.technology(tech, tech.name, False, None)
            if isinstance(found, list) and found and (
                    check_anchor(found[0], None, names.fp).verdict is Verdict.HOLDS):  # fmt: skip
                return found
        return [Anchor(AnchorKind.DEP, (declared or npm)[0])]
    if tech.kind is TechKind.PACKAGE:
        found = names.technology(tech, tech.name, False, None)
        return found if isinstance(found, list) else None
    return None


def _runs_with(tech: Technology, names: CodeNames) -> bool:
    """Whether the repository declares the package ``tech`` and code that runs imports it."""
    return (tech.kind is TechKind.PACKAGE and any(names.declares(d) for d in tech.dists)
            and any(runs(p) for m in tech.imports for p, _ in names.fp.importers(m)))  # fmt: skip


_PLACED_PAST = re.compile(
    r"`?(?:\(\))?`?(?:,\s+(?:the|a|an|our|its)\s+[^,;]{1,80},|\s+\([^()\n]{1,80}\))\s+"
    r"(?:(?:is|are)\s+(?:defined|declared|implemented)|lives)\s+in\b")


def _located_definition(c: _Cand, text: str, names: CodeNames) -> bool:
    """Whether a word its clause places in the scope file is a definition's name: one the
    scope defines ("models defines Request"), or, said bare, one another source file
    defines, when it is written as code or opens its sentence in lower case ("debounce
    lives in src/scroll.ts": the stated file is the claim, where it is defined instead the
    evidence against). "The cache lives in app/store.py" speaks of a thing."""
    if text[:1].isupper() and names.defined_in_scope(text):
        return True
    if names.scope is None or names.fp.language(names.scope) is None:
        return False
    # ("Spinner definitions are in _spinners.py": a capital opening the sentence before a
    # noun names no definition; "Prerelease is defined in ..." does)
    said = c.code or (c.initial and (text[:1].islower() or not c.modifies))
    return said and bool(names.fp.definitions(text))


# "User-Agent", "Content-Type": an HTTP header, not the lower-case package of that name
_HEADER = re.compile(r"(?:X-)?[A-Z][a-z]+(?:-[A-Z][a-z]*)+")
# "ToX", "NewX": a name of code with a placeholder for its last part, which a package whose
# name has no capital at all is never written as
_PLACEHOLDER = re.compile(r"[A-Z][a-z]+[A-Z]")


_PRONOUNS = frozenset({
    "nothing", "something", "anything", "everything", "nobody", "everyone",
    "everybody", "someone", "anyone", "neither", "either", "both", "it", "they", "this",
    "that", "these", "those",
})  # fmt: skip


_RUNTIMES = frozenset({"rust", "nodejs", "typescript", "deno", "go", "golang", "python"})


def _word(c: _Cand, text: str, names: CodeNames, absent: bool) -> Outcome:
    """A single word: a technology from the vocabulary, an ordinary word (never an anchor),
    or a name the repository may know (an import or dependency it has)."""
    if text[:1].isupper() and names.fp.has_path(text):
        return [Anchor(AnchorKind.FILE, text)]  # "Dockerfile", "Makefile": a root file
    if text.lower() in _PRONOUNS:  # "nothing in the package imports it": no package
        return DropReason.COMMON_WORD, f"{text!r} is a pronoun, not a named thing"
    hit = lookup_word(text)
    if hit is not None and hit[0].display.islower() and (_PLACEHOLDER.fullmatch(text) or (
            _HEADER.fullmatch(text) and lookup_word(text.partition("-")[0]) is None)):
        # "ToX" beside "ToXE" is a placeholder of code, not the ``tox`` package; "User-Agent"
        # is a header ("Flask-Limiter", of a technology's name, is a package)
        hit = None
    if hit is not None and c.called and text[:1].isupper() and (
            imported := names.imported_name(text)) is not None:
        return [imported]  # `Path("/opt/pipx")`: the class the code imports, no package
    if hit is not None and c.tech is None and not absent and (own := _own_definition(text, hit[0],
                                                                                     names, c)):
        return own  # "nanoid is defined in src/nanoid.ts": the repository's own function
    if hit is not None and c.tech is None:
        c.tech, c.common = hit[0], hit[2]
        if c.qualifies and text[:1].isupper() and hit[0].name in _RUNTIMES and not absent:
            # "Node and Rust Core logs", "the Go SDK": a thing named by its language
            return DropReason.UNRESOLVED, f"{text} names what a thing is written in"
        if c.program and names.scope is not None:
            names = CodeNames(names.fp, None, names.words)  # the program, wherever it runs
        return _technology(c, hit[0], names, absent)
    w = text.lower()
    if c.owner and text.islower() and names.is_stdlib(w):
        return DropReason.COMMON_WORD, f"{w!r} names a thing the note speaks of, not a module"
    if c.claimed and not absent and _located_definition(c, text, names):
        return [Anchor(AnchorKind.SYMBOL, text, scope=names.scope)]  # "models defines Request"
    if (c.instrument and text.islower() and w in _STDLIB_MEANS and names.is_stdlib(w)
            and _has_python(names.fp)):  # fmt: skip
        return [names.module_claim(w)]  # "state is persisted with pickle": the module
    if names.is_ordinary(w) and c.pref is None and not c.code:
        return DropReason.COMMON_WORD, f"{w!r} is an ordinary word, not a named thing"
    outcome = names.absent_word(text, c.pref) if absent else names.word(text, c.pref, c.code)
    if (not absent and (c.object or c.slot or c.strong) and isinstance(outcome, list)
            and (unused := _declared_unused(outcome, names)) is not None):  # fmt: skip
        return [unused]
    if absent or not isinstance(outcome, tuple) or outcome[0] is not DropReason.UNRESOLVED:
        return outcome
    if _CODE_SHAPED.search(text) or c.code:
        imported = names.imported_name(text)
        if imported is not None:  # "through TimedRotatingFileHandler": the code imports it
            return [imported]
    if c.exported and not absent and _CAMEL.search(text) and names.nowhere(text):
        return [Anchor(AnchorKind.SYMBOL, text)]  # "exports a useSignal hook": it defines none
    if (not absent and (c.coded or (names.scope and names.fp.language(names.scope)))
            and _code_name(text) and names.nowhere(text)
            and text not in recorded_names(names.fp)):  # fmt: skip
        # "ErrQueueFull is returned when ...", "turned on with enableCollections", "served
        # by StatusHandler in app/handlers.py": a name only code has, which no file has
        scope = names.scope if names.scope and names.fp.language(names.scope) else None
        return [Anchor(AnchorKind.SYMBOL, text, scope=scope)]
    if (names.is_stdlib(w) and c.pref != "dep" and c.modifies
            and not (c.code or c.instrument or c.packaged)):  # fmt: skip
        # "replaces the header with netrc credentials", "gzip middleware": the module's
        # word qualifies a noun; whether the code uses the module is left unchecked
        return DropReason.UNTYPED, f"{text!r} qualifies the word after it here"
    if names.is_stdlib(w) and c.pref != "dep":
        return [names.module_claim(w)]  # a standard-library module the code never imports
    if c.pref == "dep" and c.packaged and (lacking := names.undeclared(text)):
        return [lacking]  # "the crossterm crate", "redux-saga is a dependency": declared nowhere
    # Only a name written like a package can be an untyped technology: "PBKDF2", "HS256"
    # and other acronyms are algorithms and formats, not things the code imports.
    if (key := w.replace("_", "-")) in MANIFEST_KEYS and "-" in key:
        return DropReason.COMMON_WORD, f"{text!r} is a key of a manifest"
    if (c.slot and re.fullmatch(r"[a-z][a-z0-9._-]*[a-z0-9]", w) and w not in names.first_party
            and not text.isupper()):  # fmt: skip
        detail = (f"{text!r} looks like a technology but is neither in the vocabulary nor in "
                  "the repository: pass an anchor (e.g. tech:NAME or dep:NAME)")  # fmt: skip
        return DropReason.UNTYPED, detail
    return outcome


def _classifiers_only(fp: Fingerprint) -> bool:
    """Whether what the project declares of Python is what its classifiers list (one
    ``==3.10.*`` a minor version, ``anchors.classifiers``): no ``requires-python``."""
    declared = fp.dependency("python")
    return bool(declared) and all(d.spec.startswith("==") and d.spec.endswith(".*")
                                  for d in declared)  # fmt: skip


def _declared_unused(outcome: list[Anchor], names: CodeNames) -> Anchor | None:
    """"src/notification.ts uses through2": an npm package package.json declares for run
    time and no file imports, said to be used by the JavaScript or TypeScript the note is
    about. Its declaration says nothing of that file: the import there is the claim (and
    breaks). A development tool ("minifies with terser") is run, never imported."""
    scope, fp = names.scope, names.fp
    if len(outcome) != 1 or outcome[0].kind is not AnchorKind.DEP or scope is None:
        return None
    name = outcome[0].value
    declared = fp.dependency(name)
    if (not declared or any(d.ecosystem != "npm" or not d.runtime for d in declared)
            or fp.importers(name)
            or not any(fp.language(p) in ("javascript", "typescript") for p in fp.code
                       if p == scope or p.startswith(scope.rstrip("/") + "/"))):  # fmt: skip
        return None
    return Anchor(AnchorKind.IMPORT, name, scope=scope)


# "under `dependencies` in package.json": the table of what the package runs with
_DEPENDENCIES_TABLE = re.compile(r"[`\"']dependencies[`\"']")
# "a peer dependency", "in its peerDependencies": npm's role for what the user installs
_PEER = re.compile(r"\bpeer[\s-]?dependenc(?:y|ies)\b|\bpeerDependenc", re.IGNORECASE)


def _peer_role(sentence: str, name: str, peers: list[str]) -> str:
    """The part left unchecked when ``sentence`` gives an npm package a role its
    declarations deny (``peers``: the packages only ``peerDependencies`` list): run time of
    a peer, or a peer of one that is not; "" otherwise."""
    if peers and claims_run_time(sentence):
        return f"{name} (a peer dependency)"
    if not peers and _PEER.search(sentence):
        return f"that {name} is a peer dependency"
    return ""


# A camelCase name (``useSignal``)
_CAMEL = re.compile(r"[a-z][A-Z]")
# Names only code has: camelCase from a lower-case start (``enableCollections``), or in
# PascalCase with a word code names things by (``StatusHandler``, ``ErrQueueFull``); a
# brand in capitals ("PagerDuty", "DigitalOcean") is neither.
_LOWER_CAMEL = re.compile(r"[a-z]+(?:[A-Z][a-z0-9]*)+")
_CODE_WORDS = re.compile(
    r"(?:[A-Z][a-z0-9]+)*(?:Handler|Error|Exception|Options|Config|Client|Server|Manager|"
    r"Factory|Builder|Provider|Service|Controller|Middleware|Listener|Watcher|Reader|"
    r"Writer|Parser|Context|Store|Queue|Registry|Adapter|Callback|Func|Kind|Mode|State|Cache)"
    r"|(?:Err|New)(?:[A-Z][a-z0-9]+)+"
)


def _code_name(text: str) -> bool:
    if text in _BUILTINS or text.endswith(("Dependency", "Dependencies")):
        return False  # ``ValueError``, ``TypeError``: every program has them; npm's words
    if _BRAND.fullmatch(text):
        return False  # "vCards", "iCalendar", "eBooks": a format's or product's name
    return len(text) >= 6 and bool(_LOWER_CAMEL.fullmatch(text) or (
        _CODE_WORDS.fullmatch(text) and _CAMEL.search(text)))  # fmt: skip


# ", while iCalendar data goes through ...": a clause with a subject of its own
_CONTRAST = re.compile(r",\s+(?:while|whereas)\s+(?!it\b|its\b|this\b)", re.IGNORECASE)
_BRAND = re.compile(r"[a-z][A-Z][a-z]+s?")
# Names a language gives every program: Python's builtins, JavaScript's error classes.
_BUILTINS = frozenset(dir(builtins)) | {
    "TypeError", "RangeError", "SyntaxError", "ReferenceError", "EvalError", "URIError",
    "AggregateError", "DOMException", "AbortController", "AbortSignal", "EventTarget",
}  # fmt: skip
# A name written as code is: two capitals (``TimedRotatingFileHandler``) or an underscore
_CODE_SHAPED = re.compile(r"[A-Z]\w*[A-Z]|_")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")  # not tab, newline, return


class _Unset(Enum):
    """No scope given: ``infer_anchors`` resolves the subject itself."""

    UNSET = "unset"


_UNSET = _Unset.UNSET


# ", not by argparse", "rather than through requests": the means a contrast denies
_NOT_INSTEAD = re.compile(r"(?:,|;|\s-)\s*(?:and\s+)?(?:not|never|rather\s+than|instead\s+of)\s+"
                          r"(?:(?:by|with|through|via|using|on)\s+)?(?:the\s+)?`?$",
                          re.IGNORECASE)  # fmt: skip


def _not_instead(c: _Cand, text: str, spans: Spans, fp: Fingerprint,
                 names: CodeNames) -> Anchor | None:  # fmt: skip
    """A module a contrast denies of the one source file its sentence names ("options are
    parsed by `OptionParser` in parser.py, not by argparse"): that file does not import it.
    None where the sentence names no single source file or the name is no module."""
    if c.form not in (_Form.WORD, _Form.TECH, _Form.IMPORT, _Form.DOTTED):
        return None
    if not _NOT_INSTEAD.search(text, max(0, c.start - 40), c.start):
        return None
    sentence = _sentence_of(c, text, spans)
    files = {resolve_name(m["path"], fp) for m in CODE_FILE.finditer(sentence)} - {None}
    if len(files) != 1:
        return None
    module = c.text.strip("`")
    tech = c.tech or by_name(module.lower())
    modules = tech.imports if tech is not None and tech.imports else (module,)
    if not (names.is_stdlib(modules[0]) or fp.importers(modules[0])):
        return None  # a word, not a module anything imports
    return Anchor(AnchorKind.IMPORT, modules[0], Expect.ABSENT, scope=files.pop())


# "depends on chrono at runtime": the run-time role said right after the name
_AT_RUN_TIME = re.compile(r"\s+(?:at|in)\s+(?:run-?\s?time|production)\b", re.IGNORECASE)
# "Node's http module": a runtime's possessive before one of its modules or libraries
_POSSESSED_MODULE = re.compile(
    r"['’]s\s+(?:(?:[`\w./:-]+\s+){0,3}?(?:built-?in\s+)?(?:module|package|library|"
    r"standard\s+library|stdlib|api)s?\b|(?!(?:versions?|support|requirements?|minimum|min|"
    r"floor|own|built-?in)\b)`?[a-z][\w:/]*`?(?=[\s,;.)]))", re.IGNORECASE)
_ALTERNATIVE = re.compile(r"`?\s+(?:or|nor)\s+(?:an?\s+|the\s+)?`?")
_FILE_NAME_BEFORE = re.compile(r"\bfile\s?name\s+[`'\"]?$", re.IGNORECASE)
_ASSIGNED_AFTER = re.compile(r"`?\s?=(?!=)")
_COPY_OF = re.compile(r"\b(?:(?:copy|fork|port|clone|re-?implementation)\s+of|(?:adapted|borrowed|"
                      r"copied|vendored|ported)\s+from|inspired\s+by|modell?ed\s+(?:on|after))"
                      r"\s+(?:the\s+)?`?$", re.IGNORECASE)
_MENTIONED = re.compile(
    r"\b(?:mentions?|mentioned|refers\s+to|talks\s+about)\s+(?:an?\s+|the\s+)?`?$", re.IGNORECASE)
_RUNTIMES = frozenset({"nodejs", "deno", "bun", "python", "go", "golang", "rust", "java"})


def _constant_among_env(c: _Cand, fp: Fingerprint) -> bool:
    """Whether a name said among variables of the environment is a constant the code
    assigns that no code reads from the environment by name."""
    return (c.form is _Form.ENV and c.reads and not fp.env_sources(c.text)
            and bool(fp.constant_values(c.text)))  # fmt: skip


def _runtime(c: _Cand) -> bool:
    """Whether the candidate names a language's runtime (Node.js, Python, Go)."""
    hit = c.tech or (found[0] if (found := lookup_word(c.text)) is not None else None)
    return (hit.name if hit is not None else c.text.lower()) in _RUNTIMES


# After a package's name, a noun that makes it a format's ("iCalendar data", "YAML files").
_FORMAT_NOUN = re.compile(r"\s+(?:data|formats?|files?|documents?|syntax|spec(?:ification)?s?|"
                          r"standards?|protocols?|feeds?|payloads?|strings?)\b",
                          re.IGNORECASE)  # fmt: skip


def _names_a_format(c: _Cand, text: str, fp: Fingerprint) -> bool:
    """Whether a package's name, not in backticks, is followed by a format noun and no
    code that runs imports the package: the note names the format (a claim of use would
    rest on a test's declaration and refute a true note)."""
    if c.ticked or c.form not in (_Form.WORD, _Form.TECH) or not _FORMAT_NOUN.match(text, c.end):
        return False
    tech = c.tech or by_name(c.text.lower())
    if tech is None or tech.kind is not TechKind.PACKAGE:
        return False
    return not any(runs(path) for module in tech.imports for path, _ in fp.importers(module))


def _touches_control(text: str, c: _Cand) -> bool:
    around = text[max(c.start - 1, 0) : c.start] + text[c.end : c.end + 1]
    return _CONTROL.search(around) is not None


def infer_anchors(text: str, fp: Fingerprint, subject: str | None = None, *,
                  scope: str | _Unset | None = _UNSET) -> Inference:  # fmt: skip
    """Anchors a memory's ``text`` supports against ``fp``, and what was left out and why.

    Candidates are code spans, paths, ``path::Qual``, dotted names, ``import`` phrases,
    ALL_CAPS env names and package-like words. A present anchor is kept only when it
    resolves unambiguously; a negated one ("we no longer use redis", "X was removed") is
    kept as an absent anchor even if the code never mentions it. Plans, questions and
    other people's code yield nothing. With a scope (from ``subject`` or the text), import
    anchors are claimed for it: ``import:sqlite3@app/billing.py``, which the verifier
    breaks if only another file imports sqlite3. ``scope``: what ``resolve_subject`` gave
    for the same subject, text and fingerprint, when the caller has it already.
    """
    spans = list(sentence_spans(text))
    if isinstance(scope, _Unset):
        scope = resolve_subject(subject, text, fp, spans=spans)
    names = CodeNames(fp, scope, frozenset(w.lower() for w in _NOTE_WORD.findall(text)))
    dropped: list[DroppedCandidate] = []
    if subject is not None and subject.strip():
        named = resolve_name(subject, fp)
        if named is None or named != scope:
            detail = "the subject names no single Python file, directory or module"
            dropped.append(DroppedCandidate(subject, DropReason.UNRESOLVED, detail))
    cands = _scan(text)
    _read_modes(text, cands, scope is not None, frozenset(names.first_party), spans)
    for c in cands:
        # "`parse`, the reviver that rejects keys, is defined in x.ts": placed past an
        # appositive that describes it
        c.claimed = c.claimed or _PLACED_PAST.match(text, c.end) is not None
    for before, c in itertools.pairwise(cands):
        # "no Dockerfile or Containerfile", "neither X nor Y": the alternative is read as
        # the name the negation stands before
        if (before.mode is not _Mode.PRESENT and c.mode is _Mode.PRESENT
                and _ALTERNATIVE.fullmatch(text, before.end, c.start)):  # fmt: skip
            c.mode, c.neg = before.mode, before.neg
    if scope is None:
        _narrowed_by_subject(text, cands, spans)
    _negated_references(text, cands, spans)
    for c in cands:
        if (c.pref is not None and c.form is _Form.WORD and not c.code
                and _COMPOUND.search(text, max(0, c.start - 12), c.start)
                and _ordinary(c.text.lower(), names)):  # fmt: skip
            c.pref = None  # "The module path is ...": English, not the `path` module
        if (c.form is _Form.PATH and "/" not in c.text and not fp.basename_paths(c.text)
                and (fp.basename_paths(f"{c.text.rpartition('.')[0]}.py")
                     or (c.text.count(".") > 1
                         and fp.module_path(c.text.rpartition(".")[0]) is not None)
                     or _ASSIGNED_AFTER.match(text, c.end))):  # fmt: skip
            # "via file_lock.lock": a member of file_lock.py; "sets app.json = X": an
            # attribute the code assigns; no file either way
            c.form = _Form.DOTTED
    local = _sentence_names(text, spans, fp, names)
    listed = names_listed(text)
    kept: list[tuple[Anchor, str]] = []
    uncovered: list[str] = []
    commands: list[tuple[int, int]] = []  # the spans of commands in backticks
    words: list[str] = []  # packages that are also words, used by the subject's file
    ticked: list[str] = []  # words in backticks no anchor reads
    objects: list[tuple[_Cand, list[Anchor]]] = []  # what a verb of use governs
    negations: list[str] = []  # negated names no anchor checks, as uncovered parts
    negated: list[str] = []  # ... the names they were read from
    checked_values: list[tuple[int, int]] = []  # the versions a dependency anchor checks
    manifests_named: list[tuple[int, int]] = []  # the manifests dependencies left
    controls = _CONTROL.search(text) is not None
    quotes = find_quotes(text, spans)  # a message's words are no claims of their own
    # "there is no `PY2` flag in `_compat.py`": the absent symbol in that file, whose words
    # are the binding's
    lacking = absent_definitions(text, fp)
    kept += [(d.anchor, d.name) for d in lacking]
    negated += [d.name for d in lacking]
    # "mux never reads environment variables", "has no third-party dependencies": the
    # code that runs, whole (anchors.project_negations)
    wholly = project_negations(text, fp, spans, scope)
    kept += [(n.anchor, n.origin) for n in wholly]
    negated += [n.origin for n in wholly]
    # "isOriginAllowed is a method of Cors": the member on that type
    members = _members_of(text, names, fp, uncovered)
    kept += [(a, origin) for a, origin, _ in members]
    # "the device description is served at `/rootDesc.xml`": a URL path the code serves
    routes = [r for a, b, question in spans if not question for r in read_routes(text, a, b, fp)]
    # "reads the token from the X-API-Key header": a name the code writes, in any case
    headers = [h for h in header_names(text) if not any(a <= h[1][0] < b for _, (a, b) in quotes)]
    read_whole = [q.span for q in quotes] + [d.span for d in lacking] + [n.span for n in wholly]
    read_whole += [span for _, span in routes] + [span for _, span in headers]
    read_whole += [m.span() for m in _SPECIFIER.finditer(text)]
    read_whole += [span for _, _, span in members]
    for c in cands:
        if read_whole and any(a <= c.start < b for a, b in read_whole):
            continue
        if c.mode is _Mode.PRESENT and _MENTIONED.search(text, max(0, c.start - 40), c.start):
            # "the README mentions a Containerfile": what a text says, not what is there
            detail = f"'{c.text}' is what something mentions, not a claim that it is there"
            dropped.append(DroppedCandidate(c.text, DropReason.NOT_A_USE, detail))
            continue
        if (c.form in (_Form.PATH, _Form.WORD) and "/" not in c.text and c.mode is _Mode.PRESENT
                and _A_KIND_OF.search(text, max(0, c.start - 8), c.start)
                and (kind := infra_kind(c.text)) in _ONE_OF_A_KIND):
            # "ships a Dockerfile and a docker-compose.yml": one of that kind, at any depth
            there = sorted((p for p in fp.infra if infra_kind(p) is kind), key=_depth)
            kept.append((Anchor(AnchorKind.FILE, there[0] if there else c.text), c.text))
            continue
        if (c.mode is _Mode.PRESENT and c.form in (_Form.WORD, _Form.TECH)
                and not development_group(c.text)
                and ((_EXTRA_BEFORE.search(text, max(0, c.start - 12), c.start)
                      and (c.ticked or "_" in c.text or "-" in c.text))
                     or _EXTRA_AFTER.match(text, c.end))):  # fmt: skip
            # "extra database_redis requires redis>=5.1", "the `sarif` extra": a name of
            # the manifest's optional groups, which the facts do not keep (what the extra
            # holds is checked by its dependencies' optional declarations)
            detail = f"'{c.text}' names an extra of the manifest, which no anchor reads"
            dropped.append(DroppedCandidate(c.text, DropReason.UNRESOLVED, detail))
            continue
        if (c.form is _Form.PATH and "/" not in c.text and not c.ticked
                and _A_KIND_OF.search(text, max(0, c.start - 8), c.start)):  # fmt: skip
            # "a config.json", "any Dockerfile": a file of that kind, not a path here
            detail = f"'{c.text}' is said of a kind of file, not of one path of this repository"
            dropped.append(DroppedCandidate(c.text, DropReason.EXTERNAL, detail))
            continue
        if (c.form is _Form.PATH and "/" not in (named := c.text.strip("`").removeprefix("./"))
                and c.mode is _Mode.PRESENT and not fp.basename_paths(named)
                and (_RUNTIME_FILE.search(sentence := _sentence_of(c, text, spans))
                     or users_file(named, sentence, fp)
                     or in_command(c, text, named))):  # fmt: skip
            # "`bat cache --clear` deletes themes.bin": a file the program makes as it runs
            uncovered.append(f"the file {c.text}")
            continue
        if (c.form is _Form.PATH and c.text.strip("`").startswith("./")
                and c.mode is _Mode.PRESENT and not fp.has_path(c.text.strip("`")[2:])
                and written_path(c.text.strip("`"), fp)):  # fmt: skip
            # "a password from ./misc/tor/control.conf": where the program looks as it runs
            uncovered.append(f"the file {c.text}")
            continue
        preceding = text[max(0, c.start - 40) : c.start]
        if "/" not in c.text and (
                (c.form is _Form.PATH and _NAMED_FILE.search(preceding))
                or (c.form is _Form.DOTTED and _FILE_NAME_BEFORE.search(preceding))):  # fmt: skip
            # "a file called config.json", "`C.CONFIG_FILE` is `.pre-commit-config.yaml`":
            # the name a file is given where the program runs, a value the note states, not
            # a path of this repository
            detail = f"'{c.text}' is the name a file is given, not a path of this repository"
            dropped.append(DroppedCandidate(c.text, DropReason.EXTERNAL, detail))
            continue
        if (not c.ticked and c.text.lower() in _NAMING_WORDS and _NAMING_NOUN.match(text, c.end)
                and _ARTICLE_BEFORE.search(text, max(0, c.start - 6), c.start)):  # fmt: skip
            # "finds symbols with the regex `_Z.+?E`": the word names the literal after it
            detail = f"'{c.text}' names the literal written after it"
            dropped.append(DroppedCandidate(c.text, DropReason.COMMON_WORD, detail))
            continue
        if text[c.start - 1 : c.start] in ('"', "'") and _KEY_AFTER.match(text, c.end):
            # `"build": "unbuild"`: a key of the snippet the note quotes, named by its value
            detail = f"'{c.text}' is a key of the quoted snippet"
            dropped.append(DroppedCandidate(c.text, DropReason.COMMON_WORD, detail))
            continue
        if controls and _touches_control(text, c):
            detail = "next to a control character"
            dropped.append(DroppedCandidate(c.text, DropReason.UNSAFE, detail))
            continue
        if (command := command_of(c, text)) is not None:
            # "`git config --file .git/config receive.denyCurrentBranch updateInstead`":
            # the words of a command are its arguments, no package or definition of the
            # tree; what the command does is unchecked (unless it is a value read below).
            # A source file said to run it writes what it runs as a string ("git").
            commands.append(command)
            runs_in = local(c.start).scope
            if (c.mode is _Mode.PRESENT and command_program(text, command) == (c.start, c.end)
                    and runs_in is not None and fp.language(runs_in) is not None):  # fmt: skip
                kept.append((Anchor(AnchorKind.MESSAGE, c.text, scope=runs_in), c.text))
                continue
            dropped.append(DroppedCandidate(c.text, DropReason.NOT_A_USE, "a word of a command"))
            continue
        if (otherwise := named_otherwise(c, text, _runtime(c))) is not None:
            # a runtime's global, a word of a quoted message, two names joined by "/", a
            # distribution's package, a platform (anchors.name_contexts)
            dropped.append(DroppedCandidate(c.text, *otherwise))
            uncovered += [c.text] if otherwise[0] is DropReason.UNTYPED else []
            continue
        if c.form is _Form.PATH and c.mode is _Mode.PRESENT and text[c.start - 1 : c.start] == "$":
            uncovered.append(f"the value ${c.text}")  # "is $HOME/.pprof/binaries": a value
            continue
        if (c.mode is _Mode.PRESENT and _COPY_OF.search(text, max(0, c.start - 40), c.start)
                and (local(c.start).known(c.text) or lookup_word(c.text) is not None)):  # fmt: skip
            # "a vendored, trimmed copy of cachelib": where the code came from, no use of it
            uncovered.append(f"that it is a copy of {c.text}")
            continue
        if _POSSESSED_MODULE.match(text, c.end) and _runtime(c):
            # "Node's http module", "Python's sqlite3", "Node's zlib": whose module, not a use
            detail = f"'{c.text}' says whose module it is; the module is the claim"
            dropped.append(DroppedCandidate(c.text, DropReason.NOT_A_USE, detail))
            continue
        if _names_a_format(c, text, fp):
            # "for parsing iCalendar data": the format, not the package of that name
            detail = f"'{c.text}' names a format here; no code that runs imports the package"
            dropped.append(DroppedCandidate(c.text, DropReason.NOT_A_USE, detail))
            continue
        # _python_claim reads only "python" and its keys (a call saved for every other word)
        python = (_python_claim(text, c, spans, _classifiers_only(fp))
                  if c.text.lower().replace("-", "_") in PYTHON_NAMES else None)  # fmt: skip
        if python == []:
            uncovered.append("the Python versions the classifiers list")
            continue
        if any(a <= c.start < b for a, b in manifests_named):
            continue  # the manifest a dependency was removed from: no claim of its own
        if c.form in (_Form.WORD, _Form.TECH, _Form.SCOPED_PACKAGE, _Form.IMPORT) and (
                in_file := manifest_claim(text, c.text, c.start, c.end, fp)):
            kept.append((in_file.anchor, c.text))  # "bleach was removed from requirements.txt"
            manifests_named.append(in_file.span)
            sentence = _sentence_of(c, text, spans)
            if in_file.anchor.expect is Expect.PRESENT and (
                    optional := optional_only(sentence, [in_file.anchor], fp)):  # fmt: skip
                uncovered.append(f"{c.text} ({optional})")  # "among the required dependencies"
            elif in_file.anchor.expect is Expect.PRESENT and (peer_role := _peer_role(
                    sentence, c.text, npm_peer_only([in_file.anchor], fp))):  # fmt: skip
                uncovered.append(peer_role)  # "in the runtime `dependencies`" of a peer
            elif (in_file.anchor.expect is Expect.PRESENT and _DEPENDENCIES_TABLE.search(sentence)
                    and npm_peer_only([in_file.anchor], fp)):  # fmt: skip
                uncovered.append(f"{c.text} (a peer dependency)")  # "under `dependencies`"
            elif in_file.anchor.expect is Expect.PRESENT and (role := development_role_unchecked(
                    sentence, c.text, [in_file.anchor], fp)):  # fmt: skip
                uncovered.append(role)  # "in the devDependencies" of a runtime one
            continue
        if c.form in (_Form.WORD, _Form.TECH, _Form.SCOPED_PACKAGE) and not python and (
                declared_not := declaration_denial(text, c.text.strip("`"), c.end, fp)):
            # "X is not a pyproject dependency"
            kept += [(a, f"{c.text} (undeclared)") for a in declared_not]
            negated.append(c.text)
            continue
        if names_a_manifest(c.text, text, c.end):
            detail = f"{c.text} names the manifest, not a package"
            dropped.append(DroppedCandidate(c.text, DropReason.UNRESOLVED, detail))
            continue
        if c.form in (_Form.WORD, _Form.TECH, _Form.SCOPED_PACKAGE) and not python and (
                denial := run_time_denial(text, c.text, c.end, fp)) is not None:
            # "Sphinx is not a runtime requirement"; "pytest-asyncio is a test extra, not
            # a runtime dependency" declares it too
            kept += [(a, c.text if a.expect is Expect.ABSENT else f"{c.text} (declared)")
                     for a in denial]  # fmt: skip
            negated.append(c.text)  # the role denied is checked, whatever the anchors' kind
            continue
        if c.mode is _Mode.UNCLEAR and frontend_subject(text, spans, c.start) and (
                in_frontend := frontend_denial(_resolve(c, local(c.start), fp, True), fp)):
            kept += [(a, c.text) for a in in_frontend]  # "the frontend no longer uses X"
            continue
        if c.mode is _Mode.UNCLEAR and backend_subject(text, spans, c.start) and (
                in_backend := backend_denial(_resolve(c, local(c.start), fp, True), fp)):
            kept += [(a, c.text) for a in in_backend]  # "the backend doesn't use GitPython"
            continue
        if c.mode is _Mode.UNCLEAR and (instead := _not_instead(c, text, spans, fp, names)):
            kept.append((instead, c.text))  # "parsed by OptionParser in parser.py, not argparse"
            negated.append(c.text)
            continue
        if c.mode is _Mode.UNCLEAR and c.form in (_Form.WORD, _Form.TECH) and (
                only := _only_on_targets(c, text, spans, fp)):  # fmt: skip
            kept += [(a, c.text) for a in only]  # "winapi is a Windows-only dependency"
            negated.append(c.text)  # the restriction is what the target anchor checks
            continue
        if c.mode is _Mode.UNCLEAR and c.form in (_Form.WORD, _Form.TECH) and (
                project_denial := _project_denial(c, text, spans, fp)):  # fmt: skip
            # "the crate no longer depends on X"
            kept += [(a, c.text) for a in project_denial.anchors]
            negated.append(c.text)
            continue
        if c.mode is not _Mode.PRESENT and c.mode is not _Mode.ABSENT and not python:
            resolves = isinstance(_resolve(c, names, fp, absent=False), list)
            if resolves or _salient(c, names):
                dropped.append(DroppedCandidate(c.text, *_MODE_DROP[c.mode]))
            if c.mode is _Mode.UNCLEAR and (resolves or (c.tech is not None and not c.common)):
                negations.append(negation_part(c))  # negated, but not as an anchor can check
                negated.append(c.text)
                if (runtime := runtime_import(c, text, spans, fp)) is not None:
                    kept.append((runtime, c.text))  # "not at runtime", yet code that runs does
            continue
        # "needs log 0.4.20", "regex is a direct optional dependency": the sentence names
        # the word as a dependency (anchors.dependency_words); "goes through zap" in a Go
        # repository: the library (anchors.ecosystem_words)
        word = c.form in (_Form.WORD, _Form.TECH) and not python
        as_dep = (dependency_word(text, c.start, c.end, c.mode is _Mode.ABSENT, fp)
                  if word else None)  # fmt: skip
        if as_dep is not None:
            uncovered += as_dep.unchecked
            kept += [(a, f"{c.text} (its role)") for a in as_dep.role]
        elif word and ecosystem_library(text, c.start, c.end, fp) is not None:
            c.strong = True
        outcome = python or (list(as_dep.anchors) if as_dep else None) or _resolve(
            c, local(c.start), fp, absent=c.mode is _Mode.ABSENT)  # fmt: skip
        if (c.mode is _Mode.PRESENT and isinstance(outcome, list) and quoted_in_code(c, text)
                and not any(a.kind is AnchorKind.ENV for a in outcome)):  # fmt: skip
            # "`uvicorn.Config(app, loop="uvloop")`": a string the code passes, no import
            outcome = (DropReason.UNRESOLVED, f"{c.text!r} is a string literal of the code")
        if (c.form in (_Form.WORD, _Form.TECH) and c.mode is _Mode.PRESENT
                and isinstance(outcome, list) and any(a <= c.start < b for a, b in listed)):
            # "storage types: caldav, carddav, filesystem, google_calendar": values of the
            # code, among which a package's name is one more value
            outcome = (DropReason.UNRESOLVED, f"{c.text!r} is one of a list of the code's names")
        if c.mode is _Mode.PRESENT and isinstance(outcome, list):
            # a keyword argument, a protocol's acronym, a word naming what a thing is, a
            # data file's path (anchors.name_contexts)
            outcome, part = reread_in_context(c, text, outcome, local(c.start))
            uncovered += [part] if part else []
        if (c.form in (_Form.WORD, _Form.TECH) and c.mode is _Mode.PRESENT
                and isinstance(outcome, list) and text[c.start - 1 : c.start] == "@"
                and text[c.end : c.end + 1] != "/"):  # fmt: skip
            # "`@retry(stop=...)`": a decorator the code applies, a name of code
            outcome = (DropReason.UNRESOLVED, f"@{c.text} is a decorator")
        if c.form is _Form.PATH and c.mode is _Mode.PRESENT and isinstance(outcome, list) and (
                why := no_repository_file(c, text, outcome, local(c.start))):  # fmt: skip
            outcome = why
        if c.form in (_Form.WORD, _Form.TECH) and declared_unused(text, c, spans):
            # "humantime is declared but never used by the source": the declaration holds
            # as a dependency, the use is denied as an import
            unused = local(c.start).absent_word(c.text, "import")
            if isinstance(unused, list):
                kept += [(a, f"{c.text} (never used)") for a in unused]
                outcome = local(c.start).word(c.text, "dep", c.code)
        if python:
            checked_values.append(version_span(text, c.end))
        if (isinstance(outcome, tuple) and c.mode is _Mode.PRESENT
                and (project_dep := _project_dependency(c, text, spans, fp))):  # fmt: skip
            outcome = [project_dep]  # "the crate depends on dirs-next": the manifests' claim
        if c.mode is _Mode.PRESENT and _constant_among_env(c, fp):
            uncovered.append(f"that {c.text} is read from the environment")
        if isinstance(outcome, tuple):
            if outcome[0] in _ALWAYS_REPORTED or c.tech is not None or _salient(c, names):
                dropped.append(DroppedCandidate(c.text, *outcome))
            if c.mode is _Mode.PRESENT and _uncovered(
                c, outcome[0], text, fp.has_path(scope or ""), _has_go(fp)
            ) and not (_CAPS_NAME.fullmatch(c.text) and _named_anywhere(c.text, fp)) and not (
                    outcome[0] is DropReason.COMMON_WORD and _in_infra(c.text, fp)):  # fmt: skip
                uncovered.append(c.text)
                if outcome[0] is DropReason.COMMON_WORD and c.ticked and c.tech is None:
                    ticked.append(c.text)  # "a `scan` command": code no anchor reads
                elif outcome[0] is DropReason.COMMON_WORD:
                    words.append(c.text)
            elif (c.mode is _Mode.PRESENT and c.form is _Form.PATH and "/" in c.text.strip("/")
                    and _PLACE_BEFORE.search(text, max(0, c.start - 12), c.start)
                    and fp.has_directory(c.text.strip("`/").partition("/")[0])):  # fmt: skip
                # "vendored under src/ironwood": a place under a folder of the tree that no
                # reading took is unchecked, not prose
                uncovered.append(c.text)
            continue
        if (beside := beside_part(c, outcome, fp)) is not None:
            uncovered.append(beside)  # a tool used beside the code: its absence proves nothing
            if c.mode is _Mode.ABSENT:
                dropped.append(DroppedCandidate(c.text, DropReason.BESIDE_THE_CODE, beside))
                continue
        development = c.mode is _Mode.PRESENT and _development_use(c, outcome, text, spans, fp,
                                                                   scope)  # fmt: skip
        if development:
            uncovered.append(f"{c.text} (declared for development only)")
            # a library the application would import: none of its code that runs does
            if not tool_like(outcome) and (not_imported := run_time_import(outcome, fp)):
                kept.append((not_imported, c.text))
            elif (RUNTIME_AFTER.match(text, c.end) or _AT_RUN_TIME.match(text, c.end)
                  or claims_run_time(_sentence_of(c, text, spans))) and (
                    not_run := package_run_time_import(outcome, fp)):  # fmt: skip
                kept.append((not_run, c.text))  # "rand is a runtime dependency": tests use it
        if c.mode is _Mode.PRESENT and _not_written_in(c, text, outcome, fp):
            uncovered.append(f"that the code is written in {c.text}")  # only its typings
        if c.mode is _Mode.PRESENT:
            sentence = _sentence_of(c, text, spans)
            for dep in (a for a in outcome if a.kind is AnchorKind.DEP):
                if (targets := target_claim(sentence, dep.value, fp)) is not None:
                    kept.append((targets, f"{c.text} (its targets)"))  # "a Windows-only dependency"
            if (optional := optional_only(sentence, outcome, fp)) is not None:
                uncovered.append(f"{c.text} ({optional})")  # "a core dependency"
            elif (role := development_role_unchecked(sentence, c.text, outcome, fp)) is not None:
                uncovered.append(role)  # "serde is a dev-dependency" when it is not
        peer = (c.mode is _Mode.PRESENT and _peer_role(_sentence_of(c, text, spans), c.text,
                                                        npm_peer_only(outcome, fp)))  # fmt: skip
        if peer:
            uncovered.append(peer)  # "react is a runtime dependency" of a peer dependency
        elif c.mode is _Mode.PRESENT and _npm_run_time(c, outcome, text, spans, development) and (
                npm_development_only(outcome, fp)):  # fmt: skip
            # npm: declared for development only, and no running source imports it
            uncovered.append(f"{c.text} (declared for development only)")
            if (not_bundled := npm_run_time_import(outcome, fp)) is not None:
                kept.append((not_bundled, c.text))
        spec = (_version_after(text, c.end)
                if c.form in (_Form.WORD, _Form.TECH) and not python else None)  # fmt: skip
        if spec is not None and c.mode is _Mode.PRESENT:
            if spec:
                outcome = _with_version(as_go_requirement(outcome, fp), spec, c)
            exact = _EXACT_VERSION.match(text, c.end) is not None and not _PIN.fullmatch(spec)
            if exact or not any(a.version for a in outcome):
                # "the requirement is ^2.6.0" states the spec itself: a narrower declaration
                # satisfies the anchor without making the sentence true, so never VERIFIED
                # ("pinned to 3.1.9" is ``==3.1.9``, which nothing narrower satisfies)
                uncovered.append(f"{c.text} {spec or 'version'}")
            checked_values.append(version_span(text, c.end))  # named above if unchecked
        elif c.mode is _Mode.PRESENT and not python and (
                bare := bare_version(text, c.end, outcome, fp)) is not None:  # fmt: skip
            outcome = [bare]  # "depends on env_filter 0.2": that series of the dependency
            checked_values.append(version_span(text, c.end))
        if (local(c.start).scope is None and c.object and c.mode is _Mode.PRESENT
                and not any(a.kind is AnchorKind.DEP and a.version for a in outcome)):
            # (a version claim is the declaration's: its anchor is not moved to a component)
            objects.append((c, outcome))
        for anchor in outcome:
            try:  # the parser is the one gate every anchor passes, inferred ones included
                kept.append((parse_anchor(anchor.render()), c.text))
            except AnchorSyntaxError as exc:
                dropped.append(DroppedCandidate(c.text, DropReason.UNSAFE, str(exc)))
    # "kinto has no counters plugin": a part named by its kind, where its kind is kept
    for _said, lacked, where, name in part_claims(text, fp):
        expect = Expect.ABSENT if lacked else Expect.PRESENT
        kept.append((Anchor(AnchorKind.FILE, where.path, expect), name))
    # "fails with "mux: unbalanced braces in %q"": what the code is said to say
    for quote in quotes:
        kept.append((message_anchor(quote, text, spans, kept, fp), quote.message))
        checked_values.append(quote.span)
    for path, span in routes:
        kept.append((Anchor(AnchorKind.MESSAGE, path), path))
        checked_values.append(span)
    for header, span in headers:
        if (literal := header_literal(header, fp)) is not None:
            kept.append((Anchor(AnchorKind.MESSAGE, literal), header))
        else:
            uncovered.append(f"the header {header}")
        checked_values.append(span)
    # "mux.go doesn't import regexp; only regexp.go does": the contrast states the positive
    for anchor in contrasted(text, spans, [a for a, _ in kept], fp, lambda n: resolve_name(n, fp)):
        kept.append((anchor, anchor.scope or anchor.value))
    # "Encoding detection uses chardet": checked in the component the subject names, or
    # an uncovered part; never VERIFIED by the project using it somewhere.
    # "CI lints the code with flake8": checked in the CI files, or an uncovered part
    for c, outcome in objects:
        if (ci := read_ci_claim(text, spans, c.start, c.text, outcome, fp)) is not None:
            kept = [(a, o) for a, o in kept if not (o == c.text and a in outcome)]
            kept += [(a, c.text) for a in ci.anchors]
            uncovered += [ci.part] if ci.part else []
    kept, relations = _relations(text, spans, fp, names, objects, kept)
    roles = [r for r in role_parts(text, spans, fp)  # "X is a field of Y" checked as Y.X
             if not any(all(p in r for p in q.split(".")) for _, q, _ in members)]  # fmt: skip
    checked = bases_checked(text, spans, fp)  # a library's base class, checked as one
    checked += bases_said(text, spans, kept, fp)  # "X derives from ValueError": the same
    uncovered = [u for u in uncovered if u not in checked] + relations + roles
    dropped = [d for d in dropped if d.candidate not in checked]
    # A value stated for a constant or an environment variable the code gives a literal is
    # checked by a value anchor, which finds the thing too: it replaces the existence one.
    values = bind_values(text, fp, scope, spans)
    # a setting named by its own words, a rate by its key (anchors.setting_values)
    values += bind_setting_values(text, fp, scope, spans, [b.span for b in values])
    # ("`PBKDF2(salt=None, func="sha1")`": an argument of the call, no class attribute)
    values = [b for b in values if not in_call_expression(text, b.span[0])]
    # "the `--port` option defaults to 8080": the option's declaration (anchors.cli_options)
    values += bind_option_values(text, fp, spans, [b.span for b in values])
    # "turned on with a -systemd-socket flag": the option declared, or not
    named_options = bind_option_names(text, fp, [b.span for b in values])
    kept += [(b.anchor, b.name) for b in named_options]
    for bound in values:
        kept = [(a, o) for a, o in kept if not _same_thing(a, bound.anchor)]
        # "falls back to config/kinto.ini": a path that is the value, not a file of the tree
        value = text[bound.span[0] : bound.span[1]]
        kept = [(a, o) for a, o in kept if not (a.kind is AnchorKind.FILE and o == value
                                                and not fp.has_path(a.value))]  # fmt: skip
        kept.append((bound.anchor, bound.name))
        checked_values.append(bound.span)
        # "(REST_FRAMEWORK PAGE_SIZE)": the dict and its key are both the bound name; the
        # value it checks ("is `sessionid`") is no name left unchecked
        parts = {bound.name, *bound.name.split("."), value, value.strip("'\"`"),
                 bound.anchor.version or value}
        uncovered = [u for u in uncovered if u not in parts]
        # "alerts are deleted two hours after (`DELETE_AFTER`)": the value is the claim
        negations = [n for n in negations if n != f"the claim about {bound.name}"]
        dropped = [d for d in dropped if d.candidate not in parts]
    # A value stated of a Dockerfile, a compose service or a CI matrix, in a sentence that
    # names it, is checked against that file (anchors.infra_binding).
    infra = [b for b in bind_infra(text, fp, spans, checked_values)
             if not in_call_expression(text, b.span[0])]  # fmt: skip
    # "the default features are just color and humantime", "declares no MSRV": what a
    # Cargo.toml or go.mod states, bound to it; the names it reads are its values
    # (and "`Target::Stdout` is the #[default]": a Rust default, anchors.rust_defaults)
    manifest = bind_manifest(text, fp, spans) + bind_rust_defaults(text, fp, spans)
    read = frozenset().union(*(bound.names for bound in manifest))
    kept = [(a, o) for a, o in kept if o not in read]
    uncovered = [u for u in uncovered if u not in read]
    negations = [n for n in negations if not any(f" {w}" in n for w in read)]
    # "`Target::Stderr` is the #[default]" is no role of a definition: the value checks it
    coded = [w for w in read if "::" in w or "_" in w]
    roles = [r for r in roles if not any(w in r for w in coded)]
    uncovered = [u for u in uncovered if u in roles or not any(w in u for w in coded)]
    dropped = [d for d in dropped if d.candidate not in read]
    kept += [(bound.anchor, bound.name) for bound in manifest]
    checked_values += [s for bound in manifest for s in (bound.span, *bound.also)]
    # "the rate limit is 2 ([guard] ratelimit = 2 in isso.cfg)": the value said twice (and
    # "one hour (`TIMEOUT = 3600`)")
    said = ({b.anchor.version for b in (*values, *infra)}
            | {b.anchor.version for b in manifest})
    checked_values += [(v.start, v.end) for v in stated_values(text)
                       if v.text in said or bare_value(v) in said
                       or any(same_value(v.text, s or "") for s in said if s)
                       or any(same_duration(v.text, s or "") or restated_in_seconds(v.text, s or "")
                              for s in said)]  # fmt: skip
    # "CI tests on Python 3.8", "the CI job uses Node 18" say what CI runs, not what the
    # project declares or imports: the toolchain's value anchor is the check.
    answered = {_TOOLCHAIN[b.anchor.value] for b in infra if b.anchor.value in _TOOLCHAIN}
    # "pins yarn 4 (packageManager yarn@4.x)": the manager's value anchor checks its use
    answered |= {(AnchorKind.TECH, (b.anchor.version or "").partition("@")[0]) for b in infra
                 if b.anchor.value == "packageManager"}  # fmt: skip
    # "engines.node >= 18": the key the binding checks is named, not left uncovered
    keys = {b.name for b in infra if b.name == b.anchor.value}
    # ... and so is engines.node when package.json's Node version checks the note
    keys |= {"engines.node" for b in infra if b.anchor.value == "node-version"
             and (b.anchor.scope or "").endswith("package.json")}  # fmt: skip
    uncovered = [u for u in uncovered if u not in keys]
    dropped = [d for d in dropped if d.candidate not in keys]
    answered_by = {o for a, o in kept if (a.kind, a.value) in answered}
    kept = [(a, o) for a, o in kept if (a.kind, a.value) not in answered]
    # "Node 18 or later": the version the toolchain's value anchor checks is covered
    uncovered = [u for u in uncovered if u.split(" ", 1)[0] not in answered_by]
    for bound in infra:
        # "DJANGO_SETTINGS_MODULE=shop.settings_test": a name inside the value is the value
        value = text[bound.span[0] : bound.span[1]]
        kept = [(a, o) for a, o in kept if not (o != value and o in value
                                                and a.kind is AnchorKind.SYMBOL)]  # fmt: skip
        # ("`go 1.13`": the key the value is bound to is no package of its own)
        # ("declares the module example.com/proxy": the value is the module's path, which
        # the value anchor checks, no import of it)
        key_word = bound.name.split()[0] if " " in bound.name else None
        kept = [(a, o) for a, o in kept if not (o in (key_word, value.strip("`")) and a.kind in (
            AnchorKind.DEP, AnchorKind.TECH, AnchorKind.IMPORT))]  # fmt: skip
        # ("`audio/output` defaults to `autoaudiosink`": the key and its value are bound)
        uncovered = [u for u in uncovered if u not in (bound.name, value.strip("`"))]
        dropped = [d for d in dropped if d.candidate not in (bound.name, value.strip("`"))]
        kept.append((bound.anchor, bound.name))
        checked_values.append(bound.span)
    # "rendered with mistune ([markup] renderer = mistune in isso.cfg)": the value a bound
    # anchor checks is the relation's object, so the relation is checked with it
    stating = [b.anchor for b in values] + [b.anchor for b in infra] + [b.anchor for b in manifest]
    said_values = {(a.version or "").lower() for a in stating} - {""}
    bound_relations = [r for r in relations if r.rsplit(" ", 1)[-1].lower() in said_values]
    relations = [r for r in relations if r not in bound_relations]
    uncovered = [u for u in uncovered if u not in bound_relations]
    # Parameters and keyword arguments are their own anchors, never symbols (issue #31).
    arguments = read_arguments(text, fp, scope, spans)
    if arguments.anchors or arguments.uncovered:
        # a function or callee named in such a statement is code, never a package
        kept = [(a, o) for a, o in kept if o not in arguments.keywords and not (
            o in arguments.functions and a.kind in (AnchorKind.TECH, AnchorKind.DEP))
            and not _called_there(a, o, arguments.functions, fp)]  # fmt: skip
        kept += [(a, (a.version or "") if typed(a) else a.argument[1])
                 for a in arguments.anchors]  # (a type claim's words are its type's)
        checked_values += arguments.spans
        # "loads 25 commits by default (log(count = 25))": the default said twice
        defaults = {a.stated for a in arguments.anchors if a.stated not in (None, "?")}
        checked_values += [(v.start, v.end) for v in stated_values(text) if v.text in defaults]
        uncovered = [u for u in uncovered if u not in arguments.names] + [*arguments.uncovered]
        dropped = [d for d in dropped if d.candidate not in arguments.names]
    # "`HTTPAdapter` defaults to a pool of 10 connections": a parameter by its words
    subjects = [(a.scope, a.value) for a, _ in kept if a.kind is AnchorKind.SYMBOL
                and a.scope is not None and a.expect is Expect.PRESENT]  # fmt: skip
    for worded in read_parameter_words(text, spans, subjects, fp, checked_values):
        kept.append((worded.anchor, text[worded.span[0] : worded.span[1]]))
        checked_values.append(worded.span)
    # "TextFormatter wraps JSONFormatter": what one definition does to another (read after
    # the calls, which check "`get_json` calls `client.get` with ...")
    # "methodNotAllowed answers with 405": the HTTP status a named function sets (issue #32)
    statuses = read_statuses(text, fp, kept, spans)
    kept += statuses.anchors
    checked_values += statuses.spans
    dropped = [d for d in dropped if d.candidate not in statuses.constants]
    uncovered = [u for u in uncovered if u not in statuses.constants]
    # (read after the statuses, which check what "`create_user` answers 201" says)
    code_parts = [r for r in code_relation_parts(text, spans, kept, fp)
                  if not any(r in x or x in r for x in (*relations, *roles))]  # fmt: skip
    roles += code_parts
    uncovered += code_parts
    # A value the note states (a number, a tag, a setting) is never checked by an anchor
    # that a thing exists: the note stays ACTIVE and says which value (adr/0025).
    # "jest ^29.2.0 is a devDependency": the spec as its manifest writes it, which
    # declares the package too
    for declared in declared_specs(text, fp):
        checked_values.append(declared.span)
        # the spec rides on the anchor: a later declaration that no longer allows it breaks
        # the note (a narrower one still holds, as for any dependency anchor with a range)
        stated = text[declared.span[0] : declared.span[1]]
        versioned = Anchor(AnchorKind.DEP, declared.dependency,
                           version=as_wanted(declared.spec, stated))
        # (and what the same word was read as elsewhere: "bson" is no pymongo where the
        # manifest declares bson)
        kept = [(a, o) for a, o in kept if not (a.kind is AnchorKind.DEP and (
            a.value == declared.dependency or o == declared.written))]  # fmt: skip
        if versioned not in (a for a, _ in kept):
            # (beside a run-time role denied of it, the declaration is no opposite claim)
            role_denied = any(o == declared.written and a.expect is Expect.ABSENT
                              for a, o in kept)  # fmt: skip
            kept.append((versioned, f"{declared.written} (declared)" if role_denied
                         else declared.written))  # fmt: skip
        uncovered = [u for u in uncovered if u.split(" ", 1)[0] != declared.written]
        sentence = next((text[a:b] for a, b, _ in spans if a <= declared.span[0] < b), text)
        if (role := role_unchecked(sentence, declared.written, declared.runtime)) is not None:
            uncovered.append(role)  # "react ^18.2.0 is a devDependency" when it is not
    kept = written_keys(placed_where_said(text, kept, fp), fp)
    kept, by_dependency = read_by_dependency(text, spans, kept, fp)
    uncovered += by_dependency + import_manner(text, kept, fp)
    # ... but a name the note says a thing is called is checked by the anchor found for it
    anchored = {o for _, o in kept}
    uncovered += [v.phrase for v in uncovered_values(text, checked_values)
                  if v.text not in anchored or stated_as_default(text, v)]  # fmt: skip
    # ("defaults to `cache --timeout=3600`": a command that is a value an anchor checks)
    uncovered += [f"the command `{text[a:b]}`" for a, b in dict.fromkeys(commands)
                  if not any(x < b and a < y for x, y in checked_values)]  # fmt: skip
    # a quoted literal, a manifest's table, an order, a handler, a field's type that no
    # reader checked (anchors.unread_parts)
    said_by = [f"{a.value} {a.version or ''}" for a, _ in kept]  # what the anchors check
    uncovered += unread_parts(text, checked_values, [q.span for q in quotes], anchored,
                              said_by)  # fmt: skip
    if not any(a.kind is AnchorKind.DEP for a, _ in kept):
        # "lists its dependencies statically under [project].dependencies": what a
        # manifest's table holds, which no dependency anchor of the note checks
        uncovered += [f"the {m.group().strip('`')} table" for m in _TABLE_KEY.finditer(text)]
    # "needs log 0.4.21 with the std feature": which features a dependency enables is
    # read by no anchor
    uncovered += [f"the feature {m['f']}" for m in _FEATURE.finditer(text) if m["f"] not in read]
    # "route.go doesn't touch regular expressions": a negation only an absent anchor checks
    absent = [o for a, o in kept  # ... or a value that is one ("USER=!root")
              if a.expect is Expect.ABSENT or (a.version or "").startswith("!")]  # fmt: skip
    absent += statuses.phrases  # "answers 404 Not Found": a status's name, no negation
    # "port 8080 on 127.0.0.1 only": the address the value anchor compares is the restriction
    absent += [b.name for b in infra if (b.anchor.version or "").startswith(f"{b.name}:")]
    clauses = negated_clauses(text, spans, absent + negated, uncovered)
    clauses = [c for c in clauses  # (a sentence bound to a manifest says what it checks)
               if not any(a <= c.start < b for a, b in (m.sentence for m in manifest))]
    negations += dict.fromkeys(c.part for c in clauses if c.part)
    # "Sphinx is not a runtime requirement any more": a negated clause never gets a
    # positive anchor of use, which would check the opposite of what it says
    denied = [c for c in clauses if not c.restriction]
    kept = [(a, o) for a, o in kept
            if not (a.kind in _USE_KINDS and a.expect is Expect.PRESENT
                    and _only_within(o, text, denied))]  # fmt: skip
    uncovered += negations
    # "src/logger.rs never touches the environment": that file's absent anchors for the
    # concept (anchors.concept_negations), read after the clauses so the negation stays an
    # uncovered part: they refute, they never verify
    kept += concept_negations(text, fp, spans, scope)
    # ("`fetch` has a `timeout` parameter": a word in backticks an anchor's value holds)
    checks = [f"{a.value} {a.version or ''}" for a, _ in kept]
    uncovered = [u for u in uncovered if u not in ticked or not any(
        re.search(rf"\b{re.escape(u)}\b", c) for c in checks)]  # fmt: skip
    # ("the value /etc/isso.cfg" already names the quoted or the unsafe "/etc/isso.cfg")
    values_named = {u.removeprefix("the value ").strip('"') for u in uncovered
                    if u.startswith("the value ")}  # fmt: skip
    uncovered = [u for u in uncovered if u.startswith("the value ")
                 or u.strip('"') not in values_named]  # fmt: skip
    uncovered += content_unread(text, kept, fp, bool(checked_values or uncovered))
    settled = _settle(kept, dropped, scope, tuple(dict.fromkeys(uncovered)))
    return replace(settled, relations=tuple(relations), roles=tuple(roles),
                   arguments=tuple(arguments.uncovered), words=tuple(words),
                   negations=tuple(dict.fromkeys(negations)))  # fmt: skip


_USE_KINDS = frozenset({AnchorKind.TECH, AnchorKind.DEP, AnchorKind.IMPORT})


def _only_within(name: str, text: str, clauses: Sequence[Negated]) -> bool:
    """Whether every mention of ``name`` in ``text`` stands inside one of ``clauses``."""
    if not clauses or not name:
        return False
    found = [m.start() for m in re.finditer(re.escape(name), text, re.IGNORECASE)]
    return bool(found) and all(any(c.governs <= at < c.end for c in clauses) for at in found)


_NOTE_WORD = re.compile(r"[A-Za-z_]\w*")


def _sentence_names(text: str, spans: Spans, fp: Fingerprint,
                    names: CodeNames) -> Callable[[int], CodeNames]:  # fmt: skip
    """What names denote at a position of the text: with the note's scope, everywhere but
    in a clause that sets another subject against it ("vcard.py parses vCards with vobject,
    while iCalendar data goes through icalendar"); with none, in a sentence whose subject
    is one file or directory ("mux.go doesn't import regexp; ..."), with that path's
    scope, since its imports are claimed for it."""
    if names.scope is not None:
        contrasts = [m.end() for m in _CONTRAST.finditer(text)]
        if not contrasts:
            return lambda _at: names
        free = CodeNames(fp, None, names.words)
        return lambda at: free if any(c <= at for c in contrasts) else names
    if len(spans) < 2:
        return lambda _at: names
    scoped: list[tuple[int, int, CodeNames]] = []
    for start, end, question in spans:
        path = None if question else resolve_subject(None, text[start:end], fp, spans=[
            (0, end - start, False)])  # fmt: skip
        if path is not None:
            scoped.append((start, end, CodeNames(fp, path)))
    if not scoped:
        return lambda _at: names

    def at(position: int) -> CodeNames:
        return next((n for start, end, n in scoped if start <= position < end), names)

    return at


def _called_there(a: Anchor, origin: str, functions: Sequence[str], fp: Fingerprint) -> bool:
    """Whether ``a`` places the definition of a function the text only says is called
    there: "`create_engine` is called with ... in app/db.py" names where it is called, not
    where it is defined (app/db.py imports it)."""
    return (a.kind is AnchorKind.SYMBOL and origin in functions and a.scope is not None
            and fp.definition(a.scope, a.value) is None)  # fmt: skip


_LOCATED = (AnchorKind.SYMBOL, AnchorKind.ENV, AnchorKind.IMPORT)
# The anchor a toolchain's name in prose becomes, by the CI or image key that answers it.
_TOOLCHAIN = {
    "python-version": (AnchorKind.DEP, "python"),
    "node-version": (AnchorKind.TECH, "nodejs"),
    "engines.node": (AnchorKind.TECH, "nodejs"),
    "go-version": (AnchorKind.TECH, "go"),
    "go-toolchain": (AnchorKind.TECH, "go"),
    "rust-version": (AnchorKind.TECH, "rust"),
}


def read_given(text: str, fp: Fingerprint, subject: str | None, scope: str | None,
               given: tuple[Anchor, ...], inference: Inference | None = None,
               ) -> tuple[tuple[Anchor, ...], list[str]]:  # fmt: skip
    """Given anchors with the place the text states bound and the negation it states
    applied (``_denied``), and the parts of the text they leave unchecked (roles;
    relations, unless a given anchor is scoped). "`ping` is
    implemented in `app/front/views.py`" with ``symbol:ping`` is a claim about that file:
    the anchor becomes ``symbol:app/front/views.py::ping``, which the code breaks.
    ``inference`` is the text's own reading, when the caller has it."""
    if inference is None:
        inference = infer_anchors(text, fp, subject, scope=scope)
    placed = {(a.kind, a.value): a for a in inference.anchors
              if a.scope is not None and a.kind in _LOCATED and a.expect is Expect.PRESENT
              and a.stated is None}  # fmt: skip
    bound = tuple(placed.get((a.kind, a.value), a)
                  if a.scope is None and a.expect is Expect.PRESENT and a.stated is None else a
                  for a in given)  # fmt: skip
    left = {d.candidate.casefold() for d in inference.dropped if d.reason in _UNKNOWN_WORD}
    # The text's negated clauses, read only when a given anchor names a word it left alone.
    denied = [c for c in negated_clauses(text, sentence_spans(text), ()) if not c.restriction
              ] if any(a.value.casefold() in left for a in bound) else []  # fmt: skip
    bound = tuple(_denied(a, inference.anchors, text, denied, left) for a in bound)
    parts = list(inference.roles)
    if not any(a.scope is not None for a in bound if a.kind in (AnchorKind.IMPORT,
                                                                 AnchorKind.TECH)):  # fmt: skip
        parts += inference.relations
    return tuple(dict.fromkeys(bound)), parts


# Why a reading leaves a word that an agent's anchor may name: it did not know the word as
# a package (as against a negation it could not tell the object of).
_UNKNOWN_WORD = frozenset({DropReason.COMMON_WORD, DropReason.UNRESOLVED, DropReason.UNTYPED,
                           DropReason.STDLIB_NOT_DEPENDENCY})  # fmt: skip


def _denied(given: Anchor, inferred: Sequence[Anchor], text: str,
            denied: Sequence[Negated], left: Collection[str]) -> Anchor:  # fmt: skip
    """The text's own negation of a given anchor, where it reads one: "mux.go doesn't
    import regexp" given ``import:regexp@mux.go`` (or ``import:regexp``) is
    ``!import:regexp@mux.go``. The agent's anchor names the thing; what the note claims of
    it is what the text says, and checking the anchor as given would refute the true note
    and let the false one stand. A package the reading left alone (``left``: "route.go
    doesn't import sort", a common word) and the text names only inside negated clauses
    is, as for an inferred anchor, never a positive anchor of use (adr/0031); one the
    reading named as an unchecked claim ("nothing imports respx at runtime") stays as
    given. An anchor the agent gives as absent stays as given."""
    if given.expect is not Expect.PRESENT or given.version is not None:
        return given
    for a in inferred:
        if (a.expect is Expect.ABSENT and (a.kind, a.value) == (given.kind, given.value)
                and given.scope in (None, a.scope)):  # fmt: skip
            return a
    if (given.kind in _USE_KINDS and given.value.casefold() in left
            and _only_within(given.value, text, denied)):  # fmt: skip
        return replace(given, expect=Expect.ABSENT)
    return given


def beside_given(given: Sequence[Anchor], inferred: Sequence[Anchor]) -> tuple[Anchor, ...]:
    """What the text's own reading checks that the given anchors do not (adr/0026). Given
    ``file:isso/html/misaka.py``, "isso/html/misaka.py renders Markdown with mistune" is
    also ``import:mistune@isso/html/misaka.py``: the file existing says nothing of what it
    imports. An inferred anchor a given one already implies is left out (``_implies``), and
    so is one the given anchors state the other way: the agent's polarity wins."""
    out: list[Anchor] = []
    for a in inferred:
        if any((g.kind, g.value) == (a.kind, a.value) and g.expect is not a.expect
               for g in given):  # fmt: skip
            continue
        if a not in out and not any(_implies(g, a) for g in given):
            out.append(a)
    return tuple(out)


def disagreements(given: Sequence[Anchor], inferred: Sequence[Anchor]) -> list[str]:
    """The parts where the text says the opposite of an anchor the agent gives ("mux.go
    doesn't import regexp" given ``import:regexp@mux.go``): the given anchor is checked, but
    the note cannot be VERIFIED by it, since what it says is not what was checked."""
    out: list[str] = []
    for a in inferred:
        if any((g.kind, g.value, g.scope) == (a.kind, a.value, a.scope)
               and g.expect is not a.expect for g in given):  # fmt: skip
            part = f"the text says {a.render()}"
            if part not in out:
                out.append(part)
    return out


_PACKAGE_KINDS = (AnchorKind.TECH, AnchorKind.DEP, AnchorKind.IMPORT)


def unchecked_words(given: Sequence[Anchor], words: Sequence[str]) -> list[str]:
    """Of the packages-that-are-words a note's file is said to use (``Inference.words``),
    those no given anchor names: the given ones are the agent's reading of the word."""
    named = {_package(g) for g in given if g.kind in _PACKAGE_KINDS}
    return [w for w in words if re.sub(r"[-_.]+", "-", w.lower()) not in named]


def unchecked_code(given: Sequence[Anchor], inference: Inference) -> list[str]:
    """Of the names written as code that the reading found nowhere (``pkg_resources`` in
    "config.py finds the default file through pkg_resources"), those no given anchor
    names: an anchor of the file the note is about checks the file, not what the note
    says the file does with them."""
    unfound = {d.candidate for d in inference.dropped if d.reason in _CODE_UNFOUND}
    named = {part.casefold() for g in given
             for part in (g.value, *re.findall(r"[\w-]+", g.value)) if part}  # fmt: skip
    return [u for u in inference.uncovered if u in unfound
            and u.casefold() not in named
            and re.split(r"::|[./]", u)[-1].casefold() not in named]  # fmt: skip


def _implies(g: Anchor, a: Anchor) -> bool:
    """Whether given ``g`` holding means inferred ``a`` holds: the same thing in the same
    place or a narrower one (``import:httpx@billing/client.py`` implies
    ``import:httpx@billing``), with the same value or none; a file an anchor is scoped in
    (``import:duckdb@store/db.py`` implies ``file:store/db.py``); the same package under
    another kind, unscoped (``dep:redis`` implies ``tech:redis``)."""
    if g.expect is not a.expect:
        return False
    if (g.kind, g.value) == (a.kind, a.value):
        inside = a.scope is None or (g.scope is not None and (
            g.scope == a.scope or g.scope.startswith((f"{a.scope}/", f"{a.scope}::"))))
        return inside and (a.version is None or g.version == a.version)  # fmt: skip
    if a.kind is AnchorKind.FILE:
        return g.scope is not None and (g.scope == a.value or g.scope.startswith(f"{a.value}::"))
    return (a.kind in _PACKAGE_KINDS and g.kind in _PACKAGE_KINDS and a.scope is None
            and a.version is None and _package(a) == _package(g))  # fmt: skip


def _package(anchor: Anchor) -> str:
    """The package an anchor names, compared loosely: ``import:yaml.nodes`` is ``yaml``."""
    name = anchor.value.split(".")[0] if anchor.kind is AnchorKind.IMPORT else anchor.value
    return re.sub(r"[-_.]+", "-", name.lower())


_Kept = list[tuple[Anchor, str]]


def _relations(text: str, spans: Spans, fp: Fingerprint, names: CodeNames,
               objects: list[tuple[_Cand, list[Anchor]]],
               kept: _Kept) -> tuple[_Kept, list[str]]:  # fmt: skip
    """Each object of a verb of use whose subject is a component (``anchors.relations``):
    its anchors scoped to the component where that holds, else the relation uncovered."""
    parts: dict[int, str] = {}  # by where the subject starts: the last object says all
    # (the repository's own crate or module is the project: "env_logger depends on log")
    own = frozenset(names.first_party) | own_names(fp)

    def holds(anchor: Anchor) -> bool:
        return check_anchor(anchor, None, fp).verdict is Verdict.HOLDS

    for c, outcome in objects:
        def scoped(path: str, c: _Cand = c) -> list[Anchor] | None:
            # read afresh: resolving a word records the technology it found on it
            fresh = c if c.form is _Form.TECH else replace(c, tech=None, common=False)
            found = _resolve(fresh, CodeNames(fp, path), fp, absent=False)
            if not isinstance(found, list):
                return None
            if not holds_python(path, fp):
                # a Go service or a TypeScript frontend does not import the PyPI package:
                # the technology is checked there in that code's own terms (an import that
                # code has under that name is kept: it is its own)
                own = frozenset(names.foreign.values())
                return [a if a.kind is AnchorKind.IMPORT and a.value in own
                        else _as_technology(a, path, fp) for a in found]  # fmt: skip
            return found

        if c.text.lower() == "python":
            continue  # the Python a part runs on is a version claim, checked as one
        library = c.tech is None or c.tech.kind is TechKind.PACKAGE
        reading = read_relation(text, spans, c.start, c.end, outcome, fp, own, scoped, holds,
                                library)  # fmt: skip
        if reading is None:
            continue
        if reading.scoped:
            kept = [(a, o) for a, o in kept if not (o == c.text and a in outcome)]
            kept += [(a, c.text) for a in reading.scoped]
        else:
            parts[reading.subject] = reading.part
    return kept, list(parts.values())


def _as_technology(anchor: Anchor, path: str, fp: Fingerprint) -> Anchor:
    """A Python import or PyPI dependency scoped to code in another language, as the
    technology it stands for there (``import:redis@svc`` -> ``tech:redis@svc``); a
    dependency another ecosystem's manifest declares for run time (the ``toml`` crate), as
    its import there."""
    if anchor.kind not in (AnchorKind.IMPORT, AnchorKind.DEP):
        return anchor
    if anchor.kind is AnchorKind.DEP and any(
            d.ecosystem != "pypi" and d.runtime for d in fp.dependency(anchor.value)):  # fmt: skip
        return Anchor(AnchorKind.IMPORT, anchor.value, anchor.expect, scope=path)
    tech = for_import(anchor.value) if anchor.kind is AnchorKind.IMPORT else by_name(anchor.value)
    if tech is None:
        return anchor
    return Anchor(AnchorKind.TECH, tech.name, anchor.expect, scope=path)


def _same_thing(a: Anchor, b: Anchor) -> bool:
    """Whether ``a`` is an existence anchor on the thing value anchor ``b`` checks."""
    return (a.kind, a.value, a.scope, a.expect, a.version) == (b.kind, b.value, b.scope,
                                                              b.expect, None)  # fmt: skip


def _development_use(c: _Cand, outcome: list[Anchor], text: str, spans: Spans,
                     fp: Fingerprint, scope: str | None) -> bool:  # fmt: skip
    """Whether the sentence claims a use that development-only evidence does not answer:
    a run-time use stated as such ("vitest is a runtime dependency"), or any use of a
    library, unless the sentence speaks of development or the thing is a tool configured by
    its own files (``anchors.development``)."""
    # "the build requires setuptools>=61.0": what building needs, no run-time use
    built = _BUILD_NEEDS.search(text, max(0, c.start - 40), c.start) is not None
    runtime = (c.runtime and not built) or RUNTIME_AFTER.match(text, c.end) is not None
    if not runtime:
        start, end = next(((a, b) for a, b, _ in spans if a <= c.start < b), (0, len(text)))
        # the thing's own name says nothing of the sentence ("@playwright/test is ...")
        sentence = text[start : c.start] + " " + text[c.end : end]
        if about_development(sentence) or tool_like(outcome):
            return False
    return development_only(outcome, fp, scope, runtime=runtime)


_BUILD_NEEDS = re.compile(r"\bbuild(?:-system)?\s+(?:requires|requirements?|dependenc\w*|"
                         r"deps|needs)\b|\bbuild-system\b", re.IGNORECASE)


_TABLE_KEY = re.compile(r"`?\[[\w.\-]{1,60}\]\.[\w\-]{1,60}`?")


def _sentence_of(c: _Cand, text: str, spans: Spans) -> str:
    """The sentence ``c`` stands in."""
    start, end = next(((a, b) for a, b, _ in spans if a <= c.start < b), (0, len(text)))
    return text[start:end]


def _npm_run_time(c: _Cand, outcome: list[Anchor], text: str, spans: Spans,
                  development: bool) -> bool:  # fmt: skip
    """Whether the sentence claims a run-time role of an npm package: said as such ("is a
    runtime dependency"), or a use development-only evidence does not answer (as
    ``_development_use``) in a sentence that is not about tests or tooling."""
    start, end = next(((a, b) for a, b, _ in spans if a <= c.start < b), (0, len(text)))
    if RUNTIME_AFTER.match(text, c.end) is not None or claims_run_time(text[start:end]):
        return True
    rest = text[start : c.start] + " " + text[c.end : end]
    return development and not tool_like(outcome) and not about_development(rest)


def _salient(c: _Cand, names: CodeNames) -> bool:
    """Prose is full of words; only those that stand where a package is named, are code,
    or name a known module are worth reporting when they are left out."""
    return (c.form is not _Form.WORD or c.code or (c.slot and c.text.lower() not in COMMON_WORDS)
            or names.known(c.text))  # fmt: skip


_ALWAYS_REPORTED = frozenset({DropReason.UNTYPED, DropReason.OWN_PACKAGE, DropReason.NOT_A_USE})
# "with X", "using X", "via X", "through X" right before a candidate: X is an instrument.
_INSTRUMENT = re.compile(r"\b(?:with|using|via|through)\s+(?:the\s+)?$", re.IGNORECASE)
_CAPS_NAME = re.compile(r"[A-Z][A-Z0-9]*_[A-Z0-9_]*")
# "with coverage from pytest-cov": the word is what another names the source of
_SOURCED = re.compile(r"\s+(?:from|of|by|via|through)\b")


def _named_anywhere(name: str, fp: Fingerprint) -> bool:
    """Whether the code or an infrastructure file names ``name`` (a key of a settings
    dict, a compose service's environment, a Dockerfile ``ARG``): a name the note states
    that some check may yet cover, so not one the code lacks."""
    if (fp.members_named(name) or fp.definitions(name) or fp.constant_values(name)
            or said_in_code(name, fp)):  # fmt: skip
        return True
    return any(name in v.key or (v.text is not None and name in v.text)
               for values in fp.infra.values() if values for v in values)  # fmt: skip
def _in_infra(word: str, fp: Fingerprint) -> bool:
    """Whether an infrastructure file names ``word`` as a key or a value, or a part of one
    (the tox env `style`, a compose service): what such a file says, which its own
    readers check."""
    parts = fp.derived("extract.infra_words", _infra_words)
    return word.lower() in parts


def _infra_words(fp: Fingerprint) -> frozenset[str]:
    found: set[str] = set()
    for values in fp.infra.values():
        for v in values or ():
            found.update(_KEY_PARTS.split(v.key.lower()))
            found.update(_KEY_PARTS.split((v.text or "").lower()))
    return frozenset(found)


_KEY_PARTS = re.compile(r"[^\w\-]+")
_CODE_UNFOUND = (DropReason.UNRESOLVED, DropReason.AMBIGUOUS, DropReason.NOT_IN_SCOPE)
# A tuple: membership by identity, where a set would hash each Enum member in Python.
_CODE_FORMS = (_Form.DOTTED, _Form.CALL, _Form.PATH_SYMBOL, _Form.PATH)


_FEATURE = re.compile(r"\b(?:with|without|behind|enables?)\s+(?:the\s+)?`?(?P<f>[\w\-/]+)`?"
                      r"\s+(?:cargo\s+)?features?\b", re.IGNORECASE)  # fmt: skip


# A module's path as Go names it, owner and repository, one of them with a digit or a dash
# ("spf13/cobra", "go-chi/chi"): no prose pair of words ("client/server")
_MODULE_PATH = re.compile(r"(?:[a-z0-9.\-]+\.[a-z]{2,}/)?(?=[^/]*[\d\-]|[^/]*/[^/]*[\d\-])"
                          r"[a-z][a-z0-9\-]*/[a-z][\w.\-]*(?:/v\d+)?")


_VERSION_WORD = re.compile(r"v\d+")
_PLACE_BEFORE = re.compile(r"\b(?:under|in|into|inside|within|below|at)\s+`?$", re.IGNORECASE)


def _uncovered(c: _Cand, reason: DropReason, text: str, in_file: bool, go: bool) -> bool:
    """Whether a plain statement's candidate that got no anchor leaves part of the claim
    unchecked: a name that looks like a technology, or code that resolves nowhere."""
    if reason is DropReason.UNTYPED:
        return True
    if _VERSION_WORD.fullmatch(c.text):
        return False  # "hjson-go v3.1.0+incompatible": a version's first part, no name
    if (reason is DropReason.COMMON_WORD and c.tech is not None and not c.text.isupper()
            and (in_file or (c.text.islower() and not _SOURCED.match(text, c.end)))
            and _INSTRUMENT.search(text, 0, c.start)):  # fmt: skip
        # "utils.py decodes tokens with jwt", "publishes with twine after the build": a
        # package that is also a word, named as what something is done with; not read as
        # the package where the file does not import it (it may be the word), and not left
        # out either.
        return True
    if (reason is DropReason.UNSAFE and c.text.startswith(("/", "~/")) and c.text.count("/") > 1
            and text[c.start - 1 : c.start] != "="):  # fmt: skip
        # "lives at /var/lib/app/app.db": a place on the machine, unchecked (an assigned
        # one, ``X=/config/app.cfg``, is the assignment's value, which its reader checks)
        return True
    if go and c.form is _Form.PATH and _MODULE_PATH.fullmatch(c.text):
        return True  # "built on spf13/cobra": a Go module named by its path no anchor reads
    if c.form is _Form.PATH and not (c.code or "." in c.text.rpartition("/")[2]):
        return False  # "yes/no", "and/or", "client/server": prose, not a path
    code = c.ticked or c.form in _CODE_FORMS or bool(_SNAKE.fullmatch(c.text)) or bool(
        _CAPS_NAME.fullmatch(c.text))  # "the CELERY_FLOWER_ prefix": a constant's or a key's
    # "registers a `scan` command": a word written as code on its own that no anchor reads
    alone = c.ticked and text[c.start - 1 : c.start] == "`" == text[c.end : c.end + 1]
    return code and (reason in _CODE_UNFOUND or (alone and reason is DropReason.COMMON_WORD))


def _settle(kept: list[tuple[Anchor, str]], dropped: list[DroppedCandidate],
            scope: str | None, uncovered: tuple[str, ...]) -> Inference:  # fmt: skip
    """Deduplicate, and drop anything the text states both ways (by anchor or by name)."""
    polarity: dict[object, set[Expect]] = {}
    for anchor, origin in kept:
        polarity.setdefault((anchor.kind, anchor.value, anchor.scope), set()).add(anchor.expect)
        polarity.setdefault(origin.lower(), set()).add(anchor.expect)
    anchors: list[Anchor] = []
    origins: list[str] = []
    for anchor, origin in kept:
        key = (anchor.kind, anchor.value, anchor.scope)
        if len(polarity[key]) > 1 or len(polarity[origin.lower()]) > 1:
            if anchor.expect is Expect.PRESENT:
                detail = f"{origin} is stated both present and absent"
                dropped.append(DroppedCandidate(origin, DropReason.AMBIGUOUS, detail))
            continue
        if anchor not in anchors:
            anchors.append(anchor)
            origins.append(origin)
    return Inference(tuple(anchors), tuple(dropped), scope, tuple(origins), uncovered)
