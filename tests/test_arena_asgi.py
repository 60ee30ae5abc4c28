"""The site as an ASGI app any server imports (`botarena.arena.asgi:app`, #36): told its
contest and store by the environment, made on first use, its hash slots shared out among
the machine's web processes."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from arena_helpers import new_contest
from botarena.arena import asgi, auth


@pytest.fixture
def environment(monkeypatch: pytest.MonkeyPatch) -> Iterator[pytest.MonkeyPatch]:
    """No site variables set, and no app made yet in this process (made again after)."""
    for name in (asgi.CONTEST, asgi.DB, asgi.INSECURE, asgi.SERVE_PID, asgi.PROCESSES):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(auth, "hash_slots", auth.hash_slots)  # put back after the test
    asgi._site_app.cache_clear()
    yield monkeypatch
    asgi._site_app.cache_clear()


def test_importing_the_module_makes_no_app(environment: pytest.MonkeyPatch) -> None:
    importlib.reload(asgi)  # no variable set: an import alone must not fail
    with pytest.raises(AttributeError, match="no attribute 'application'"):
        asgi.application  # noqa: B018 - the module's attributes are looked up lazily


def test_the_app_says_which_variables_it_lacks(environment: pytest.MonkeyPatch) -> None:
    environment.setenv(asgi.DB, "sqlite:///nowhere.db")
    with pytest.raises(asgi.SiteNotConfigured) as refused:
        asgi.app  # noqa: B018
    assert str(refused.value) == (
        "botarena.arena.asgi:app needs BOTARENA_CONTEST set (the contest and the store's URL)"
    )


def test_the_app_serves_the_contest_named_in_the_environment(
    environment: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = f"sqlite:///{tmp_path / 'cup.db'}"
    new_contest(db, tmp_path)
    environment.setenv(asgi.CONTEST, "cup")
    environment.setenv(asgi.DB, db)
    environment.setenv(asgi.PROCESSES, "2")
    app = asgi.app
    assert asgi.app is app  # one app a process
    with TestClient(app) as web:
        answer = web.get("/api/contest")
    assert (answer.status_code, answer.json()["name"]) == (200, "cup")
    assert auth.hash_slots.count == max(1, auth.MACHINE_SLOTS // 2)
