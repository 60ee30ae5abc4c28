"""A bot's games and rating history on the site (`/api/bots/BOT/games`, `.../ratings`):
every game it played, newest first and paged, each from its side; its rating after each
rated game, ending at the standings' rating."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena_helpers import client, good_bot, opened_contest, register, settle, upload


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Any:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    folder: Path = tmp_path_factory.mktemp("botgames")
    with opened_contest(folder) as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", good_bot(), name="walker")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        assert work(store, LocalExecutor(0), ["cup"], games=8, seconds=60, sandbox=False) == 8
        yield web, alice


def _expected(web: Any, game_id: int, bot: str) -> tuple[str, list[str], int]:
    """(result, opponents, place) of `bot` in a game, from the game's own answer."""
    game = web.get(f"/api/games/{game_id}").json()
    seat = next(s for s in game["seats"] if s["bot"] == bot)
    ranks = game["ranks"]
    best = min(ranks)
    result = "lost" if seat["rank"] != best else "drew" if ranks.count(best) > 1 else "won"
    return result, [s["bot"] for s in game["seats"] if s["bot"] != bot], seat["rank"]


@pytest.mark.slow  # seconds on 2 cores
def test_a_bots_games_are_listed_newest_first_from_its_side(site: Any) -> None:
    web, _ = site
    answer = web.get("/api/bots/walker/games?limit=100").json()
    listed = answer["games"]
    assert answer["next"] is None
    assert [g["id"] for g in listed] == sorted((g["id"] for g in listed), reverse=True)
    assert "test" in {g["kind"] for g in listed} and "ladder" in {g["kind"] for g in listed}
    for game in listed:
        assert (game["result"], game["opponents"], game["place"]) == _expected(
            web, game["id"], "walker"
        )
    ladder = web.get("/api/bots/walker").json()["games"]
    assert sum(g["kind"] == "ladder" for g in listed) == ladder


def test_pages_join_up_and_the_opponent_filter_keeps_only_its_games(site: Any) -> None:
    web, _ = site
    whole = [g["id"] for g in web.get("/api/bots/walker/games?limit=100").json()["games"]]
    paged: list[int] = []
    url = "/api/bots/walker/games?limit=2"
    while True:
        page = web.get(url).json()
        paged += [g["id"] for g in page["games"]]
        if page["next"] is None:
            break
        assert len(page["games"]) == 2
        url = f"/api/bots/walker/games?limit=2&before={page['next']}"
    assert paged == whole
    against = web.get("/api/bots/walker/games?limit=100&opponent=runner").json()["games"]
    assert against and all("runner" in g["opponents"] for g in against)
    assert [g["id"] for g in against] == [
        g for g in whole if "runner" in _expected(web, g, "walker")[1]
    ]


def test_the_rating_history_ends_at_the_standings_rating(site: Any) -> None:
    web, _ = site
    standing = next(r for r in web.get("/api/standings").json() if r["bot"] == "walker")
    history = web.get("/api/bots/walker/ratings").json()
    [version] = history["versions"]
    assert version["version"] == standing["label"]
    points = version["ratings"]
    assert len(points) == standing["games"]
    assert points[-1]["mu"] == pytest.approx(standing["mu"])
    assert points[-1]["sigma"] == pytest.approx(standing["sigma"])
    assert points[-1]["ordinal"] == pytest.approx(standing["ordinal"])
    sigmas = [p["sigma"] for p in points]
    assert sigmas == sorted(sigmas, reverse=True)  # each game makes the rating surer


@pytest.mark.parametrize(
    ("url", "code"),
    [
        ("/api/bots/nobody/games", 404),
        ("/api/bots/nobody/ratings", 404),
        ("/api/bots/walker/games?limit=0", 400),
        ("/api/bots/walker/games?limit=101", 400),
        ("/api/bots/walker/games?before=x", 400),
    ],
)
def test_wrong_asks_are_one_line(site: Any, url: str, code: int) -> None:
    web, _ = site
    answer = web.get(url)
    assert answer.status_code == code and list(answer.json()) == ["error"]


def test_my_games_say_won_drew_or_lost(site: Any) -> None:
    web, alice = site
    mine = web.get("/api/me", headers=alice).json()["games"]
    assert mine
    for game in mine:
        assert game["result"] == _expected(web, game["id"], "walker")[0]
