"""``anchormem ui`` over plain HTTP: nothing is served without the link's token, with a
wrong Host or Origin, and nothing changes without the CSRF token; with all of them, the
pages, the live endpoint and the export answer, and a change is recorded as the person's.
(The browser's view of the same pages: test_ui_browser.py.)"""

from __future__ import annotations

import json
import subprocess
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import GitRepo
from tests.server.conftest import PROJECT
from tests.ui_server import NOTES, UiServer, cli, fill


@dataclass
class Site:
    repo: Path
    ids: dict[str, str]
    ui: UiServer

    def show(self, name: str) -> dict[str, object]:
        shown: dict[str, object] = cli(self.repo, "show", self.ids[name])
        return shown

    def csrf(self) -> str:
        return self.ui.csrf(f"/memories/{self.ids['duckdb']}")

    def audit(self, name: str) -> list[dict[str, object]]:
        entries: list[dict[str, object]] = cli(self.repo, "audit", self.ids[name])["entries"]
        return entries


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("ui-access") / "repo"
    root.mkdir()
    GitRepo(root).commit(PROJECT, "initial project")
    ids = fill(root)
    ui = UiServer(root, root.parent / "ui.log")
    try:
        yield Site(root, ids, ui)
    finally:
        ui.close()


PAGES = ["/", "/review", "/api/live?path=/", "/export.jsonl", "/static/ui.css", "/?q=duckdb"]


@pytest.mark.parametrize("path", PAGES)
def test_without_the_token_nothing_is_served(site: Site, path: str):
    status, headers, body = site.ui.request("GET", path, cookie=False)
    assert status == 403
    assert "set-cookie" not in headers
    assert all(NOTES[name][0] not in body for name in NOTES)
    assert "printed" in body  # says where the way in is


def test_a_memory_page_is_not_served_without_the_token_either(site: Site):
    status, _, body = site.ui.request("GET", f"/memories/{site.ids['duckdb']}", cookie=False)
    assert status == 403 and "DuckDB" not in body


@pytest.mark.parametrize(
    ("query", "cookie"),
    [("?token=not-the-token", None), ("", "anchormem_ui_{port}=not-the-token"), ("?token=", None)],
)
def test_a_wrong_token_in_the_link_or_the_cookie_is_refused(
    site: Site, query: str, cookie: str | None
):
    headers = {"Cookie": cookie.format(port=site.ui.port)} if cookie else {}
    status, answer, body = site.ui.request("GET", f"/{query}", cookie=False, headers=headers)
    assert status == 403 and "set-cookie" not in answer and "DuckDB" not in body


def test_the_printed_link_sets_a_cookie_and_leaves_the_token_out_of_the_address(site: Site):
    assert site.ui.url.startswith("http://127.0.0.1:")  # loopback only, as printed
    path = "/" + site.ui.url.split("/", 3)[3]
    status, headers, _ = site.ui.request("GET", path, cookie=False)
    assert status == 303 and headers["location"] == "/"
    cookie = headers["set-cookie"]
    assert cookie.startswith(f"anchormem_ui_{site.ui.port}={site.ui.token};")
    assert "HttpOnly" in cookie and "SameSite=Strict" in cookie
    status, headers, body = site.ui.request("GET", "/")
    assert status == 200 and "The store layer opens DuckDB" in body
    assert "frame-ancestors 'none'" in headers["content-security-policy"]
    assert headers["referrer-policy"] == "same-origin"


def test_the_token_keeps_the_rest_of_the_query(site: Site):
    status, headers, _ = site.ui.request(
        "GET", f"/?q=duckdb&token={site.ui.token}&status=VERIFIED", cookie=False
    )
    assert status == 303 and headers["location"] == "/?q=duckdb&status=VERIFIED"


@pytest.mark.parametrize("host", ["evil.example:{port}", "127.0.0.1:1", "localhost"])
def test_a_wrong_host_is_refused_even_with_the_token(site: Site, host: str):
    status, _, body = site.ui.request("GET", "/", headers={"Host": host.format(port=site.ui.port)})
    assert status == 421 and "DuckDB" not in body


def test_the_loopback_names_at_its_port_are_served(site: Site):
    for host in (f"localhost:{site.ui.port}", f"127.0.0.1:{site.ui.port}"):
        status, _, _ = site.ui.request("GET", "/", headers={"Host": host})
        assert status == 200


def _retract_form(site: Site, csrf: str | None) -> dict[str, str]:
    form = {"reason": "it is wrong", "evidence": "store/db.py"}
    if csrf is not None:
        form["csrf"] = csrf
    return form


def test_a_change_from_another_origin_changes_nothing(site: Site):
    before, trail = site.show("duckdb"), site.audit("duckdb")
    status, _, _ = site.ui.request(
        "POST",
        f"/memories/{site.ids['duckdb']}/retract",
        form=_retract_form(site, site.csrf()),
        headers={"Origin": "http://evil.example"},
    )
    assert status == 403
    assert site.show("duckdb") == before and site.audit("duckdb") == trail


@pytest.mark.parametrize("csrf", [None, "", "not-the-csrf-token"])
def test_a_change_without_the_csrf_token_changes_nothing(site: Site, csrf: str | None):
    before, trail = site.show("duckdb"), site.audit("duckdb")
    ui, ids = site.ui, site.ids
    for path, form in (
        (f"/memories/{ids['duckdb']}/retract", _retract_form(site, csrf)),
        (f"/memories/{ids['duckdb']}/forget", {"reason": "x", "confirm": "yes"}),
        (
            "/conflicts/resolve",
            {
                "first": ids["short"],
                "second": ids["long"],
                "verdict": "compatible",
                "reason": "both hold",
            },
        ),
    ):
        if csrf is not None:
            form = {**form, "csrf": csrf}
        status, _, body = ui.request("POST", path, form=form)
        assert status == 403 and "CSRF" in body
    assert site.show("duckdb") == before and site.audit("duckdb") == trail
    conflicts = cli(site.repo, "conflicts")["conflicts"]
    assert [c["state"] for c in conflicts] == ["open"]


def test_a_change_with_the_csrf_token_but_without_the_cookie_changes_nothing(site: Site):
    before = site.show("duckdb")
    status, _, _ = site.ui.request(
        "POST",
        f"/memories/{site.ids['duckdb']}/retract",
        form=_retract_form(site, site.csrf()),
        cookie=False,
    )
    assert status == 403 and site.show("duckdb") == before


def test_forget_without_its_confirmation_changes_nothing(site: Site):
    before = site.show("redis")
    status, _, body = site.ui.request(
        "POST",
        f"/memories/{site.ids['redis']}/forget",
        form={"reason": "private", "csrf": site.csrf()},
    )
    assert status == 400 and "cannot be undone" in body
    assert site.show("redis") == before


def test_a_change_with_everything_right_is_made_and_recorded_as_the_user(site: Site):
    ui, mid = site.ui, site.ids["httpx"]
    origin = {"Origin": f"http://127.0.0.1:{ui.port}"}  # what a browser sends with a form
    form = {"reason": "billing moved to requests", "evidence": "billing/client.py"}
    status, headers, _ = ui.request(
        "POST", f"/memories/{mid}/retract", form={**form, "csrf": site.csrf()}, headers=origin
    )
    assert status == 303 and headers["location"] == f"/memories/{mid}?done=retract"
    shown = site.show("httpx")
    assert shown["status"] == "REFUTED" and shown["refuted_by"] == "retraction"
    receipt = shown["receipt"]
    assert isinstance(receipt, dict)
    assert (receipt["actor"], receipt["reason"], receipt["evidence"]) == (
        "user",
        form["reason"],
        form["evidence"],
    )
    status, headers, _ = ui.request(
        "POST",
        f"/memories/{mid}/restore",
        form={"reason": "it was httpx after all", "csrf": site.csrf()},
        headers=origin,
    )
    assert status == 303
    assert site.show("httpx")["status"] == "VERIFIED"
    trail = [(e["action"], e["actor"]) for e in site.audit("httpx")]
    by_hand = [entry for entry in trail if entry[0] in ("retract", "restore")]
    assert by_hand == [("retract", "user"), ("restore", "user")]


def test_a_refused_change_shows_the_page_again_with_the_reason(site: Site):
    status, _, body = site.ui.request(
        "POST",
        f"/memories/{site.ids['duckdb']}/restore",
        form={"reason": "nothing to restore", "csrf": site.csrf()},
    )
    assert status == 400 and "only a retraction can be restored" in body
    assert "The store layer opens DuckDB" in body


def test_the_search_is_recalls_ranking_with_its_scores(site: Site):
    found = cli(site.repo, "recall", "access tokens live", "--include-refuted")
    status, _, body = site.ui.request("GET", "/?q=access+tokens+live")
    assert status == 200
    ranked = [m["id"] for m in found["memories"]]
    assert ranked and all(mid in body for mid in ranked)
    positions = [body.index(f'data-id="{mid}"') for mid in ranked]
    assert positions == sorted(positions)
    assert body.count('class="num score"') >= len(ranked)


@pytest.mark.parametrize("query", ["kind=rumour", "status=GONE", "page=0", "age=century"])
def test_an_unknown_filter_is_a_clear_refusal(site: Site, query: str):
    status, _, body = site.ui.request("GET", f"/?{query}")
    assert status == 400 and "Not understood" in body


def test_filters_narrow_the_list(site: Site):
    status, _, body = site.ui.request("GET", "/?status=REFUTED")
    assert status == 200 and site.ids["redis"] in body and site.ids["duckdb"] not in body
    status, _, body = site.ui.request("GET", "/?conflicts=open")
    assert {site.ids["short"], site.ids["long"]} <= {
        mid for mid in site.ids.values() if f'data-id="{mid}"' in body
    }
    assert f'data-id="{site.ids["duckdb"]}"' not in body
    status, _, body = site.ui.request("GET", "/?age=older")
    assert status == 200 and "No memory matches" in body


def test_export_is_the_current_filter_as_json_lines(site: Site):
    status, headers, body = site.ui.request("GET", "/export.jsonl?status=VERIFIED")
    assert status == 200 and headers["content-disposition"].startswith("attachment;")
    records = [json.loads(line) for line in body.splitlines()]
    listed = cli(site.repo, "list", "--status", "VERIFIED")["memories"]
    assert [r["id"] for r in records] == [m["id"] for m in listed]
    assert {r["status"] for r in records} == {"VERIFIED"}


def test_the_live_digest_changes_when_an_agent_writes(site: Site):
    head = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=site.repo, capture_output=True, text=True, check=True
    ).stdout.strip()
    status, _, body = site.ui.request("GET", "/api/live?path=/")
    before = json.loads(body)
    assert status == 200 and before["commit"] == head and before["poll_ms"] >= 2000
    assert json.loads(site.ui.request("GET", "/api/live?path=/")[2])["digest"] == before["digest"]
    cli(site.repo, "remember", "Auth tokens are signed with HS256", "--source", "agent")
    after = json.loads(site.ui.request("GET", "/api/live?path=/")[2])
    assert after["digest"] != before["digest"]
    page = site.ui.request("GET", "/")[2]
    assert f'content="{after["digest"]}"' in page  # what the page embeds, the poll compares


def test_the_live_endpoint_answers_for_each_page(site: Site):
    for path in ("/review", f"/memories/{site.ids['duckdb']}"):
        status, _, body = site.ui.request("GET", f"/api/live?path={path}")
        assert status == 200 and json.loads(body)["digest"]
    status, _, _ = site.ui.request("GET", "/api/live?path=/nowhere")
    assert status == 404


def test_hostile_text_is_shown_as_text_with_hidden_characters_made_visible(site: Site):
    text = "Deploys use <script>alert(1)</script> in ci/deploy.sh\u200b"
    made = cli(site.repo, "remember", text, "--source", "agent")
    for path in ("/", f"/memories/{made['id']}", "/?q=deploys+script"):
        status, _, body = site.ui.request("GET", path)
        assert status == 200
        assert "<script>alert(1)</script>" not in body
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in body
        assert "\u200b" not in body and "[U+200B]" in body


def test_a_memory_page_names_the_words_no_anchor_covers(site: Site):
    made = cli(site.repo, "remember", "Failed charges raise PaymentFailed", "--source", "agent")
    status, _, body = site.ui.request("GET", f"/memories/{made['id']}")
    assert status == 200
    said = body[body.index('id="uncovered"') :]
    assert "<code>PaymentFailed</code>" in said[: said.index("</p>")]
