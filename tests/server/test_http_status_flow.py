"""The HTTP status a note says a function answers with (issues #31, #32), through MCP
``remember`` + ``recall`` on a real git repository with real commits: a Go (net/http)
handler, Flask and FastAPI views and Express handlers.

A status the function writes itself verifies the note; a status it does not write, when it
writes others and nothing else may set one for it, refutes it with a receipt quoting the
code; a function that writes no status itself (it delegates) leaves the note unchecked; a
negation ("never answers 405") is refuted by the status it denies."""

from __future__ import annotations

import pytest

from tests.conftest import GitRepo
from tests.mcp_calls import receipts, remember_and_serve

pytestmark = [pytest.mark.anyio, pytest.mark.usefixtures("server_pool")]

HANDLERS_GO = """package api

import "net/http"

// methodNotAllowed replies to the request with an HTTP status code 405.
func methodNotAllowed(w http.ResponseWriter, r *http.Request) {
\tw.WriteHeader(http.StatusMethodNotAllowed)
}

// notFound leaves the answer to the standard library's handler.
func notFound(w http.ResponseWriter, r *http.Request) {
\thttp.NotFoundHandler().ServeHTTP(w, r)
}
"""
APP_PY = """from flask import Flask, abort, jsonify, request

app = Flask(__name__)
USERS = {}


@app.route("/users/<int:user_id>")
def get_user(user_id):
    user = USERS.get(user_id)
    if user is None:
        abort(404)
    return jsonify(user)


@app.route("/users", methods=["POST"])
def create_user():
    USERS[len(USERS)] = request.json
    return jsonify(request.json), 201
"""
ITEMS_PY = """from fastapi import APIRouter, HTTPException, status

router = APIRouter()
ITEMS = {}


@router.post("/items", status_code=201)
def create_item(name: str):
    if name in ITEMS:
        raise HTTPException(status_code=status.HTTP_409_CONFLICT, detail="exists")
    ITEMS[name] = name
    return {"name": name}
"""
SERVER_TS = """import type { Request, Response, NextFunction } from "express";

const orders = new Map<string, object>();

export function getOrder(req: Request, res: Response) {
  const order = orders.get(req.params.id);
  if (!order) {
    return res.status(404).json({ error: "no such order" });
  }
  res.json(order);
}

export function requireAuth(req: Request, res: Response, next: NextFunction) {
  if (!req.headers.authorization) {
    return res.sendStatus(401);
  }
  next();
}
"""
REPO = {
    "api/handlers.go": HANDLERS_GO,
    "web/app.py": APP_PY,
    "web/items.py": ITEMS_PY,
    "front/server.ts": SERVER_TS,
    "go.mod": "module example.com/api\n\ngo 1.21\n",
}


@pytest.fixture
def handlers(git_repo: GitRepo) -> GitRepo:
    git_repo.commit(REPO, "handlers in Go, Flask, FastAPI and Express")
    return git_repo


# (note, status served, a receipt it carries)
NOTES: list[tuple[str, str, str]] = [
    # Go net/http
    ("methodNotAllowed answers with 400 Bad Request.", "REFUTED",
     "api/handlers.go:7 methodNotAllowed writes 405 (http.StatusMethodNotAllowed), not 400"),
    ("A method mismatch is answered by methodNotAllowed with status 405 "
     "(http.StatusMethodNotAllowed).", "VERIFIED",
     "api/handlers.go:7 methodNotAllowed writes 405 (http.StatusMethodNotAllowed)"),
    ("methodNotAllowed never answers with a 405.", "REFUTED",
     "methodNotAllowed writes 405 (http.StatusMethodNotAllowed)"),
    # Flask
    ("`create_user` answers 201 Created.", "VERIFIED", "web/app.py:18 create_user writes 201"),
    ("`create_user` responds with 409 Conflict.", "REFUTED",
     "web/app.py:18 create_user writes 201, not 409"),
    ("`get_user` aborts with 404 Not Found.", "VERIFIED", "get_user writes 404"),
    # FastAPI: the route's decorator and the exception it raises
    ("`create_item` answers with 409 Conflict.", "VERIFIED",
     "create_item writes 409 (status.HTTP_409_CONFLICT)"),
    ("`create_item` answers with 403 Forbidden.", "REFUTED",
     "web/items.py:7 create_item writes 201, 409 (status.HTTP_409_CONFLICT), not 403"),
    # Express
    ("`getOrder` responds with status 404 for an unknown order.", "VERIFIED",
     "front/server.ts:8 getOrder writes 404"),
    ("`requireAuth` answers with 403 Forbidden.", "REFUTED",
     "front/server.ts:15 requireAuth writes 401, not 403"),
    ("`requireAuth` never sends a 403.", "VERIFIED", "requireAuth writes 401; never 403"),
]  # fmt: skip


@pytest.mark.parametrize(("text", "status", "receipt"), NOTES)
async def test_a_stated_status_is_checked_against_what_the_function_writes(
    handlers: GitRepo, text: str, status: str, receipt: str
) -> None:
    served = await remember_and_serve(handlers.root, text)
    assert served["status"] == status, served["anchors"]
    assert receipt in receipts(served), served["anchors"]


async def test_a_function_that_writes_no_status_itself_is_left_unchecked(
    handlers: GitRepo,
) -> None:
    served = await remember_and_serve(handlers.root, "notFound answers with 400 Bad Request.")
    assert served["status"] == "ACTIVE", served["anchors"]
    [status] = [a for a in served["anchors"] if a["anchor"].startswith("status:")]
    assert status["verdict"] == "unknown", served["anchors"]
    assert "notFound sets no HTTP status itself" in status["detail"]


async def test_an_agents_status_anchor_is_checked_and_a_later_commit_refutes_it(
    handlers: GitRepo,
) -> None:
    given = ["status:api/handlers.go::methodNotAllowed=405"]
    served = await remember_and_serve(handlers.root, "methodNotAllowed sends a 405", given)
    assert served["status"] == "VERIFIED", served["anchors"]
    handlers.commit({"api/handlers.go": HANDLERS_GO.replace(
        "http.StatusMethodNotAllowed", "http.StatusBadRequest")}, "answer 400")  # fmt: skip
    later = await remember_and_serve(handlers.root, "methodNotAllowed sends a 405", given)
    assert later["status"] == "REFUTED", later["anchors"]
    assert "writes 400 (http.StatusBadRequest), not 405" in receipts(later)


async def test_a_status_stated_beside_an_agents_symbol_anchor_is_checked_too(
    handlers: GitRepo,
) -> None:
    served = await remember_and_serve(
        handlers.root, "methodNotAllowed answers with 400 Bad Request.",
        ["symbol:api/handlers.go::methodNotAllowed"],
    )
    assert served["status"] == "REFUTED", served["anchors"]
    assert "writes 405 (http.StatusMethodNotAllowed), not 400" in receipts(served)
