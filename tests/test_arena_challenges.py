"""Challenges (CodinGame's "play against"): an owner's bot against chosen ones, one game
now on a worker, outside the ladder: recorded with its replay and the owner's stderr, never
rated, bounded per hour; only the owner may ask; a game of more seats than the bots named
fills them with the sample bot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from arena_helpers import (
    STDERR_SECRET,
    client,
    good_bot,
    opened_contest,
    register,
    settle,
    upload,
)


@pytest.fixture
def site(tmp_path: Path) -> Any:
    with opened_contest(tmp_path, "challenges_per_hour=2") as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", good_bot(), name="walker")
        upload(web, bob, "bot.py", good_bot(), name="runner")
        settle(store)
        yield store, web, alice, bob


def _work(store: Any, games: int) -> int:
    from botarena.tournament.executors import LocalExecutor
    from botarena.tournament.runner import work

    return work(store, LocalExecutor(0), ["cup"], games=games, seconds=30, sandbox=False)


def test_a_challenge_is_played_now_shown_to_its_owner_and_never_rated(site: Any) -> None:
    store, web, alice, _ = site
    before = web.get("/api/standings").json()
    asked = web.post("/api/bots/walker/challenge", headers=alice, json={"opponent": "runner"})
    assert asked.status_code == 202, asked.text
    game_id = asked.json()["game"]
    assert asked.json() == {"game": game_id, "status": "pending"}
    assert _work(store, 1) == 1  # a pending challenge goes before any ladder game
    game = web.get(f"/api/games/{game_id}", headers=alice).json()
    assert game["kind"] == "challenge" and game["status"] == "done"
    assert sorted(seat["bot"] for seat in game["seats"]) == ["runner", "walker"]
    mine = next(seat for seat in game["seats"] if seat["bot"] == "walker")
    theirs = next(seat for seat in game["seats"] if seat["bot"] == "runner")
    assert STDERR_SECRET in mine["stderr"] and "stderr" not in theirs
    assert web.get("/api/standings").json() == before  # not rated: no game counted
    listed = web.get("/api/bots/walker/games").json()["games"]
    assert listed[0]["id"] == game_id and listed[0]["kind"] == "challenge"
    assert web.get(f"/api/games/{game_id}/replay").status_code == 200


def test_only_the_owner_challenges_within_the_hours_bound(site: Any) -> None:
    _, web, alice, bob = site
    theirs = web.post("/api/bots/walker/challenge", headers=bob, json={"opponent": "runner"})
    assert theirs.status_code == 403
    nobody = web.post("/api/bots/walker/challenge", json={"opponent": "runner"})
    assert nobody.status_code == 401
    for body, code in (
        ({}, 400),
        ({"opponent": "runner", "opponents": ["runner"]}, 400),
        ({"opponents": []}, 400),
        ({"opponents": "runner"}, 400),
        ({"opponents": ["runner", 7]}, 400),
        ({"opponent": "walker"}, 409),
        ({"opponent": "ghost"}, 409),
        ({"opponents": ["runner", "runner"]}, 409),
        ({"opponents": ["runner", "sample"]}, 409),  # Amazes has two seats
    ):
        answer = web.post("/api/bots/walker/challenge", headers=alice, json=body)
        assert answer.status_code == code and list(answer.json()) == ["error"], body
    codes = [
        web.post("/api/bots/walker/challenge", headers=alice, json={"opponent": "runner"})
        for _ in range(3)
    ]
    assert [c.status_code for c in codes] == [202, 202, 429]  # -o challenges_per_hour=2
    assert codes[2].json() == {"error": "at most 2 challenges per hour: try again in 60 minutes"}
    assert codes[2].headers["retry-after"].isdigit()


@pytest.mark.slow
def test_a_four_seat_game_fills_the_seats_not_named_with_the_sample_bot(tmp_path: Path) -> None:
    """Falldown is played by four: a challenge of one opponent plays it, the sample bot, as
    in an upload's test game, taking the two other seats; naming two leaves it one; a fifth
    bot is one too many."""
    with opened_contest(tmp_path, game="falldown") as store, client(store) as web:
        alice, bob = register(web, "alice"), register(web, "bob")
        upload(web, alice, "bot.py", good_bot("falldown"), name="walker")
        upload(web, bob, "bot.py", good_bot("falldown"), name="runner")
        settle(store)
        one = web.post("/api/bots/walker/challenge", headers=alice, json={"opponent": "runner"})
        assert one.status_code == 202, one.text
        two = web.post(
            "/api/bots/walker/challenge", headers=alice, json={"opponents": ["runner", "sample"]}
        )
        assert two.status_code == 202, two.text
        five = web.post(
            "/api/bots/walker/challenge",
            headers=alice,
            json={"opponents": ["runner", "sample", "a", "b"]},
        )
        assert (five.status_code, five.json()) == (
            409,
            {"error": "a falldown game has at most 4 seats: name at most 3 opponent(s)"},
        )
        assert _work(store, 2) == 2
        for asked, seats in (
            (one, ["runner", "sample-1", "sample-2", "walker"]),
            (two, ["runner", "sample", "sample-1", "walker"]),
        ):
            game = web.get(f"/api/games/{asked.json()['game']}").json()
            assert (game["kind"], game["status"]) == ("challenge", "done")
            assert sorted(seat["bot"] for seat in game["seats"]) == seats
