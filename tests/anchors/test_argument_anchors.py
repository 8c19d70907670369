"""Parameters and keyword arguments as anchors of their own (issue #31): what tree-sitter
reads of signatures and calls, the ``param:`` / ``call:`` syntax, their verdicts on real
commits, a given symbol that names a keyword, drift re-judged at HEAD, and the prose read
into these anchors."""

from __future__ import annotations

import pytest

from anchors.argument_claims import read_arguments
from anchors.facts import MAX_CALLS, Fingerprint, ParamKind
from anchors.fingerprint import CodeSource, facts_from_json, facts_to_json
from anchors.normalize import resolve_anchor
from anchors.pyfacts import extract_file_facts
from anchors.spec import AnchorKind, AnchorSyntaxError, Expect, parse_anchor
from anchors.subject import sentence_spans
from anchors.verdicts import AnchorCheck, MemoryVerdict, Verdict, memory_verdict, rejudge_drift
from anchors.verify import capture, check_anchor
from tests.conftest import GitRepo

STATUS = (
    "import time\n\n\n"
    "class StatusService:\n"
    "    def get_status(self, verbose=False, *, now=None):\n"
    "        now = now or time.time()\n"
    "        return {'ok': True, 'at': now}\n\n\n"
    "def fetch(url, timeout=30, retries=3, *args: int, on_error=print, **options):\n"
    "    return url\n\n\n"
    "def ping(host):\n"
    "    return host\n\n\n"
    "class Client:\n"
    "    def __init__(self, base_url, timeout=10):\n"
    "        self.base_url = base_url\n"
)
DB = (
    "import sqlalchemy as sa\n\n\n"
    "def get_engine(url, options):\n"
    "    engine = sa.create_engine(url, pool_pre_ping=True, pool_recycle=3600,\n"
    "                              echo=settings.DEBUG)\n"
    "    session = make_session(bind=engine, **options)\n"
    "    return engine, session\n"
)
PROJECT = {"app/__init__.py": "", "app/status.py": STATUS, "app/db.py": DB}


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit(PROJECT)
    return source.fingerprint()


# -- extraction -------------------------------------------------------------------------------
def test_a_signature_records_each_parameter_with_its_kind_and_default():
    facts = extract_file_facts(STATUS.encode(), "app/status.py")
    sigs = {s.function: s for s in facts.signatures}
    assert set(sigs) == {"StatusService.get_status", "fetch", "ping", "Client.__init__"}
    get_status = sigs["StatusService.get_status"]
    assert [(p.name, p.kind, p.default) for p in get_status.params] == [
        ("self", ParamKind.POSITIONAL, None),
        ("verbose", ParamKind.POSITIONAL, "False"),
        ("now", ParamKind.KEYWORD, "None"),
    ]
    assert get_status.line == 5
    assert get_status.render() == "get_status(self, verbose=False, *, now=None)"
    fetch = {p.name: p for p in sigs["fetch"].params}
    assert fetch["args"].kind is ParamKind.ARGS  # annotated ``*args: int``
    assert fetch["options"].kind is ParamKind.KWARGS
    assert fetch["on_error"].kind is ParamKind.KEYWORD
    # a computed default has a default, but no literal to compare
    assert (fetch["on_error"].default, fetch["on_error"].has_default) == (None, True)
    assert (fetch["url"].default, fetch["url"].has_default) == (None, False)


def test_calls_passing_keywords_are_recorded_with_literal_values_and_splats():
    facts = extract_file_facts(DB.encode(), "app/db.py")
    calls = {c.callee: c for c in facts.calls}
    assert set(calls) == {"sa.create_engine", "make_session"}
    engine = calls["sa.create_engine"]
    assert engine.line == 5
    assert engine.keywords == (("pool_pre_ping", "True"), ("pool_recycle", "3600"), ("echo", None))
    assert calls["make_session"].keywords == (("bind", None), ("**", None))


def test_defaults_in_signatures_strings_and_comparisons_are_not_calls():
    source = (
        b"def f(a, b=1, **kw):\n"
        b"    x = 'g(a, c=2)'  # h(d=3)\n"
        b"    return a == b, factory()(e=4), table[k](f=5), self.client.get(u, timeout=5)\n"
    )
    facts = extract_file_facts(source, "m.py")
    assert [(c.callee, c.keywords) for c in facts.calls] == [
        ("self.client.get", (("timeout", "5"),))
    ]


def test_calls_kept_per_file_are_capped():
    source = "".join(f"f(x={i})\n" for i in range(MAX_CALLS + 50)).encode()
    assert len(extract_file_facts(source, "m.py").calls) == MAX_CALLS


def test_signatures_and_calls_survive_the_cache():
    facts = extract_file_facts((STATUS + DB).encode(), "app/x.py")
    assert facts.signatures and facts.calls
    assert facts_from_json(facts_to_json(facts)) == facts


# -- syntax ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "kind", "value", "scope", "stated", "expect"),
    [
        ("param:app/status.py::StatusService.get_status(now)", AnchorKind.PARAM,
         "StatusService.get_status(now)", "app/status.py", None, Expect.PRESENT),
        ("param:get_status(now?)", AnchorKind.PARAM, "get_status(now)", None, "?",
         Expect.PRESENT),
        ("param:app/status.py::fetch(timeout=30)", AnchorKind.PARAM, "fetch(timeout)",
         "app/status.py", "30", Expect.PRESENT),
        ("!param:app/status.py::ping(timeout)", AnchorKind.PARAM, "ping(timeout)",
         "app/status.py", None, Expect.ABSENT),
        ("call:create_engine(pool_pre_ping=True)", AnchorKind.CALL,
         "create_engine(pool_pre_ping)", None, "True", Expect.PRESENT),
        ("call:sa.create_engine(echo)@app/db.py", AnchorKind.CALL, "sa.create_engine(echo)",
         "app/db.py", None, Expect.PRESENT),
        ("!call:create_engine(echo)@app", AnchorKind.CALL, "create_engine(echo)", "app", None,
         Expect.ABSENT),
        ("call:open(mode='r')", AnchorKind.CALL, "open(mode)", None, "'r'", Expect.PRESENT),
    ],
)  # fmt: skip
def test_param_and_call_anchors_parse_and_render_back(
    text: str, kind: AnchorKind, value: str, scope: str | None, stated: str | None,
    expect: Expect,
):  # fmt: skip
    anchor = parse_anchor(text)
    assert (anchor.kind, anchor.value, anchor.scope, anchor.stated, anchor.expect) == (
        kind, value, scope, stated, expect)  # fmt: skip
    assert anchor.render() == text
    assert parse_anchor(anchor.render()) == anchor


@pytest.mark.parametrize(
    "text",
    ["!param:f(x=1)", "!call:f(x=1)", "call:f(x?)", "call:f(x=?)", "param:f(x)@a.py",
     "param:f", "call:f(x=)", "param:../x.py::f(x)", "call:f(1x)", "param:f(x, y)"],
)  # fmt: skip
def test_malformed_or_negated_value_argument_anchors_are_rejected(text: str):
    with pytest.raises(AnchorSyntaxError):
        parse_anchor(text)


# -- verdicts --------------------------------------------------------------------------------
def check(text: str, fp: Fingerprint) -> tuple[Verdict, str]:
    result = check_anchor(parse_anchor(text), None, fp)
    return result.verdict, result.detail


@pytest.mark.parametrize(
    ("anchor", "verdict", "detail"),
    [
        ("param:app/status.py::StatusService.get_status(now)", Verdict.HOLDS,
         "app/status.py:5 defines get_status(self, verbose=False, *, now=None)"),
        ("param:StatusService.get_status(now?)", Verdict.HOLDS, "app/status.py:5 defines"),
        ("param:app/status.py::StatusService.get_status(verbose=False)", Verdict.HOLDS, ""),
        ("param:app/status.py::StatusService.get_status(since)", Verdict.BROKEN,
         "app/status.py:5 defines get_status(self, verbose=False, *, now=None): no parameter "
         "since"),
        ("param:app/status.py::ping(host?)", Verdict.BROKEN,
         "app/status.py:14 defines ping(host): host has no default"),
        ("param:app/status.py::fetch(timeout=60)", Verdict.BROKEN,
         "timeout defaults to 30, not 60"),
        ("param:app/status.py::fetch(timeout=30.0)", Verdict.HOLDS, ""),
        ("param:app/status.py::fetch(on_error=None)", Verdict.UNKNOWN, "is computed"),
        ("param:app/status.py::fetch(verify)", Verdict.UNKNOWN, "may be passed in **kwargs"),
        ("!param:app/status.py::ping(timeout)", Verdict.HOLDS, ""),
        ("!param:app/status.py::fetch(timeout)", Verdict.BROKEN, "fetch(url, timeout=30"),
        ("!param:app/status.py::fetch(verify)", Verdict.UNKNOWN, "**kwargs"),
        ("param:app/status.py::Client(timeout=10)", Verdict.HOLDS, "__init__(self, base_url"),
        ("param:app/status.py::send_mail(to)", Verdict.BROKEN,
         "app/status.py does not define send_mail"),
        ("param:app/missing.py::ping(host)", Verdict.BROKEN, "not in the repository"),
        ("call:create_engine(pool_pre_ping=True)", Verdict.HOLDS,
         "app/db.py:5 calls sa.create_engine(…, pool_pre_ping=True)"),
        ("call:sa.create_engine(pool_recycle=3600)@app/db.py", Verdict.HOLDS, ""),
        ("call:create_engine(pool_pre_ping=False)", Verdict.BROKEN,
         "app/db.py:5 calls sa.create_engine(…, pool_pre_ping=True), not False"),
        ("call:create_engine(pool_size)", Verdict.BROKEN,
         "calls sa.create_engine(pool_pre_ping=True, pool_recycle=3600, echo=…) without pool_size"),
        ("call:create_engine(echo=True)", Verdict.UNKNOWN, "computes it"),
        ("call:make_session(autoflush=False)", Verdict.UNKNOWN, "passes a **mapping"),
        ("call:connect(timeout=5)", Verdict.UNKNOWN, "no call of connect"),
        ("call:create_engine(pool_pre_ping)@app/status.py", Verdict.UNKNOWN, "no call"),
        ("!call:create_engine(pool_size)@app/db.py", Verdict.HOLDS, ""),
        ("!call:create_engine(pool_pre_ping)", Verdict.BROKEN, "pool_pre_ping=True"),
        ("call:engine_factory(pool_pre_ping=True)", Verdict.UNKNOWN, ""),
    ],
)  # fmt: skip
def test_param_and_call_verdicts_quote_the_code(
    fp: Fingerprint, anchor: str, verdict: Verdict, detail: str
):
    got, said = check(anchor, fp)
    assert got is verdict, said
    assert detail in said


def test_a_given_symbol_that_is_a_keyword_argument_is_not_refuted(fp: Fingerprint):
    """``symbol:app/db.py::pool_pre_ping`` names no definition: the file passes it to a call.
    Given, it is resolved to the call anchor; stored as it is, it cannot be refuted."""
    resolved = resolve_anchor("symbol:app/db.py::pool_pre_ping", fp)
    assert resolved.anchor.render() == "call:sa.create_engine(pool_pre_ping)@app/db.py"
    assert resolved.changes
    assert check(resolved.anchor.render(), fp)[0] is Verdict.HOLDS
    with_value = resolve_anchor("symbol:app/db.py::pool_recycle=3600", fp).anchor
    assert with_value.render() == "call:sa.create_engine(pool_recycle=3600)@app/db.py"
    param = resolve_anchor("symbol:app/status.py::verbose", fp).anchor
    assert param.render() == "param:app/status.py::StatusService.get_status(verbose)"
    # several functions take ``timeout``: left a symbol, which cannot tell
    assert resolve_anchor("symbol:app/status.py::timeout", fp).anchor.kind is AnchorKind.SYMBOL
    verdict, detail = check("symbol:app/status.py::timeout", fp)
    assert verdict is Verdict.UNKNOWN
    assert "parameter of fetch" in detail
    assert check("symbol:app/db.py::pool_pre_ping", fp)[0] is Verdict.UNKNOWN
    assert check("symbol:app/db.py::no_such_thing", fp)[0] is Verdict.BROKEN


# -- drift re-judged ------------------------------------------------------------------------
def _drifted_then(git_repo: GitRepo, source: CodeSource, new_status: str, anchors: list[str]):
    git_repo.commit(PROJECT)
    before = source.fingerprint()
    captured = {a: capture(parse_anchor(a), before) for a in anchors}
    git_repo.commit({"app/status.py": new_status}, "change get_status")
    after = source.fingerprint()
    checks = [check_anchor(parse_anchor(a), captured[a], after) for a in anchors]
    return checks, memory_verdict(checks)


SYMBOL = "symbol:app/status.py::StatusService.get_status"
PARAM = "param:app/status.py::StatusService.get_status(now?)"


def test_a_drifted_definition_whose_parameter_still_holds_is_verified(
    git_repo: GitRepo, source: CodeSource
):
    changed = STATUS.replace("time.time()", "time.monotonic()")
    checks, verdict = _drifted_then(git_repo, source, changed, [SYMBOL, PARAM])
    assert verdict is MemoryVerdict.VERIFIED
    [rejudged, _] = rejudge_drift(checks)
    assert rejudged.verdict is Verdict.HOLDS
    assert "re-judged at HEAD" in rejudged.detail


def test_a_drifted_class_is_rejudged_by_a_parameter_of_its_method(
    git_repo: GitRepo, source: CodeSource
):
    changed = STATUS.replace("time.time()", "time.monotonic()")
    unscoped = "param:StatusService.get_status(now?)"
    _, verdict = _drifted_then(git_repo, source, changed, ["symbol:StatusService", unscoped])
    assert verdict is MemoryVerdict.VERIFIED


def test_a_drifted_definition_whose_parameter_is_gone_is_refuted(
    git_repo: GitRepo, source: CodeSource
):
    changed = STATUS.replace(", *, now=None", "")
    checks, verdict = _drifted_then(git_repo, source, changed, [SYMBOL, PARAM])
    assert verdict is MemoryVerdict.REFUTED
    assert "no parameter now" in checks[1].detail


def test_a_drifted_definition_with_nothing_rechecked_stays_drifted(
    git_repo: GitRepo, source: CodeSource
):
    changed = STATUS.replace("time.time()", "time.monotonic()")
    checks, verdict = _drifted_then(git_repo, source, changed, [SYMBOL])
    assert verdict is MemoryVerdict.UNDECIDED
    assert rejudge_drift(checks)[0].verdict is Verdict.DRIFTED
    # a parameter of another function says nothing of this one
    other = "param:app/status.py::fetch(timeout)"
    checks, verdict = _drifted_then(git_repo, source, changed, [SYMBOL, other])
    assert verdict is MemoryVerdict.UNDECIDED


def test_an_unknown_part_keeps_the_drift():
    anchor = parse_anchor(SYMBOL)
    drifted = AnchorCheck(anchor, Verdict.DRIFTED, ("app/status.py",), "changed")
    unknown = AnchorCheck(parse_anchor(PARAM), Verdict.UNKNOWN, (), "cannot tell")
    assert memory_verdict([drifted, unknown]) is MemoryVerdict.UNDECIDED
    assert rejudge_drift([drifted, unknown])[0].verdict is Verdict.DRIFTED


# -- prose -------------------------------------------------------------------------------------
def read(text: str, fp: Fingerprint, scope: str | None = None) -> tuple[list[str], list[str]]:
    found = read_arguments(text, fp, scope, list(sentence_spans(text)))
    return [a.render() for a in found.anchors], list(found.uncovered)


@pytest.mark.parametrize(
    ("text", "anchors"),
    [
        ("`get_status` takes an optional `now` argument.",
         ["param:app/status.py::StatusService.get_status(now?)"]),
        ("`StatusService.get_status` accepts an optional keyword-only parameter `now`.",
         ["param:app/status.py::StatusService.get_status(now?)"]),
        ("`fetch` has a `timeout` parameter defaulting to 30.",
         ["param:app/status.py::fetch(timeout=30)"]),
        ("`fetch` takes `retries=3`.", ["param:app/status.py::fetch(retries=3)"]),
        ("`fetch()` takes a `timeout` argument (default 30) and a `retries` argument.",
         ["param:app/status.py::fetch(timeout=30)", "param:app/status.py::fetch(retries)"]),
        ("`ping` no longer takes a `timeout` argument.", ["!param:app/status.py::ping(timeout)"]),
        ("`ping` does not accept a `timeout` parameter.", ["!param:app/status.py::ping(timeout)"]),
        ("`Client` takes a `timeout` argument.", ["param:app/status.py::Client(timeout)"]),
        ("Its signature is `get_status(self, verbose=False, *, now=None)`.",
         ["param:app/status.py::StatusService.get_status(self)",
          "param:app/status.py::StatusService.get_status(verbose=False)",
          "param:app/status.py::StatusService.get_status(now=None)"]),
        ("`create_engine` is called with `pool_pre_ping=True`.",
         ["call:create_engine(pool_pre_ping=True)"]),
        ("We pass `pool_pre_ping=True` and `pool_recycle=3600` to `create_engine`.",
         ["call:create_engine(pool_pre_ping=True)", "call:create_engine(pool_recycle=3600)"]),
        ("`get_engine` calls `sa.create_engine` with `pool_pre_ping=True`.",
         ["call:sa.create_engine(pool_pre_ping=True)"]),
        ("`create_engine` is not called with `pool_size`.", ["!call:create_engine(pool_size)"]),
        ("The `now` argument of `get_status` is optional.",
         ["param:app/status.py::StatusService.get_status(now?)"]),
        ("The `timeout` parameter of `fetch()` defaults to 30.",
         ["param:app/status.py::fetch(timeout=30)"]),
        ("`fetch` has a `timeout` parameter defaulting to 30 seconds.",
         ["param:app/status.py::fetch(timeout?)"]),
        ("`pool_recycle=3600` is passed to `create_engine`.",
         ["call:create_engine(pool_recycle=3600)"]),
    ],
)  # fmt: skip
def test_stated_parameters_and_keyword_arguments_are_read(
    fp: Fingerprint, text: str, anchors: list[str]
):
    assert read(text, fp) == (anchors, [])


@pytest.mark.parametrize(
    ("text", "uncovered"),
    [
        # the function or the callee is not in the code: the part is named, never guessed
        ("`send_mail` takes an optional `retries` argument.",
         ["the parameter retries of send_mail"]),
        ("`connect` is called with `timeout=5`.", ["connect called with timeout=5"]),
        # a stated location that does not hold the function is not searched elsewhere
        ("`ping` in app/db.py takes a `host` argument.", ["the parameter host of ping"]),
        # "no longer passes echo=True" does not say which value it passes now
        ("We no longer pass `echo=True` to `create_engine`.",
         ["create_engine called with echo=True"]),
    ],
)  # fmt: skip
def test_a_statement_that_does_not_resolve_is_an_uncovered_part(
    fp: Fingerprint, text: str, uncovered: list[str]
):
    assert read(text, fp) == ([], uncovered)


def test_a_claim_about_every_call_checks_one_and_names_the_rest(fp: Fingerprint):
    """A call passing the keyword is checked; that every call does is not."""
    text = "`create_engine` is always called with `pool_pre_ping=True`."
    assert read(text, fp) == (
        ["call:create_engine(pool_pre_ping=True)"],
        ["every call of create_engine"],
    )
    later = "We pass `pool_pre_ping=True` to `create_engine` so that all pooled connections live."
    assert read(later, fp) == (["call:create_engine(pool_pre_ping=True)"], [])


@pytest.mark.parametrize(
    "text",
    [
        "If `get_status` takes an optional `now` argument, tests can freeze time.",
        "`get_status` should take an optional `now` argument.",
        "Does `get_status` take an optional `now` argument?",
        "The status module has `now` for tests.",  # "has" without a noun names no parameter
        "The handler takes a `now` argument.",  # "handler" is a word, not code
        "Run `get_status(now=None)` to see it.",  # a call written out, not a signature
    ],
)
def test_conditions_questions_plans_and_prose_words_are_not_read(fp: Fingerprint, text: str):
    assert read(text, fp) == ([], [])
