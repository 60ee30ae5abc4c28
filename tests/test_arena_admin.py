"""The organiser's re-rating (arena/admin.py): computed again from the games, the ratings are
those the ladder reached game by game; a voided game counts as never played."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from hypothesis import given, settings
from hypothesis import strategies as st

from botarena.arena.admin import rerate
from botarena.tournament import ladder
from botarena.tournament.store import Store, _game, games, ladder_bots

LABELS = ["a", "b", "c", "d"]


def _ladder(folder: Path) -> tuple[Store, Any]:
    from botarena.core.registry import get_game
    from botarena.tournament.manage import BotRequest, Settings, create

    store = Store.open(f"sqlite:///{folder / 'ladder.db'}")
    tournament, _ = create(
        store,
        "cup",
        get_game("ants"),
        [BotRequest(label, "builtin:ants/random") for label in LABELS],
        Settings(schedule="ladder", seed=1, replay_dir=folder),
        folder / "build",
        print,
    )
    return store, tournament


def _play(store: Store, tournament: Any, seats: list[str], ranks: list[int], at: float) -> int:
    """A finished ladder game, rated as `ladder.finish` rates it."""
    with store.transaction() as conn:
        row = conn.execute(
            games.insert()
            .values(
                tournament_id=tournament.id,
                key=f"cup/{at}",
                round=0,
                pairing="-".join(seats),
                idx=0,
                seed=0,
                seats=seats,
                status="done",
                ranks=ranks,
                scores=[0] * len(seats),
                statuses=["ok"] * len(seats),
                faults=[0] * len(seats),
                finished_at=at,
            )
            .returning(*games.c)
        ).one()
        ladder._rate(conn, _game(row), ranks)
    return row.id


def _ratings(store: Store) -> dict[str, tuple[float, float, int]]:
    with store.engine.connect() as conn:
        rows = conn.execute(sa.select(ladder_bots)).all()
    return {row.label: (row.mu, row.sigma, row.games) for row in rows}


game_lists = st.lists(
    st.permutations(LABELS).flatmap(
        lambda order: st.integers(2, 4).flatmap(
            lambda size: st.tuples(
                st.just(list(order[:size])),
                st.lists(st.integers(1, size), min_size=size, max_size=size),
            )
        )
    ),
    min_size=1,
    max_size=12,
)


@pytest.mark.slow  # seconds on 2 cores
@settings(max_examples=25, deadline=None)
@given(played=game_lists)
def test_rerate_finds_the_ratings_played_game_by_game(
    tmp_path_factory: pytest.TempPathFactory, played: list[tuple[list[str], list[int]]]
) -> None:
    store, tournament = _ladder(tmp_path_factory.mktemp("rerate"))
    try:
        for index, (seats, ranks) in enumerate(played):
            _play(store, tournament, seats, ranks, float(index))
        live = _ratings(store)
        with store.transaction() as conn:
            rerate(conn, tournament)
        again = _ratings(store)
        assert again.keys() == live.keys()
        for label, (mu, sigma, count) in live.items():
            assert again[label][0] == pytest.approx(mu, abs=1e-9)
            assert again[label][1] == pytest.approx(sigma, abs=1e-9)
            assert again[label][2] == count
    finally:
        store.close()


def test_a_voided_game_counts_as_never_played(tmp_path: Path) -> None:
    store, tournament = _ladder(tmp_path)
    void = _play(store, tournament, ["a", "b"], [1, 2], 1.0)
    _play(store, tournament, ["b", "c"], [1, 2], 2.0)
    with store.transaction() as conn:
        conn.execute(games.update().where(games.c.id == void).values(status="void"))
        rerate(conn, tournament)
    after = _ratings(store)
    (tmp_path / "other").mkdir()
    other, _ = _ladder(tmp_path / "other")  # the ladder where only b-c was played
    _play(other, other.tournament("cup"), ["b", "c"], [1, 2], 2.0)
    want = _ratings(other)
    assert after.keys() == want.keys()
    for label, rating in want.items():
        assert after[label] == pytest.approx(rating)
    assert after["a"] == (ladder.MU, ladder.SIGMA, 0)
    other.close()
    store.close()
