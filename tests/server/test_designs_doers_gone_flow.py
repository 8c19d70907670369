"""What the rules ask of notes that share no slot (issue #34, adr/0060), through the MCP
tools: designs that exclude each other, products of one family for one thing, one duty
done by others, and a thing one note says is gone while the other uses it. Each is only
a question: both notes stay ACTIVE at their confidence. Histories, mixes, other things,
several doers and values stay unasked."""

from __future__ import annotations

import pytest

from server.config import Settings
from tests.mcp_calls import pair_asked

pytestmark = pytest.mark.anyio


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # designs
        (
            "The invoicing backend is one Rails monolith deployed as a single image.",
            "Invoicing, quoting and payouts are separate services, each deployed independently.",
        ),
        (
            "The docs portal is a static export pushed to a bucket.",
            "Pages of the docs portal are server-rendered per request by a Node process.",
        ),
        (
            "Speech recognition in the dictation app runs on-device; audio never leaves the phone.",
            "The dictation app uploads recordings to our API, where the model runs server-side.",
        ),
        (
            "The billing services share one Postgres cluster and read each other's tables.",
            "Each billing service owns its own database; data only crosses over the API.",
        ),
        # products of one family, each the only one
        (
            "The drone flight controller firmware runs on FreeRTOS.",
            "Flight controller firmware is built on Zephyr with the vendor HAL.",
        ),
        (
            "The desktop client is an Electron app bundling our React UI.",
            "Our desktop client is built with Tauri and the OS webview.",
        ),
        # one duty, other doers
        (
            "The infra team is on call for the ingestion gateway.",
            "Ingestion gateway alerts page the data squad's rotation; infra isn't on that path.",
        ),
        (
            "Releases of `mobile-sdk` are cut by the release captain of the week.",
            "Only Farida tags and publishes mobile-sdk releases; nobody else has the key.",
        ),
        # gone, in other words
        (
            "Feature flags for the storefront come from our Flagsmith instance.",
            "Flagsmith was decommissioned; storefront flags are read from a config file now.",
        ),
        (
            "Search logs are shipped by a Logstash sidecar in each pod.",
            "Swapped the Logstash sidecars for a Fluent Bit DaemonSet.",
        ),
    ],
)
async def test_what_no_slot_holds_is_asked_and_changes_nothing(
    settings: Settings, a: str, b: str
) -> None:
    records, standing = await pair_asked(settings, a, b, consolidate=True)
    assert records, "the pair was not put to the agent"
    assert {r["state"] for r in records} == {"possible"}
    assert standing == {("ACTIVE", 5.0)}


@pytest.mark.parametrize(
    ("a", "b"),
    [
        # a history beside what is now
        (
            "We used to run the shop as a Django monolith, before the split.",
            "Each shop service is deployed independently.",
        ),
        # other things: the admin app and the storefront
        (
            "The admin app is server-rendered with Django templates.",
            "The storefront is a single-page app talking to the API.",
        ),
        # one note names both ways: a mix, not a design
        (
            "The web UI is server-rendered, except the editor, a single-page app.",
            "The web UI's editor is a single-page app.",
        ),
        # products used side by side, no note says "only"
        (
            "Orders are stored in Postgres.",
            "Analytics queries over orders run in BigQuery.",
        ),
        # other things of one kind
        (
            "Transactional e-mail goes out through Postmark.",
            "Marketing e-mail goes out through Mailchimp.",
        ),
        # one thing by two names
        (
            "Production runs on Kubernetes.",
            "The production cluster is an EKS cluster in eu-west-1.",
        ),
        # a duty several share
        (
            "Dana maintains the `api-gateway` repository.",
            "Luis also maintains api-gateway and reviews its PRs.",
        ),
        # a time changed, not a thing gone
        (
            "The nightly backup writes to the `backups` bucket.",
            "We moved the nightly backup from 01:00 to 02:00.",
        ),
        # a check that rejects input is no removal
        (
            "Passwords must be 12 to 128 characters long.",
            "The signup form rejects passwords shorter than twelve characters.",
        ),
    ],
)
async def test_look_alikes_of_these_stay_unasked(settings: Settings, a: str, b: str) -> None:
    records, standing = await pair_asked(settings, a, b, consolidate=True)
    assert not [r for r in records if r["state"] in ("possible", "open", "resolved")]
    assert standing == {("ACTIVE", 5.0)}
