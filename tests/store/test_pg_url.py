"""A shared store's address: recognised, shown and reported without its password."""

from __future__ import annotations

import pytest

from store.errors import InvalidInput
from store.pg.url import has_password, is_postgres_url, project_schema, reason, shown


def test_an_address_is_shown_without_its_password_in_any_place():
    assert shown("postgresql://team:s3cret@db.internal:5433/memory") == (
        "postgresql://team:***@db.internal:5433/memory"
    )
    assert shown("postgres://team@db/memory?sslmode=require&password=s3cret") == (
        "postgres://team@db/memory?sslmode=require&password=***"
    )
    assert shown("postgresql://[::1]:5432/memory") == "postgresql://[::1]:5432/memory"


def test_only_postgresql_addresses_are_taken_for_one():
    assert is_postgres_url("postgresql://localhost/memory")
    assert is_postgres_url("POSTGRES://localhost/memory")
    assert not is_postgres_url("/tmp/postgresql://x.duckdb")
    assert not is_postgres_url(None)


def test_a_password_is_found_wherever_it_is_given():
    assert has_password("postgresql://team:pw@db/memory")
    assert has_password("postgresql://team@db/memory?sslmode=require&password=pw")
    assert not has_password("postgresql://team@db/memory?sslmode=verify-full")


def test_an_error_repeating_the_password_is_reported_without_it():
    url = "postgresql://team:p%40ss@db/memory"
    said = reason(ValueError("bad option in team:p@ss and p%40ss\nsecond line"), url)
    assert said == "ValueError: bad option in team:*** and ***"


@pytest.mark.parametrize(
    ("project", "schema"),
    [("repo-0123456789abcdef", "anchormem_repo_0123456789abcdef"), ("Shop", "anchormem_shop")],
)
def test_a_project_names_its_schema(project: str, schema: str):
    assert project_schema(project) == schema


@pytest.mark.parametrize("project", ["", "a b", 'x"; DROP SCHEMA public; --', "-x", "a" * 49])
def test_a_project_that_cannot_name_a_schema_is_refused(project: str):
    with pytest.raises(InvalidInput, match="project name"):
        project_schema(project)
