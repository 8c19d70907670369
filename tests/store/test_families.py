"""Technology families: which products a note names as doing one job (a candidate for
the agent, never a decision)."""

from __future__ import annotations

import pytest

from store.contradictions.families import FAMILIES, FAMILY, families_of


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("We got rid of Sentry.", "error-tracking"),
        ("exceptions go to Rollbar now", "error-tracking"),
        ("the UI is a Next.js app", "ui-framework"),
        ("the UI is a NextJS app", "ui-framework"),
        ("Both apps come from one React Native codebase", "mobile-stack"),
        ("CI is a GitHub Actions workflow", "ci"),
        ("prod is one VM running docker-compose", "hosting"),
        ("Deploys are ArgoCD syncs of the Helm chart", "deploy-tool"),
    ],
)
def test_a_product_named_gives_its_family(text: str, family: str) -> None:
    assert FAMILY + family in families_of(text)


@pytest.mark.parametrize(
    ("text", "family"),
    [
        ("Each microservice has its own database.", "database"),
        ("Exceptions go to the error tracker.", "error-tracking"),
        ("Search runs against a separate search index.", "search-engine"),
        ("Production is one virtual machine.", "hosting"),
        ("Login goes through the company's identity provider.", "identity"),
    ],
)
def test_the_name_of_a_familys_job_gives_the_family(text: str, family: str) -> None:
    """"the database" is about what "Postgres" is about: a candidate, never a decision."""
    assert FAMILY + family in families_of(text)


def test_the_longest_name_at_a_place_wins() -> None:
    # "react native" is a mobile stack; "react" alone would be a web UI framework.
    assert families_of("a React Native app") == {FAMILY + "mobile-stack"}


@pytest.mark.parametrize(
    "text",
    [
        "each key may make 1000 requests per hour",
        "the rest of the handlers are synchronous",
        "server-rendered pages",
        "the jobs are dispatched in the background",
        "sentryish names are not products",
        "",
    ],
)
def test_ordinary_words_name_no_family(text: str) -> None:
    assert families_of(text) == frozenset()


def test_every_family_has_members_and_no_member_is_blank() -> None:
    assert len(FAMILIES) >= 30
    for family, members in FAMILIES.items():
        assert family and " " not in family
        assert len(members) >= 3, family
        assert all(m and m == m.strip().lower() for m in members)
