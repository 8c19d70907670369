"""The HTTP statuses a function's own body sets (issue #32): read per language, kept in the
facts cache, bound from a note's words to ``status:`` anchors, and checked against the code.
"""

from __future__ import annotations

import pytest

from anchors.extract import infer_anchors
from anchors.facts import Fingerprint
from anchors.fingerprint import CodeSource, facts_from_json, facts_to_json
from anchors.http_status import CALLS, COMPUTED, status_number
from anchors.languages import extract_facts
from anchors.spec import AnchorKind, AnchorSyntaxError, Expect, parse_anchor
from anchors.verdicts import Verdict
from anchors.verify import check_anchor
from tests.conftest import GitRepo

MUX_GO = """package mux

import "net/http"

func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusMethodNotAllowed)
}

func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
\tif r.URL == nil {
\t\thttp.Error(w, fmt.Sprintf("bad %s", r.Method), http.StatusBadRequest)
\t\treturn
\t}
\thttp.NotFound(w, r)
}

func written(w http.ResponseWriter, code int) {
\tw.WriteHeader(code)
\tw.WriteHeader(409)
}

func wrap() http.Handler {
\treturn http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(204) })
}

func delegate(w http.ResponseWriter, r *http.Request) { methodNotAllowed(w, r) }

func client(resp *http.Response) bool { return resp.StatusCode == http.StatusOK }
"""
VIEWS_PY = """from flask import abort, jsonify
from fastapi import HTTPException, status


@app.post("/items", status_code=201)
def create_item(item):
    if not item:
        raise HTTPException(status_code=status.HTTP_400_BAD_REQUEST, detail="empty")
    return item


def get_user(user_id):
    user = find(user_id)
    if user is None:
        abort(404)
    return jsonify(user), 200


class UserView(View):
    def get(self, request):
        return HttpResponseNotFound("no")

    def post(self, request):
        return JsonResponse({}, status=400)


def checked(client):
    client.get("/users", status=404)


def defaulted(status=400):
    return status


class GymView(View):
    def dispatch(self, request):
        if not request.user.is_authenticated:
            return HttpResponseForbidden()
        return super().dispatch(request)
"""
ROUTES_TS = """export async function getUser(req: Request, res: Response) {
  if (!req.params.id) { return res.status(400).json({ error: "id" }); }
  res.sendStatus(401);
}
const removeUser = (req, res) => { res.status(204).end(); };
app.get("/x", (req, res) => res.status(404).send());
export async function GET() { return NextResponse.json({}, { status: 500 }); }
function koa(ctx) { ctx.status = 418; }
function isMissing(r) { return r.status === 404; }
function guarded(req, res) { if (!req.user) { return res.sendStatus(401); } sendError(res, 500); }
"""
HANDLERS_RS = """async fn get_user() -> Result<Json<User>, StatusCode> {
    let u = find().await.ok_or(StatusCode::NOT_FOUND)?;
    Ok(Json(u))
}
async fn index() -> impl Responder { HttpResponse::Created().body("x") }
fn is_ok(s: StatusCode) -> bool { s == StatusCode::OK }
"""


def _statuses(source: str, dialect: str) -> dict[str, set[int]]:
    found: dict[str, set[int]] = {}
    for fact in extract_facts(source.encode(), dialect).statuses:
        if fact.status != CALLS:
            found.setdefault(fact.function, set()).add(fact.status)
    return found


# -- extraction -------------------------------------------------------------------------------
def test_named_statuses_map_to_their_numbers() -> None:
    assert status_number("http.StatusMethodNotAllowed") == 405
    assert status_number("StatusOK") == 200
    assert status_number("http.StatusTeapot") == 418
    assert status_number("status.HTTP_404_NOT_FOUND") == 404
    assert status_number("http.HTTPStatus.CREATED") == 201
    assert status_number("StatusCode::PAYLOAD_TOO_LARGE") == 413
    assert status_number("404") == 404
    assert status_number("99") is None and status_number("700") is None
    assert status_number("code") is None and status_number("http.StatusText") is None


def test_go_statuses_are_those_each_function_writes_itself() -> None:
    found = _statuses(MUX_GO, "go")
    assert found["methodNotAllowed"] == {405}
    assert found["Handler.ServeHTTP"] == {400, 404}
    assert found["written"] == {409, COMPUTED}  # ``WriteHeader(code)``: computed
    assert found["wrap"] == {204}  # a closure's status is its named function's
    assert "delegate" not in found  # it sets none itself
    assert "client" not in found  # a comparison sets nothing


def test_python_statuses_of_flask_fastapi_and_django() -> None:
    found = _statuses(VIEWS_PY, "python")
    assert found["create_item"] == {201, 400}  # the route's decorator and the exception
    assert found["get_user"] == {404, 200}
    assert found["UserView.get"] == {404}
    assert found["UserView.post"] == {400}
    # a test client's expected status and a parameter's default are not answers
    assert "checked" not in found and "defaulted" not in found
    assert found["GymView.dispatch"] == {403, COMPUTED}  # the base class may answer too


def test_typescript_statuses_of_express_koa_and_next() -> None:
    found = _statuses(ROUTES_TS, "typescript")
    assert found["getUser"] == {400, 401}
    assert found["removeUser"] == {204}
    assert found["GET"] == {500}
    assert found["koa"] == {418}
    assert "isMissing" not in found
    assert found["guarded"] == {401, COMPUTED}  # the response handed to a helper
    assert all(404 not in s for s in found.values())  # an anonymous route's is no one's


def test_rust_statuses_of_axum_and_actix() -> None:
    found = _statuses(HANDLERS_RS, "rust")
    assert found["get_user"] == {404, COMPUTED}  # ``?``: an error type says its status
    assert found["index"] == {201}
    assert "is_ok" not in found


def test_a_decorator_that_may_answer_is_kept_as_a_status_not_read() -> None:
    source = ("@login_required\n@app.route('/x')\ndef secret():\n    return '', 204\n\n\n"
              "@app.get('/y')\ndef open_():\n    return '', 204\n")  # fmt: skip
    found = _statuses(source, "python")
    assert found == {"secret": {204, COMPUTED}, "open_": {204}}


def test_statuses_survive_the_facts_cache() -> None:
    facts = extract_facts(MUX_GO.encode(), "go")
    assert facts.statuses
    assert facts_from_json(facts_to_json(facts)).statuses == facts.statuses


# -- anchors ----------------------------------------------------------------------------------
def test_a_status_anchor_parses_negated_or_not() -> None:
    anchor = parse_anchor("status:mux.go::methodNotAllowed=405")
    assert (anchor.kind, anchor.value, anchor.scope, anchor.stated) == (
        AnchorKind.STATUS, "methodNotAllowed", "mux.go", "405")
    negated = parse_anchor("!status:Handler.ServeHTTP=404")
    assert negated.expect is Expect.ABSENT and negated.render() == "!status:Handler.ServeHTTP=404"
    for bad in ("status:f=99", "status:f", "status:f=Not Found"):
        with pytest.raises(AnchorSyntaxError):
            parse_anchor(bad)


@pytest.fixture
def fp(git_repo: GitRepo, source: CodeSource) -> Fingerprint:
    git_repo.commit({"mux.go": MUX_GO, "app/views.py": VIEWS_PY, "web/routes.ts": ROUTES_TS})
    return source.fingerprint()


@pytest.mark.parametrize(("anchor", "verdict", "detail"), [
    ("status:mux.go::methodNotAllowed=405", Verdict.HOLDS,
     "mux.go:6 methodNotAllowed writes 405 (http.StatusMethodNotAllowed)"),
    ("status:mux.go::methodNotAllowed=400", Verdict.BROKEN,
     "mux.go:6 methodNotAllowed writes 405 (http.StatusMethodNotAllowed), not 400"),
    ("!status:mux.go::methodNotAllowed=405", Verdict.BROKEN, "writes 405"),
    ("!status:mux.go::methodNotAllowed=404", Verdict.HOLDS, "never 404"),
    ("status:Handler.ServeHTTP=404", Verdict.HOLDS, "writes 404 (NotFound)"),
    # it sets none itself, it computes one, or 200 is what nothing set answers with
    ("status:mux.go::delegate=405", Verdict.UNKNOWN, "sets no HTTP status itself"),
    ("status:mux.go::written=400", Verdict.UNKNOWN, "its status may also come from code"),
    ("status:mux.go::methodNotAllowed=200", Verdict.UNKNOWN, "200 is what a response has"),
    ("status:app/views.py::create_item=201", Verdict.HOLDS, "writes 201"),
    ("status:app/views.py::get_user=403", Verdict.BROKEN, "writes 404, 200, not 403"),
    ("status:web/routes.ts::getUser=401", Verdict.HOLDS, "writes 401"),
    ("status:web/routes.ts::getUser=404", Verdict.BROKEN, "writes 400, 401, not 404"),
])  # fmt: skip
def test_a_status_is_checked_against_what_the_function_writes(
    fp: Fingerprint, anchor: str, verdict: Verdict, detail: str
) -> None:
    check = check_anchor(parse_anchor(anchor), None, fp)
    assert check.verdict is verdict, check.detail
    assert detail in check.detail


def test_a_helper_that_may_answer_leaves_its_caller_unknown(
    git_repo: GitRepo, source: CodeSource
) -> None:
    git_repo.commit({
        "api.go": (
            "package api\n\nimport \"net/http\"\n\n"
            "func badRequest(w http.ResponseWriter) { w.WriteHeader(http.StatusBadRequest) }\n\n"
            "func create(w http.ResponseWriter, r *http.Request) {\n"
            "\tif r.Body == nil {\n\t\tbadRequest(w)\n\t\treturn\n\t}\n"
            "\tw.WriteHeader(http.StatusCreated)\n}\n"
        ),
        "app.py": (
            "def bad_request(message):\n    return jsonify(error=message), 400\n\n\n"
            "def create(item):\n    if not item:\n        return bad_request('empty')\n"
            "    return jsonify(item), 201\n\n\n"
            "class Resource:\n    def put(self, obj):\n        self._raise_412_if_modified(obj)\n"
            "        self.request.response.status_code = 201\n\n"
            "    def get(self, obj):\n        if obj is None:\n            raise HTTPNotFound()\n"
            "        return obj\n"
        ),
    })  # fmt: skip
    fp = source.fingerprint()
    handed = check_anchor(parse_anchor("status:api.go::create=400"), None, fp)
    assert handed.verdict is Verdict.UNKNOWN, handed.detail
    assert "its status may also come from badRequest" in handed.detail
    called = check_anchor(parse_anchor("status:app.py::create=400"), None, fp)
    assert called.verdict is Verdict.UNKNOWN, called.detail
    assert "it calls bad_request, which sets statuses of its own" in called.detail
    # a helper read nowhere, whose name says it answers: ``_raise_412_if_modified``
    named = check_anchor(parse_anchor("status:app.py::Resource.put=412"), None, fp)
    assert named.verdict is Verdict.UNKNOWN, named.detail
    assert "it calls _raise_412_if_modified, which may answer for it" in named.detail
    # Pyramid's exceptions are read as the statuses they stand for
    found = check_anchor(parse_anchor("status:app.py::Resource.get=404"), None, fp)
    assert found.verdict is Verdict.HOLDS, found.detail


# -- reading notes ----------------------------------------------------------------------------
@pytest.mark.parametrize(("text", "anchor"), [
    ("methodNotAllowed answers with 400 Bad Request.", "status:mux.go::methodNotAllowed=400"),
    ("A method mismatch is answered by methodNotAllowed with status 405 "
     "(http.StatusMethodNotAllowed).", "status:mux.go::methodNotAllowed=405"),
    ("`methodNotAllowed` never writes a 405.", "!status:mux.go::methodNotAllowed=405"),
    ("`get_user` returns a 404 when the user is missing.", "status:app/views.py::get_user=404"),
    ("`getUser` responds 401 Unauthorized without a session.",
     "status:web/routes.ts::getUser=401"),
])  # fmt: skip
def test_a_note_binds_the_status_it_states_to_the_function_it_names(
    fp: Fingerprint, text: str, anchor: str
) -> None:
    assert parse_anchor(anchor) in infer_anchors(text, fp, None).anchors


@pytest.mark.parametrize(("text", "read"), [
    ("`get_user` should return a 404 when the user is missing.", set()),  # a wish
    ("`get_user` returns 404 or 410 for a deleted user.", set()),  # which one is not said
    ("`get_user` returns 404 Bad Request.", set()),  # the phrase is another status's
    ("`get_user` returns 500 rows at most.", set()),  # a count, not a status
    ("methodNotAllowed answers with 405, not 400.", {"405"}),  # the one set aside
    ("`get_user` returns None for status 404.", set()),  # a status it is given
])  # fmt: skip
def test_what_a_note_does_not_plainly_state_is_not_read(
    fp: Fingerprint, text: str, read: set[str]
) -> None:
    found = [a for a in infer_anchors(text, fp, None).anchors if a.kind is AnchorKind.STATUS]
    assert {a.stated for a in found} == read, found
