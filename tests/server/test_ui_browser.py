"""``anchormem ui`` in a real browser: the system's headless Chromium, driven by Selenium
through the system's chromedriver (nothing downloads a browser; .ci/run installs both from
Debian's packages). A person opens the printed link, finds a memory by search, opens it,
resolves a conflict, retracts and restores a memory and forgets one; each change must
leave the store as the same calls through MCP (or, for what MCP has no tool for, the CLI)
leave a twin store filled the same way. The screenshots of the README
(docs/screenshots/*.png, 1280x800) are taken here, on every run.

Skipped, saying why, where /usr/bin/chromium or /usr/bin/chromedriver is missing."""

from __future__ import annotations

import struct
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client

from server.app import build_server
from server.config import Settings
from tests.conftest import GitRepo, settings_env
from tests.mcp_calls import call
from tests.server.conftest import PROJECT
from tests.ui_server import NOTES, UiServer, cli, comparable, fill, wait_for

CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")
SCREENSHOTS = Path(__file__).resolve().parents[2] / "docs" / "screenshots"
WIDTH, HEIGHT = 1280, 800

pytestmark = pytest.mark.skipif(
    not (CHROMIUM.is_file() and CHROMEDRIVER.is_file()),
    reason="no system Chromium and chromedriver (apt-get install chromium chromium-driver)",
)


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One headless Chromium for the module (starting one costs about a second)."""
    webdriver = pytest.importorskip("selenium.webdriver")
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = str(CHROMIUM)  # with the Service's path: no Selenium Manager
    for arg in (
        "--headless=new",
        "--no-sandbox",  # the suite runs as root in CI, where Chromium's sandbox refuses to
        "--disable-dev-shm-usage",
        "--disable-gpu",
        "--no-first-run",
        "--disable-extensions",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        f"--window-size={WIDTH},{HEIGHT}",
        f"--user-data-dir={tmp_path_factory.mktemp('chromium')}",
    ):
        options.add_argument(arg)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=options)
    try:
        # The page's own size, whatever the window's frame takes: screenshots are 1280x800.
        driver.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": WIDTH, "height": HEIGHT, "deviceScaleFactor": 1, "mobile": False},
        )
        driver.implicitly_wait(0)
        yield driver
    finally:
        driver.quit()


@dataclass
class Site:
    repo: Path
    ids: dict[str, str]  # the inspector's store
    twin: Path  # a store filled the same way, changed through MCP
    twin_ids: dict[str, str]
    ui: UiServer

    def twin_settings(self) -> Settings:
        return Settings.resolve(repo=str(self.repo), db=str(self.twin), env=settings_env())

    def same_after(self, *names: str) -> None:
        """Each named memory's record and audit trail, as the CLI prints them, is the
        same in the inspector's store as in the twin."""
        mine = {v: k for k, v in self.ids.items()}
        theirs = {v: k for k, v in self.twin_ids.items()}
        for name in names:
            for command in ("show", "audit"):
                here = cli(self.repo, command, self.ids[name])
                there = cli(self.repo, command, self.twin_ids[name], db=self.twin)
                assert comparable(here, mine) == comparable(there, theirs), (command, name)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Site]:
    root = tmp_path_factory.mktemp("ui-browser") / "repo"
    root.mkdir()
    GitRepo(root).commit(PROJECT, "initial project")
    twin = tmp_path_factory.mktemp("ui-twin") / "twin.duckdb"
    ids, twin_ids = fill(root), fill(root, db=twin)
    ui = UiServer(root, root.parent / "ui.log")
    try:
        yield Site(root, ids, twin, twin_ids, ui)
    finally:
        ui.close()


async def _mcp(site: Site, tool: str, **args: Any) -> dict[str, Any]:
    """One tool call on the twin store, through the MCP client, as an agent makes it."""
    async with Client(build_server(site.twin_settings(), shared=True)) as client:
        return await call(client, tool, **args)


def _as_user(site: Site, tool: str, **args: Any) -> dict[str, Any]:
    # The tools take no actor for retract (the server's ANCHORMEM_ACTOR names it): the
    # twin's calls are made with the person as the actor, as the inspector records them.
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("ANCHORMEM_ACTOR", "user")
        return anyio.run(lambda: _mcp(site, tool, **args))


def _screenshot(driver: Any, name: str) -> None:
    png = driver.get_screenshot_as_png()
    width, height = struct.unpack(">II", png[16:24])  # the PNG header's IHDR chunk
    assert (width, height) == (WIDTH, HEIGHT)
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    (SCREENSHOTS / f"{name}.png").write_bytes(png)


def _find(driver: Any, css: str) -> Any:
    from selenium.webdriver.common.by import By

    return driver.find_element(By.CSS_SELECTOR, css)


def _all(driver: Any, css: str) -> list[Any]:
    from selenium.webdriver.common.by import By

    return list(driver.find_elements(By.CSS_SELECTOR, css))


def _head(repo: Path) -> str:
    import subprocess

    done = subprocess.run(
        ["git", "rev-parse", "HEAD"], cwd=repo, capture_output=True, text=True, check=True
    )
    return done.stdout.strip()


def test_the_link_opens_the_memories_and_a_search_finds_one(site: Site, browser: Any):
    browser.get(site.ui.url)
    assert browser.current_url == f"{site.ui.base}/"  # the token went into a cookie
    rows = _all(browser, "#memories tbody tr[data-id]")
    assert {r.get_attribute("data-id") for r in rows} == set(site.ids.values())
    assert _head(site.repo)[:7] in _find(browser, "#checked").text
    _screenshot(browser, "memories")

    box = _find(browser, "#q")
    box.send_keys("duckdb store")
    box.submit()
    wait_for(lambda: "q=duckdb" in browser.current_url)
    first = _find(browser, "#memories tbody tr[data-id]")
    assert first.get_attribute("data-id") == site.ids["duckdb"]
    assert float(_find(browser, "#memories tbody tr[data-id] td.score").text) > 0


def test_a_memory_shows_each_anchor_with_its_verdict_at_head(site: Site, browser: Any):
    browser.get(f"{site.ui.base}/?q=duckdb+store")
    _find(browser, f'#memories tr[data-id="{site.ids["duckdb"]}"] a.mid').click()
    wait_for(lambda: browser.current_url.endswith(f"/memories/{site.ids['duckdb']}"))
    assert _find(browser, "#text").text == NOTES["duckdb"][0]
    anchor = _find(browser, "#anchors tbody tr")
    cells = [c.text for c in anchor.find_elements("css selector", "td")]
    assert cells[0] == "import:duckdb@store/db.py"
    assert cells[1] == "✓ holds" and cells[2] == "store/db.py" and cells[3]
    head = _head(site.repo)
    assert head[:7] in _find(browser, "#anchors th:nth-child(2)").text
    assert head[:7] in _find(browser, "#checked").text
    assert "holds" in _find(browser, "#why").text
    _screenshot(browser, "memory")


def test_resolving_a_conflict_changes_the_store_as_resolve_through_mcp_does(
    site: Site, browser: Any
):
    browser.get(f"{site.ui.base}/review")
    assert _find(browser, f'#queue tr[data-id="{site.ids["jwt"]}"]').text.startswith("ASK")
    pair = _find(browser, "#conflicts article.pair")
    claims = [c.text for c in pair.find_elements("css selector", ".side .claim")]
    assert sorted(claims) == sorted([NOTES["short"][0], NOTES["long"][0]])
    _screenshot(browser, "review")

    reason = "the auth config sets a one-hour lifetime"
    box = pair.find_element("css selector", "input[name=reason]")
    box.send_keys(reason + "\n")  # Enter submits with no verdict button: nothing is judged
    assert browser.current_url == f"{site.ui.base}/review"
    assert [c["state"] for c in cli(site.repo, "conflicts")["conflicts"]] == ["open"]
    pair.find_element("css selector", f'button[value="conflict:{site.ids["long"]}"]').click()
    wait_for(lambda: "done=resolve" in browser.current_url)
    assert "Judged" in _find(browser, ".note.done").text
    assert not _all(browser, "#conflicts article.pair")

    _as_user(
        site,
        "resolve",
        first=site.twin_ids["short"],
        second=site.twin_ids["long"],
        verdict="conflict",
        winner=site.twin_ids["long"],
        reason=reason,
        actor="user",
    )
    site.same_after("short", "long")
    here = cli(site.repo, "conflicts")
    there = cli(site.repo, "conflicts", db=site.twin)
    mine = {v: k for k, v in site.ids.items()}
    theirs = {v: k for k, v in site.twin_ids.items()}
    assert comparable(here, mine) == comparable(there, theirs)


def test_retract_and_restore_change_the_store_as_the_same_calls_do(site: Site, browser: Any):
    reason, evidence = "billing moved to requests", "billing/client.py imports requests"
    browser.get(f"{site.ui.base}/memories/{site.ids['httpx']}")
    form = _find(browser, "#retract")
    form.find_element("css selector", "input[name=reason]").send_keys(reason)
    form.find_element("css selector", "input[name=evidence]").send_keys(evidence)
    form.find_element("css selector", "button").click()
    wait_for(lambda: "done=retract" in browser.current_url)
    assert "REFUTED" in _find(browser, ".memory-head h1").text
    assert f"retract by user just now: {reason}" in _find(browser, "#receipts").text
    _as_user(site, "retract", id=site.twin_ids["httpx"], reason=reason, evidence=evidence)
    site.same_after("httpx")

    back = "it was httpx after all"
    form = _find(browser, "#restore")
    form.find_element("css selector", "input[name=reason]").send_keys(back)
    form.find_element("css selector", "button").click()
    wait_for(lambda: "done=restore" in browser.current_url)
    assert "REFUTED" not in _find(browser, ".memory-head h1").text
    # No MCP tool restores (a person's decision): the twin's is the CLI's, as the person.
    cli(
        site.repo,
        "restore",
        site.twin_ids["httpx"],
        "--reason",
        back,
        db=site.twin,
        ANCHORMEM_ACTOR="user",
    )
    site.same_after("httpx")


def test_forget_asks_for_a_confirmation_then_erases_the_text(site: Site, browser: Any):
    browser.get(f"{site.ui.base}/memories/{site.ids['redis']}")
    form = _find(browser, "#forget")
    assert "cannot be undone" in form.text
    form.find_element("css selector", "input[name=reason]").send_keys("a customer's name")
    form.find_element("css selector", "button").click()  # the box is not ticked
    assert browser.current_url.endswith(f"/memories/{site.ids['redis']}")
    assert cli(site.repo, "show", site.ids["redis"])["forgotten"] is False

    form.find_element("css selector", "input[name=confirm]").click()
    form.find_element("css selector", "button").click()
    wait_for(lambda: "done=forget" in browser.current_url)
    assert "forgotten" in _find(browser, ".memory-head h1").text
    assert NOTES["redis"][0] not in browser.page_source
    cli(
        site.repo,
        "forget",
        site.twin_ids["redis"],
        "--reason",
        "a customer's name",
        db=site.twin,
        ANCHORMEM_ACTOR="user",
    )
    site.same_after("redis")


def test_the_page_shows_an_agents_write_while_it_is_open(site: Site, browser: Any):
    browser.get(f"{site.ui.base}/")
    wait_for(lambda: _find(browser, "#live-status").text.startswith("live"))
    text = "Auth reads JWT_SECRET from the environment in auth/jwt.py"
    made = cli(site.repo, "remember", text, "--source", "agent", "--anchor", "env:JWT_SECRET")
    row = wait_for(
        lambda: _all(browser, f'#memories tr.fresh[data-id="{made["id"]}"]'), timeout_s=30
    )[0]
    assert text in row.text
    assert _find(browser, "#live-status").text.startswith("updated")
    _screenshot(browser, "live")
