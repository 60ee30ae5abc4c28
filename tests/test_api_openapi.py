"""The site's OpenAPI document: it describes exactly the routes the site serves, loads as
a valid OpenAPI 3.1 document, and states the name rule the site applies."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from arena_helpers import client, opened_contest
from botarena.arena.auth import valid_user
from botarena.arena.openapi import OPERATIONS, document
from botarena.arena.shapes import NAME_PATTERN

schemathesis = pytest.importorskip("schemathesis", reason="the API fuzzer (the test extras)")


@pytest.fixture
def web(tmp_path: Path):
    with opened_contest(tmp_path) as store, client(store) as made:
        yield made


def _api_routes(web) -> set[tuple[str, str]]:
    """(method, path) of every JSON API route the app serves, path parameters as OpenAPI
    writes them ({game:int} -> {game})."""
    found = set()
    for route in web.app.routes:
        path = getattr(route, "path", "")
        if not path.startswith("/api/"):
            continue
        plain = re.sub(r"\{(\w+)(:\w+)?\}", r"{\1}", path)
        for method in route.methods or ():
            if method != "HEAD":
                found.add((method.lower(), plain))
    return found


def test_every_route_of_the_api_is_documented_and_nothing_else(web) -> None:
    assert _api_routes(web) == set(OPERATIONS)


@pytest.mark.slow  # seconds on 2 cores
def test_the_site_serves_the_document_and_it_is_valid_openapi(web) -> None:
    answer = web.get("/api/openapi.json")
    assert answer.status_code == 200
    assert answer.json() == document()
    schemathesis.openapi.from_dict(answer.json()).validate()  # raises naming what is wrong


def test_a_documented_answer_shape_lists_what_only_owners_see_as_optional() -> None:
    bot = document()["components"]["schemas"]["Bot"]
    assert set(bot["required"]) == {
        "bot",
        "owner",
        "version",
        "status",
        "rating",
        "rank",
        "games",
        "active_version",
        "disabled",
        "role",
    }
    assert {"build_log", "reason", "test_game", "versions"} <= set(bot["properties"])


@given(st.text(alphabet=st.characters(codec="utf-8"), max_size=40))
def test_the_documented_name_pattern_is_the_rule_the_site_applies(name: str) -> None:
    assert (re.fullmatch(NAME_PATTERN.strip("^$"), name) is not None) == (valid_user(name) is None)


@given(st.from_regex(NAME_PATTERN, fullmatch=True))
def test_every_name_the_pattern_admits_is_a_valid_name(name: str) -> None:
    assert valid_user(name) is None
