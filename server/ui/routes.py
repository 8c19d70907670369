"""The inspector's requests: each parses its input, calls the service (through
``server.ui.pages`` for what a page shows), and renders a template or redirects.

Pages and the live endpoint are plain functions that Starlette runs in its thread pool
(the service's calls block); a change (POST) reads its form, checks the CSRF token before
anything else, calls the service with the person as the actor, and redirects to the page
it came from (post/redirect/get), or shows that page again with the store's one-line
refusal."""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Iterator
from datetime import UTC, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from jinja2 import Environment, PackageLoader, StrictUndefined
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import (
    HTMLResponse,
    JSONResponse,
    PlainTextResponse,
    RedirectResponse,
    Response,
    StreamingResponse,
)
from starlette.routing import Route

from server.schemas import MARKS
from server.ui.access import Access
from server.ui.pages import (
    AGES,
    PER_PAGE,
    Filters,
    MemoriesPage,
    MemoryPage,
    ReviewPage,
    matching,
    memories_page,
    memory_page,
    review_page,
)
from store.errors import AnchormemError, InvalidInput, NotFound
from store.evidence.confidence import Band
from store.model import Kind, Source, Status

if TYPE_CHECKING:
    from server.ui.link import Service

__all__ = ["ACTOR", "Inspector"]

ACTOR = "user"  # who the receipts and audit rows of the inspector's changes name
# How often a page asks whether what it shows changed: every two seconds, or ten times
# what the last answer cost, so that a slow page (a filter reading the whole store) does
# not keep the store's owner busy.
POLL_MS = (2_000, 30_000)
_DONE = {
    "retract": "Retracted, with a receipt naming you.",
    "restore": "Restored, with a receipt naming you.",
    "forget": "Forgotten: its text is erased; the tombstone and receipts stay.",
    "resolve": "Judged; the pair will not be asked about again.",
}
_AGE_LABELS = {
    "day": "the last 24 hours",
    "week": "the last 7 days",
    "month": "the last 30 days",
    "older": "over 30 days ago",
}
_STATIC = {"ui.css": "text/css; charset=utf-8", "live.js": "text/javascript; charset=utf-8"}
Page = MemoriesPage | MemoryPage | ReviewPage


def _age(value: str | None) -> str:
    """How long ago an ISO time was, for a person: "4 min ago", "3 d ago"."""
    if not value:
        return ""
    seconds = max(0.0, (datetime.now(UTC) - datetime.fromisoformat(value)).total_seconds())
    for unit, size in (("y", 365 * 86400), ("mo", 30 * 86400), ("d", 86400), ("h", 3600)):
        if seconds >= size:
            return f"{int(seconds // size)} {unit} ago"
    return f"{int(seconds // 60)} min ago" if seconds >= 60 else "just now"


def _templates() -> Environment:
    env = Environment(
        loader=PackageLoader("server.ui", "templates"),
        autoescape=True,  # every value is text to show, never markup
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters["age"] = _age
    env.filters["short"] = lambda commit: (commit or "")[:7]
    env.filters["mark"] = lambda verdict: MARKS.get(verdict, "?")
    env.globals.update(
        statuses=[s.value for s in Status],
        kinds=[k.value for k in Kind],
        sources=[s.value for s in Source],
        bands=[b.value for b in Band],
        ages=[(key, _AGE_LABELS[key]) for key in AGES],
        per_page=PER_PAGE,
    )
    return env


class Inspector:
    """The inspector's routes over one service; ``repo`` names the repository shown."""

    def __init__(self, service: Service, access: Access, repo: Path | None) -> None:
        self.service = service
        self.access = access
        self.repo = str(repo) if repo is not None else "no repository"
        self.repo_name = repo.name if repo is not None else self.repo
        self.templates = _templates()
        self.static = {
            name: (resources.files("server.ui") / "static" / name).read_bytes() for name in _STATIC
        }

    def routes(self) -> list[Route]:
        """Every page, change and endpoint of the inspector."""
        return [
            Route("/", self.memories, methods=["GET"]),
            Route("/memories/{memory_id}", self.memory, methods=["GET"]),
            Route("/memories/{memory_id}/{action}", self.change, methods=["POST"]),
            Route("/review", self.review, methods=["GET"]),
            Route("/conflicts/resolve", self.resolve, methods=["POST"]),
            Route("/api/live", self.live, methods=["GET"]),
            Route("/export.jsonl", self.export, methods=["GET"]),
            Route("/static/{name}", self.asset, methods=["GET"]),
            # no icon: an empty answer, not a 404 in the browser's console on every page
            Route("/favicon.ico", lambda _: Response(status_code=204), methods=["GET"]),
        ]

    # -- pages ---------------------------------------------------------------------------
    def memories(self, request: Request) -> Response:
        """``/``: the memories, searched and filtered by the query parameters."""
        return self._page(request, "memories.html", lambda: self._memories(request.query_params))

    def memory(self, request: Request) -> Response:
        """``/memories/ID``: one memory, with the forms that change it."""
        memory_id = request.path_params["memory_id"]
        return self._page(request, "memory.html", lambda: memory_page(self.service, memory_id))

    def review(self, request: Request) -> Response:
        """``/review``: the review queue and the conflicts waiting for a judgement."""
        return self._page(request, "review.html", lambda: review_page(self.service))

    def _memories(self, params: Any) -> MemoriesPage:
        return memories_page(self.service, Filters.parse(params), datetime.now(UTC))

    def _page(
        self,
        request: Request,
        template: str,
        build: Callable[[], Page],
        status: int = 200,
        error: str | None = None,
    ) -> Response:
        try:
            page = build()
        except NotFound as exc:
            return self._problem(request, 404, str(exc))
        except InvalidInput as exc:
            return self._problem(request, 400, str(exc))
        except AnchormemError as exc:
            return self._problem(request, 503, str(exc))
        done = _DONE.get(request.query_params.get("done", ""))
        return self._html(template, status, page=page, done=None if error else done, error=error)

    def _html(self, template: str, status: int, **context: Any) -> HTMLResponse:
        page = context.get("page")
        view = template.removesuffix(".html")
        html = self.templates.get_template(template).render(
            repo=self.repo,
            repo_name=self.repo_name,
            csrf=self.access.csrf,
            view=view,
            digest=getattr(page, "digest", ""),
            open_conflicts=getattr(page, "open_conflicts", 0),
            **{"done": None, "error": None, **context},
        )
        return HTMLResponse(html, status_code=status)

    def _problem(self, request: Request, status: int, message: str) -> HTMLResponse:
        return self._html("problem.html", status, page=None, message=message, code=status)

    # -- changes ---------------------------------------------------------------------------
    async def change(self, request: Request) -> Response:
        """``POST /memories/ID/retract|restore|forget``, as the person."""
        memory_id = request.path_params["memory_id"]
        action = request.path_params["action"]
        if action not in ("retract", "restore", "forget"):
            return PlainTextResponse("Not Found", 404)
        form = await request.form()
        if not self.access.csrf_ok(form.get("csrf")):
            return PlainTextResponse("This form's CSRF token is missing or wrong.", 403)
        reason = form.get("reason")

        def run() -> None:
            if action == "retract":
                evidence = form.get("evidence") or None
                self.service.retract(memory_id, reason, ACTOR, evidence)
            elif action == "restore":
                self.service.restore(memory_id, reason, ACTOR)
            else:
                if form.get("confirm") != "yes":
                    raise InvalidInput("forgetting cannot be undone: tick the box to confirm it")
                self.service.forget(memory_id, reason, ACTOR)

        return await self._after(request, run, f"/memories/{quote(memory_id, safe='')}", action)

    async def resolve(self, request: Request) -> Response:
        """``POST /conflicts/resolve``: the person's judgement of a pair (the agent's
        ``resolve``); the verdict is the button pressed, ``conflict:WINNER`` or another."""
        form = await request.form()
        if not self.access.csrf_ok(form.get("csrf")):
            return PlainTextResponse("This form's CSRF token is missing or wrong.", 403)
        first, second = str(form.get("first") or ""), str(form.get("second") or "")
        verdict, _, winner = str(form.get("verdict") or "").partition(":")
        back = str(form.get("back") or "")
        # Back to the page the form was on: the review page, or one side's memory page.
        where = f"/memories/{quote(back, safe='')}" if back in (first, second) else "/review"

        def run() -> None:
            self.service.resolve(first, second, verdict, winner or None, form.get("reason"), ACTOR)

        return await self._after(request, run, where, "resolve")

    async def _after(
        self, request: Request, run: Callable[[], None], where: str, action: str
    ) -> Response:
        try:
            await run_in_threadpool(run)
        except NotFound as exc:
            return await run_in_threadpool(self._problem, request, 404, str(exc))
        except AnchormemError as exc:  # refused: the page again, saying why
            return await run_in_threadpool(self._again, request, where, str(exc))
        return RedirectResponse(f"{where}?done={action}", status_code=303)

    def _again(self, request: Request, where: str, message: str) -> Response:
        if where == "/review":
            return self._page(
                request, "review.html", lambda: review_page(self.service), 400, message
            )
        memory_id = where.rsplit("/", 1)[1]
        return self._page(
            request, "memory.html", lambda: memory_page(self.service, memory_id), 400, message
        )

    # -- live, export, assets ------------------------------------------------------------
    def live(self, request: Request) -> Response:
        """The digest of what the page at ``path`` (with the other parameters) shows now,
        the commit its verdicts were computed at, and when to ask again."""
        params = dict(request.query_params)
        path = params.pop("path", "/")
        started = time.perf_counter()
        try:
            page = self._live_page(path, params)
        except NotFound as exc:
            return JSONResponse({"error": str(exc)}, status_code=404)
        except AnchormemError as exc:
            return JSONResponse({"error": str(exc)}, status_code=503)
        spent_ms = (time.perf_counter() - started) * 1000
        return JSONResponse(
            {
                "digest": page.digest,
                "commit": page.checked.commit,
                "unchecked": page.checked.unchecked,
                "poll_ms": int(min(max(POLL_MS[0], 10 * spent_ms), POLL_MS[1])),
            }
        )

    def _live_page(self, path: str, params: dict[str, str]) -> Page:
        if path == "/":
            return self._memories(params)
        if path == "/review":
            return review_page(self.service)
        if path.startswith("/memories/") and path.count("/") == 2:
            return memory_page(self.service, path.rsplit("/", 1)[1])
        raise NotFound(f"no page {path[:80]!r}")

    def export(self, request: Request) -> Response:
        """The memories of the current filter, every page, one JSON record a line."""
        try:
            filters = Filters.parse(request.query_params)
            records = matching(self.service, filters, datetime.now(UTC))
        except InvalidInput as exc:
            return PlainTextResponse(str(exc), 400)
        except AnchormemError as exc:
            return PlainTextResponse(str(exc), 503)

        def lines() -> Iterator[str]:
            for record in records:
                yield json.dumps(record, ensure_ascii=False) + "\n"

        stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
        return StreamingResponse(
            lines(),
            media_type="application/x-ndjson; charset=utf-8",
            headers={"content-disposition": f'attachment; filename="memories-{stamp}.jsonl"'},
        )

    def asset(self, request: Request) -> Response:
        """``/static/NAME``: the style sheet and the live script, read once at start."""
        name = request.path_params["name"]
        if name not in self.static:
            return PlainTextResponse("Not Found", 404)
        return Response(self.static[name], media_type=_STATIC[name])
