"""Live ladder ratings equal the ratings computed again from the played games after every
kind of event: a game claimed, finished, voided, a bot disabled, enabled, updated, a worker
killed while it recorded a result (the organiser's complaint: voiding one game changed five
others, games the live ladder had never rated because a seat was replaced meanwhile); in a
ladder of places and in a ladder of roles (rated by comparisons with earlier games)."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.arena.admin import reenable, rerate, void_game
from botarena.tournament import ladder
from botarena.tournament.store import Store, games, ladder_bots, ladder_ratings

NAMES = ["a", "b", "c", "d"]
EVENTS = ("claim", "finish", "void", "disable", "enable", "update", "killed")
SPECS = {
    "amazes": dict.fromkeys(NAMES, "builtin:amazes/random"),
    "labyrinth": {
        "a": "builtin:labyrinth/wallfollower",
        "b": "builtin:labyrinth/cartographer",
        "c": "builtin:labyrinth/warden",
        "d": "builtin:labyrinth/static",
    },
}
"""Each game's bots: a ladder of places, and one of roles (a and b adventurers)."""
ROLES = {"amazes": {}, "labyrinth": {"a": "adventurers", "b": "adventurers"}}


def _ladder(folder: Path, game: str = "amazes") -> tuple[Store, Any]:
    from botarena.core.registry import get_game
    from botarena.tournament.manage import BotRequest, Settings, create

    store = Store.open(f"sqlite:///{folder / 'ladder.db'}")
    tournament, _ = create(
        store,
        "cup",
        get_game(game),
        [BotRequest(name, spec) for name, spec in SPECS[game].items()],
        Settings(schedule="ladder", seed=1, replay_dir=folder),
        folder / "build",
        print,
    )
    return store, tournament


def _ratings(conn: Any) -> dict[Any, tuple[float, float, int]]:
    """Each version's rating and game count, and its rating after each game (its chart)."""
    found: dict[Any, tuple[float, float, int]] = {
        row.label: (row.mu, row.sigma, row.games) for row in conn.execute(sa.select(ladder_bots))
    }
    for row in conn.execute(sa.select(ladder_ratings)):
        found[(row.game_id, row.label)] = (row.mu, row.sigma, 0)
    return found


def _recomputed(store: Store, tournament: Any) -> dict[str, tuple[float, float, int]]:
    """The ratings `rerate` finds from the played games, in a transaction rolled back."""
    with store.engine.connect() as conn:
        work = conn.begin()
        rerate(conn, tournament)
        found = _ratings(conn)
        work.rollback()
    return found


def _result(seats: list[str], rng: random.Random, shared: bool = False) -> dict[str, Any]:
    """Random places; `shared`: one score for every seat, drawn from three (a role game's)."""
    ranks = [rng.randint(1, len(seats)) for _ in seats]
    return {
        "scores": [rng.choice([0, 500, 1000]) if shared else 0] * len(seats),
        "ranks": ranks,
        "statuses": ["ok"] * len(seats),
        "faults": [0] * len(seats),
        "turns": 1,
        "end_reason": "test",
        "replay": None,
    }


def _apply(event: str, store: Store, tournament: Any, state: dict[str, Any]) -> None:
    rng: random.Random = state["rng"]
    claimed: list[Any] = state["claimed"]
    name = rng.choice(NAMES)
    if event == "claim":
        game = ladder.make_and_claim(store, tournament, "w", rng)
        if game is not None:
            claimed.append(game)
    elif event in ("finish", "killed") and claimed:
        game = claimed.pop(rng.randrange(len(claimed)))
        if event == "finish":
            result = _result(game.seats, rng, tournament.game == "labyrinth")
            assert ladder.finish(store, game, "w", result, True)
        else:  # the worker died mid-record: its transaction never committed, its claim given back
            with pytest.raises(RuntimeError), store.transaction() as conn:
                conn.execute(games.update().where(games.c.id == game.id).values(status="done"))
                raise RuntimeError("kill -9")
            with store.transaction() as conn:
                conn.execute(
                    games.update()
                    .where(games.c.id == game.id)
                    .values(status="pending", claimed_by=None)
                )
    elif event == "void":
        with store.transaction() as conn:
            done = conn.execute(
                sa.select(games.c.id).where(games.c.status == "done").order_by(games.c.id)
            ).all()
            if done:
                void_game(conn, rng.choice(done).id, tournament)
    elif event == "disable":
        with store.transaction() as conn:
            ladder.retire(conn, tournament, name)
    elif event == "enable":
        with store.transaction() as conn:
            reenable(conn, tournament, name)
    elif event == "update":
        state["versions"][name] = state["versions"].get(name, 1) + 1
        role = ROLES[tournament.game].get(name, "maze master") if ROLES[tournament.game] else None
        with store.transaction() as conn:
            ladder.join(conn, tournament, name, f"{name}@v{state['versions'][name]}", role)


@pytest.mark.slow
@pytest.mark.parametrize("game", ["amazes", "labyrinth"])
@settings(max_examples=30, deadline=None)
@given(events=st.lists(st.sampled_from(EVENTS), min_size=1, max_size=24), seed=st.integers(0, 99))
def test_live_ratings_equal_the_recomputed_ones_after_every_event(
    tmp_path_factory: pytest.TempPathFactory, game: str, events: list[str], seed: int
) -> None:
    store, tournament = _ladder(tmp_path_factory.mktemp("live"), game)
    state: dict[str, Any] = {"rng": random.Random(seed), "claimed": [], "versions": {}}
    try:
        for step, event in enumerate(events):
            _apply(event, store, tournament, state)
            with store.engine.connect() as conn:
                live = _ratings(conn)
            again = _recomputed(store, tournament)
            assert again.keys() == live.keys()
            for label, (mu, sigma, count) in live.items():
                assert again[label][2] == count, (step, event, label)
                assert again[label][0] == pytest.approx(mu, abs=1e-9), (step, event, label)
                assert again[label][1] == pytest.approx(sigma, abs=1e-9), (step, event, label)
    finally:
        store.close()


def test_a_game_whose_seat_was_replaced_while_it_played_counts_live_as_recomputed(
    tmp_path: Path,
) -> None:
    """The organiser's case: b updated while a-b played; the game is rated when it ends, so
    voiding another game later changes only that game's share."""
    store, tournament = _ladder(tmp_path)
    rng = random.Random(3)
    game = ladder.make_and_claim(store, tournament, "w", rng)
    assert game is not None
    name = game.seats[1]
    with store.transaction() as conn:
        ladder.join(conn, tournament, name, f"{name}@v2")
    result = _result(game.seats, rng)
    result["ranks"] = [1, 2]
    assert ladder.finish(store, game, "w", result, True)
    with store.engine.connect() as conn:
        counts = {row.label: row.games for row in conn.execute(sa.select(ladder_bots))}
    assert counts[game.seats[0]] == 1 and counts[name] == 1 and counts[f"{name}@v2"] == 0
    store.close()
